#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print TCP ports that nothing listens on at 127.0.0.1 right now.

    free_port.py [COUNT]

Prints COUNT (default 1) distinct ports, one per line. The kernel picks each
one (bind to port 0); all COUNT sockets are held open together so that the
ports differ, then closed. Another process may still take a port between this
script's exit and its use, so callers start their server at once.
"""
import argparse
import socket


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=1, help="how many distinct ports (default 1)")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("COUNT must be at least 1")
    sockets = []
    try:
        for _ in range(args.count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        for s in sockets:
            print(s.getsockname()[1])
    finally:
        for s in sockets:
            s.close()


if __name__ == "__main__":
    main()
