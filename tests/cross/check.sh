#!/usr/bin/env bash
#
# tests/cross/check.sh - the cross-compile check of the pt/ headers.
#
# How to run (from anywhere; needs gcc-arm-none-eabi, gcc-avr, binutils-avr):
#
#     bash tests/cross/check.sh
#
# On Debian: apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi \
#            gcc-avr avr-libc binutils-avr   (.ci/run installs them).
#
# What it does, with nothing linked and nothing run:
#  1. For every public header (pt/pt.h, thread.h, gen.h, sem.h, lc.h and
#     pt/compat/pt.h, pt-sem.h) it compiles tests/cross/headers.c including
#     that header alone and instantiating what it provides, for two targets
#       Cortex-M0: arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb ...
#       AVR:       avr-gcc -mmcu=atmega328p ...
#     and both local-continuation back ends (-DPT_LC_ADDRLABELS=0 and 1),
#     with -Wall -Wextra -Wpedantic -Werror (and -Wimplicit-fallthrough on
#     ARM; avr-gcc 5 does not know it).
#  2. Prints a size table per target and back end: sizeof(struct pt),
#     sizeof(struct pt_gen), sizeof(struct pt_sem) (the sizes of globals in
#     tests/cross/sizes.c, read with <target>-nm -S) and the text size of
#     the small protothread in thread_fn.c and the generator in gen_fn.c
#     (<target>-size on each object).
#
# Exits nonzero on any compile failure and on any compiler output at all (a
# warning that somehow escaped -Werror included), or if a tool is missing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

headers=(pt/pt.h pt/thread.h pt/gen.h pt/sem.h pt/lc.h pt/compat/pt.h pt/compat/pt-sem.h)

# target name, tool prefix, target flags (the -c flags of the brief)
targets=(cortex-m0 atmega328p)
declare -A prefix=([cortex-m0]=arm-none-eabi- [atmega328p]=avr-)
declare -A tflags=(
    [cortex-m0]="-mcpu=cortex-m0 -mthumb -ffreestanding -Os -std=c99 -Wall -Wextra -Wpedantic -Wimplicit-fallthrough -Werror"
    [atmega328p]="-mmcu=atmega328p -Os -ffreestanding -std=c99 -Wall -Wextra -Wpedantic -Werror"
)
backends=(switch addrlabels)
declare -A bflags=([switch]=-DPT_LC_ADDRLABELS=0 [addrlabels]=-DPT_LC_ADDRLABELS=1)

missing=0
for t in "${targets[@]}"; do
    for tool in gcc nm size; do
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

echo "== sizes"
# symbol_size OBJ SYMBOL: the size nm -S gives SYMBOL in OBJ, in decimal.
symbol_size() {
    local hex
    hex=$("$nm" -S "$1" | awk -v s="$2" '$NF == s && NF == 4 { print $2 }')
    if [ -z "$hex" ]; then
        echo "?"
        return 1
    fi
    echo $((16#$hex))
}
# text_size OBJ: the text column of <target>-size.
text_size() {
    "$sizecmd" "$1" | awk 'NR == 2 { print $1 }'
}

table=()
for t in "${targets[@]}"; do
    nm="${prefix[$t]}nm"
    sizecmd="${prefix[$t]}size"
    for be in "${backends[@]}"; do
        compile sizes.c "$out/sizes.o" "$t" "$be" "$here/sizes.c"
        compile thread_fn.c "$out/thread.o" "$t" "$be" "$here/thread_fn.c"
        compile gen_fn.c "$out/gen.o" "$t" "$be" "$here/gen_fn.c"
        if [ -s "$out/sizes.o" ] && [ -s "$out/thread.o" ] && [ -s "$out/gen.o" ]; then
            row=$(printf '%-11s %-10s %9s %13s %13s %11s %9s' "$t" "$be" \
                "$(symbol_size "$out/sizes.o" size_pt)" \
                "$(symbol_size "$out/sizes.o" size_pt_gen)" \
                "$(symbol_size "$out/sizes.o" size_pt_sem)" \
                "$(text_size "$out/thread.o")" \
                "$(text_size "$out/gen.o")")
            case $row in
            *"?"*)
                echo "  FAIL  could not read a size for $t/$be" >&2
                failures=$((failures + 1))
                ;;
            esac
            table+=("$row")
        fi
        rm -f "$out/sizes.o" "$out/thread.o" "$out/gen.o"
    done
done

echo
echo "Sizes in bytes (text: -Os code of thread_fn.c / gen_fn.c):"
printf '%-11s %-10s %9s %13s %13s %11s %9s\n' target "back end" "struct pt" "struct pt_gen" \
    "struct pt_sem" "thread text" "gen text"
for row in "${table[@]}"; do
    echo "$row"
done
echo

echo "== loop core (freestanding, no descriptors)"
loop_table=()
for t in "${targets[@]}"; do
    nm="${prefix[$t]}nm"
    sizecmd="${prefix[$t]}size"
    for be in "${backends[@]}"; do
        compile loop_core.c "$out/loop.o" "$t" "$be" "$here/loop_core.c"
        if [ -s "$out/loop.o" ]; then
            loop_table+=("$(printf '%-11s %-10s %16s %16s %10s' "$t" "$be" \
                "$(symbol_size "$out/loop.o" size_task)" \
                "$(symbol_size "$out/loop.o" size_loop)" \
                "$(text_size "$out/loop.o")")")
        fi
        rm -f "$out/loop.o"
    done
done
echo
echo "Loop core sizes in bytes (text: -Os code of loop_core.c; each timer also"
echo "takes one pointer in the caller's heap array):"
printf '%-11s %-10s %16s %16s %10s\n' target "back end" "struct pt_task" "struct pt_loop" "text"
for row in "${loop_table[@]}"; do
    echo "$row"
done
echo

if [ "$failures" != 0 ]; then
    echo "cross check: FAILED ($failures of $compiles compiles or size reads)"
    exit 1
fi
echo "cross check: OK ($compiles compiles, no warnings)"
