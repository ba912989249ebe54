#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
#
# tests/consumers/check.sh - proves the ways of using the headers, each
# from scratch in a fresh temporary folder, with three consumer programs:
# tests/consumers/prog.c (#include "pt/pt.h"), prog_loop.c
# (#include "loop/loop.h") and prog_options.c (#include <ptloop.h>, printing
# PT_CONFIG_DEBUG, the back end and the timer store its compile saw), the last two
# built with -D_POSIX_C_SOURCE=200809L as loop/loop.h asks, each compiled
# with -std=c99 -Wall -Wextra -Wpedantic -Werror:
#
#  (a) copied tree: pt/ (then pt/ and loop/) copied into a folder of the
#      consumer's, then cc -I<folder> prog.c;
#  (b) meson subproject: a consumer meson project with subprojects/ptloop a
#      copy of this repository, using dependency('ptloop') (found through
#      meson.override_dependency, no wrap file, no system install visible)
#      and subproject('ptloop').get_variable('ptloop_dep'), with
#      -Dptloop:debug_mode=true -Dptloop:loop_timers=list, which
#      prog_options must see; the consumer's meson install must put nothing
#      of ptloop in its prefix, and with -Dptloop:install=true the headers
#      (ptloop.h too) and ptloop.pc, whose Cflags carry those options;
#  (c) installed: meson setup --prefix=<tmp> + meson install, then the
#      headers must be under <includedir>/ptloop/{pt,loop}/ and
#      <includedir>/ptloop/ptloop.h (nothing bare in <includedir>),
#      ptloop.pc in <datadir>/pkgconfig, and the programs are built with
#      $(pkg-config --cflags ptloop), PKG_CONFIG_PATH pointing into the
#      install; then the install is moved elsewhere and
#      $(pkg-config --define-prefix --cflags ptloop) must name the new place;
#      an install with -Dloop_backend=poll carries it to prog_options;
#  (d) CMake add_subdirectory: a consumer CMake project with a copy of this
#      repository in it, add_subdirectory(ptloop) and ptloop::ptloop, with
#      -DPTLOOP_BACKEND=poll, which prog_options must see;
#  (e) CMake FetchContent: the same, the copy a tar.gz fetched from a
#      file:// URL (no network) with FetchContent_MakeAvailable, defaults;
#  (f) CMake find_package: cmake --install of a copy configured with
#      -DPTLOOP_DEBUG=ON -DPTLOOP_TIMERS=list, the same files as meson
#      installs under include/, then find_package(ptloop 0.1 REQUIRED) from
#      the install (prog_options must see the options) and again after
#      moving it; find_package (ptloop 0.0) and (ptloop 0.2) must fail
#      (before 1.0, each minor release is another interface).
# In the CMake routes the compile commands must show -std=c99 and -Werror,
# and ptloop::ptloop must ask for c_std_99.
#
# Each program is run and must print its line and exit 0; prog_options's
# line must name the options chosen for that route (the defaults where none
# is: PT_CONFIG_DEBUG=0, select, heap).
#
# How to run (from anywhere; needs cc, meson, ninja, pkg-config, cmake):
#
#     bash tests/consumers/check.sh
#
# CC picks the compiler (default cc). KEEP_TMP=1 keeps the temporary folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${CC:-cc}
cflags=(-std=c99 -Wall -Wextra -Wpedantic -Werror)
posix=(-D_POSIX_C_SOURCE=200809L) # loop/ on a POSIX host (loop/loop.h)

for tool in "$cc" meson ninja pkg-config cmake; do
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

# expect_options EXE 'PT_CONFIG_DEBUG=d PT_CONFIG_BACKEND=b PT_CONFIG_TIMERS=t': run
# prog_options; its line must name those options.
expect_options() {
    local out
    echo "  \$ $1"
    out=$("$1")
    echo "    $out"
    if [ "$out" != "ptloop options: $2" ]; then
        echo "  expected: ptloop options: $2" >&2
        return 1
    fi
}

# logged LOG CMD...: run CMD with its output in LOG, shown only on failure.
logged() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 || {
        cat "$log"
        return 1
    }
}

# build_progs DIR OPTIONS FLAGS...: cc FLAGS prog.c, prog_loop.c and
# prog_options.c into DIR, run them; prog_options must print OPTIONS.
build_progs() {
    local dir=$1 options=$2
    shift 2
    cp "$here/prog.c" "$here/prog_loop.c" "$here/prog_options.c" "$dir/"
    (
        cd "$dir"
        echo "  \$ $cc ${cflags[*]} $* prog.c -o prog"
        "$cc" "${cflags[@]}" "$@" prog.c -o prog
        echo "  \$ $cc ${cflags[*]} ${posix[*]} $* prog_loop.c -o prog_loop"
        "$cc" "${cflags[@]}" "${posix[@]}" "$@" prog_loop.c -o prog_loop
        echo "  \$ $cc ${cflags[*]} ${posix[*]} $* prog_options.c -o prog_options"
        "$cc" "${cflags[@]}" "${posix[@]}" "$@" prog_options.c -o prog_options
    )
    run_prog "$dir/prog"
    run_prog "$dir/prog_loop"
    expect_options "$dir/prog_options" "$options"
}

defaults="PT_CONFIG_DEBUG=0 PT_CONFIG_BACKEND=select PT_CONFIG_TIMERS=heap"

# tree_files DIR: the files under DIR, relative, sorted (empty if no DIR).
tree_files() {
    if [ -d "$1" ]; then (cd "$1" && find . -type f | sort); fi
}

# (a) ---------------------------------------------------------------------
step="(a) copied tree"
echo "== $step: pt/ (then pt/, loop/ and ptloop.h) copied, cc -I<folder>"
mkdir -p "$tmp/a/vendor" "$tmp/a/app" "$tmp/a/vendor2" "$tmp/a/app2"
cp -R "$root/pt" "$tmp/a/vendor/pt"
cp "$here/prog.c" "$tmp/a/app/prog.c"
(
    cd "$tmp/a/app"
    echo "  \$ $cc ${cflags[*]} -I../vendor prog.c -o prog"
    "$cc" "${cflags[@]}" -I../vendor prog.c -o prog
)
run_prog "$tmp/a/app/prog"
cp -R "$root/pt" "$root/loop" "$root/ptloop.h" "$tmp/a/vendor2/"
build_progs "$tmp/a/app2" "$defaults" -I../vendor2

# (b) ---------------------------------------------------------------------
step="(b) meson subproject"
echo "== $step: subprojects/ptloop, dependency('ptloop') and get_variable"
mkdir -p "$tmp/b/subprojects"
copy_repo "$tmp/b/subprojects/ptloop"
cp "$here/prog.c" "$here/prog_loop.c" "$here/prog_options.c" "$tmp/b/"
cat >"$tmp/b/meson.build" <<'EOF'
project('consumer', 'c',
  default_options: ['c_std=c99', 'warning_level=3', 'werror=true'])

# By name: no wrap file; the subproject of that name provides it through
# meson.override_dependency('ptloop', ...). The consumer installs its own
# program, and that alone.
by_name = dependency('ptloop')
executable('prog-by-name', 'prog.c', dependencies: by_name, install: true)
executable('prog_loop-by-name', 'prog_loop.c', dependencies: by_name,
  c_args: '-D_POSIX_C_SOURCE=200809L')
executable('prog_options-by-name', 'prog_options.c', dependencies: by_name,
  c_args: '-D_POSIX_C_SOURCE=200809L')

# By the subproject's variable.
by_var = subproject('ptloop').get_variable('ptloop_dep')
executable('prog-by-var', 'prog.c', dependencies: by_var)
EOF
# No pkg-config search path at all: a system-wide install cannot stand in.
mkdir -p "$tmp/empty"
(
    cd "$tmp/b"
    echo "  \$ meson setup build -Dptloop:debug_mode=true -Dptloop:loop_timers=list"
    logged "$tmp/b/setup.log" \
        env PKG_CONFIG_LIBDIR="$tmp/empty" PKG_CONFIG_PATH="" meson setup build \
        --prefix="$tmp/b/prefix" -Dptloop:debug_mode=true -Dptloop:loop_timers=list
    grep -E "^Dependency ptloop found" "$tmp/b/setup.log" | sed 's/^/  /' || true
    logged "$tmp/b/build.log" ninja -C build
)
run_prog "$tmp/b/build/prog-by-name"
run_prog "$tmp/b/build/prog_loop-by-name"
run_prog "$tmp/b/build/prog-by-var"
b_options="PT_CONFIG_DEBUG=1 PT_CONFIG_BACKEND=select PT_CONFIG_TIMERS=list"
expect_options "$tmp/b/build/prog_options-by-name" "$b_options"
# The consumer's install: its program, nothing of ptloop's.
logged "$tmp/b/install.log" meson install -C "$tmp/b/build" --no-rebuild
installed=$(tree_files "$tmp/b/prefix")
if [ "$installed" != "./bin/prog-by-name" ]; then
    echo "  the consumer's install holds more than its program:" >&2
    echo "$installed" | sed 's/^/    /' >&2
    exit 1
fi
echo "  the consumer's meson install: bin/prog-by-name, nothing of ptloop"
# Asked for, the subproject installs its headers and ptloop.pc, with the
# options in its Cflags.
logged "$tmp/b/configure.log" meson configure "$tmp/b/build" -Dptloop:install=true
logged "$tmp/b/install2.log" meson install -C "$tmp/b/build" --destdir "$tmp/b/staged"
staged="$tmp/b/staged$tmp/b/prefix"
for f in include/ptloop/ptloop.h include/ptloop/pt/pt.h include/ptloop/loop/loop.h \
    share/pkgconfig/ptloop.pc; do
    if [ ! -f "$staged/$f" ]; then
        echo "  -Dptloop:install=true: no $f in the install" >&2
        exit 1
    fi
done
if ! grep -q "^Cflags: .* -DPT_CONFIG_TIMERS=PT_TIMERS_LIST -DPT_CONFIG_DEBUG=1" \
    "$staged/share/pkgconfig/ptloop.pc"; then
    echo "  ptloop.pc's Cflags do not carry the options:" >&2
    grep "^Cflags" "$staged/share/pkgconfig/ptloop.pc" >&2
    exit 1
fi
echo "  with -Dptloop:install=true: the headers, ptloop.h and ptloop.pc (with the options)"

# (c) ---------------------------------------------------------------------
step="(c) installed"
echo "== $step: meson install --prefix, pkg-config --cflags ptloop, then moved"
prefix="$tmp/c/prefix"
mkdir -p "$tmp/c/app" "$tmp/c/app-moved"
# Only the install matters here: the headers and the .pc file need no
# compiling, so nothing is built (--no-rebuild; the options leave every
# program out); the tests build elsewhere.
logged "$tmp/c/setup.log" meson setup "$tmp/c/build" "$root" --prefix="$prefix" \
    -Dtests=false -Ddemos=false -Dbench=false
logged "$tmp/c/install.log" meson install -C "$tmp/c/build" --no-rebuild
# Headers only: the .pc file is the same for every architecture, so it is in
# <datadir>/pkgconfig, where pkg-config --define-prefix finds the prefix.
pcfile="$prefix/share/pkgconfig/ptloop.pc"
if [ ! -f "$pcfile" ]; then
    echo "  no share/pkgconfig/ptloop.pc under $prefix; found:" >&2
    find "$prefix" -name '*.pc' | sed 's/^/    /' >&2
    exit 1
fi
echo "  installed ${pcfile#"$prefix"/}"

# The headers: all of pt/ and loop/, under <includedir>/ptloop/, nothing bare.
includedir="$prefix/include"
want=$(cd "$root" && find pt loop -type f -name '*.h' | sort)
have=""
if [ -d "$includedir/ptloop" ]; then
    have=$(cd "$includedir/ptloop" && find pt loop -type f -name '*.h' | sort)
fi
if [ "$want" != "$have" ]; then
    echo "  headers under include/ptloop/ differ from pt/ and loop/:" >&2
    diff <(echo "$want") <(echo "$have") | sed 's/^/    /' >&2 || true
    exit 1
fi
echo "  $(echo "$have" | wc -l) headers under include/ptloop/{pt,loop}/"
if [ ! -f "$includedir/ptloop/ptloop.h" ]; then
    echo "  no include/ptloop/ptloop.h: #include <ptloop.h> would fail" >&2
    exit 1
fi
echo "  include/ptloop/ptloop.h"
stray=$(cd "$includedir" && find . -mindepth 1 -maxdepth 1 ! -name ptloop)
if [ -n "$stray" ]; then
    echo "  unexpected entries directly in include/: $stray" >&2
    exit 1
fi
meson_include_files=$(tree_files "$includedir") # (f) compares CMake's with it

# pc_cflags ARGS...: pkg-config ARGS --cflags ptloop, the trailing space cut.
pc_cflags() {
    local out
    out=$(pkg-config "$@" --cflags ptloop)
    echo "${out%"${out##*[![:space:]]}"}"
}

export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pcfile")
cflags_pc=$(pc_cflags)
libs_pc=$(pkg-config --libs ptloop)
echo "  pkg-config --cflags ptloop: $cflags_pc"
if [ "$cflags_pc" != "-I$includedir/ptloop" ]; then
    echo "  expected -I$includedir/ptloop" >&2
    exit 1
fi
# shellcheck disable=SC2086 # pkg-config output is a list of flags
build_progs "$tmp/c/app" "$defaults" $cflags_pc $libs_pc

# Moved: a relocated install (a package unpacked elsewhere, a staging
# folder). The original is gone, so only the new place can work.
moved="$tmp/c/moved"
cp -a "$prefix" "$moved"
rm -rf "$prefix"
PKG_CONFIG_PATH="$moved/share/pkgconfig"
cflags_pc=$(pc_cflags --define-prefix)
echo "  moved; pkg-config --define-prefix --cflags ptloop: $cflags_pc"
if [ "$cflags_pc" != "-I$moved/include/ptloop" ]; then
    echo "  expected -I$moved/include/ptloop" >&2
    exit 1
fi
# shellcheck disable=SC2086 # pkg-config output is a list of flags
build_progs "$tmp/c/app-moved" "$defaults" $cflags_pc

# An option chosen at the install reaches the consumer through ptloop.pc.
logged "$tmp/c/setup-poll.log" meson setup "$tmp/c/build-poll" "$root" \
    --prefix="$tmp/c/prefix-poll" -Dtests=false -Ddemos=false -Dbench=false -Dloop_backend=poll
logged "$tmp/c/install-poll.log" meson install -C "$tmp/c/build-poll" --no-rebuild
PKG_CONFIG_PATH="$tmp/c/prefix-poll/share/pkgconfig"
cflags_pc=$(pc_cflags)
echo "  installed with -Dloop_backend=poll; pkg-config --cflags ptloop: $cflags_pc"
mkdir -p "$tmp/c/app-poll"
# shellcheck disable=SC2086 # pkg-config output is a list of flags
build_progs "$tmp/c/app-poll" "PT_CONFIG_DEBUG=0 PT_CONFIG_BACKEND=poll PT_CONFIG_TIMERS=heap" $cflags_pc
unset PKG_CONFIG_PATH

# (d), (e), (f): CMake ---------------------------------------------------
# The consumer project of every CMake route; HOW says how it gets ptloop.
write_cmake_consumer() {
    mkdir -p "$1"
    cp "$here/prog.c" "$here/prog_loop.c" "$here/prog_options.c" "$1/"
    cat >"$1/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.14...3.25)
project(consumer LANGUAGES C)
set(CMAKE_C_STANDARD 99)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)

if(HOW STREQUAL "subdirectory")
  add_subdirectory(ptloop)
elseif(HOW STREQUAL "fetch")
  include(FetchContent)
  FetchContent_Declare(ptloop URL "${PTLOOP_URL}" URL_HASH "SHA256=${PTLOOP_SHA256}")
  FetchContent_MakeAvailable(ptloop)
elseif(HOW STREQUAL "package")
  find_package(ptloop ${PTLOOP_WANT} REQUIRED)
  # This install, not another one somewhere on the system.
  get_filename_component(found "${ptloop_DIR}" REALPATH)
  get_filename_component(expected "${PTLOOP_EXPECT_DIR}" REALPATH)
  if(NOT found STREQUAL expected)
    message(FATAL_ERROR "ptloop found in ${found}, expected ${expected}")
  endif()
  message(STATUS "ptloop ${ptloop_VERSION} from ${found}")
else()
  message(FATAL_ERROR "HOW=${HOW}?")
endif()

get_target_property(features ptloop::ptloop INTERFACE_COMPILE_FEATURES)
if(NOT "c_std_99" IN_LIST features)
  message(FATAL_ERROR "ptloop::ptloop does not ask for c_std_99: ${features}")
endif()

foreach(p prog prog_loop prog_options)
  add_executable(${p} ${p}.c)
  target_compile_options(${p} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  target_link_libraries(${p} PRIVATE ptloop::ptloop)
endforeach()
target_compile_definitions(prog_loop PRIVATE _POSIX_C_SOURCE=200809L)
target_compile_definitions(prog_options PRIVATE _POSIX_C_SOURCE=200809L)
EOF
}

# cmake_consumer DIR OPTIONS CMAKE_ARGS...: configure and build the consumer
# in DIR (build in DIR/build), check its compile commands, run the programs;
# prog_options must print OPTIONS.
cmake_consumer() {
    local dir=$1 options=$2
    shift 2
    echo "  \$ cmake -S . -B build -G Ninja $*"
    logged "$dir/configure.log" env CC="$cc" cmake -S "$dir" -B "$dir/build" -G Ninja \
        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@"
    grep -E -- "-- ptloop " "$dir/configure.log" | sed 's/^/  /' || true
    logged "$dir/build.log" cmake --build "$dir/build"
    # Every compile (three programs) with -std=c99 and -Werror.
    local n
    n=$(grep -c '"command"' "$dir/build/compile_commands.json")
    if [ "$n" != 3 ] ||
        [ "$(grep '"command"' "$dir/build/compile_commands.json" |
            grep -- '-std=c99' | grep -c -- '-Werror')" != 3 ]; then
        echo "  expected 3 compiles, each with -std=c99 and -Werror:" >&2
        grep '"command"' "$dir/build/compile_commands.json" | sed 's/^/    /' >&2
        return 1
    fi
    echo "  compiled with -std=c99 ... -Werror (compile_commands.json)"
    run_prog "$dir/build/prog"
    run_prog "$dir/build/prog_loop"
    expect_options "$dir/build/prog_options" "$options"
}

# (d) ---------------------------------------------------------------------
step="(d) CMake add_subdirectory"
echo "== $step: a copy in the consumer's tree, add_subdirectory(ptloop)"
write_cmake_consumer "$tmp/d"
copy_repo "$tmp/d/ptloop"
cmake_consumer "$tmp/d" "PT_CONFIG_DEBUG=0 PT_CONFIG_BACKEND=poll PT_CONFIG_TIMERS=heap" \
    -DHOW=subdirectory -DPTLOOP_BACKEND=poll

# (e) ---------------------------------------------------------------------
step="(e) CMake FetchContent"
echo "== $step: FetchContent_Declare(URL file://...tar.gz), MakeAvailable"
copy_repo "$tmp/e/src/ptloop"
tar -C "$tmp/e/src" -czf "$tmp/e/ptloop.tar.gz" ptloop
sha=$(sha256sum "$tmp/e/ptloop.tar.gz" | cut -d' ' -f1)
write_cmake_consumer "$tmp/e/app"
cmake_consumer "$tmp/e/app" "$defaults" -DHOW=fetch "-DPTLOOP_URL=file://$tmp/e/ptloop.tar.gz" \
    "-DPTLOOP_SHA256=$sha"

# (f) ---------------------------------------------------------------------
step="(f) CMake find_package"
echo "== $step: cmake --install, find_package(ptloop 0.1 REQUIRED), then moved"
copy_repo "$tmp/f/src"
cprefix="$tmp/f/prefix"
echo "  \$ cmake -S src -B build -G Ninja -DPTLOOP_DEBUG=ON -DPTLOOP_TIMERS=list"
logged "$tmp/f/configure.log" env CC="$cc" cmake -S "$tmp/f/src" -B "$tmp/f/build" -G Ninja \
    -DPTLOOP_DEBUG=ON -DPTLOOP_TIMERS=list
logged "$tmp/f/build.log" cmake --build "$tmp/f/build"
logged "$tmp/f/install.log" cmake --install "$tmp/f/build" --prefix "$cprefix"
pkgdir="$cprefix/share/cmake/ptloop"
for f in ptloopConfig.cmake ptloopConfigVersion.cmake ptloopTargets.cmake; do
    if [ ! -f "$pkgdir/$f" ]; then
        echo "  no share/cmake/ptloop/$f under $cprefix" >&2
        exit 1
    fi
done
echo "  installed share/cmake/ptloop/ptloopConfig.cmake (+ Version, Targets)"
# The same headers, in the same places, as meson installs.
cmake_include_files=$(tree_files "$cprefix/include")
if [ "$meson_include_files" != "$cmake_include_files" ]; then
    echo "  include/ differs between the meson (<) and the CMake (>) install:" >&2
    diff <(echo "$meson_include_files") <(echo "$cmake_include_files") | sed 's/^/    /' >&2 || true
    exit 1
fi
echo "  include/ as meson installs it: $(echo "$cmake_include_files" | wc -l) files"
stray=$(cd "$cprefix" && find . -mindepth 1 -maxdepth 1 ! -name include ! -name share)
if [ -n "$stray" ]; then
    echo "  unexpected entries in the install: $stray" >&2
    exit 1
fi
write_cmake_consumer "$tmp/f/app"
f_options="PT_CONFIG_DEBUG=1 PT_CONFIG_BACKEND=select PT_CONFIG_TIMERS=list"
cmake_consumer "$tmp/f/app" "$f_options" -DHOW=package -DPTLOOP_WANT=0.1 "-DCMAKE_PREFIX_PATH=$cprefix" \
    "-DPTLOOP_EXPECT_DIR=$pkgdir"
# Moved: the package files find the headers relative to themselves.
cmoved="$tmp/f/moved"
cp -a "$cprefix" "$cmoved"
rm -rf "$cprefix"
write_cmake_consumer "$tmp/f/app-moved"
echo "  moved to $cmoved"
cmake_consumer "$tmp/f/app-moved" "$f_options" -DHOW=package -DPTLOOP_WANT=0.1 "-DCMAKE_PREFIX_PATH=$cmoved" \
    "-DPTLOOP_EXPECT_DIR=$cmoved/share/cmake/ptloop"
# Another interface must not be taken for this one: before 1.0 each minor
# release is one (pt/version.h), older (0.0) or newer (0.2).
for want in 0.0 0.2; do
    write_cmake_consumer "$tmp/f/app-$want"
    if env CC="$cc" cmake -S "$tmp/f/app-$want" -B "$tmp/f/app-$want/build" -G Ninja \
        -DHOW=package -DPTLOOP_WANT=$want "-DCMAKE_PREFIX_PATH=$cmoved" \
        "-DPTLOOP_EXPECT_DIR=$cmoved/share/cmake/ptloop" >"$tmp/f/want-$want.log" 2>&1; then
        echo "  find_package(ptloop $want REQUIRED) accepted version 0.1.0:" >&2
        cat "$tmp/f/want-$want.log" >&2
        exit 1
    fi
    # ... and for that reason: it saw this package and turned its version down.
    if ! grep -q "ptloopConfig.cmake, version: 0.1.0" "$tmp/f/want-$want.log"; then
        echo "  find_package(ptloop $want REQUIRED) failed, but not on the version:" >&2
        cat "$tmp/f/want-$want.log" >&2
        exit 1
    fi
    echo "  find_package(ptloop $want REQUIRED) refuses 0.1.0, as it must"
done

step="done"
echo "consumers: OK (copied tree x2, meson subproject x2 + its install, installed +" \
    "pkg-config, moved + --define-prefix, with an option, CMake add_subdirectory, FetchContent," \
    "find_package + moved; options reach prog_options)"
