#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints every configuration key docs/reference.md documents, one a line: the first cell of each row of
the tables headed `key` in its section "Configuration" (top-level keys as `trust.ca_file`, target keys
as written). scripts/test-package.sh checks that `man 5 pinguard.yml` has an entry for each.

    reference_config_keys.py REFERENCE
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from markdown_roff import sections, table_rows  # noqa: E402


def config_keys(reference):
    body = next((b for lv, t, b in sections(reference) if lv == 2 and t == "Configuration"), None)
    if body is None:
        raise SystemExit("reference_config_keys.py: the reference has no section 'Configuration'")
    keys = []
    lines = body.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            header, rows = table_rows(lines[i:j])
            if header[0] == "key":
                keys += [re.sub(r"`", "", row[0]) for row in rows]
            i = j
        else:
            i += 1
    return keys


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        keys = config_keys(f.read())
    if not keys:
        raise SystemExit("reference_config_keys.py: no table headed `key` under 'Configuration'")
    print("\n".join(keys))
