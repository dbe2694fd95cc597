"""Prints the GPU module table (`mie_gpu_modules`, /work/notes/cuda-contract.md) a cuda target's code
object exports: its magic and count, then per module its format (0 cubin, 1 PTX), size and, for a
cubin, the ELF machine and the SM it was built for. Reads the x86-64 ELF shared object directly: the
symbol from .dynsym, the image pointers from their R_X86_64_RELATIVE relocations.

usage: gpu_modules.py CODE.so
"""
import struct
import sys

R_X86_64_RELATIVE = 8


def main():
    data = open(sys.argv[1], "rb").read()
    assert data[:4] == b"\x7fELF" and data[4] == 2, "not a 64-bit ELF file"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    loads = [struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize) for i in range(phnum)]

    def file_offset(vaddr):
        for kind, _, offset, start, _, filesz, _, _ in loads:
            if kind == 1 and start <= vaddr < start + filesz:
                return offset + vaddr - start
        raise ValueError(f"address {vaddr:#x} is not in the file")

    symbols, relocations = {}, {}
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind == 11:  # SHT_DYNSYM
            strtab = sections[link]
            for i in range(size // entsize):
                name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, offset + i * entsize)
                end = data.index(b"\0", strtab[4] + name)
                symbols[data[strtab[4] + name:end].decode()] = value
        if kind == 4:  # SHT_RELA
            for i in range(size // entsize):
                where, info, addend = struct.unpack_from("<QQq", data, offset + i * entsize)
                if info & 0xFFFFFFFF == R_X86_64_RELATIVE:
                    relocations[where] = addend
    table = symbols["mie_gpu_modules"]
    at = file_offset(table)
    magic, count = struct.unpack_from("<8sq", data, at)
    name = magic.rstrip(b"\0").decode()
    print(f"magic {name} modules {count}")
    for i in range(count):
        entry = table + 16 + 24 * i
        _, size, fmt, _ = struct.unpack_from("<QqiI", data, file_offset(entry))
        image = data[file_offset(relocations[entry]):file_offset(relocations[entry]) + size]
        line = f"module {i}: format {fmt}, {size} bytes"
        if fmt == 0 and image[:4] == b"\x7fELF":
            machine, = struct.unpack_from("<H", image, 18)
            flags, = struct.unpack_from("<I", image, 48)
            line += f", ELF machine {machine}{' (CUDA)' if machine == 190 else ''}, sm_{(flags >> 8) & 0xFF}"
        print(line)


if __name__ == "__main__":
    main()
