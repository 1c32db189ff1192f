// Times the browser module's proof under Node: the same WebAssembly and JS calls as the page's
// worker, without a browser. Not a test; prints one JSON line.
//
//   node --no-experimental-fetch wasm/bench_prove.cjs WEB_DIR KEYS_DIR K REQUEST.json [RUNS] [THREADS]
//
// WEB_DIR: build-wasm/web; KEYS_DIR: keys from `enygma setup` (transfer-k<K>.pk/.vk). One
// warm-up proof, then RUNS (default 5) timed ones; THREADS defaults to the number of cores.
// ENYGMA_MODULE names the module (default enygma_module; enygma_module_relaxed needs
// node --experimental-wasm-relaxed-simd).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

async function main() {
  const [webDir, keysDir, kText, requestFile, runsText, threadsText] = process.argv.slice(2);
  if (!requestFile) {
    console.error('usage: bench_prove.cjs WEB_DIR KEYS_DIR K REQUEST.json [RUNS] [THREADS]');
    process.exit(2);
  }
  const k = Number(kText);
  const runs = Number(runsText || 5);
  const threads = Number(threadsText || os.cpus().length);
  const { bindAbi, STATUS, STAGES } = require(path.resolve(webDir, 'enygma_abi.js'));
  const moduleName = process.env.ENYGMA_MODULE || 'enygma_module';
  const createEnygmaModule = require(path.resolve(webDir, `${moduleName}.js`));
  const M = await createEnygmaModule({ enygmaWorkers: Math.max(1, threads - 1) });
  const abi = bindAbi(M);
  if (abi.init(threads) !== STATUS.OK) throw new Error('eny_init failed');
  const request = fs.readFileSync(requestFile, 'utf8');

  let t0 = performance.now();
  const loaded = abi.loadKeys(k, fs.readFileSync(path.join(keysDir, `transfer-k${k}.pk`)),
                              fs.readFileSync(path.join(keysDir, `transfer-k${k}.vk`)));
  const keyLoadMs = performance.now() - t0;
  if (loaded.status !== STATUS.OK) throw new Error('loading keys: ' + loaded.text);

  const prove = () => {
    const starts = [];
    const t = performance.now();
    const out = abi.prove(k, request, null, (stage) => starts.push([STAGES[stage], performance.now()]));
    const ms = performance.now() - t;
    if (out.status !== STATUS.OK) throw new Error('prove: ' + out.text);
    const stages = {};
    if (starts.length) stages.parse = starts[0][1] - t; // request, witness: before the first stage
    for (let i = 0; i + 1 < starts.length; ++i) stages[starts[i][0]] = starts[i + 1][1] - starts[i][1];
    return { ms, stages, response: out.text };
  };
  const warm = prove();
  const times = [];
  for (let i = 0; i < runs; ++i) times.push(prove());
  const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const stages = {};
  for (const name of Object.keys(times[0].stages)) stages[name] = median(times.map((t) => t.stages[name]));
  const verifyTimes = [];
  for (let i = 0; i < 11; ++i) {
    t0 = performance.now();
    if (abi.verify(k, warm.response).status !== STATUS.OK) throw new Error('the proof does not verify');
    verifyTimes.push(performance.now() - t0);
  }
  console.log(JSON.stringify({
    k, module: moduleName, lane_kernel: abi.laneKernel(), threads: abi.poolSize(), runs, key_load_ms: keyLoadMs, prove_ms: times.map((t) => t.ms),
    median_prove_ms: median(times.map((t) => t.ms)), median_stages_ms: stages,
    median_verify_ms: median(verifyTimes),
  }));
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
