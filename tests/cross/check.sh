#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
#
# tests/cross/check.sh - the cross-compile check of the headers (freestanding).
#
# How to run (from anywhere; needs gcc-arm-none-eabi, gcc-avr, binutils-avr,
# gcc-riscv64-unknown-elf):
#
#     bash tests/cross/check.sh
#
# On Debian: apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi \
#            gcc-avr avr-libc binutils-avr gcc-riscv64-unknown-elf
#            (.ci/run installs them).
#
# What it does, with nothing linked and nothing run: for every public
# header (pt/pt.h, thread.h, gen.h, sem.h, lc.h and pt/compat/pt.h,
# pt-sem.h) it compiles tests/cross/headers.c including that header alone
# and instantiating what it provides; then the sources of the size report
# (cross/size/*.c) and tests/cross/loop_core.c, a program using the loop
# core, also with the core's options (PT_CONFIG_SYNC, ...) at 0. Each for three
# targets
#       Cortex-M0: arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb -ffreestanding ...
#       AVR:       avr-gcc -mmcu=atmega328p -ffreestanding ...
#       RV32IMC:   riscv64-unknown-elf-gcc -march=rv32imc -mabi=ilp32 -ffreestanding ...
# and both local-continuation back ends (-DPT_CONFIG_LC_ADDRLABELS=0 and 1), with
# -Wall -Wextra -Wpedantic -Werror (and -Wimplicit-fallthrough on ARM and
# RISC-V; avr-gcc 5 does not know it). Then the RISC-V port
# (loop/port/riscv.h, which needs no C library) in a small program, for
# RV32IMC and RV32EC. Last, tests/cross/ticks_fn.c (PT_US, PT_MS, PT_SEC of
# run-time values) at the default tick and at 32768, 1024, 100 and 10^6
# ticks a second: its object must reference no helper for 64-bit
# arithmetic (<target>-nm -u), since pt_time_t is 32 bits there.
#
# Exits nonzero on any compile failure and on any compiler output at all (a
# warning that somehow escaped -Werror included), or if a tool is missing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

headers=(pt/pt.h pt/thread.h pt/gen.h pt/sem.h pt/lc.h pt/compat/pt.h pt/compat/pt-sem.h)

# target name, tool prefix, target flags (the -c flags of the brief)
targets=(cortex-m0 atmega328p rv32imc)
declare -A prefix=([cortex-m0]=arm-none-eabi- [atmega328p]=avr- [rv32imc]=riscv64-unknown-elf- [rv32ec]=riscv64-unknown-elf-)
declare -A tflags=(
    [cortex-m0]="-mcpu=cortex-m0 -mthumb -ffreestanding -Os -std=c99 -Wall -Wextra -Wpedantic -Wimplicit-fallthrough -Werror"
    [atmega328p]="-mmcu=atmega328p -Os -ffreestanding -std=c99 -Wall -Wextra -Wpedantic -Werror"
    [rv32imc]="-march=rv32imc -mabi=ilp32 -ffreestanding -Os -std=c99 -Wall -Wextra -Wpedantic -Wimplicit-fallthrough -Werror"
    [rv32ec]="-march=rv32ec -mabi=ilp32e -ffreestanding -Os -std=c99 -Wall -Wextra -Wpedantic -Wimplicit-fallthrough -Werror"
)
backends=(switch addrlabels)
declare -A bflags=([switch]=-DPT_CONFIG_LC_ADDRLABELS=0 [addrlabels]=-DPT_CONFIG_LC_ADDRLABELS=1)

missing=0
for t in "${targets[@]}"; do
    for tool in gcc nm; do
        if ! command -v "${prefix[$t]}$tool" >/dev/null 2>&1; then
            echo "check.sh: ${prefix[$t]}$tool not found (see the top of $0)" >&2
            missing=1
        fi
    done
done
[ "$missing" = 0 ] || exit 1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

failures=0
compiles=0

# compile NAME OUTPUT TARGET BACKEND SOURCE [EXTRA...]: one compile; fails the
# run on a nonzero exit or on any output.
compile() {
    local name=$1 obj=$2 t=$3 be=$4 src=$5
    shift 5
    local log="$out/log"
    local -a cmd
    # shellcheck disable=SC2206 # the flag strings split on spaces on purpose
    cmd=("${prefix[$t]}gcc" ${tflags[$t]} ${bflags[$be]} -I"$root" "$@" -c "$src" -o "$obj")
    compiles=$((compiles + 1))
    if LC_ALL=C "${cmd[@]}" >"$log" 2>&1 && [ ! -s "$log" ]; then
        printf '  ok    %-11s %-10s %s\n' "$t" "$be" "$name"
    else
        printf '  FAIL  %-11s %-10s %s\n' "$t" "$be" "$name"
        printf '        %s\n' "${cmd[*]}"
        sed 's/^/        | /' "$log"
        failures=$((failures + 1))
    fi
}

echo "== headers: one translation unit per public header"
for t in "${targets[@]}"; do
    for be in "${backends[@]}"; do
        for h in "${headers[@]}"; do
            compile "$h" "$out/h.o" "$t" "$be" "$here/headers.c" "-DPT_CROSS_HEADER=\"$h\""
        done
    done
done

echo "== programs: the size report's sources and a program using the loop core"
for t in "${targets[@]}"; do
    for be in "${backends[@]}"; do
        for src in "$root"/cross/size/*.c "$here/loop_core.c"; do
            compile "${src#"$root"/}" "$out/p.o" "$t" "$be" "$src"
        done
        # The core alone (the size report's core row).
        compile "tests/cross/loop_core.c, options 0" "$out/p.o" "$t" "$be" "$here/loop_core.c" \
            -DPT_CONFIG_SYNC=0 -DPT_CONFIG_GROUPS=0 -DPT_CONFIG_BACKGROUND=0 -DPT_CONFIG_CALLBACKS=0
        # With the heap, which a board does not take by default.
        compile "tests/cross/loop_core.c, heap" "$out/p.o" "$t" "$be" "$here/loop_core.c" \
            -DPT_CONFIG_TIMERS=PT_TIMERS_HEAP
        # The debug mode (loop/debug.h) on a board.
        compile "tests/cross/loop_core.c, PT_CONFIG_DEBUG=1" "$out/p.o" "$t" "$be" "$here/loop_core.c" \
            -DPT_CONFIG_DEBUG=1
        compile "tests/debug/freestanding.c, PT_CONFIG_DEBUG=1" "$out/p.o" "$t" "$be" \
            "$root/tests/debug/freestanding.c" -DPT_CONFIG_DEBUG=1
    done
done
echo "== the RISC-V port: its clock and idle in a program using the loop"
cat >"$out/port_riscv.c" <<'EOF'
#define PT_CONFIG_PORT_RISCV_IMPLEMENTATION
#include "loop/port/riscv.h"
#include "loop/loop.h"

static PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(100));
    PT_TASK_END();
}

int port_main(void);
int port_main(void) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[2];
    static struct pt_task task;
    if (pt_port_start(32768) != PT_OK)
        return 1;
    pt_loop_init(&loop, heap, 2);
    pt_loop_spawn(&loop, &task, sleeper);
    return pt_loop_run(&loop);
}
EOF
for t in rv32imc rv32ec; do
    for be in "${backends[@]}"; do
        compile "loop/port/riscv.h in a program" "$out/p.o" "$t" "$be" "$out/port_riscv.c"
    done
done
echo "== durations in ticks: no 64-bit helper (nm -u tests/cross/ticks_fn.c's object)"
wide_helpers='__aeabi_u?ldivmod|__aeabi_lmul|__u?divdi3|__u?moddi3|__u?divmoddi4|__muldi3|__u?mulsidi3'
for t in "${targets[@]}"; do
    for rate in default 32768 1024 100 1000000; do
        rate_flag=()
        [ "$rate" = default ] || rate_flag=("-DPT_CONFIG_TICKS_PER_SEC=${rate}u")
        before=$failures
        compile "tests/cross/ticks_fn.c, ticks/s $rate" "$out/ticks.o" "$t" switch "$here/ticks_fn.c" \
            ${rate_flag[@]+"${rate_flag[@]}"}
        [ "$failures" = "$before" ] || continue
        if wide=$("${prefix[$t]}nm" -u "$out/ticks.o" | grep -E "$wide_helpers"); then
            printf '  FAIL  %-11s %-10s %s\n' "$t" "" "tests/cross/ticks_fn.c, ticks/s $rate: a 64-bit helper"
            printf '%s\n' "$wide" | sed 's/^ */        | /'
            failures=$((failures + 1))
        fi
    done
done
echo "(sizes: meson compile -C build size-report, or python3 cross/size_report.py)"

if [ "$failures" != 0 ]; then
    echo "cross check: FAILED ($failures of $compiles compiles)"
    exit 1
fi
echo "cross check: OK ($compiles compiles, no warnings)"
