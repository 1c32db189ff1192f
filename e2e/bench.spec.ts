// Browser benchmarks (not assertions): `e2e/run.sh --bench`. Prints one JSON object and writes
// e2e/artifacts/bench.json:
//   prove_ms[k]         median browser proof time (reference request, after the warm-up rounds)
//   warmup_rounds, warmup_prove_ms[k]  the warm-up rounds (one proof of k=2, then one of k=6,
//                       each) and their proofs' times, in order
//   native_prove_ms[k]  median native proof time with the same keys and threads
//                       (`enygma bench`; the server's round trip when the CLI lacks it)
//   ratio[k]            browser / native
//   native_kernels      the kernels of that native run (`enygma bench`'s "kernels")
//   cpu                 the CPU the benchmarks ran on (`enygma bench`'s "cpu": cpuid's vendor,
//                       family, model, stepping and brand)
//   native_by_kernel[k] the native proof run once more with each kernel this CPU has, the others
//                       switched off (ENYGMA_DISABLE_KERNELS): {ifma, adx, portable}: ms, ratio
//   verify_ms           median browser verification (k=6; 21 after 10 untimed)
//   ready_cached_ms     navigation start -> keys loaded, proof-ready, keys in IndexedDB
//   ready_network_ms    the same on a first visit (download + decompression)
//   key_load_network_ms parts of the first visit's key load: manifest, download, decode (its
//                       steps in the module), total (with the key cache's write), and afterLoad
//                       (navigation start to the load's start: page, worker and module)
//   key_load_cached_ms, module_start_cached_ms  parts of the last cached load: the key cache's
//                       read and decode (loadKeys' ms), the worker's and module's start
//   verifier_warmup     the worker's verifier warm-up after the last cached load: rounds, their
//                       time in all, the first's and the last's (the proofs wait for its end)
//   prover_warmup       the worker's prover warm-up after it (proofs of the loaded circuit made
//                       while the page is idle), likewise; the bench's own warm-up rounds follow
//   memory_mib[k]       the module's WebAssembly memory after the proofs of k (it grows as
//                       needed and never shrinks: the peak of the page so far)
//   module, lane_kernel the module that ran and the lane kernel of its MSM additions
// ENYGMA_BENCH_RUNS (default 5) proofs per k; ENYGMA_BENCH_WARMUP (default 1) warm-up rounds;
// ENYGMA_BENCH_THREADS (default 2, issue 21's setting) threads in the page (&threads=) and natively
// (--threads); the bench fails when the page's pool has another size.
// ENYGMA_BENCH_QUERY: more of the page's query
// (e.g. relaxed-simd=0: the module without the f64-lane kernel, for comparing).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Page, test } from '@playwright/test';
import { median } from './median';

const base = () => process.env.ENYGMA_E2E_URL!;
const runs = Number(process.env.ENYGMA_BENCH_RUNS || 5);
const warmupRounds = Number(process.env.ENYGMA_BENCH_WARMUP || 1);
const threads = Number(process.env.ENYGMA_BENCH_THREADS || 2);
const page6 = () => `${base()}/?k=6&threads=${threads}${process.env.ENYGMA_BENCH_QUERY ? '&' + process.env.ENYGMA_BENCH_QUERY : ''}`;
const webDir = () => path.resolve(__dirname, '..', process.env.ENYGMA_WEB || 'build-wasm/web');

async function ready(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => (window as any).demo?.keysReady, null, { timeout: 300_000 });
  return page.evaluate(() => (window as any).demo.readyAt);
}

// disable: ENYGMA_DISABLE_KERNELS for the run ('' for the build's default kernels); kernels:
// the ones the run used, as `enygma bench` reports them.
function nativeProveMs(k: number, disable = ''): { ms: number; how: string; kernels?: any; cpu?: any } {
  const request = path.join(webDir(), 'vectors', `transfer-k${k}.json`);
  const env = { ...process.env };
  if (disable) env.ENYGMA_DISABLE_KERNELS = disable;
  else delete env.ENYGMA_DISABLE_KERNELS;
  try {
    const out = JSON.parse(execFileSync(process.env.ENYGMA_BIN!, ['bench', '--k', String(k), '--keys',
      process.env.ENYGMA_E2E_KEYS!, '--runs', String(runs), '--threads', String(threads), '--input', request],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env }));
    return { ms: out.median_ms.prove_total, how: 'enygma bench', kernels: out.kernels, cpu: out.cpu };
  } catch {
    return { ms: NaN, how: 'unavailable' };
  }
}

// The native proof with each arithmetic kernel this CPU runs (`ifma`: AVX-512 IFMA, eight 52-bit
// products per instruction; `adx`: 64-bit limbs with ADX/BMI2; `portable`: neither), the more
// capable ones switched off by ENYGMA_DISABLE_KERNELS: the browser's ratio to each. The default
// run (the most capable kernel) is not repeated.
function nativeByKernel(k: number, defaultRun: { ms: number; kernels?: any }): { [kernel: string]: { ms: number; ratio?: number } } {
  const kernelOf = (kernels: any) => (kernels?.ifma ? 'ifma' : kernels?.adx ? 'adx' : 'portable');
  const out: { [kernel: string]: { ms: number } } = { [kernelOf(defaultRun.kernels)]: { ms: defaultRun.ms } };
  for (const [name, disable] of [['adx', 'ifma'], ['portable', 'adx,ifma']]) {
    if (out[name] || (name === 'adx' && !defaultRun.kernels?.adx)) continue;
    const run = nativeProveMs(k, disable);
    if (!Number.isNaN(run.ms) && kernelOf(run.kernels) === name) out[name] = { ms: run.ms };
  }
  return out;
}

// The state of one of the worker's warm-ups (Enygma's verifierWarmup or proverWarmup) once it
// is in none of the states `busy`, polled every 20 ms; null for a page built before it.
async function warmupOver(page: Page, method: string, busy: string[]): Promise<any> {
  return page.evaluate(async ([name, busyStates]) => {
    const e = (window as any).demo.enygma;
    if (typeof e[name] !== 'function') return null;
    let w = await e[name]();
    while ((busyStates as string[]).includes(w.state)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      w = await e[name]();
    }
    return { state: w.state, circuit: w.circuit, rounds: w.rounds, yielded: w.yielded, busy_ms: w.busyMs,
      first_ms: w.firstMs, last_ms: w.lastMs };
  }, [method, busy] as [string, string[]]);
}

test('browser benchmarks', async ({ page, request }) => {
  const result: any = { cores: os.cpus().length, threads, runs, prove_ms: {}, prove_stages_ms: {}, native_prove_ms: {}, ratio: {},
    native_by_kernel: {}, memory_mib: {} };
  result.ready_network_ms = await ready(page, page6());
  result.key_load_network_ms = await page.evaluate(() => {
    const k = (window as any).demo.keys['transfer-k6'];
    return { ...k.ms, steps: k.decodeSteps, afterLoad: (window as any).demo.readyAt - k.ms.total };
  });
  result.pool_size = await page.evaluate(() => (window as any).demo.poolSize);
  if (result.pool_size !== threads) throw new Error(`the page runs ${result.pool_size} threads, not ${threads}`);
  result.module = await page.evaluate(() => (window as any).demo.enygma.module);
  result.lane_kernel = await page.evaluate(() => (window as any).demo.enygma.laneKernel);
  result.ready_cached_ms = median([
    await ready(page, page6()),
    await ready(page, page6()),
    await ready(page, page6()),
  ]);
  result.key_load_cached_ms = await page.evaluate(() => (window as any).demo.keys['transfer-k6'].ms);
  result.module_start_cached_ms = await page.evaluate(() => (window as any).demo.enygma.initMs);
  // The verifier's warm-up (Enygma.create's warmVerifier) runs once the keys are loaded, then
  // the prover's (warmProver: proofs made while the page is idle); nothing below is timed until
  // both are over (they would share the cores with the proofs or with the native bench).
  result.verifier_warmup = await warmupOver(page, 'verifierWarmup', ['running', 'waiting']);
  result.prover_warmup = await warmupOver(page, 'proverWarmup', ['running']);

  // Warm-up rounds (one proof of each circuit per round) before either is timed: the engine
  // first runs the module's code unoptimized and optimizes a function once it has run enough, on
  // background threads that share the two cores with the proof; most of the code is the same for
  // k=2 and k=6, and k=2's runs, timed first, were still paying for that (docs/performance.md,
  // stop 44). The warm-up proofs' own times are reported (warmup_prove_ms): the first of each k
  // is the page's first proof of that circuit (after the worker's own warm-up, prover_warmup).
  const requestOf = (k: number) => fs.readFileSync(path.join(webDir(), 'vectors', `transfer-k${k}.json`), 'utf8');
  result.warmup_rounds = warmupRounds;
  result.warmup_prove_ms = { 2: [], 6: [] };
  for (let round = 0; round < warmupRounds; ++round) {
    for (const k of [2, 6]) {
      result.warmup_prove_ms[k].push(await page.evaluate(async ([kk, text]) => {
        const e = (window as any).demo.enygma;
        await e.loadKeys(kk);
        return (await e.prove(kk, text)).ms;
      }, [k, requestOf(k)] as [number, string]));
    }
  }
  for (const k of [2, 6]) {
    const requestText = requestOf(k);
    const times = await page.evaluate(async ([kk, text, n]) => {
      const e = (window as any).demo.enygma;
      const out = [];
      for (let i = 0; i < n; ++i) out.push(await e.prove(kk, text));
      return out.map((r: any) => ({ ms: r.ms, stages: r.stages, memory: r.memory.memory_bytes }));
    }, [k, requestText, runs] as [number, string, number]);
    result.prove_ms[k] = median(times.map((t) => t.ms));
    const stages: any = {};
    for (const name of Object.keys(times[0].stages)) stages[name] = median(times.map((t) => t.stages[name]));
    result.prove_stages_ms[k] = stages;
    result.memory_mib[k] = Math.max(...times.map((t) => t.memory)) / 2 ** 20;

    const native = nativeProveMs(k);
    if (Number.isNaN(native.ms)) {
      const rt: number[] = [];
      for (let i = 0; i < runs; ++i) {
        const t0 = Date.now();
        await request.post(`${base()}/generateProofTransfer-${k}`, { data: requestText });
        rt.push(Date.now() - t0);
      }
      native.ms = median(rt);
      native.how = 'server round trip';
    }
    result.native_prove_ms[k] = native.ms;
    result.native_how = native.how;
    result.native_kernels = native.kernels;
    result.cpu = native.cpu;
    result.ratio[k] = result.prove_ms[k] / native.ms;
    if (native.how === 'enygma bench') {
      const byKernel = nativeByKernel(k, native);
      for (const name of Object.keys(byKernel)) byKernel[name].ratio = result.prove_ms[k] / byKernel[name].ms;
      result.native_by_kernel[k] = byKernel;
    }
  }

  const text6 = fs.readFileSync(path.join(webDir(), 'vectors', 'transfer-k6.json'), 'utf8');
  result.verify_ms = median(await page.evaluate(async (text) => {
    const e = (window as any).demo.enygma;
    const proof = await e.prove(6, text);
    // Warm-up, as for the proofs: the first calls of the verifier's code, and the engine's
    // background work after the proof (it optimizes the proof's code), show as 3-12 ms spikes.
    for (let i = 0; i < 10; ++i) await e.verify(6, proof.response);
    const out = [];
    for (let i = 0; i < 21; ++i) out.push((await e.verify(6, proof.response)).ms);
    return out;
  }, text6));

  fs.mkdirSync(path.join(__dirname, 'artifacts'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'artifacts', 'bench.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
});
