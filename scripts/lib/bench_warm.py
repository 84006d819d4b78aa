#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The warm side of scripts/lib/bench_blackbox.py: the live pinguard service against a warm blackbox_exporter,
start-up excluded on both sides, and start-up alone. See bench_blackbox.py for the method."""
import os
import socket
import statistics
import subprocess

from bench_blackbox import drive_probes, free_port, proc_cpu, wait_for_port


def warm_config(config, port, interval, targets=None):
    """A copy of CONFIG listening on PORT with interval INTERVAL seconds (and only the first TARGETS targets)."""
    out_path = f"{config}.{port}.yml"
    with open(config) as f, open(out_path, "w") as out:
        kept = 0
        for line in f:
            if line.startswith("listen:"):
                line = f'listen: "127.0.0.1:{port}"\n'
            elif line.startswith("interval:"):
                line = f"interval: {interval}s\n"
            elif line.startswith("  - {host:"):
                kept += 1
                if targets is not None and kept > targets:
                    continue
            out.write(line)
    return out_path


def pinguard_warm(binary, config, rounds, interval):
    """CPU seconds of each round of the live service after its first: end of a round to the end of the next."""
    live = warm_config(config, free_port(), interval)
    path = live + ".notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(interval * 4 + 120)
    p = subprocess.Popen([binary, "serve", "--config", live], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, "NOTIFY_SOCKET": path})
    ends = []
    try:
        while len(ends) < rounds + 1:
            if "STATUS=last round" in sock.recv(65536).decode("utf-8", "replace"):
                ends.append(proc_cpu(p.pid))
    except socket.timeout:
        pass
    finally:
        p.terminate()
        p.wait()
        sock.close()
        os.unlink(path)
    return [b - a for a, b in zip(ends, ends[1:])]


def blackbox_warm(binary, config, targets, concurrency, rounds, spacing=0.0):
    """CPU seconds of each pass over the fleet of one blackbox_exporter process, after a pass to warm it up; with
    SPACING, the requests start that many seconds apart, as pinguard spreads a round's probes (and as a
    Prometheus spreads its scrapes of /probe targets over the scrape interval)."""
    port = free_port()
    p = subprocess.Popen([binary, f"--config.file={config}", f"--web.listen-address=127.0.0.1:{port}",
                          "--log.level=error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        cpus = []
        for i in range(rounds + 1):
            before = proc_cpu(p.pid)
            drive_probes(port, targets, concurrency, spacing if i > 0 else 0.0)
            if i > 0:
                cpus.append(proc_cpu(p.pid) - before)
        return cpus
    finally:
        p.terminate()
        p.wait()


def startup(binary, config, runs=10):
    """Median CPU seconds of `--version` and of `check-config` of a one-target copy of CONFIG."""
    one = warm_config(config, free_port(), 300, targets=1)

    def cpu(args):
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.execv(binary, [binary] + args)
        _, _, ru = os.wait4(pid, 0)
        return ru.ru_utime + ru.ru_stime
    return (statistics.median(cpu(["--version"]) for _ in range(runs)),
            statistics.median(cpu(["check-config", one]) for _ in range(runs)))


def warm(args, targets, n):
    """The warm comparison and start-up alone."""
    rounds = max(args.rounds, 1)
    # pinguard starts a round's probes evenly over half the interval (at most 250 ms apart).
    spacing = min(args.warm_interval * 0.5 / n, 0.25)
    p = pinguard_warm(args.pinguard, args.config, rounds, args.warm_interval)
    b = blackbox_warm(args.blackbox, args.blackbox_config, targets, args.concurrency, rounds)
    bs = blackbox_warm(args.blackbox, args.blackbox_config, targets, args.concurrency, rounds, spacing)
    per = lambda cpus: ", ".join(f"{c / n * 1000:.3f}" for c in cpus)
    print(f"warm, start-up excluded: {rounds} rounds after the first, {n} targets, CPU per probe (ms)")
    print(f"  pinguard  serve, a round every {args.warm_interval} s (probes {spacing * 1000:.1f} ms apart): {per(p)}")
    print(f"  blackbox  one process, /probe, concurrency {args.concurrency}, in one burst: {per(b)}")
    print(f"  blackbox  the same, requests {spacing * 1000:.1f} ms apart as pinguard spreads its probes: {per(bs)}")
    for name, other in (("in one burst", b), ("spread alike", bs)):
        if p and other:
            print(f"ratio pinguard/blackbox, warm, blackbox {name}: CPU per probe "
                  f"{statistics.median(p) / statistics.median(other):.2f}x "
                  f"(medians {statistics.median(p) / n * 1000:.3f} / {statistics.median(other) / n * 1000:.3f} ms)")
    version, check = startup(args.pinguard, args.config)
    print(f"start-up alone (CPU, median of 10): pinguard --version {version * 1000:.1f} ms, "
          f"check-config of one target {check * 1000:.1f} ms")
