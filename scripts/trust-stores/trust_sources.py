# SPDX-License-Identifier: Apache-2.0
"""Readers for the public snapshots regenerate.py builds client_trust_stores.json from.

Each reader takes a path (a git directory as `fetch` or `git clone --mirror` leaves it, a directory of
certificates, a file) and returns plain data: certificates as DER keyed by lowercase hex SHA-256, dates as
YYYY-MM-DD. Only the Python standard library and the git CLI are used; nothing is fetched from the network.
"""
import base64
import csv
import datetime
import email.utils
import gzip
import hashlib
import io
import json
import os
import re
import subprocess

PEM_RE = re.compile(rb"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", re.S)


def git(repo, *args):
    """stdout of `git -C repo args` as bytes; raises on failure."""
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def git_lines(repo, *args):
    return [l for l in git(repo, *args).decode("utf-8", "replace").splitlines() if l]


def commit(repo, ref="HEAD"):
    """(full sha, committer date YYYY-MM-DD) of `ref`."""
    sha, day = git(repo, "log", "-1", "--format=%H %cs", ref).decode().split()
    return sha, day


def to_der(data):
    """DER of a certificate given as DER or PEM (the first PEM block, text around it ignored); None if neither."""
    m = PEM_RE.search(data)
    if m:
        return base64.b64decode(b"".join(m.group(1).split()))
    return data if data[:1] == b"\x30" else None


def sha_hex(der):
    return hashlib.sha256(der).hexdigest()


def sha_b64(der):
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


class Blobs:
    """Reads git blobs through one `git cat-file --batch` process per repository, cached by blob id."""

    def __init__(self):
        self.procs, self.cache = {}, {}

    def read(self, repo, blob):
        if blob in self.cache:
            return self.cache[blob]
        p = self.procs.get(repo)
        if p is None:
            p = self.procs[repo] = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"],
                                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        p.stdin.write(blob.encode() + b"\n")
        p.stdin.flush()
        header = p.stdout.readline().split()
        if len(header) < 3:  # "<id> missing": a snapshot may lack its largest files
            self.cache[blob] = b""
            return b""
        data = p.stdout.read(int(header[2]))
        p.stdout.read(1)
        self.cache[blob] = data
        return data

    def tree_certs(self, repo, ref, path):
        """{sha256 hex: DER} of the certificate files directly in `path` at `ref` ({} if the path is absent)."""
        try:
            lines = git_lines(repo, "ls-tree", f"{ref}:{path}")
        except subprocess.CalledProcessError:
            return {}
        out = {}
        for line in lines:
            meta, _name = line.split("\t", 1)
            kind, blob = meta.split()[1:3]
            der = to_der(self.read(repo, blob)) if kind == "blob" else None
            if der:
                out[sha_hex(der)] = der
        return out


BLOBS = Blobs()


def path_history(repo, ref, path):
    """[(commit, date, {hex: DER})] for each first-parent commit of `ref` that changed `path`, oldest first."""
    out = []
    for line in git_lines(repo, "log", "--first-parent", "--reverse", "--format=%H %cs", ref, "--", path):
        sha, day = line.split()
        out.append((sha, day, BLOBS.tree_certs(repo, sha, path)))
    return out


def entered_and_left(history):
    """From path_history: ({hex: date it (last) entered}, {hex: date it left, for those gone at the end})."""
    entered, left, prev = {}, {}, set()
    for _sha, day, certs in history:
        cur = set(certs)
        for h in cur - prev:
            entered[h] = day
            left.pop(h, None)
        for h in prev - cur:
            left[h] = day
        prev = cur
    return entered, left


# --- AOSP ------------------------------------------------------------------------------------------------
ANDROID_API = {(7, 0): 24, (7, 1): 25, (8, 0): 26, (8, 1): 27, (9, 0): 28, (10, 0): 29, (11, 0): 30, (12, 0): 31,
               (12, 1): 32, (13, 0): 33, (14, 0): 34, (15, 0): 35, (16, 0): 36, (17, 0): 37}
ANDROID_TAG = re.compile(r"^android-(\d+)\.(\d+)\.(\d+)_r(\d+)$")


def android_latest_tags(repo):
    """{API level: the newest release tag android-X.Y.Z_rN of that level} (ordered by X.Y.Z then N)."""
    best = {}
    for tag in git_lines(repo, "tag", "-l", "android-*"):
        m = ANDROID_TAG.match(tag)
        if not m:
            continue
        x, y, z, r = map(int, m.groups())
        api = ANDROID_API.get((x, y))
        if api and (api not in best or (x, y, z, r) > best[api][0]):
            best[api] = ((x, y, z, r), tag)
    return {api: tag for api, (_k, tag) in best.items()}


# --- Apple -----------------------------------------------------------------------------------------------
def apple_tag_roots(repo):
    """[(author date, tag, {hex: DER})] of the security_certificates tags that have certificates/roots,
    oldest first (author dates are Apple's own release dates; the GitHub import commits are from 2021)."""
    out = []
    for line in git_lines(repo, "for-each-ref", "--format=%(refname:short)", "refs/tags"):
        roots = BLOBS.tree_certs(repo, line, "certificates/roots")
        if roots:
            day = git(repo, "log", "-1", "--format=%as", line).decode().strip()
            out.append((day, line, roots))
    out.sort(key=lambda t: (t[0], t[1]))
    return out


# --- ivoronin/certvet (Apple's published per-version lists, Chrome Root Store, Android branches) ------------
def certvet_stores(repo, ref="HEAD"):
    """{(platform, version): {hex: {'sct_not_after': ISO or ''}}} from internal/truststore/data/stores.csv."""
    text = git(repo, "show", f"{ref}:internal/truststore/data/stores.csv").decode()
    out = {}
    for row in csv.DictReader(io.StringIO(text)):
        fp = row["fingerprint"].replace(":", "").lower()
        out.setdefault((row["platform"], row["version"]), {})[fp] = {"sct_not_after": row["sct_not_after"]}
    return out


def certvet_certificates(repo, ref="HEAD"):
    """{hex: DER} from internal/truststore/data/certificates.csv (PEM with escaped newlines)."""
    text = git(repo, "show", f"{ref}:internal/truststore/data/certificates.csv").decode()
    out = {}
    for row in csv.DictReader(io.StringIO(text)):
        der = to_der(row["pem"].replace("\\n", "\n").encode())
        if der:
            out[sha_hex(der)] = der
    return out


def certvet_snapshots(repo, ref="HEAD"):
    """[(commit, date)] of the commits that changed stores.csv, oldest first."""
    return [tuple(l.split()) for l in
            git_lines(repo, "log", "--reverse", "--format=%H %cs", ref, "--", "internal/truststore/data/stores.csv")]


# --- Debian ca-certificates ------------------------------------------------------------------------------
def debian_store(directory):
    """{hex: (DER, file name)} of the *.crt files in `directory` (/usr/share/ca-certificates/mozilla)."""
    out = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".crt"):
            with open(os.path.join(directory, name), "rb") as f:
                der = to_der(f.read())
            if der:
                out[sha_hex(der)] = (der, name)
    return out


def name_key(text):
    """A label compared loosely: Debian's file names replace spaces and some punctuation."""
    return "".join(c for c in text.casefold() if c.isalnum())


def debian_changelog(path):
    """[(version, date, [added labels], [removed labels], Mozilla bundle minor or None)] from a
    debian/changelog (gzip or plain), newest first."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        text = f.read()
    out, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^ca-certificates \(([^)]+)\)", line)
        if m:
            cur = [m.group(1), None, [], [], None]
            out.append(cur)
        elif cur and (m := re.search(r"authority bundle to version 2\.(\d+)", line)):
            cur[4] = int(m.group(1))
        elif cur and (m := re.match(r'^\s+([+-]) "(.+?)"', line)):
            (cur[2] if m.group(1) == "+" else cur[3]).append(m.group(2))
        elif cur and line.startswith(" -- ") and "  " in line[4:]:
            cur[1] = email.utils.parsedate_to_datetime(line.rsplit("  ", 1)[1]).date().isoformat()
    return [tuple(e) for e in out]


# --- Mozilla NSS certdata.txt ----------------------------------------------------------------------------
def _octal(lines):
    return bytes(int(o, 8) for l in lines for o in l.split("\\")[1:])


def parse_certdata(text):
    """({hex: DER} of the certificates trusted for server authentication (CKT_NSS_TRUSTED_DELEGATOR),
    {hex: distrust-after ISO instant} of those with CKA_NSS_SERVER_DISTRUST_AFTER)."""
    certs, trust, distrust = {}, {}, {}
    for block in re.split(r"\n\s*\n", text):
        attrs, lines, i = {}, block.splitlines(), 0
        while i < len(lines):
            parts = lines[i].split()
            if len(parts) >= 2 and parts[1] == "MULTILINE_OCTAL":
                j = lines.index("END", i)
                attrs[parts[0]] = _octal(lines[i + 1:j])
                i = j
            elif len(parts) >= 3 and parts[0].startswith("CKA_"):
                attrs[parts[0]] = parts[2]
            i += 1
        if attrs.get("CKA_CLASS") == "CKO_CERTIFICATE" and "CKA_VALUE" in attrs:
            der = attrs["CKA_VALUE"]
            certs[hashlib.sha1(der).hexdigest()] = der
            when = attrs.get("CKA_NSS_SERVER_DISTRUST_AFTER")
            if isinstance(when, bytes):
                t = datetime.datetime.strptime(when.decode(), "%y%m%d%H%M%SZ")
                distrust[sha_hex(der)] = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        elif attrs.get("CKA_CLASS") == "CKO_NSS_TRUST" and "CKA_CERT_SHA1_HASH" in attrs:
            trust[attrs["CKA_CERT_SHA1_HASH"].hex()] = attrs.get("CKA_TRUST_SERVER_AUTH")
    server = {sha_hex(d): d for s1, d in certs.items() if trust.get(s1) == "CKT_NSS_TRUSTED_DELEGATOR"}
    return server, {h: t for h, t in distrust.items() if h in server}


def nss_builtins_minor(repo, ref):
    text = git(repo, "show", f"{ref}:lib/ckfw/builtins/nssckbi.h").decode()
    return int(re.search(r"#define NSS_BUILTINS_LIBRARY_VERSION_MINOR (\d+)", text).group(1))


# --- Let's Encrypt and CCADB -----------------------------------------------------------------------------
def file_at(repo, path, ref="HEAD"):
    """(DER, date of the last commit that changed `path`) of a certificate file in a repository."""
    der = to_der(git(repo, "show", f"{ref}:{path}"))
    return der, git(repo, "log", "-1", "--format=%cs", ref, "--", path).decode().strip()


def ccadb_records(repo, owner_file, ref="HEAD"):
    """{hex: record} of one CA owner's CCADB records (mcpherrinm/pki-data data/ccadb/ca/<owner>.json), and the
    date of the snapshot: the last commit that changed data/ccadb (the daily job commits only changes)."""
    path = f"data/ccadb/ca/{owner_file}"
    records = json.loads(git(repo, "show", f"{ref}:{path}"))
    day = git(repo, "log", "-1", "--format=%cs", ref, "--", "data/ccadb").decode().strip()
    return {r["SHA-256 Fingerprint"].lower(): r for r in records if "SHA-256 Fingerprint" in r}, day
