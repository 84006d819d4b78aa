#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that exported-metrics.txt lists every metric of the specification.

    spec_metrics_check.py EXPORTED_METRICS SPEC_MD

SPEC_MD is the product specification (shared/SPEC.md, next to the repository
on CI and developer machines). Its section "## 5." (up to "## 6.") has a table
whose first column names the metrics, one or more `pinguard_*` names per row.
Every one of them must be listed in EXPORTED_METRICS
(contrib/prometheus/exported-metrics.txt); pinguard exports more (the journal
counter, round lateness, the process collector's process_* names), which the
Swift test MetricFamilyDeclarationTests checks against docs/reference.md.

Prints both counts, one "error: ..." line per specified metric not exported and
one "note: ..." line per exported metric beyond the table; exits 1 if a
specified metric is missing or the section lists no metric.
"""
import argparse
import re
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", metavar="EXPORTED_METRICS")
    parser.add_argument("spec", metavar="SPEC_MD")
    args = parser.parse_args()

    with open(args.spec, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"(?ms)^## 5\..*?(?=^## 6\.)", text)
    section = m.group(0) if m else ""
    in_spec = set()
    for line in section.splitlines():
        if line.startswith("| `pinguard_"):
            first = line.split("|")[1]
            in_spec.update(re.findall(r"`(pinguard_\w+)`", first))
    with open(args.metrics, encoding="utf-8") as f:
        listed = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    print(f"{args.spec} section 5 lists {len(in_spec)} metrics, {args.metrics} {len(listed)}")
    for n in sorted(in_spec - listed):
        print("error: in SPEC, not in exported-metrics.txt:", n)
    for n in sorted(listed - in_spec):
        print("note: exported beyond the SPEC table:", n)
    sys.exit(0 if in_spec and in_spec <= listed else 1)


if __name__ == "__main__":
    main()
