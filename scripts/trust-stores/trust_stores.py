# SPDX-License-Identifier: Apache-2.0
"""Builds the four client stores of client_trust_stores.json from the readers in trust_sources.py.

Every builder returns (store dict without subjects, {hex: DER} of the certificates it names). Roots are keyed by
lowercase hex SHA-256 here; regenerate.py turns them into base64 and fills in subjects.
"""
import trust_sources as src

# Chrome Root Store constraints with version bounds, which certvet's stores.csv flattens (it keeps only
# SCT-only constraints): (first milestone, last milestone or None, sct_not_after or None) per root. Source: the
# Chrome Root Program's announcement on Chunghwa Telecom and NetLock (2025, ahead of Chrome 139; reported by
# SecurityWeek, securityonline.info and others): from Chrome 139, leaves chaining to these roots whose earliest SCT is after 2025-07-31T23:59:59Z are
# distrusted. In root_store.textproto that is {sct_not_after_sec: 1754006399, min_version: "139"} or
# {max_version_exclusive: "139"}; certvet's synthesized milestones 138/139 show that bound, and chrome() stops if
# they show any other.
CHROME_139 = [(105, 138, None), (139, None, "2025-07-31T23:59:59Z")]
CHROME_VERSION_BOUNDED = {
    "c0a6f4dc63a24bfdcf54ef2a6a082a0a72de35803e2ff5ff527ae5d87206dfd5": CHROME_139,  # Chunghwa ePKI Root
    "f015ce3cc239bfef064be9f1d2c417e1a0264a0a94be1f0c8d121864eb6949cc": CHROME_139,  # HiPKI Root CA - G1
    "6c61dac3a2def031506be036d2a6fe401994fbd13df9c8d466599274c446ec98": CHROME_139,  # NetLock Arany
}
CHROME_FIRST = 105  # the Chrome Root Store is used from Chrome 105 (Windows, macOS; 114/115 elsewhere)


def ranges(present, known):
    """The versions in `present` as ranges over the sorted `known` versions: a run ends the version before
    the next known one (so a gap such as iOS 19-25 joins the run before it); a run reaching the newest
    known version is open ended ("A-")."""
    out, start = [], None
    for i, v in enumerate(known + [None]):
        if v is not None and v in present:
            start = i if start is None else start
        elif start is not None:
            lo = known[start]
            if i == len(known):
                out.append(f"{lo}-")
            else:
                hi = known[i] - 1
                out.append(str(lo) if hi == lo else f"{lo}-{hi}")
            start = None
    return out


def root(h, versions, added=None, removed=None, distrust=None):
    return {"certificate": h, "versions": versions, "added": added, "removed": removed, "distrust_after": distrust}


def store(client, version_name, source, source_date, refresh, known, in_use, roots, changes):
    return {"client": client, "version_name": version_name, "source": source, "source_date": source_date,
            "refresh_days": refresh, "versions_known": known, "versions_in_use": in_use,
            "roots": roots, "changes": changes}


def dated(history):
    """({hex: date entered}, {hex: date left}) from a path history, leaving out what the first commit holds
    (the history does not show it entering)."""
    entered, left = src.entered_and_left(history)
    first = set(history[0][2]) if history else set()
    return {h: d for h, d in entered.items() if h not in first or d != history[0][1]}, left


def android(a):
    """AOSP system store by release tag for API 24-33, the Conscrypt APEX store (updated with the module) for
    API 34-36, and certvet's copy of the newer android<N>-release branches (API 37 on)."""
    tags = src.android_latest_tags(a.aosp_system)
    sys_sha, sys_day = src.commit(a.aosp_system, a.aosp_ref)
    con_sha, con_day = src.commit(a.aosp_conscrypt, a.aosp_ref)
    apex = src.BLOBS.tree_certs(a.aosp_conscrypt, a.aosp_ref, "apex/ca-certificates/files")
    per_api = {api: src.BLOBS.tree_certs(a.aosp_system, tags[api], "files") for api in range(24, 34)}
    per_api.update({api: apex for api in (34, 35, 36)})
    cv_sha, cv_day = src.commit(a.certvet)
    cv = src.certvet_stores(a.certvet)
    cv_certs = src.certvet_certificates(a.certvet)
    # Android 13 on is API level version + 20; only the versions past the AOSP data (API 36) are taken.
    newer = sorted(int(v) + 20 for (p, v) in cv if p == "android" and int(v) + 20 > 36)
    for api in newer:
        per_api[api] = {h: cv_certs[h] for h in cv[("android", str(api - 20))]}
    pool = {h: d for certs in per_api.values() for h, d in certs.items()}
    hist = src.path_history(a.aosp_system, a.aosp_ref, "files")
    entered, left = dated(hist)
    c_entered, _ = dated(src.path_history(a.aosp_conscrypt, a.aosp_ref, "apex/ca-certificates/files"))
    known = sorted(per_api)
    roots = []
    for h in sorted(pool):
        gone = left.get(h) if h not in hist[-1][2] else None
        for v in ranges({api for api in known if h in per_api[api]}, known):
            roots.append(root(h, v, entered.get(h) or c_entered.get(h), gone))
    t = [tags[api] for api in range(24, 34)]
    source = (f"AOSP platform/system/ca-certificates files/, GitHub mirror msft-mirror-aosp/platform.system.ca-certificates, "
              f"newest release tag of each API level {t[0]}..{t[-1]} for API 24-33 (added/removed: {a.aosp_ref} "
              f"{sys_sha[:12]}, {sys_day}); AOSP platform/external/conscrypt apex/ca-certificates/files (the Conscrypt "
              f"APEX store), mirror msft-mirror-aosp/platform.external.conscrypt {a.aosp_ref} {con_sha[:12]} ({con_day}) "
              f"for API 34-36")
    if newer:
        source += (f"; API {newer[0]}" + (f"-{newer[-1]}" if len(newer) > 1 else "") +
                   f": android{newer[0] - 20}-release system store as fetched by ivoronin/certvet "
                   f"(internal/truststore/data/stores.csv, commit {cv_sha[:12]}, {cv_day})")
    day = max(sys_day, con_day, cv_day if newer else "")
    return store("android", "Android API", source, day, 180, f"{known[0]}-{known[-1]}", a.android_in_use or "",
                 roots, []), pool


def ios(a):
    """Apple's published list of each iOS major version's newest point release (as certvet fetched it), kept
    to the certificates that are also roots of the security_certificates release matching it best: certvet
    also takes the pages' blocked certificates, which were never roots there."""
    cv_sha, cv_day = src.commit(a.certvet)
    cv = src.certvet_stores(a.certvet)
    newest = {}
    for (p, v) in cv:
        key = tuple(int(x) for x in v.split(".")) if p == "ios" else None
        if key and key > newest.get(key[0], (0,)):
            newest[key[0]] = key
    tag_roots = src.apple_tag_roots(a.apple)
    ever = set().union(*(set(certs) for _d, _t, certs in tag_roots))
    per_major, matched = {}, []
    for m, key in sorted(newest.items()):
        listed = set(cv[("ios", ".".join(map(str, key)))]) & ever
        day, tag, certs = min(tag_roots, key=lambda t: len(set(t[2]) ^ listed))  # ties: the earliest
        per_major[m] = listed & set(certs)
        n = len(set(certs) ^ listed)
        matched.append(f"{'.'.join(map(str, key))}: {tag} ({day}, {n} difference{'' if n == 1 else 's'})")
    pool = {h: d for _d, _t, certs in tag_roots for h, d in certs.items()}
    entered, last_in, first = {}, {}, set(tag_roots[0][2])
    for i, (day, _tag, certs) in enumerate(tag_roots):
        for h in certs:
            if h not in first:
                entered.setdefault(h, day)
            last_in[h] = i
    newest_tag = tag_roots[-1]
    known = sorted(per_major)
    roots = []
    for h in sorted(set().union(*per_major.values())):
        gone = None
        if h not in newest_tag[2] and last_in[h] + 1 < len(tag_roots):
            gone = tag_roots[last_in[h] + 1][0]
        for v in ranges({m for m in known if h in per_major[m]}, known):
            roots.append(root(h, v, entered.get(h), gone))
    source = (f"Apple's 'List of available trusted root certificates' pages (support.apple.com/en-us/103272 and the "
              f"pages it links) as fetched by ivoronin/certvet (internal/truststore/data/stores.csv, commit "
              f"{cv_sha[:12]}, {cv_day}), each iOS major version by its newest listed point release, kept to the roots "
              f"of the apple-oss-distributions/security_certificates release (certificates/roots) matching it best: "
              + "; ".join(matched) + "; added/removed: author date of the first security_certificates release holding the "
              "root / of the first release after the last one holding it")
    return store("ios", "iOS", source, cv_day, 180, f"{known[0]}-{known[-1]}", a.ios_in_use or "", roots, []), \
        {h: pool[h] for h in set().union(*per_major.values())}


def chrome(a):
    """The Chrome Root Store as certvet last fetched chromium's root_store.textproto, with version-bounded
    constraints restored from CHROME_VERSION_BOUNDED."""
    cv_sha, cv_day = src.commit(a.certvet)
    cv = src.certvet_stores(a.certvet)
    cur = cv[("chrome", "current")]
    bounds = sorted(int(v) for (p, v) in cv if p == "chrome" and v != "current")
    known_bounds = {b for spans in CHROME_VERSION_BOUNDED.values() for lo, _hi, _d in spans for b in (lo - 1, lo)}
    if not set(bounds) <= known_bounds:
        raise SystemExit(f"chrome: certvet synthesized milestones {bounds}: a version-bounded constraint is not "
                         "in CHROME_VERSION_BOUNDED; read root_store.textproto and add it")
    first_seen, first_snapshot = {}, None
    for sha, day in src.certvet_snapshots(a.certvet):
        snap = src.certvet_stores(a.certvet, sha).get(("chrome", "current"))
        if snap is None:
            continue
        first_snapshot = first_snapshot or set(snap)
        for h in snap:
            if h not in first_snapshot:
                first_seen.setdefault(h, day)
    pool = src.certvet_certificates(a.certvet)
    roots, changes = [], []
    for h in sorted(cur):
        sct = cur[h]["sct_not_after"] or None
        for lo, hi, d in CHROME_VERSION_BOUNDED.get(h, [(CHROME_FIRST, None, sct)]):
            v = f"{lo}-" if hi is None else f"{lo}-{hi}"
            roots.append(root(h, v, first_seen.get(h), None, d))
            if d and d[:10] > cv_day:
                changes.append({"certificate": h, "change": "distrusted", "versions": v, "date": d[:10],
                                "source": "chromium net/data/ssl/chrome_root_store/root_store.textproto "
                                          f"constraints sct_not_after_sec (certvet commit {cv_sha[:12]}): leaves whose "
                                          f"earliest SCT is after {d} are not trusted"})
    source = (f"Chrome Root Store, chromium net/data/ssl/chrome_root_store/root_store.textproto (main) as fetched by "
              f"ivoronin/certvet (internal/truststore/data/stores.csv, commit {cv_sha[:12]}, {cv_day}); "
              f"the Chrome 139 bound on three roots from the Chrome Root Program's announcement on Chunghwa Telecom and "
              f"NetLock (2025)")
    return store("chrome", "Chrome", source, cv_day, 90, f"{CHROME_FIRST}-", a.chrome_in_use or "", roots, changes), \
        {h: pool[h] for h in cur}
