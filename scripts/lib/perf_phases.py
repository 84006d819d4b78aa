#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a pinguard probe round's CPU goes, from `perf script` output of a DWARF call-graph profile.

    perf script -i perf.data > samples.txt; perf_phases.py samples.txt

Each sample is charged to one phase by the frames on its stack (first match in the order below), so the
phases add up to 100% of the process's samples. Made for the profile scripts/bench-blackbox.sh records
with PERF_OUT=FILE; Debian's libssl and libcrypto carry few symbols, so the handshake is split by the
exported functions that appear (X509_verify_cert, ASN1_item_d2i_ex).
"""
import collections
import re
import sys


def phase(frames):
    names = " | ".join(frames)
    if "X509_verify_cert" in names:
        return "handshake: X509_verify_cert (the served chain verified by OpenSSL)"
    if "VerificationCache" in names:
        return "handshake: the verification cache (key, lookup, answer)"
    if "TLSProberC9handshake" in names:
        i = next(k for k, f in enumerate(frames) if "TLSProberC9handshake" in f)
        child = frames[i - 1] if i > 0 else ""
        if "libssl" in child or "SSL_" in child:
            if "ASN1_item_d2i_ex" in names:
                return "handshake: parsing the served certificates (d2i_X509, public keys through OpenSSL 3 decoders)"
            return "handshake: the rest (key exchange, signatures, record layer, I/O)"
        if "CertificateReader" in names or "CertificateFactsCache" in names:
            return "certificate facts (names, hashes, dates)"
        if "Dialer" in names:
            return "handshake: waiting for the socket (poll)"
        return "handshake: pinguard's own work around it"
    rules = [("Dialer", "connect"), ("getaddrinfo", "name resolution"), ("Resolver", "name resolution"),
             ("pg_lookup", "name resolution"), ("TLSProber", "prober, other"), ("forecast", "renewal forecast"),
             ("evaluate", "policy evaluation"), ("Evaluator", "policy evaluation"), ("OnceSummary", "summary output"),
             ("TextTable", "summary output"), ("ResultStore", "result store and events"),
             ("ChainMemory", "chain memory"), ("Config", "configuration load"), ("Yams", "configuration load"),
             ("PolicyBundle", "configuration load")]
    for needle, name in rules:
        if needle in names:
            return name
    return "other (thread pool, Swift runtime, start-up, kernel)"


def main():
    samples = [s for s in open(sys.argv[1]).read().split("\n\n") if s.strip()]
    counts = collections.Counter()
    for sample in samples:
        frames = [re.sub(r"^[0-9a-f]+ ", "", line.strip()) for line in sample.strip().split("\n")[1:] if line.strip()]
        counts[phase(frames)] += 1
    print(f"{len(samples)} samples")
    for name, n in counts.most_common():
        print(f"{100 * n / len(samples):5.1f}%  {name}")


if __name__ == "__main__":
    main()
