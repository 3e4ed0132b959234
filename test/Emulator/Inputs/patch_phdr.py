"""Rewrites one PT_LOAD program header of a 64-bit little-endian ELF file:
the first loadable segment with (or, given --not, without) the flag
X (executable) or W (writable) gets a new p_memsz and/or p_vaddr."""

import argparse
import struct

PT_LOAD = 1
FLAGS = {"X": 1, "W": 2}

parser = argparse.ArgumentParser()
parser.add_argument("input")
parser.add_argument("output")
parser.add_argument("--flag", choices=FLAGS, required=True)
parser.add_argument("--memsz", type=int)
parser.add_argument("--vaddr", type=int)
args = parser.parse_args()

data = bytearray(open(args.input, "rb").read())
phoff, = struct.unpack_from("<Q", data, 0x20)
phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
for i in range(phnum):
    at = phoff + i * phentsize
    ptype, flags = struct.unpack_from("<II", data, at)
    if ptype != PT_LOAD or not flags & FLAGS[args.flag]:
        continue
    if args.vaddr is not None:
        struct.pack_into("<QQ", data, at + 16, args.vaddr, args.vaddr)
    if args.memsz is not None:
        struct.pack_into("<Q", data, at + 40, args.memsz)
    break
else:
    raise SystemExit("no PT_LOAD segment with flag " + args.flag)
open(args.output, "wb").write(data)
