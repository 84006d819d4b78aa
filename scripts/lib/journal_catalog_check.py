#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that pinguard's journal message catalog is well formed.

    journal_catalog_check.py CATALOG

For contrib/journald/pinguard.catalog, every entry ("-- MESSAGE_ID" line,
header lines, a blank line, the explanation):
  - its MESSAGE_ID is 32 lowercase hex digits and no other entry has it;
  - its header lines are "Key: value" with a capitalised key;
  - it has a Subject, Defined-By: pinguard and a non-empty explanation;
  - every @FIELD@ it substitutes is a journal field pinguard writes
    (docs/reference.md, Journal events).
There must be at least one entry. That the entries are exactly those of the
JournalEvent enum, with Subject equal to the event's summary, is checked by
the Swift test Tests/PinGuardCoreTests/JournalCatalogTests.swift.

Prints "N entries" and one line per problem; exits 1 if there is any, else 0.
"""
import argparse
import re
import sys
from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference.md"


def journal_fields():
    """MESSAGE, PRIORITY and every PINGUARD_* field the reference's Journal events section names."""
    text = REFERENCE.read_text(encoding="utf-8")
    start = text.index("## Journal events")
    section = text[start:text.index("\n## ", start + 1)]
    return {"MESSAGE", "PRIORITY"} | set(re.findall(r"PINGUARD_[A-Z0-9_]+", section))


FIELDS = journal_fields()


def parse(text, errors):
    """Returns the entries: dicts with id, headers and body lines."""
    entries = []
    for line in text.splitlines():
        if line.startswith("-- "):
            entries.append({"id": line[3:].strip(), "headers": {}, "body": [], "in_header": True})
        elif entries and not line.startswith("#"):
            e = entries[-1]
            if e["in_header"] and line == "":
                e["in_header"] = False
            elif e["in_header"]:
                key, sep, value = line.partition(": ")
                if not sep or not re.fullmatch(r"[A-Z][A-Za-z-]*", key):
                    errors.append(f"{e['id']}: not a header line: {line!r}")
                e["headers"][key] = value
            else:
                e["body"].append(line)
    return entries


def check(entries, errors):
    seen = [e["id"] for e in entries]
    for i in sorted({i for i in seen if seen.count(i) > 1}):
        errors.append(f"{i}: {seen.count(i)} catalog entries, want 1")
    for e in entries:
        i, h = e["id"], e["headers"]
        if not re.fullmatch(r"[0-9a-f]{32}", i):
            errors.append(f"{i}: not 32 lowercase hex digits")
        if h.get("Defined-By") != "pinguard":
            errors.append(f"{i}: Defined-By is {h.get('Defined-By')!r}, not 'pinguard'")
        if not h.get("Subject"):
            errors.append(f"{i}: no Subject")
        if not "".join(e["body"]).strip():
            errors.append(f"{i}: no explanation text")
        for f in re.findall(r"@([A-Za-z0-9_]+)@", "\n".join(e["body"] + [h.get("Subject", "")])):
            if f not in FIELDS:
                errors.append(f"{i}: @{f}@ is not a journal field pinguard writes")
    if not entries:
        errors.append("no entries")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", metavar="CATALOG")
    args = parser.parse_args()
    try:
        with open(args.catalog, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"cannot read {args.catalog}: {e}")
    errors = []
    entries = parse(text, errors)
    check(entries, errors)
    print(f"{len(entries)} entries")
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
