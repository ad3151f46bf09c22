#!/usr/bin/env python3
"""Builds the ten unchanged "Usage Examples" programs of the zDNN spec as C ($CC, default gcc) against zdnn.h
and libzdnn, runs them, and checks what they compute against an independent reference written here
(pure Python, float64, inputs cleansed through DLFLOAT16, DLFLOAT16 rounding at the points where
the zAIU stores intermediate results).

usage: run_examples.py SPEC INCLUDE_DIR LIB_DIR WORK_DIR HARNESS_C [extra compiler flags...]
"""
import json
import math
import os
import struct
import subprocess
import sys

FP32, INT8 = 255, 251


def dlf(x):
    """fp32 -> DLFLOAT16 -> fp32 (round to nearest, ties away from zero)."""
    if math.isnan(x) or math.isinf(x):
        return float("nan")
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    sign = -1.0 if u >> 31 else 1.0
    rounded = (u & 0x7FFFFFFF) + 0x2000
    exponent = (rounded >> 23) - 96
    if rounded >= ((159 << 23) | (0x1FF << 14)):
        return float("nan")
    fraction = (rounded >> 14) & 0x1FF
    if exponent < 0 or (exponent == 0 and fraction == 0):  # 0x0000 is zero
        return sign * 0.0
    return sign * 2.0 ** (exponent - 31) * (1 + fraction / 512)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def round_half_even(x):
    return float(round(x))


def check_close(name, got, want, abs_tol, rel_tol):
    if len(got) != len(want):
        raise AssertionError(f"{name}: {len(got)} values, expected {len(want)}")
    worst = 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        err = abs(g - w)
        if not (err <= abs_tol + rel_tol * abs(w)):
            raise AssertionError(f"{name}[{i}]: got {g}, expected {w}")
        worst = max(worst, err)
    return worst


# ------------------------------------------------------------------ references
def matvec_rows(x, w, rows, cols):
    """x (len rows) times w (rows x cols, row-major) -> cols."""
    return [sum(x[r] * w[r * cols + c] for r in range(rows)) for c in range(cols)]


def rnn_layer(kind, xs, ts, batch, features, hidden, dirs, h0, c0, W, Wb, R, Rb):
    """xs[t][b] = feature vector. W[d][g] = features x hidden, Wb[d][g] = hidden, etc.
    Returns (hn_all[t][d][b][k], h_last[d][b][k], c_last[d][b][k])."""
    gates = 4 if kind == "lstm" else 3
    hn = [[[None] * batch for _ in range(dirs)] for _ in range(ts)]
    h_last, c_last = [], []
    for d in range(dirs):
        h = [list(h0[d][b]) for b in range(batch)]
        c = [list(c0[d][b]) for b in range(batch)] if c0 else None
        order = range(ts) if d == 0 else range(ts - 1, -1, -1)
        for t in order:
            for b in range(batch):
                xg = [[dlf(v + bias) for v, bias in zip(matvec_rows(xs[t][b], W[d][g], features, hidden), Wb[d][g])]
                      for g in range(gates)]
                hg = [[dlf(v + bias) for v, bias in zip(matvec_rows(h[b], R[d][g], hidden, hidden), Rb[d][g])]
                      for g in range(gates)]
                new_h = []
                for k in range(hidden):
                    if kind == "lstm":
                        f = sigmoid(xg[0][k] + hg[0][k]); i = sigmoid(xg[1][k] + hg[1][k])
                        g = math.tanh(xg[2][k] + hg[2][k]); o = sigmoid(xg[3][k] + hg[3][k])
                        c[b][k] = dlf(f * c[b][k] + i * g)
                        new_h.append(dlf(o * math.tanh(c[b][k])))
                    else:
                        z = sigmoid(xg[0][k] + hg[0][k]); r = sigmoid(xg[1][k] + hg[1][k])
                        cand = math.tanh(xg[2][k] + r * hg[2][k])
                        new_h.append(dlf((1 - z) * cand + z * h[b][k]))
                h[b] = new_h
                hn[t][d][b] = list(new_h)
        h_last.append(h)
        c_last.append(c)
    return hn, h_last, c_last


def split(values, *shape):
    """Row-major list -> nested lists of `shape`."""
    if len(shape) == 1:
        return list(values[: shape[0]])
    step = math.prod(shape[1:])
    return [split(values[i * step:(i + 1) * step], *shape[1:]) for i in range(shape[0])]


def rnn_params(records, kind, dirs, features, hidden):
    """Transform records h0, [c0], W, Wb, R, Rb -> reference parameters (cleansed)."""
    gates = 4 if kind == "lstm" else 3
    it = iter(records)
    h0 = split([dlf(v) for v in next(it)["data"][0]], dirs, BATCH, hidden)
    c0 = split([dlf(v) for v in next(it)["data"][0]], dirs, BATCH, hidden) if kind == "lstm" else None
    def gate_tensors(rec, rows):
        per_dir = [[None] * gates for _ in range(dirs)]
        for g in range(gates):
            vals = [dlf(v) for v in rec["data"][g]]
            size = rows * hidden
            for d in range(dirs):
                per_dir[d][g] = vals[d * size:(d + 1) * size]
        return per_dir
    W = gate_tensors(next(it), features)
    Wb = gate_tensors(next(it), 1)
    R = gate_tensors(next(it), hidden)
    Rb = gate_tensors(next(it), 1)
    return h0, c0, W, Wb, R, Rb


BATCH = 3


def inputs_3ds(rec, ts, batch, features):
    vals = [dlf(v) for v in rec["data"][0]]
    return split(vals, ts, batch, features)


def check_rnn_example(records, kind, dirs, hn_all):
    ts, features, hidden = 5, 32, 5
    xs = inputs_3ds(records[0], ts, BATCH, features)
    params = rnn_params(records[1:], kind, dirs, features, hidden)
    hn, h_last, c_last = rnn_layer(kind, xs, ts, BATCH, features, hidden, dirs, *params)
    outs = [r for r in records if r["fn"] == "origtensor"]
    if hn_all:
        want = [hn[t][d][b][k] for t in range(ts) for d in range(dirs) for b in range(BATCH) for k in range(hidden)]
    else:
        want = [h_last[d][b][k] for d in range(dirs) for b in range(BATCH) for k in range(hidden)]
    worst = check_close("hn_output", outs[0]["data"][0], want, 2e-2, 2 ** -7)
    if kind == "lstm":
        if dirs == 1:
            want_c = [c_last[0][b][k] for b in range(BATCH) for k in range(hidden)]
        else:
            # The example describes cf_output as ZDNN_3DS (1, 2, num_batches): 2 x 3 cells are read
            # back from what the zAIU wrote, i.e. the forward cell state [batch 0..1][hidden 0..2].
            want_c = [c_last[0][b][k] for b in range(2) for k in range(3)]
        worst = max(worst, check_close("cf_output", outs[1]["data"][0], want_c, 2e-2, 2 ** -7))
    return worst


def check_multilayer(records):
    ts, features = 5, 32
    hidden = [5, 4]
    xs = inputs_3ds(records[0], ts, BATCH, features)
    layer_records = [records[1:7], records[7:13]]
    outs = [r for r in records if r["fn"] == "origtensor"]
    worst = 0.0
    for layer in range(2):
        f = features if layer == 0 else 2 * hidden[0]
        params = rnn_params(layer_records[layer], "lstm", 2, f, hidden[layer])
        hn, _, _ = rnn_layer("lstm", xs, ts, BATCH, f, hidden[layer], 2, *params)
        want = [hn[t][d][b][k] for t in range(ts) for d in range(2) for b in range(BATCH) for k in range(hidden[layer])]
        worst = max(worst, check_close(f"hn_output[{layer}]", outs[layer]["data"][0], want, 3e-2, 2 ** -6))
        xs = [[hn[t][0][b] + hn[t][1][b] for b in range(BATCH)] for t in range(ts)]
    return worst


def check_quantized(records, on_the_fly, pre_computed):
    s, m, n, p = 2, 3, 4, 5
    a_rec, b_rec, c_rec, out = records[0], records[1], records[2], records[3]
    if on_the_fly:
        a = [min(127.0, max(-128.0, round_half_even(dlf(v)))) for v in a_rec["data"][0]]
    else:
        a = [min(127.0, max(-128.0, round_half_even(f32(v)))) for v in a_rec["data"][0]]
    b = [float(v) for v in b_rec["data"][0]]
    c = [dlf(v) for v in c_rec["data"][0]] if pre_computed else \
        [min(127.0, max(-128.0, round_half_even(f32(v)))) for v in c_rec["data"][0]]
    want = []
    for st in range(s):
        for i in range(m):
            for j in range(p):
                dot = sum(a[(st * m + i) * n + k] * b[(st * n + k) * p + j] for k in range(n))
                # y_q leaves the zAIU as DLFLOAT16, then is rounded and clipped to [-128, 127]
                # (clip_min/clip_max; the examples leave clipping enabled and do not dequantize).
                want.append(min(127.0, max(-128.0, round_half_even(dlf(dot + c[st * p + j])))))
    return check_close("output", out["data"][0], want, 1e-6, 2 ** -9)


# ------------------------------------------------------------------ driver
def main():
    spec, include_dir, lib_dir, work, harness = sys.argv[1:6]
    extra = sys.argv[6:]
    os.makedirs(work, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "extract_examples.py"), spec, work], check=True)
    wraps = ",".join(f"--wrap={s}" for s in ["malloc", "zdnn_transform_ztensor",
                                                "zdnn_transform_quantized_ztensor", "zdnn_transform_origtensor"])
    failures = 0
    for i in range(1, 11):
        src = os.path.join(work, f"example_{i:02d}.c")
        exe = os.path.join(work, f"example_{i:02d}")
        trace = os.path.join(work, f"example_{i:02d}.trace")
        cmd = [os.environ.get("CC", "gcc"), "-std=gnu11", "-O1", "-I", include_dir, src, harness, "-o", exe, f"-Wl,{wraps}",
               "-L", lib_dir, "-lzdnn", f"-Wl,-rpath,{lib_dir}"] + extra
        build = subprocess.run(cmd, capture_output=True, text=True)
        if build.returncode != 0:
            print(f"example {i}: BUILD FAILED\n{build.stderr}")
            failures += 1
            continue
        env = dict(os.environ, ZDNN_EXAMPLE_TRACE=trace)
        env.pop("ZDNN_ENABLE_PRECHECK", None)
        run = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=120)
        if run.returncode != 0:
            print(f"example {i}: EXIT {run.returncode}\n{run.stderr[-2000:]}")
            failures += 1
            continue
        records = [json.loads(line) for line in open(trace)] if os.path.exists(trace) else []
        try:
            if i == 1:
                lines = [l for l in run.stdout.splitlines() if l.startswith("out element")]
                got = [float(l.split()[3]) for l in lines]
                detail = check_close("add", got, [2.0 * (k & 0x7F) for k in range(len(got))], 0, 0)
                assert len(got) == 32 * 32 * 3, "expected 3072 printed elements"
            elif 2 <= i <= 5:
                detail = check_quantized(records, on_the_fly=i in (3, 5), pre_computed=i in (4, 5))
            elif i == 6:
                detail = check_rnn_example(records, "lstm", 1, hn_all=False)
            elif i == 7:
                detail = check_rnn_example(records, "lstm", 2, hn_all=True)
            elif i == 8:
                detail = check_multilayer(records)
            elif i == 9:
                detail = check_rnn_example(records, "gru", 1, hn_all=False)
            else:
                assert len(records) == 1, "expected one transform"
                detail = 0.0
            print(f"example {i}: OK (max abs error {detail:.3g})")
        except AssertionError as error:
            print(f"example {i}: WRONG RESULT: {error}")
            failures += 1
    print(f"{10 - failures}/10 examples correct")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
