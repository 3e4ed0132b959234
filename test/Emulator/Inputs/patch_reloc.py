"""Rewrites the type of the first dynamic relocation (in .rela.dyn) of type
FROM to type TO in a 64-bit little-endian ELF file: a relocation a linker
would not have written, for testing what a loader does with it."""

import argparse
import struct

parser = argparse.ArgumentParser()
parser.add_argument("input")
parser.add_argument("output")
parser.add_argument("--from-type", type=int, required=True)
parser.add_argument("--to-type", type=int, required=True)
args = parser.parse_args()

data = bytearray(open(args.input, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)


def section(index):
    at = shoff + index * shentsize
    name, kind, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, at)
    return name, kind, offset, size


names = section(shstrndx)[2]
for i in range(shnum):
    name, kind, offset, size = section(i)
    if data[names + name:].split(b"\0")[0] != b".rela.dyn":
        continue
    for at in range(offset, offset + size, 24):
        info, = struct.unpack_from("<Q", data, at + 8)
        if info & 0xffffffff == args.from_type:
            struct.pack_into("<Q", data, at + 8,
                             (info & ~0xffffffff) | args.to_type)
            open(args.output, "wb").write(data)
            raise SystemExit(0)
raise SystemExit("no relocation of type %d in .rela.dyn" % args.from_type)
