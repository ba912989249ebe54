#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
#
# tools/check_commits.sh - check the messages of your commits before you
# push them (CONTRIBUTING.md, "Commits"):
#
#   tools/check_commits.sh [RANGE]      default: origin/main..HEAD, else main..HEAD
#   tools/check_commits.sh --self-test  check the checks on a scratch repository
#
# Each commit's subject is at most 72 characters, carries no measurement
# (a ledger such as "879 -> 851", a count of bytes, nanoseconds or a
# percentage: a duration such as "a 1 ms tick" is a fact, not one), and is
# followed by an empty line if there is a body. Measurements go in the
# body. It prints one line per offending commit and exits 1 if there is
# one. Not run in CI over old history, which cannot be rewritten.
set -euo pipefail

MAX_SUBJECT=72
MEASURE='[0-9][0-9,.]*[[:space:]]*(bytes?|B|ns|%)([^[:alnum:]_]|$)|[0-9][[:space:]]*->[[:space:]]*[0-9]'

# check_message HASH: read one message on stdin, print its faults.
check_message() {
    local hash=$1 subject second n
    IFS= read -r subject || subject=""
    if IFS= read -r second && [ -n "$second" ]; then
        echo "$hash: the subject must be followed by an empty line"
    fi
    n=${#subject}
    if [ "$n" -gt "$MAX_SUBJECT" ]; then
        echo "$hash: subject of $n characters (at most $MAX_SUBJECT): $subject"
    fi
    if printf '%s\n' "$subject" | grep -Eq -- "$MEASURE"; then
        echo "$hash: a measurement in the subject (put it in the body): $subject"
    fi
}

check_range() {
    local range=$1 hash hashes out bad=0
    hashes=$(git rev-list --no-merges "$range") # fails (set -e) on a bad range
    for hash in $hashes; do
        out=$(git log -1 --format=%B "$hash" | check_message "$(git rev-parse --short "$hash")")
        if [ -n "$out" ]; then
            printf '%s\n' "$out"
            bad=1
        fi
    done
    return $bad
}

self_test() {
    local dir fails=0
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' RETURN
    git -C "$dir" init -q
    commit() { git -C "$dir" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$1"; }
    commit "base"
    commit "A plain subject that says what and why"$'\n\n'"Body: 879 -> 851 bytes."
    if ! (cd "$dir" && check_range HEAD~1..HEAD) >/dev/null; then
        echo "self-test: a good message was refused"
        fails=1
    fi
    local bad
    for bad in "$(printf 'x%.0s' {1..73})" "Heap: 879 -> 851 on the M0" "Save 40 bytes in the ready queue" \
        "W3 is 12% faster" $'Subject\nno empty line'; do
        commit "$bad"
        if (cd "$dir" && check_range HEAD~1..HEAD) >/dev/null; then
            echo "self-test: not refused: $bad"
            fails=1
        fi
    done
    [ "$fails" = 0 ] && echo "self-test: ok"
    return $fails
}

case "${1:-}" in
--self-test) self_test ;;
-h | --help) sed -n 's/^# \{0,1\}//; 5,16p' "$0" ;;
"")
    if git rev-parse -q --verify origin/main >/dev/null; then
        check_range origin/main..HEAD
    else
        check_range main..HEAD
    fi
    ;;
*) check_range "$1" ;;
esac
