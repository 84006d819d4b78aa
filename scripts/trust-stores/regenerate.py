#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerates Sources/PinGuardConfig/Resources/client_trust_stores.json: the TLS root stores of Android,
iOS, Chrome and a Debian-based JVM, by client version, with where each fact comes from.

Sources (public; every one a git snapshot read with the git CLI, except Debian's package files):
  --aosp-system     AOSP platform/system/ca-certificates. GitHub mirror msft-mirror-aosp/platform.system.ca-certificates
                    (git clone --mirror https://github.com/msft-mirror-aosp/platform.system.ca-certificates), or
                    https://android.googlesource.com/platform/system/ca-certificates. Needs the android-* tags and main.
  --aosp-conscrypt  AOSP platform/external/conscrypt (mirror msft-mirror-aosp/platform.external.conscrypt):
                    apex/ca-certificates/files, the store of the Conscrypt module (Android 14 on).
  --certvet         github.com/ivoronin/certvet: internal/truststore/data/stores.csv and certificates.csv, its dated
                    copies of Apple's per-version root lists (support.apple.com/en-us/103272), of chromium's
                    root_store.textproto and of the android<N>-release branches of system/ca-certificates.
  --apple           github.com/apple-oss-distributions/security_certificates (tags security_certificates-*).
  --debian-root     a root with Debian's ca-certificates installed (default /: /usr/share/ca-certificates/mozilla,
                    its changelog and dpkg's md5sums), or a package unpacked with `dpkg-deb -R ca-certificates_*.deb DIR`
                    (apt-get download ca-certificates).
  --nss             github.com/nss-dev/nss (lib/ckfw/builtins/certdata.txt, Mozilla's root store).
  --letsencrypt     github.com/letsencrypt/website (static/certs/gen-y, static/certs/revoked).
  --pki-data        github.com/mcpherrinm/pki-data (data/ccadb/ca: CCADB's records, for the Generation Y status).
Requires python3 (3.11, standard library only), git and openssl. Output is deterministic for the same inputs
and --generated: keys and lists are sorted. See Sources/PinGuardConfig/Resources/CLIENT_TRUST_STORES.md.
"""
import argparse
import base64
import datetime
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the script
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trust_extra  # noqa: E402
import trust_sources as src  # noqa: E402
import trust_stores  # noqa: E402

NAMEOPT = "esc_2253,esc_ctrl,utf8,dump_nostr,dump_unknown,dump_der,sep_comma_plus_space,dn_rev,sname"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Sources/PinGuardConfig/Resources/client_trust_stores.json")


def arguments():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("aosp-system", "aosp-conscrypt", "certvet", "apple", "nss", "letsencrypt", "pki-data"):
        p.add_argument(f"--{name}", required=True, help="git directory of the snapshot")
    p.add_argument("--aosp-ref", default="main", help="branch of both AOSP repositories for dates and the APEX store")
    p.add_argument("--nss-ref", default="HEAD")
    p.add_argument("--debian-root", default="/")
    p.add_argument("--generated", default=os.environ.get("GENERATED") or datetime.date.today().isoformat(),
                   help="the date written as 'generated' (YYYY-MM-DD; default: today)")
    for client in ("android", "ios", "chrome"):
        p.add_argument(f"--{client}-in-use", default="", help=f"versions of {client} still in use ('' unknown)")
    p.add_argument("--output", default=os.path.normpath(OUT))
    p.add_argument("--check", action="store_true", help="compare with --output instead of writing it")
    return p.parse_args()


def openssl(der, *args):
    r = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", *args], input=der, capture_output=True)
    if r.returncode != 0:
        raise SystemExit(f"openssl cannot parse certificate {src.sha_hex(der)}: {r.stderr.decode().strip()}")
    return r.stdout.decode("utf-8")


def subject(der):
    return openssl(der, "-subject", "-nameopt", NAMEOPT).strip().removeprefix("subject=")


def finish(stores, known, pool):
    """Hex keys to base64, subjects filled in, everything sorted; every certificate parsed by openssl."""
    names, b64 = {}, {}
    for h, der in pool.items():
        assert src.sha_hex(der) == h, h
        names[h], b64[h] = subject(der), src.sha_b64(der)
    for s in stores:
        for r in s["roots"] + s["changes"]:
            r["subject"] = names[r["certificate"]]
            r["certificate"] = b64[r["certificate"]]
        s["roots"].sort(key=lambda r: (r["subject"].casefold(), r["certificate"], r["versions"] or ""))
        s["changes"].sort(key=lambda c: (c["date"] or "", c["subject"].casefold(), c["certificate"], c["change"]))
    stores.sort(key=lambda s: s["client"])
    known_out = sorted(({"certificate": b64[h], "subject": names[h], "note": note} for h, _d, note in known),
                       key=lambda k: k["note"])
    certificates = {b64[h]: base64.b64encode(der).decode() for h, der in pool.items()}
    return known_out, certificates


def main():
    a = arguments()
    pool, stores = {}, []
    for build in (trust_stores.android, trust_stores.ios, trust_stores.chrome):
        s, certs = build(a)
        stores.append(s)
        pool.update(certs)
    s, certs, rebuilt = trust_extra.jvm(a)
    stores.append(s)
    pool.update(certs)
    known = trust_extra.known_certificates(a, stores)
    pool.update({h: der for h, der, _n in known})
    needed = {r["certificate"] for s in stores for r in s["roots"] + s["changes"]} | {h for h, _d, _n in known}
    missing = needed - set(pool)
    if missing:
        raise SystemExit(f"no certificate for {sorted(missing)}")
    pool = {h: pool[h] for h in needed}
    summary = "\n".join(f"  {note}" for _h, _d, note in known)
    known_out, certificates = finish(stores, known, pool)
    doc = {"format": 1, "generated": a.generated, "stores": stores, "known_certificates": known_out,
           "certificates": certificates}
    text = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    for s in stores:
        print(f"{s['client']}: {len(s['roots'])} entries, {len({r['certificate'] for r in s['roots']})} roots, "
              f"{len(s['changes'])} changes, versions {s['versions_known'] or '-'}, source date {s['source_date']}",
              file=sys.stderr)
    if rebuilt:
        print(f"jvm: rebuilt from NSS (missing here, md5sum matched): {', '.join(rebuilt)}", file=sys.stderr)
    print(f"Generation Y:\n{summary}\n{len(certificates)} certificates, {len(text.encode())} bytes", file=sys.stderr)
    if a.check:
        with open(a.output, encoding="utf-8") as f:
            same = f.read() == text
        print("up to date" if same else f"{a.output} differs from the sources", file=sys.stderr)
        return 0 if same else 1
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
