#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""The size report: what the library costs in flash and RAM on small chips.

usage: size_report.py [--root DIR]      (or: meson compile -C build size-report)

Compiles the sources of cross/size/ with -Os for a Cortex-M0, a Cortex-M3,
an ATmega328P, an RV32IMC and an RV32EC (arm-none-eabi-gcc, avr-gcc,
riscv64-unknown-elf-gcc; freestanding: nothing is linked or run, so no
multilib or C library is needed for either RISC-V) and prints one Markdown
table, a column per target:

  loop core, flash   the code of the core's entry points, each once
                     (cross/size/loop_core.c: ready queue, timers,
                     spawn, cancel, sleep, join, the run modes; no I/O),
                     built with PT_CONFIG_SYNC, PT_CONFIG_GROUPS,
                     PT_CONFIG_BACKGROUND and PT_CONFIG_CALLBACKS 0, the
                     timers in a list (a board's default: loop/timers.h)
  ... with the heap  the same with PT_CONFIG_TIMERS=PT_TIMERS_HEAP
  + each of those    what turning that one on adds to the same code
  ... sync, groups,  the first three on, callbacks at 0: what a program
      background     of tasks alone (no callback handles, no timeout
                     scopes) has
  the default        all four on, as a program gets them unless it
                     says otherwise: flash and RAM
  loop core, RAM     what the core needs whatever the program: struct
                     pt_loop, plus the core's own data (none)
  per task / timer   struct pt_task (with either); one slot of the heap's
                     array (the list has none)
  per object         a callback handle, a timeout scope, and the sync
                     objects (event ... barrier), queue, group
  pt/ alone          its state structs, and the code of one small
                     protothread and one small generator (thread_fn.c,
                     gen_fn.c): pt/ has no code of its own outside them
  a small loop task  the code of one task body (task_fn.c): what a task
                     costs besides the core it calls

Exits nonzero if a compiler is missing or a source does not compile
cleanly (-Wall -Wextra -Wpedantic -Werror).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

WARN = ["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
TARGETS = [
    ("Cortex-M0", "arm-none-eabi-", ["-mcpu=cortex-m0", "-mthumb", "-ffreestanding", "-Os"]),
    ("Cortex-M3", "arm-none-eabi-", ["-mcpu=cortex-m3", "-mthumb", "-ffreestanding", "-Os"]),
    ("ATmega328P", "avr-", ["-mmcu=atmega328p", "-ffreestanding", "-Os"]),
    # RISC-V: compressed instructions on (C), as on every small RV32 chip;
    # RV32EC is the 16-register base of the smallest ones.
    ("RV32IMC", "riscv64-unknown-elf-", ["-march=rv32imc", "-mabi=ilp32", "-ffreestanding", "-Os"]),
    ("RV32EC", "riscv64-unknown-elf-", ["-march=rv32ec", "-mabi=ilp32e", "-ffreestanding", "-Os"]),
]


def compile_obj(prefix, flags, root, src, out, extra=()):
    cmd = [prefix + "gcc", *flags, *WARN, *extra, "-I", root, "-c", src, "-o", out]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0 or run.stderr.strip():
        sys.stderr.write(" ".join(cmd) + "\n" + run.stderr)
        raise SystemExit(f"size_report: {os.path.basename(src)} did not compile cleanly")


def sections(prefix, obj):
    """(text, data, bss) of an object, as <target>-size prints them."""
    out = subprocess.run([prefix + "size", obj], capture_output=True, text=True, check=True)
    text, data, bss = out.stdout.splitlines()[1].split()[:3]
    return int(text), int(data), int(bss)


def symbol_sizes(prefix, obj):
    out = subprocess.run([prefix + "nm", "-S", obj], capture_output=True, text=True, check=True)
    sizes = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4:
            sizes[parts[3]] = int(parts[1], 16)
    return sizes


HEAP = "-DPT_CONFIG_TIMERS=PT_TIMERS_HEAP"

# The core's options: each left out (0) of the loop core's row, on (1) in
# the default's.
OPTIONS = ["PT_CONFIG_SYNC", "PT_CONFIG_GROUPS", "PT_CONFIG_BACKGROUND", "PT_CONFIG_CALLBACKS"]


def core(prefix, flags, root, tmp, on, extra=()):
    """(flash, fixed RAM) of the loop core with the options in `on` at 1."""
    src = os.path.join(root, "cross", "size")
    defs = [f"-D{o}={int(o in on)}" for o in OPTIONS] + list(extra)
    obj, sizes = os.path.join(tmp, "loop_core.o"), os.path.join(tmp, "sizes_core.o")
    compile_obj(prefix, flags, root, os.path.join(src, "loop_core.c"), obj, defs)
    compile_obj(prefix, flags, root, os.path.join(src, "sizes.c"), sizes, defs)
    text, data, bss = sections(prefix, obj)
    return text + data, symbol_sizes(prefix, sizes)["size_loop"] + data + bss


def measure(prefix, flags, root, tmp):
    src = os.path.join(root, "cross", "size")
    objs = {}
    for name in ["sizes", "thread_fn", "gen_fn", "task_fn"]:
        objs[name] = os.path.join(tmp, name + ".o")
        compile_obj(prefix, flags, root, os.path.join(src, name + ".c"), objs[name])
    labels = os.path.join(tmp, "sizes_labels.o")
    compile_obj(prefix, flags, root, os.path.join(src, "sizes.c"), labels, ["-DPT_CONFIG_LC_ADDRLABELS=1"])
    s = symbol_sizes(prefix, objs["sizes"])
    s_labels = symbol_sizes(prefix, labels)
    flash, ram = core(prefix, flags, root, tmp, set())
    r = {"core_flash": flash, "core_ram": ram}
    for o in OPTIONS:
        r[o] = core(prefix, flags, root, tmp, {o})[0] - flash
    r["tasks_flash"] = core(prefix, flags, root, tmp, set(OPTIONS) - {"PT_CONFIG_CALLBACKS"})[0]
    r["all_flash"], r["all_ram"] = core(prefix, flags, root, tmp, set(OPTIONS))
    r["heap_flash"] = core(prefix, flags, root, tmp, set(), [HEAP])[0]
    r["heap_all_flash"] = core(prefix, flags, root, tmp, set(OPTIONS), [HEAP])[0]
    r["stall_flash"] = core(prefix, flags, root, tmp, set(), ["-DPT_CONFIG_STALL_CHECK=1"])[0] - flash
    heap = os.path.join(tmp, "sizes_heap.o")
    compile_obj(prefix, flags, root, os.path.join(src, "sizes.c"), heap, [HEAP])
    r["heap_task"] = symbol_sizes(prefix, heap)["size_task"]
    r.update({
        "task": s["size_task"],
        "timer": s["size_timer"],
        "pt": s["size_pt"],
        "pt_gen": s["size_pt_gen"],
        "pt_sem": s["size_pt_sem"],
        "handle": s["size_handle"],
        "timeout": s["size_timeout"],
        "event": s["size_event"],
        "loop_sem": s["size_loop_sem"],
        "lock": s["size_lock"],
        "cond": s["size_cond"],
        "barrier": s["size_barrier"],
        "queue": s["size_queue"],
        "group": s["size_group"],
        "pt_labels": s_labels["size_pt"],
        "pt_gen_labels": s_labels["size_pt_gen"],
        "thread": sum(sections(prefix, objs["thread_fn"])[:2]),
        "gen": sum(sections(prefix, objs["gen_fn"])[:2]),
        "task_fn": sum(sections(prefix, objs["task_fn"])[:2]),
    })
    return r


ROWS = [
    ("core_flash", "loop core: flash (every entry point; the options below at 0; timers in a list)"),
    ("heap_flash", "loop core with the timer heap (PT_TIMERS_HEAP): flash"),
    ("stall_flash", "+ PT_CONFIG_STALL_CHECK (virtual clock: waits the loop cannot see): flash"),
    ("core_ram", "loop core: fixed RAM (struct pt_loop; the options at 0)"),
    ("PT_CONFIG_SYNC", "+ PT_CONFIG_SYNC alone (waiter lists: sync.h): flash"),
    ("PT_CONFIG_GROUPS", "+ PT_CONFIG_GROUPS alone (task groups: group.h): flash"),
    ("PT_CONFIG_BACKGROUND", "+ PT_CONFIG_BACKGROUND alone (pt_loop_spawn_background): flash"),
    ("PT_CONFIG_CALLBACKS", "+ PT_CONFIG_CALLBACKS alone (callbacks, timeout scopes): flash"),
    ("tasks_flash", "loop core with sync, groups, background (PT_CONFIG_CALLBACKS 0): flash"),
    ("all_flash", "loop core, the four options at 1 (the default): flash"),
    ("all_ram", "loop core, the four options at 1 (the default): fixed RAM"),
    ("heap_all_flash", "the default with the timer heap: flash"),
    ("task", "RAM per task (struct pt_task)"),
    ("heap_task", "RAM per task with the timer heap"),
    ("handle", "RAM per callback handle (struct pt_handle)"),
    ("timeout", "RAM per timeout scope (struct pt_timeout)"),
    ("event", "RAM: struct pt_event"),
    ("loop_sem", "RAM: struct pt_semaphore"),
    ("lock", "RAM: struct pt_lock"),
    ("cond", "RAM: struct pt_cond"),
    ("barrier", "RAM: struct pt_barrier"),
    ("queue", "RAM: struct pt_queue (its slots apart)"),
    ("group", "RAM: struct pt_group (its member array apart)"),
    ("timer", "RAM per timer with the heap (a slot of its array; the list: none)"),
    ("pt", "pt/: struct pt"),
    ("pt_gen", "pt/: struct pt_gen (generator)"),
    ("pt_sem", "pt/: struct pt_sem"),
    ("pt_labels", "pt/: struct pt, labels back end"),
    ("pt_gen_labels", "pt/: struct pt_gen, labels back end"),
    ("thread", "pt/: flash of a small protothread (thread_fn.c)"),
    ("gen", "pt/: flash of a small generator (gen_fn.c)"),
    ("task_fn", "flash of a small loop task (task_fn.c: sleeps, yields)"),
]


def version(prefix):
    out = subprocess.run([prefix + "gcc", "--version"], capture_output=True, text=True)
    return out.stdout.splitlines()[0] if out.returncode == 0 else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.dirname(here), help="the project's root")
    args = ap.parse_args()

    missing = {p + t for _, p, _ in TARGETS for t in ("gcc", "size", "nm") if not shutil.which(p + t)}
    if missing:
        raise SystemExit("size_report: not found: " + ", ".join(sorted(missing)))

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, prefix, flags in TARGETS:
            results.append(measure(prefix, flags, args.root, tmp))

    print("Size report: bytes, -Os, switch back end (the default) unless said; nothing linked.")
    for prefix in sorted({p for _, p, _ in TARGETS}):
        print(f"  {prefix}gcc: {version(prefix)}")
    print()
    print("| | " + " | ".join(name for name, _, _ in TARGETS) + " |")
    print("|---|" + "---:|" * len(TARGETS))
    for key, label in ROWS:
        print(f"| {label} | " + " | ".join(f"{r[key]:,}" for r in results) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
