// The browser prover as a product a wallet embeds (issue 21), and every circuit in the page
// (issues 18 and 19), against the servers that global-setup.ts started:
// - a page that is not cross-origin isolated (the server's --no-isolation) gets the module
//   without threads: it says so, proves the same bytes as the CLI, and cancels;
// - the ES-module package (build-wasm/web/enygma/: package.json with exports, index.mjs,
//   index.d.ts) imported in a fresh page: create, keys, make a request, validate, prove with
//   progress, verify, memory, terminate; its declarations name exactly what it exports; its
//   files asked for by its build's version, from the cache on a second load; the usage example
//   of docs/browser.md runs as written;
// - the verifier's warm-up runs once keys are loaded, between the page's operations, and stops at
//   its target; the prover's warm-up proves while the worker is idle and stops for a proof the
//   page asks for (which is right); warmVerifier: 0 and warmProver: 0 turn them off;
// - twenty proofs in a row, one cancelled, leave the worker's memory as it was idle; a proof
//   asked for while another runs waits for it and both are right;
// - the failures a wallet meets: a manifest or key file that fails or stalls (named; the keys
//   loaded before still prove), key bytes of another digest, terminate() during a proof, a
//   worker script that is not served;
// - every other circuit served (deposit, withdraw, join-split, ownership) proves in the demo
//   page with the bytes of `enygma prove` under the same test seed, and verifies on the server.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, Page } from '@playwright/test';
import { proveAndCancel } from './cancel';
import { test } from './js_coverage';
import { cacheCheckedBy } from './key_cache';

const base = () => process.env.ENYGMA_E2E_URL!;
const plainBase = () => process.env.ENYGMA_E2E_URL_NO_ISOLATION!;
const circuits = () => (process.env.ENYGMA_E2E_CIRCUITS || '').split(',').filter(Boolean);
const webDir = () => path.resolve(__dirname, '..', process.env.ENYGMA_WEB || 'build-wasm/web');

declare global {
  interface Window {
    demo: any;
  }
}

function cliProve(circuit: string, requestFile: string, testSeed: string): any {
  const m = circuit.match(/^(.*)-k(\d+)$/);
  const args = m ? ['--circuit', m[1], '--k', m[2]] : ['--circuit', circuit];
  const out = execFileSync(process.env.ENYGMA_BIN!, ['prove', ...args, '--input', requestFile,
    '--keys', process.env.ENYGMA_E2E_KEYS!, '--test-seed', testSeed], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out);
}

// The errors the page did not handle (uncaught exceptions, unhandled rejections), by page.
const pageErrors = new WeakMap<Page, string[]>();
// What the page's Content-Security-Policy refused, by page: its securitypolicyviolation events
// and the console's reports of a refusal (the page's and its workers').
const cspViolations = new WeakMap<Page, string[]>();

async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  cspViolations.set(page, violations);
  await page.exposeFunction('enygmaCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as any).enygmaCspViolation(`${e.violatedDirective} refused ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  });
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy|TrustedScriptURL/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  return violations;
}

// The server's policy on the demo's page: no inline script or style, no eval but WebAssembly's.
function expectStrictCsp(headers: Record<string, string>): void {
  const csp = headers['content-security-policy'];
  expect(csp, 'the page\'s Content-Security-Policy').toBeTruthy();
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toMatch(/'unsafe-inline'|'unsafe-eval'|blob:|data:/);
  expect(headers['referrer-policy']).toBe('no-referrer');
}

async function openDemo(page: Page, url: string): Promise<void> {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (e) => {
    console.log(`page error: ${e.message}`);
    errors.push(e.message);
  });
  await watchCsp(page);
  expectStrictCsp((await page.goto(url))!.headers());
  await page.waitForFunction(() => window.demo && ((window.demo.state === 'ready' && window.demo.keysReady) ||
    window.demo.state === 'failed' || (window.demo.state === 'ready' && window.demo.last.error)), null, { timeout: 120_000 });
  const { keysReady, error } = await page.evaluate(() => ({ keysReady: window.demo.keysReady, error: window.demo.last.error }));
  expect(keysReady, `the page is not proof-ready: ${JSON.stringify(error)}`).toBe(true);
}

async function proveInPage(page: Page): Promise<string> {
  await page.click('#prove');
  await expect(page.locator('#prove-status')).toHaveAttribute('data-status', /^(ok|error|cancelled)$/, { timeout: 120_000 });
  return page.locator('#prove-status').getAttribute('data-status') as Promise<string>;
}

async function expectResult(page: Page, id: string, status = 'ok'): Promise<void> {
  await page.click(`#${id}`);
  const el = page.locator(`#${id}-result`);
  await expect(el).toHaveAttribute('data-status', /^(ok|error|invalid|cancelled)$/, { timeout: 120_000 });
  expect(await el.getAttribute('data-status'), await el.innerText()).toBe(status);
}

test('without cross-origin isolation the page runs the module without threads: same bytes, cancel', async ({ page }) => {
  const response = await page.goto(`${plainBase()}/?k=2`);
  expect(response!.headers()['cross-origin-opener-policy']).toBeUndefined();
  expect(response!.headers()['cross-origin-embedder-policy']).toBeUndefined();
  await openDemo(page, `${plainBase()}/?k=2`);
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);
  expect(await page.evaluate(() => window.demo.enygma.crossOriginIsolated)).toBe(false); // the worker's, as told
  expect(await page.evaluate(() => window.demo.threaded)).toBe(false);
  expect(await page.evaluate(() => window.demo.poolSize)).toBe(1);
  await expect(page.locator('#isolation')).toContainText('without threads');
  await expect(page.locator('#kernel')).toHaveText('enygma_module_st, lane kernel: none');
  // the page compiled that module too (a WebAssembly.Module is posted without shared memory)
  expect(await page.evaluate(() => window.demo.enygma.compiledByPage)).toBe(true);
  // No prover warm-up without threads: a warm-up proof could not give way to the page.
  expect(await page.evaluate(async () => (await window.demo.enygma.proverWarmup()).state)).toBe('off');
  expect(await page.evaluate(() => window.demo.enygma.proverWarmupRunning)).toBe(false);
  await expect(page.locator('#prover-warmup')).toHaveText('no warm-up');
  const seed = 'e2e-no-isolation';
  await page.fill('#test-seed', seed);
  expect(await proveInPage(page)).toBe('ok');
  const browser = JSON.parse(await page.locator('#response').inputValue());
  expect(browser).toEqual(cliProve('transfer-k2', path.join(webDir(), 'vectors', 'transfer-k2.json'), seed));
  await expectResult(page, 'verify-browser');
  await expectResult(page, 'verify-server');
  // Cancel: the busy worker is replaced; the proof rejects as cancelled and the next one runs.
  await page.fill('#test-seed', '');
  expect((await proveAndCancel(page)).status).toBe('cancelled');
  expect(await proveInPage(page)).toBe('ok');
  await expectResult(page, 'verify-browser');
  // A question about the worker's state asked behind a proof that is then cancelled: the new
  // worker answers it (the proof rejects as cancelled).
  const restarted = await page.evaluate(async () => {
    const e = window.demo.enygma;
    const p = e.prove('transfer-k2', document.querySelector<HTMLTextAreaElement>('#request')!.value);
    const asked = e.memory();
    const behind = e.validate('transfer-k2', document.querySelector<HTMLTextAreaElement>('#request')!.value);
    p.cancel();
    const why = (err: any) => `${err.status}: ${err.json.error}`;
    const proof = await p.then(() => 'finished', why);
    return { proof, behind: await behind.then(() => 'done', why), memoryBytes: (await asked).memory_bytes };
  });
  expect(restarted.proof).toBe('cancelled: the proof was cancelled (the worker was restarted)');
  // the call behind it was not cancelled itself: not run, and it says so
  expect(restarted.behind).toMatch(/^cancelled: not run: the worker was restarted to cancel proof \d+ .*; ask again$/);
  expect(restarted.memoryBytes).toBeGreaterThan(0);
  // The new worker warmed its verifier up too, and the page saw it without an unhandled error.
  await expect.poll(() => page.evaluate(async () => (await window.demo.enygma.verifierWarmup()).state), { timeout: 60_000 }).toBe('done');
  await expect(page.locator('#warmup')).toContainText('warmed up');
  expect(pageErrors.get(page)).toEqual([]);
  expect(cspViolations.get(page), 'refused by the server\'s Content-Security-Policy').toEqual([]);
});

// cancel() stops the proof it was asked for and no other: a refused prove's cancel, an unknown
// id and a proof already answered are no-ops (false); and A's cancel written as A ends in the
// worker, while the page is busy and B already runs there, does not lose B.
test('a cancel stops only its own proof', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    await e.loadKeys('transfer-k2');
    const reqA = await e.makeRequest('transfer-k2', { seed: 'cancel A' });
    const reqB = await e.makeRequest('transfer-k2', { seed: 'cancel B' });
    const settle = (p: Promise<any>) => p.then((v) => ({ ok: true, v }), (err) => ({ ok: false, status: err.status }));
    const refB = await e.prove('transfer-k2', reqB, { testSeed: 's' });
    const out: any = { idle: e.cancel(), unknown: e.cancel(9999) };
    // A refused prove (its options are not an object) while B runs.
    const b1 = e.prove('transfer-k2', reqB, { testSeed: 's' });
    const bad = e.prove('transfer-k2', reqB, 'not options');
    out.badStatus = (await settle(bad)).status;
    out.badCancel = bad.cancel();
    const rb1 = await settle(b1);
    out.b1 = rb1.ok && rb1.v.response === refB.response;
    out.finishedCancel = b1.cancel();
    // The race: A's last stage seen, the page kept busy while the worker starts B, then A.cancel().
    // The flag then stops B, which the worker runs again (B reports its first stage twice). A try
    // whose cancel missed B (B not started yet, or already past its last check on a slow
    // machine) is made again, up to five tries; every try's A and B must be right.
    const t0 = performance.now();
    await e.prove('transfer-k2', reqA);
    const proofMs = performance.now() - t0;
    out.races = [];
    for (let attempt = 0; attempt < 5; ++attempt) {
      let aCancel: boolean | undefined;
      const bStages: string[] = [];
      const pa = e.prove('transfer-k2', reqA, {
        onStage: (s: any) => {
          if (s.name !== 'done') return;
          const t = performance.now();
          while (performance.now() - t < Math.min(300, proofMs / 2)) { /* the page is busy */ }
          aCancel = pa.cancel();
        }
      });
      const pb = e.prove('transfer-k2', reqB, { testSeed: 's', onStage: (s: any) => bStages.push(s.name) });
      const [ra, rb] = await Promise.all([settle(pa), settle(pb)]);
      const race = {
        a: ra.ok ? 'ok' : ra.status,
        b: rb.ok && rb.v.response === refB.response ? 'same bytes' : rb.ok ? 'other bytes' : rb.status,
        aCancel,
        bRuns: bStages.filter((n) => n === 'constraints').length,
      };
      out.races.push(race);
      if (race.bRuns > 1) break;
    }
    // A real cancel still works.
    const pc = e.prove('transfer-k2', reqA, { onStage: (s: any) => { if (s.name === 'constraints') pc.cancel(); } });
    out.cancelled = (await settle(pc)).status;
    e.terminate();
    return out;
  });
  expect(r.idle).toBe(false);
  expect(r.unknown).toBe(false);
  expect(r.badStatus).toBe('rejected');
  expect(r.badCancel).toBe(false);
  expect(r.b1).toBe(true);
  expect(r.finishedCancel).toBe(false);
  // in every try A's cancel was sent after its last stage, before its answer; A and B are right
  for (const race of r.races) expect(race).toMatchObject({ a: 'ok', b: 'same bytes', aCancel: true });
  // and in the last one the cancel stopped B, which the worker ran again
  expect(r.races.at(-1).bRuns, JSON.stringify(r.races)).toBe(2);
  expect(r.cancelled).toBe('cancelled');
});

// A progress callback that throws: the page's uncaught error, as an event listener's; the proof
// goes on and is right.
test('an onStage callback that throws is the page\'s uncaught error; the proof goes on', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json' });
    await e.loadKeys('transfer-k2');
    const req = await e.makeRequest('transfer-k2', { seed: 'throwing callback' });
    const stages: string[] = [];
    const proof = await e.prove('transfer-k2', req, {
      onStage: (s: any) => {
        stages.push(s.name);
        if (s.name === 'quotient') throw new Error('thrown by onStage');
      },
    });
    const verified = await e.verify('transfer-k2', proof.response);
    e.terminate();
    return { valid: verified.valid, stages };
  });
  expect(r.valid).toBe(true);
  // the stages after the throw were reported too
  expect(r.stages.indexOf('quotient')).toBeGreaterThanOrEqual(0);
  expect(r.stages.indexOf('quotient')).toBeLessThan(r.stages.length - 1);
  expect(errors.filter((m) => m.includes('thrown by onStage'))).toHaveLength(1);
});

// docs/browser.md's usage example runs as written against the package (the import of
// '@enygma/prover' made the page's own: the package's URL on this server), in a fresh page.
test('the usage example of docs/browser.md runs and its proof verifies', async ({ page }) => {
  const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'browser.md'), 'utf8');
  const usage = doc.slice(doc.indexOf('### Usage'));
  const code = usage.slice(usage.indexOf('```js\n') + 6, usage.indexOf('\n```', usage.indexOf('```js')));
  const importLine = "import { Enygma } from '@enygma/prover';";
  expect(code).toContain(importLine);
  const body = code.replace(importLine, "const { Enygma } = await import('/enygma/index.mjs');")
    .replace('enygma.terminate();', 'enygma.terminate();\nreturn { valid, check, proof: JSON.parse(response), memory };');
  await page.goto(`${base()}/enygma/package.json`);
  const logged: string[] = [];
  page.on('console', (m) => logged.push(m.text()));
  const r = await page.evaluate(`(async () => {\n${body}\n})()`) as any;
  expect(r.check.valid).toBe(true);
  expect(r.valid).toBe(true);
  expect(r.proof.public_signal).toHaveLength(8 * 6 + 2);
  expect(r.memory.memory_bytes).toBeGreaterThan(0);
  expect(logged.some((line) => line.startsWith('msm_h '))).toBe(true); // onStage's progress
});

// create's options and a manifest's entries are checked, each refusal naming its field: an
// unknown circuit is the caller's error (as in every call), a manifest that is not JSON or an
// entry without a size, a digest or a usable URL is a key error, never a raw JS exception.
test('create options and key manifests are checked, naming the field', async ({ page }) => {
  // The test's manifests, served from this origin (the server's Content-Security-Policy lets
  // the worker fetch nothing else): /test-manifest?m=<the text>.
  await page.route('**/test-manifest?*', (route) => route.fulfill({
    contentType: 'application/json', body: new URL(route.request().url()).searchParams.get('m') ?? '',
  }));
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma, LIMITS } = await import('/enygma/index.mjs');
    const failure = (p: Promise<any>) => p.then(() => 'resolved', (err) => `${err.status}/${err.rule}/${err.field}`);
    const out: any = {};
    out.prefetch = await failure(Enygma.create({ prefetchKeys: [{}] }));
    out.threads = await failure(Enygma.create({ threads: 2 ** 31 }));
    // LIMITS' bounds are create's: one past each is refused with its range
    out.limits = LIMITS;
    out.beyond = await Promise.all(['threads', 'warmVerifier', 'warmProver', 'stallTimeoutMs'].flatMap((name) =>
      [LIMITS[name].min - 1, LIMITS[name].max + 1].map((v) => Enygma.create({ [name]: v }).then(() => 'resolved',
        (err) => `${err.field}: ${err.message}`))));
    out.relaxed = await failure(Enygma.create({ relaxedSimd: 'no' }));
    // an id the module does not know, refused once it has started (its prefetch began before)
    out.unknownPrefetch = await Enygma.create({ prefetchKeys: ['transfer-k2', 'nope'], warmVerifier: 0, warmProver: 0 })
      .then(() => 'resolved', (err) => `${err.status}/${err.rule}/${err.field}: ${err.message}`);
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    out.unknown = await failure(e.loadKeys('no-such-circuit'));
    const manifest = await (await fetch('/keys/manifest.json')).json();
    const entry = manifest.circuits.find((c: any) => c.id === 'transfer-k2');
    const abs = (k: any) => ({ ...k, url: new URL(k.url, location.origin + '/keys/manifest.json').href });
    const served = (text: string) => '/test-manifest?m=' + encodeURIComponent(text);
    const withKey = (pk: any) => served(JSON.stringify({ circuits: [{ ...entry, proving_key: pk, verifying_key: abs(entry.verifying_key) }] }));
    out.notJson = await e.loadKeys('transfer-k2', { manifestUrl: served('hello') })
      .then(() => 'resolved', (err) => `${err.status}/${err.rule}/${err.field}: ${err.message}`);
    out.noDigest = await failure(e.loadKeys('transfer-k2', { manifestUrl: withKey({ ...abs(entry.proving_key), blake2b: undefined }) }));
    out.hugeSize = await failure(e.loadKeys('transfer-k2', { manifestUrl: withKey({ ...abs(entry.proving_key), bytes: 1e12 }) }));
    out.badUrl = await failure(e.loadKeys('transfer-k2', { manifestUrl: withKey({ ...abs(entry.proving_key), url: 'http://[no host' }) }));
    out.good = (await e.loadKeys('transfer-k2', { manifestUrl: withKey(abs(entry.proving_key)) })).circuit;
    e.terminate();
    return out;
  });
  expect(r.prefetch).toBe('rejected/input/prefetchKeys');
  expect(r.threads).toBe('rejected/input/threads');
  expect(r.limits).toEqual({ threads: { min: 0, max: 64 }, warmVerifier: { min: 0, max: 1000 }, warmProver: { min: 0, max: 10 },
    stallTimeoutMs: { min: 1, max: 600000 } });
  expect(r.beyond).toEqual([
    'threads: threads must be a whole number (0: the default) from 0 to 64',
    'threads: threads must be a whole number (0: the default) from 0 to 64',
    'warmVerifier: warmVerifier must be a whole number from 0 to 1000',
    'warmVerifier: warmVerifier must be a whole number from 0 to 1000',
    'warmProver: warmProver must be a whole number from 0 to 10',
    'warmProver: warmProver must be a whole number from 0 to 10',
    'stallTimeoutMs: stallTimeoutMs must be a whole number of milliseconds from 1 to 600000',
    'stallTimeoutMs: stallTimeoutMs must be a whole number of milliseconds from 1 to 600000',
  ]);
  expect(r.relaxed).toBe('rejected/input/relaxedSimd');
  expect(r.unknownPrefetch).toMatch(/^rejected\/input\/prefetchKeys: prefetchKeys\[1\]: .*nope/);
  expect(r.unknown).toBe('rejected/input/circuit');
  expect(r.notJson).toMatch(/^error\/key\/manifest: GET \/test-manifest is not JSON \(/);
  expect(r.noDigest).toBe('error/key/manifest.transfer-k2.proving_key.blake2b');
  expect(r.hugeSize).toBe('error/key/manifest.transfer-k2.proving_key.bytes');
  expect(r.badUrl).toBe('error/key/manifest.transfer-k2.proving_key.url');
  expect(r.good).toBe('transfer-k2');
});

// A start whose files stall (requests the server never answers): create fails after its
// stallTimeoutMs, naming what it waited for, instead of waiting forever; once they are answered
// again, a create in the same page starts and runs.
test('a start whose .wasm or scripts stall fails after stallTimeoutMs naming the file, also where the .wasm comes without its type; the next start runs', async ({ page }) => {
  let stall: RegExp | null = null;
  // With `octetStream`, the .wasm comes without the application/wasm type: the page's compile
  // (Enygma's #compileModule) refuses it, the worker compiles it itself, from its bytes fetched
  // again; that third request stalls when `stall` names it.
  let octetStream = false, wasmRequests = 0;
  await page.context().route('**/enygma/**', async (route) => {
    const isWasm = /\/enygma_module\w*\.wasm/.test(route.request().url());
    if (isWasm) ++wasmRequests;
    if (octetStream && isWasm) {
      if (wasmRequests > 2 && stall) return; // never answered
      const response = await route.fetch();
      return route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
    }
    if (stall && stall.test(route.request().url())) return; // never answered
    return route.continue();
  });
  await page.goto(`${base()}/enygma/package.json`);
  const start = (stallTimeoutMs: number) => page.evaluate(async (ms) => {
    const { Enygma } = await import('/enygma/index.mjs');
    return Enygma.create({ stallTimeoutMs: ms, warmVerifier: 0, warmProver: 0 }).then(async (e) => {
      const valid = (await e.validate('transfer-k2', await e.makeRequest('transfer-k2'))).valid;
      e.terminate();
      return `started, ${e.module}, valid ${valid}, compiled by the ${e.compiledByPage ? 'page' : 'worker'}`;
    }, (err) => `${err.status}/${err.rule}/${err.field}: ${err.message}`);
  }, stallTimeoutMs);
  stall = /\/enygma_module\w*\.wasm/;
  expect(await start(4000)).toMatch(/^error\/internal\/: the prover did not start: nothing new for 4 s while waiting for the answer to GET \S+\/enygma\/enygma_module\w*\.wasm\S* \(the server or the network stalled\)$/);
  stall = /\/enygma_abi\.js/;
  expect(await start(4000)).toMatch(/^error\/internal\/: the prover did not start: nothing new for 4 s while waiting for the scripts \S+\/enygma\/enygma_abi\.js\S* and \S+\/enygma_module\w*\.js/);
  stall = /\/enygma_worker\.js/;
  expect(await start(4000)).toMatch(/^error\/internal\/: the prover did not start: nothing new for 4 s while waiting for the worker's script \S+\/enygma\/enygma_worker\.js/);
  stall = null;
  wasmRequests = 0;
  // the page compiles the module; the worker asks for no .wasm of its own
  expect(await start(30000)).toMatch(/^started, enygma_module\w*, valid true, compiled by the page$/);
  expect(wasmRequests).toBe(1);
  octetStream = true;
  stall = /\/enygma_module\w*\.wasm/;
  wasmRequests = 0;
  expect(await start(4000)).toMatch(/^error\/internal\/: the prover did not start: nothing new for 4 s while waiting for the answer to GET \S+\/enygma\/enygma_module\w*\.wasm\S* again \(to compile it from its bytes\) \(the server or the network stalled\)$/);
  expect(wasmRequests).toBe(3);
  stall = null;
  wasmRequests = 0;
  expect(await start(30000)).toMatch(/^started, enygma_module\w*, valid true, compiled by the worker$/);
  expect(wasmRequests).toBe(3);
  // The keys a start prefetches: a stalled manifest fails the loadKeys that takes the prefetch
  // after create's stallTimeoutMs, as the start would (it waited the default 30 s).
  let stallManifest = true;
  await page.context().route('**/keys/manifest.json', async (route) => {
    if (stallManifest) return; // never answered
    return route.continue();
  });
  const prefetched = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ stallTimeoutMs: 3000, warmVerifier: 0, warmProver: 0,
      manifestUrl: '/keys/manifest.json', prefetchKeys: ['transfer-k2'] });
    const t0 = performance.now();
    const out = await e.loadKeys('transfer-k2').then(() => 'loaded',
      (err: any) => `${err.status}/${err.rule}/${err.field}: ${err.message}`);
    e.terminate();
    return { out, ms: performance.now() - t0 };
  });
  stallManifest = false;
  expect(prefetched.out).toMatch(/^error\/key\/manifest: GET \S+\/keys\/manifest\.json: nothing received for 3 s \(the server or the network stalled\)$/);
  expect(prefetched.ms).toBeLessThan(15000);
});

// A cached load reads the key cache while the manifest is asked for (the manifest's digests then
// tell whether the entry is current): with the manifest held back 1 s, the cache's read (its own
// time, from the start) lies within the manifest's wait, not after it.
test('a cached loadKeys reads the key cache while the manifest is on its way', async ({ page }) => {
  let holdManifest = false;
  await page.context().route('**/keys/manifest.json', async (route) => {
    if (holdManifest) await new Promise((resolve) => setTimeout(resolve, 1000));
    return route.continue();
  });
  await page.goto(`${base()}/enygma/package.json`);
  const load = () => page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    const keys = await e.loadKeys('transfer-k6');
    e.terminate();
    return { source: keys.source, ms: keys.ms };
  });
  expect((await load()).source).toBe('network'); // (a fresh context: the first load fills the cache)
  holdManifest = true;
  const { source, ms } = await load();
  expect(source).toBe('cache');
  expect(ms.manifest).toBeGreaterThan(900);
  // read one after the other, manifest + cacheRead would be the time until the cached entry was
  // in hand (total - read - decode); read together, they overlap by the cache read's time
  const overlap = ms.manifest + ms.cacheRead - (ms.total - ms.read - ms.decode);
  expect(ms.cacheRead, JSON.stringify(ms)).toBeGreaterThan(2);
  expect(overlap, JSON.stringify(ms)).toBeGreaterThan(ms.cacheRead / 2);
});

// A prefetched cached key is copied into the module's memory as soon as the module has started,
// not when loadKeys asks for it: a loadKeys a while after create finds it there.
test('a prefetched cached key is in the module\'s memory before loadKeys asks for it', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const loads = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const options = { manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0, prefetchKeys: ['transfer-k6'] };
    const out = [];
    for (let i = 0; i < 2; ++i) { // the first fills the cache (a fresh context)
      const e = await Enygma.create(options);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const keys = await e.loadKeys('transfer-k6');
      out.push({ source: keys.source, prefetched: keys.prefetched, ms: keys.ms });
      e.terminate();
    }
    return out;
  });
  expect(loads.map((l) => [l.source, l.prefetched])).toEqual([['network', true], ['cache', true]]);
  // (read and copied on request, the 10 MB key took ~100 ms here)
  expect(loads[1].ms.read, JSON.stringify(loads[1].ms)).toBeLessThan(15);
});

// create's prefetchKeys also ride in the worker script URL's fragment (no part of the HTTP
// cache's key), so that the worker reads their key cache entries as its script starts, before
// init's message comes: a worker made with such a URL and sent nothing has read them.
test('the worker reads the key cache of the circuits in its URL\'s fragment as its script starts', async ({ page, request }) => {
  const index = await (await request.get(`${base()}/enygma/index.mjs`)).text();
  const version = index.match(/const PACKAGE_VERSION = '([0-9a-f]{16})';/)![1];
  await page.goto(`${base()}/enygma/package.json`);
  const made = await page.evaluate(async () => { // (fills the cache: a fresh context)
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0, prefetchKeys: ['transfer-k2'] });
    await e.loadKeys('transfer-k2');
    e.terminate();
    return true;
  });
  expect(made).toBe(true);
  const workerMade = page.waitForEvent('worker', (w) => w.url().includes('#prefetch='));
  await page.evaluate((v) => {
    (window as any).bare = new Worker(`/enygma/enygma_worker.js?v=${v}#prefetch=${encodeURIComponent(JSON.stringify(['transfer-k02', 3]))}`);
  }, version);
  const worker = await workerMade;
  const read = await worker.evaluate(async () => {
    const reads = (self as any).earlyCacheReads;
    const k2 = await reads['transfer-k2'];
    const k3 = await reads['transfer-k3'];
    return { names: Object.keys(reads).sort(), k2: k2.cached?.circuit, k2Bytes: (await k2.rawPk).byteLength, k3: k3.cached };
  });
  await page.evaluate(() => (window as any).bare.terminate());
  // (transfer-k02 read as the module names it; k3's keys were never cached)
  expect(read.names).toEqual(['transfer-k2', 'transfer-k3']);
  expect(read.k2).toBe('transfer-k2');
  expect(read.k2Bytes).toBeGreaterThan(1_000_000);
  expect(read.k3 ?? null).toBeNull();
});

// A download tells of its progress (onDownload: url, loaded, total, up to the manifest's size).
// A wallet offline, or behind a proxy that holds its requests: loadKeys rejects with rule key
// naming the URL that failed (the manifest's, a key file's), a stalled key file after its
// stallTimeoutMs; the keys loaded before stay loaded and prove.
test('loadKeys: a download\'s progress events; a manifest or key file that fails or stalls rejects with rule key naming the URL; the keys loaded before still prove', async ({ page }) => {
  let keys: 'abort' | 'stall' | null = null;
  await page.context().route('**/keys/**', async (route) => {
    const url = route.request().url();
    if (url.includes('/manifest.json?offline')) return route.abort('internetdisconnected');
    if (url.includes('/manifest.json') || keys === null) return route.continue();
    if (keys === 'abort') return route.abort('internetdisconnected');
    // 'stall': never answered
  });
  await page.goto(`${base()}/enygma/package.json`);
  const failure = (call: string) => page.evaluate(async (call) => {
    const e = (window as any).enygma;
    const options = { offline: { manifestUrl: '/keys/manifest.json?offline' }, again: { noCache: true },
      stalled: { noCache: true, stallTimeoutMs: 1000 } }[call];
    return e.loadKeys('transfer-k2', options).then(() => 'resolved', (err: any) => `${err.status}/${err.rule}/${err.field}: ${err.message}`);
  }, call);
  // the first load downloads (a fresh context's cache is empty), telling of its progress
  const first = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    (window as any).enygma = e;
    const events: any[] = [];
    const { source } = await e.loadKeys('transfer-k2', { onDownload: ({ url, loaded, total }: any) => events.push({ url, loaded, total }) });
    const manifest = await (await fetch('/keys/manifest.json')).json();
    const entry = manifest.circuits.find((c: any) => c.id === 'transfer-k2');
    const pk = { url: new URL(entry.proving_key.url, location.origin + '/keys/manifest.json').href, total: entry.proving_key.bytes };
    return { source, events, pk };
  });
  expect(first.source).toBe('network');
  const pkEvents = first.events.filter((e) => e.url === first.pk.url);
  expect(pkEvents.length).toBeGreaterThan(0);
  expect(pkEvents.every((e, i) => e.total === first.pk.total && e.loaded <= e.total && (i === 0 || e.loaded >= pkEvents[i - 1].loaded))).toBe(true);
  expect(pkEvents[pkEvents.length - 1].loaded).toBe(first.pk.total);
  const manifest = `${base()}/keys/manifest.json?offline`;
  expect(await failure('offline')).toBe(`error/key/manifest: GET ${manifest} failed: Failed to fetch ` +
    "(offline, or refused by CORS or the page's Content-Security-Policy connect-src)");
  keys = 'abort';
  expect(await failure('again')).toMatch(/^error\/key\/(\S+): GET \1 failed: Failed to fetch \(offline, /);
  keys = 'stall';
  expect(await failure('stalled')).toMatch(/^error\/key\/(\S+): GET \1: nothing received for 1 s \(the server or the network stalled\)$/);
  keys = null;
  const after = await page.evaluate(async () => {
    const e = (window as any).enygma;
    const request = await e.makeRequest('transfer-k2');
    const { response } = await e.prove('transfer-k2', request);
    return (await e.verify('transfer-k2', response)).valid;
  });
  expect(after).toBe(true);
});

// A wallet that ships its keys: loadKeyBytes with the manifest's digests loads them in the
// threaded module and proves; bytes of another digest are refused (status error, rule key, field
// pk or vk, both digests named) and the keys loaded before stay.
test('loadKeyBytes in the page: key files with their digests prove; other bytes are refused naming pk or vk, the keys before stay', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ warmVerifier: 0, warmProver: 0 });
    const manifestUrl = new URL('/keys/manifest.json', location.href);
    const manifest = await (await fetch(manifestUrl)).json();
    const entry = manifest.circuits.find((c: any) => c.id === 'transfer-k2');
    const bytes = async (key: any) => new Uint8Array(await (await fetch(new URL(key.url, manifestUrl))).arrayBuffer());
    const pk = await bytes(entry.proving_key), vk = await bytes(entry.verifying_key);
    const digests = { pkBlake2b: entry.proving_key.blake2b, vkBlake2b: entry.verifying_key.blake2b };
    const out: any = { isolated: e.crossOriginIsolated, threaded: e.threaded };
    out.loaded = await e.loadKeyBytes('transfer-k2', pk, vk, digests);
    const why = (err: any) => `${err.status}/${err.rule}/${err.field}: ${err.message}`;
    const flipped = vk.slice();
    flipped[flipped.length - 1] ^= 1;
    out.badVk = await e.loadKeyBytes('transfer-k2', pk, flipped, digests).then(() => 'resolved', why);
    out.wrongPk = await e.loadKeyBytes('transfer-k2', vk, vk, digests).then(() => 'resolved', why);
    out.digests = digests;
    const request = await e.makeRequest('transfer-k2');
    const { response } = await e.prove('transfer-k2', request);
    out.valid = (await e.verify('transfer-k2', response)).valid;
    e.terminate();
    return out;
  });
  expect(r.isolated).toBe(true);
  expect(r.threaded).toBe(true);
  expect(r.loaded).toMatchObject({ circuit: 'transfer-k2', canProve: true });
  expect(r.badVk).toMatch(new RegExp(`^error/key/vk: the vk bytes have BLAKE2b-256 [0-9a-f]{64}, not ${r.digests.vkBlake2b}$`));
  expect(r.wrongPk).toMatch(new RegExp(`^error/key/pk: the pk bytes have BLAKE2b-256 [0-9a-f]{64}, not ${r.digests.pkBlake2b}$`));
  expect(r.valid).toBe(true);
});

// terminate() while a proof runs in the threaded module (a wallet whose user closed the
// dialog): the proof and the calls queued behind it reject at once as terminated, every later
// call too, and the worker with its module's threads ends.
test('terminate() during a proof rejects it and the calls queued behind, and every later call; the workers end', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    await e.loadKeys('transfer-k6');
    const request = await e.makeRequest('transfer-k6');
    const why = (err: any) => `${err.name} ${err.status}/${err.rule}/${err.field}: ${err.message}`;
    let started!: () => void;
    const running = new Promise<void>((resolve) => { started = resolve; });
    const proof = e.prove('transfer-k6', request, { onStage: () => started() });
    const behind = [e.verify('transfer-k6', '{}'), e.prove('transfer-k6', request), e.memory()];
    await running;
    e.terminate();
    const t0 = performance.now();
    const answers = await Promise.all([proof, ...behind].map((p) => p.then(() => 'resolved', why)));
    return { answers, ms: performance.now() - t0, later: await e.makeRequest('transfer-k2').then(() => 'resolved', why),
      cancel: proof.cancel() };
  });
  const terminated = 'EnygmaError cancelled/cancelled/: the prover was terminated (Enygma#terminate)';
  expect(r.answers).toEqual([terminated, terminated, terminated, terminated]);
  expect(r.ms).toBeLessThan(1000);
  expect(r.later).toBe(terminated);
  expect(r.cancel).toBe(false);
  await expect.poll(() => page.workers().length, { timeout: 10_000 }).toBe(0);
});

// A worker script the browser does not load (a 404: a package whose files were not all
// deployed): its error event has no message; create rejects at once, naming the URL, and
// leaves no worker behind.
test('a worker script that is not served rejects create naming its URL (status error, rule internal)', async ({ page }) => {
  const version = fs.readFileSync(path.join(webDir(), 'enygma', 'index.mjs'), 'utf8').match(/PACKAGE_VERSION = '(\w+)'/)![1];
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const t0 = performance.now();
    const out = await Enygma.create({ workerUrl: '/enygma/not-deployed.js', warmVerifier: 0, warmProver: 0 })
      .then(() => 'resolved', (err: any) => `${err.status}/${err.rule}/${err.field}: ${err.message}`);
    return { out, ms: performance.now() - t0 };
  });
  expect(r.out).toBe(`error/internal/: worker failed: its script ${base()}/enygma/not-deployed.js?v=${version} did not load ` +
    "or run (refused by the page's Content-Security-Policy (worker-src, script-src), an HTTP error, or not served as JavaScript)");
  expect(r.ms).toBeLessThan(10000); // not the 30 s of the start's stall timeout
  await expect.poll(() => page.workers().length, { timeout: 10_000 }).toBe(0);
});

test('the package imports in a fresh page and proves, with progress, and verifies', async ({ page, request }) => {
  const pkg = await (await request.get(`${base()}/enygma/package.json`)).json();
  expect(pkg.exports['.'].import).toBe('./index.mjs');
  expect(pkg.exports['.'].types).toBe('./index.d.ts');
  for (const file of pkg.files) {
    expect((await request.get(`${base()}/enygma/${file}`)).status(), file).toBe(200);
  }
  const types = await (await request.get(`${base()}/enygma/index.d.ts`)).text();
  // The declarations name exactly what the module exports and the class's methods: its
  // top-level `export declare` values and the methods declared in `class Enygma` (two-space
  // indent; the private constructor aside), against the imported module below.
  const classBody = types.slice(types.indexOf('export declare class Enygma {'));
  const declared = {
    exports: [...types.matchAll(/^export declare (?:const|class|function) (\w+)/gm)].map((m) => m[1]).sort(),
    methods: [...classBody.slice(0, classBody.indexOf('\n}')).matchAll(/^  (static )?(\w+)\(/gm)]
      .map((m) => `${m[1] ? 'static ' : ''}${m[2]}`).sort(),
    readonly: [...classBody.slice(0, classBody.indexOf('\n}')).matchAll(/^  readonly (\w+):/gm)].map((m) => m[1]).sort(),
  };
  expect(declared.methods).toContain('static create');
  expect(declared.methods).toContain('prove');
  // A page that is not the demo: the package.json document.
  await page.goto(`${base()}/enygma/package.json`);
  const actual = await page.evaluate(async () => {
    const module: any = await import('/enygma/index.mjs');
    const own = (o: any, kind: 'value' | 'get') => Object.entries(Object.getOwnPropertyDescriptors(o))
      .filter(([n, d]: [string, any]) => n !== 'constructor' && (kind === 'get' ? d.get : typeof d.value === 'function'))
      .map(([n]) => n);
    return {
      exports: Object.keys(module).sort(),
      methods: [...own(module.Enygma, 'value').map((n) => `static ${n}`), ...own(module.Enygma.prototype, 'value')].sort(),
      readonly: own(module.Enygma.prototype, 'get').sort(),
    };
  });
  expect(actual).toEqual(declared);
  const result = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', prefetchKeys: ['transfer-k2'] });
    const families = (await e.circuits()).map((f: any) => f.name);
    const keys = await e.loadKeys('transfer-k2'); // the manifest given to create, read meanwhile
    const req = await e.makeRequest('transfer-k2', { seed: 'package test', count: 1 });
    const valid = await e.validate('transfer-k2', req);
    const stages: string[] = [];
    const proof = await e.prove('transfer-k2', req, { onStage: (s: any) => stages.push(s.name) });
    const verified = await e.verify('transfer-k2', proof.response);
    let refused = '';
    try {
      await e.prove('transfer-k2', '{"sender_id": "1"}');
    } catch (err: any) {
      refused = `${err.status} ${err.rule}`;
    }
    // Keys from bytes with a digest check: the wrong digest is refused.
    const manifest = await (await fetch('/keys/manifest.json')).json();
    const entry = manifest.circuits.find((c: any) => c.id === 'transfer-k2');
    const vk = new Uint8Array(await (await fetch(entry.verifying_key.url)).arrayBuffer());
    let digestRefused = '';
    try {
      await e.loadKeyBytes('transfer-k2', null, vk, { vkBlake2b: '00'.repeat(32) });
    } catch (err: any) {
      digestRefused = err.rule;
    }
    const memory = await e.memory();
    e.terminate();
    // The keys are in the cache now: a prover that prefetched them, then cleared the cache, loads
    // them from the network (not from what its prefetch read before the clear).
    const e2 = await Enygma.create({ manifestUrl: '/keys/manifest.json', prefetchKeys: ['transfer-k2'] });
    await e2.clearKeyCache();
    const afterClear = await e2.loadKeys('transfer-k2');
    e2.terminate();
    return { threaded: e.threaded, module: e.module, laneKernel: e.laneKernel, families, source: keys.source, prefetched: keys.prefetched,
      valid: valid.valid, stages, verified: verified.valid,
      refused, digestRefused, memory, afterClear: [afterClear.source, afterClear.prefetched] };
  });
  expect(result.threaded).toBe(true);
  // Chromium has relaxed SIMD: the module with the f64-lane kernel runs, and switched it on.
  expect(result.module).toBe('enygma_module_relaxed');
  expect(result.laneKernel).toBe('f64x2 relaxed SIMD');
  expect(result.families).toEqual(expect.arrayContaining(['transfer', 'deposit', 'withdraw', 'joinsplit-enygma', 'ownership-721']));
  expect(result.source).toBe('network');
  expect(result.prefetched).toBe(true);
  expect(result.valid).toBe(true);
  expect(result.stages).toEqual(['constraints', 'quotient', 'msm_a', 'msm_b1', 'msm_b2', 'msm_c', 'msm_h', 'done']);
  expect(result.verified).toBe(true);
  expect(result.refused).toBe('rejected input');
  expect(result.digestRefused).toBe('key');
  expect(result.memory.memory_bytes).toBeGreaterThan(0);
  expect(result.afterClear).toEqual(['network', false]);
});

// The key cache (IndexedDB 'enygma-keys') shared with tabs of other builds: a tab holding it open
// at an older version does not hold loadKeys back (keys downloaded instead), and the worker's own
// connection gives way to a tab asking for a newer version (which would otherwise wait forever).
test('the key cache: another build\'s tab holding it open does not stop loadKeys, and the worker gives way to a newer one', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const result = await page.evaluate(async () => {
    const within = <T,>(p: Promise<T>, ms: number, what: string) => Promise.race([p,
      new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms`)), ms))]);
    const open = (version: number) => new Promise<any>((resolve) => {
      const r = indexedDB.open('enygma-keys', version);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => resolve(null);
      setTimeout(() => resolve('blocked'), 5000);
    });
    const older = await open(2); // an older build's tab
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    const sources = [(await within(e.loadKeys('transfer-k2'), 30000, 'loadKeys beside the older tab')).source];
    older.close();
    sources.push((await e.loadKeys('transfer-k2')).source); // cached now
    sources.push((await e.loadKeys('transfer-k2')).source); // from the cache
    const newer = await open(99); // a newer build's tab
    const newerOpened = newer !== null && newer !== 'blocked';
    if (newerOpened) newer.close();
    sources.push((await within(e.loadKeys('transfer-k2'), 30000, 'loadKeys after the newer tab')).source);
    const { valid } = await e.verify('transfer-k2', (await e.prove('transfer-k2', await e.makeRequest('transfer-k2'))).response);
    e.terminate();
    return { sources, newerOpened, valid };
  });
  expect(result.sources).toEqual(['network', 'network', 'cache', 'network']);
  expect(result.newerOpened).toBe(true);
  expect(result.valid).toBe(true);
});

// A wallet's page at a path of its own (/app/) imports the package by a relative URL, under the
// Content-Security-Policy the server sends its demo, with Trusted Types enforced on the page
// (`trusted-types enygma`: the package's policy makes the worker's URL): the worker, the module's pthread workers and
// the .wasm come from the package's URL (index.mjs's import.meta.url), not the page's, and
// nothing is refused (no inline script, eval, blob: or data: URL). The server serves no /app/:
// the page and its script are the test's, with the headers of the server's own page and script.
test('a wallet page elsewhere imports the package by a relative URL and proves under the server\'s strict CSP and Trusted Types', async ({ page, request }) => {
  const html = '<!doctype html><meta charset="utf-8"><title>wallet</title><script type="module" src="wallet.js"></script>';
  const js = "import { Enygma } from '../enygma/index.mjs';\nwindow.wallet = { Enygma };\n";
  await page.route('**/app/**', async (route) => {
    const file = new URL(route.request().url()).pathname;
    const served = { '/app/index.html': ['/', 'text/html', html], '/app/wallet.js': ['/demo.js', 'text/javascript', js] }[file];
    if (!served) return route.continue(); // the server's 404
    const headers = { ...(await route.fetch({ url: `${base()}${served[0]}` })).headers() };
    for (const h of ['content-length', 'content-encoding', 'etag', 'cache-control']) delete headers[h];
    // the wallet's page enforces Trusted Types too, allowing the package's policy
    if (file === '/app/index.html') headers['content-security-policy'] += "; require-trusted-types-for 'script'; trusted-types enygma";
    await route.fulfill({ status: 200, headers, contentType: served[1], body: served[2] });
  });
  const violations = await watchCsp(page);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(new URL(w.url()).pathname));
  expectStrictCsp((await page.goto(`${base()}/app/index.html`))!.headers());
  expectStrictCsp((await request.get(`${base()}/enygma/enygma_worker.js`)).headers()); // the worker's own policy
  await page.waitForFunction(() => (window as any).wallet);
  const r = await page.evaluate(async () => {
    const { Enygma } = (window as any).wallet;
    let missing = '';
    await Enygma.create({ workerUrl: './no-such-worker.js' }).catch((err: any) => {
      missing = `${err.status} ${err.message}`;
    });
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    await e.loadKeys('transfer-k2');
    const proof = await e.prove('transfer-k2', await e.makeRequest('transfer-k2', { seed: 'wallet under CSP' }));
    const verified = await e.verify('transfer-k2', proof.response);
    e.terminate();
    return { missing, module: e.module, threaded: e.threaded, valid: verified.valid };
  });
  expect(r).toEqual({
    missing: expect.stringMatching(/^error worker failed: its script .*\/app\/no-such-worker\.js(\?v=\w+)? did not load or run/),
    module: 'enygma_module_relaxed', threaded: true, valid: true,
  });
  expect(workers).toEqual(expect.arrayContaining(['/enygma/enygma_worker.js', '/enygma/enygma_module_relaxed.worker.js']));
  expect(violations).toEqual([]);
  // Trusted Types were enforced: a Worker from a plain URL is refused
  expect(await page.evaluate(() => {
    try {
      new Worker('../enygma/enygma_worker.js').terminate();
      return 'made';
    } catch (e: any) {
      return e.name;
    }
  })).toBe('TypeError');
});

// The first Web Worker of the module's pool is made as the worker's script starts, not by the
// module once its script has loaded (a Worker's start takes ~50-100 ms here): with the module's
// script held back 1.5 s, the pool's script has come before that script comes (the worker's
// resource entries; Playwright sees no request of a worker's own Workers).
test('the pool\'s first Web Worker starts before the module\'s script has loaded', async ({ page }) => {
  await page.context().route(/\/enygma\/enygma_module_relaxed\.js/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return route.continue();
  });
  await page.goto(`${base()}/enygma/package.json`);
  const started = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ threads: 2, warmVerifier: 0, warmProver: 0 });
    (window as any).enygma = e;
    return { module: e.module, poolSize: e.poolSize };
  });
  expect(started).toEqual({ module: 'enygma_module_relaxed', poolSize: 2 });
  const worker = page.workers().find((w) => w.url().includes('enygma_worker.js'))!;
  // (responseEnd: a Worker's script entry reaches its parent only once the parent's thread is
  // free, here after the module's script, and its startTime tells that moment, not the request)
  const came = await worker.evaluate(() => Object.fromEntries(performance.getEntriesByType('resource')
    .map((e: any) => [new URL(e.name).pathname.split('/').pop(), e.responseEnd])));
  await page.evaluate(() => (window as any).enygma.terminate());
  const moduleScript = came['enygma_module_relaxed.js'];
  const poolScript = came['enygma_module_relaxed.worker.js'];
  expect(moduleScript !== undefined && poolScript !== undefined, JSON.stringify(came)).toBe(true);
  expect(poolScript, 'the pool\'s script came while the module\'s was held back').toBeLessThan(moduleScript - 1000);
});

// index.mjs names its build (PACKAGE_VERSION) and has the browser ask for the worker, the ABI
// calls and the module with `?v=<version>`, which the server answers as immutable; the demo's
// index.html names its stylesheet, demo.js and index.mjs so too. A second load of the demo takes
// them all from the browser's cache without a request (transferSize 0; a revalidation would
// transfer its headers).
test('the package and the demo ask for their files by version; a cached page load makes no request for them', async ({ page, request }) => {
  const index = await (await request.get(`${base()}/enygma/index.mjs`)).text();
  const version = index.match(/const PACKAGE_VERSION = '([0-9a-f]{16})';/)?.[1];
  expect(version, 'index.mjs carries its build\'s version').toBeTruthy();
  const files = ['enygma_worker.js', 'enygma_abi.js', 'enygma_module_relaxed.js', 'enygma_module_relaxed.wasm'];
  for (const file of files) {
    const r = await request.get(`${base()}/enygma/${file}?v=${version}`);
    expect(r.status(), file).toBe(200);
    expect(r.headers()['cache-control'], file).toBe('public, max-age=31536000, immutable');
  }
  expect((await request.get(`${base()}/enygma/index.mjs`)).headers()['cache-control']).toBe('no-cache');
  const load = async () => {
    await page.goto(`${base()}/?k=2`);
    await page.waitForFunction(() => window.demo?.keysReady, null, { timeout: 300_000 });
  };
  await load();
  await load();
  // The resource entries of the page (the worker's script) and of the worker (what it loads).
  type Entry = { name: string; transferSize: number };
  const entries: Entry[] = await page.evaluate(() => performance.getEntriesByType('resource').map((e: any) => ({ name: e.name, transferSize: e.transferSize })));
  const worker = page.workers().find((w) => w.url().includes('enygma_worker.js'));
  expect(worker, 'the demo\'s worker').toBeTruthy();
  expect(worker!.url()).toContain(`enygma_worker.js?v=${version}`);
  entries.push(...await worker!.evaluate(() => performance.getEntriesByType('resource').map((e: any) => ({ name: e.name, transferSize: e.transferSize }))));
  for (const file of files.slice(1)) {
    const entry = entries.find((e) => new URL(e.name).pathname.endsWith(`/enygma/${file}`));
    expect(entry, `${file} loaded`).toBeTruthy();
    expect(new URL(entry!.name).searchParams.get('v'), file).toBe(version);
    expect(entry!.transferSize, `${file} from the cache, without a request`).toBe(0);
  }
  // The demo page's own files: index.html names them by version (demo.js the package's index.mjs).
  for (const file of ['/demo.css', '/demo.js', '/enygma/index.mjs']) {
    const entry = entries.find((e) => new URL(e.name).pathname === file);
    expect(entry, `${file} loaded`).toBeTruthy();
    expect(new URL(entry!.name).searchParams.get('v'), file).toMatch(/^[0-9a-f]{16}$/);
    expect(entry!.transferSize, `${file} from the cache, without a request`).toBe(0);
  }
  // The manifest is still asked for every time (a redeploy's keys are seen at once).
  const manifest = entries.find((e) => e.name.endsWith('/keys/manifest.json'));
  expect(manifest?.transferSize ?? 0).toBeGreaterThan(0);
  // The key cache names the module that compared the keys with its circuit by the build's
  // version; a worker asked for under another version (not index.mjs's) hashes its .wasm.
  const checkedBy = () => cacheCheckedBy(page, 'transfer-k2');
  expect(await checkedBy()).toBe(`build ${version} enygma_module_relaxed.js`);
  await page.goto(`${base()}/enygma/package.json`);
  const loaded = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ workerUrl: '/enygma/enygma_worker.js?v=another', warmVerifier: 0, warmProver: 0 });
    const keys = await e.loadKeys('transfer-k2', { manifestUrl: '/keys/manifest.json' });
    e.terminate();
    return { source: keys.source, circuitChecked: keys.circuitChecked, compiledByPage: e.compiledByPage };
  });
  // (that worker hashes the .wasm's bytes it compiles: the page does not compile it)
  expect(loaded).toEqual({ source: 'cache', circuitChecked: true, compiledByPage: false });
  expect(await checkedBy()).toMatch(/^[0-9a-f]{64}$/);
});

test('the verifier warms up once keys are loaded, between operations', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 300 });
    const before = await e.verifierWarmup();
    await e.loadKeys('transfer-k2');
    const req = await e.makeRequest('transfer-k2', { seed: 'warm-up test' });
    // It starts after half a second of idleness (these reads of its state do not count), and
    // a proof asked for meanwhile waits for at most one of its verifications, and is right.
    const sleep = () => new Promise((resolve) => setTimeout(resolve, 10));
    let warm = await e.verifierWarmup();
    while (warm.rounds === 0) warm = (await sleep(), await e.verifierWarmup());
    const asked = warm;
    const proof = await e.prove('transfer-k2', req);
    // read at once after the proof: had the proof waited for the rest of the warm-up (hundreds of
    // verifications), it would be over by now
    const afterProof = await e.verifierWarmup();
    while (warm.state === 'running') warm = (await sleep(), await e.verifierWarmup());
    const verified = await e.verify('transfer-k2', proof.response);
    const tampered = JSON.parse(proof.response);
    tampered.public_signal[0] = tampered.public_signal[0] === '1' ? '2' : '1';
    const rejected = await e.verify('transfer-k2', JSON.stringify(tampered));
    const after = await e.verifierWarmup();
    e.terminate();
    return { before, asked, afterProof, warm, verified: verified.valid, rejected: rejected.valid, after };
  });
  expect(r.before.state).toBe('waiting');
  // the proof was asked for while the warm-up ran, and ran before the warm-up's rest
  expect(r.asked.state).toBe('running');
  expect(r.afterProof.state, JSON.stringify([r.asked, r.afterProof])).toBe('running');
  expect(r.afterProof.rounds).toBeLessThan(150);
  expect(r.warm).toMatchObject({ state: 'done', target: 300, rounds: 300, error: null });
  expect(r.warm.busyMs).toBeGreaterThan(0);
  expect(r.warm.firstMs).toBeGreaterThan(0);
  expect(r.verified).toBe(true);
  expect(r.rejected).toBe(false);
  expect(r.after.rounds).toBe(300); // verifications asked for by the page are not counted
});

test('the prover warms up when idle and stops for the page\'s operations; warmVerifier: 0 and warmProver: 0 turn the warm-ups off', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 10 });
    const before = await e.proverWarmup();
    await e.loadKeys('transfer-k2');
    const req = await e.makeRequest('transfer-k2', { seed: 'prover warm-up test' });
    // A proof asked for while a warm-up proof runs: the warm-up stops at its next stage (it may
    // be in its last already, so up to five tries), and the page's proof is right. The state
    // questions between do not count as operations.
    const proofs: any[] = [];
    let warm = await e.proverWarmup();
    for (let i = 0; i < 5 && warm.yielded === 0; ++i) {
      while (!e.proverWarmupRunning) await new Promise((resolve) => setTimeout(resolve, 2));
      proofs.push(await e.prove('transfer-k2', req));
      warm = await e.proverWarmup();
    }
    const mid = warm;
    while (warm.state === 'running') warm = (await new Promise((resolve) => setTimeout(resolve, 50)), await e.proverWarmup());
    let verified = true;
    for (const p of proofs) verified = verified && (await e.verify('transfer-k2', p.response)).valid;
    e.terminate();
    const off = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 0, warmProver: 0 });
    await off.loadKeys('transfer-k2');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const offStates = [await off.verifierWarmup(), await off.proverWarmup()];
    off.terminate();
    const refused: string[] = [];
    for (const options of [{ warmVerifier: -1 }, { warmProver: 11 }]) {
      try {
        await Enygma.create(options);
      } catch (err: any) {
        refused.push(`${err.rule} ${err.field}`);
      }
    }
    return { before, mid, warm, verified, proofs: proofs.length, offStates, refused };
  });
  expect(r.before).toMatchObject({ state: 'waiting', target: 10, rounds: 0 });
  expect(r.mid.yielded).toBeGreaterThan(0);
  expect(r.mid.circuit).toBe('transfer-k2');
  expect(r.verified).toBe(true);
  expect(r.warm).toMatchObject({ state: 'done', target: 10, rounds: 10, error: null });
  expect(r.warm.firstMs).toBeGreaterThan(0);
  expect(r.offStates[0]).toMatchObject({ state: 'off', rounds: 0 });
  expect(r.offStates[1]).toMatchObject({ state: 'off', rounds: 0 });
  expect(r.refused).toEqual(['input warmVerifier', 'input warmProver']);
});

// A page that moves to another circuit before the warm-ups ran a round on the first one's keys
// (the demo, switched at once), unloading the old keys before or after loading the new ones:
// both warm up on the keys still loaded (they stayed on the keys gone, and stopped).
test('warm-ups whose keys are unloaded before their first round run on the keys loaded next', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    // the old circuit unloaded first, then the new one loaded; or the new one loaded first
    const orders = [['unload', 'load'], ['load', 'unload']];
    const out = [];
    for (const order of orders) {
      const e = await Enygma.create({ manifestUrl: '/keys/manifest.json', warmVerifier: 3, warmProver: 1 });
      await e.loadKeys('transfer-k2');
      for (const step of order) await (step === 'load' ? e.loadKeys('deposit-k2') : e.unloadKeys('transfer-k2'));
      let v = await e.verifierWarmup();
      let p = await e.proverWarmup();
      for (const t0 = Date.now(); (v.state !== 'done' || p.state !== 'done') && Date.now() - t0 < 60000;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        [v, p] = [await e.verifierWarmup(), await e.proverWarmup()];
      }
      e.terminate();
      out.push({ v, p });
    }
    return out;
  });
  for (const { v, p } of r) {
    expect(v).toMatchObject({ state: 'done', rounds: 3, error: null });
    expect(p).toMatchObject({ state: 'done', rounds: 1, circuit: 'deposit-k2', error: null });
  }
});

test('twenty proofs in a row, one cancelled, leave the memory idle; a proof asked for during another waits for it', async ({ page }) => {
  await page.goto(`${base()}/enygma/package.json`);
  const r = await page.evaluate(async () => {
    const { Enygma } = await import('/enygma/index.mjs');
    const e = await Enygma.create();
    await e.loadKeys('transfer-k2', { manifestUrl: '/keys/manifest.json' });
    const req = await e.makeRequest('transfer-k2', { seed: 'memory test' });
    // Each proof's bytes made alone first (a test seed each), to compare with the pairs'; the
    // last pair's proofs have random blinding (they must differ).
    const seedOf = (i: number) => (i < 18 ? `m${i}` : undefined);
    const alone: string[] = [];
    for (let i = 0; i < 18; ++i) alone.push((await e.prove('transfer-k2', req, { testSeed: seedOf(i) })).response);
    // Idle: the verifier's warm-up done too (its first verification makes the verifier's tables,
    // which stay with the keys).
    while ((await e.verifierWarmup()).state === 'running') await new Promise((resolve) => setTimeout(resolve, 20));
    const idle = await e.memory();
    const events: Array<[number, string]> = [];
    const outcomes: Array<{ ok: boolean; response?: string; status?: string }> = [];
    const pending: Promise<void>[] = [];
    let cancelSent = false;
    for (let i = 0; i < 20; ++i) {
      // two at a time: the second is asked for while the first runs; proof 10 (the first of its
      // pair) is cancelled as its constraints start
      const p = e.prove('transfer-k2', req, {
        testSeed: seedOf(i),
        onStage: (s: any) => {
          events.push([i, s.name]);
          if (i === 10 && s.name === 'constraints') cancelSent = p.cancel();
        },
      });
      pending.push(p.then((x: any) => { outcomes[i] = { ok: true, response: x.response }; },
                          (err: any) => { outcomes[i] = { ok: false, status: err.status }; }));
      if (i % 2 === 1) await Promise.all(pending.slice(-2));
    }
    await Promise.all(pending);
    let allValid = true;
    for (const o of outcomes) if (o.ok) allValid = allValid && (await e.verify('transfer-k2', o.response)).valid;
    // Per pair, every stage of the first before any of the second's.
    let interleaved = 0;
    for (let i = 0; i < 20; i += 2) {
      const order = events.filter(([j]) => j === i || j === i + 1).map(([j]) => j);
      if (order.some((j, n) => n > 0 && j === i && order[n - 1] === i + 1)) ++interleaved;
    }
    const after = await e.memory();
    e.terminate();
    return {
      idle, after, allValid, interleaved, cancelSent,
      statuses: outcomes.map((o) => (o.ok ? 'ok' : o.status)),
      sameBytes: outcomes.slice(0, 18).map((o, i) => !o.ok || o.response === alone[i]),
      randomDiffer: outcomes[18].response !== outcomes[19].response,
      staged: [...new Set(events.map(([j]) => j))].length,
    };
  });
  expect(r.cancelSent).toBe(true);
  expect(r.statuses[10]).toBe('cancelled');
  expect(r.statuses.filter((s: string) => s === 'ok')).toHaveLength(19);
  expect(r.allValid).toBe(true);
  expect(r.sameBytes).toEqual(Array(18).fill(true)); // none corrupted by the other of its pair
  expect(r.randomDiffer).toBe(true); // fresh blinding without a test seed
  expect(r.staged).toBe(20);
  expect(r.interleaved).toBe(0);
  expect(r.after.memory_bytes).toBe(r.idle.memory_bytes);
  expect(Math.abs(r.after.heap_in_use_bytes - r.idle.heap_in_use_bytes)).toBeLessThan(256 * 1024);
  console.log(`memory: ${(r.idle.memory_bytes / 2 ** 20).toFixed(0)} MiB of WebAssembly memory, ` +
              `${(r.idle.heap_in_use_bytes / 2 ** 20).toFixed(1)} MiB in use idle`);
});

for (const circuit of ['deposit-k2', 'withdraw-k2', 'ownership-721', 'joinsplit-enygma']) {
  test(`${circuit}: the page proves the example request with the CLI's bytes; the server verifies it`, async ({ page, request }) => {
    test.skip(!circuits().includes(circuit), `${circuit} is not served in this run`);
    const m = circuit.match(/^(.*)-k(\d+)$/);
    const url = m ? `${base()}/?circuit=${m[1]}&k=${m[2]}` : `${base()}/?circuit=${circuit}`;
    await openDemo(page, url);
    await expect(page.locator('#request')).not.toHaveValue('');
    await page.click('#validate');
    await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'ok');
    const seed = `e2e-${circuit}`;
    await page.fill('#test-seed', seed);
    expect(await proveInPage(page)).toBe('ok');
    const browser = JSON.parse(await page.locator('#response').inputValue());
    expect(browser).toEqual(cliProve(circuit, path.join(webDir(), 'vectors', `${circuit}.json`), seed));
    await expectResult(page, 'verify-browser');
    await expectResult(page, 'verify-server');
    // A fresh request made in the page proves too, and the server proves the page's request.
    await page.click('#generate');
    await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'ok');
    await page.fill('#test-seed', '');
    expect(await proveInPage(page)).toBe('ok');
    await expectResult(page, 'verify-server');
    await expectResult(page, 'server-prove');
    // The broken example is refused in the page with the rule the server names. The example
    // loads asynchronously: validate once it is in the request box, not the request before it.
    const before = await page.locator('#request').inputValue();
    await page.click('#load-bad-example');
    await expect(page.locator('#request')).not.toHaveValue(before);
    await page.click('#validate');
    await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'error');
    const rule = JSON.parse(await page.locator('#error').innerText()).rule;
    const routes = await page.evaluate(() => window.demo.families.find((f: any) => f.name === window.demo.family).prove_route);
    const answer = await request.post(`${base()}${routes.replace('{k}', m ? m[2] : '')}`, {
      data: await page.locator('#request').inputValue(),
    });
    expect(answer.status()).toBe(400);
    expect((await answer.json()).rule).toBe(rule);
    expect(cspViolations.get(page), 'refused by the server\'s Content-Security-Policy').toEqual([]);
  });
}
