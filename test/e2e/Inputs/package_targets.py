"""Prints what a .mie package holds, one line per fact, for FileCheck: the format version, the shared
weights size, and per target its name, arch, whether it has its own weights section and how many
kernels it lists. Reads the header and manifest only (docs/package-format.md).

usage: package_targets.py PACKAGE.mie [--extract-code FILE [TARGET]]
With --extract-code, also writes the code section (an ELF shared object) of the first target, or of
the one named TARGET, to FILE. Targets of a kind other than cpu also print their kind, format and
host_arch.
"""
import json
import struct
import sys


def main():
    with open(sys.argv[1], "rb") as f:
        header = f.read(128)
        magic, version, _, moff, msize = struct.unpack_from("<8sIIQQ", header)
        assert magic == b"MIEPKG\0\0", magic
        f.seek(moff)
        manifest = json.loads(f.read(msize))
    print(f"header format_version {version}, manifest format_version {manifest['format_version']}")
    print(f"shared weights {manifest['weights']['size']} bytes")
    for t in manifest["targets"]:
        own = t.get("weights")
        weights = f"own weights {own['size']} bytes" if own else "shared weights"
        extra = ""
        if t["kind"] != "cpu":
            extra = f" (kind {t['kind']}, format {t['format']}, host_arch {t.get('host_arch')})"
        print(f"target {t['name']} arch {t['arch']} abi {t['abi_version']}: {weights}, "
              f"{len(t.get('kernels', []))} kernels{extra}")
    if len(sys.argv) in (4, 5) and sys.argv[2] == "--extract-code":
        chosen = [t for t in manifest["targets"] if len(sys.argv) == 4 or t["name"] == sys.argv[4]]
        code = chosen[0]["code"]
        with open(sys.argv[1], "rb") as f, open(sys.argv[3], "wb") as out:
            f.seek(code["offset"])
            out.write(f.read(code["size"]))


if __name__ == "__main__":
    main()
