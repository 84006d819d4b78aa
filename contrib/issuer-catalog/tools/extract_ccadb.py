#!/usr/bin/env python3
"""One-off helper: copy selected CA certificates out of the CCADB PEM reports.

Source: the CCADB "AllCertificatePEMsCSVFormat?NotBeforeYear=YYYY" reports as
archived hourly in github.com/crtsh/ccadb_data (cmd/ski_spki/data/...).
Each PEM is written byte-for-byte as it appears in the CSV field.

Selection is by exact subject CN (or OU where the CN is generic) plus an
organisation filter; all certificates with that subject that are not expired on
CATALOG_DATE are taken and grouped by SubjectPublicKeyInfo.  For each group one
certificate becomes the primary file  <slug>.pem  and the others become
<slug>--by-<issuer-slug>-<notBefore>.pem  (the naming convention that
build_catalog.py relies on).

Usage: python3 tools/extract_ccadb.py [--git-dir DIR] [--out pem]
"""
import argparse, csv, glob, hashlib, io, json, os, re, subprocess, sys

CATALOG_DATE = "2026-11-26"
DEFAULT_GIT_DIR = "/work/.mirror/crtsh+ccadb_data/repo"
REPORT_DIR = "cmd/ski_spki/data"

# pool -> (organisation regex on subject, [name regexes]); names are CN, or OU for CN=GlobalSign / CN=Amazon
SELECTION = {
    "google-trust-services-rsa": (r"O=Google Trust Services", [
        r"WR[1-5]", r"GTS CA 1(C3|D4|P5|D8|D9)"]),
    "google-trust-services-ecdsa": (r"O=Google Trust Services", [
        r"WE[1-5]", r"GTS CA 2(D3|D4|D5|D6|P2)"]),
    "google-trust-services-roots": (r"O=Google Trust Services LLC", [r"GTS Root R[1-4]"]),
    "globalsign-roots": (r"O=GlobalSign", [r"GlobalSign Root CA", r"GlobalSign ECC Root CA - R4"]),
    "amazon-rsa": (r"O=Amazon", [r"Amazon RSA (2048|4096) [MS]\d\d", r"Amazon Server CA (0A|1A|1B)"]),
    "amazon-ecdsa": (r"O=Amazon", [r"Amazon ECDSA (256|384) [MS]\d\d", r"Amazon Server CA 3B"]),
    "amazon-eu": (r"O=Amazon", [r"Amazon (RSA 2048|ECDSA 256|ECDSA 384) EU M\d\d"]),
    "amazon-roots": (r"O=Amazon", [r"Amazon Root CA [1-4]", r"Amazon (RSA 2048|ECDSA 256|ECDSA 384) Root EU M1"]),
    "starfield-roots": (r"O=Starfield Technologies", [r"Starfield Services Root Certificate Authority - G2"]),
    "digicert-rsa": (r"O=DigiCert(\\,)? Inc", [
        r"DigiCert TLS RSA SHA256 2020 CA1", r"DigiCert Global G2 TLS RSA SHA256 2020 CA1",
        r"DigiCert SHA2 Secure Server CA", r"DigiCert G5 TLS RSA4096 SHA384 2021 CA1",
        r"DigiCert G6 TLS RSA4096 SHA384 2026 CA1", r"DigiCert EV RSA CA G2",
        r"DigiCert SHA2 Extended Validation Server CA", r"DigiCert SHA2 High Assurance Server CA",
        r"DigiCert High Assurance TLS RSA SHA256 2020 CA1", r"DigiCert Trusted G4 TLS RSA SHA384 2020 CA1",
        r"Encryption Everywhere DV TLS CA - G2", r"GeoTrust TLS RSA CA G1", r"RapidSSL TLS RSA CA G1",
        r"Thawte TLS RSA CA G1", r"GeoTrust Global TLS RSA4096 SHA256 2022 CA1",
        r"RapidSSL Global TLS RSA4096 SHA256 2022 CA1", r"GeoTrust EV RSA CA G2", r"Thawte EV RSA CA G2"]),
    "digicert-ecdsa": (r"O=DigiCert(\\,)? Inc", [
        r"DigiCert TLS Hybrid ECC SHA384 2020 CA1", r"DigiCert Global G3 TLS ECC SHA384 2020 CA1",
        r"DigiCert G5 TLS ECC SHA384 2021 CA1", r"DigiCert G6 TLS ECC P384 SHA384 2026 CA1",
        r"DigiCert High Assurance TLS Hybrid ECC SHA256 2020 CA1", r"DigiCert ECC Extended Validation Server CA",
        r"Encryption Everywhere ECC DV TLS CA", r"GeoTrust TLS ECC CA G1", r"RapidSSL TLS ECC CA G1",
        r"Thawte TLS ECC CA G1"]),
    "digicert-roots": (r"O=DigiCert(\\,)? Inc", [
        r"DigiCert Global Root (CA|G2|G3)", r"DigiCert High Assurance EV Root CA", r"DigiCert Trusted Root G4",
        r"DigiCert TLS (RSA4096|ECC P384) Root G[56]"]),
    "sectigo-rsa": (r"O=(Sectigo Limited|The USERTRUST Network)", [
        r"Sectigo RSA (Domain|Organization|Extended) Validation Secure Server CA",
        r"Sectigo Public Server Authentication CA (DV|OV|EV) R(35|36|40)",
        r"USERTrust RSA (Domain|Organization|Extended) Validation Secure Server CA"]),
    "sectigo-ecdsa": (r"O=(Sectigo Limited|The USERTRUST Network)", [
        r"Sectigo ECC (Domain|Organization|Extended) Validation Secure Server CA( 2)?",
        r"Sectigo Public Server Authentication CA (DV|OV|EV) E(36|40)",
        r"USERTrust ECC (Domain|Organization|Extended) Validation Secure Server CA"]),
    "sectigo-roots": (r"O=(Sectigo Limited|The USERTRUST Network|Comodo CA Limited)", [
        r"USERTrust (RSA|ECC) Certification Authority", r"Sectigo Public Server Authentication Root [RE]46",
        r"AAA Certificate Services"]),
}
# prefer the certificate signed by the operator's own root as the primary one
OWN_ROOT = {"google": r"^GTS Root", "globalsign": r"^GlobalSign", "amazon": r"^Amazon", "starfield": r"^Starfield",
            "digicert": r"^DigiCert", "sectigo": r"^(USERTrust|Sectigo)"}
ROOT_POOLS = {p for p in SELECTION if p.endswith("-roots")}
# certificates in a local Debian ca-certificates store decide which self-signed
# variant of a root is primary when a CA published two (GTS Root R1-R4, GlobalSign ECC R4)
LOCAL_STORE = "/etc/ssl/certs"


def run(args, data=None):
    return subprocess.run(args, input=data, capture_output=True, check=True).stdout


def rdn(name, key):
    m = re.search(r"(?:^|,)" + key + r"=((?:[^,\\]|\\.)*)", name)
    return m.group(1).replace("\\,", ",") if m else None


def display_name(subject):
    cn, ou = rdn(subject, "CN"), rdn(subject, "OU")
    if cn in ("GlobalSign",) and ou:
        return ou
    if cn == "Amazon" and ou:
        return "Amazon " + ou
    return cn or ou or subject


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def info(pem):
    txt = run(["openssl", "x509", "-noout", "-subject", "-issuer", "-enddate", "-startdate",
               "-nameopt", "RFC2253", "-dateopt", "iso_8601"], pem.encode()).decode()
    d = dict(l.split("=", 1) for l in txt.splitlines())
    spki = run(["openssl", "pkey", "-pubin", "-outform", "der"],
               run(["openssl", "x509", "-pubkey", "-noout"], pem.encode()))
    der = run(["openssl", "x509", "-outform", "der"], pem.encode())
    return dict(subject=d["subject"], issuer=d["issuer"], not_before=d["notBefore"], not_after=d["notAfter"],
                spki=hashlib.sha256(spki).hexdigest(), sha256=hashlib.sha256(der).hexdigest().upper())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git-dir", default=DEFAULT_GIT_DIR)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pem"))
    a = ap.parse_args()
    commit = run(["git", "--git-dir", a.git_dir, "rev-parse", "HEAD"]).decode().strip()
    csv.field_size_limit(10 ** 8)
    names = run(["git", "--git-dir", a.git_dir, "ls-tree", "--name-only", "HEAD", REPORT_DIR + "/"]).decode().split()
    rows = []
    for path in names:
        data = run(["git", "--git-dir", a.git_dir, "show", "HEAD:" + path]).decode("utf-8")
        for r in csv.DictReader(io.StringIO(data, newline="")):
            rows.append((path, r["SHA-256 Fingerprint"], r["X.509 Certificate (PEM)"]))
    local = set()
    for f in glob.glob(os.path.join(LOCAL_STORE, "*.pem")):
        try:
            local.add(hashlib.sha256(run(["openssl", "x509", "-in", f, "-outform", "der"])).hexdigest().upper())
        except subprocess.CalledProcessError:
            pass
    # cheap pre-filter on subject with python, then openssl for the candidates
    from cryptography import x509  # only used to pre-filter subjects quickly
    parsed = []
    for path, fp, pem in rows:
        try:
            parsed.append((path, fp, pem, x509.load_pem_x509_certificate(pem.encode()).subject.rfc4514_string()))
        except Exception:
            continue
    manifest = []
    for pool, (org_re, name_res) in SELECTION.items():
        cands = []
        for path, fp, pem, subj in parsed:
            if not re.search(org_re, subj):
                continue
            nm = display_name(subj)
            if not any(re.fullmatch(nr, nm) for nr in name_res):
                continue
            i = info(pem)
            if i["sha256"] != fp.upper():
                sys.exit("fingerprint mismatch in CCADB row %s" % fp)
            if i["not_after"][:10] <= CATALOG_DATE:
                continue  # expired on the catalog date
            cands.append(dict(i, name=nm, path=path, pem=pem))
        groups = {}
        for c in cands:
            groups.setdefault((c["name"], c["spki"]), []).append(c)
        used = {}
        for (nm, spki), certs in sorted(groups.items()):
            own = OWN_ROOT[pool.split("-")[0]]
            def rank(c):
                selfsigned = c["subject"] == c["issuer"]
                return (selfsigned if pool in ROOT_POOLS else False,
                        bool(re.search(own, display_name(c["issuer"]))),
                        c["sha256"] in local,
                        c["not_before"])
            certs.sort(key=rank, reverse=True)
            base = slug(nm)
            used[base] = used.get(base, 0) + 1
            if used[base] > 1:
                base += "-key%d" % used[base]
            os.makedirs(os.path.join(a.out, pool), exist_ok=True)
            for k, c in enumerate(certs):
                if k == 0:
                    fn = base + ".pem"
                else:
                    fn = "%s--by-%s-%s.pem" % (base, slug(display_name(c["issuer"])), c["not_before"][:10])
                with open(os.path.join(a.out, pool, fn), "w", newline="") as fh:
                    fh.write(c["pem"])
                manifest.append(dict(pool=pool, file=fn, ccadb_report=c["path"], ccadb_sha256=c["sha256"],
                                     subject=c["subject"], issuer=c["issuer"]))
        print(pool, len(cands), "certificates,", len(groups), "keys", file=sys.stderr)
    print(json.dumps(dict(repo="crtsh/ccadb_data", commit=commit, files=manifest), indent=1))


if __name__ == "__main__":
    main()
