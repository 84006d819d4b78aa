#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check the Grafana dashboard's conventions and list its PromQL expressions.

    dashboard_check.py DASHBOARD_JSON EXPRS_OUT

Checks dashboards/pinguard.json:
  - a template variable `datasource` of type datasource, query prometheus;
  - every panel, every panel query and every query variable uses ${datasource};
  - every panel has a description; every non-row panel has a unit (default or
    override) and at least one query, and no query has an empty expression.
Writes every PromQL expression (panel targets, and the selectors inside the
label_values() of query variables) to EXPRS_OUT, one JSON array
[where, expression] per line; dashboard_promql_check.py and
metric_names_check.py read that file.

Prints a one-line summary and one "error: ..." line per problem; exits 1 if
there is any problem, 0 otherwise.
"""
import argparse
import json
import re
import sys

DS = "${datasource}"


def uses_ds(obj):
    x = obj.get("datasource")
    return isinstance(x, dict) and x.get("uid") == DS or x == DS


def walk(panels):
    """Every panel, including those nested in collapsed rows."""
    for p in panels:
        yield p
        yield from walk(p.get("panels", []))


def check_variables(variables, errors):
    """Returns the PromQL expressions of the query variables."""
    ds = variables.get("datasource")
    if not ds or ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        errors.append("no template variable `datasource` of type datasource / prometheus")
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
    return exprs


def check_panels(panels, errors):
    """Returns (number of panels, the PromQL expressions of their queries)."""
    count = 0
    exprs = []
    for p in walk(panels):
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
    return count, exprs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dashboard", metavar="DASHBOARD_JSON")
    parser.add_argument("out", metavar="EXPRS_OUT")
    args = parser.parse_args()

    try:
        with open(args.dashboard, encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"error: cannot read {args.dashboard} as JSON: {e}")
    errors = []
    variables = {v["name"]: v for v in d.get("templating", {}).get("list", [])}
    exprs = check_variables(variables, errors)
    count, panel_exprs = check_panels(d.get("panels", []), errors)
    exprs += panel_exprs

    with open(args.out, "w", encoding="utf-8") as f:
        for where, e in exprs:
            f.write(json.dumps([where, e]) + "\n")
    print(f"{count} panels, {len(exprs)} expressions, variables: {', '.join(variables)}")
    for e in errors:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
