#!/usr/bin/env bash
#
# tests/consumers/check.sh - proves the three ways of using the headers,
# each from scratch in a fresh temporary folder, with tests/consumers/prog.c
# (#include "pt/pt.h") as the consumer's program:
#
#  (a) copied tree: only pt/ copied into a folder of the consumer's, then
#      cc -I<folder> prog.c;
#  (b) meson subproject: a consumer meson project with subprojects/ptloop a
#      copy of this repository, using dependency('ptloop') (found through
#      meson.override_dependency, no wrap file, no system install visible)
#      and subproject('ptloop').get_variable('ptloop_dep');
#  (c) installed: meson setup --prefix=<tmp> + meson install, then the
#      headers must be under <includedir>/ptloop/pt/ (nothing bare in
#      <includedir>) and the program is built with
#      $(pkg-config --cflags ptloop), PKG_CONFIG_PATH pointing into the
#      install.
#
# Each program is run and must print its line and exit 0.
#
# How to run (from anywhere; needs cc, meson, ninja, pkg-config):
#
#     bash tests/consumers/check.sh
#
# CC picks the compiler (default cc). KEEP_TMP=1 keeps the temporary folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${CC:-cc}
cflags=(-std=c99 -Wall -Wextra -Wpedantic -Werror)

for tool in "$cc" meson ninja pkg-config; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "consumers: $tool not found" >&2
        exit 1
    fi
done

tmp=$(mktemp -d)
step="setup"
finish() {
    local rc=$?
    if [ "${KEEP_TMP:-0}" = 1 ]; then
        echo "consumers: kept $tmp"
    else
        rm -rf "$tmp"
    fi
    if [ "$rc" != 0 ]; then
        echo "consumers: FAILED in $step" >&2
    fi
    exit "$rc"
}
trap finish EXIT

# copy_repo DEST: the repository's files (what a clone has, plus files not
# yet committed, minus ignored ones such as meson build folders) into DEST.
copy_repo() {
    mkdir -p "$1"
    local git=(git -c safe.directory="$root" -C "$root")
    if "${git[@]}" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        (
            cd "$root"
            "${git[@]}" ls-files -z --cached --others --exclude-standard |
                while IFS= read -r -d '' f; do
                    if [ -f "$f" ]; then printf '%s\0' "$f"; fi
                done |
                tar --null -T - -cf -
        ) | tar -C "$1" -xf -
    else
        (cd "$root" && tar --exclude=.git -cf - .) | tar -C "$1" -xf -
    fi
}

# run_prog EXE: run a consumer program; it prints its line, must exit 0.
run_prog() {
    echo "  \$ $1"
    "$1" | sed 's/^/    /'
}

# (a) ---------------------------------------------------------------------
step="(a) copied tree"
echo "== $step: only pt/ copied, cc -I<folder>"
mkdir -p "$tmp/a/vendor" "$tmp/a/app"
cp -R "$root/pt" "$tmp/a/vendor/pt"
cp "$here/prog.c" "$tmp/a/app/prog.c"
(
    cd "$tmp/a/app"
    echo "  \$ $cc ${cflags[*]} -I../vendor prog.c -o prog"
    "$cc" "${cflags[@]}" -I../vendor prog.c -o prog
)
run_prog "$tmp/a/app/prog"

# (b) ---------------------------------------------------------------------
step="(b) meson subproject"
echo "== $step: subprojects/ptloop, dependency('ptloop') and get_variable"
mkdir -p "$tmp/b/subprojects"
copy_repo "$tmp/b/subprojects/ptloop"
cp "$here/prog.c" "$tmp/b/prog.c"
cat >"$tmp/b/meson.build" <<'EOF'
project('consumer', 'c',
  default_options: ['c_std=c99', 'warning_level=3', 'werror=true'])

# By name: no wrap file; the subproject of that name provides it through
# meson.override_dependency('ptloop', ...).
by_name = dependency('ptloop')
executable('prog-by-name', 'prog.c', dependencies: by_name)

# By the subproject's variable.
by_var = subproject('ptloop').get_variable('ptloop_dep')
executable('prog-by-var', 'prog.c', dependencies: by_var)
EOF
# No pkg-config search path at all: a system-wide install cannot stand in.
mkdir -p "$tmp/empty"
(
    cd "$tmp/b"
    PKG_CONFIG_LIBDIR="$tmp/empty" PKG_CONFIG_PATH="" \
        meson setup build >"$tmp/b/setup.log" 2>&1 || {
        cat "$tmp/b/setup.log"
        exit 1
    }
    grep -E "^Dependency ptloop found" "$tmp/b/setup.log" | sed 's/^/  /' || true
    ninja -C build >"$tmp/b/build.log" 2>&1 || {
        cat "$tmp/b/build.log"
        exit 1
    }
)
run_prog "$tmp/b/build/prog-by-name"
run_prog "$tmp/b/build/prog-by-var"

# (c) ---------------------------------------------------------------------
step="(c) installed"
echo "== $step: meson install --prefix, pkg-config --cflags ptloop"
prefix="$tmp/c/prefix"
mkdir -p "$tmp/c/app"
# Only the install matters here: the headers and the .pc file need no
# compiling, so nothing is built (--no-rebuild); the tests build elsewhere.
meson setup "$tmp/c/build" "$root" --prefix="$prefix" >"$tmp/c/setup.log" 2>&1 || {
    cat "$tmp/c/setup.log"
    exit 1
}
meson install -C "$tmp/c/build" --no-rebuild >"$tmp/c/install.log" 2>&1 || {
    cat "$tmp/c/install.log"
    exit 1
}
pcfile=$(find "$prefix" -name ptloop.pc | head -n 1)
if [ -z "$pcfile" ]; then
    echo "  no ptloop.pc installed under $prefix" >&2
    exit 1
fi
echo "  installed ${pcfile#"$prefix"/}"

# The headers: all of pt/, under <includedir>/ptloop/pt/, nothing bare.
includedir="$prefix/include"
want=$(cd "$root" && find pt -type f -name '*.h' | sort)
have=""
if [ -d "$includedir/ptloop" ]; then
    have=$(cd "$includedir/ptloop" && find pt -type f -name '*.h' | sort)
fi
if [ "$want" != "$have" ]; then
    echo "  headers under include/ptloop/ differ from pt/:" >&2
    diff <(echo "$want") <(echo "$have") | sed 's/^/    /' >&2 || true
    exit 1
fi
echo "  $(echo "$have" | wc -l) headers under include/ptloop/pt/"
stray=$(cd "$includedir" && find . -mindepth 1 -maxdepth 1 ! -name ptloop)
if [ -n "$stray" ]; then
    echo "  unexpected entries directly in include/: $stray" >&2
    exit 1
fi

export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pcfile")
pc_cflags=$(pkg-config --cflags ptloop)
pc_cflags=${pc_cflags%"${pc_cflags##*[![:space:]]}"} # pkg-config adds a space
pc_libs=$(pkg-config --libs ptloop)
echo "  pkg-config --cflags ptloop: $pc_cflags"
if [ "$pc_cflags" != "-I$includedir/ptloop" ]; then
    echo "  expected -I$includedir/ptloop" >&2
    exit 1
fi
cp "$here/prog.c" "$tmp/c/app/prog.c"
(
    cd "$tmp/c/app"
    echo "  \$ $cc ${cflags[*]} \$(pkg-config --cflags ptloop) prog.c -o prog \$(pkg-config --libs ptloop)"
    # shellcheck disable=SC2086 # pkg-config output is a list of flags
    "$cc" "${cflags[@]}" $pc_cflags prog.c -o prog $pc_libs
)
run_prog "$tmp/c/app/prog"

step="done"
echo "consumers: OK (copied tree, meson subproject x2, installed + pkg-config)"
