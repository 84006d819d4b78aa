#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Time one probe round of `pinguard serve --once` and print its figures.

    bench_probe_round.py PINGUARD CONFIG TARGETS [--addresses N] [--hosts FILE]

Runs PINGUARD serve --once --config CONFIG (a config with TARGETS targets,
written by scripts/bench.sh) and prints one line: the round's duration as
pinguard reports it on its last stdout line ("... in N.NNs: ..."), probes per
second, the process's wall time, CPU time (total and per probe), peak RSS, the
exit status and pinguard's summary line. Asserts nothing; always exits 0.
With --addresses N the per-probe figures count N address probes; with --hosts
FILE pinguard runs under scripts/with-journald.sh --no-journal --hosts FILE, so
the config's names resolve through FILE (one exec chain: the usage is pinguard's).
"""
import os
import argparse
import resource
import subprocess
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", metavar="PINGUARD")
    parser.add_argument("config", metavar="CONFIG")
    parser.add_argument("targets", metavar="TARGETS", type=int)
    parser.add_argument("--addresses", type=int, help="address probes in the round (default: TARGETS)")
    parser.add_argument("--hosts", help="hosts file to resolve the names with")
    args = parser.parse_args()
    n = args.addresses or args.targets
    command = [args.binary, "serve", "--once", "--config", args.config]
    if args.hosts:
        wrapper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "with-journald.sh")
        command = [wrapper, "--no-journal", "--hosts", args.hosts] + command

    t0 = time.monotonic()
    p = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - t0
    # This script starts one child, so the children's usage is pinguard's.
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()
    round_s = float(summary.split(" in ")[1].split("s:")[0]) if " in " in summary else float("nan")
    cpu = ru.ru_utime + ru.ru_stime
    print(f"  round {round_s:.2f} s ({n / round_s:.0f} probes/s), process wall {wall:.2f} s, "
          f"CPU {cpu:.2f} s ({cpu / n * 1000:.2f} ms/probe), peak RSS {ru.ru_maxrss / 1024:.1f} MiB, "
          f"exit {p.returncode}: {summary}")


if __name__ == "__main__":
    main()
