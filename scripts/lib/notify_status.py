#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Stand in for systemd's notify socket and print every STATUS= line a service sends.

    notify_status.py SOCKET OUT

Binds a datagram socket at SOCKET (start the service with NOTIFY_SOCKET=SOCKET) and appends each STATUS=
text it receives to OUT, one line each, flushed at once, until killed. The benchmarks read the round
figures pinguard tells systemd (what `systemctl status pinguard` shows) from OUT.
"""
import socket
import sys


def main():
    path, out = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    with open(out, "a", encoding="utf-8") as f:
        while True:
            data = sock.recv(65536).decode("utf-8", "replace")
            for line in data.split("\n"):
                if line.startswith("STATUS="):
                    f.write(line[len("STATUS="):] + "\n")
                    f.flush()


if __name__ == "__main__":
    main()
