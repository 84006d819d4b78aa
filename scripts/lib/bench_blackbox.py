#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Side by side: pinguard `serve --once` and blackbox_exporter probing the same TLS fleet.

    bench_blackbox.py --pinguard BIN --config PINGUARD_YML --blackbox BIN --blackbox-config BB_YML
                      --targets FILE [--rounds 5] [--concurrency 32] [--warm-interval 20]

FILE lists the fleet, one `host:port` a line. Each round runs pinguard once
(`serve --once`, a fresh process: its start-up, probes and policy evaluation)
and a fresh blackbox_exporter that answers one `/probe?module=tls&target=...`
per target, CONCURRENCY requests in flight (one keep-alive connection per
driver thread). Rounds alternate pinguard / blackbox so both see the same load
on the machine. For each process it measures CPU seconds (user + sys: pinguard
from wait4, blackbox from /proc/PID/stat after the last answer), wall time of
the round (pinguard's own round duration; blackbox from the first request to
the last answer) and peak RSS (pinguard's ru_maxrss, blackbox's VmHWM). Prints
each round, the medians and the ratios pinguard/blackbox, then the memory of
blackbox after its last round and of the live pinguard service after its
first round over the fleet, split into anonymous and file-backed pages. Asserts nothing; it
reports probes that did not succeed, since a failed probe costs less.

Then the warm comparison, start-up excluded on both sides: the live pinguard service (`serve`, interval
--warm-interval seconds) and its CPU from the end of one round to the end of the next (the round's probes,
judging, state and the /metrics refresh that follows), read from /proc/PID/stat when the service tells
its notify socket the round ended, ROUNDS rounds after the first; and one blackbox_exporter process
answering the fleet's /probe once to warm up, then ROUNDS times, CPU per pass. And start-up alone: the CPU
of `pinguard --version` (process and libraries) and of `check-config` of a one-target copy of the config
(that plus loading the policies, the bundled issuer catalog, CT log lists and public suffix list), median of 10.
"""
import argparse
import concurrent.futures
import http.client
import os
import socket
import statistics
import subprocess
import threading
import time
import urllib.parse

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_pinguard(binary, config):
    """Runs pinguard as a direct child so wait4 gives its own rusage."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        out = os.open(config + ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(devnull, 2)
        os.execv(binary, [binary, "serve", "--once", "--config", config])
    _, status, ru = os.wait4(pid, 0)
    with open(config + ".out") as f:
        lines = f.read().strip().splitlines()
    summary = lines[-1] if lines else f"exit {status}"
    round_s = float(summary.split(" in ")[1].split("s:")[0]) if " in " in summary else float("nan")
    failed = summary.split(" probes failed")[0].rsplit(" ", 1)[-1] if " probes failed" in summary else "?"
    return {"cpu": ru.ru_utime + ru.ru_stime, "wall": round_s, "rss": ru.ru_maxrss / 1024,
            "failed": failed, "note": summary}


def proc_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def proc_memory(pid):
    """VmHWM, VmRSS, RssAnon and RssFile of PID in MiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
                out[key] = int(line.split()[1]) / 1024
    return out


def memory_line(m):
    return (f"peak {m['VmHWM']:.1f} MiB, resident {m['VmRSS']:.1f} MiB "
            f"(anonymous {m['RssAnon']:.1f}, file-backed: code and libraries {m['RssFile']:.1f})")


def pinguard_steady(binary, config, n):
    """The live service after its first round over the fleet: memory once it has idled 5 s."""
    port = free_port()
    live = config + ".live.yml"
    with open(config) as f, open(live, "w") as out:
        for line in f:
            out.write(f'listen: "127.0.0.1:{port}"\n' if line.startswith("listen:") else line)
    p = subprocess.Popen([binary, "serve", "--config", live], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/-/ready")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        time.sleep(5)
        return proc_memory(p.pid)
    finally:
        p.terminate()
        p.wait()


def wait_for_port(port):
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)


def drive_probes(port, targets, concurrency, spacing=0.0):
    """One /probe per target, CONCURRENCY in flight (each started SPACING seconds after the one before);
    returns the targets whose probe did not succeed."""
    local = threading.local()
    failures = []

    def probe(target):
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        query = urllib.parse.urlencode({"module": "tls", "target": target})
        local.conn.request("GET", f"/probe?{query}")
        body = local.conn.getresponse().read().decode()
        if "\nprobe_success 1" not in body:
            failures.append(target)

    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        if spacing <= 0:
            list(pool.map(probe, targets))
            return failures
        start = time.monotonic()
        futures = []
        for k, target in enumerate(targets):
            time.sleep(max(0.0, start + k * spacing - time.monotonic()))
            futures.append(pool.submit(probe, target))
        for f in futures:
            f.result()
    return failures


def run_blackbox(binary, config, targets, concurrency):
    port = free_port()
    p = subprocess.Popen([binary, f"--config.file={config}", f"--web.listen-address=127.0.0.1:{port}",
                          "--log.level=error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        start = time.monotonic()
        failures = drive_probes(port, targets, concurrency)
        wall = time.monotonic() - start
        cpu, memory = proc_cpu(p.pid), proc_memory(p.pid)
    finally:
        p.terminate()
        p.wait()
    return {"cpu": cpu, "wall": wall, "rss": memory["VmHWM"], "memory": memory, "failed": str(len(failures)), "note": ""}


def show(name, r, n):
    print(f"  {name:9} CPU {r['cpu']:.2f} s ({r['cpu'] / n * 1000:.3f} ms/probe), round {r['wall']:.2f} s, "
          f"peak RSS {r['rss']:.1f} MiB, failed {r['failed']} {r['note']}".rstrip(), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pinguard", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--blackbox", required=True)
    ap.add_argument("--blackbox-config", required=True)
    ap.add_argument("--targets", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--warm-interval", type=int, default=20)
    ap.add_argument("--skip-cold", action="store_true", help="only the warm comparison and start-up")
    args = ap.parse_args()
    with open(args.targets) as f:
        targets = [line.strip() for line in f if line.strip()]
    n = len(targets)
    if not args.skip_cold:
        cold(args, targets, n)
    from bench_warm import warm  # noqa: E402 (it imports this module's helpers)
    warm(args, targets, n)


def cold(args, targets, n):
    """The cold comparison: a fresh pinguard `serve --once` against a fresh blackbox_exporter, ROUNDS each."""
    results = {"pinguard": [], "blackbox": []}
    for i in range(args.rounds):
        print(f"round {i + 1}/{args.rounds}", flush=True)
        r = run_pinguard(args.pinguard, args.config)
        show("pinguard", r, n)
        results["pinguard"].append(r)
        r = run_blackbox(args.blackbox, args.blackbox_config, targets, args.concurrency)
        show("blackbox", r, n)
        results["blackbox"].append(r)
    if args.rounds == 0:
        return
    med = {k: {m: statistics.median(r[m] for r in v) for m in ("cpu", "wall", "rss")} for k, v in results.items()}
    rng = {k: {m: (min(r[m] for r in v), max(r[m] for r in v)) for m in ("cpu", "wall", "rss")} for k, v in results.items()}
    print(f"medians of {args.rounds} rounds, {n} targets, concurrency {args.concurrency}:")
    for k in ("pinguard", "blackbox"):
        c, w, s = med[k]["cpu"], med[k]["wall"], med[k]["rss"]
        lo, hi = rng[k]["cpu"]
        print(f"  {k:9} CPU per probe {c / n * 1000:.3f} ms ({lo / n * 1000:.3f}-{hi / n * 1000:.3f}), "
              f"round {w:.2f} s ({rng[k]['wall'][0]:.2f}-{rng[k]['wall'][1]:.2f}), "
              f"peak RSS {s:.1f} MiB ({rng[k]['rss'][0]:.1f}-{rng[k]['rss'][1]:.1f})")
    p, b = med["pinguard"], med["blackbox"]
    print(f"ratios pinguard/blackbox: CPU per probe {p['cpu'] / b['cpu']:.2f}x, round wall {p['wall'] / b['wall']:.2f}x, "
          f"peak RSS {p['rss'] / b['rss']:.2f}x")
    print("memory after a round:")
    print(f"  blackbox  (the last round's process) {memory_line(results['blackbox'][-1]['memory'])}")
    print(f"  pinguard  (serve, live, after its first round and 5 s) {memory_line(pinguard_steady(args.pinguard, args.config, n))}")


if __name__ == "__main__":
    main()
