#!/usr/bin/env python3
"""A webhook receiver for Alertmanager that records every notification.

    alert_webhook.py PORT OUT_JSONL

Listens on 127.0.0.1:PORT; each POST body (Alertmanager's webhook JSON) is appended to OUT_JSONL as one line
{"receiver_path": PATH, "body": BODY}. Answers 200 to every POST.
"""
import http.server
import json
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(sys.argv[2], "a", encoding="utf-8") as f:
            f.write(json.dumps({"receiver_path": self.path, "body": json.loads(body)}) + "\n")
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
