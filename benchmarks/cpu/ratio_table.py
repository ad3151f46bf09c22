#!/usr/bin/env python3
"""Reads bench_cpu's Google Benchmark JSON (all repetitions) and prints, per case, the best time of
ours and oneDNN at 1 and 2 threads, ours/oneDNN ratios and our 2-thread speedup."""
import json
import re
import sys
from collections import defaultdict

best = defaultdict(lambda: float("inf"))
for entry in json.load(open(sys.argv[1]))["benchmarks"]:
    if entry.get("run_type") == "aggregate":
        continue
    m = re.match(r"(cpu|onednn)/(.+)/(\d)T", entry["run_name"] if "run_name" in entry else entry["name"])
    if not m:
        continue
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[entry["time_unit"]]
    key = (m.group(2), m.group(1), int(m.group(3)))
    best[key] = min(best[key], entry["real_time"] * scale)

cases = sorted({k[0] for k in best}, key=lambda c: (not c.startswith("sgemm"), c))
print(f"| case | ours 1T ms | oneDNN 1T ms | ratio 1T | ours 2T ms | oneDNN 2T ms | ratio 2T | our 2T speedup |")
print("|---|---|---|---|---|---|---|---|")
for c in cases:
    o1, d1, o2, d2 = (best[(c, w, t)] for w, t in (("cpu", 1), ("onednn", 1), ("cpu", 2), ("onednn", 2)))
    print(f"| {c} | {o1:.3f} | {d1:.3f} | {o1 / d1:.2f} | {o2:.3f} | {d2:.3f} | {o2 / d2:.2f} | {o1 / o2:.2f} |")
