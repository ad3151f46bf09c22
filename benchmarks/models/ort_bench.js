// ort_bench.js: times one ONNX model on ONNX Runtime's CPU execution provider (npm package
// onnxruntime-node) and compares its output with Tessera's.
//   node ort_bench.js MODEL.onnx INPUT_PREFIX --threads N [--runs 30] [--warmup 3]
//                     [--compare LABEL=FILE.bin]... [--profile]
// INPUT_PREFIX.json / .bin are what bench_model --write-input wrote (input name, dims, raw
// float32 values). Each --compare file holds raw float32 output values of another run of the
// same model; its max |diff| against ONNX Runtime's output is printed. Prints
//   ort threads N median_ms X min_ms Y runs R
//   diff LABEL max_abs D
// --profile then loads the model once more with ONNX Runtime's profiler enabled, runs it and
// prints each node's median time, slowest first (the profiler's file is removed afterwards):
//   ort_node MS NAME OP_TYPE
// The package is found through NODE_PATH or ORT_NODE_MODULES (the folder holding node_modules).
'use strict';

const fs = require('fs');
const path = require('path');

function loadOrt() {
  const dirs = [process.env.ORT_NODE_MODULES, ...(process.env.NODE_PATH || '').split(':')];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, 'onnxruntime-node');
    if (fs.existsSync(candidate)) return require(candidate);
  }
  return require('onnxruntime-node');
}

function parseArgs(argv) {
  const a = {threads: 1, runs: 30, warmup: 3, compare: [], profile: false};
  const positional = [];
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--threads') a.threads = parseInt(value(), 10);
    else if (arg === '--runs') a.runs = parseInt(value(), 10);
    else if (arg === '--warmup') a.warmup = parseInt(value(), 10);
    else if (arg === '--profile') a.profile = true;
    else if (arg === '--compare') {
      const v = value();
      const eq = v.indexOf('=');
      if (eq <= 0) throw new Error(`--compare takes LABEL=FILE, got '${v}'`);
      a.compare.push({label: v.slice(0, eq), file: v.slice(eq + 1)});
    } else positional.push(arg);
  }
  if (positional.length !== 2) throw new Error('usage: ort_bench.js MODEL.onnx INPUT_PREFIX [options]');
  [a.model, a.inputPrefix] = positional;
  if (!(a.threads >= 1) || !(a.runs >= 1) || !(a.warmup >= 0)) throw new Error('bad counts');
  return a;
}

function readFloats(file) {
  const bytes = fs.readFileSync(file);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; ++i) {
    const d = Math.abs(a[i] - b[i]);
    if (Number.isNaN(d)) return Infinity;
    if (d > worst) worst = d;
  }
  return worst;
}

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

function sessionOptions(a, profile) {
  return {
    executionProviders: ['cpu'],
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableProfiling: profile,
    profileFilePrefix: 'ort_bench_profile',
  };
}

// Runs the model with the profiler on and prints each node's median kernel time (the profile
// is Chrome trace JSON: one "Node" event NAME_kernel_time per node and run).
async function printNodeProfile(ort, a, feeds) {
  const before = new Set(fs.readdirSync('.'));
  const session = await ort.InferenceSession.create(a.model, sessionOptions(a, true));
  for (let i = 0; i < a.warmup + a.runs; ++i) await session.run(feeds);
  session.endProfiling();
  await session.release();
  const file = fs.readdirSync('.').find((f) => f.startsWith('ort_bench_profile') && !before.has(f));
  if (!file) throw new Error('ONNX Runtime wrote no profile');
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(file);
  const nodes = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const name = e.name.slice(0, -'_kernel_time'.length);
    if (!nodes.has(name)) nodes.set(name, {op: (e.args && e.args.op_name) || '?', us: []});
    nodes.get(name).us.push(e.dur);
  }
  const rows = [...nodes.entries()].map(([name, n]) => {
    const us = n.us.slice(a.warmup).sort((x, y) => x - y);
    return {name, op: n.op, ms: median(us) / 1e3};
  }).sort((x, y) => y.ms - x.ms);
  let total = 0;
  for (const r of rows) {
    total += r.ms;
    console.log(`ort_node ${r.ms.toFixed(4)} ${r.name} ${r.op}`);
  }
  console.log(`ort_profile nodes ${rows.length} sum_ms ${total.toFixed(3)}`);
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  const meta = JSON.parse(fs.readFileSync(`${a.inputPrefix}.json`, 'utf8'));
  const input = new ort.Tensor('float32', readFloats(`${a.inputPrefix}.bin`), meta.input_dims);
  const session = await ort.InferenceSession.create(a.model, sessionOptions(a, false));
  const feeds = {[meta.input]: input};
  let result;
  for (let i = 0; i < a.warmup; ++i) result = await session.run(feeds);
  const ms = [];
  for (let i = 0; i < a.runs; ++i) {
    const t0 = process.hrtime.bigint();
    result = await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((x, y) => x - y);
  console.log(`ort threads ${a.threads} median_ms ${median(ms).toFixed(3)} ` +
              `min_ms ${ms[0].toFixed(3)} runs ${a.runs}`);
  const ours = result[meta.output].data;
  for (const c of a.compare) {
    if (!fs.existsSync(c.file)) continue;
    console.log(`diff ${c.label} max_abs ${maxAbsDiff(ours, readFloats(c.file)).toExponential(2)}`);
  }
  await session.release();
  if (a.profile) await printNodeProfile(ort, a, feeds);
}

main().catch((e) => {
  console.error(`ort_bench.js: ${e.message}`);
  process.exit(1);
});
