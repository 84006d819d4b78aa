#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Extract the Alertmanager configuration example from docs/prometheus.md.

    alertmanager_example.py DOCS_MD OUT_YML

Writes the first ```yaml block after the heading "## Alertmanager routing"
of DOCS_MD to OUT_YML, for `amtool check-config`. Writes an empty file when
there is no such block (amtool then rejects it).
"""
import argparse
import re


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs", metavar="DOCS_MD")
    parser.add_argument("out", metavar="OUT_YML")
    args = parser.parse_args()
    with open(args.docs, encoding="utf-8") as f:
        m = re.search(r"(?ms)^## Alertmanager routing.*?^```yaml\n(.*?)^```", f.read())
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(m.group(1) if m else "")


if __name__ == "__main__":
    main()
