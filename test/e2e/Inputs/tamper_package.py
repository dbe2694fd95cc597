"""Changes a signed .mie package the way someone without the key would, keeping it self-consistent:
the changed section's SHA-256 in the manifest and the manifest's SHA-256 in the header are recomputed,
and the signature trailer is kept. Usage: tamper_package.py IN OUT weights|code|manifest|strip
(strip drops the trailer instead, leaving the unsigned package)."""
import hashlib
import json
import struct
import sys

src, dst, what = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
moffset, msize, body = struct.unpack_from("<QQQ", data, 16)
text = bytes(data[moffset:moffset + msize]).decode()
manifest = json.loads(text)
if what == "strip":
    del data[body:]
else:
    if what == "manifest":
        # Another model name of the same length: every offset stays valid.
        name = manifest["model"]
        changed = text.replace('"model": "%s"' % name, '"model": "%s"' % (name[:-1] + "X"), 1)
    else:
        section = manifest["weights"] if what == "weights" else manifest["targets"][0]["code"]
        data[section["offset"] + section["size"] - 1] ^= 0x01
        digest = hashlib.sha256(data[section["offset"]:section["offset"] + section["size"]]).hexdigest()
        changed = text.replace(section["sha256"], digest, 1)
    assert changed != text and len(changed) == len(text)
    data[moffset:moffset + msize] = changed.encode()
    data[40:72] = hashlib.sha256(changed.encode()).digest()
open(dst, "wb").write(bytes(data))
