#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the package's Maintainer, `Name <address>`, taken as dch(1) takes it.

    debian_maintainer.py CONTROL

Name: DEBFULLNAME, else NAME, else the name in a DEBEMAIL of the form `Name <address>`, else the name of
CONTROL's Maintainer. Address: DEBEMAIL (bare, or the address of `Name <address>`), else EMAIL, else the
address of CONTROL's Maintainer (the documented default). A malformed value is an error naming the
variable (exit 1).
"""
import os
import re
import sys

ADDRESS = re.compile(r"[^@\s<>,]+@[^@\s<>,]+\.[^@\s<>,]+")
NAMED = re.compile(r"^\s*(.*?)\s*<([^<>]*)>\s*$")


def fail(message):
    print(f"debian_maintainer.py: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        fail("usage: debian_maintainer.py CONTROL")
    with open(sys.argv[1], encoding="utf-8") as f:
        line = next((l for l in f if l.startswith("Maintainer:")), None)
    default = NAMED.match(line[len("Maintainer:"):]) if line else None
    if not default:
        fail(f"{sys.argv[1]} has no Maintainer of the form 'Name <address>'")
    name, address = default.group(1), default.group(2)
    env_name = os.environ.get("DEBFULLNAME") or os.environ.get("NAME")
    debemail = os.environ.get("DEBEMAIL", "").strip()
    source = "EMAIL"
    if debemail:
        source = "DEBEMAIL"
        named = NAMED.match(debemail)
        if named:
            env_name = env_name or named.group(1)
            debemail = named.group(2)
        address = debemail
    elif os.environ.get("EMAIL", "").strip():
        address = os.environ["EMAIL"].strip()
    else:
        source = "contrib/debian/control"
    if env_name:
        name = env_name.strip()
    if not ADDRESS.fullmatch(address):
        fail(f"{source}: {address!r} is not an e-mail address (user@host.domain)")
    if not name or re.search(r"[<>,\n]", name):
        fail(f"DEBFULLNAME/NAME: {name!r} is not a name (empty, or contains <, > or a comma)")
    print(f"{name} <{address}>")


if __name__ == "__main__":
    main()
