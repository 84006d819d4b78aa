#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that every journal entry pinguard wrote has an entry in the message catalog.

    journalctl -o json -t pinguard | journal_events_in_catalog_check.py CATALOG

Reads `journalctl -o json` output (one JSON object per line) on standard
input: the entries a real pinguard wrote, e.g. one round of the built-in demo
run by test-systemd-unit.sh against a private journald. Every entry must have
a MESSAGE_ID and a PINGUARD_EVENT, the MESSAGE_ID must head an entry
("-- MESSAGE_ID") of CATALOG (contrib/journald/pinguard.catalog), and one
PINGUARD_EVENT must always come with the same MESSAGE_ID. At least one entry
must be read.

On success prints one line: how many entries and which events; otherwise one
line per problem. Exits 1 on any problem, 0 otherwise.
"""
import argparse
import json
import re
import sys


def text(value):
    """journalctl -o json gives a field as a string, or as a list of byte values when it is not UTF-8."""
    if isinstance(value, list):
        return bytes(value).decode("utf-8", "replace")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", metavar="CATALOG")
    args = parser.parse_args()
    with open(args.catalog, encoding="utf-8") as f:
        catalog_ids = set(re.findall(r"(?m)^-- (\S+)\s*$", f.read()))

    errors = []
    ids_of_event = {}
    count = 0
    for n, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            errors.append(f"line {n}: not JSON: {line[:80]!r}")
            continue
        count += 1
        event = text(entry.get("PINGUARD_EVENT", ""))
        message_id = text(entry.get("MESSAGE_ID", ""))
        where = f"entry {count} ({event or 'no PINGUARD_EVENT'})"
        if not event:
            errors.append(f"{where}: no PINGUARD_EVENT")
        if not message_id:
            errors.append(f"{where}: no MESSAGE_ID")
        elif message_id not in catalog_ids:
            errors.append(f"{where}: MESSAGE_ID {message_id} has no entry in {args.catalog}")
        ids_of_event.setdefault(event, set()).add(message_id)
    for event, ids in sorted(ids_of_event.items()):
        if len(ids) > 1:
            errors.append(f"{event}: written with {len(ids)} different MESSAGE_IDs: {', '.join(sorted(ids))}")
    if count == 0:
        errors.append("no journal entry read")
    if errors:
        for e in errors:
            print(e)
        sys.exit(1)
    print(f"{count} entries, {len(ids_of_event)} events: {', '.join(sorted(ids_of_event))}")


if __name__ == "__main__":
    main()
