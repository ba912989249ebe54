#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/arduino/check.py - the Arduino library on an Arduino Uno, under
simavr: the port (loop/port/arduino.h), ptloop.h and the example sketch.

usage: check.py [--build-dir DIR] [--core DIR] [--timeout SECONDS]

Needs avr-gcc, avr-g++, avr-gcc-ar, simavr and the Arduino AVR core
(Debian: apt-get install gcc-avr avr-libc simavr arduino-core-avr); uses
arduino-builder (Debian: arduino-builder) if it is there. Exits 0 if all
passes, 1 on a failure, 77 (a skip, for meson) if a tool is missing.

1. The core: every source of cores/arduino (--core, default Debian's
   /usr/share/arduino/hardware/arduino/avr) compiled with the flags of the
   core's platform.txt for the Uno (-mmcu=atmega328p -DF_CPU=16000000L
   -DARDUINO=10819 -DARDUINO_AVR_UNO -DARDUINO_ARCH_AVR, -Os, -flto),
   into core.a, as the Arduino IDE does. One addition: Debian's avr-gcc 5
   gives C++ no DECIMAL_DIG, which the core's WString.cpp needs; it is
   defined as the compiler's __DECIMAL_DIG__, the value <float.h> gives C.

2. The sketch, examples/BlinkAndReport/BlinkAndReport.ino: made a C++
   file as the IDE does (#include <Arduino.h> first), compiled with the
   library's root as its include path (the flat layout of the library
   specification) under -Wall -Wextra -Wpedantic -Werror, as gnu++11 (the
   Uno core's) and again as gnu++1z (avr-gcc 5's name for the gnu++17 of
   newer cores); linked with core.a. It
   runs under simavr until it has printed REPORTS reports; then simavr is
   stopped (the sketch runs for ever, as sketches do). Its lines must show:
   delay(250) measured by millis() as 249 to 251 ms (Timer0 is the core's
   still); blink every 500 ms and report every 1000 ms by the loop's clock,
   never early and at most LATE_MAX ms late, from the start on; millis()
   at each print no less than the loop's time of that turn and at most
   PRINT_MAX ms more (the tasks before it in the turn print first); the LED
   on and off in turn; each report counting the blinks printed before it.

3. tests/arduino/test_port.c, the port's contract as named cases (TAP),
   linked with core.a (not its main()) and cross/avr/board.c, run by
   cross/avr/run_simavr.py: every case must pass. Again with PT_CONFIG_DEBUG=1.

4. If arduino-builder is installed: the sketch built by it as the Arduino
   IDE 1.8 builds it, with a libraries folder holding this tree as
   "ptloop": it must find the library from #include <ptloop.h> alone,
   generate the sketch's prototypes, compile without a warning from the
   sketch or the library (-warnings all), and the program must pass as in
   step 2.

5. The port off the AVR (yield() only, no sleep): ptloop.h and a task
   compiled by this host's gcc and g++ (if there) with ARDUINO defined and
   PT_CONFIG_POSIX=0, against a stand-in <Arduino.h> that declares millis(),
   micros() and yield() as every core does, as C99 and as C++11, with and
   without PT_CONFIG_DEBUG, -Wall -Wextra -Wpedantic -Werror.

Everything is built in --build-dir (default: a temporary folder, removed
at the end). Every compile of the library's and the tests' files fails on
any compiler output; the core's own warnings are its own (-w).
"""
import os
import re
import selectors
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "cross", "avr"))
sys.dont_write_bytecode = True  # no __pycache__ left in cross/avr/
import run_simavr  # noqa: E402  (the UART decoding of simavr's output)

SKETCH = "BlinkAndReport"
DEFAULT_CORE = "/usr/share/arduino/hardware/arduino/avr"
TOOLS = ["avr-gcc", "avr-g++", "avr-gcc-ar", "simavr"]

MCU = ["-mmcu=atmega328p"]
DEFS = ["-DF_CPU=16000000L", "-DARDUINO=10819", "-DARDUINO_AVR_UNO", "-DARDUINO_ARCH_AVR"]
# platform.txt's compiler.*.flags (less -g, -MMD: no debugger, no make).
C_FLAGS = ["-c", "-Os", "-std=gnu11", "-ffunction-sections", "-fdata-sections", "-flto",
           "-fno-fat-lto-objects"]
CXX_FLAGS = ["-c", "-Os", "-fno-exceptions", "-ffunction-sections", "-fdata-sections",
             "-fno-threadsafe-statics", "-flto"]
CORE_CXX = ["-std=gnu++11", "-fpermissive", "-Wno-error=narrowing", "-DDECIMAL_DIG=__DECIMAL_DIG__"]
S_FLAGS = ["-c", "-x", "assembler-with-cpp", "-flto"]
LINK_FLAGS = ["-Os", "-flto", "-fuse-linker-plugin", "-Wl,--gc-sections"] + MCU
STRICT = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]

REPORTS = 5  # reports the sketch must print (5 s of simulated time)
BLINK_MS, REPORT_MS = 500, 1000
LATE_MAX = 2  # ms a wake-up may come late (loop/port/arduino.h)
PRINT_MAX = 5  # ms of printing by the tasks before it in the same turn

failures = []


def fail(what: str) -> None:
    failures.append(what)
    print(f"FAILED: {what}")


def run(cmd, quiet_ok=True, cwd=None) -> bool:
    """Run a compile; with quiet_ok, any output is a failure too."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                       env=dict(os.environ, LC_ALL="C"))
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0 or (quiet_ok and out.strip()):
        print("  $ " + " ".join(cmd))
        sys.stdout.write("".join("  | " + line + "\n" for line in out.splitlines()))
        return False
    return True


# ---- 1. the core -----------------------------------------------------------

def build_core(core: str, out: str) -> str:
    src = os.path.join(core, "cores", "arduino")
    inc = ["-I" + src, "-I" + os.path.join(core, "variants", "standard")]
    os.makedirs(out, exist_ok=True)
    objs = []
    for name in sorted(os.listdir(src)):
        path, obj = os.path.join(src, name), os.path.join(out, name + ".o")
        if name.endswith(".c"):
            cmd = ["avr-gcc"] + C_FLAGS + ["-w"]
        elif name.endswith(".cpp"):
            cmd = ["avr-g++"] + CXX_FLAGS + CORE_CXX + ["-w"]
        elif name.endswith(".S"):
            cmd = ["avr-gcc"] + S_FLAGS
        else:
            continue
        if not run(cmd + MCU + DEFS + inc + [path, "-o", obj], quiet_ok=False):
            fail(f"the core's {name} does not compile")
        objs.append(obj)
    lib = os.path.join(out, "core.a")
    if os.path.exists(lib):
        os.unlink(lib)
    if not run(["avr-gcc-ar", "rcs", lib] + objs, quiet_ok=False):
        fail("core.a")
    print(f"core: {len(objs)} files of {src} in {lib}")
    return lib


def core_includes(core: str) -> list:
    return ["-I" + os.path.join(core, "cores", "arduino"),
            "-I" + os.path.join(core, "variants", "standard")]


# ---- running under simavr --------------------------------------------------

class Capture(run_simavr.Decoder):
    """simavr's output decoded as run_simavr.py does, the UART lines kept."""

    def __init__(self) -> None:
        super().__init__()
        self.lines = []
        self.partial = b""

    def out(self, data: bytes) -> None:
        self.partial += data
        while b"\n" in self.partial:
            line, self.partial = self.partial.split(b"\n", 1)
            # Serial.println ends a line with CR LF; simavr shows the CR as '.'.
            text = line.decode("utf-8", "replace")
            if text.endswith("."):
                text = text[:-1]
            self.lines.append(text)
            print("  " + text)


def run_until(elf: str, done, timeout: float) -> list:
    """Run elf under simavr until done(lines) is true; its UART lines."""
    cap = Capture()
    proc = subprocess.Popen(run_simavr.SIMAVR + [elf], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "out")
    sel.register(proc.stderr, selectors.EVENT_READ, "err")
    start = time.monotonic()
    deadline = start + timeout
    try:
        while sel.get_map() and not cap.crashed and not done(cap.lines):
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"{os.path.basename(elf)}: not done after {timeout:g} s; simavr killed")
                break
            for key, _ in sel.select(left):
                data = os.read(key.fileobj.fileno(), 65536)
                if not data:
                    sel.unregister(key.fileobj)
                elif key.data == "err":
                    cap.feed(data)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    if cap.crashed:
        fail(f"{os.path.basename(elf)}: simavr reports a crash")
    elif not done(cap.lines):
        fail(f"{os.path.basename(elf)}: simavr ended before the program was done")
    print(f"  ({time.monotonic() - start:.1f} s wall)")
    return cap.lines


# ---- 2. the sketch ---------------------------------------------------------

def sketch_cpp(out: str) -> str:
    """The .ino as the IDE compiles it: Arduino.h first."""
    ino = os.path.join(ROOT, "examples", SKETCH, SKETCH + ".ino")
    cpp = os.path.join(out, SKETCH + ".ino.cpp")
    with open(ino, encoding="utf-8") as f:
        text = f.read()
    with open(cpp, "w", encoding="utf-8") as f:
        f.write(f'#include <Arduino.h>\n#line 1 "{ino}"\n{text}')
    return cpp


def build_sketch(core: str, lib: str, out: str) -> str:
    cpp = sketch_cpp(out)
    inc = core_includes(core) + ["-I" + ROOT]
    elf = os.path.join(out, SKETCH + ".elf")
    if os.path.exists(elf):
        os.unlink(elf)
    for std in ["gnu++11", "gnu++1z"]:
        obj = os.path.join(out, f"{SKETCH}-{std}.o")
        if not run(["avr-g++"] + CXX_FLAGS + ["-std=" + std] + STRICT + MCU + DEFS + inc +
                   [cpp, "-o", obj]):
            fail(f"the sketch does not compile cleanly as {std}")
    obj = os.path.join(out, f"{SKETCH}-gnu++11.o")
    if not run(["avr-gcc"] + LINK_FLAGS + ["-o", elf, obj, lib, "-lm"]):
        fail("the sketch does not link")
    return elf


LINE_RE = re.compile(r"(blink|report) (\d+) at (\d+) ms, millis\(\) (\d+): (.*)")


def reports(lines: list) -> int:
    return sum(1 for line in lines if line.startswith("report "))


def check_sketch_output(lines: list, who: str) -> None:
    """The sketch's lines (see the top of this file)."""
    def bad(what):
        fail(f"{who}: {what}")

    it = iter(lines)
    m = re.fullmatch(r"delay\(250\) took (\d+) ms of millis\(\)", next(it, ""))
    if not m:
        return bad("no delay(250) line first")
    if not 249 <= int(m.group(1)) <= 251:
        bad(f"millis() measured delay(250) as {m.group(1)} ms")
    m = re.fullmatch(r"tasks start at (\d+) ms", next(it, ""))
    if not m:
        return bad("no 'tasks start' line second")
    start = int(m.group(1))
    last = {"blink": start, "report": start}
    count = {"blink": 0, "report": 0}
    period = {"blink": BLINK_MS, "report": REPORT_MS}
    for line in it:
        m = LINE_RE.fullmatch(line)
        if not m:
            bad(f"unexpected line {line!r}")
            continue
        task, n, at, ms, rest = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), m.group(5)
        count[task] += 1
        if n != count[task]:
            bad(f"{task} {n} comes as number {count[task]}")
        gap = at - last[task]
        if not period[task] <= gap <= period[task] + LATE_MAX:
            bad(f"{task} {n}: {gap} ms after the last, not {period[task]} to "
                f"{period[task] + LATE_MAX}")
        last[task] = at
        if not 0 <= ms - at <= PRINT_MAX:
            bad(f"{task} {n}: millis() {ms} at a turn of the loop at {at} ms")
        if task == "blink" and rest != ("LED on" if n % 2 else "LED off"):
            bad(f"blink {n}: {rest!r}")
        if task == "report" and rest != f"{count['blink']} toggles":
            bad(f"report {n}: {rest!r}, after {count['blink']} blinks")
    if count["report"] < REPORTS or count["blink"] < 2 * REPORTS - 1:
        bad(f"{count['blink']} blinks and {count['report']} reports")
    else:
        print(f"{who}: {count['blink']} blinks and {count['report']} reports, each on time")


# ---- 3. the port's cases ---------------------------------------------------

def build_test_port(core: str, lib: str, out: str, extra: list, name: str) -> str:
    inc = core_includes(core) + ["-I" + ROOT]
    obj = os.path.join(out, name + ".o")
    board = os.path.join(out, name + "-board.o")
    elf = os.path.join(out, name + ".elf")
    if os.path.exists(elf):
        os.unlink(elf)
    c99 = ["avr-gcc", "-c", "-Os", "-std=c99", "-ffunction-sections", "-fdata-sections",
           "-flto", "-Wshadow"] + STRICT + MCU + DEFS + extra
    if not run(c99 + inc + [os.path.join(HERE, "test_port.c"), "-o", obj]):
        fail(f"{name}: test_port.c does not compile cleanly as C99")
    if not run(c99 + [os.path.join(ROOT, "cross", "avr", "board.c"), "-o", board]):
        fail(f"{name}: cross/avr/board.c does not compile")
    if not run(["avr-gcc"] + LINK_FLAGS + ["-o", elf, obj, board, lib, "-lm"]):
        fail(f"{name}: does not link")
    return elf


def run_test_port(elf: str, timeout: float, name: str) -> None:
    r = subprocess.run([sys.executable, os.path.join(ROOT, "cross", "avr", "run_simavr.py"),
                        "--timeout", str(timeout), elf],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = r.stdout.decode("utf-8", "replace")
    sys.stdout.write("".join("  " + line + "\n" for line in text.splitlines()))
    plan = re.search(r"^1\.\.(\d+)$", text, re.M)
    oks = re.findall(r"^ok \d+ - ", text, re.M)
    if r.returncode != 0 or not plan or len(oks) != int(plan.group(1)) or "not ok" in text:
        fail(f"{name}: the port's cases (exit status {r.returncode})")
    else:
        print(f"{name}: {len(oks)} cases passed")


# ---- 4. arduino-builder ----------------------------------------------------

def builder(core: str, out: str, timeout: float) -> None:
    exe = shutil.which("arduino-builder")
    if not exe:
        print("arduino-builder: not installed (Debian: arduino-builder), skipped")
        return
    libs, build = os.path.join(out, "libraries"), os.path.join(out, "builder")
    os.makedirs(libs, exist_ok=True)
    os.makedirs(build, exist_ok=True)
    link = os.path.join(libs, "ptloop")
    if not os.path.lexists(link):
        os.symlink(ROOT, link)
    hardware = os.path.dirname(os.path.dirname(core))  # .../hardware (arduino/avr in it)
    cmd = [exe, "-compile", "-hardware", hardware, "-tools", "/usr/bin", "-libraries", libs,
           "-fqbn", "arduino:avr:uno", "-ide-version", "10819", "-build-path", build,
           "-prefs=compiler.cpp.extra_flags=-DDECIMAL_DIG=__DECIMAL_DIG__", "-warnings", "all",
           "-verbose"]
    # Debian's arduino-builder keeps its ctags recipe in a platform.txt of its own.
    if os.path.isfile("/usr/share/arduino-builder/platform.txt"):
        cmd[2:2] = ["-hardware", "/usr/share/arduino-builder"]
    cmd.append(os.path.join(ROOT, "examples", SKETCH, SKETCH + ".ino"))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=dict(os.environ, LC_ALL="C"))
    text = r.stdout.decode("utf-8", "replace")
    # A diagnostic of ours: "FILE:LINE[:COL]: warning|error: ..." in the
    # sketch or the library (the core's own are its own).
    diag = re.compile(r"^(\S+?):\d+(?::\d+)?: (?:fatal )?(?:warning|error): ")
    ours = [line for line in text.splitlines()
            if (m := diag.match(line)) and (SKETCH in m.group(1) or "ptloop" in m.group(1)
                                            or m.group(1).startswith(ROOT))]
    if r.returncode != 0 or ours or "Using library ptloop at version" not in text:
        sys.stdout.write("".join("  | " + line + "\n" for line in text.splitlines()
                                 if not line.startswith('"/')))  # (less the commands)
        fail("arduino-builder: the sketch with the library (status, warnings or detection)")
        return
    print("arduino-builder: found the library from #include <ptloop.h>; no warning of ours")
    elf = os.path.join(build, SKETCH + ".ino.elf")
    lines = run_until(elf, lambda ls: reports(ls) >= REPORTS, timeout)
    check_sketch_output(lines, "arduino-builder's build")


# ---- 5. the port off the AVR ------------------------------------------------

STUB_ARDUINO_H = """/* A stand-in for a core's Arduino.h: what loop/port/arduino.h uses. */
#ifdef __cplusplus
extern "C" {
#endif
unsigned long millis(void);
unsigned long micros(void);
void yield(void);
#ifdef __cplusplus
}
#endif
"""

STUB_SKETCH = """#include <ptloop.h>
static struct pt_loop lp;
static struct pt_timer_slot timers[1];
static struct pt_task task;
static PT_THREAD(nap(struct pt_loop *l, struct pt_task *t)) {
    PT_TASK_BEGIN(l, t);
    PT_SLEEP(PT_MS(5));
    PT_TASK_END();
}
int run(void);
int run(void) {
    (void)pt_loop_init(&lp, timers, 1);
    (void)pt_loop_spawn(&lp, &task, nap);
    return pt_loop_run(&lp);
}
"""


def off_avr(out: str) -> None:
    stub = os.path.join(out, "stub")
    os.makedirs(stub, exist_ok=True)
    with open(os.path.join(stub, "Arduino.h"), "w") as f:
        f.write(STUB_ARDUINO_H)
    done = 0
    for cc, ext, std in [("gcc", "c", "c99"), ("g++", "cpp", "c++11")]:
        if not shutil.which(cc):
            print(f"off the AVR: {cc} not found, skipped")
            continue
        src = os.path.join(stub, "sketch." + ext)
        with open(src, "w") as f:
            f.write(STUB_SKETCH)
        for extra in [[], ["-DPT_CONFIG_DEBUG=1"]]:
            if run([cc, "-std=" + std, "-DARDUINO=10819", "-DPT_CONFIG_POSIX=0", "-ffreestanding", "-c",
                    "-Wshadow"] + STRICT + extra + ["-I" + stub, "-I" + ROOT, src, "-o",
                                                    os.path.join(stub, "sketch.o")]):
                done += 1
            else:
                fail(f"off the AVR: ptloop.h as {std} {' '.join(extra)}")
    print(f"off the AVR: {done} compiles of ptloop.h with the yield() idle")


def main() -> int:
    args = sys.argv[1:]
    out, core, timeout = None, DEFAULT_CORE, 120.0
    while len(args) >= 2 and args[0] in ("--build-dir", "--core", "--timeout"):
        if args[0] == "--build-dir":
            out = os.path.abspath(args[1])
        elif args[0] == "--core":
            core = args[1]
        else:
            timeout = float(args[1])
        args = args[2:]
    if args:
        print(__doc__.split("\n\n")[1])
        return 2
    missing = [t for t in TOOLS if not shutil.which(t)]
    if not os.path.isdir(os.path.join(core, "cores", "arduino")):
        missing.append(f"the Arduino AVR core in {core}")
    if missing:
        print("check.py: missing " + ", ".join(missing) +
              " (Debian: apt-get install gcc-avr avr-libc simavr arduino-core-avr); skipped")
        return 77

    temp = out is None
    if temp:
        out = tempfile.mkdtemp(prefix="ptloop-arduino-")
    os.makedirs(out, exist_ok=True)
    try:
        lib = build_core(core, os.path.join(out, "core"))
        if failures:
            return 1
        print(f"== {SKETCH}.ino, built as the IDE does, under simavr")
        elf = build_sketch(core, lib, out)
        if os.path.exists(elf) and not failures:
            lines = run_until(elf, lambda ls: reports(ls) >= REPORTS, timeout)
            check_sketch_output(lines, SKETCH)
        for name, extra in [("test_port", []), ("test_port-debug", ["-DPT_CONFIG_DEBUG=1"])]:
            print(f"== tests/arduino/test_port.c ({name}) under simavr")
            elf = build_test_port(core, lib, out, extra, name)
            if os.path.exists(elf):
                run_test_port(elf, timeout, name)
        print("== the sketch built by arduino-builder, under simavr")
        builder(core, out, timeout)
        print("== the port off the AVR, on this host's compilers")
        off_avr(out)
    finally:
        if temp:
            shutil.rmtree(out, ignore_errors=True)
    if failures:
        print(f"arduino check: FAILED ({len(failures)})")
        return 1
    print("arduino check: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
