#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Rebuild issuer_catalog.json (and SOURCES.md) from the PEM files in pem/.

Every value derived from a certificate (hashes, names, dates, CA flag, key type,
chains) is computed here with the openssl command line tool from the PEM files;
the only hand-written data are the tables below: which directory is which pool,
where each Let's Encrypt file was published, and Let's Encrypt's issuance status.

File naming convention inside pem/<pool>/:
    <slug>.pem                  the primary certificate of one CA (one key)
    <slug>--<qualifier>.pem     further certificates for the same subject and key
                                (cross-signs, re-issues, alternate self-signed roots)

Usage:
    python3 build_catalog.py            write issuer_catalog.json and SOURCES.md
    python3 build_catalog.py --check    rebuild in memory, compare with the files on disk
    python3 build_catalog.py --verify-sources [--le-git DIR] [--ccadb-git DIR]
                                        also re-read every PEM from the upstream git
                                        snapshots and require byte equality
Requires: python3 (standard library only) and openssl 3.x on PATH.
"""
import argparse, base64, csv, glob, io, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEM_DIR = os.path.join(HERE, "pem")
OUT_JSON = os.path.join(HERE, "issuer_catalog.json")
OUT_SOURCES = os.path.join(HERE, "SOURCES.md")
GENERATED = "2026-11-26"

# --------------------------------------------------------------------------- upstream snapshots
LE_REPO = "letsencrypt/website"
LE_SNAPSHOT = "b89871ef735cbb447f8d72c86146fcc8e62fc4ab"     # HEAD of the stored snapshot, committed 2026-08-21
LE_PAGE = "content/en/certificates.md (\"Chains of Trust\", lastmod 2026-07-08)"
CCADB_REPO = "crtsh/ccadb_data"
CCADB_SNAPSHOT = "64b3f6ebd3480bf4de561ec16ee9002462a9c531"  # "CCADB data updated", 2026-08-21T22:28:46Z
CCADB_REPORT = "cmd/ski_spki/data/AllCertificatePEMsCSVFormat_NotBeforeYear_%d"
CCADB_UPSTREAM = "https://ccadb.my.salesforce-sites.com/ccadb/AllCertificatePEMsCSVFormat?NotBeforeYear=%d"

# --------------------------------------------------------------------------- Let's Encrypt files
# pem file (relative to pem/) -> (path in letsencrypt/website, last commit touching that path, revoked?)
LE_FILES = {
    "letsencrypt-rsa/r10.pem": ("static/certs/2024/r10.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-rsa/r11.pem": ("static/certs/2024/r11.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-rsa/r12.pem": ("static/certs/2024/r12.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-rsa/r13.pem": ("static/certs/2024/r13.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-rsa/r14.pem": ("static/certs/2024/r14.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-rsa/r3.pem": ("static/certs/lets-encrypt-r3.pem", "97286966190498f4674198586a565d8db349dd0a", False),
    "letsencrypt-rsa/r4.pem": ("static/certs/lets-encrypt-r4.pem", "97286966190498f4674198586a565d8db349dd0a", False),
    "letsencrypt-rsa/r3--cross-signed-by-dst-root-ca-x3.pem": ("static/certs/lets-encrypt-r3-cross-signed.pem", "a909622b1f85818c88b09552b2f7690c5a79a93a", False),
    "letsencrypt-rsa/r4--cross-signed-by-dst-root-ca-x3.pem": ("static/certs/lets-encrypt-r4-cross-signed.pem", "a909622b1f85818c88b09552b2f7690c5a79a93a", False),
    "letsencrypt-ecdsa/e5.pem": ("static/certs/2024/e5.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e6.pem": ("static/certs/2024/e6.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e7.pem": ("static/certs/2024/e7.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e8.pem": ("static/certs/2024/e8.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e9.pem": ("static/certs/2024/e9.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e5--cross-signed-by-isrg-root-x1.pem": ("static/certs/2024/e5-cross.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e6--cross-signed-by-isrg-root-x1.pem": ("static/certs/2024/e6-cross.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e7--cross-signed-by-isrg-root-x1.pem": ("static/certs/2024/e7-cross.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e8--cross-signed-by-isrg-root-x1.pem": ("static/certs/2024/e8-cross.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e9--cross-signed-by-isrg-root-x1.pem": ("static/certs/2024/e9-cross.pem", "215adf74bb68f93c954ef0e9a274b6d01f5d20ec", False),
    "letsencrypt-ecdsa/e1.pem": ("static/certs/lets-encrypt-e1.pem", "97286966190498f4674198586a565d8db349dd0a", False),
    "letsencrypt-ecdsa/e2.pem": ("static/certs/lets-encrypt-e2.pem", "97286966190498f4674198586a565d8db349dd0a", False),
    "letsencrypt-gen-y-rsa/yr1.pem": ("static/certs/gen-y/int-yr1.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-gen-y-rsa/yr2.pem": ("static/certs/gen-y/int-yr2.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-gen-y-rsa/yr3.pem": ("static/certs/gen-y/int-yr3.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-gen-y-ecdsa/ye1.pem": ("static/certs/gen-y/int-ye1.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-gen-y-ecdsa/ye2.pem": ("static/certs/gen-y/int-ye2.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-gen-y-ecdsa/ye3.pem": ("static/certs/gen-y/int-ye3.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-roots/isrg-root-x1.pem": ("static/certs/isrgrootx1.pem", "b05bca9e2938b63492a3b5e86bdd3e5b0eae77bb", False),
    "letsencrypt-roots/isrg-root-x1--cross-signed-by-dst-root-ca-x3.pem": ("static/certs/isrg-root-x1-cross-signed.pem", "7e3e9ea47bb984332309287de80341c6f72d470a", False),
    "letsencrypt-roots/isrg-root-x2.pem": ("static/certs/isrg-root-x2.pem", "97286966190498f4674198586a565d8db349dd0a", False),
    "letsencrypt-roots/isrg-root-x2--cross-signed-by-isrg-root-x1-2020.pem": ("static/certs/isrg-root-x2-cross-signed.pem", "97286966190498f4674198586a565d8db349dd0a", False),
    "letsencrypt-roots/isrg-root-x2--cross-signed-by-isrg-root-x1-2026.pem": ("static/certs/gen-y/root-x2-by-x1.pem", "1d1ace18d0910242588f031382dd59042fde25c0", False),
    "letsencrypt-roots/isrg-root-x2--cross-signed-by-isrg-root-x1-2025-revoked.pem": ("static/certs/revoked/root-x2-by-x1.pem", "1d1ace18d0910242588f031382dd59042fde25c0", True),
    "letsencrypt-roots/root-yr.pem": ("static/certs/gen-y/root-yr.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-roots/root-yr--cross-signed-by-isrg-root-x1-2026.pem": ("static/certs/gen-y/root-yr-by-x1.pem", "1d1ace18d0910242588f031382dd59042fde25c0", False),
    "letsencrypt-roots/root-yr--cross-signed-by-isrg-root-x1-2025-revoked.pem": ("static/certs/revoked/root-yr-by-x1.pem", "1d1ace18d0910242588f031382dd59042fde25c0", True),
    "letsencrypt-roots/root-ye.pem": ("static/certs/gen-y/root-ye.pem", "8d9f131ed27402a6a437d13daeabae6fbd2446ad", False),
    "letsencrypt-roots/root-ye--cross-signed-by-isrg-root-x2-2026.pem": ("static/certs/gen-y/root-ye-by-x2.pem", "1d1ace18d0910242588f031382dd59042fde25c0", False),
    "letsencrypt-roots/root-ye--cross-signed-by-isrg-root-x2-2025-revoked.pem": ("static/certs/revoked/root-ye-by-x2.pem", "1d1ace18d0910242588f031382dd59042fde25c0", True),
}

# Let's Encrypt issuance status, read from the Chains of Trust page (see LE_PAGE) -> (active, status, note)
_ROT25 = ("Listed under 'Retired' on the Chains of Trust page (moved there in the August 2025 rotation, "
          "commit e27c9e79 of 2025-08-20).")
_TLSC = ("In active rotation from August 2025; from 2026-05-28 only for the 'tlsclient' profile, which ended "
         "2026-07-08. Listed under 'Retired' since commit c03c1958 (2026-07-09).")
_BACK = ("Was a backup intermediate (never listed as active); listed under 'Retired' since commit c03c1958 "
         "(2026-07-09).")
_EXP = "Expired 2025-09-15; listed under 'Expired' on the Chains of Trust page."
_ACT = "In active rotation per the Chains of Trust page (lastmod 2026-07-08)."
_BAK = ("Backup per the Chains of Trust page: 'not being issued from. We may begin issuing Subscriber "
        "certificates from them at any time, without warning.' Keep it in any pin set.")
LE_STATUS = {
    "R10": (False, "retired", _ROT25), "R11": (False, "retired", _ROT25),
    "R12": (False, "retired", _TLSC), "R13": (False, "retired", _TLSC), "R14": (False, "retired", _BACK),
    "E5": (False, "retired", _ROT25), "E6": (False, "retired", _ROT25),
    "E7": (False, "retired", _TLSC), "E8": (False, "retired", _TLSC), "E9": (False, "retired", _BACK),
    "R3": (False, "expired", _EXP), "R4": (False, "expired", _EXP),
    "E1": (False, "expired", _EXP), "E2": (False, "expired", _EXP),
    "YR1": (True, "active", _ACT), "YR2": (True, "active", _ACT), "YR3": (False, "backup", _BAK),
    "YE1": (True, "active", _ACT), "YE2": (True, "active", _ACT), "YE3": (False, "backup", _BAK),
}
LE_ROOT_NOTES = {
    "ISRG Root X1": "Self-signed root in the major trust stores ('trusted until 2030-06-04' per the page). "
                    "The DST Root CA X3 cross-sign expired 2024-09-30.",
    "ISRG Root X2": "Self-signed root ('trusted until 2035-09-04' per the page); also cross-signed by ISRG Root X1. "
                    "The 2020 cross-sign expired 2025-09-15; the 2025 cross-sign was revoked and replaced in May 2026 "
                    "(letsencrypt/website commit 1d1ace18).",
    "Root YR": "Gen Y root (page name 'ISRG Root YR'); per the page not yet included in root program trust stores. "
               "Cross-signed by ISRG Root X1; the 2025 cross-sign was revoked and replaced in May 2026.",
    "Root YE": "Gen Y root (page name 'ISRG Root YE'); per the page not yet included in root program trust stores. "
               "Cross-signed by ISRG Root X2; the 2025 cross-sign was revoked and replaced in May 2026.",
}

# --------------------------------------------------------------------------- pools
LE_SOURCE = "https://letsencrypt.org/certificates/ (letsencrypt/website static/certs)"
CCADB_SOURCE = ("CCADB AllCertificatePEMsCSVFormat reports (certificates disclosed to the Common CA Database), "
                "archived in github.com/crtsh/ccadb_data")
LE_BASIS = ("Status from letsencrypt.org/certificates as stored in letsencrypt/website (page lastmod 2026-07-08, "
            "snapshot commit b89871e of 2026-08-21). Nothing newer was reachable, so the status on "
            + GENERATED + " itself is not independently confirmed.")
CCADB_NOTE = ("Issuance status not confirmed: no source reachable here says which of these CAs currently issues. "
              "Listed because the certificate is disclosed in CCADB and unexpired on " + GENERATED + ".")
CCADB_BASIS = ("'active' is null for every issuer of this pool: CCADB lists certificates, not current issuance. "
               "Revocation status was not checked (the CCADB records report was not available).")

POOLS = [  # (pool dir/name, operator, source kind, description)
    ("letsencrypt-rsa", "Let's Encrypt", "le", "Gen X RSA intermediates (R10-R14; expired R3/R4 kept for reference)"),
    ("letsencrypt-ecdsa", "Let's Encrypt", "le", "Gen X ECDSA intermediates (E5-E9; expired E1/E2 kept for reference)"),
    ("letsencrypt-gen-y-rsa", "Let's Encrypt", "le", "Gen Y RSA intermediates YR1-YR3 under Root YR"),
    ("letsencrypt-gen-y-ecdsa", "Let's Encrypt", "le", "Gen Y ECDSA intermediates YE1-YE3 under Root YE"),
    ("google-trust-services-rsa", "Google Trust Services", "ccadb", "WR1-WR5 and the older GTS CA 1C3/1D4/1P5/1D8/1D9"),
    ("google-trust-services-ecdsa", "Google Trust Services", "ccadb", "WE1-WE5 and the older GTS CA 2D3/2D4/2D5/2D6/2P2"),
    ("amazon-rsa", "Amazon Trust Services", "ccadb", "Amazon RSA 2048/4096 M- and S-series, Server CA 0A/1A/1B"),
    ("amazon-ecdsa", "Amazon Trust Services", "ccadb", "Amazon ECDSA 256/384 M- and S-series, Server CA 3B"),
    ("amazon-eu", "Amazon Trust Services", "ccadb", "Amazon European Sovereign Cloud issuing CAs (EU M01)"),
    ("digicert-rsa", "DigiCert", "ccadb", "Curated DigiCert/GeoTrust/RapidSSL/Thawte public TLS issuing CAs (RSA keys)"),
    ("digicert-ecdsa", "DigiCert", "ccadb", "Curated DigiCert/GeoTrust/RapidSSL/Thawte public TLS issuing CAs (ECDSA keys)"),
    ("sectigo-rsa", "Sectigo", "ccadb", "Sectigo/USERTrust public TLS issuing CAs (RSA keys)"),
    ("sectigo-ecdsa", "Sectigo", "ccadb", "Sectigo/USERTrust public TLS issuing CAs (ECDSA keys)"),
]
# The ACME directory of each operator that serves ACME Renewal Information (RFC 9773), for the forecast's
# renewal window. ZeroSSL (https://acme.zerossl.com/v2/DV90) and Buypass (https://api.buypass.com/acme/directory)
# have no pool here; ISSUER_CATALOG.md names them for renewal.acme_directory.
ACME_DIRECTORIES = {
    "Let's Encrypt": "https://acme-v02.api.letsencrypt.org/directory",
    "Google Trust Services": "https://dv.acme-v02.api.pki.goog/directory",
    "DigiCert": "https://acme.digicert.com/v2/acme/directory/",
    "Sectigo": "https://acme.sectigo.com/v2/DV",
}
ROOT_DIRS = [  # (dir, operator, source kind)
    ("letsencrypt-roots", "Let's Encrypt (ISRG)", "le"),
    ("google-trust-services-roots", "Google Trust Services", "ccadb"),
    ("globalsign-roots", "GlobalSign", "ccadb"),
    ("amazon-roots", "Amazon Trust Services", "ccadb"),
    ("starfield-roots", "Starfield Technologies", "ccadb"),
    ("digicert-roots", "DigiCert", "ccadb"),
    ("sectigo-roots", "Sectigo", "ccadb"),
]
ROOT_NOTES = dict(LE_ROOT_NOTES, **{
    "GlobalSign Root CA": "GlobalSign-operated; included because it cross-signs GTS Root R1 and GTS Root R4.",
    "GlobalSign ECC Root CA - R4": "GlobalSign-operated (Google Trust Services acquired it); it directly signs "
                                   "WE1-WE4 and GTS CA 2D4/2D5. Two self-signed versions exist.",
    "Starfield Services Root Certificate Authority - G2": "Included because it cross-signs Amazon Root CA 1-4.",
    "GTS Root R1": "Two self-signed versions exist (the primary is the one in the Mozilla-derived Debian store; "
                   "the other is the one whose SHA-1 pki.goog listed).",
    "GTS Root R2": "Two self-signed versions exist (see GTS Root R1).",
    "GTS Root R3": "Two self-signed versions exist (see GTS Root R1).",
    "GTS Root R4": "Two self-signed versions exist (see GTS Root R1).",
    "DigiCert TLS RSA4096 Root G6": "New root (2026); trust-store inclusion not checked.",
    "DigiCert TLS ECC P384 Root G6": "New root (2026); trust-store inclusion not checked.",
})

NOT_INCLUDED = [
    {"name": "Let's Encrypt staging hierarchy", "reason": "Not publicly trusted (static/certs/staging in letsencrypt/website)."},
    {"name": "Let's Encrypt Authority X1-X4", "reason": "Expired 2020-2021; PEMs are published but left out as irrelevant to pinning."},
    {"name": "DST Root CA X3 / TrustID X3 Root (IdenTrust)", "reason": "Expired 2021-09-30; appears only as the issuer of expired cross-signs."},
    {"name": "Google Trust Services GTS Y1-Y4, AE1, MR1, GIAG4 ECC, Google Internet Authority G3 ECC",
     "reason": "In CCADB but their use for public web TLS could not be confirmed from reachable sources."},
    {"name": "DigiCert customer-branded and regional sub-CAs (Apple, Microsoft, TrustAsia, Secure Site CN, EU, QuoVadis, Symantec-legacy ICAs, ...)",
     "reason": "Hundreds of DigiCert-rooted sub-CAs exist in CCADB; only the DigiCert/GeoTrust/RapidSSL/Thawte-branded general TLS CAs were curated in. Extend tools/extract_ccadb.py to add more."},
    {"name": "Sectigo CN R31/E31, SHA-256 DV/OV/EV (AAA/COMODO), Partners, Pro Series, legacy COMODO-branded CAs",
     "reason": "Out of the curated scope (regional, partner or legacy)."},
    {"name": "pki.goog, amazontrust.com, digicert.com, sectigo.com download pages",
     "reason": "The CAs' own download pages were not reachable through the tools available (only a text copy of an old pki.goog page); the PEMs came from CCADB instead, see SOURCES.md."},
]


# --------------------------------------------------------------------------- openssl helpers
def sh(args, data=None):
    return subprocess.run(args, input=data, capture_output=True, check=True).stdout


def cert_info(path):
    pem = open(path, "rb").read()
    if pem.count(b"-----BEGIN CERTIFICATE-----") != 1:
        sys.exit("%s: expected exactly one certificate" % path)
    # SPKI pin: openssl x509 -in F -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
    pub = sh(["openssl", "x509", "-in", path, "-pubkey", "-noout"])
    spki_der = sh(["openssl", "pkey", "-pubin", "-outform", "der"], pub)
    spki = base64.b64encode(sh(["openssl", "dgst", "-sha256", "-binary"], spki_der)).decode()
    # certificate hash: openssl x509 -in F -outform der | openssl dgst -sha256 -binary | base64
    der = sh(["openssl", "x509", "-in", path, "-outform", "der"])
    cert = base64.b64encode(sh(["openssl", "dgst", "-sha256", "-binary"], der)).decode()
    txt = sh(["openssl", "x509", "-in", path, "-noout", "-subject", "-issuer", "-startdate", "-enddate", "-serial",
              "-nameopt", "oneline,-space_eq", "-dateopt", "iso_8601"]).decode()
    d = dict(l.split("=", 1) for l in txt.strip().splitlines())
    ext = sh(["openssl", "x509", "-in", path, "-noout", "-ext", "basicConstraints"]).decode()
    full = sh(["openssl", "x509", "-in", path, "-noout", "-text"]).decode()
    bits = re.search(r"Public-Key: \((\d+) bit\)", full)
    curve = re.search(r"NIST CURVE: (\S+)", full)
    if "rsaEncryption" in full.split("Subject Public Key Info:")[1][:200]:
        key = "RSA %s" % bits.group(1)
    elif curve:
        key = "ECDSA %s" % curve.group(1)
    else:
        key = "other"
    return {
        "file": os.path.relpath(path, PEM_DIR),
        "subject": d["subject"], "issuer": d["issuer"],
        "subject_rfc2253": sh(["openssl", "x509", "-in", path, "-noout", "-subject", "-nameopt", "RFC2253"]).decode().strip()[len("subject="):],
        "spki_sha256": spki, "certificate_sha256": cert,
        "not_before": iso(d["notBefore"]), "not_after": iso(d["notAfter"]),
        "serial": d["serial"], "is_ca": "CA:TRUE" in ext, "key": key,
        "self_signed": d["subject"] == d["issuer"],
    }


def iso(s):  # "2024-03-13 00:00:00Z" -> "2024-03-13T00:00:00Z"
    return s.strip().replace(" ", "T")


def verifies(child, parent):
    """True if parent's key verifies child's signature (openssl verify, time checks off)."""
    r = subprocess.run(["openssl", "verify", "-no_check_time", "-partial_chain", "-CAfile",
                        os.path.join(PEM_DIR, parent["file"]), os.path.join(PEM_DIR, child["file"])],
                       capture_output=True)
    return r.returncode == 0


def rdn_value(subject, key):
    m = re.search(r"(?:^|, )" + key + r"=((?:[^,\\]|\\.)*)", subject)
    return m.group(1).replace("\\,", ",") if m else None


def display_name(subject):
    cn, ou = rdn_value(subject, "CN"), rdn_value(subject, "OU")
    if cn == "GlobalSign" and ou:
        return ou
    if cn == "Amazon" and ou:
        return "Amazon " + ou
    return cn or ou or subject


# --------------------------------------------------------------------------- build
def source_of(kind, c, revoked_table):
    if kind == "le":
        up, commit, _ = LE_FILES[c["file"]]
        return up, {"repository": LE_REPO, "path": up, "last_changed_commit": commit, "snapshot_commit": LE_SNAPSHOT,
                    "url": "https://letsencrypt.org" + up[len("static"):]}
    year = int(c["not_before"][:4])
    return ("CCADB AllCertificatePEMsCSVFormat?NotBeforeYear=%d (%s@%s %s)" % (year, CCADB_REPO, CCADB_SNAPSHOT[:7], CCADB_REPORT % year),
            {"repository": CCADB_REPO, "path": CCADB_REPORT % year, "snapshot_commit": CCADB_SNAPSHOT,
             "url": CCADB_UPSTREAM % year})


def is_revoked(c):
    return c["file"] in LE_FILES and LE_FILES[c["file"]][2]


def cert_status(c):
    if is_revoked(c):
        return "revoked"
    return "expired" if c["not_after"][:10] <= GENERATED else "valid"


def load_groups(dirname, kind):
    files = sorted(glob.glob(os.path.join(PEM_DIR, dirname, "*.pem")))
    groups = {}
    for f in files:
        c = cert_info(f)
        if kind == "le" and c["file"] not in LE_FILES:
            sys.exit("%s has no entry in LE_FILES" % c["file"])
        c["source"], c["source_detail"] = source_of(kind, c, LE_FILES)
        base = os.path.basename(f)[:-4].split("--")[0]
        groups.setdefault(base, []).append(c)
    out = []
    for base, certs in groups.items():
        primary = [c for c in certs if os.path.basename(c["file"])[:-4] == base]
        if len(primary) != 1:
            sys.exit("%s/%s: no primary file %s.pem" % (dirname, base, base))
        p = primary[0]
        others = [c for c in certs if c is not p]
        for o in others:
            if o["spki_sha256"] != p["spki_sha256"] or o["subject"] != p["subject"]:
                sys.exit("%s does not share subject and key with %s" % (o["file"], p["file"]))
        others.sort(key=lambda c: (c["not_before"], c["file"]))
        out.append({"name": display_name(p["subject"]), "primary": p, "others": others, "dir": dirname, "kind": kind})
    return out


def cross_entry(p, o):
    if o["self_signed"]:
        kind = "alternate self-signed"
    elif o["issuer"] == p["issuer"]:
        kind = "reissue"
    else:
        kind = "cross-sign"
    return {"subject": o["subject"], "issuer": o["issuer"], "spki_sha256": o["spki_sha256"],
            "certificate_sha256": o["certificate_sha256"], "not_before": o["not_before"], "not_after": o["not_after"],
            "kind": kind, "status": cert_status(o), "source": o["source"], "pem": "pem/" + o["file"]}


def compute_chains(entities, roots):
    """chains_to: root names reachable through signature-verified, unexpired, unrevoked certificates."""
    by_subject = {}
    for e in entities:
        by_subject.setdefault(e["primary"]["subject"], []).append(e)
    root_ids = {id(r) for r in roots}
    cache = {}

    def parents(e, start):
        key = (id(e), start)
        if key in cache:
            return cache[key]
        res = []
        for c in [e["primary"]] + e["others"]:
            if c["self_signed"] or is_revoked(c):
                continue
            if not start and cert_status(c) != "valid":
                continue
            for cand in by_subject.get(c["issuer"], []):
                if cand is e:
                    continue
                if any(verifies(c, pc) for pc in [cand["primary"]] + cand["others"]):
                    if cand not in res:
                        res.append(cand)
        cache[key] = res
        return res

    for e in entities:
        seen, order, queue = {id(e)}, [], [(e, True)]
        while queue:
            cur, start = queue.pop(0)
            for par in parents(cur, start):
                if id(par) in seen:
                    continue
                seen.add(id(par))
                if id(par) in root_ids:
                    order.append(par["name"])
                queue.append((par, False))
        e["chains_to"] = order


def build():
    pools, roots = [], []
    for dirname, operator, kind in ROOT_DIRS:
        for g in load_groups(dirname, kind):
            g["operator"] = operator
            roots.append(g)
    pool_groups = []
    for name, operator, kind, desc in POOLS:
        gs = load_groups(name, kind)
        pool_groups.append((name, operator, kind, desc, gs))
    entities = roots + [g for *_, gs in pool_groups for g in gs]
    compute_chains(entities, roots)

    def sort_key(g):
        n = g["name"]
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)]

    for name, operator, kind, desc, gs in pool_groups:
        issuers = []
        for g in sorted(gs, key=sort_key):
            p = g["primary"]
            if kind == "le":
                active, status, note = LE_STATUS[g["name"]]
            else:
                active, status, note = None, None, CCADB_NOTE
            entry = {"name": g["name"], "subject": p["subject"], "issuer": p["issuer"],
                     "spki_sha256": p["spki_sha256"], "certificate_sha256": p["certificate_sha256"],
                     "not_before": p["not_before"], "not_after": p["not_after"], "is_ca": p["is_ca"],
                     "key": p["key"], "serial": p["serial"], "active": active}
            if status:
                entry["status"] = status
            entry.update({"source": p["source"], "pem": "pem/" + p["file"], "chains_to": g["chains_to"],
                          "cross_signs": [cross_entry(p, o) for o in g["others"]], "note": note})
            issuers.append(entry)
        pool = {"name": name, "operator": operator, "description": desc,
                "source": LE_SOURCE if kind == "le" else CCADB_SOURCE,
                "active_basis": LE_BASIS if kind == "le" else CCADB_BASIS, "issuers": issuers}
        if operator in ACME_DIRECTORIES:
            pool["acme_directory"] = ACME_DIRECTORIES[operator]
        pools.append(pool)
    root_entries = []
    for g in roots:
        p = g["primary"]
        e = {"name": g["name"], "operator": g["operator"], "subject": p["subject"], "issuer": p["issuer"],
             "spki_sha256": p["spki_sha256"], "certificate_sha256": p["certificate_sha256"],
             "not_before": p["not_before"], "not_after": p["not_after"], "is_ca": p["is_ca"], "key": p["key"],
             "serial": p["serial"], "source": p["source"], "pem": "pem/" + p["file"],
             "chains_to": g["chains_to"], "cross_signs": [cross_entry(p, o) for o in g["others"]]}
        if g["name"] in ROOT_NOTES:
            e["note"] = ROOT_NOTES[g["name"]]
        root_entries.append(e)
    catalog = {
        "version": 1,
        "generated": GENERATED,
        "formats": {
            "spki_sha256": "base64(SHA-256(DER SubjectPublicKeyInfo)) - the HPKP / OkHttp 'sha256/' pin value",
            "certificate_sha256": "base64(SHA-256(DER certificate))",
            "subject": "openssl -nameopt oneline,-space_eq (e.g. 'C=US, O=Let's Encrypt, CN=R10')",
            "dates": "RFC 3339, UTC",
            "chains_to": "names of entries in 'roots' reachable through signature-verified certificates in this "
                         "catalog that are unexpired and unrevoked on the generated date (the issuer's own "
                         "certificate may be expired)",
            "cross_signs": "other certificates with the same subject and SPKI (kind: cross-sign, reissue, "
                           "alternate self-signed; status on the generated date)",
        },
        "sources": {
            "letsencrypt": {"repository": LE_REPO, "snapshot_commit": LE_SNAPSHOT, "status_page": LE_PAGE},
            "ccadb": {"repository": CCADB_REPO, "snapshot_commit": CCADB_SNAPSHOT,
                      "upstream": "https://ccadb.my.salesforce-sites.com/ccadb/AllCertificatePEMsCSVFormat?NotBeforeYear=YYYY"},
        },
        "pools": pools,
        "roots": root_entries,
        "not_included": NOT_INCLUDED,
    }
    return catalog, entities


def sources_md(entities):
    L = ["# SOURCES", "",
         "Generated by `build_catalog.py` on the catalog date %s. Every PEM under `pem/` is a byte-exact copy of" % GENERATED,
         "the published file named below (`python3 build_catalog.py --verify-sources` re-checks that against the git",
         "snapshots). No hash in `issuer_catalog.json` was copied from anywhere: all were computed from these files.", "",
         "## Upstream snapshots", "",
         "* **Let's Encrypt** - GitHub `%s`, snapshot commit `%s` (2026-08-21), files under `static/certs/`" % (LE_REPO, LE_SNAPSHOT),
         "  (served as `https://letsencrypt.org/certs/...`). Issuance status taken from %s." % LE_PAGE,
         "  Read with `git show <commit>:<path>`; the last commit that changed each file is listed below.",
         "* **CCADB** (Google Trust Services, Amazon, Starfield, GlobalSign, DigiCert, Sectigo) - GitHub `%s`," % CCADB_REPO,
         "  snapshot commit `%s` (2026-08-21T22:28:46Z). That repository archives the Common CA Database" % CCADB_SNAPSHOT,
         "  report `AllCertificatePEMsCSVFormat?NotBeforeYear=YYYY` hourly (CA certificates disclosed to CCADB by the",
         "  CAs / root programs). Each PEM is the CSV field `X.509 Certificate (PEM)` written verbatim; the",
         "  CSV's `SHA-256 Fingerprint` column was checked against the certificate while extracting",
         "  (`tools/extract_ccadb.py`, manifest in `tools/ccadb_manifest.json`).",
         "  The CAs' own download pages (pki.goog, amazontrust.com, digicert.com, sectigo.com) were not reachable",
         "  through the available tools, so CCADB is the source for these operators.", "",
         "## Cross-checks performed", "",
         "* All 39 Let's Encrypt certificates taken from letsencrypt/website also appear in the CCADB report with the",
         "  same SHA-256 certificate fingerprint (done while preparing the catalog).",
         "* Every `chains_to` link is an `openssl verify -no_check_time -partial_chain -CAfile <issuer> <cert>` success.",
         "* Root certificates compared with this machine's Debian `ca-certificates` 20230311 store (Mozilla-derived):",
         "  every root in the catalog has a byte-identical certificate there except Root YE, Root YR, the three",
         "  Amazon EU M1 roots, DigiCert TLS RSA4096/ECC P384 Root G6 (all newer than that store) and",
         "  AAA Certificate Services (no longer in that store).", "",
         "## openssl commands (openssl 3.0)", "", "```sh",
         "# SPKI pin (base64 SHA-256 of the DER SubjectPublicKeyInfo)",
         "openssl x509 -in F -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
         "# certificate hash (base64 SHA-256 of the DER certificate)",
         "openssl x509 -in F -outform der | openssl dgst -sha256 -binary | base64",
         "# names, dates, serial",
         "openssl x509 -in F -noout -subject -issuer -startdate -enddate -serial -nameopt oneline,-space_eq -dateopt iso_8601",
         "# CA flag and key type",
         "openssl x509 -in F -noout -ext basicConstraints",
         "openssl x509 -in F -noout -text",
         "# signature links used for chains_to",
         "openssl verify -no_check_time -partial_chain -CAfile ISSUER.pem F", "```", "",
         "## Certificates", "",
         "| pem file | subject CN | issuer CN | source (repository:path) | commit | published at |", "|---|---|---|---|---|---|"]
    rows = []
    for e in entities:
        for c in [e["primary"]] + e["others"]:
            d = c["source_detail"]
            commit = d.get("last_changed_commit", d["snapshot_commit"])
            rows.append("| `pem/%s` | %s | %s | `%s:%s` | `%s` | %s |" % (
                c["file"], display_name(c["subject"]).replace("|", "\\|"), display_name(c["issuer"]).replace("|", "\\|"),
                d["repository"], d["path"], commit[:12], d["url"]))
    L += sorted(rows)
    L += ["", "For the Let's Encrypt rows the commit is the last commit that changed the file (the snapshot commit",
          "`%s` holds the same bytes); for CCADB rows it is the snapshot commit of `%s`." % (LE_SNAPSHOT[:12], CCADB_REPO), ""]
    return "\n".join(L)


def verify_sources(entities, le_git, ccadb_git):
    bad = 0
    ccadb_cache = {}
    for e in entities:
        for c in [e["primary"]] + e["others"]:
            local = open(os.path.join(PEM_DIR, c["file"]), "rb").read()
            d = c["source_detail"]
            if d["repository"] == LE_REPO:
                up = sh(["git", "--git-dir", le_git, "show", "%s:%s" % (LE_SNAPSHOT, d["path"])])
                ok = up == local
            else:
                if d["path"] not in ccadb_cache:
                    data = sh(["git", "--git-dir", ccadb_git, "show", "%s:%s" % (CCADB_SNAPSHOT, d["path"])]).decode()
                    csv.field_size_limit(10 ** 8)
                    ccadb_cache[d["path"]] = {r["X.509 Certificate (PEM)"] for r in csv.DictReader(io.StringIO(data, newline=""))}
                ok = local.decode() in ccadb_cache[d["path"]]
            if not ok:
                bad += 1
                print("MISMATCH", c["file"], file=sys.stderr)
    print("verify-sources: %d mismatches" % bad, file=sys.stderr)
    return bad == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--verify-sources", action="store_true")
    ap.add_argument("--le-git", default="/work/.mirror/letsencrypt+website/repo")
    ap.add_argument("--ccadb-git", default="/work/.mirror/crtsh+ccadb_data/repo")
    a = ap.parse_args()
    catalog, entities = build()
    js = json.dumps(catalog, indent=2, ensure_ascii=False) + "\n"
    md = sources_md(entities)
    ok = True
    if a.verify_sources:
        ok = verify_sources(entities, a.le_git, a.ccadb_git)
    if a.check:
        for path, text in ((OUT_JSON, js), (OUT_SOURCES, md)):
            cur = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            same = cur == text
            print("%s: %s" % (os.path.basename(path), "up to date" if same else "DIFFERS"), file=sys.stderr)
            ok = ok and same
    else:
        open(OUT_JSON, "w", encoding="utf-8").write(js)
        open(OUT_SOURCES, "w", encoding="utf-8").write(md)
        n = sum(len(p["issuers"]) for p in catalog["pools"])
        print("wrote %s: %d pools, %d issuers, %d roots" % (OUT_JSON, len(catalog["pools"]), n, len(catalog["roots"])),
              file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
