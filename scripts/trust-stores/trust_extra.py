# SPDX-License-Identifier: Apache-2.0
"""The jvm store (Debian's ca-certificates, Mozilla's roots) and the known Generation Y certificates."""
import base64
import hashlib
import os
import subprocess

import trust_sources as src
from trust_stores import root, store

CERTDATA = "lib/ckfw/builtins/certdata.txt"


def pem(der):
    """The PEM text Debian's certdata2pem.py writes (64-character lines), to match dpkg's md5sums."""
    b = base64.b64encode(der).decode()
    body = "\n".join(b[i:i + 64] for i in range(0, len(b), 64))
    return f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n".encode()


def debian_package(root_dir):
    """(version, {file name: md5}) of ca-certificates' mozilla/*.crt, from dpkg's database under `root_dir`
    (an installed system) or from an unpacked package (`dpkg-deb -R ca-certificates_*.deb DIR`: DIR/DEBIAN)."""
    version = None
    for path in (os.path.join(root_dir, "var/lib/dpkg/status"), os.path.join(root_dir, "DEBIAN/control")):
        if os.path.exists(path):
            for stanza in open(path, encoding="utf-8").read().split("\n\n"):
                fields = dict(l.split(": ", 1) for l in stanza.splitlines() if ": " in l and not l.startswith(" "))
                if fields.get("Package") == "ca-certificates":
                    version = fields["Version"]
            break
    for path in (os.path.join(root_dir, "var/lib/dpkg/info/ca-certificates.md5sums"),
                 os.path.join(root_dir, "DEBIAN/md5sums")):
        if os.path.exists(path):
            listed = {}
            for line in open(path, encoding="utf-8"):
                md5, name = line.rstrip("\n").split("  ", 1)
                if name.startswith("usr/share/ca-certificates/mozilla/") and name.endswith(".crt"):
                    listed[os.path.basename(name)] = md5
            return version, listed
    raise SystemExit(f"jvm: no dpkg md5sums for ca-certificates under {root_dir}")


def nss_states(repo, ref, since_minor):
    """[(commit, date, subject, {hex: DER} trusted for TLS servers)] of the first-parent commits of `ref` that
    changed certdata.txt, from the first whose builtins version is `since_minor` on."""
    out, started = [], False
    for line in src.git_lines(repo, "log", "--first-parent", "--reverse", "--format=%H %cs %s", ref, "--", CERTDATA):
        sha, day, subject = line.split(" ", 2)
        started = started or src.nss_builtins_minor(repo, sha) >= since_minor
        if started:
            server, _distrust = src.parse_certdata(src.git(repo, "show", f"{sha}:{CERTDATA}").decode())
            out.append((sha, day, subject, server))
    return out


def jvm(a):
    """Debian's ca-certificates as the package ships it; files missing from this machine's copy are rebuilt
    from NSS and must match dpkg's md5sum. Changes: Mozilla's later additions and removals."""
    version, listed = debian_package(a.debian_root)
    moz = os.path.join(a.debian_root, "usr/share/ca-certificates/mozilla")
    changelog = src.debian_changelog(os.path.join(a.debian_root, "usr/share/doc/ca-certificates/changelog.gz"))
    entry = next(e for e in changelog if e[0] == version)
    bundle = next(e[4] for e in changelog if e[4])
    states = nss_states(a.nss, a.nss_ref, bundle)
    by_md5 = {hashlib.md5(pem(d)).hexdigest(): d for _s, _d, _t, server in states for d in server.values()}
    certs, rebuilt = {}, []
    for name, md5 in sorted(listed.items()):
        path = os.path.join(moz, name)
        data = open(path, "rb").read() if os.path.exists(path) else b""
        der = src.to_der(data) if hashlib.md5(data).hexdigest() == md5 else by_md5.get(md5)
        if der is None:
            raise SystemExit(f"jvm: {name} is missing or changed here and no NSS certificate matches its md5sum")
        if hashlib.md5(data).hexdigest() != md5:
            rebuilt.append(name)
        certs[src.sha_hex(der)] = (der, name)
    deb = set(certs)
    base = min((s for s in states if src.nss_builtins_minor(a.nss, s[0]) == bundle),
               key=lambda s: (len(deb ^ set(s[3])), s[1]))
    added_on = {}
    for _v, day, added, removed, _b in reversed(changelog):
        for label in added:
            added_on[src.name_key(label)] = day
        for label in removed:
            added_on.pop(src.name_key(label), None)
    roots = [root(h, None, added_on.get(src.name_key(certs[h][1][:-4]))) for h in sorted(certs)]
    # Only what still holds at the newest NSS: a root added and removed again since Debian's bundle is left out.
    changes, pool, prev, final = [], {h: d for h, (d, _n) in certs.items()}, set(base[3]), set(states[-1][3])
    for sha, day, subject, server in states[states.index(base) + 1:]:
        cur = set(server)
        for h in sorted((cur - prev - deb) & final):
            changes.append({"certificate": h, "change": "added", "versions": None, "date": day,
                            "source": f"nss-dev/nss {CERTDATA} commit {sha[:12]} ({subject})"})
            pool[h] = server[h]
        for h in sorted((prev - cur) & deb - final):
            changes.append({"certificate": h, "change": "removed", "versions": None, "date": day,
                            "source": f"nss-dev/nss {CERTDATA} commit {sha[:12]} ({subject})"})
        prev = cur
    nss_sha, nss_day = src.commit(a.nss, a.nss_ref)
    source = (f"Debian ca-certificates {version} (Mozilla CA bundle 2.{bundle}; /usr/share/ca-certificates/mozilla, "
              f"{len(certs)} files as dpkg lists them" + (f", {len(rebuilt)} missing locally rebuilt from NSS and "
              f"checked against dpkg's md5sums" if rebuilt else "") + f"); added: debian/changelog; changes: Mozilla NSS "
              f"{CERTDATA} (nss-dev/nss) after commit {base[0][:12]} ({base[1]}, the state Debian's bundle matches) "
              f"to {nss_sha[:12]} ({nss_day})")
    return store("jvm", "", source, entry[1], 180, "", "", roots, changes), pool, rebuilt


GEN_Y = [("gen-y/root-ye.der", "Root YE (self-signed)", None),
         ("gen-y/root-yr.der", "Root YR (self-signed)", None),
         ("gen-y/root-ye-by-x2.der", "Root YE cross-signed by ISRG Root X2 (2026 issue)", "isrg-root-x2.der"),
         ("gen-y/root-yr-by-x1.der", "Root YR cross-signed by ISRG Root X1 (2026 issue)", "isrgrootx1.der"),
         ("gen-y/root-x2-by-x1.der", "ISRG Root X2 cross-signed by ISRG Root X1, second cross-sign (2026 issue)",
          "isrgrootx1.der"),
         ("revoked/root-ye-by-x2.pem", "Root YE cross-signed by ISRG Root X2, first issue (revoked)", "isrg-root-x2.der"),
         ("revoked/root-yr-by-x1.pem", "Root YR cross-signed by ISRG Root X1, first issue (revoked)", "isrgrootx1.der"),
         ("revoked/root-x2-by-x1.pem", "ISRG Root X2 cross-signed by ISRG Root X1, second cross-sign (first issue, "
          "revoked)", "isrgrootx1.der"),
         ("isrg-root-x2-cross-signed.der", "ISRG Root X2 cross-signed by ISRG Root X1, first cross-sign (2020, expired)",
          "isrgrootx1.der")]


def where(h, stores):
    """'android 34-, chrome 105-, ...' for the stores whose roots include `h`, or 'none'."""
    found = [f"{s['client']} {r['versions']}" if r["versions"] else s["client"]
             for s in stores for r in s["roots"] if r["certificate"] == h]
    return ", ".join(found) or "none"


def known_certificates(a, stores):
    """[(hex, DER, note)] of Let's Encrypt's Generation Y roots and cross-signs, with their CCADB status."""
    ccadb, ccadb_day = src.ccadb_records(a.pki_data, "Internet_Security_Research_Group.json")
    out = []
    for path, label, issuer in GEN_Y:
        der, day = src.file_at(a.letsencrypt, f"static/certs/{path}")
        h = src.sha_hex(der)
        dates = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-startdate", "-enddate",
                                "-dateopt", "iso_8601"], input=der, capture_output=True, check=True).stdout.decode()
        nb, na = (l.split("=", 1)[1][:10] for l in dates.splitlines())
        note = f"{label}; valid {nb} to {na}; letsencrypt/website static/certs/{path} ({day})"
        r = ccadb.get(h)
        if r:
            note += (f"; CCADB ({ccadb_day}): Apple {r.get('Apple Status')}, Chrome {r.get('Chrome Status')}, "
                     f"Microsoft {r.get('Microsoft Status')}, Mozilla {r.get('Mozilla Status')}")
            if r.get("Revocation Status", "Not Revoked") != "Not Revoked":
                note += f", {r['Revocation Status']}"
        note += f"; a root in the bundled stores: {where(h, stores)}"
        if issuer:
            idh = src.sha_hex(src.file_at(a.letsencrypt, f"static/certs/{issuer}")[0])
            note += f"; its issuer is a root in: {where(idh, stores)}"
        out.append((h, der, note))
    return out
