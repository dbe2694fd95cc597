"""Checks that every op of a dialect has a round-trip case and an invalid case.

Usage: check_op_coverage.py DIALECT TD_DIR OPS_MLIR INVALID_MLIR
Mnemonics come from the ODS sources (`def X : <Class><"mnemonic"...`), so a new op without tests
fails the suite. Prints one line per dialect with the counts.
"""
import pathlib
import re
import sys

dialect, td_dir, ops_path, invalid_path = sys.argv[1:5]
mnemonics = set()
for td in pathlib.Path(td_dir).glob("*.td"):
    for m in re.finditer(r'^def \w+\s*:\s*\w+Op<"(\w+)"', td.read_text(), re.M):
        mnemonics.add(m.group(1))


def used(path):
    text = pathlib.Path(path).read_text()
    found = set(re.findall(r'\b%s\.(\w+)' % dialect, text))
    found |= set(re.findall(r'"%s\.(\w+)"' % dialect, text))
    return found


ops, invalid = used(ops_path), used(invalid_path)
missing_rt = sorted(mnemonics - ops)
missing_inv = sorted(mnemonics - invalid)
print(f"{dialect}: {len(mnemonics)} ops, {len(mnemonics & ops)} with round-trip cases, "
      f"{len(mnemonics & invalid)} with invalid cases")
if missing_rt:
    print("missing round-trip cases: " + ", ".join(missing_rt))
if missing_inv:
    print("missing invalid cases: " + ", ".join(missing_inv))
sys.exit(1 if missing_rt or missing_inv else 0)
