#!/usr/bin/env python3
"""Check that an example pinguard.yml uses only known configuration keys.

    example_config_keys_check.py CONFIG_YML

For contrib/systemd/pinguard.yml: every top-level key and every target key is
one of the configuration keys (docs/reference.md, Configuration), every target
has a host, there is at least one target, and no two targets share a name (a
target's name defaults to HOST:PORT, port 443). This needs PyYAML (Debian
python3-yaml); pinguard's own `check-config` checks values and files.

Prints one line per problem; exits 1 if there is any, 0 otherwise.
"""
import argparse
import sys

import yaml

TOP = {"listen", "interval", "timeout", "concurrency", "environment", "trust",
       "expiry_warning_days", "policies", "journal", "targets"}
TARGET = {"host", "port", "connect", "environment", "name", "policy_sets"}


def problems(doc):
    if not isinstance(doc, dict):
        return ["the document is not a mapping"]
    errors = [f"unknown key {k}" for k in doc if k not in TOP]
    targets = doc.get("targets") or []
    for i, t in enumerate(targets):
        if not isinstance(t, dict):
            errors.append(f"targets[{i}]: not a mapping")
            continue
        errors += [f"targets[{i}]: unknown key {k}" for k in t if k not in TARGET]
        if "host" not in t:
            errors.append(f"targets[{i}]: no host")
    names = [t.get("name") or f"{t.get('host')}:{t.get('port', 443)}" for t in targets if isinstance(t, dict)]
    errors += [f"duplicate target name {n}" for n in set(names) if names.count(n) > 1]
    if not names:
        errors.append("no targets")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", metavar="CONFIG_YML")
    args = parser.parse_args()
    try:
        with open(args.config, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        sys.exit(f"cannot read {args.config} as YAML: {e}")
    errors = problems(doc)
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
