#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check the conventions of pinguard's Prometheus alert rules and their test coverage.

    alert_rules_check.py ALERTS_YML DOCS_MD [TEST_YML...]

For every alerting rule in ALERTS_YML (contrib/prometheus/pinguard.alerts.yml):
  - a `severity` label of critical, warning or info;
  - non-empty `summary`, `description`, `action` and `runbook_url` annotations,
    the runbook_url a docs/prometheus.md#anchor link (no `runbook` annotation:
    Alertmanager integrations look for `runbook_url`);
  - every join (`on (...)`) and aggregation (`by (...)`) over target series keeps
    `instance` and `job`, so several pinguard instances never mask each other;
  - annotations that name `{{ $labels.target }}` when the expression uses `target`;
  - a promtool unit test (in the TEST_YML files) where it fires, and one where it
    stays quiet (`exp_alerts: []` right after its `alertname:`).
Also: every alert pinguard must ship is present, and every
`docs/prometheus.md#anchor` runbook link has a heading in DOCS_MD (an empty
DOCS_MD argument skips the documentation lookup, every link then fails).

The rule and test files are plain, consistently indented YAML; they are read
line by line with regular expressions so that only python3's stdlib is needed.
Prints one line per alert and one "error: ..." line per problem; exits 1 if
there is any problem, 0 otherwise.
"""
import argparse
import re
import sys

REQUIRED = {
    "PinguardClientWouldReject", "PinguardNextRenewalBreaksPins", "PinguardClientUpdateBreaksPins", "PinguardRenewalAtRisk",
    "PinguardRenewalOverdue", "PinguardStagedChainWouldBeRejected", "PinguardBackupPinInUse", "PinguardCertificateExpiringSoon",
    "PinguardChainUntrusted", "PinguardProbeFailing", "PinguardResultsStale",
    "PinguardConfigReloadFailed", "PinguardBackupPinCoverageLow", "PinguardPinSetExpiringSoon",
    "PinguardPolicyLintErrors", "PinguardJournalWriteFailures",
}


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        sys.exit(f"error: cannot read {path}: {e.strerror}")


def check_rules(alerts_text, errors):
    """Returns [(alert name, severity)] and appends convention problems to errors."""
    blocks = re.split(r"(?m)^\s*- (?=alert:|record:)", alerts_text)[1:]
    rules = []
    for b in blocks:
        m = re.match(r"alert:\s*(\S+)", b)
        if not m:
            continue
        name = m.group(1)
        sev = re.search(r"(?m)^\s*severity:\s*(\S+)", b)
        if not sev or sev.group(1) not in ("critical", "warning", "info"):
            errors.append(f"{name}: severity label missing or not critical/warning/info")
        for key in ("summary", "description", "action", "runbook_url"):
            a = re.search(rf'(?m)^\s*{key}:\s*"(.+)"\s*$', b)
            if not a or not a.group(1).strip():
                errors.append(f"{name}: annotation {key} missing or empty")
        if re.search(r"(?m)^\s*runbook:", b):
            errors.append(f"{name}: annotation runbook: use runbook_url")
        url = re.search(r'(?m)^\s*runbook_url:\s*"(.*)"', b)
        if url and not re.fullmatch(r"docs/prometheus\.md#[a-z0-9-]+", url.group(1)):
            errors.append(f"{name}: runbook_url {url.group(1)!r} is not a docs/prometheus.md#anchor link")
        # A rule comparing vantage points compares instances on purpose: it aggregates over them.
        compares_instances = re.search(r"\bvantage\b", b.split("annotations:")[0]) is not None
        for grouping in ([] if compares_instances else re.findall(r"\b(?:on|by)\s*\(([^)]*)\)", b)):
            labels = {l.strip() for l in grouping.split(",") if l.strip()}
            if "target" in labels and not {"instance", "job"} <= labels:
                errors.append(f"{name}: ({grouping}) drops instance/job: one instance could mask another")
        expr = re.search(r"(?s)expr:(.*?)\n\s*(?:for|labels):", b)
        if not expr:
            errors.append(f"{name}: no expr followed by for: or labels:")
        elif "target" in expr.group(1) and "{{ $labels.target }}" not in b:
            errors.append(f"{name}: annotations do not name {{{{ $labels.target }}}}")
        rules.append((name, sev.group(1) if sev else "?"))
    return rules


def check_runbook_links(alerts_text, docs_file, errors):
    docs = read(docs_file) if docs_file else ""
    # GitHub's heading anchors: lowercase, punctuation dropped, spaces to dashes.
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"(?m)^#+\s+(.+)$", docs)}
    for link in sorted(set(re.findall(r"docs/prometheus\.md#([a-z0-9-]+)", alerts_text))):
        if link not in anchors:
            errors.append(f"runbook link docs/prometheus.md#{link} has no heading in {docs_file}")


def tested_alerts(tests):
    """Returns (alerts some test expects firing, alerts some test expects quiet)."""
    firing, quiet = set(), set()
    for t in tests:
        lines = read(t).splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"\s*alertname:\s*(\S+)", line)
            if not m:
                continue
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            (quiet if nxt == "exp_alerts: []" else firing).add(m.group(1))
    return firing, quiet


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("alerts", metavar="ALERTS_YML")
    parser.add_argument("docs", metavar="DOCS_MD")
    parser.add_argument("tests", metavar="TEST_YML", nargs="*")
    args = parser.parse_args()

    errors = []
    alerts_text = read(args.alerts)
    rules = check_rules(alerts_text, errors)
    names = {n for n, _ in rules}
    for n in sorted(REQUIRED - names):
        errors.append(f"{n}: required alert is missing")
    check_runbook_links(alerts_text, args.docs, errors)

    firing, quiet = tested_alerts(args.tests)
    for n in sorted(names):
        if n not in firing:
            errors.append(f"{n}: no unit test where it fires")
        if n not in quiet:
            errors.append(f"{n}: no unit test where it stays quiet")

    for n, s in rules:
        print(f"{n} ({s}): firing test {'yes' if n in firing else 'MISSING'}, "
              f"quiet test {'yes' if n in quiet else 'MISSING'}")
    for e in errors:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
