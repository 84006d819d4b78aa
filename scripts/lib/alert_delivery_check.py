#!/usr/bin/env python3
"""Checks what reached people in the alert delivery test: the notifications a webhook recorded.

    alert_delivery_check.py NOTIFICATIONS_JSONL EXPECTED_JSON PROMETHEUS_ALERTS_JSON

EXPECTED_JSON: {"healthy": [TARGET...], "problems": {TARGET: [{"alertname", "severity", "policy_set",
"receivers": [...], "contains": [TEXT...], "absent": [TEXT...]}...]}, "inhibited": {TARGET: ALERTNAME}}. Checks: no notification
concerns a healthy target; each problem target fired exactly the expected alerts (one per app with a problem);
each alert reached exactly its receivers (its app's team and the operators), and each receiver got one
notification for the target (so a problem whose words change, as p-risk's do, is not sent again) and no
resolve; the alert's summary and action carry the expected concrete values; each alert
listed under "inhibited" fires in Prometheus (PROMETHEUS_ALERTS_JSON, /api/v1/alerts) yet reached no one.
Prints PASS/FAIL lines and "N passed, M failed".
"""
import json
import sys


def main():
    notes = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
    want = json.load(open(sys.argv[2], encoding="utf-8"))
    passed = failed = 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        print(("PASS  " if ok else "FAIL  ") + name)
        if not ok and detail:
            print("      " + str(detail)[:1500])
        passed, failed = passed + ok, failed + (not ok)

    by_target, sent, resolved = {}, {}, {}
    for n in notes:
        body = n["body"]
        targets = set()
        for a in body["alerts"]:
            if a["status"] == "resolved":
                resolved.setdefault(a["labels"].get("target", ""), []).append(a["labels"].get("alertname"))
            if a["status"] != "firing" or not a["labels"].get("alertname", "").startswith("Pinguard"):
                continue
            t = a["labels"].get("target", "")
            targets.add(t)
            by_target.setdefault(t, []).append((body["receiver"], a))
        for t in targets:
            sent[(body["receiver"], t)] = sent.get((body["receiver"], t), 0) + 1
    for t in want["healthy"]:
        check(f"healthy {t} reaches nobody", t not in by_target, [a["labels"] for _, a in by_target.get(t, [])])
    for t, alerts in want["problems"].items():
        got = by_target.get(t, [])
        key = lambda a: (a["alertname"], a["severity"], a.get("policy_set", ""))
        names = sorted({key(a["labels"]) for _, a in got})
        check(f"{t}: one alert per app with a problem ({', '.join('/'.join(k) for k in sorted(map(key, alerts)))})",
              names == sorted(map(key, alerts)), names)
        check(f"{t}: nothing resolves while the problem lasts", not resolved.get(t), resolved.get(t))
        every = sorted({r for w in alerts for r in w["receivers"]})
        counts = {r: n for (r, target), n in sent.items() if target == t}
        check(f"{t}: one notification to each of {', '.join(every)}", counts == {r: 1 for r in every}, counts)
        for w in alerts:
            mine = [(r, a) for r, a in got if key(a["labels"]) == key(w)]
            receivers = sorted({r for r, _ in mine})
            check(f"{t}: {w['alertname']} of {w.get('policy_set') or 'the certificate'} reaches {', '.join(sorted(w['receivers']))}",
                  receivers == sorted(w["receivers"]), receivers)
            text = " ".join(a["annotations"].get("summary", "") + " " + a["annotations"].get("action", "") for _, a in mine)
            missing = [c for c in w["contains"] if c not in text]
            wrong = [c for c in w.get("absent", []) if c in text]
            check(f"{t}: {w['alertname']} says what is wrong and what to do with the concrete values", mine and not missing and not wrong,
                  f"missing {missing}, misleading {wrong} in: {text}")
    firing = json.load(open(sys.argv[3], encoding="utf-8"))["data"]["alerts"]
    for t, name in want.get("inhibited", {}).items():
        fired = [a for a in firing if a["labels"].get("target") == t and a["labels"]["alertname"] == name and a["state"] == "firing"]
        reached = [a for _, a in by_target.get(t, []) if a["labels"]["alertname"] == name]
        check(f"{t}: {name} fires in Prometheus and is inhibited by the same app's critical alert", fired and not reached,
              f"firing in Prometheus: {len(fired)}, notified: {len(reached)}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
