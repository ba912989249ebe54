#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Check Chrome trace-event JSON against the format's rules.

usage: validate_trace.py FILE...
       validate_trace.py --self-test

The rules are those of the Trace Event Format (the document that Perfetto
and chrome://tracing read), as far as a file can break them:

  - the file is a JSON object with a "traceEvents" array (the JSON Object
    Format) or an array of events (the JSON Array Format); an object's
    "displayTimeUnit" is "ms" or "ns", its "otherData" an object;
  - every event is an object with a one-letter "ph" of a known phase, and
    integer "pid" and "tid" (not booleans);
  - "name" is a string, "cat" a string and "args" an object where present;
    "name" is required but for "E";
  - "ts" (microseconds) is a finite number on every event but metadata;
  - "X" (complete) has a finite "dur" >= 0;
  - "i"/"I" (instant) has a scope "s" of "g", "p" or "t" if any;
  - "C" (counter) has "args" whose values are numbers;
  - "M" (metadata) is one of process_name, process_labels,
    process_sort_index, thread_name, thread_sort_index, with "args" holding
    a string "name" (the *_name ones), a string "labels" or an integer
    "sort_index".

Prints each problem as FILE: event N: what; exits 1 if there was any.
--self-test checks the checker: a good trace passes, and each of a list of
broken ones (one rule broken each) is caught.
"""
import copy
import json
import math
import sys

PHASES = set("BEXiICbnestfPONDMRc()") | {"S", "T", "p", "F"}
METADATA = {
    "process_name": ("name", str),
    "process_labels": ("labels", str),
    "process_sort_index": ("sort_index", int),
    "thread_name": ("name", str),
    "thread_sort_index": ("sort_index", int),
}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return (is_int(v) or isinstance(v, float)) and math.isfinite(v)


def event_problems(e):
    """What is wrong with one event, as a list of phrases."""
    if not isinstance(e, dict):
        return ["not an object"]
    out = []
    ph = e.get("ph")
    if not isinstance(ph, str) or ph not in PHASES:
        return [f"ph {ph!r} is not a phase of the format"]
    for key in ("pid", "tid"):
        if not is_int(e.get(key)):
            out.append(f"{key} {e.get(key)!r} is not an integer")
    if ("name" in e or ph != "E") and not isinstance(e.get("name"), str):
        out.append(f"name {e.get('name')!r} is not a string")
    if "cat" in e and not isinstance(e["cat"], str):
        out.append(f"cat {e['cat']!r} is not a string")
    if "args" in e and not isinstance(e["args"], dict):
        out.append(f"args {e['args']!r} is not an object")
    if ph != "M" and not is_number(e.get("ts")):
        out.append(f"ts {e.get('ts')!r} is not a number")
    if ph == "X":
        dur = e.get("dur")
        if not is_number(dur):
            out.append(f"dur {dur!r} is not a number")
        elif dur < 0:
            out.append(f"dur {dur} is negative")
    if ph in "iI" and "s" in e and e["s"] not in ("g", "p", "t"):
        out.append(f"instant scope {e['s']!r} is not g, p or t")
    if ph == "C":
        args = e.get("args")
        if not isinstance(args, dict) or not all(is_number(v) for v in args.values()):
            out.append(f"counter args {args!r} are not numbers")
    if ph == "M":
        rule = METADATA.get(e.get("name"))
        if rule is None:
            out.append(f"metadata name {e.get('name')!r} is not one of {sorted(METADATA)}")
        else:
            key, kind = rule
            args = e.get("args")
            value = args.get(key) if isinstance(args, dict) else None
            if not (is_int(value) if kind is int else isinstance(value, kind)):
                out.append(f"{e['name']} needs args.{key} ({kind.__name__}), has {args!r}")
    return out


def problems(doc):
    """What is wrong with a whole trace, as "event N: ..." phrases."""
    if isinstance(doc, list):
        events = doc
    elif isinstance(doc, dict):
        events = doc.get("traceEvents")
        if not isinstance(events, list):
            return ["traceEvents is not an array"]
        if "displayTimeUnit" in doc and doc["displayTimeUnit"] not in ("ms", "ns"):
            return [f"displayTimeUnit {doc['displayTimeUnit']!r} is not ms or ns"]
        if "otherData" in doc and not isinstance(doc["otherData"], dict):
            return ["otherData is not an object"]
    else:
        return ["neither an object nor an array"]
    return [f"event {i}: {p}" for i, e in enumerate(events) for p in event_problems(e)]


GOOD = {
    "displayTimeUnit": "ms",
    "otherData": {"dropped": 0},
    "traceEvents": [
        {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "p"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}},
        {"name": "thread_sort_index", "ph": "M", "pid": 1, "tid": 1, "args": {"sort_index": 1}},
        {"name": "main", "cat": "task", "ph": "X", "ts": 0, "dur": 3, "pid": 1, "tid": 1},
        {"name": "main", "ph": "X", "ts": 5.5, "dur": 0, "pid": 1, "tid": 1},
        {"name": "note", "ph": "i", "s": "g", "ts": 9, "pid": 1, "tid": 0},
        {"name": "n", "ph": "C", "ts": 9, "pid": 1, "tid": 0, "args": {"v": 2}},
        {"ph": "E", "ts": 10, "pid": 1, "tid": 1},
    ],
}

# (what is broken, the change to GOOD: event index, key, new value or
# DELETE; index None changes the top object).
DELETE = object()
BROKEN = [
    ("no traceEvents", None, "traceEvents", DELETE),
    ("a bad displayTimeUnit", None, "displayTimeUnit", "s"),
    ("otherData not an object", None, "otherData", [1]),
    ("no ph", 3, "ph", DELETE),
    ("an unknown phase", 3, "ph", "Z"),
    ("a complete event without dur", 3, "dur", DELETE),
    ("a negative dur", 3, "dur", -1),
    ("a dur that is a string", 3, "dur", "3"),
    ("ts as a string", 3, "ts", "0"),
    ("no ts", 3, "ts", DELETE),
    ("ts not finite", 3, "ts", float("inf")),
    ("pid as a string", 3, "pid", "1"),
    ("no tid", 3, "tid", DELETE),
    ("tid a boolean", 3, "tid", True),
    ("tid a float", 3, "tid", 1.5),
    ("name a number", 3, "name", 7),
    ("no name", 3, "name", DELETE),
    ("cat a number", 3, "cat", 1),
    ("args an array", 3, "args", []),
    ("an unknown metadata name", 1, "name", "thread_nam"),
    ("thread_name without args.name", 1, "args", {}),
    ("thread_name without args", 1, "args", DELETE),
    ("process_name with a number for a name", 0, "args", {"name": 1}),
    ("thread_sort_index with a string", 2, "args", {"sort_index": "1"}),
    ("an instant of a bad scope", 5, "s", "x"),
    ("a counter of a string", 6, "args", {"v": "2"}),
    ("an event that is no object", 4, None, None),
]


def self_test():
    bad = 0
    if problems(GOOD):
        print(f"FAILED: the good trace is refused: {problems(GOOD)}")
        bad += 1
    for what, index, key, value in BROKEN:
        doc = copy.deepcopy(GOOD)
        target = doc if index is None else doc["traceEvents"][index]
        if key is None:
            doc["traceEvents"][index] = value
        elif value is DELETE:
            del target[key]
        else:
            target[key] = value
        found = problems(doc)
        print(f"{'ok' if found else 'MISSED'}: {what}: {found}")
        bad += not found
    print(f"{len(BROKEN)} broken traces, {bad} missed")
    return 1 if bad else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if not argv or argv[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    bad = 0
    for path in argv:
        with open(path, encoding="utf-8") as f:
            found = problems(json.load(f))
        for p in found:
            print(f"{path}: {p}")
        bad += len(found)
        if not found:
            print(f"{path}: a valid trace")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
