"""Checks a mie-run --trace file: valid JSON in Chrome trace format, `runs` complete events per kernel,
spans in order and not overlapping (kernels run one after another), and given kernels' flop counts.

usage: check_trace.py TRACE.json --runs N [--flops KERNEL=COUNT ...]
"""
import argparse
import collections
import json
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--flops", action="append", default=[])
    a = p.parse_args()
    with open(a.trace) as f:
        doc = json.load(f)
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    per_kernel = collections.Counter(e["name"] for e in events)
    errors = []
    for name, n in per_kernel.items():
        if n != a.runs:
            errors.append(f"{name}: {n} events, expected {a.runs}")
    end = -1.0
    for e in sorted(events, key=lambda e: e["ts"]):
        if e["dur"] < 0 or e["ts"] < end - 1e-3:
            errors.append(f"{e['name']} at {e['ts']} overlaps the previous kernel (ends {end})")
        end = e["ts"] + e["dur"]
    flops = {e["name"]: e["args"]["flops"] for e in events}
    for spec in a.flops:
        name, want = spec.split("=")
        if flops.get(name) != int(want):
            errors.append(f"{name}: flops {flops.get(name)}, expected {want}")
    if errors:
        print("\n".join(errors))
        sys.exit(1)
    print(f"trace ok: {len(per_kernel)} kernels x {a.runs} runs")


if __name__ == "__main__":
    main()
