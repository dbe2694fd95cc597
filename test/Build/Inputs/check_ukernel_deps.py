"""Checks that touching any microkernel source rebuilds the compiler's bitcode of it.

usage: check_ukernel_deps.py SOURCE_ROOT BUILD_DIR

The bitcode units (runtime/include/mie/mie_ukernels.def, MIE_UK_UNIT rows) are custom commands whose
dependencies are what clang's depfile says the compilation read. This proves, from the build the
tests run in: (1) every unit's rule in build.ninja has a depfile (so ninja reruns it when a file the
compilation read changes, or the registry itself); (2) every file of runtime/src/ukernels and every mie_ukernel* file of
runtime/include/mie that a unit reads is in that unit's depfile; (3) every such file is read by
some unit (a file no unit reads is not a kernel source, or a unit lost its include). Prints one
line per unit and per file, and exits non-zero on the first failure of any kind.
"""
import os
import re
import sys


def depfile_inputs(path):
    with open(path) as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    return {os.path.realpath(p) for p in deps.split()}


def main():
    root, build = sys.argv[1], sys.argv[2]
    with open(os.path.join(root, "runtime/include/mie/mie_ukernels.def")) as f:
        units = re.findall(r"^MIE_UK_UNIT\(([a-z0-9_]+),", f.read(), re.M)
    assert units, "no MIE_UK_UNIT rows"
    with open(os.path.join(build, "build.ninja")) as f:
        ninja = f.read()
    sources = set()
    for d, pattern in (("runtime/src/ukernels", r".*\.(cpp|h|def)$"),
                       ("runtime/include/mie", r"^mie_ukernel.*")):
        for name in os.listdir(os.path.join(root, d)):
            if re.match(pattern, name):
                sources.add(os.path.realpath(os.path.join(root, d, name)))
    read_by_some = set()
    failures = 0
    for unit in units:
        bc = f"lib/Target/CPU/ukernels_{unit}.bc"
        rule = re.search(r"^build " + re.escape(bc) + r"\b.*?(?=^build |\Z)", ninja, re.M | re.S)
        if not rule or "depfile = " not in rule.group(0):
            print(f"FAIL unit {unit}: no depfile on the rule of {bc}")
            failures += 1
            continue
        # What the compilation read, and what the rule names itself (the registry).
        deps = depfile_inputs(os.path.join(build, bc + ".d"))
        explicit = rule.group(0).split("\n", 1)[0].partition("CUSTOM_COMMAND")[2]
        deps |= {os.path.realpath(p) for p in explicit.split() if os.path.isabs(p)}
        ours = sorted(p for p in deps if p in sources)
        read_by_some.update(ours)
        print(f"unit {unit}: {len(ours)} microkernel files in its depfile")
    for path in sorted(sources - read_by_some):
        print(f"FAIL {os.path.relpath(path, root)}: read by no bitcode unit")
        failures += 1
    print(f"{len(read_by_some)} of {len(sources)} microkernel files tracked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
