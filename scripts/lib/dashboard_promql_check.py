#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that every PromQL expression of the dashboard parses, with promtool.

    dashboard_promql_check.py EXPRS_JSONL RULES_OUT

EXPRS_JSONL is the file dashboard_check.py writes ([where, expression] per
line). Grafana variables become plain values so that promtool can parse the
expressions: interval macros ($__rate_interval, ...) a duration, every other
variable the regex `.*`. The expressions are written to RULES_OUT as recording
rules (dashboard:expr_N) and checked with `promtool check rules`.

Prints promtool's output, and on failure every expression with its origin;
exits with promtool's status.
"""
import argparse
import json
import re
import subprocess
import sys

MACROS = {"__rate_interval": "5m", "__interval": "5m", "__range": "5m",
          "__range_s": "300", "__range_ms": "300000", "__interval_ms": "300000"}


def subst(expr):
    """Replaces ${name}, ${name:format}, $name and [[name]]."""
    def repl(m):
        name = m.group(1) or m.group(2) or m.group(3)
        return MACROS.get(name, ".*")
    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]", repl, expr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exprs", metavar="EXPRS_JSONL")
    parser.add_argument("out", metavar="RULES_OUT")
    args = parser.parse_args()

    with open(args.exprs, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("groups:\n  - name: dashboard\n    rules:\n")
        for i, (where, expr) in enumerate(rows):
            f.write(f"      # {where}\n")
            f.write(f"      - record: dashboard:expr_{i}\n")
            f.write(f"        expr: {json.dumps(subst(expr))}\n")
    try:
        r = subprocess.run(["promtool", "check", "rules", args.out], capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit("error: promtool not found in PATH")
    print(r.stdout + r.stderr, end="")
    if r.returncode != 0:
        for i, (where, expr) in enumerate(rows):
            print(f"expr_{i}: {where}: {subst(expr)}")
    sys.exit(r.returncode)


if __name__ == "__main__":
    main()
