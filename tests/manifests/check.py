#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/manifests/check.py - the package manifests say the same thing and
name what is there (meson test suite 'packaging').

    check.py [<source root> [<meson project version>]]

Reads, from the source root:

  meson.build          project('ptloop', version: ..., license: 'MIT')
  CMakeLists.txt       project(ptloop VERSION ...); under ESP-IDF
                       (if(ESP_PLATFORM)) idf_component_register with
                       INCLUDE_DIRS "." before project()
  pt/version.h         PT_VERSION_MAJOR, _MINOR, _PATCH, _STRING
  library.json         PlatformIO (JSON)
  idf_component.yml    ESP-IDF component manager (YAML)
  zephyr/module.yml    Zephyr module (YAML), with zephyr/CMakeLists.txt and
                       zephyr/Kconfig
  library.properties   Arduino (key=value), if present

and fails unless: every version is the same (and equals the meson project
version given, which is meson's own reading of meson.build); each
manifest has its required keys, name ptloop, licence MIT where the format
has one, a one-line description; every path a manifest uses exists
(include directories, source directories, headers, examples, the Zephyr
module's CMake folder and Kconfig file) and the include root holds
pt/pt.h and loop/loop.h; and demos/, tests/, bench/, cross/, docs/ stay
out of a user's build and of a packed package, examples/ out of the build
only. Paths a manifest excludes need not exist (docs/, build folders).

The formats' own rules checked here, beside ours: PlatformIO's description
is at most 255 characters and its srcFilter is applied in order, "+<p>"
adding and "-<p>" removing what p matches (a folder with all it holds);
Zephyr validates zephyr/module.yml against a closed schema (an unknown key
stops the build), whose keys are listed below; ESP-IDF tags are 3 to 32
letters, digits, "_" or "-".

YAML is read with PyYAML (Debian: python3-yaml). Without it, everything
else is checked; if that passes, the test is skipped (exit status 77),
naming the files it could not read.
"""
import fnmatch
import json
import os
import re
import sys

NAME = "ptloop"
LICENSE = "MIT"
# Folders that are not the library: never compiled into a user's program,
# and (all but examples/) left out of a packed package.
NOT_BUILT = ["bench", "cross", "demos", "docs", "examples", "tests"]
NOT_PACKED = ["bench", "cross", "demos", "docs", "tests"]
SOURCES = (".c", ".cc", ".cpp", ".cxx", ".s", ".S", ".ino")

# zephyr/module.yml: the keys of Zephyr's schema (scripts/zephyr_module.py).
ZEPHYR_KEYS = {"name", "build", "tests", "samples", "boards", "blobs"}
ZEPHYR_BUILD_KEYS = {
    "cmake",
    "kconfig",
    "cmake-ext",
    "kconfig-ext",
    "sysbuild-cmake",
    "sysbuild-kconfig",
    "sysbuild-cmake-ext",
    "sysbuild-kconfig-ext",
    "depends",
    "settings",
}
# idf_component.yml: the component manager's known keys (it tolerates
# others; here an unknown key is taken for a typo).
IDF_KEYS = {
    "name",
    "version",
    "targets",
    "maintainers",
    "description",
    "license",
    "tags",
    "dependencies",
    "files",
    "examples",
    "url",
    "repository",
    "documentation",
    "issues",
    "discussion",
    "repository_info",
}


# library.properties: the fields the Arduino library specification
# requires, and its categories.
ARDUINO_REQUIRED = ("name", "version", "author", "maintainer", "sentence", "paragraph",
                    "category", "url", "architectures")
ARDUINO_CATEGORIES = {"Display", "Communication", "Signal Input/Output", "Sensors",
                      "Device Control", "Timing", "Data Storage", "Data Processing", "Other"}


class Check:
    def __init__(self, root):
        self.root = root
        self.errors = 0
        self.skipped = []
        self.versions = {}  # where: version

    def ok(self, where, what):
        print(f"ok    {where}: {what}")

    def fail(self, where, what):
        print(f"FAIL  {where}: {what}")
        self.errors += 1

    def expect(self, cond, where, what):
        (self.ok if cond else self.fail)(where, what)
        return cond

    def path(self, rel):
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def version(self, where, v):
        self.versions[where] = v
        self.expect(
            isinstance(v, str) and re.fullmatch(r"\d+\.\d+\.\d+", v) is not None,
            where,
            f"version {v!r} is MAJOR.MINOR.PATCH",
        )

    def one_line(self, where, key, text, limit=None):
        good = isinstance(text, str) and text.strip() != "" and "\n" not in text.strip()
        if good and limit is not None:
            good = len(text) <= limit
        self.expect(good, where, f"{key} is one line" + (f" of at most {limit}" if limit else ""))

    def include_root(self, where, rel):
        """rel (from the root) is a folder holding pt/pt.h and loop/loop.h."""
        base = os.path.normpath(self.path(rel))
        self.expect(
            os.path.isfile(os.path.join(base, "pt", "pt.h"))
            and os.path.isfile(os.path.join(base, "loop", "loop.h")),
            where,
            f"include directory {rel!r} holds pt/pt.h and loop/loop.h",
        )


def source_files(root):
    """Every source file of the tree, relative, with '/' (no .git, builds)."""
    for d, dirs, files in os.walk(root):
        rel_d = os.path.relpath(d, root)
        dirs[:] = [
            x for x in dirs if x != ".git" and not (rel_d == "." and x.startswith("build"))
        ]
        for f in files:
            if f.endswith(SOURCES):
                yield os.path.normpath(os.path.join(rel_d, f)).replace(os.sep, "/")


def pattern_matches(pattern, rel):
    """A filter or export pattern matches rel or a folder rel is in."""
    pattern = pattern.strip().rstrip("/")
    if pattern.startswith("./"):
        pattern = pattern[2:]
    parts = rel.split("/")
    return any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1))


def pio_filter_tokens(flt):
    """PlatformIO's srcFilter (a string or a list) as [(+1|-1, pattern)]."""
    if isinstance(flt, list):
        flt = " ".join(flt)
    return [(1 if sign == "+" else -1, p) for sign, p in re.findall(r"([+-])<([^>]*)>", flt)]


def check_meson(c, given):
    where = "meson.build"
    text = c.read(where)
    m = re.search(r"project\(\s*'([^']+)'(.*?)\n\)", text, re.S)
    if not c.expect(m is not None, where, "has a project() call"):
        return
    c.expect(m.group(1) == NAME, where, f"project name {m.group(1)!r}")
    v = re.search(r"\bversion:\s*'([^']*)'", m.group(2))
    c.version(where, v.group(1) if v else None)
    lic = re.search(r"\blicense:\s*'([^']*)'", m.group(2))
    c.expect(lic is not None and lic.group(1) == LICENSE, where, f"license {LICENSE}")
    if given is not None:
        c.version("meson project version", given)


def check_cmake(c):
    where = "CMakeLists.txt"
    text = re.sub(r"#[^\n]*", "", c.read(where))  # comments may quote code
    m = re.search(r"\bproject\(\s*(\w+)\s+VERSION\s+([0-9.]+)", text)
    if not c.expect(m is not None, where, "project(<name> VERSION ...)"):
        return
    c.expect(m.group(1) == NAME, where, f"project name {m.group(1)!r}")
    c.version(where, m.group(2))
    idf = re.search(
        r"if\(\s*ESP_PLATFORM\s*\)\s*idf_component_register\(\s*INCLUDE_DIRS\s+\"([^\"]*)\"\s*\)"
        r"\s*return\(\)\s*endif\(\)",
        text,
    )
    c.expect(
        idf is not None and idf.start() < m.start(),
        where,
        "under ESP-IDF: idf_component_register(INCLUDE_DIRS ...) and return() before project()",
    )
    if idf:
        c.include_root(where + " (ESP-IDF)", idf.group(1))
    c.expect(
        re.search(r"BUILD_INTERFACE:\$\{CMAKE_CURRENT_SOURCE_DIR\}>", text) is not None,
        where,
        "the build-tree include directory is the root",
    )


def check_version_h(c):
    where = "pt/version.h"
    text = c.read(where)
    parts = {}
    for k in ("MAJOR", "MINOR", "PATCH"):
        m = re.search(rf"^#define PT_VERSION_{k} (\d+)$", text, re.M)
        parts[k] = m.group(1) if m else None
    s = re.search(r'^#define PT_VERSION_STRING "([^"]*)"$', text, re.M)
    string = s.group(1) if s else None
    c.expect(
        None not in parts.values()
        and string == "{MAJOR}.{MINOR}.{PATCH}".format(**parts),
        where,
        f"PT_VERSION_STRING {string!r} is MAJOR.MINOR.PATCH {tuple(parts.values())}",
    )
    c.version(where, string)
    c.expect(
        re.search(r'^#include "version.h"$', c.read("pt/pt.h"), re.M) is not None,
        "pt/pt.h",
        "includes version.h",
    )


SPDX_LINES = ["/* SPDX-License-Identifier: MIT */", "/* Copyright (c) 2026 The ptloop developers */"]


def check_license(c):
    first = c.read("LICENSE").splitlines()[0].strip()
    c.expect(first == "MIT License", "LICENSE", f"is the MIT licence ({first!r})")
    # Every header a user includes carries its licence: a copied pt/ keeps
    # the notice.
    headers = sorted(
        os.path.relpath(os.path.join(d, f), c.root)
        for top in ("pt", "loop")
        for d, _, fs in os.walk(os.path.join(c.root, top))
        for f in fs
        if f.endswith(".h")
    ) + ["ptloop.h"]
    bad = [h for h in headers if c.read(h).splitlines()[:2] != SPDX_LINES]
    c.expect(not bad, "headers", f"{len(headers)} begin with the SPDX and copyright lines"
             + (": not " + ", ".join(bad) if bad else ""))


def check_platformio(c):
    where = "library.json"
    try:
        m = json.loads(c.read(where))
    except ValueError as e:
        c.fail(where, f"is not JSON: {e}")
        return
    for key in ("name", "version", "description", "license", "frameworks", "platforms", "build"):
        c.expect(key in m, where, f"has {key}")
    c.expect(m.get("name") == NAME, where, f"name {m.get('name')!r}")
    c.version(where, m.get("version"))
    c.one_line(where, "description", m.get("description"), 255)
    c.expect(m.get("license") == LICENSE, where, f"license {m.get('license')!r}")
    for key in ("frameworks", "platforms"):
        c.expect(m.get(key) == "*", where, f"{key} is \"*\"")
    build = m.get("build", {})
    inc = build.get("includeDir", "include")
    c.include_root(where, inc)
    for h in m.get("headers", []):
        c.expect(os.path.isfile(c.path(os.path.join(inc, h))), where, f"header {h} exists")
    src = build.get("srcDir", "src" if os.path.isdir(c.path("src")) else ".")
    if c.expect(os.path.isdir(c.path(src)), where, f"srcDir {src!r} exists"):
        # What PlatformIO would compile: every source under srcDir through
        # srcFilter (default: all of it).
        tokens = pio_filter_tokens(build.get("srcFilter", "+<*>"))
        base = os.path.normpath(c.path(src))
        compiled = []
        for rel in source_files(base):
            state = False
            for sign, p in tokens:
                if pattern_matches(p, rel):
                    state = sign > 0
            if state:
                compiled.append(rel)
        for d in NOT_BUILT:
            inside = [f for f in compiled if pattern_matches(d, os.path.relpath(
                os.path.join(base, f), c.root).replace(os.sep, "/"))]
            c.expect(not inside, where, f"srcFilter keeps {d}/ out of the build"
                     + (f" (not {inside[:3]})" if inside else ""))
        c.expect(not compiled, where, "compiles nothing (headers only)"
                 + (f" (not {compiled[:3]})" if compiled else ""))
    exclude = m.get("export", {}).get("exclude", [])
    include = m.get("export", {}).get("include")
    c.expect(include is None, where, "export has no include list (all but the excluded)")
    for d in NOT_PACKED:
        c.expect(any(pattern_matches(p, d) for p in exclude), where, f"export leaves {d}/ out")
    c.expect(not any(pattern_matches(p, "examples") for p in exclude), where,
             "export keeps examples/ (PlatformIO shows them)")
    for p in m.get("examples", []):
        if isinstance(p, dict):
            base = p.get("base", "")
            found = [os.path.join(base, f) for f in p.get("files", [])]
            good = found and all(os.path.isfile(c.path(f)) for f in found)
        else:
            good = any(fnmatch.fnmatchcase(f, p) for f in source_files(c.root))
        c.expect(bool(good), where, f"examples {p!r} names files that exist")


def load_yaml(c, where):
    try:
        import yaml
    except ImportError:
        c.skipped.append(where)
        print(f"skip  {where}: no PyYAML (Debian: python3-yaml)")
        return None
    try:
        data = yaml.safe_load(c.read(where))
    except yaml.YAMLError as e:
        c.fail(where, f"is not YAML: {e}")
        return None
    if not c.expect(isinstance(data, dict), where, "is a YAML mapping"):
        return None
    return data


def check_idf(c):
    where = "idf_component.yml"
    m = load_yaml(c, where)
    if m is None:
        return
    unknown = sorted(set(m) - IDF_KEYS)
    c.expect(not unknown, where, "only keys the component manager knows" +
             (f" (not {unknown})" if unknown else ""))
    c.expect(m.get("name") == NAME, where, f"name {m.get('name')!r}")
    c.version(where, m.get("version"))
    c.one_line(where, "description", m.get("description"))
    c.expect(m.get("license") == LICENSE, where, f"license {m.get('license')!r}")
    for t in m.get("tags", []):
        c.expect(re.fullmatch(r"[A-Za-z0-9_-]{3,32}", str(t)) is not None, where, f"tag {t!r}")
    exclude = m.get("files", {}).get("exclude", [])
    for d in NOT_PACKED:
        probe = d + "/x/y.c"
        c.expect(any(fnmatch.fnmatchcase(probe, p) for p in exclude), where,
                 f"files.exclude leaves {d}/ out")
    # The component's build: the root CMakeLists.txt (check_cmake).
    c.expect(os.path.isfile(c.path("CMakeLists.txt")), where,
             "the component's CMakeLists.txt is at the root")


def check_zephyr(c):
    where = "zephyr/module.yml"
    m = load_yaml(c, where)
    if m is None:
        return
    unknown = sorted(set(m) - ZEPHYR_KEYS)
    c.expect(not unknown, where, "only keys of Zephyr's schema" +
             (f" (not {unknown}: the build would stop)" if unknown else ""))
    build = m.get("build", {})
    unknown = sorted(set(build) - ZEPHYR_BUILD_KEYS)
    c.expect(not unknown, where, "build: only keys of Zephyr's schema" +
             (f" (not {unknown})" if unknown else ""))
    c.expect(m.get("name") == NAME, where, f"name {m.get('name')!r}")
    cmake_dir = build.get("cmake", "zephyr")
    cmake_file = os.path.join(cmake_dir, "CMakeLists.txt")
    if c.expect(os.path.isfile(c.path(cmake_file)), where, f"build.cmake: {cmake_file} exists"):
        text = re.sub(r"#[^\n]*", "", c.read(cmake_file))
        m_inc = re.search(
            r"if\(\s*CONFIG_PTLOOP\s*\)\s*zephyr_include_directories\(\s*"
            r"\$\{CMAKE_CURRENT_LIST_DIR\}/?([^\s)]*)\s*\)",
            text,
        )
        if c.expect(m_inc is not None, cmake_file,
                    "zephyr_include_directories(...) under if(CONFIG_PTLOOP)"):
            c.include_root(cmake_file, os.path.join(cmake_dir, m_inc.group(1)))
    kconfig = build.get("kconfig", "zephyr/Kconfig")
    if c.expect(os.path.isfile(c.path(kconfig)), where, f"build.kconfig: {kconfig} exists"):
        c.expect(re.search(r"^config PTLOOP\n\tbool ", c.read(kconfig), re.M) is not None,
                 kconfig, "defines the bool CONFIG_PTLOOP")


def check_options(c):
    """The options every file of a program must agree on are offered the
    same way by meson (meson_options.txt), CMake (CMakeLists.txt) and Zephyr
    (zephyr/Kconfig, mapped in zephyr/CMakeLists.txt): the same choices,
    each naming a value loop/config.h defines."""
    config = c.read("loop/config.h")
    meson_opts = c.read("meson_options.txt")
    cmake = c.read("CMakeLists.txt")
    kconfig = c.read("zephyr/Kconfig")
    zcmake = c.read("zephyr/CMakeLists.txt")
    for meson_name, cmake_list, kconfig_name, macro_prefix in (
        ("loop_backend", "ptloop_backends", "PTLOOP_BACKEND", "PT_BACKEND_"),
        ("loop_timers", "ptloop_timers", "PTLOOP_TIMERS", "PT_TIMERS_"),
    ):
        m = re.search(r"option\('" + meson_name + r"',[^\n]*choices: \[([^\]]*)\]", meson_opts)
        meson_choices = set(re.findall(r"'([a-z]+)'", m.group(1))) if m else set()
        m = re.search(r"set\(" + cmake_list + r"((?: [a-z]+)+)\)", cmake)
        cmake_choices = set(m.group(1).split()) if m else set()
        kconfig_choices = {v.lower() for v in re.findall(r"^config " + kconfig_name + r"_([A-Z]+)$",
                                                            kconfig, re.M)}
        kconfig_choices = {"auto" if v == "default" else v for v in kconfig_choices}
        where = f"{meson_name} / {cmake_list} / {kconfig_name}"
        c.expect(meson_choices and meson_choices == cmake_choices == kconfig_choices, where,
                 f"the same choices in meson, CMake and Kconfig: {sorted(meson_choices)}"
                 + ("" if meson_choices == cmake_choices == kconfig_choices else
                    f" (CMake {sorted(cmake_choices)}, Kconfig {sorted(kconfig_choices)})"))
        values = sorted(meson_choices - {"auto"})
        missing = [v for v in values
                   if not re.search(r"^#define " + macro_prefix + v.upper() + r"\b", config, re.M)]
        c.expect(not missing, where, f"each a value loop/config.h defines ({macro_prefix}*)"
                 + (f": not {missing}" if missing else ""))
        m = re.search(r"foreach\(value((?: [A-Z]+)+)\)\s*if\(CONFIG_" + kconfig_name + r"_\$\{value\}\)",
                      zcmake)
        zephyr_values = sorted(v.lower() for v in m.group(1).split()) if m else []
        c.expect(zephyr_values == values, "zephyr/CMakeLists.txt",
                 f"maps every CONFIG_{kconfig_name}_* to {macro_prefix}*: {zephyr_values}")
    c.expect(re.search(r"option\('debug_mode', type: 'boolean'", meson_opts) is not None
             and re.search(r"option\(PTLOOP_DEBUG ", cmake) is not None
             and re.search(r"^config PTLOOP_DEBUG\n\tbool ", kconfig, re.M) is not None
             and "zephyr_compile_definitions(PT_CONFIG_DEBUG=1)" in zcmake,
             "debug_mode / PTLOOP_DEBUG", "the debug mode in meson, CMake and Kconfig")


def check_arduino(c):
    where = "library.properties"
    if not os.path.isfile(c.path(where)):
        print(f"-     {where}: none")
        return
    props = {}
    for n, line in enumerate(c.read(where).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, eq, value = line.partition("=")
        key = key.strip()
        if eq != "=":
            c.fail(where, f"line {n} is not key=value: {line!r}")
        elif key in props:
            c.fail(where, f"line {n}: {key} again")
        else:
            props[key] = value.strip()
    # The Arduino library specification's required fields, each non-empty
    # (the Library Manager's indexer refuses an empty one), the category one
    # of its list and the url a URL with a scheme (arduino-lint LP041).
    for key in ARDUINO_REQUIRED:
        c.expect(props.get(key, "") != "", where, f"has {key}")
    c.expect(props.get("category") in ARDUINO_CATEGORIES, where,
             f"category {props.get('category')!r} is one of the specification's")
    c.expect(re.fullmatch(r"https?://[^/\s]+(/\S*)?", props.get("url", "")) is not None, where,
             f"url {props.get('url')!r} is an http(s) URL")
    c.expect(props.get("name") == NAME, where, f"name {props.get('name')!r}")
    c.version(where, props.get("version"))
    c.one_line(where, "sentence", props.get("sentence", ""))
    for h in filter(None, (x.strip() for x in props.get("includes", "").split(","))):
        c.expect(os.path.isfile(c.path(h)) or os.path.isfile(c.path(os.path.join("src", h))),
                 where, f"includes: {h} exists")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../..")
    given = sys.argv[2] if len(sys.argv) > 2 else None
    c = Check(os.path.normpath(root))
    check_license(c)
    check_meson(c, given)
    check_cmake(c)
    check_version_h(c)
    check_platformio(c)
    check_idf(c)
    check_zephyr(c)
    check_options(c)
    check_arduino(c)

    versions = set(c.versions.values())
    if c.expect(len(versions) == 1, "versions", "all the same"):
        c.ok("versions", f"{versions.pop()} in " + ", ".join(c.versions))
    else:
        for where, v in sorted(c.versions.items()):
            print(f"        {where}: {v!r}")

    if c.errors:
        print(f"manifests: {c.errors} check(s) FAILED")
        return 1
    if c.skipped:
        print("manifests: SKIPPED (not read: " + ", ".join(c.skipped) + "); the rest is ok")
        return 77
    print("manifests: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
