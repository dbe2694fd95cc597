#!/usr/bin/env python3
"""Runs a compile that must be rejected cleanly, and checks what every rejection must be.

    expect_rejected.py OUT_PREFIX COMMAND [ARGS...]

Runs COMMAND ARGS -o OUT_PREFIX.new (an output that does not exist) and COMMAND ARGS -o
OUT_PREFIX.old (an existing file), each within a time limit, and fails (exit 1, saying why) unless
each run
- exits with code 1 (not 0, not a crash or an abort), within 120 s (no hang on a FIFO or device);
- reports an error on stderr, one line per message, with no sign of an internal failure (an LLVM
  fatal error, a stack dump, an op dump from a verifier);
- leaves the output alone: OUT_PREFIX.new not created (nor any temporary beside it), OUT_PREFIX.old
  byte for byte as it was.
Prints the first run's stderr on stdout, for FileCheck to check the diagnostic itself.
"""

import glob
import os
import subprocess
import sys

INTERNAL = ("LLVM ERROR", "PLEASE submit", "Stack dump", "see current operation", "internal error",
            "Assertion", "terminate called", "Segmentation fault")
PREVIOUS = b"a previous package, which a failed compile must leave as it is\n"


def fail(message, stderr=""):
    sys.stdout.write(stderr)
    sys.exit(f"expect_rejected: {message}")


def run(command, output):
    try:
        result = subprocess.run(command + ["-o", output], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired:
        fail(f"'{' '.join(command)}' did not finish within 120 s")
    stderr = result.stderr.decode("utf-8", "replace")
    if result.returncode != 1:
        fail(f"exit code {result.returncode}, expected 1", stderr)
    if "error: " not in stderr:
        fail("no error on stderr", stderr)
    for marker in INTERNAL:
        if marker in stderr:
            fail(f"stderr shows an internal failure ('{marker}')", stderr)
    return stderr


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prefix, command = sys.argv[1], sys.argv[2:]
    new, old = prefix + ".new", prefix + ".old"
    for path in glob.glob(new + "*"):
        os.remove(path)
    stderr = run(command, new)
    left = glob.glob(new + "*")
    if left:
        fail(f"the failed compile left {left}", stderr)
    with open(old, "wb") as f:
        f.write(PREVIOUS)
    run(command, old)
    with open(old, "rb") as f:
        if f.read() != PREVIOUS:
            fail(f"the failed compile changed the existing output {old}", stderr)
    if glob.glob(old + ".tmp*"):
        fail("the failed compile left a temporary file beside the existing output", stderr)
    sys.stdout.write(stderr)


if __name__ == "__main__":
    main()
