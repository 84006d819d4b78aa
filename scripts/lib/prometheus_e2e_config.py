#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the Prometheus config and alert-rule copy for the end-to-end test.

    prometheus_e2e_config.py SRC_DIR DST_DIR PINGUARD_PORT ALERT_FOR [PROBE_TARGET]

From SRC_DIR (contrib/prometheus) writes to DST_DIR:
  - prometheus.yml: the shipped one, its `pinguard` scrape job pointed at
    127.0.0.1:PINGUARD_PORT, scrape and evaluation interval 1s; its
    `pinguard_probe` job (GET /probe, relabelling as shipped) given the static
    target PROBE_TARGET (HOST:PORT) instead of its file_sd, the relabelled
    __address__ pointed at pinguard too, or dropped without PROBE_TARGET. Its rule_files
    must be exactly pinguard.alerts.yml and pinguard.rules.yml, and exist in
    SRC_DIR; they stay as shipped (relative to the config file), so DST_DIR
    must also receive pinguard.rules.yml (the caller copies it unchanged);
  - pinguard.alerts.yml: the shipped alert rules with every `for:` set to
    ALERT_FOR (e.g. 0s), so alerts that wait minutes fire at once; expressions,
    labels and annotations are untouched.
Needs PyYAML (Debian python3-yaml): load, change, dump; no yq.

Prints each changed `for:` and a one-line summary; exits 1 with a one-line
reason when the shipped config is not as expected.
"""
import argparse
import os
import sys

import yaml


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", metavar="SRC_DIR")
    parser.add_argument("dst", metavar="DST_DIR")
    parser.add_argument("port", metavar="PINGUARD_PORT")
    parser.add_argument("alert_for", metavar="ALERT_FOR")
    parser.add_argument("probe_target", metavar="PROBE_TARGET", nargs="?")
    args = parser.parse_args()
    src, dst, port, alert_for = args.src, args.dst, args.port, args.alert_for

    with open(os.path.join(src, "prometheus.yml"), encoding="utf-8") as f:
        cfg = yaml.safe_load(f)
    cfg.setdefault("global", {}).update(scrape_interval="1s", evaluation_interval="1s")
    jobs = [j for j in cfg["scrape_configs"] if j.get("job_name") == "pinguard"]
    if len(jobs) != 1:
        sys.exit("prometheus.yml: expected one scrape job named pinguard")
    job = jobs[0]
    job.update(scrape_interval="1s", scrape_timeout="1s", static_configs=[{"targets": [f"127.0.0.1:{port}"]}])
    probe_jobs = [j for j in cfg["scrape_configs"] if j.get("job_name") == "pinguard_probe"]
    if len(probe_jobs) != 1:
        sys.exit("prometheus.yml: expected one scrape job named pinguard_probe")
    probe = probe_jobs[0]
    if args.probe_target:
        probe.pop("file_sd_configs", None)
        probe.update(scrape_interval="1s", scrape_timeout="1s", static_configs=[{"targets": [args.probe_target]}])
        address = [r for r in probe["relabel_configs"] if r.get("target_label") == "__address__"]
        if len(address) != 1:
            sys.exit("prometheus.yml: pinguard_probe must relabel __address__ to pinguard once")
        address[0]["replacement"] = f"127.0.0.1:{port}"
    else:
        cfg["scrape_configs"].remove(probe)
    missing = [f for f in cfg.get("rule_files", []) if not os.path.exists(os.path.join(src, f))]
    if missing or sorted(cfg.get("rule_files", [])) != ["pinguard.alerts.yml", "pinguard.rules.yml"]:
        sys.exit(f"prometheus.yml: unexpected rule_files {cfg.get('rule_files')}")
    with open(os.path.join(dst, "prometheus.yml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(cfg, f, sort_keys=False)

    with open(os.path.join(src, "pinguard.alerts.yml"), encoding="utf-8") as f:
        alerts = yaml.safe_load(f)
    changed = 0
    for group in alerts["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                if rule.get("for") not in (None, alert_for):
                    print(f"  {rule['alert']}: for {rule['for']} -> {alert_for}")
                rule["for"] = alert_for
                changed += 1
    with open(os.path.join(dst, "pinguard.alerts.yml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(alerts, f, sort_keys=False, width=1000)
    print(f"{changed} alerting rules, `for:` set to {alert_for}; scrape target 127.0.0.1:{port}, intervals 1s")


if __name__ == "__main__":
    main()
