#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that every pinguard_* metric name in use is one pinguard exports.

    metric_names_check.py EXPORTED_METRICS EXPRS_JSONL [FILE...]

EXPORTED_METRICS is contrib/prometheus/exported-metrics.txt (one name per
line, `#` comments). Every `pinguard_*` name found in the FILEs (rules, alerts,
their tests, docs) and in the dashboard expressions of EXPRS_JSONL (written by
dashboard_check.py) must be listed there, and no name may be listed twice.
Recording-rule names (pinguard:...) are not metric names and are not matched.

Prints how many names are used and exported, the exported names nothing uses,
and one "error: ..." line per problem; exits 1 if there is any problem.
"""
import argparse
import json
import re
import sys

NAME = re.compile(r"(?<![A-Za-z0-9_:])pinguard_[a-z0-9_]*[a-z0-9]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", metavar="EXPORTED_METRICS")
    parser.add_argument("exprs", metavar="EXPRS_JSONL")
    parser.add_argument("files", metavar="FILE", nargs="*")
    args = parser.parse_args()

    with open(args.metrics, encoding="utf-8") as f:
        exported = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    known = set(exported)
    errors = []
    if len(known) != len(exported):
        errors.append(f"{args.metrics}: duplicate lines")
    sources = []
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            sources.append((path, f.read()))
    with open(args.exprs, encoding="utf-8") as f:
        sources += [(f"dashboard {w}", e) for w, e in (json.loads(line) for line in f)]
    used = {}
    for where, text in sources:
        for n in NAME.findall(text):
            used.setdefault(n, set()).add(where)
    for n in sorted(used):
        if n not in known:
            errors.append(f"{n} (in {', '.join(sorted(used[n]))}) is not in {args.metrics}")
    print(f"{len(used)} distinct pinguard_* names used, {len(known)} exported")
    unused = sorted(known - set(used))
    if unused:
        print("exported but unused by rules and dashboard:", ", ".join(unused))
    for e in errors:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
