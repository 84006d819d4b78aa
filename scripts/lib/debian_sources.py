#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print this machine's apt sources for Debian's own archive, as deb822 stanzas.

    debian_sources.py [ROOT]

Reads ROOT/etc/apt/sources.list and the active files of sources.list.d (*.list, *.sources; ROOT
defaults to /) and keeps the binary (deb) entries whose URI is on debian.org or whose Signed-By is Debian's
archive keyring: third-party repositories are left out. Prints nothing when there are none.
"""
import argparse
import glob
import os


def is_debian(uris, signed_by):
    return any("debian.org" in u for u in uris) or "debian-archive-keyring" in signed_by


def deb822_stanzas(text):
    stanza = {}
    key = None
    for line in text.splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if stanza:
                yield stanza
            stanza, key = {}, None
        elif line[0] in " \t" and key:
            stanza[key] += "\n" + line
        elif ":" in line:
            key, value = line.split(":", 1)
            stanza[key.strip()] = value.strip()


def one_line_entries(text):
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if not words or words[0] not in ("deb", "deb-src"):
            continue
        options = ""
        if words[1].startswith("["):
            end = next(i for i, w in enumerate(words) if w.endswith("]"))
            options, words = " ".join(words[1:end + 1]), [words[0]] + words[end + 1:]
        stanza = {"Types": words[0], "URIs": words[1], "Suites": words[2], "Components": " ".join(words[3:])}
        for opt in options.strip("[]").split():
            if opt.startswith("signed-by="):
                stanza["Signed-By"] = opt.split("=", 1)[1]
        yield stanza


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default="/")
    args = parser.parse_args()
    apt = os.path.join(args.root, "etc/apt")
    files = [os.path.join(apt, "sources.list")] + sorted(glob.glob(os.path.join(apt, "sources.list.d/*.list")))
    files += sorted(glob.glob(os.path.join(apt, "sources.list.d/*.sources")))
    out = []
    for path in files:
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        stanzas = deb822_stanzas(text) if path.endswith(".sources") else one_line_entries(text)
        for s in stanzas:
            if s.get("Enabled", "yes").lower() == "no" or "deb" not in s.get("Types", "").split():
                continue
            if is_debian(s.get("URIs", "").split(), s.get("Signed-By", "")):
                s["Types"] = "deb"
                out.append("\n".join(f"{k}: {v}" for k, v in s.items() if k in ("Types", "URIs", "Suites", "Components", "Signed-By")))
    if out:
        print("\n\n".join(out))


if __name__ == "__main__":
    main()
