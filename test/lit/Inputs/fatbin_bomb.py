"""Writes a fat binary whose one PTX entry claims a zstd payload that
decodes to 0xF0000000 bytes (3.75 GiB), in a stream of a few bytes: a valid
zstd frame header declaring that content size, then one empty raw block.
A reader that believes the claim allocates 3.75 GiB (bad-input-fatbin-bomb)."""
import struct
import sys

CLAIM = 0xF0000000
# zstd frame: magic; descriptor 0x80 (4-byte content size, a window
# descriptor); window descriptor; content size; last raw block of 0 bytes.
frame = struct.pack("<IBBI", 0xFD2FB528, 0x80, 0x58, CLAIM) + bytes([1, 0, 0])
payload = frame + bytes(-len(frame) % 8)
options = b"\0" * 8
header = struct.pack(
    "<HHIQIIHHIIIQQQ",
    1, 0x0101, 64 + 16, len(payload),  # kind PTX, version, header, payload
    len(frame), 64,                     # compressed size, options block
    0, 9, 90,                           # ISA 9.0, sm_90
    0, 0,                               # no identifier
    0x11 | 0x8000, 0, CLAIM)            # 64-bit Linux, zstd; decoded size
header += struct.pack("<II", 64 + 8, 0) + options
entries = header + payload
container = struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entries)) + entries
open(sys.argv[1], "wb").write(container)
