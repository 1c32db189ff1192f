// The demo page: a wallet that proves its own request in the browser (wasm/enygma.js), for
// every circuit the module knows (transfer, deposit, withdraw, join-split, ownership), checks
// the proof on both sides, and compares browser and server timings.
//
// The circuits and k values offered are those the server serves (its key manifest,
// keys/manifest.json, that loadKeys reads too) and the module knows.
//
// URL parameters: ?circuit=transfer (initial circuit family), &k=6 (initial anonymity-set
// size; one the server serves: another is refused, naming it, for the smallest served),
// &threads=N (pool size; default: all cores), &warm-prover=N (warm-up proofs, 0..10),
// &relaxed-simd=0 (the module without the f64-lane kernels), &key-store=blob (cached proving
// keys as Blobs in IndexedDB); another value of these is refused in the error box (rule url).
// window.demo exposes the page's state for tests and benchmarks (e2e/).
import { Enygma, EnygmaError, K_RANGE, LIMITS, STAGES } from './enygma/index.mjs';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// The example requests of ../shared/vectors (copied beside the page by wasm/CMakeLists.txt).
const EXAMPLE_IDS = new Set(['transfer-k2', 'transfer-k6', 'deposit-k2', 'deposit-k6', 'withdraw-k2',
  'withdraw-k6', 'joinsplit-enygma', 'joinsplit-1155', 'ownership-721']);
// What the count of makeRequest means per family (the demo offers 1..3).
const COUNT_LABELS = { transfer: 'recipients', withdraw: 'notes', 'joinsplit-enygma': 'inputs', 'joinsplit-1155': 'inputs' };
const STAGE_LABELS = {
  parse: 'parse, validate, witness',
  constraints: 'constraint evaluations',
  quotient: 'quotient (NTT)',
  msm_a: 'MSM A (G1)',
  msm_b1: 'MSM B (G1)',
  msm_b2: 'MSM B (G2)',
  msm_c: 'MSM C (G1)',
  msm_h: 'MSM H (G1)',
};

const demo = {
  state: 'starting',
  family: params.get('circuit') || 'transfer',
  k: Number(params.get('k')) || 2,
  families: [], // enygma.circuits(): name, k range, routes
  manifest: null, // the server's key manifest's circuits (id, family, k, routes, keys)
  served: Object.create(null), // family -> the k values the server serves ([] for a family without k)
  enygma: null,
  poolSize: 0,
  crossOriginIsolated: window.crossOriginIsolated === true,
  readyAt: null, // ms from navigation start to the first proof-ready state
  keys: {}, // circuit id -> loadKeys result
  keysReady: false,
  verifierWarmup: null, // the worker's verifier warm-up, as last read
  proverWarmup: null, // the worker's prover warm-up, as last read
  proof: null, // the running proof (a promise with cancel())
  serverProof: null, // the AbortController of the server proof awaited
  last: {}, // browserProof, browserVerify, serverVerify, serverProof, serverProofVerify, error
  timings: {}, // for the chart: browserProve, serverProve, browserVerify, serverVerify (ms)
};
window.demo = demo;

function family() {
  return demo.families.find((f) => f.name === demo.family) || null;
}
function hasK() {
  const f = family();
  return f ? f.max_k !== undefined : demo.family === 'transfer';
}
// The circuit id: "transfer-k6", "ownership-721".
function circuitId() {
  return hasK() ? `${demo.family}-k${demo.k}` : demo.family;
}
demo.circuitId = circuitId;
function route(kind) {
  const entry = demo.manifest && demo.manifest.find((c) => c.id === circuitId());
  if (entry && typeof entry[`${kind}_route`] === 'string') return entry[`${kind}_route`];
  const f = family();
  const pattern = f ? f[`${kind}_route`] : kind === 'prove' ? '/generateProofTransfer-{k}' : '/verifyProofTransfer-{k}';
  return pattern.replace('{k}', String(demo.k));
}
function exampleUrl(bad) {
  const id = circuitId();
  return EXAMPLE_IDS.has(id) ? `vectors/${id}${bad ? '-bad' : ''}.json` : null;
}

function setState(state) {
  demo.state = state;
  document.body.dataset.state = state;
  updateButtons();
}

function setStatus(el, status, text) {
  el.dataset.status = status;
  el.textContent = text;
}

function ms(x) {
  return x >= 100 ? Math.round(x) + ' ms' : x.toFixed(1) + ' ms';
}

// {error, rule, field} of an EnygmaError, of such an object, or of another Error (rule internal).
function errorJson(error) {
  return error instanceof EnygmaError ? error.json
    : error.error !== undefined ? { error: error.error, rule: error.rule ?? '', field: error.field ?? '' }
      : { error: String(error.message || error), rule: 'internal', field: '' };
}

// Errors shown in one box: the first's rule, their messages and (nonempty) fields joined.
function joined(errors) {
  return errors.length === 1 ? errors[0] : {
    error: errors.map((e) => e.error).join('; '),
    rule: errors[0].rule,
    field: errors.map((e) => e.field).filter((f) => f !== '').join(','),
  };
}

function showError(error) {
  const box = $('error');
  if (!error) {
    box.hidden = true;
    box.textContent = '';
    demo.last.error = null;
    return;
  }
  const json = errorJson(error);
  demo.last.error = json;
  box.hidden = false;
  box.textContent = JSON.stringify(json, null, 2);
}

// While a proof runs (in the browser or on the server) the request and the circuit are those
// of the proof: every control that changes them is locked until it ends.
function proofRunning() {
  return demo.state === 'proving' || demo.state === 'server-proving';
}

function updateButtons() {
  const busy = demo.state !== 'ready';
  const proving = demo.state === 'proving';
  const locked = proofRunning();
  const haveResponse = $('response').value.trim().length > 0;
  const module = demo.enygma !== null;
  $('prove').disabled = busy || !demo.keysReady;
  $('cancel').disabled = !proving && demo.state !== 'server-proving';
  $('generate').disabled = !module || locked;
  $('validate').disabled = !module || locked;
  $('load-example').disabled = locked || !exampleUrl(false);
  $('load-bad-example').disabled = locked || !exampleUrl(true);
  $('payees').disabled = locked || !COUNT_LABELS[demo.family];
  $('request').readOnly = locked;
  $('verify-browser').disabled = busy || !haveResponse || !demo.keysReady;
  $('verify-server').disabled = busy || !haveResponse;
  $('server-prove').disabled = busy || !demo.keysReady;
  $('k').disabled = locked || !hasK();
  $('circuit').disabled = locked;
  $('keys-retry').disabled = busy;
}

// ---- what the server serves ------------------------------------------------------------------
// The server's key manifest (docs/server.md): the circuits it has keys and routes for.
async function fetchManifest() {
  const response = await fetch('keys/manifest.json');
  if (!response.ok) throw new Error(`keys/manifest.json: the server answered ${response.status}`);
  const json = await response.json();
  if (!json || !Array.isArray(json.circuits)) throw new Error('keys/manifest.json has no list of circuits');
  return json.circuits;
}

// demo.served from the manifest and the module's families (without a manifest: every family
// the module knows, at its default k range).
function setServed(manifest) {
  demo.served = Object.create(null); // ?circuit=constructor is no family
  for (const f of demo.families) {
    if (manifest === null) {
      demo.served[f.name] = [];
      if (f.max_k !== undefined) for (let k = f.default_min_k ?? 2; k <= (f.default_max_k ?? 6); ++k) demo.served[f.name].push(k);
      continue;
    }
    const entries = manifest.filter((c) => c.family === f.name);
    if (entries.length === 0) continue;
    demo.served[f.name] = f.max_k === undefined ? [] : entries.map((c) => c.k).filter(Number.isInteger).sort((a, b) => a - b);
    if (f.max_k !== undefined && demo.served[f.name].length === 0) delete demo.served[f.name];
  }
}

// The k select: the values the server serves for the family; demo.k kept when served, else
// the smallest.
function fillK() {
  const ks = demo.served[demo.family] || [];
  if (hasK() && ks.length && !ks.includes(demo.k)) demo.k = ks[0];
  const select = $('k');
  select.textContent = '';
  for (const k of ks) {
    const option = document.createElement('option');
    option.value = option.textContent = String(k);
    select.appendChild(option);
  }
  if (ks.length) select.value = String(demo.k);
}

// ?threads= and ?warm-prover= as Enygma.create takes them (LIMITS; threads from 1: no
// parameter is the default): another value is refused, named in the error box (with
// checkUrlParams' refusals), and create's default taken.
const urlRefusals = [];
function wholeParam(name, { min, max }) {
  const text = params.get(name);
  if (text === null) return undefined;
  if (/^[0-9]{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max) return Number(text);
  urlRefusals.push({ error: `?${name}=${text}: a whole number from ${min} to ${max} is expected; taking the default`,
    rule: 'url', field: name });
  return undefined;
}

// ?relaxed-simd= and ?key-store= as one of their values; another (?relaxed-simd=false) is
// refused so too, and create's default taken, never silently.
function choiceParam(name, choices) {
  const text = params.get(name);
  if (text === null || choices.includes(text)) return text;
  urlRefusals.push({ error: `?${name}=${text}: ${choices.join(' or ')} is expected; taking the default`,
    rule: 'url', field: name });
  return null;
}

// The counts offered for the circuit: a transfer pays at most k - 1 recipients (the options
// above are disabled; a choice above them is lowered).
function fitPayees() {
  const max = demo.family === 'transfer' && hasK() ? demo.k - 1 : Infinity;
  const select = $('payees');
  for (const option of select.options) option.disabled = Number(option.value) > max;
  if (Number(select.value) > max) select.value = String(max);
}

// ?circuit= and ?k= against what is served: another value is refused, named in the error box,
// and the page takes transfer (or the first family) and the smallest served k.
function checkUrlParams() {
  const families = Object.keys(demo.served);
  const refusals = [...urlRefusals];
  if (!demo.served[demo.family]) {
    const fallback = demo.served.transfer ? 'transfer' : families[0];
    refusals.push({ error: `?circuit=${demo.family}: the server serves no such circuit (it serves ${families.join(', ')}); ` +
      `showing ${fallback}`, rule: 'url', field: 'circuit' });
    demo.family = fallback;
  }
  const ks = demo.served[demo.family] || [];
  const kParam = params.get('k');
  if (hasK() && kParam !== null && !(/^[0-9]+$/.test(kParam) && ks.includes(Number(kParam)))) {
    refusals.push({ error: `?k=${kParam}: ${demo.family} is served for k = ${ks.join(', ')}; showing k=${ks[0]}`,
      rule: 'url', field: 'k' });
    demo.k = ks[0];
  } else if (!hasK() && kParam !== null) {
    refusals.push({ error: `?k=${kParam}: ${demo.family} has no k; ignored`, rule: 'url', field: 'k' });
  }
  if (refusals.length) showError(joined(refusals));
}

// ---- keys -------------------------------------------------------------------------------
// Only the shown circuit's keys stay in the module's memory: those of the circuit left are
// unloaded (they stay in the key cache, so coming back is a cached load). keySeq counts the
// loads: the end of a load that another followed (the user moved on) changes nothing shown.
let keySeq = 0;
demo.loadedKeys = null; // the circuit whose keys the module holds (or is loading)

function showMemory(memory, after) {
  demo.memory = memory;
  // WebAssembly memory grows as needed and never shrinks: its size is the most the module has
  // held so far (the proof's peak included).
  $('memory').textContent = `${(memory.memory_bytes / 2 ** 20).toFixed(0)} MiB WebAssembly memory ` +
    `at its peak (${(memory.heap_in_use_bytes / 2 ** 20).toFixed(1)} MiB in use ${after})`;
}

async function unloadKeys(id) {
  delete demo.keys[id];
  try {
    await demo.enygma.unloadKeys(id);
  } catch (e) {
    // not loaded (its load failed): nothing to free
  }
}

async function loadKeys() {
  const id = circuitId();
  const seq = ++keySeq;
  const previous = demo.loadedKeys;
  demo.loadedKeys = id;
  // the worker answers in order: the last circuit's keys (loaded or loading) are freed first
  if (previous !== null && previous !== id) unloadKeys(previous);
  demo.keysReady = false;
  $('keys-retry').hidden = true;
  setState('loading-keys');
  const status = $('keys-status');
  status.textContent = `${id}: loading…`;
  try {
    const info = await demo.enygma.loadKeys(id, {
      onDownload: (e) => {
        if (seq !== keySeq) return;
        status.textContent = `${id}: downloading ${(e.loaded / 1e6).toFixed(1)} / ${(e.total / 1e6).toFixed(1)} MB`;
      },
    });
    if (seq !== keySeq) {
      // the user moved on: the next load unloaded these keys already; unloaded again unless
      // the user came back, so that the package does not keep them for a restarted worker
      if (demo.loadedKeys !== id) unloadKeys(id);
      return;
    }
    demo.keys[id] = info;
    demo.keysReady = true;
    status.textContent = `${id}: ${info.source === 'cache' ? 'cached' : 'downloaded'}, ready in ${ms(info.ms.total)}` +
      (info.insecureDevKeys ? ' (insecure development keys)' : '');
    if (demo.readyAt === null) demo.readyAt = performance.now();
    watchWarmup();
    demo.enygma.memory().then((m) => {
      if (seq === keySeq && demo.state !== 'proving') showMemory(m, `with the keys of ${id}`);
    }, () => {});
  } catch (e) {
    if (seq !== keySeq) return; // a failure of a circuit the user left: the next load runs
    status.textContent = `${id}: no keys (${e.message})`;
    $('keys-retry').hidden = false; // a network or server failure may pass: no other way but a reload
    showError(e);
  }
  setState('ready');
}

// The verifier's and the prover's warm-ups, which the worker runs once the first keys are
// loaded (Enygma.create's warmVerifier and warmProver), until they end (a worker replaced by a
// cancel answers for its own).
let watchingWarmup = false;
async function watchWarmup() {
  if (watchingWarmup) return;
  watchingWarmup = true;
  const el = $('warmup');
  for (;;) {
    let w, p;
    try {
      w = await demo.enygma.verifierWarmup();
      p = await demo.enygma.proverWarmup();
    } catch (e) {
      el.textContent = `warm-up unknown: ${e.message}`;
      break;
    }
    demo.verifierWarmup = w;
    demo.proverWarmup = p;
    $('prover-warmup').textContent = p.state === 'done'
      ? `warmed up: ${p.rounds} proofs of ${p.circuit} in ${ms(p.busyMs)} (the first ${ms(p.firstMs)}, the last ${ms(p.lastMs)})`
      : p.state === 'running' ? `warming up: ${p.rounds} / ${p.target} proofs of ${p.circuit} while idle`
        : p.state === 'waiting' ? 'warms up once keys are loaded' : 'no warm-up';
    if (w.state === 'done') {
      el.textContent = `warmed up: ${w.rounds} verifications in ${ms(w.busyMs)} (the first ${ms(w.firstMs)}, ` +
        `the last ${ms(w.lastMs)})`;
    } else if (w.state === 'running') {
      el.textContent = `warming up: ${w.rounds} / ${w.target}`;
    } else if (w.state === 'waiting') {
      el.textContent = 'warms up once keys are loaded';
    } else {
      el.textContent = w.state === 'off' ? 'no warm-up' : `warm-up failed: ${w.error}`;
    }
    // 'waiting': the next keys loaded start them, and this again
    if (w.state !== 'running' && p.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  watchingWarmup = false;
}

// ---- request ------------------------------------------------------------------------------
function request() {
  return $('request').value;
}

// Count the texts the request and response boxes have shown (the response box is read-only: only
// this page writes it): an answer about a text no longer shown (a fresh request asked for
// before the user typed or a proof started, a validation of an edited request, a verification
// of a response replaced) changes nothing.
let requestSeq = 0;
let responseSeq = 0;
function setResponse(text) {
  $('response').value = text;
  ++responseSeq;
}

function requestChanged() {
  ++requestSeq;
  setStatus($('request-status'), 'none', '');
  setResponse('');
  for (const id of ['verify-browser-result', 'verify-server-result', 'server-prove-result']) setStatus($(id), 'none', '');
  updateButtons();
}

// Counts the circuits shown (k or family changed): an answer for a circuit the user has left
// (a fresh request, a validation, a verification) changes nothing shown.
let viewSeq = 0;

// The example of the circuit shown when it was asked for: an answer that comes after another
// example was asked for or the circuit changed is dropped (exampleSeq counts both). A failed
// fetch is shown in the error box; the request box keeps what it had.
let exampleSeq = 0;
async function loadExample(bad, { keepError = false } = {}) {
  const url = exampleUrl(bad);
  if (!url) return;
  const seq = ++exampleSeq;
  let text;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: the server answered ${response.status}`);
    text = (await response.text()).trim();
  } catch (e) {
    if (seq !== exampleSeq) return;
    showError({ error: `the example request did not load: ${e.message}`, rule: 'http', field: url });
    return;
  }
  if (seq !== exampleSeq || proofRunning()) return; // the user moved on
  $('request').value = text;
  if (!keepError) showError(null);
  requestChanged();
}

async function generate() {
  showError(null);
  const seq = viewSeq;
  ++exampleSeq; // an example asked for before would replace the request asked for now
  const asked = requestSeq;
  const circuit = circuitId();
  try {
    const label = COUNT_LABELS[demo.family];
    const count = label ? Number($('payees').value) : 0; // fitPayees keeps it within the circuit's range
    const text = await demo.enygma.makeRequest(circuit, { count });
    // a request of the circuit the user left, or of a box changed since (typed into, or locked
    // by a proof of what it held)
    if (seq !== viewSeq || asked !== requestSeq || proofRunning()) return;
    $('request').value = JSON.stringify(JSON.parse(text), null, 1);
    requestChanged();
    const what = !label ? '' : count === 1 ? ` with one of its ${label}` : ` with ${count} ${label}`;
    setStatus($('request-status'), 'ok', `a fresh valid ${circuit} request${what} (made in this page)`);
  } catch (e) {
    if (seq === viewSeq) showError(e);
  }
}

async function validate() {
  showError(null);
  const seq = viewSeq;
  const asked = requestSeq;
  const family = demo.family;
  setStatus($('request-status'), 'busy', 'validating…');
  try {
    const result = await demo.enygma.validate(circuitId(), request());
    if (seq !== viewSeq || asked !== requestSeq) return null; // the user left the circuit or edited the request
    if (result.valid) {
      setStatus($('request-status'), 'ok', `valid: every rule of ${family} holds`);
    } else {
      setStatus($('request-status'), 'error', `rejected: ${result.error.rule} ${result.error.field}`);
      showError(result.error);
    }
    return result;
  } catch (e) {
    if (seq === viewSeq && asked === requestSeq) {
      setStatus($('request-status'), 'error', 'not validated');
      showError(e);
    }
    return null;
  }
}

// ---- proving in the browser --------------------------------------------------------------
function resetStages() {
  const body = $('stages').tBodies[0];
  body.textContent = '';
  for (const name of ['parse', ...STAGES.filter((s) => s !== 'done')]) {
    const row = body.insertRow();
    row.dataset.stage = name;
    row.insertCell().textContent = STAGE_LABELS[name];
    row.insertCell().textContent = '–';
  }
  $('prove-total').textContent = '–';
  setProgress(0);
}

// The progress bar, in percent (its width, and aria-valuenow for assistive technology).
function setProgress(percent) {
  $('progress-bar').style.width = `${percent}%`;
  $('progress').setAttribute('aria-valuenow', String(Math.round(percent)));
}

// "1 thread", "8 threads".
function threadsText(n) {
  return `${n} thread${n === 1 ? '' : 's'}`;
}

async function prove() {
  // Prove is disabled while its proof runs: a keyboard user's focus goes to Cancel, then back
  // (a disabled button would drop it to the start of the page).
  const focused = document.activeElement === $('prove');
  showError(null);
  resetStages();
  requestChanged();
  setStatus($('prove-status'), 'busy', 'proving…');
  setState('proving');
  if (focused) $('cancel').focus();
  const circuit = circuitId();
  // as written (the CLI's --test-seed takes its text as it is); empty: random blinding
  const testSeed = $('test-seed').value || undefined;
  const stageCount = STAGES.length - 1;
  const proof = demo.enygma.prove(circuit, request(), {
    testSeed,
    onStage: ({ stage, name }) => {
      setProgress((100 * stage) / stageCount);
      for (const row of $('stages').tBodies[0].rows) {
        if (row.dataset.stage === name) row.dataset.state = 'running';
        else if (row.dataset.state === 'running') row.dataset.state = 'done';
      }
    },
  });
  demo.proof = proof;
  try {
    const result = await proof;
    demo.last.browserProof = { circuit, k: hasK() ? demo.k : undefined, ...result };
    showMemory(result.memory, 'after the proof');
    setResponse(result.response);
    for (const row of $('stages').tBodies[0].rows) {
      row.dataset.state = 'done';
      const t = result.stages[row.dataset.stage];
      row.cells[1].textContent = t === undefined ? '–' : t.toFixed(1);
    }
    $('prove-total').textContent = result.ms.toFixed(1);
    setProgress(100);
    setStatus($('prove-status'), 'ok', `proved in ${ms(result.ms)} on ${threadsText(demo.poolSize)}`);
    demo.timings.browserProve = result.ms;
    drawChart();
  } catch (e) {
    demo.last.browserProof = null;
    // no stage runs any more: the bar and the stage rows back to their start
    for (const row of $('stages').tBodies[0].rows) delete row.dataset.state;
    setProgress(0);
    if (e.status === 'cancelled') {
      setStatus($('prove-status'), 'cancelled', 'cancelled');
      watchWarmup(); // a worker replaced by the cancel warms its verifier up again
      // the memory a cancelled proof held is free again: shown so (the line kept the last value)
      demo.enygma.memory().then((m) => {
        if (demo.state !== 'proving') showMemory(m, 'after the cancel');
      }, () => {});
    } else {
      setStatus($('prove-status'), 'error', e.status === 'rejected' ? `rejected: ${e.rule} ${e.field}` : 'failed');
      showError(e);
    }
  } finally {
    demo.proof = null;
    const lost = document.activeElement === $('cancel') || document.activeElement === document.body;
    setState('ready');
    if (focused && lost) $('prove').focus();
  }
}

function cancel() {
  if (demo.proof) demo.proof.cancel();
  else if (demo.serverProof) demo.serverProof.abort();
}

// ---- verification --------------------------------------------------------------------------
// The response shown, verified in the browser. An answer that comes after the user left the
// circuit or the response changed shows nothing.
async function verifyBrowser() {
  showError(null);
  const el = $('verify-browser-result');
  setStatus(el, 'busy', 'verifying…');
  const seq = viewSeq;
  const asked = responseSeq;
  let result = null;
  try {
    result = await demo.enygma.verify(circuitId(), $('response').value);
    if (seq !== viewSeq || asked !== responseSeq) return;
    setStatus(el, result.valid ? 'ok' : 'invalid',
      result.valid ? `valid (browser, ${ms(result.ms)})` : `not valid: ${result.error.error}`);
  } catch (e) {
    if (seq !== viewSeq || asked !== responseSeq) return;
    // a response that does not parse as a proof is refused ('rejected'); other failures are the
    // prover's (no keys, a restart)
    setStatus(el, 'error', `${e.status === 'rejected' ? 'malformed' : 'not verified'}: ${e.message}`);
    showError(e);
  }
  demo.last.browserVerify = result;
  if (result) demo.timings.browserVerify = result.ms;
  drawChart();
}

// Server-Timing "prove;dur=123" when the server sends it, the round trip otherwise.
function serverMs(response, metric, roundTrip) {
  const header = response.headers.get('server-timing') || '';
  const m = header.match(new RegExp(`(?:^|,)\\s*${metric};[^,]*dur=([0-9.]+)`));
  return m ? Number(m[1]) : roundTrip;
}

// A request to the server that got no answer (fetch rejected: the network, the server down).
function noAnswer(url, e) {
  return { error: `${url}: no answer from the server (${e.message})`, rule: 'http', field: url };
}

async function post(path, body, signal) {
  const t0 = performance.now();
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, signal });
  const text = await response.text();
  const roundTrip = performance.now() - t0;
  let json = null;
  try {
    json = JSON.parse(text);
  } catch (e) {
    json = null;
  }
  return { response, status: response.status, text, json, roundTrip };
}

async function verifyServer() {
  showError(null);
  const el = $('verify-server-result');
  setStatus(el, 'busy', 'asking the server…');
  const url = route('verify');
  const seq = viewSeq;
  const asked = responseSeq;
  try {
    const r = await post(url, $('response').value);
    if (seq !== viewSeq || asked !== responseSeq) return; // the user left the circuit, or the response changed
    const t = serverMs(r.response, 'verify', r.roundTrip);
    if (r.status === 200 && r.json && typeof r.json.valid === 'boolean') {
      demo.last.serverVerify = { valid: r.json.valid, ms: t };
      setStatus(el, r.json.valid ? 'ok' : 'invalid', r.json.valid ? `valid (server, ${ms(t)})` : 'not valid (server)');
      demo.timings.serverVerify = t;
      drawChart();
    } else {
      demo.last.serverVerify = { valid: null, status: r.status, error: r.json };
      setStatus(el, 'error', `server answered ${r.status}`);
      showError(r.json || { error: r.text, rule: 'http', field: String(r.status) });
    }
  } catch (e) {
    // no answer (the network, the server down): named in the error box too, as every failure
    if (seq === viewSeq && asked === responseSeq) {
      setStatus(el, 'error', `no answer: ${e.message}`);
      showError(noAnswer(url, e));
    }
  }
}

async function serverProve() {
  showError(null);
  const el = $('server-prove-result');
  setStatus(el, 'busy', 'the server is proving…');
  setState('server-proving');
  // The circuit of this proof, whatever the page shows when the server answers.
  const circuit = circuitId();
  const url = route('prove');
  // Cancel stops waiting (a server that does not answer would hold the page): the request is
  // aborted, and the server stops the proof of a client that left.
  const abort = new AbortController();
  demo.serverProof = abort;
  try {
    let r;
    try {
      r = await post(url, request(), abort.signal);
    } catch (e) {
      if (abort.signal.aborted) {
        setStatus(el, 'cancelled', 'cancelled');
        return;
      }
      setStatus(el, 'error', `no answer: ${e.message}`);
      showError(noAnswer(url, e));
      return;
    }
    if (r.status !== 200 || !r.json || !r.json.pi_a) {
      demo.last.serverProof = { status: r.status, error: r.json };
      setStatus(el, 'error', `server answered ${r.status}`);
      showError(r.json || { error: r.text, rule: 'http', field: String(r.status) });
      return;
    }
    const t = serverMs(r.response, 'prove', r.roundTrip);
    demo.last.serverProof = { circuit, response: r.text, ms: t };
    demo.timings.serverProve = t;
    const check = await demo.enygma.verify(circuit, r.text);
    demo.last.serverProofVerify = check;
    setStatus(el, check.valid ? 'ok' : 'invalid',
      `server proof in ${ms(t)}; ${check.valid ? 'valid' : 'NOT valid'} in the browser (${ms(check.ms)})`);
    if (!$('response').value) setResponse(r.text);
    drawChart();
  } catch (e) {
    setStatus(el, 'error', `failed: ${e.message}`);
    showError(e);
  } finally {
    demo.serverProof = null;
    setState('ready');
  }
}

// ---- chart: grouped bars, browser and server, per operation (plain SVG) ------------------------
function drawChart() {
  const svg = $('chart');
  const NS = 'http://www.w3.org/2000/svg';
  const groups = [
    { label: `prove ${circuitId()}`, browser: demo.timings.browserProve, server: demo.timings.serverProve },
    { label: 'verify', browser: demo.timings.browserVerify, server: demo.timings.serverVerify },
  ];
  const W = 560, H = 220, left = 110, right = 70, top = 28, rowH = 80;
  const max = Math.max(1, ...groups.flatMap((g) => [g.browser || 0, g.server || 0]));
  const scale = (v) => ((W - left - right) * v) / max;
  svg.textContent = '';
  const el = (name, attrs, text) => {
    const node = document.createElementNS(NS, name);
    for (const [a, v] of Object.entries(attrs)) node.setAttribute(a, v);
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  el('rect', { x: 0, y: 0, width: W, height: H, fill: '#fff' });
  el('rect', { x: left, y: 6, width: 10, height: 10, fill: 'var(--accent)' });
  el('text', { x: left + 14, y: 15, 'font-size': 11 }, `browser (${threadsText(demo.poolSize)})`);
  el('rect', { x: left + 170, y: 6, width: 10, height: 10, fill: 'var(--server)' });
  el('text', { x: left + 184, y: 15, 'font-size': 11 }, 'server (round trip)');
  groups.forEach((g, i) => {
    const y = top + i * rowH;
    el('text', { x: 4, y: y + 30, 'font-size': 12 }, g.label);
    [['browser', 'var(--accent)'], ['server', 'var(--server)']].forEach(([side, color], j) => {
      const v = g[side];
      const by = y + 6 + j * 28;
      el('rect', { x: left, y: by, width: v ? Math.max(1, scale(v)) : 0, height: 22, fill: color, 'data-bar': `${side}-${i}` });
      el('text', { x: left + (v ? scale(v) : 0) + 5, y: by + 15, 'font-size': 11 }, v === undefined ? '–' : ms(v));
    });
  });
  if (demo.timings.browserProve && demo.timings.serverProve) {
    el('text', { x: left, y: H - 6, 'font-size': 11, fill: '#5b6475' },
      `browser / server proof time: ${(demo.timings.browserProve / demo.timings.serverProve).toFixed(2)}×`);
  }
}

// ---- start -----------------------------------------------------------------------------------
async function start() {
  // the URL's k until the server's list is known (then checked against it: checkUrlParams)
  if (Number.isInteger(demo.k)) $('k').add(new Option(String(demo.k), String(demo.k)));
  $('isolation').textContent = demo.crossOriginIsolated ? 'cross-origin isolated' : 'NOT isolated (no threads)';
  const circuitChanged = () => {
    ++viewSeq; // answers still coming are the last circuit's
    ++exampleSeq; // an example still loading is the last circuit's
    $('request').value = '';
    // the proof card shows no proof of the circuit left (a proof locks the circuit: none runs)
    resetStages();
    setStatus($('prove-status'), 'none', '');
    demo.last.browserProof = null;
    $('payees-label').textContent = COUNT_LABELS[demo.family] || 'count';
    fitPayees();
    demo.timings = {};
    requestChanged();
    showError(null);
    drawChart();
    if (demo.enygma) loadKeys();
  };
  $('k').addEventListener('change', () => {
    demo.k = Number($('k').value);
    circuitChanged();
  });
  $('circuit').addEventListener('change', () => {
    demo.family = $('circuit').value;
    fillK();
    circuitChanged();
  });
  $('request').addEventListener('input', () => {
    ++exampleSeq; // what the user types wins over an example still loading
    requestChanged();
  });
  $('load-example').addEventListener('click', () => loadExample(false));
  $('load-bad-example').addEventListener('click', () => loadExample(true));
  $('generate').addEventListener('click', generate);
  $('validate').addEventListener('click', validate);
  $('prove').addEventListener('click', prove);
  $('cancel').addEventListener('click', cancel);
  $('verify-browser').addEventListener('click', verifyBrowser);
  $('verify-server').addEventListener('click', verifyServer);
  $('server-prove').addEventListener('click', serverProve);
  $('keys-retry').addEventListener('click', () => {
    showError(null); // the failed load's error
    loadKeys();
  });
  resetStages();
  drawChart();
  updateButtons();
  $('payees-label').textContent = COUNT_LABELS[demo.family] || 'count';

  // The manifest while the module starts (the keys' loads read it too: then from the cache).
  const manifestRead = fetchManifest().then((m) => m, (e) => e);
  // The circuit whose keys are read from the cache while the module starts, and loaded as soon
  // as it has started (null: none).
  let early = null;
  try {
    const threads = wholeParam('threads', { ...LIMITS.threads, min: 1 });
    // ?relaxed-simd=0: the module without the f64-lane kernel (for comparing); ?key-store=blob:
    // the cached proving keys as Blobs in IndexedDB, not files; ?warm-prover=N: that many warm-up
    // proofs (0: none; default create's).
    const warmProver = wholeParam('warm-prover', LIMITS.warmProver);
    const relaxedSimd = choiceParam('relaxed-simd', ['0', '1']);
    const keyStore = choiceParam('key-store', ['blob', 'auto']);
    const options = {
      threads,
      relaxedSimd: relaxedSimd !== '0',
      keyStore: keyStore ?? 'auto',
      ...(warmProver !== undefined ? { warmProver } : {}),
    };
    // The keys are read from the cache while the module starts (the circuit id is certain
    // before the families are known only for transfer), for a k the module knows (K_RANGE);
    // another ?k= (?k=1, ?k=17) is refused by checkUrlParams (rule url), the smallest k shown.
    early = demo.family === 'transfer' && Number.isInteger(demo.k) && demo.k >= K_RANGE.min && demo.k <= K_RANGE.max
      ? circuitId() : null;
    demo.enygma = await Enygma.create({ ...options, prefetchKeys: early !== null ? [early] : [] });
  } catch (e) {
    // no module: every line that waited for it says so (they showed "…" for good); the error
    // box says why, and names the URL's refusals too (checkUrlParams, which shows them, is not
    // reached)
    for (const id of ['kernel', 'threads', 'version', 'keys-status']) $(id).textContent = 'unavailable';
    showError(joined([errorJson(e), ...urlRefusals]));
    setState('failed');
    return;
  }
  // The worker answers in order: the families first, then (for transfer, whose circuit id is
  // certain already) the keys, with no round trip through this page between the two. The
  // families the module knows and the circuits the server serves are the lists offered; where
  // the URL asked for a circuit the server does not serve, checkUrlParams picks another, whose
  // load below makes this one's outcome stale (loadKeys).
  const families = demo.enygma.circuits();
  let keysLoaded = early !== null ? loadKeys() : null;
  demo.families = await families;
  const manifest = await manifestRead;
  if (manifest instanceof Error) {
    showError({ error: `the server's key manifest did not load: ${manifest.message}`, rule: 'http',
      field: 'keys/manifest.json' });
    setServed(null);
  } else {
    demo.manifest = manifest;
    setServed(manifest);
  }
  checkUrlParams();
  const picker = $('circuit');
  picker.textContent = '';
  for (const f of demo.families.filter((x) => demo.served[x.name])) {
    const option = document.createElement('option');
    option.value = f.name;
    option.textContent = f.name;
    option.title = f.summary;
    picker.appendChild(option);
  }
  picker.value = demo.family;
  fillK();
  $('payees-label').textContent = COUNT_LABELS[demo.family] || 'count';
  fitPayees();
  if (keysLoaded === null || circuitId() !== early) keysLoaded = loadKeys();
  // The circuit's example request, now that its id is known.
  if (exampleUrl(false)) loadExample(false, { keepError: true });
  demo.poolSize = demo.enygma.poolSize;
  demo.threaded = demo.enygma.threaded;
  $('isolation').textContent = demo.threaded ? 'cross-origin isolated: the module with threads'
    : 'not cross-origin isolated: the module without threads';
  $('kernel').textContent = `${demo.enygma.module}, lane kernel: ${demo.enygma.laneKernel}`;
  $('threads').textContent = `${demo.poolSize} (${navigator.hardwareConcurrency} cores)`;
  $('version').textContent = `${demo.enygma.version}, started in ${ms(demo.enygma.initMs)}`;
  drawChart();
  updateButtons();
  await keysLoaded;
}

// Whatever stops the start (the module's families not answered, a bug) is shown, never a page
// left starting with its buttons off.
start().catch((e) => {
  showError({ error: `the page did not start: ${e.message}`, rule: e.rule || 'internal', field: e.field || '' });
  setState('failed');
});
