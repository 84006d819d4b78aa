#!/usr/bin/env python3
"""Prints each series of a Prometheus instant-query answer (read on stdin) as one line of JSON labels.

    curl -s .../api/v1/query?query=EXPR | fleet_query.py

Prints nothing for an empty answer or an error (the caller counts lines).
"""
import json
import sys


def main():
    try:
        answer = json.load(sys.stdin)
    except ValueError:
        return
    for series in answer.get("data", {}).get("result", []):
        print(json.dumps(series.get("metric", {}), sort_keys=True))


if __name__ == "__main__":
    main()
