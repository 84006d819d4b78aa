#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that `journalctl -x` explained every catalog check entry.

    journalctl -x -t pinguard-catalog-check | journal_explanations_check.py MESSAGE_ID...

Reads the output of `journalctl -x` on standard input. test-systemd-unit.sh
writes one entry per MESSAGE_ID with MESSAGE "catalog check MESSAGE_ID" and
every pinguard journal field set. Each such entry must be followed by a
catalog explanation ("░░ Subject: " on the next line), and no line may keep
an unsubstituted @FIELD@ placeholder.

Prints one line per problem (nothing when all is well); exits 1 if there is
a problem or no MESSAGE_ID was given, 0 otherwise.
"""
import argparse
import re
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", metavar="MESSAGE_ID", nargs="*")
    args = parser.parse_args()
    text = sys.stdin.read()
    explained = set(re.findall(r"catalog check ([0-9a-f]{32})\n░░ Subject: ", text))
    errors = [f"{i}: not explained by journalctl -x" for i in args.ids if i not in explained]
    errors += [f"unsubstituted: {line.strip()}" for line in text.splitlines() if re.search(r"@[A-Z_]+@", line)]
    if not args.ids:
        errors.append("no MESSAGE_ID to look for")
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
