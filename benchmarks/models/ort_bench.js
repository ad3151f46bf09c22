// ort_bench.js: times one ONNX model on ONNX Runtime's CPU execution provider (npm package
// onnxruntime-node) and compares its output with Tessera's.
//   node ort_bench.js MODEL.onnx INPUT_PREFIX --threads N [--runs 30] [--warmup 3]
//                     [--compare LABEL=FILE.bin]...
// INPUT_PREFIX.json / .bin are what bench_model --write-input wrote (input name, dims, raw
// float32 values). Each --compare file holds raw float32 output values of another run of the
// same model; its max |diff| against ONNX Runtime's output is printed. Prints
//   ort threads N median_ms X min_ms Y runs R
//   diff LABEL max_abs D
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
  const a = {threads: 1, runs: 30, warmup: 3, compare: []};
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

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  const meta = JSON.parse(fs.readFileSync(`${a.inputPrefix}.json`, 'utf8'));
  const input = new ort.Tensor('float32', readFloats(`${a.inputPrefix}.bin`), meta.input_dims);
  const session = await ort.InferenceSession.create(a.model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
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
}

main().catch((e) => {
  console.error(`ort_bench.js: ${e.message}`);
  process.exit(1);
});
