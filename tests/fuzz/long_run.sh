#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# tests/fuzz/long_run.sh - the fuzzer's long run: N programs (seeds 1..N)
# in chunks, J at a time, the chunks spread over the fuzz_loop builds given.
# Prints programs run, divergences (one line each: replay the seed with
# `fuzz_loop-<build> --seed S --count 1`) and sanitizer reports; exits 1
# if there was any.
#
#   tests/fuzz/long_run.sh [-n N] [-j J] [-c CHUNK] fuzz_loop-switch ...
set -u
n=10000000
jobs=2
chunk=250000
while getopts n:j:c: opt; do
    case $opt in
    n) n=$OPTARG ;;
    j) jobs=$OPTARG ;;
    c) chunk=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-n N] [-j J] [-c CHUNK] fuzz_loop..." >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Sanitizers: report and stop at the first error, so a chunk's exit says so.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

nexe=$#
start=$(date +%s)
k=0
seed=1
while [ "$seed" -le "$n" ]; do
    count=$chunk
    [ $((seed + count - 1)) -le "$n" ] || count=$((n - seed + 1))
    i=$((k % nexe + 1))
    eval exe=\${$i}
    echo "$exe $seed $count"
    seed=$((seed + count))
    k=$((k + 1))
done >"$dir/plan"

# Each chunk: its output in a file, its exit status after it.
xargs -P "$jobs" -L 1 sh -c '
    "$0" --seed "$1" --count "$2" --keep-going --quiet >"'"$dir"'/$(basename "$0").$1.out" 2>&1
    echo "$?" >"'"$dir"'/$(basename "$0").$1.rc"
' <"$dir/plan"

ran=0
div=0
san=0
crash=0
for f in "$dir"/*.out; do
    rcf=${f%.out}.rc
    rc=$(cat "$rcf" 2>/dev/null || echo 99)
    c=$(sed -n 's/^fuzz_loop: \([0-9]*\) programs.*/\1/p' "$f")
    ran=$((ran + ${c:-0}))
    d=$(grep -c '^DIVERGENCE' "$f")
    div=$((div + d))
    b=$(basename "$f")
    grep '^DIVERGENCE' "$f" | sed "s|^|${b%%.*}: |" | head -5
    s=$(grep -c 'ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer' "$f")
    if [ "$s" -gt 0 ]; then
        san=$((san + s))
        echo "sanitizer report in $(basename "$f"):"
        grep -A30 'ERROR: AddressSanitizer\|runtime error:' "$f" | head -40
    fi
    if [ -z "$c" ] && [ "$s" -eq 0 ]; then
        crash=$((crash + 1))
        echo "chunk $(basename "$f") died (exit $rc):"
        tail -5 "$f"
    fi
done
end=$(date +%s)
echo "long run: $ran programs in $((end - start)) s over $nexe builds, $div divergences," \
    "$san sanitizer reports, $crash chunks died"
[ "$div" -eq 0 ] && [ "$san" -eq 0 ] && [ "$crash" -eq 0 ]
