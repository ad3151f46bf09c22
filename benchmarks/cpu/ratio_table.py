#!/usr/bin/env python3
"""Reads bench_cpu's Google Benchmark JSON (all repetitions) and prints two tables per case:
the best time of ours and oneDNN at 1 and 2 threads from the separate cpu/ and onednn/ benchmarks
(ours/oneDNN ratios and our 2-thread speedup), and, when paired/ benchmarks ran, their median
ratio of side-by-side blocks and their best-run ratio (medians over repetitions) with the speedups
from their medians, and the host probe timed before each paired benchmark."""
import json
import re
import statistics
import sys
from collections import defaultdict

best = defaultdict(lambda: float("inf"))
paired = defaultdict(list)
for entry in json.load(open(sys.argv[1]))["benchmarks"]:
    if entry.get("run_type") == "aggregate":
        continue
    name = entry.get("run_name", entry["name"])
    m = re.match(r"(cpu|onednn|paired)/(.+)/(\d)T", name)
    if not m:
        continue
    kind, case, threads = m.group(1), m.group(2), int(m.group(3))
    if kind == "paired":
        paired[(case, threads)].append(entry)
        continue
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[entry["time_unit"]]
    best[(case, kind, threads)] = min(best[(case, kind, threads)], entry["real_time"] * scale)


def order(cases):
    return sorted(cases, key=lambda c: (not c.startswith("sgemm"), c))


if best:
    print("Separate benchmarks (best time of each):\n")
    print("| case | ours 1T ms | oneDNN 1T ms | ratio 1T | ours 2T ms | oneDNN 2T ms | ratio 2T | our 2T speedup |")
    print("|---|---|---|---|---|---|---|---|")
    for c in order({k[0] for k in best}):
        o1, d1, o2, d2 = (best[(c, w, t)] for w, t in (("cpu", 1), ("onednn", 1), ("cpu", 2), ("onednn", 2)))
        print(f"| {c} | {o1:.3f} | {d1:.3f} | {o1 / d1:.2f} | {o2:.3f} | {d2:.3f} | {o2 / d2:.2f} | {o1 / o2:.2f} |")

if paired:
    def med(case, threads, key):
        return statistics.median(e[key] for e in paired[(case, threads)])

    print("\nPaired blocks (median ratio of side-by-side blocks; range over blocks in brackets;"
          " best: ratio of each library's fastest run):\n")
    # Each paired benchmark also times a kernel-like probe first (host_probe.cpp):
    # its median chunk time in us and median / fastest chunk, higher on a noisy host.
    probed = any("host_probe_us" in e for es in paired.values() for e in es)
    header = "| case | ratio 1T | ratio 2T | best 1T | best 2T | our 2T speedup | oneDNN 2T speedup | our best 2T speedup | ours 1T / 2T ms |"
    print(header + (" host probe 1T / 2T us (slowdown) |" if probed else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|" if probed else ""))
    for c in order({k[0] for k in paired}):
        if (c, 1) not in paired or (c, 2) not in paired:
            continue
        r1, r2 = med(c, 1, "ratio"), med(c, 2, "ratio")
        lo1, hi1 = med(c, 1, "ratio_min"), med(c, 1, "ratio_max")
        lo2, hi2 = med(c, 2, "ratio_min"), med(c, 2, "ratio_max")
        o1, o2 = med(c, 1, "ours_ms"), med(c, 2, "ours_ms")
        d1, d2 = med(c, 1, "onednn_ms"), med(c, 2, "onednn_ms")
        has_best = "ratio_best" in paired[(c, 1)][0] and "ratio_best" in paired[(c, 2)][0]
        nan = float("nan")
        b1, b2 = (med(c, t, "ratio_best") if has_best else nan for t in (1, 2))
        sb = med(c, 1, "ours_best_ms") / med(c, 2, "ours_best_ms") if has_best else nan
        row = f"| {c} | {r1:.2f} [{lo1:.2f}-{hi1:.2f}] | {r2:.2f} [{lo2:.2f}-{hi2:.2f}] | {b1:.2f} | {b2:.2f} | {o1 / o2:.2f} | {d1 / d2:.2f} | {sb:.2f} | {o1:.3f} / {o2:.3f} |"
        if probed:
            p1, p2 = (med(c, t, "host_probe_us") for t in (1, 2))
            s1, s2 = (med(c, t, "host_slowdown") for t in (1, 2))
            row += f" {p1:.1f} ({s1:.2f}) / {p2:.1f} ({s2:.2f}) |"
        print(row)
