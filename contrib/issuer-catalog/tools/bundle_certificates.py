#!/usr/bin/env python3
"""Write the certificates the renewal forecast builds each client's path from, next to the bundled catalog.

For every issuer the catalog marks active (or does not mark retired), its own certificate, and for every root,
its cross-signs whose status is valid on the catalog's date: the certificates a CA serves above the issuer.
Reads contrib/issuer-catalog/issuer_catalog.json and the PEM files it names; writes
Sources/PinGuardConfig/Resources/issuer_catalog_certificates.pem (text before each block names it).

    python3 contrib/issuer-catalog/tools/bundle_certificates.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(REPO, "Sources", "PinGuardConfig", "Resources", "issuer_catalog_certificates.pem")


def main():
    with open(os.path.join(HERE, "issuer_catalog.json")) as f:
        catalog = json.load(f)
    wanted = []
    for pool in catalog["pools"]:
        for issuer in pool["issuers"]:
            if issuer.get("active") is not False:
                wanted.append((f"{pool['name']}: {issuer['name']}", issuer["pem"]))
    for root in catalog["roots"]:
        for cross in root.get("cross_signs", []):
            if cross.get("status") == "valid" and cross["subject"] != cross["issuer"]:
                wanted.append((f"{root['name']} issued by {cross['issuer']}", cross["pem"]))
    seen, parts = set(), []
    for label, pem in wanted:
        if pem in seen:
            continue
        seen.add(pem)
        with open(os.path.join(HERE, pem)) as f:
            body = f.read().strip()
        if not body.startswith("-----BEGIN CERTIFICATE-----"):
            sys.exit(f"{pem}: not one PEM certificate")
        parts.append(f"{label} ({pem})\n{body}\n")
    header = (f"Issuer catalog certificates, generated {catalog['generated']} by "
              "contrib/issuer-catalog/tools/bundle_certificates.py; see ISSUER_CATALOG.md.\n")
    with open(OUT, "w") as f:
        f.write(header + "".join(parts))
    print(f"{OUT}: {len(parts)} certificates")


if __name__ == "__main__":
    main()
