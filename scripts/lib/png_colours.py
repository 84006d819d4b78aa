#!/usr/bin/env python3
"""Where colours are in a PNG screenshot, with the standard library only.

    png_colours.py PNG RRGGBB...

Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what chromium --screenshot writes) and prints, per colour
given, one line `RRGGBB FIRST_Y COUNT`: the first pixel row holding that colour (within 2 per channel) and the
number of pixels of it; FIRST_Y is -1 when absent. Exits 2 on a PNG it cannot decode.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("png_colours.py: not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                print("png_colours.py: only 8-bit RGB/RGBA, non-interlaced", file=sys.stderr)
                sys.exit(2)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, channels, rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    width, channels, rows = decode(sys.argv[1])
    for hexcolour in sys.argv[2:]:
        want = bytes.fromhex(hexcolour)
        first, count = -1, 0
        for y, row in enumerate(rows):
            for x in range(0, width * channels, channels):
                if all(abs(row[x + k] - want[k]) <= 2 for k in range(3)):
                    count += 1
                    if first < 0:
                        first = y
        print(hexcolour, first, count)


if __name__ == "__main__":
    main()
