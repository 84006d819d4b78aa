#!/usr/bin/env bash
# Checks everything pinguard ships for Prometheus and Grafana, without a running
# service:
#   - contrib/prometheus/prometheus.yml parses, with the rule files it names;
#   - the recording and alert rules parse, and their promtool unit tests pass;
#   - every alert has a severity and summary/description/runbook annotations,
#     a runbook entry in docs/prometheus.md, and a unit test where it fires and
#     one where it stays quiet;
#   - dashboards/pinguard.json: datasource variable used by every panel, a
#     description and a unit on every panel, every PromQL expression parses;
#   - every pinguard_* metric name used anywhere above is one pinguard exports
#     (contrib/prometheus/exported-metrics.txt, checked against SPEC §5 when
#     shared/SPEC.md is next to the repository).
# Exits non-zero if any check fails; the last line is "N passed, M failed".
set -u -o pipefail

cd "$(dirname "$0")/.."
PROM=contrib/prometheus
DASHBOARD=dashboards/pinguard.json
METRICS=$PROM/exported-metrics.txt
DOCS=docs/prometheus.md

passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME COMMAND...: runs COMMAND, prints its output indented, counts the result.
check() {
    local name=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then
        passed=$((passed + 1))
        echo "PASS  $name"
    else
        failed=$((failed + 1))
        echo "FAIL  $name"
    fi
    sed 's/^/      /' "$tmp/out"
}

if ! command -v promtool >/dev/null 2>&1; then
    echo "promtool not found; installing the Debian prometheus package"
    apt-get install -y prometheus >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; }
fi
if ! command -v promtool >/dev/null 2>&1; then
    echo "FAIL  promtool is not available"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "using $(promtool --version 2>&1 | head -n 1)"

# --- Prometheus configuration and rules ------------------------------------
check "promtool check config $PROM/prometheus.yml" \
    promtool check config "$PROM/prometheus.yml"
for f in "$PROM"/pinguard.rules.yml "$PROM"/pinguard.alerts.yml; do
    check "promtool check rules $f" promtool check rules "$f"
done
for f in "$PROM"/tests/*.yml; do
    check "promtool test rules $f" promtool test rules "$f"
done

# --- Alert conventions and test coverage -----------------------------------
# The rule and test files are plain, consistently indented YAML; they are read
# line by line so that this script needs nothing beyond python3's stdlib.
check "alerts: severity, annotations, runbook docs, firing and quiet tests" \
    python3 - "$PROM/pinguard.alerts.yml" "$DOCS" "$PROM"/tests/*.yml <<'EOF'
import re, sys

alerts_file, docs_file, *tests = sys.argv[1:]
required = {
    "PinguardClientWouldReject", "PinguardPinBreakageSoon", "PinguardPinBreakageImminent",
    "PinguardNoReservePin", "PinguardBackupPinInUse", "PinguardCertificateExpiringSoon",
    "PinguardChainUntrusted", "PinguardProbeFailing", "PinguardResultsStale",
    "PinguardConfigReloadFailed", "PinguardBackupPinCoverageLow",
}
errors = []

blocks = re.split(r"(?m)^\s*- (?=alert:|record:)", open(alerts_file).read())[1:]
rules = []
for b in blocks:
    m = re.match(r"alert:\s*(\S+)", b)
    if not m:
        continue
    name = m.group(1)
    sev = re.search(r"(?m)^\s*severity:\s*(\S+)", b)
    if not sev or sev.group(1) not in ("critical", "warning", "info"):
        errors.append(f"{name}: severity label missing or not critical/warning/info")
    for key in ("summary", "description", "runbook"):
        a = re.search(rf'(?m)^\s*{key}:\s*"(.+)"\s*$', b)
        if not a or not a.group(1).strip():
            errors.append(f"{name}: annotation {key} missing or empty")
    uses_target = "target" in re.search(r"(?s)expr:(.*?)\n\s*(?:for|labels):", b).group(1)
    if uses_target and "{{ $labels.target }}" not in b:
        errors.append(f"{name}: annotations do not name {{{{ $labels.target }}}}")
    rules.append((name, sev.group(1) if sev else "?"))

names = {n for n, _ in rules}
for n in sorted(required - names):
    errors.append(f"{n}: required alert is missing")

docs = open(docs_file).read() if docs_file else ""
anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
           for h in re.findall(r"(?m)^#+\s+(.+)$", docs)}
for link in sorted(set(re.findall(r"docs/prometheus\.md#([a-z0-9-]+)", open(alerts_file).read()))):
    if link not in anchors:
        errors.append(f"runbook link docs/prometheus.md#{link} has no heading in {docs_file}")

firing, quiet = set(), set()
for t in tests:
    lines = open(t).read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\s*alertname:\s*(\S+)", line)
        if not m:
            continue
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        (quiet if nxt == "exp_alerts: []" else firing).add(m.group(1))
for n in sorted(names):
    if n not in firing:
        errors.append(f"{n}: no unit test where it fires")
    if n not in quiet:
        errors.append(f"{n}: no unit test where it stays quiet")

for n, s in rules:
    print(f"{n} ({s}): firing test {'yes' if n in firing else 'MISSING'}, quiet test {'yes' if n in quiet else 'MISSING'}")
for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
EOF

# --- Dashboard ---------------------------------------------------------------
# Writes every PromQL expression of the dashboard (panel targets and the
# selectors of label_values() variables) to $tmp/dashboard.exprs, one JSON
# string per line, for the parse and metric-name checks below.
check "dashboard $DASHBOARD: datasource variable, descriptions, units" \
    python3 - "$DASHBOARD" "$tmp/dashboard.exprs" <<'EOF'
import json, re, sys

path, out = sys.argv[1:]
d = json.load(open(path))
errors = []
DS = "${datasource}"

variables = {v["name"]: v for v in d.get("templating", {}).get("list", [])}
ds = variables.get("datasource")
if not ds or ds.get("type") != "datasource" or ds.get("query") != "prometheus":
    errors.append("no template variable `datasource` of type datasource / prometheus")

def uses_ds(obj):
    x = obj.get("datasource")
    return isinstance(x, dict) and x.get("uid") == DS or x == DS

exprs = []
for name, v in variables.items():
    if v.get("type") != "query":
        continue
    if not uses_ds(v):
        errors.append(f"variable {name}: datasource is not {DS}")
    q = v.get("query")
    q = q.get("query", "") if isinstance(q, dict) else (q or "")
    m = re.fullmatch(r"\s*label_values\((.*),\s*\w+\s*\)\s*", q, re.S)
    if m:
        exprs.append((f"variable {name}", m.group(1)))
    elif not re.fullmatch(r"\s*label_values\(\s*\w+\s*\)\s*", q):
        exprs.append((f"variable {name}", q))

def walk(panels):
    for p in panels:
        yield p
        yield from walk(p.get("panels", []))

count = 0
for p in walk(d.get("panels", [])):
    count += 1
    title = f'panel "{p.get("title", "?")}"'
    if not uses_ds(p):
        errors.append(f"{title}: datasource is not {DS}")
    if not p.get("description", "").strip():
        errors.append(f"{title}: no description")
    if p.get("type") == "row":
        continue
    fc = p.get("fieldConfig", {})
    units = [fc.get("defaults", {}).get("unit")] + [
        pr["value"] for o in fc.get("overrides", []) for pr in o.get("properties", [])
        if pr.get("id") == "unit"]
    if not any(units):
        errors.append(f"{title}: no unit")
    targets = p.get("targets", [])
    if not targets:
        errors.append(f"{title}: no query")
    for t in targets:
        if not uses_ds(t):
            errors.append(f"{title} query {t.get('refId')}: datasource is not {DS}")
        if not t.get("expr", "").strip():
            errors.append(f"{title} query {t.get('refId')}: empty expr")
        exprs.append((f"{title} query {t.get('refId')}", t.get("expr", "")))

with open(out, "w") as f:
    for where, e in exprs:
        f.write(json.dumps([where, e]) + "\n")
print(f"{count} panels, {len(exprs)} expressions, variables: {', '.join(variables)}")
for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
EOF

# Grafana variables become plain values so that promtool can parse the
# expressions: interval macros a duration, everything else a regex.
check "dashboard PromQL parses (promtool check rules)" \
    python3 - "$tmp/dashboard.exprs" "$tmp/dashboard.rules.yml" <<'EOF'
import json, re, subprocess, sys

src, out = sys.argv[1:]
macros = {"__rate_interval": "5m", "__interval": "5m", "__range": "5m",
          "__range_s": "300", "__range_ms": "300000", "__interval_ms": "300000"}

def subst(expr):
    def repl(m):
        name = m.group(1) or m.group(2) or m.group(3)
        return macros.get(name, ".*")
    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]", repl, expr)

rows = [json.loads(l) for l in open(src)]
with open(out, "w") as f:
    f.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, (where, expr) in enumerate(rows):
        f.write(f"      # {where}\n")
        f.write(f"      - record: dashboard:expr_{i}\n")
        f.write(f"        expr: {json.dumps(subst(expr))}\n")
r = subprocess.run(["promtool", "check", "rules", out], capture_output=True, text=True)
print(r.stdout + r.stderr, end="")
if r.returncode != 0:
    for i, (where, expr) in enumerate(rows):
        print(f"expr_{i}: {where}: {subst(expr)}")
sys.exit(r.returncode)
EOF

# --- Metric names --------------------------------------------------------------
check "every pinguard_* metric used is exported (exported-metrics.txt)" \
    python3 - "$METRICS" "$tmp/dashboard.exprs" "$DOCS" "$PROM"/pinguard.rules.yml \
    "$PROM"/pinguard.alerts.yml "$PROM"/tests/*.yml <<'EOF'
import json, re, sys

metrics_file, exprs_file, *files = sys.argv[1:]
exported = [l.strip() for l in open(metrics_file) if l.strip() and not l.startswith("#")]
known = set(exported)
name = re.compile(r"(?<![A-Za-z0-9_:])pinguard_[a-z0-9_]*[a-z0-9]")
errors = []
if len(known) != len(exported):
    errors.append(f"{metrics_file}: duplicate lines")
sources = [(f, open(f).read()) for f in files]
sources += [(f"dashboard {w}", e) for w, e in (json.loads(l) for l in open(exprs_file))]
used = {}
for where, text in sources:
    for n in name.findall(text):
        used.setdefault(n, set()).add(where)
for n in sorted(used):
    if n not in known:
        errors.append(f"{n} (in {', '.join(sorted(used[n]))}) is not in {metrics_file}")
print(f"{len(used)} distinct pinguard_* names used, {len(known)} exported")
unused = sorted(known - set(used))
if unused:
    print("exported but unused by rules and dashboard:", ", ".join(unused))
for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
EOF

# SPEC §5 is the contract; it sits in shared/ next to the repository (CI and
# developer machines), so compare when it is there.
spec=""
for s in ../shared/SPEC.md ../../shared/SPEC.md; do
    [ -f "$s" ] && spec=$s && break
done
if [ -n "$spec" ]; then
    check "exported-metrics.txt matches the metric table of $spec §5" \
        python3 - "$METRICS" "$spec" <<'EOF'
import re, sys

metrics_file, spec = sys.argv[1:]
text = open(spec).read()
m = re.search(r"(?ms)^## 5\..*?(?=^## 6\.)", text)
section = m.group(0) if m else ""
in_spec = set()
for line in section.splitlines():
    if line.startswith("| `pinguard_"):
        first = line.split("|")[1]
        in_spec.update(re.findall(r"`(pinguard_\w+)`", first))
listed = {l.strip() for l in open(metrics_file) if l.strip() and not l.startswith("#")}
print(f"SPEC §5 lists {len(in_spec)} metrics, {metrics_file} {len(listed)}")
for n in sorted(in_spec - listed):
    print("error: in SPEC, not in exported-metrics.txt:", n)
for n in sorted(listed - in_spec):
    print("error: in exported-metrics.txt, not in SPEC:", n)
sys.exit(0 if in_spec and in_spec == listed else 1)
EOF
else
    echo "SKIP  comparison with SPEC §5: shared/SPEC.md not found next to the repository"
fi

# The Alertmanager example in the docs, where amtool happens to be installed
# (Debian prometheus-alertmanager); not installed here, it is not needed for the rules.
if command -v amtool >/dev/null 2>&1; then
    python3 - "$DOCS" "$tmp/alertmanager.yml" <<'EOF'
import re, sys
docs, out = sys.argv[1:]
m = re.search(r"(?ms)^## Alertmanager routing.*?^```yaml\n(.*?)^```", open(docs).read())
open(out, "w").write(m.group(1) if m else "")
EOF
    check "amtool check-config on the Alertmanager example in $DOCS" \
        amtool check-config "$tmp/alertmanager.yml"
else
    echo "SKIP  Alertmanager example in $DOCS: amtool not installed"
fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
