"""Rewrites a package's manifest with one Python statement applied to it and recomputes the manifest's
SHA-256, as someone editing a package by hand would: the package stays valid as a file, only its facts
change. The manifest must still fit before the first section.

Usage: tamper_manifest.py IN.mie OUT.mie "STATEMENT"   (the manifest is `m`, e.g. "m['outputs'][0]['shape'] = [1, 1]")
"""
import hashlib
import json
import struct
import sys

src, dst, statement = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
offset, size = struct.unpack_from("<QQ", data, 16)
m = json.loads(data[offset:offset + size])
exec(statement)
text = json.dumps(m).encode()
first_section = min([m["weights"]["offset"]] + [t["code"]["offset"] for t in m["targets"]])
if offset + len(text) > first_section:
    sys.exit("tamper_manifest.py: the edited manifest does not fit before the first section")
data[offset:offset + size] = bytes(size)
data[offset:offset + len(text)] = text
struct.pack_into("<Q", data, 24, len(text))
data[40:72] = hashlib.sha256(text).digest()
open(dst, "wb").write(data)
