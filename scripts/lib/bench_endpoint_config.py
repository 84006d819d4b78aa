#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write the configuration scripts/bench-endpoint.sh serves: a large /metrics exposition.

    bench_endpoint_config.py WORK_DIR CLOSED_PORT LISTEN_PORT

20 policy sets covering **.pinguard.test (3 pins each) in WORK_DIR/wide/, and
WORK_DIR/pinguard.yml with 1,500 targets (long names) on CLOSED_PORT of
127.0.0.1, listening on LISTEN_PORT.
"""
import argparse
import base64
import os


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work")
    parser.add_argument("closed", type=int)
    parser.add_argument("port", type=int)
    a = parser.parse_args()
    os.makedirs(f"{a.work}/wide", exist_ok=True)
    for s in range(20):
        pins = "".join(
            f"\n            - {{type: spki, hash: \"{base64.b64encode(bytes([s * 3 + i + 1]) * 32).decode()}\", "
            f"role: {'primary' if i == 0 else 'backup'}}}" for i in range(3))
        with open(f"{a.work}/wide/wide-{s}.yml", "w", encoding="utf-8") as f:
            f.write(f"name: wide-{s}\nenvironments:\n  prod:\n    policies:\n      - pattern: \"**.pinguard.test\"\n"
                    f"        policy:\n          pins:{pins}\n")
    targets = "".join(f"  - {{name: t{i}-{'x' * 120}, host: t{i}.pinguard.test, port: {a.closed}, connect: 127.0.0.1}}\n"
                      for i in range(1500))
    with open(f"{a.work}/pinguard.yml", "w", encoding="utf-8") as f:
        f.write(f'listen: "127.0.0.1:{a.port}"\ninterval: 1h\ntimeout: 1s\nconcurrency: 64\nenvironment: prod\n'
                f'policies: ["wide/*.yml"]\njournal: {{enabled: false}}\ntargets:\n{targets}')


if __name__ == "__main__":
    main()
