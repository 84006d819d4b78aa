#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The status page in a real browser: Debian's chromium, headless, loads `/` and a target page from a running
# `pinguard serve` on the built-in demo, and the test checks the problems, rows and verdicts in the DOM chromium
# built, that the page logs no console error, the screenshot itself (critical rows above warnings, timelines
# drawn in the verdicts' order; kept with KEEP=1), that a hostile subject
# is shown as text, and that basic auth (--web.config.file) guards the page as it guards /metrics.
#
#   PINGUARD=path/to/pinguard scripts/test-status-page.sh
#
# Ends with "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PG=${PINGUARD:?set PINGUARD to the pinguard binary}
. "$here/lib/suite.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then fail "chromium is installed (Debian chromium)"; finish; fi

suite_workdir W pinguard-status
chrome() {  # URL OUT: the DOM chromium built, its console log in OUT.log (the timeout only stops a hung browser)
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --user-data-dir="$W/profile" --enable-logging=stderr --v=0 \
    --dump-dom "$1" > "$2" 2> "$2.log"
}

P=$(port)
"$PG" serve --listen "127.0.0.1:$P" > "$W/demo.out" 2> "$W/demo.err" & track $!
# Up to two minutes: a safety net for a service that never gets ready, not a measure of how fast it does.
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$P/-/ready" > /dev/null && break; sleep 0.2; done

chrome "http://127.0.0.1:$P/" "$W/index.html"
check_that "the page lists the demo's four targets" \
  '(for t in demo-api demo-expiring demo-rotated demo-backup; do grep -q ">$t</a>" "$W/index.html" || exit 1; done)' "$(head -c 3000 "$W/index.html")"
check_that "the problems come first, most urgent first, each with what to do" \
  'python3 - "$W/index.html" <<PY
import re,sys
page=open(sys.argv[1]).read()
problems=page[page.index("<h2>Problems</h2>"):page.index("<h2>Verdicts</h2>")]
rows=re.findall(r"<tr class=\"(\w+)\"><td>\w+</td><td><a[^>]*>([^<]*)</a></td>(.*?)</tr>", problems, re.S)
got=[(sev, t) for sev, t, _ in rows]
assert got[:3]==[("critical","demo-rotated"),("critical","demo-expiring"),("warning","demo-backup")], got
assert "REJECT" not in problems and "what to do" in problems, "a column of actions"
expiring=rows[1][2]
assert "Do not deploy" in expiring and "--reuse-key" in expiring, expiring
assert all(sev in ("critical","warning","upcoming") for sev,_ in got) and [s for s,_ in got]==sorted([s for s,_ in got], key=["critical","warning","upcoming"].index), got
assert not any(t=="demo-api" and sev!="upcoming" for sev,t in got), "the healthy target reaches no one"
verdicts=page[page.index("<h2>Verdicts</h2>"):]
first=re.search(r"<tr class=\"critical\"><td>(.*?)</tr>", verdicts, re.S).group(1)
assert "demo-rotated" in first and "REJECT" in first, first
assert verdicts.count("<svg class=\"timeline\"")>=8, "a timeline per row"
assert "<h2>Staged files</h2>" in page and "expiring-renewal.pem" in page, "staged verdicts shown"
assert "accept (backup pin)" in page, "backup-pin use shown"
PY' "$(grep -o '<tr class=.*' "$W/index.html" | head -8 | cut -c1-300)"
check_that "no console error" '! grep -qiE "CONSOLE.*(error|uncaught)" "$W/index.html.log"' "$(grep -i console "$W/index.html.log")"
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --user-data-dir="$W/profile" --window-size=1400,1400 \
  --screenshot="$W/status-page.png" "http://127.0.0.1:$P/" > /dev/null 2>&1
check_that "a screenshot of the page is taken" '[ -s "$W/status-page.png" ] && head -c 8 "$W/status-page.png" | grep -q PNG'
# The screenshot itself: critical rows (#fbd5d5) above warning rows (#fff0c2); the timelines drawn, with the
# renewal that breaks the iOS app (red #c00000) above the ones at risk (amber #e08a00) and the safe ones
# (green #2a8a2a), and the now mark (#111111).
python3 "$here/lib/png_colours.py" "$W/status-page.png" fbd5d5 fff0c2 c00000 e08a00 2a8a2a 111111 > "$W/colours.txt" 2>&1
check_that "the screenshot shows critical rows above warnings and a timeline per row in the verdicts' order" \
  'python3 - "$W/colours.txt" <<PY
import sys
c={l.split()[0]:(int(l.split()[1]),int(l.split()[2])) for l in open(sys.argv[1])}
crit,warn,red,amber,green,now=(c[k] for k in ("fbd5d5","fff0c2","c00000","e08a00","2a8a2a","111111"))
assert crit[0]>=0 and warn[0]>crit[0], ("critical before warning", crit, warn)
assert red[1]>50 and amber[1]>50 and green[1]>50 and now[1]>50, ("timeline marks drawn", red, amber, green, now)
assert 0<=red[0]<green[0] and amber[0]<green[0], ("breaking renewal above the safe ones", red, amber, green)
PY' "$(cat "$W/colours.txt")"

chrome "http://127.0.0.1:$P/targets/demo-rotated" "$W/target.html"
check_that "the target page shows the chain, the decisions and the probe's log" \
  'grep -q "<h1>demo-rotated</h1>" "$W/target.html" && grep -q "CN=rotated.demo.pinguard.test" "$W/target.html" && grep -q "<h2>Last probe</h2>" "$W/target.html"' \
  "$(head -c 3000 "$W/target.html")"

# A hostile subject: a certificate whose CN is markup, served by openssl s_server and probed as a target.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$W/evil.key" -out "$W/evil.pem" -days 2 \
  -subj "/CN=<script>alert(1)<\/script>" 2> /dev/null
SP=$(port)
openssl s_server -quiet -accept "127.0.0.1:$SP" -cert "$W/evil.pem" -key "$W/evil.key" -www > /dev/null 2>&1 & track $!
mkdir -p "$W/cfg/policies"
cat > "$W/cfg/policies/app.yml" <<YML
name: app
environments:
  prod:
    policies:
      - pattern: "evil.test"
        policy:
          pins:
            - {type: spki, hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", role: primary}
            - {type: spki, hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE=", role: backup}
YML
cat > "$W/cfg/pinguard.yml" <<YML
interval: 1h
journal: {enabled: false}
targets:
  - {host: evil.test, port: $SP, connect: 127.0.0.1, name: evil}
YML
printf 'basic_auth_users:\n  prom: "%s"\n' "$(python3 -c 'import crypt; print(crypt.crypt("pw", "$2b$04$pinguardtestsaltsaltsu"))' 2> /dev/null)" > "$W/web.yml"
Q=$(port)
"$PG" serve --config "$W/cfg/pinguard.yml" --listen "127.0.0.1:$Q" --web.config.file "$W/web.yml" > /dev/null 2> "$W/evil.err" & track $!
for _ in $(seq 600); do [ "$(curl -s -o /dev/null -w '%{http_code}' -u prom:pw "http://127.0.0.1:$Q/-/ready")" = 200 ] && break; sleep 0.2; done
chrome "http://127.0.0.1:$Q/targets/evil" "$W/evil-noauth.html"
check_that "basic auth guards the page (401; chromium loads nothing without credentials)" \
  '[ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$Q/targets/evil")" = 401 ] && ! grep -q "Last probe" "$W/evil-noauth.html" &&
   { grep -q "Unauthorized" "$W/evil-noauth.html" || grep -q "ERR_INVALID_AUTH_CREDENTIALS" "$W/evil-noauth.html.log"; }' \
  "$(head -c 500 "$W/evil-noauth.html"; cat "$W/evil.err")"
chrome "http://prom:pw@127.0.0.1:$Q/targets/evil" "$W/evil.html"
check_that "a subject of <script>alert(1)</script> is shown as text, not run" \
  'grep -q "CN=[\\]*&lt;script[\\]*&gt;alert(1)" "$W/evil.html" && ! grep -qi "<script" "$W/evil.html"' \
  "$(grep -o 'CN=[^<]*' "$W/evil.html" | head -5; head -c 1500 "$W/evil.html")"

[ -n "${KEEP:-}" ] && echo "kept: $W (screenshot: $W/status-page.png)"
finish
