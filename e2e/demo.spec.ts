// The browser demo against the real native server (started by global-setup.ts): the browser's
// proofs verify on the server, the server's in the browser, the same seed gives the same bytes
// as the native CLI, errors name their rule, cancel works, threads are really used.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, Page, Route } from '@playwright/test';
import { proveAndCancel } from './cancel';
import { test } from './js_coverage';
import { cacheCheckedBy } from './key_cache';

const base = () => process.env.ENYGMA_E2E_URL!;
const webDir = () => path.resolve(__dirname, '..', process.env.ENYGMA_WEB || 'build-wasm/web');
const artifacts = path.join(__dirname, 'artifacts');

declare global {
  interface Window {
    demo: any;
  }
}

// Waits until the page's keys are loaded (proof-ready); fails at once, with the page's error,
// when the module or the keys could not be loaded.
async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => window.demo && ((window.demo.state === 'ready' && window.demo.keysReady) ||
    window.demo.state === 'failed' || (window.demo.state === 'ready' && window.demo.last.error)), null, {
    timeout: 120_000,
  });
  const { keysReady, error } = await page.evaluate(() => ({ keysReady: window.demo.keysReady, error: window.demo.last.error }));
  expect(keysReady, `the page is not proof-ready: ${JSON.stringify(error)}`).toBe(true);
}

// Opens the demo for k and waits until its keys are loaded (proof-ready).
async function openDemo(page: Page, k: number, query = ''): Promise<void> {
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${base()}/?k=${k}${query}`);
  await waitReady(page);
}

async function proveInPage(page: Page): Promise<string> {
  await page.click('#prove');
  await expect(page.locator('#prove-status')).toHaveAttribute('data-status', /^(ok|error|cancelled)$/, { timeout: 120_000 });
  return page.locator('#prove-status').getAttribute('data-status') as Promise<string>;
}

async function expectStatus(page: Page, selector: string, status: string): Promise<void> {
  await expect(page.locator(selector)).toHaveAttribute('data-status', /^(ok|error|invalid|cancelled)$/, { timeout: 120_000 });
  expect(await page.locator(selector).getAttribute('data-status'), await page.locator(selector).innerText()).toBe(status);
}

// Clicks the button #<id> and expects its result element #<id>-result to end in `status`.
async function clickAndExpect(page: Page, id: string, status = 'ok'): Promise<void> {
  await page.click(`#${id}`);
  await expectStatus(page, `#${id}-result`, status);
}

// The page's proof verifies in the browser and on the server, and the server proves the
// page's request.
async function verifyBothSidesAndServerProve(page: Page): Promise<void> {
  await clickAndExpect(page, 'verify-browser');
  await clickAndExpect(page, 'verify-server');
  await clickAndExpect(page, 'server-prove');
}

function cliProve(k: number, requestFile: string, testSeed: string): any {
  const out = execFileSync(process.env.ENYGMA_BIN!, ['prove', '--k', String(k), '--input', requestFile,
    '--keys', process.env.ENYGMA_E2E_KEYS!, '--test-seed', testSeed], { encoding: 'utf8' });
  return JSON.parse(out);
}

test('the package\'s modules and scripts come gzip-compressed to a client that takes gzip, the same bytes', async ({ request }) => {
  for (const file of ['enygma_module.wasm', 'enygma_module_relaxed.wasm', 'enygma_module_st.wasm', 'enygma_module_relaxed.js',
    'enygma_module_relaxed.worker.js', 'enygma_worker.js', 'enygma_abi.js', 'index.mjs']) {
    const url = `${base()}/enygma/${file}`;
    const gz = await request.get(url, { headers: { 'Accept-Encoding': 'gzip' } });
    const plain = await request.get(url, { headers: { 'Accept-Encoding': 'identity' } });
    expect(gz.headers()['content-encoding'], file).toBe('gzip');
    expect(plain.headers()['content-encoding'], file).toBeUndefined();
    expect(gz.headers()['vary'], file).toBe('Accept-Encoding');
    // Playwright's client decodes the gzip form: it must be the file's own bytes.
    expect(Buffer.compare(await gz.body(), await plain.body()), file).toBe(0);
  }
});

test('the page is cross-origin isolated and its module runs a pool of several threads', async ({ page }) => {
  const response = await page.goto(`${base()}/?k=2`);
  expect(response!.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response!.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  await waitReady(page);
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  expect(await page.evaluate(() => window.demo.enygma.crossOriginIsolated)).toBe(true); // the worker's, as told
  const { poolSize, cores } = await page.evaluate(() => ({ poolSize: window.demo.poolSize, cores: navigator.hardwareConcurrency }));
  expect(poolSize).toBeGreaterThan(1);
  expect(poolSize).toBe(Math.max(cores, 1));
  await expect(page.locator('#threads')).toContainText(String(poolSize));
});

for (const k of [2, 6]) {
  test(`the browser proves the k=${k} reference request; browser and server verify it; the page stays responsive`, async ({ page, request }) => {
    await openDemo(page, k);
    await expect(page.locator('#request')).not.toHaveValue('');
    // the page keeps running while the worker proves: timers fire on time
    const t0 = await page.evaluate(() => {
      (window as any).maxGap = 0;
      (window as any).ticks = 0;
      let last = performance.now();
      (window as any).gapTimer = setInterval(() => {
        const now = performance.now();
        (window as any).maxGap = Math.max((window as any).maxGap, now - last);
        (window as any).ticks += 1;
        last = now;
      }, 10);
      return last;
    });
    expect(await proveInPage(page)).toBe('ok');
    const timing = await page.evaluate((start) => {
      clearInterval((window as any).gapTimer);
      return { maxGap: (window as any).maxGap, ticks: (window as any).ticks, elapsed: performance.now() - start };
    }, t0);
    expect(timing.maxGap).toBeLessThan(250);
    // and the timer kept firing through the whole proof (a proof shorter than the largest gap
    // allowed would otherwise pass whatever the page did): at least a third of its 10 ms ticks
    expect(timing.ticks).toBeGreaterThan(timing.elapsed / 10 / 3);
    const proof = JSON.parse(await page.locator('#response').inputValue());
    expect(Object.keys(proof)).toEqual(['pi_a', 'pi_b', 'pi_c', 'public_signal']);
    expect(proof.public_signal).toHaveLength(8 * k + 2);
    const stages = await page.evaluate(() => window.demo.last.browserProof.stages);
    for (const name of ['constraints', 'quotient', 'msm_a', 'msm_b1', 'msm_b2', 'msm_c', 'msm_h']) {
      expect(stages[name]).toBeGreaterThanOrEqual(0);
    }
    // The page reports the module's memory after the proof: its size (never shrinking: the
    // peak, the proof's included) and the heap in use.
    const memory = await page.evaluate(() => window.demo.last.browserProof.memory);
    expect(memory.memory_bytes).toBeGreaterThan(0);
    await expect(page.locator('#memory')).toHaveText(
      new RegExp(`^${Math.round(memory.memory_bytes / 2 ** 20)} MiB WebAssembly memory at its peak \\([0-9.]+ MiB in use after the proof\\)$`));

    await clickAndExpect(page, 'verify-browser');
    await clickAndExpect(page, 'verify-server');
    const answer = await request.post(`${base()}/verifyProofTransfer-${k}`, { data: JSON.stringify(proof) });
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ valid: true });
  });
}

test('the server proves; the browser verifies its proof and rejects a tampered one', async ({ page }) => {
  await openDemo(page, 2);
  await clickAndExpect(page, 'server-prove');
  const { serverProof, check } = await page.evaluate(() => ({
    serverProof: window.demo.last.serverProof.response,
    check: window.demo.last.serverProofVerify,
  }));
  expect(check.valid).toBe(true);
  const tampered = JSON.parse(serverProof);
  tampered.public_signal[1] = (BigInt(tampered.public_signal[1]) + 1n).toString();
  const result = await page.evaluate((text) => window.demo.enygma.verify(2, text), JSON.stringify(tampered));
  expect(result.valid).toBe(false);
  expect(result.error.rule).toBe('invalid');
});

for (const k of [2, 6]) {
  test(`k=${k}: with the same keys, request and test seed the browser's proof equals the CLI's`, async ({ page }) => {
    const seed = `e2e-cross-target-k${k}`;
    await openDemo(page, k);
    await page.fill('#test-seed', seed);
    expect(await proveInPage(page)).toBe('ok');
    const browser = JSON.parse(await page.locator('#response').inputValue());
    const cli = cliProve(k, path.join(webDir(), 'vectors', `transfer-k${k}.json`), seed);
    expect(browser).toEqual(cli);
    // and the 128-byte encodings agree too
    const [a, b] = await page.evaluate(async ([x, y]) => [
      await window.demo.enygma.exportProof(x, 'binary_hex'),
      await window.demo.enygma.exportProof(y, 'binary_hex'),
    ], [JSON.stringify(browser), JSON.stringify(cli)]);
    expect(a).toMatch(/^[0-9a-f]{256}$/);
    expect(a).toBe(b);
  });
}

// create's relaxedSimd: false (the page's ?relaxed-simd=0): the module with threads but without
// the f64-lane kernel, in an engine that has relaxed SIMD; the same bytes.
test('the threaded module without the lane kernel (relaxedSimd: false) proves the CLI\'s bytes', async ({ page }) => {
  const seed = 'e2e-plain-module';
  await openDemo(page, 2, '&relaxed-simd=0');
  expect(await page.evaluate(() => window.demo.enygma.module)).toBe('enygma_module');
  expect(await page.evaluate(() => window.demo.enygma.threaded)).toBe(true);
  // (the page compiled the module the worker picked, and handed it over)
  expect(await page.evaluate(() => window.demo.enygma.compiledByPage)).toBe(true);
  await expect(page.locator('#kernel')).toContainText('enygma_module,');
  await page.fill('#test-seed', seed);
  expect(await proveInPage(page)).toBe('ok');
  const browser = JSON.parse(await page.locator('#response').inputValue());
  expect(browser).toEqual(cliProve(2, path.join(webDir(), 'vectors', 'transfer-k2.json'), seed));
});

test('a fresh transfer made in the page proves and verifies on both sides', async ({ page, request }) => {
  await openDemo(page, 2);
  await page.click('#generate');
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'ok');
  const made = await page.locator('#request').inputValue();
  expect(JSON.parse(made).anonymity_set).toHaveLength(2);
  expect(await proveInPage(page)).toBe('ok');
  // both sides accept the page's proof; the server proves the page's request and its proof
  // verifies in the browser
  await verifyBothSidesAndServerProve(page);
  // a second fresh transfer differs (random seed)
  await page.click('#generate');
  await expect(page.locator('#request')).not.toHaveValue(made);
  const direct = await request.post(`${base()}/generateProofTransfer-2`, { data: await page.locator('#request').inputValue() });
  expect(direct.status()).toBe(200);
});

test('a fresh transfer split among three recipients proves and verifies (R15)', async ({ page }) => {
  await openDemo(page, 6);
  await page.selectOption('#payees', '3');
  await page.click('#generate');
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'ok');
  await expect(page.locator('#request-status')).toContainText('3 recipients');
  const made = JSON.parse(await page.locator('#request').inputValue());
  const v = BigInt(made.sender_tx_value);
  const sender = made.anonymity_set.indexOf(made.sender_id);
  const others = made.tx_values.filter((_: string, i: number) => i !== sender).map(BigInt);
  expect(others.reduce((a: bigint, b: bigint) => a + b, 0n)).toBe(v);
  expect(await proveInPage(page)).toBe('ok');
  await verifyBothSidesAndServerProve(page);
});

test('an invalid request shows the rule-naming error and leaves the page usable', async ({ page, request }) => {
  await openDemo(page, 2);
  // Examples load asynchronously: validate once the broken one has replaced the reference
  // example that the page loads at start.
  await expect(page.locator('#request')).not.toHaveValue('');
  const before = await page.locator('#request').inputValue();
  await page.click('#load-bad-example');
  await expect(page.locator('#request')).not.toHaveValue(before);
  await page.click('#validate');
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'error');
  const shown = JSON.parse(await page.locator('#error').innerText());
  expect(Object.keys(shown)).toEqual(['error', 'rule', 'field']);
  expect(shown.rule).toMatch(/^(R\d+|input)$/);
  // proving refuses it with the same rule, as the server does
  expect(await proveInPage(page)).toBe('error');
  const fromProve = JSON.parse(await page.locator('#error').innerText());
  expect(fromProve.rule).toBe(shown.rule);
  expect(fromProve.field).toBe(shown.field);
  const bad = fs.readFileSync(path.join(webDir(), 'vectors', 'transfer-k2-bad.json'), 'utf8');
  const server = await request.post(`${base()}/generateProofTransfer-2`, { data: bad });
  expect(server.status()).toBe(400);
  const serverError = await server.json();
  expect([serverError.rule, serverError.field]).toEqual([shown.rule, shown.field]);
  // malformed JSON names the input
  await page.fill('#request', '{"sender_id": "1",');
  await page.click('#validate');
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'error');
  expect(JSON.parse(await page.locator('#error').innerText()).rule).toBe('input');
  // still usable: the reference example proves
  await page.click('#load-example');
  await expect(page.locator('#error')).toBeHidden();
  expect(await proveInPage(page)).toBe('ok');
  await clickAndExpect(page, 'verify-browser');
});

test('cancel stops a running proof; the next proof runs', async ({ page }) => {
  await openDemo(page, 6);
  // a proof first, shown: the cancelled one must not leave it on the page
  expect(await proveInPage(page)).toBe('ok');
  await expect(page.locator('#response')).not.toHaveValue('');
  expect(await page.evaluate(() => window.demo.last.browserProof)).not.toBeNull();
  const { status, stopMs } = await proveAndCancel(page);
  expect(status).toBe('cancelled');
  console.log(`cancel: stopped ${stopMs} ms after the click`);
  expect(await page.evaluate(() => window.demo.last.browserProof)).toBeNull();
  await expect(page.locator('#response')).toHaveValue('');
  expect(await proveInPage(page)).toBe('ok');
  // a cancel before the proof starts (queued behind another call) cancels it too
  const early = await page.evaluate(async () => {
    const e = window.demo.enygma;
    const req = document.querySelector<HTMLTextAreaElement>('#request')!.value;
    const p = e.prove(6, req);
    p.cancel();
    try {
      await p;
      return 'finished';
    } catch (err: any) {
      return err.status;
    }
  });
  expect(early).toBe('cancelled');
});

// The OPFS files of the key cache (wasm/enygma_worker.js).
function keyFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('enygma-keys', { create: true });
    const names: string[] = [];
    for await (const name of (dir as any).keys()) names.push(name);
    return names.sort();
  });
}

test('keys are cached: the second page load takes them from the cache (an OPFS file, or a Blob in IndexedDB)', async ({ page }) => {
  const source = () => page.evaluate(() => window.demo.keys['transfer-k2'].source);
  const checked = () => page.evaluate(() => window.demo.keys['transfer-k2'].circuitChecked);
  await openDemo(page, 2);
  expect(await source()).toBe('network');
  expect(await checked()).toBe(true);
  const files = await keyFiles(page);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/^transfer-k2-[0-9a-f]{64}\.rawpk$/);
  await page.reload();
  await waitReady(page);
  expect(await source()).toBe('cache');
  expect(await checked()).toBe(false); // this module compared them with its circuit before
  // the demo asks the worker to read them while the module starts (Enygma.create's prefetchKeys)
  expect(await page.evaluate(() => window.demo.keys['transfer-k2'].prefetched)).toBe(true);
  expect(await proveInPage(page)).toBe('ok');

  // The module that compared them is named by its build's version (index.mjs's stamp, which
  // covers the .wasm), not hashed again on every load.
  expect(await cacheCheckedBy(page, 'transfer-k2')).toMatch(/^build [0-9a-f]{16} enygma_module_relaxed\.js$/);
  // An entry cached by another module (another version): compared with the circuit again, once.
  await page.evaluate(() => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('enygma-keys');
    open.onsuccess = () => {
      const tx = open.result.transaction('keys', 'readwrite');
      const store = tx.objectStore('keys');
      const get = store.get('transfer-k2');
      get.onsuccess = () => store.put({ ...get.result, checkedBy: 'another module' });
      tx.oncomplete = () => {
        open.result.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
    open.onerror = () => reject(open.error);
  }));
  for (const expected of [true, false]) {
    await page.reload();
    await waitReady(page);
    expect(await source()).toBe('cache');
    expect(await checked()).toBe(expected);
  }

  // A cache entry whose file is gone: downloaded again, and filed again.
  await page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('enygma-keys');
    for await (const name of (dir as any).keys()) await dir.removeEntry(name);
  });
  await page.reload();
  await waitReady(page);
  expect(await source()).toBe('network');
  expect(await keyFiles(page)).toEqual(files);

  // The Blob store (?key-store=blob): no file; cleared, downloaded, then from the cache.
  await page.evaluate(() => window.demo.enygma.clearKeyCache());
  expect(await keyFiles(page)).toEqual([]);
  await page.goto(`${base()}/?k=2&key-store=blob`);
  await waitReady(page);
  expect(await source()).toBe('network');
  await page.reload();
  await waitReady(page);
  expect(await source()).toBe('cache');
  expect(await keyFiles(page)).toEqual([]);
  expect(await proveInPage(page)).toBe('ok');
});

// A cached proving key file damaged (a byte changed, or cut short: a failing disk, a file written
// over): the next load refuses it (the key file's own digest, its size), downloads the key and
// caches it again; the load after that takes it from the cache.
test('a damaged cached key file (a byte changed, cut short) is downloaded again and cached anew', async ({ page }) => {
  const source = () => page.evaluate(() => window.demo.keys['transfer-k2'].source);
  await openDemo(page, 2);
  expect(await source()).toBe('network');
  const [name] = await keyFiles(page);
  for (const damage of ['a byte changed', 'cut short']) {
    await page.evaluate(async ({ name, damage }) => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('enygma-keys');
      const handle = await dir.getFileHandle(name);
      const file = await handle.getFile();
      const writable = await (handle as any).createWritable({ keepExistingData: true });
      if (damage === 'cut short') {
        await writable.truncate(file.size - 1);
      } else {
        const at = file.size >> 1;
        const byte = new Uint8Array(await file.slice(at, at + 1).arrayBuffer());
        await writable.write({ type: 'write', position: at, data: new Uint8Array([byte[0] ^ 1]) });
      }
      await writable.close();
    }, { name, damage });
    await page.reload();
    await waitReady(page);
    expect(await source(), damage).toBe('network');
    expect(await keyFiles(page), damage).toEqual([name]);
    await page.reload();
    await waitReady(page);
    expect(await source(), damage).toBe('cache');
  }
  expect(await proveInPage(page)).toBe('ok');
});

// A storage quota too small for the proving key (a full disk, a browser that limits the site's
// storage): the write of the key's file and of its entry fail; the key is used as downloaded,
// nothing of it stays cached, and the next load downloads it again, without an error.
test('a storage quota too small for the key: the key is downloaded and used, not cached, downloaded again on the next load', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(base()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1 << 20 });
  try {
    await openDemo(page, 2);
    for (const load of ['first', 'reload']) {
      expect(await page.evaluate(() => window.demo.keys['transfer-k2'].source), load).toBe('network');
      expect(await keyFiles(page), load).toEqual([]);
      expect(await cacheCheckedBy(page, 'transfer-k2'), load).toBeUndefined();
      if (load === 'first') {
        await page.reload();
        await waitReady(page);
      }
    }
    expect(await proveInPage(page)).toBe('ok');
  } finally {
    await cdp.send('Storage.overrideQuotaForOrigin', { origin }); // (the browser's own quota again)
  }
});

test('the finished demo (screenshot in e2e/artifacts/demo.png)', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 1100 });
  await openDemo(page, 6);
  expect(await proveInPage(page)).toBe('ok');
  await verifyBothSidesAndServerProve(page);
  await expect(page.locator('#chart [data-bar="server-0"]')).toHaveAttribute('width', /^[1-9]/);
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'demo.png'), fullPage: true });
});

// The controls that change the request or the circuit, as the page shows them right after a
// click on `button` (the page sets its state before its first await: read in the same task).
function controlsAfterClick(page: Page, button: string) {
  return page.evaluate((id) => {
    document.getElementById(id)!.click();
    const el = (x: string) => document.getElementById(x) as HTMLInputElement;
    return {
      state: window.demo.state,
      circuit: el('circuit').disabled, k: el('k').disabled, generate: el('generate').disabled,
      validate: el('validate').disabled, example: el('load-example').disabled,
      badExample: el('load-bad-example').disabled, payees: el('payees').disabled, requestReadOnly: el('request').readOnly,
    };
  }, button);
}
const LOCKED = { circuit: true, k: true, generate: true, validate: true, example: true, badExample: true, payees: true, requestReadOnly: true };

test('during a server proof the circuit, k and the request are locked; the browser checks the proof against its circuit', async ({ page }) => {
  await openDemo(page, 2);
  await expect(page.locator('#request')).not.toHaveValue('');
  expect(await controlsAfterClick(page, 'server-prove')).toEqual({ state: 'server-proving', ...LOCKED });
  await expectStatus(page, '#server-prove-result', 'ok');
  const { circuit, valid } = await page.evaluate(() => ({
    circuit: window.demo.last.serverProof.circuit, valid: window.demo.last.serverProofVerify.valid,
  }));
  expect([circuit, valid]).toEqual(['transfer-k2', true]);
  // unlocked again
  await expect(page.locator('#circuit')).toBeEnabled();
  await expect(page.locator('#k')).toBeEnabled();
  expect(await page.locator('#request').getAttribute('readonly')).toBeNull();
});

test('during a browser proof the request, its examples, the circuit and k are locked', async ({ page }) => {
  await openDemo(page, 2);
  await expect(page.locator('#request')).not.toHaveValue('');
  const before = await page.locator('#request').inputValue();
  expect(await controlsAfterClick(page, 'prove')).toEqual({ state: 'proving', ...LOCKED });
  await expect(page.locator('#prove-status')).toHaveAttribute('data-status', 'ok', { timeout: 120_000 });
  await expect(page.locator('#load-example')).toBeEnabled();
  expect(await page.locator('#request').getAttribute('readonly')).toBeNull();
  await expect(page.locator('#request')).toHaveValue(before);
});

// Holds the page's requests for `url` until the returned function is called (then they go on
// to the server, or are answered by `answer`).
async function holdRequests(page: Page, url: string, answer?: (route: any) => Promise<void>): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(url, async (route) => {
    await released;
    await (answer ? answer(route) : route.continue());
  });
  return release;
}

test('an example that arrives after the circuit changed is dropped (at start and on a click)', async ({ page }) => {
  // Each held example is delivered to the page (its request finished) before the page is read.
  let held = 0;
  const deliver = (route: Route) => (++held, route.continue());
  const finished = (name: string) => page.waitForEvent('requestfinished', (r) => r.url().endsWith(`/vectors/${name}`));
  const releaseStart = await holdRequests(page, '**/vectors/transfer-k2.json', deliver);
  await openDemo(page, 2);
  await page.selectOption('#circuit', 'deposit');
  await waitReady(page);
  const startExample = finished('transfer-k2.json');
  releaseStart();
  await startExample;
  await page.waitForTimeout(500);
  expect(held).toBe(1);
  expect(await page.locator('#request').inputValue(), 'the start-up example of transfer-k2 landed in deposit').toBe('');
  // on a click: deposit's example asked for, then the circuit changed back to transfer
  const releaseClick = await holdRequests(page, '**/vectors/deposit-k2.json', deliver);
  await page.click('#load-example');
  await page.selectOption('#circuit', 'transfer');
  await waitReady(page);
  const clickExample = finished('deposit-k2.json');
  releaseClick();
  await clickExample;
  await page.waitForTimeout(500);
  expect(held).toBe(2);
  expect(await page.locator('#request').inputValue(), 'the example of deposit-k2 landed in transfer').toBe('');
  // the circuit's own example still loads
  await page.click('#load-example');
  const own = JSON.parse(fs.readFileSync(path.join(webDir(), 'vectors', 'transfer-k2.json'), 'utf8'));
  await expect(page.locator('#request')).not.toHaveValue('');
  expect(JSON.parse(await page.locator('#request').inputValue())).toEqual(own);
});

test('an example that does not load, or a server route that does not answer, is named in the error box; the request is kept; no unhandled rejection', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openDemo(page, 2);
  await expect(page.locator('#request')).not.toHaveValue('');
  const before = await page.locator('#request').inputValue();
  await page.context().route('**/vectors/transfer-k2-bad.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.click('#load-bad-example');
  await expect(page.locator('#error')).toBeVisible();
  const shown = JSON.parse(await page.locator('#error').innerText());
  expect(shown.error).toContain('404');
  expect(shown.field).toBe('vectors/transfer-k2-bad.json');
  await expect(page.locator('#request')).toHaveValue(before);
  // a network failure, the same
  await page.context().route('**/vectors/transfer-k2.json', (route) => route.abort());
  await page.fill('#request', '{}');
  await page.click('#load-example');
  await expect(page.locator('#error')).toContainText('vectors/transfer-k2.json');
  await expect(page.locator('#request')).toHaveValue('{}');
  // the server's prove and verify routes with no answer (a network failure): named in the error
  // box (rule http, the route), the page ready again
  const noAnswer = async (button: string, routeName: string) => {
    await page.context().route(`**/${routeName}`, (route) => route.abort());
    await page.click(`#${button}`);
    await expectStatus(page, `#${button}-result`, 'error');
    await expect(page.locator('#error')).toBeVisible();
    const named = JSON.parse(await page.locator('#error').innerText());
    expect(named.rule, named.error).toBe('http');
    expect(named.field).toMatch(new RegExp(`/${routeName}$`));
    expect(await page.evaluate(() => window.demo.state)).toBe('ready');
    await page.context().unroute(`**/${routeName}`);
  };
  await noAnswer('server-prove', 'generateProofTransfer-2');
  // a server that does not answer at all: Cancel stops waiting (the request aborted), the page
  // ready again, no error
  await page.context().route('**/generateProofTransfer-2', () => {}); // never answered
  await page.click('#server-prove');
  await expect(page.locator('#cancel')).toBeEnabled();
  await page.click('#cancel');
  await expectStatus(page, '#server-prove-result', 'cancelled');
  expect(await page.evaluate(() => window.demo.state)).toBe('ready');
  await expect(page.locator('#cancel')).toBeDisabled();
  await page.context().unroute('**/generateProofTransfer-2');
  await page.fill('#request', before);
  await clickAndExpect(page, 'server-prove'); // a response to verify
  await noAnswer('verify-server', 'verifyProofTransfer-2');
  // a module that cannot start (its worker's script missing): the lines that wait for it say
  // so, the error box why
  await page.context().route('**/enygma/enygma_worker.js*', (route) => route.fulfill({ status: 404, body: 'not found' }));
  // (with the URL's refusals named beside it: checkUrlParams, which shows them, is not reached)
  await page.goto(`${base()}/?k=2&threads=100`);
  await page.waitForFunction(() => window.demo?.state === 'failed', null, { timeout: 60_000 });
  for (const id of ['kernel', 'threads', 'version', 'keys-status']) await expect(page.locator(`#${id}`), id).toHaveText('unavailable');
  const failed = JSON.parse(await page.locator('#error').innerText());
  expect(failed.error).toContain('enygma_worker.js');
  expect(failed.error).toContain('?threads=100');
  expect(failed.field.split(',')).toContain('threads');
  await page.context().unroute('**/enygma/enygma_worker.js*');
  expect(errors).toEqual([]);
});

// A server that is full answers 503 (rule overload, docs/server.md): the proof's and the
// verification's lines say what the server answered, the error box shows the server's error as
// it came; the page is ready again and the next answer shows.
test('a server answer other than 200 (503 overload) is shown with the server\'s error; the page stays usable', async ({ page }) => {
  await openDemo(page, 2);
  await clickAndExpect(page, 'server-prove'); // a response to verify
  const overload = { error: 'the server is at its limit of queued proofs; try again', rule: 'overload', field: '' };
  for (const [button, routeName] of [['server-prove', 'generateProofTransfer-2'], ['verify-server', 'verifyProofTransfer-2']]) {
    await page.context().route(`**/${routeName}`, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(overload) }));
    await clickAndExpect(page, button, 'error');
    await expect(page.locator(`#${button}-result`)).toHaveText('server answered 503');
    expect(JSON.parse(await page.locator('#error').innerText())).toEqual(overload);
    expect(await page.evaluate(() => window.demo.state)).toBe('ready');
    await page.context().unroute(`**/${routeName}`);
    await clickAndExpect(page, button);
    await expect(page.locator('#error')).toBeHidden();
  }
});

test('a key load that fails after the user moved on to another circuit shows nothing: the new circuit loads; a failed load is retried by its button', async ({ page }) => {
  await openDemo(page, 2);
  let failed = 0;
  const release = await holdRequests(page, '**/keys/transfer-k6.pk', (route) => (++failed, route.fulfill({ status: 500, body: 'held, then failed' })));
  await page.selectOption('#k', '6');
  await expect(page.locator('#keys-status')).toContainText('transfer-k6');
  await page.selectOption('#k', '2');
  release();
  await waitReady(page);
  // the worker answers in order: transfer-k2 ready means the failed load of transfer-k6 was seen
  expect(failed, 'the held key request was answered with a failure').toBe(1);
  await page.waitForTimeout(500);
  await expect(page.locator('#error')).toBeHidden();
  await expect(page.locator('#keys-status')).toContainText(/^transfer-k2: /);
  expect(await page.evaluate(() => [window.demo.state, window.demo.keysReady])).toEqual(['ready', true]);
  await expect(page.locator('#keys-retry')).toBeHidden();
  // a failed load of the shown circuit is named, with a button that loads again: it passes now
  await page.selectOption('#k', '6');
  await expect(page.locator('#keys-status')).toContainText(/^transfer-k6: no keys \(/);
  expect(failed).toBe(2);
  await expect(page.locator('#keys-retry')).toBeVisible();
  await expect(page.locator('#error')).toContainText('transfer-k6');
  await page.context().route('**/keys/transfer-k6.pk', (route) => route.continue());
  await page.click('#keys-retry');
  await waitReady(page);
  await expect(page.locator('#keys-status')).toContainText(/^transfer-k6: downloaded, ready in /);
  await expect(page.locator('#keys-retry')).toBeHidden();
  await expect(page.locator('#error')).toBeHidden();
});

test('only the shown circuit\'s keys stay in the module\'s memory; coming back loads them from the cache', async ({ page }) => {
  const inUse = () => page.evaluate(async () => (await window.demo.enygma.memory()).heap_in_use_bytes);
  const select = async (circuit: string) => {
    const m = circuit.match(/^(.*)-k(\d+)$/);
    await page.selectOption('#circuit', m ? m[1] : circuit);
    if (m) await page.selectOption('#k', m[2]);
    await waitReady(page);
    await expect(page.locator('#memory')).toContainText(`with the keys of ${circuit}`);
    return inUse();
  };
  // no warm-up proofs: the memory in use changes with the keys only
  await page.goto(`${base()}/?k=6&warm-prover=0`);
  await waitReady(page);
  expect(await proveInPage(page)).toBe('ok');
  const k6Proof = await page.locator('#response').inputValue();
  // every circuit the server serves (global-setup.ts), then transfer-k6 and transfer-k2 again
  const circuits = process.env.ENYGMA_E2E_CIRCUITS!.split(',').filter((c) => c !== 'transfer-k6');
  for (const circuit of circuits) await select(circuit);
  const k6 = await select('transfer-k6');
  expect(await page.evaluate(() => window.demo.keys['transfer-k6'].source)).toBe('cache');
  const k2 = await select('transfer-k2');
  expect(await page.evaluate(() => window.demo.keys['transfer-k2'].source)).toBe('cache');
  console.log(`memory in use: ${k6} bytes with transfer-k6's keys, ${k2} with transfer-k2's (${circuits.join(', ')} visited)`);
  // transfer-k6's keys are gone: its proof no longer verifies in the module, and their memory is free
  const left = await page.evaluate((proof) => window.demo.enygma.verify('transfer-k6', proof).then(
    () => 'verified', (e: any) => e.message), k6Proof);
  expect(left).toMatch(/no keys/);
  expect(k2).toBeLessThan(k6 - 2 ** 20);
  await page.click('#load-example');
  await expect(page.locator('#request')).not.toHaveValue('');
  expect(await proveInPage(page)).toBe('ok');
});

test('the page offers the circuits and k values the server serves; a ?k= it does not serve is refused, naming it', async ({ page }) => {
  // the server's circuits (global-setup.ts): family -> its k values
  const served: Record<string, string[]> = {};
  for (const id of process.env.ENYGMA_E2E_CIRCUITS!.split(',')) {
    const m = id.match(/^(.*)-k(\d+)$/);
    (served[m ? m[1] : id] ??= []).push(...(m ? [m[2]] : []));
  }
  const options = (select: string) => page.locator(`${select} option`).evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  await openDemo(page, 6);
  await expect(page.locator('#error')).toBeHidden();
  expect((await options('#circuit')).sort()).toEqual(Object.keys(served).sort());
  expect(await options('#k')).toEqual(served.transfer);
  await expect(page.locator('#k')).toHaveValue('6');
  for (const family of Object.keys(served)) {
    await page.selectOption('#circuit', family);
    expect(await options('#k'), family).toEqual(served[family]);
    await waitReady(page);
  }
  // (1 and 17: no transfer circuit the module knows: no key prefetch asked for, the module
  // started once)
  await page.addInitScript(() => {
    const Made = window.Worker;
    (window as any).enygmaWorkers = 0;
    window.Worker = class extends Made {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (options?.name === 'enygma') (window as any).enygmaWorkers++;
      }
    };
  });
  for (const k of ['9', '1', '17', '2.5', '3']) {
    await page.goto(`${base()}/?k=${k}`);
    await waitReady(page);
    expect(await page.evaluate(() => (window as any).enygmaWorkers), `?k=${k}: module starts`).toBe(1);
    await expect(page.locator('#k')).toHaveValue(served.transfer[0]);
    const shown = JSON.parse(await page.locator('#error').innerText());
    expect([shown.rule, shown.field], shown.error).toEqual(['url', 'k']);
    expect(shown.error).toContain(`?k=${k}`);
    expect(await page.evaluate(() => window.demo.circuitId())).toBe(`transfer-k${served.transfer[0]}`);
  }
  // a family without k: a ?k= is refused too, never taken unseen
  const withoutK = Object.keys(served).find((family) => served[family].length === 0);
  if (withoutK) {
    await page.goto(`${base()}/?circuit=${withoutK}&k=9`);
    await waitReady(page);
    const shown = JSON.parse(await page.locator('#error').innerText());
    expect([shown.rule, shown.field, shown.error]).toEqual(['url', 'k', `?k=9: ${withoutK} has no k; ignored`]);
    expect(await page.evaluate(() => window.demo.circuitId())).toBe(withoutK);
  }
  // (the names of Object.prototype's members too: no family of that name)
  for (const circuit of ['bogus', 'constructor', '__proto__']) {
    await page.goto(`${base()}/?circuit=${circuit}`);
    await waitReady(page);
    expect(JSON.parse(await page.locator('#error').innerText()).field, circuit).toBe('circuit');
    await expect(page.locator('#circuit')).toHaveValue('transfer');
  }
});

test('answers for a circuit the user has left change nothing shown: a fresh request, a validation, a verification; the proof card is cleared', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openDemo(page, 2);
  // a proof of transfer-k2 and its verification's answer, the circuit changed meanwhile
  expect(await proveInPage(page)).toBe('ok');
  // (the button must be enabled: a click on a disabled one asks nothing, and nothing would show)
  const switchWhile = async (button: string, family: string) => expect(await page.evaluate(([b, f]) => {
    const enabled = !(document.getElementById(b) as HTMLButtonElement).disabled;
    document.getElementById(b)!.click();
    const picker = document.getElementById('circuit') as HTMLSelectElement;
    picker.value = f;
    picker.dispatchEvent(new Event('change'));
    return enabled;
  }, [button, family]), `#${button} enabled`).toBe(true);
  await switchWhile('verify-browser', 'deposit');
  await waitReady(page); // deposit's keys: the worker answered the verification before
  await expect(page.locator('#verify-browser-result')).toHaveAttribute('data-status', 'none');
  await expect(page.locator('#prove-status')).toHaveAttribute('data-status', 'none');
  await expect(page.locator('#prove-total')).toHaveText('–');
  expect(await page.evaluate(() => window.demo.last.browserProof)).toBeNull();
  // a fresh request of deposit, answered after the switch to transfer
  await switchWhile('generate', 'transfer');
  await waitReady(page);
  await page.evaluate(() => window.demo.enygma.memory()); // one more round trip: every answer is in
  expect(await page.locator('#request').inputValue(), 'deposit\'s fresh request landed in transfer').toBe('');
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'none');
  // a validation of transfer's example, answered after the switch to deposit
  await page.click('#load-example');
  await expect(page.locator('#request')).not.toHaveValue('');
  await switchWhile('validate', 'deposit');
  await waitReady(page);
  await page.evaluate(() => window.demo.enygma.memory());
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'none');
  await expect(page.locator('#error')).toBeHidden();
  expect(errors).toEqual([]);
});

// Answers about a text the page no longer shows change nothing: a fresh request asked for just
// before a proof of the request shown (it replaced the locked request, beside a proof of the old
// one), a validation of a request edited before its answer ("valid" under the edited text),
// verifications of a response that a new proof replaced (verdicts beside a proof neither saw).
test('answers about a request or a proof no longer shown change nothing: a fresh request, a validation, verifications', async ({ page }) => {
  await openDemo(page, 2);
  await expect(page.locator('#request')).not.toHaveValue('');
  const example = await page.locator('#request').inputValue();
  const clickAll = (...ids: string[]) => page.evaluate((list) => list.map((id) => {
    const b = document.getElementById(id) as HTMLButtonElement;
    const enabled = !b.disabled;
    b.click();
    return enabled;
  }), ids);
  const settled = () => page.evaluate(() => window.demo.enygma.memory()); // the worker's answers before it are in
  // a fresh request, then a proof of the example (one task): the proof and the box are the example's
  await page.fill('#test-seed', 'late answers');
  expect(await clickAll('generate', 'prove')).toEqual([true, true]);
  await expect(page.locator('#prove-status')).toHaveAttribute('data-status', 'ok', { timeout: 120_000 });
  await settled();
  expect(await page.locator('#request').inputValue(), 'the fresh request replaced the proved one').toBe(example);
  expect(JSON.parse(await page.locator('#response').inputValue()))
    .toEqual(cliProve(2, path.join(webDir(), 'vectors', 'transfer-k2.json'), 'late answers'));
  // a validation, the request edited before its answer
  expect(await page.evaluate(() => {
    const enabled = !(document.getElementById('validate') as HTMLButtonElement).disabled;
    document.getElementById('validate')!.click();
    const box = document.getElementById('request') as HTMLTextAreaElement;
    box.value = '{"this is": "not a request"}';
    box.dispatchEvent(new Event('input'));
    return enabled;
  })).toBe(true);
  await settled();
  await expect(page.locator('#request-status')).toHaveAttribute('data-status', 'none');
  // verifications on both sides, then a proof: their verdicts are not shown beside the new proof
  await page.click('#load-example');
  await expect(page.locator('#request')).toHaveValue(example);
  await page.fill('#test-seed', ''); // random blinding: the next proof differs
  expect(await proveInPage(page)).toBe('ok');
  const first = await page.locator('#response').inputValue();
  const serverAnswered = page.waitForResponse((r) => r.url().includes('/verifyProofTransfer-2'));
  expect(await clickAll('verify-browser', 'verify-server', 'prove')).toEqual([true, true, true]);
  await expect(page.locator('#prove-status')).toHaveAttribute('data-status', 'ok', { timeout: 120_000 });
  await settled();
  await (await serverAnswered).finished(); // the server's answer is in too
  expect(await page.locator('#response').inputValue()).not.toBe(first);
  await expect(page.locator('#verify-browser-result')).toHaveAttribute('data-status', 'none');
  await expect(page.locator('#verify-server-result')).toHaveAttribute('data-status', 'none');
});

// ?threads= and ?warm-prover= out of create's range are refused, named, and the defaults taken
// (the page failed to start), so is a ?relaxed-simd= or ?key-store= of no known value (it was
// taken silently as the default); a transfer offers at most k - 1 recipients.
test('a ?threads= or ?warm-prover= out of range, or another ?relaxed-simd= or ?key-store=, is refused, naming it; a transfer offers at most k - 1 recipients', async ({ page }) => {
  await page.goto(`${base()}/?k=2&threads=100&warm-prover=x&relaxed-simd=false&key-store=opfs`);
  await waitReady(page);
  const shown = JSON.parse(await page.locator('#error').innerText());
  expect([shown.rule, shown.field], shown.error).toEqual(['url', 'threads,warm-prover,relaxed-simd,key-store']);
  expect(shown.error).toContain('?threads=100');
  expect(shown.error).toContain('?relaxed-simd=false');
  expect(shown.error).toContain('?key-store=opfs');
  expect(await page.evaluate(() => window.demo.poolSize)).toBe(await page.evaluate(() => navigator.hardwareConcurrency));
  const offered = () => page.locator('#payees option').evaluateAll((o) => o.filter((x) => !(x as HTMLOptionElement).disabled)
    .map((x) => (x as HTMLOptionElement).value));
  expect(await offered()).toEqual(['1']);
  await page.selectOption('#k', '6');
  await waitReady(page);
  expect(await offered()).toEqual(['1', '2', '3']);
  await page.selectOption('#payees', '3');
  await page.selectOption('#k', '2');
  await expect(page.locator('#payees')).toHaveValue('1');
});

test('after a cancel no stage row runs and the bar is back at 0; status lines, the error box, the bar and the text boxes are named for assistive technology', async ({ page }) => {
  await openDemo(page, 6);
  const { status } = await proveAndCancel(page);
  expect(status).toBe('cancelled');
  await expect(page.locator('#memory')).toContainText('in use after the cancel');
  await expect(page.locator('#stages tr[data-state="running"]')).toHaveCount(0);
  await expect(page.locator('#progress')).toHaveAttribute('aria-valuenow', '0');
  // its width shrinks in a CSS transition (0.12 s): polled until it ends
  await expect.poll(() => page.locator('#progress-bar').evaluate((el) => el.getBoundingClientRect().width)).toBe(0);
  // a cancelled proof has its own look
  const look = (status: string) => page.locator('#prove-status').evaluate((el, s) => {
    el.dataset.status = s;
    const style = getComputedStyle(el);
    return `${style.color} ${style.fontStyle}`;
  }, status);
  expect(await look('cancelled')).not.toBe(await look('none'));
  await page.locator('#prove-status').evaluate((el) => (el.dataset.status = 'cancelled')); // as it was
  // roles and names
  await expect(page.getByRole('progressbar', { name: 'proof progress' })).toHaveAttribute('aria-valuemax', '100');
  await expect(page.getByRole('textbox', { name: /^request/ })).toHaveAttribute('id', 'request');
  await expect(page.getByRole('textbox', { name: /^proof/ })).toHaveAttribute('id', 'response');
  for (const id of ['request-status', 'prove-status', 'verify-browser-result', 'verify-server-result', 'server-prove-result', 'keys-status']) {
    await expect(page.locator(`#${id}`), id).toHaveAttribute('role', 'status');
    await expect(page.locator(`#${id}`), id).toHaveAttribute('aria-live', 'polite');
  }
  await expect(page.locator('#error')).toHaveAttribute('role', 'alert');
  // the one button that sends the request (its secret key) off the page says so
  await expect(page.getByRole('button', { name: /^Server proof/ })).toHaveAccessibleDescription(/sends the request, with its secret key, to the server/);
  await expect(page.locator('.lead')).toContainText('unless you ask the server for its proof');
  const terms = await page.locator('.facts dt').allInnerTexts();
  expect(terms.length).toBeGreaterThan(3);
  expect(new Set(terms).size, terms.join(', ')).toBe(terms.length);
  // the progress bar follows the proof
  expect(await proveInPage(page)).toBe('ok');
  await expect(page.locator('#progress')).toHaveAttribute('aria-valuenow', '100');
  // Prove pressed from the keyboard: the focus goes to Cancel while it runs and comes back (a
  // disabled Prove dropped it to the start of the page)
  await page.focus('#prove');
  await page.keyboard.press('Enter');
  await expectStatus(page, '#prove-status', 'ok');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prove');
});

test('one thread is "1 thread"', async ({ page }) => {
  await page.goto(`${base()}/?k=2&threads=1`);
  await waitReady(page);
  expect(await page.evaluate(() => window.demo.poolSize)).toBe(1);
  expect(await proveInPage(page)).toBe('ok');
  await expect(page.locator('#prove-status')).toHaveText(/ on 1 thread$/);
  await expect(page.locator('#chart')).toContainText('browser (1 thread)');
});
