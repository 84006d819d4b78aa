#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print a bcrypt hash of PASSWORD made by libxcrypt (the library pinguard verifies with).

    bcrypt_hash.py PASSWORD [COST]
"""
import argparse
import ctypes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("password")
    parser.add_argument("cost", type=int, nargs="?", default=10)
    a = parser.parse_args()
    lib = ctypes.CDLL("libcrypt.so.1")
    lib.crypt_gensalt.restype = ctypes.c_char_p
    lib.crypt.restype = ctypes.c_char_p
    print(lib.crypt(a.password.encode(), lib.crypt_gensalt(b"$2y$", a.cost, None, 0)).decode())


if __name__ == "__main__":
    main()
