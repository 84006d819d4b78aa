#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that every runbook_url in installed Prometheus rule files opens an installed document at an
existing heading.

    installed_runbooks_check.py RULES.yml...

Each runbook_url must be file:///PATH#ANCHOR with PATH an existing file and ANCHOR the GitHub-style anchor
of one of its Markdown headings (lowercase, punctuation dropped, spaces to dashes). Prints how many links
were checked, one "error: ..." line per broken link; exits 1 on any, or when no link was found.
"""
import os
import re
import sys


def anchors(path):
    with open(path, encoding="utf-8") as f:
        return {re.sub(r"[^a-z0-9 _-]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
                for line in f if re.match(r"^#{1,6} ", line)}


def main():
    errors = []
    links = 0
    cache = {}
    for rules in sys.argv[1:]:
        with open(rules, encoding="utf-8") as f:
            for url in re.findall(r'runbook_url:\s*"?([^"\s]+)"?', f.read()):
                links += 1
                m = re.fullmatch(r"file://(/[^#]+)#(.+)", url)
                if not m:
                    errors.append(f"{rules}: {url} is not a file:///PATH#ANCHOR link")
                    continue
                path, anchor = m.groups()
                if not os.path.isfile(path):
                    errors.append(f"{rules}: {url}: {path} is not installed")
                    continue
                if anchor not in cache.setdefault(path, anchors(path)):
                    errors.append(f"{rules}: {url}: {path} has no heading with anchor #{anchor}")
    print(f"{links} runbook links checked")
    for e in errors:
        print("error:", e)
    return 1 if errors or links == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
