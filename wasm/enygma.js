// enygma.js: the browser API of the enygma prover (an ES module).
//
//   import { Enygma } from './enygma.js';
//   const enygma = await Enygma.create();                 // module + thread pool, in a Worker
//   await enygma.loadKeys('transfer-k6');                 // from keys/manifest.json, cached
//   const request = await enygma.makeRequest('transfer-k6'); // a fresh valid request
//   const proof = enygma.prove('transfer-k6', request, { onStage });
//   // proof.cancel() stops it; await proof -> {response, ms, stages, memory}
//   const { valid } = await enygma.verify('transfer-k6', (await proof).response);
//
// A circuit is named by its id: "transfer-k6", "deposit-k2", "withdraw-k4",
// "joinsplit-enygma", "joinsplit-1155", "ownership-721" (enygma.circuits() lists the
// families); a number k stands for "transfer-k<k>".
//
// All heavy work runs in a dedicated Worker (enygma_worker.js) that hosts the WebAssembly
// module, whose thread pool is made of further Workers: the page never blocks. Errors reject
// with an EnygmaError carrying the {error, rule, field} of the core ("R13", "input", "key"...);
// an argument of the wrong type or value too (status 'rejected', rule 'input', field: the
// argument's name), refused here or in the worker: a call that answers with a promise never
// throws.
// A cross-origin isolated page (COOP same-origin + COEP require-corp) gets the module with
// threads; any other page the same module linked without threads (one thread, the same
// proofs; `threaded` says which runs). Operations run one at a time in call order: a proof
// asked for while another runs waits for it.

// The build's version of the files this module has the browser load (the worker, the ABI
// calls, the modules): set by the build in index.mjs (wasm/stamp_versions.cmake), empty in the
// source. The worker is asked for with `?v=<version>` and asks for the others so: a server may
// keep such URLs cached without revalidation (`enygma serve` does), and a new build's files
// come under other URLs.
const PACKAGE_VERSION = '';

// (frozen, as LIMITS: index.d.ts declares both read-only, and a page that changed them would
// change them for every other user of the package in it)
export const STAGES = Object.freeze(['constraints', 'quotient', 'msm_a', 'msm_b1', 'msm_b2', 'msm_c', 'msm_h', 'done']);

export class EnygmaError extends Error {
  constructor(status, error) {
    super(error.error);
    this.name = 'EnygmaError';
    this.status = status; // 'rejected' (the input), 'cancelled', 'error', ...
    this.rule = error.rule;
    this.field = error.field;
    this.json = { error: error.error, rule: error.rule, field: error.field };
  }
}

// An argument of the wrong type or value: status 'rejected', rule 'input', the argument named
// (as the worker and the module refuse theirs).
function argumentError(field, error) {
  return new EnygmaError('rejected', { error, rule: 'input', field });
}

// The error of every call waiting when terminate() is called, and of every later one.
function terminatedError() {
  return new EnygmaError('cancelled', { error: 'the prover was terminated (Enygma#terminate)', rule: 'cancelled', field: '' });
}

// An options argument: an object, or nothing (undefined, null) for the defaults.
// A member given as null is left out (its default), in every call's options alike: as
// `threads: null` and loadKeys' `stallTimeoutMs: null` were, where `warmVerifier: null` was refused.
function optionsOf(options, field = 'options') {
  if (options == null) return {};
  if (typeof options !== 'object') throw argumentError(field, `${field} must be an object, not ${typeof options}`);
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== null));
}

// A callback argument: a function, or nothing.
function callbackOf(fn, field) {
  if (fn != null && typeof fn !== 'function') throw argumentError(field, `${field} must be a function, not ${typeof fn}`);
  return fn;
}

// A URL argument, relative to the page: a text or a URL (index.d.ts: string | URL). Any other
// value would be written as text and taken as a relative URL ("[object Object]", "5").
function urlOf(url, field) {
  if (typeof url !== 'string' && !(url instanceof URL)) {
    throw argumentError(field, `${field} must be a text or a URL, not ${url === null ? 'null' : Array.isArray(url) ? 'an array' : typeof url}`);
  }
  try {
    return new URL(url, location.href);
  } catch (e) {
    throw argumentError(field, `${field} is not a URL: ${e.message}`);
  }
}

// A manifest's URL, default 'keys/manifest.json' relative to the page.
function manifestUrlOf(url) {
  return urlOf(url == null || url === '' ? 'keys/manifest.json' : url, 'manifestUrl').href;
}

// The worker's URL as the page's Worker constructor takes it. A page that enforces Trusted Types
// (`require-trusted-types-for 'script'`) takes a TrustedScriptURL only: the package makes it with
// a policy of its own, named 'enygma' (the page allows it with `trusted-types enygma`), which
// passes the one URL create resolved and nothing else. Elsewhere: the URL as it is.
let trustedTypesPolicy; // undefined: not made yet; null: none (no Trusted Types, or refused)
function workerScriptUrl(url) {
  const tt = globalThis.trustedTypes;
  if (!tt || typeof tt.createPolicy !== 'function') return url;
  if (trustedTypesPolicy === undefined) {
    try {
      trustedTypesPolicy = tt.createPolicy('enygma', {
        createScriptURL: (s) => {
          if (!workerUrlsMade.has(s)) throw new TypeError(`the enygma policy makes no script URL of ${s}`);
          return s;
        },
      });
    } catch {
      trustedTypesPolicy = null; // a page whose trusted-types directive does not name enygma
    }
  }
  return trustedTypesPolicy ? trustedTypesPolicy.createScriptURL(url.href) : url;
}
// The worker URLs create resolved: all the policy above passes.
const workerUrlsMade = new Set();

// The ranges of create's and loadKeys' whole-number options (a page checking its own
// parameters reads them here). threads: the largest pool (each thread is a Web Worker with its
// own stack), 0 for the default.
export const LIMITS = Object.freeze({
  threads: Object.freeze({ min: 0, max: 64 }),
  warmVerifier: Object.freeze({ min: 0, max: 1000 }),
  warmProver: Object.freeze({ min: 0, max: 10 }),
  stallTimeoutMs: Object.freeze({ min: 1, max: 600000 }),
});
const MAX_THREADS = LIMITS.threads.max;

// The anonymity-set sizes k of the circuits with a k (transfer, deposit, withdraw): the range
// `circuits()` reports for each of them, known before a module starts (a page choosing the
// keys to prefetch from its URL checks its k here instead of starting the module for nothing).
export const K_RANGE = Object.freeze({ min: 2, max: 16 });

// Refuses option `name` unless a whole number within LIMITS[name]; `what` qualifies the number.
function checkWhole(name, value, what = '') {
  const { min, max } = LIMITS[name];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw argumentError(name, `${name} must be a whole number ${what}from ${min} to ${max}`);
  }
}

// A wait for the network that gets nothing for this long fails (create's and loadKeys'
// stallTimeoutMs; the worker's DEFAULT_STALL_MS).
const DEFAULT_STALL_MS = 30000;
function checkStallTimeout(ms) {
  checkWhole('stallTimeoutMs', ms, 'of milliseconds ');
}

// A circuit argument: a nonempty text ("transfer-k6", "ownership-721") or a number k.
function isCircuitId(c) {
  return (typeof c === 'string' && c !== '' && !c.includes('\0')) || Number.isInteger(c);
}

// The name a circuit's keys are remembered under, as the module names the circuit: a number k is
// the transfer circuit of that k (enygma_worker.js circuitOf), and k is written without leading
// zeros ("deposit-k02" is "deposit-k2": core/registry parse_circuit_id).
function keyOf(circuit) {
  if (typeof circuit === 'number') return 'transfer-k' + circuit;
  const m = typeof circuit === 'string' && /^(.+)-k(\d{1,3})$/.exec(circuit);
  return m ? `${m[1]}-k${Number(m[2])}` : circuit;
}

function isSharedBuffer(value) {
  return typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer;
}

// Whether an ArrayBuffer, or the buffer under a view, was detached (transferred elsewhere): its
// bytes are gone, and it cannot be sent to the worker.
function isDetached(value) {
  const buffer = ArrayBuffer.isView(value) ? value.buffer : value;
  if (!(buffer instanceof ArrayBuffer)) return false;
  try {
    buffer.slice(0, 0);
    return false;
  } catch {
    return true;
  }
}

export class Enygma {
  // threads: the pool size (default navigator.hardwareConcurrency). workerUrl: where
  // enygma_worker.js is (default: beside this file). relaxedSimd: false keeps the module without
  // the f64-lane kernel even where the engine has relaxed SIMD (the same proofs; for comparing).
  // keyStore: 'blob' keeps the cached proving keys as Blobs in IndexedDB even where the origin
  // private file system is available (default 'auto': files there). manifestUrl: the key
  // manifest loadKeys uses when not given one (default 'keys/manifest.json' relative to the
  // page). prefetchKeys: circuits whose manifest entry and cached keys are read while the
  // module starts (a stalled read failing after stallTimeoutMs); the first loadKeys of each with
  // that manifest takes them. warmVerifier: once the first keys are loaded and the worker has
  // been idle for half a second, it verifies a proof that does not verify this many times while
  // it has nothing else to do, so that the engine has optimized the verifier's code before the
  // first real verification (which otherwise takes several times longer); 0: no warm-up.
  // warmProver: after that, each time the worker has been idle for half a second, it proves a
  // fresh random request of the first circuit whose proving key was loaded (not a verifying key
  // alone), until it has made this many proofs, so that the page's first proof runs optimized
  // code (the first proofs of a page take several times longer); a warm-up proof stops at its
  // next stage as soon as this page sends an operation, and is made again later.
  // Only with threads (a cross-origin isolated page); 0: no warm-up. stallTimeoutMs: a start
  // (create's, and a restart's) whose worker tells of no progress for this long (its scripts,
  // the module's download, the pool's Workers: a stalled server or network) fails, naming what
  // it waited for (default 30 s, as loadKeys').
  static async create(options) {
    const { threads, workerUrl, relaxedSimd = true, keyStore = 'auto', manifestUrl, prefetchKeys = [],
      warmVerifier = 150, warmProver = 6, stallTimeoutMs = DEFAULT_STALL_MS } = optionsOf(options);
    const url = urlOf(workerUrl == null || workerUrl === '' ? new URL('./enygma_worker.js', import.meta.url) : workerUrl,
      'workerUrl');
    if (PACKAGE_VERSION && !url.searchParams.has('v')) url.searchParams.set('v', PACKAGE_VERSION);
    if (!relaxedSimd) url.searchParams.set('relaxed-simd', '0');
    if (keyStore === 'blob') url.searchParams.set('key-store', 'blob');
    else if (keyStore !== 'auto') throw argumentError('keyStore', "keyStore must be 'auto' or 'blob'");
    if (threads != null) checkWhole('threads', threads, '(0: the default) ');
    if (typeof relaxedSimd !== 'boolean') throw argumentError('relaxedSimd', 'relaxedSimd must be true or false');
    if (!Array.isArray(prefetchKeys) || !prefetchKeys.every(isCircuitId)) {
      throw argumentError('prefetchKeys', 'prefetchKeys must be an array of circuit ids (texts, or numbers k)');
    }
    checkWhole('warmVerifier', warmVerifier);
    checkWhole('warmProver', warmProver);
    checkStallTimeout(stallTimeoutMs);
    const enygma = new Enygma(url, threads || Math.min(navigator.hardwareConcurrency || 1, MAX_THREADS),
      manifestUrlOf(manifestUrl), { verifier: warmVerifier, prover: warmProver }, stallTimeoutMs);
    try {
      await enygma.#start(prefetchKeys);
    } catch (e) {
      enygma.terminate(); // the worker it started, and its module's threads
      throw e;
    }
    return enygma;
  }

  #workerUrl;
  #threads;
  #manifestUrl; // loadKeys' default
  #warm; // {verifier, prover}: create's warmVerifier and warmProver
  #worker = null;
  #starting = null; // the promise of a (re)start in progress
  #keys = new Map(); // circuit (keyOf) -> how its keys were loaded, to load them again after a restart
  #proofs = new Set(); // ids of the proofs sent and not yet answered
  #nextId = 1;
  #pending = new Map(); // id -> {resolve, reject, onEvent}
  #info = null;
  #cancelView = null;
  #opSeq = null; // with threads: added to before each operation is sent (see #post)
  #runningProof = null; // id of the proof the worker has started
  #cancelled = new Set(); // proof ids cancelled by the page
  // Without shared memory (#cancelView null) a proof is sent only once the worker has answered
  // every call sent before it; until then it waits here with the calls asked after it, so that
  // cancelling it while it waits needs no restart (see #post).
  #held = []; // [{id, op, args}], in the order asked
  #sent = new Set(); // ids sent to the worker and not yet answered
  #terminated = false; // terminate() was called: every call rejects
  #broken = null; // the error of a restart whose new worker did not start: every later call rejects with it
  #stallMs; // create's stallTimeoutMs
  #compiled = null; // {name, promise} of the WebAssembly module this page compiled (#compileModule)
  #compileAbort = null; // aborts its download (terminate)

  constructor(workerUrl, threads, manifestUrl, warm, stallMs) {
    this.#workerUrl = workerUrl;
    workerUrlsMade.add(workerUrl.href);
    this.#threads = threads;
    this.#manifestUrl = manifestUrl;
    this.#warm = warm;
    this.#stallMs = stallMs;
  }

  // A new worker and module; the keys loaded before are loaded again (from the key cache or
  // the bytes kept).
  async #start(prefetchKeys = []) {
    let worker;
    // The circuits to prefetch, also in the script URL's fragment (no part of the HTTP cache's
    // key): the worker reads their key cache entries as its script starts, before init comes.
    const scriptUrl = new URL(this.#workerUrl);
    if (prefetchKeys.length > 0) {
      scriptUrl.hash = 'prefetch=' + encodeURIComponent(JSON.stringify(prefetchKeys));
      workerUrlsMade.add(scriptUrl.href);
    }
    try {
      worker = new Worker(workerScriptUrl(scriptUrl), { name: 'enygma' });
    } catch (e) {
      // e.g. a page that enforces Trusted Types without allowing the policy 'enygma'
      const tt = globalThis.trustedTypes && !trustedTypesPolicy
        ? " (a page that enforces Trusted Types must allow the package's policy: trusted-types enygma)" : '';
      throw new EnygmaError('error', { error: `the worker ${this.#workerUrl.href} could not be made: ${e.message}${tt}`, rule: 'internal', field: 'workerUrl' });
    }
    this.#worker = worker;
    const compiled = this.#compileModule();
    worker.onmessage = (event) => this.#receive(event.data);
    // An error event without a message: the script did not load (a Content-Security-Policy
    // that does not allow it, an HTTP error, a type other than JavaScript) or did not run.
    worker.onerror = (event) => {
      // A worker replaced since (a restart) still reports its errors (browsers dispatch them after
      // terminate()): they are about the old module, and the calls now waiting are the new one's.
      if (this.#worker !== worker) return;
      const why = event.message || `its script ${this.#workerUrl.href} did not load or run (refused by the page's ` +
        'Content-Security-Policy (worker-src, script-src), an HTTP error, or not served as JavaScript)';
      const error = new EnygmaError('error', { error: 'worker failed: ' + why, rule: 'internal', field: '' });
      // After its start, an error the worker did not catch (a thread of its module crashed).
      if (!this.#replaceFailedWorker(error)) this.#rejectPending(error);
    };
    const init = this.#sendInit({
      threads: this.#threads, prefetchKeys, prefetchManifestUrl: this.#manifestUrl, warmVerifier: this.#warm.verifier,
      warmProver: this.#warm.prover, packageVersion: PACKAGE_VERSION, stallTimeoutMs: this.#stallMs,
      pageModule: compiled ? compiled.name : null
    });
    if (compiled) {
      // (sent apart from the operations: the worker's init waits for it)
      compiled.promise.catch(() => null).then((module) => {
        if (this.#worker !== worker) return;
        try {
          worker.postMessage({ op: 'module', name: compiled.name, module });
        } catch { // (a module that cannot be posted): the worker compiles its own
          worker.postMessage({ op: 'module', name: compiled.name, module: null });
        }
      });
    }
    const info = await init;
    this.#info = info;
    this.#cancelView = info.memory ? new Uint8Array(info.memory) : null;
    this.#opSeq = info.opSeq && this.#cancelView ? new Int32Array(info.opSeq) : null;
    for (const [circuit, how] of [...this.#keys]) {
      try {
        await this.#send(how.op, { circuit, ...how.args });
      } catch (e) {
        // (offline, a key file changed on the server): the circuit is no longer loaded, and its
        // calls say so ("no keys loaded", rule key); the worker serves the others
        if (e instanceof EnygmaError && (e.rule === 'key' || e.rule === 'input')) this.#keys.delete(circuit);
        else throw e;
      }
    }
  }

  get version() {
    return this.#info.version;
  }
  // Threads of the module's pool (the worker hosting the module included).
  get poolSize() {
    return this.#info.poolSize;
  }
  get crossOriginIsolated() {
    return this.#info.crossOriginIsolated;
  }
  // True for the module with threads (a cross-origin isolated page), false for the one without.
  get threaded() {
    return this.#info.threaded;
  }
  // Which module runs ('enygma_module', 'enygma_module_relaxed' or 'enygma_module_st'), and the
  // lane kernel of its MSM additions ('f64x2 relaxed SIMD' or 'none').
  get module() {
    return this.#info.module;
  }
  get laneKernel() {
    return this.#info.laneKernel;
  }
  get initMs() {
    return this.#info.initMs;
  }
  get compiledByPage() {
    return this.#info.compiledByPage;
  }

  // [{name, summary, min_k, max_k, default_min_k, default_max_k, prove_route, verify_route}]
  circuits() {
    return this.#call('circuits', {});
  }
  circuitInfo(circuit) {
    return this.#call('circuitInfo', { circuit });
  }
  // A circuit's keys from the server (manifestUrl: default create's), checked against the
  // manifest's sizes and BLAKE2b digests, decoded, and cached decoded (an OPFS file or an
  // IndexedDB Blob). stallTimeoutMs: a wait for the network (the manifest, the headers, each
  // chunk of a key file) that gets nothing for this long fails the load (default 30 s), so that a
  // stalled server cannot hold the calls queued behind it. -> {circuit, k, source:
  // 'cache'|'network', insecureDevKeys, circuitChecked, prefetched, ms, decodeSteps}
  async loadKeys(circuit, options) {
    let { manifestUrl, noCache = false, onDownload, stallTimeoutMs } = optionsOf(options);
    manifestUrl = manifestUrl == null || manifestUrl === '' ? this.#manifestUrl : manifestUrlOf(manifestUrl);
    // (a text 'false' would be true, and skip the cache)
    if (typeof noCache !== 'boolean') throw argumentError('noCache', `noCache must be true or false, not ${typeof noCache}`);
    callbackOf(onDownload, 'onDownload');
    if (stallTimeoutMs != null) checkStallTimeout(stallTimeoutMs);
    const loaded = this.#call('loadKeys', { circuit, manifestUrl, noCache, stallTimeoutMs }, (event) => {
      if (event.event === 'download' && onDownload) onDownload(event);
    });
    // (#keys changes in the order of the worker's answers, which is the order of the calls: a
    // load answered after a later unload was asked for is undone by that unload's answer)
    loaded.then(() => this.#keys.set(keyOf(circuit), { op: 'loadKeys', args: { manifestUrl } }), () => {});
    return loaded;
  }
  // Keys from bytes (ArrayBuffer or typed array of key files, raw or compressed; pk null for a
  // verify-only instance, empty bytes are a truncated key file: refused); with pkBlake2b /
  // vkBlake2b (64 hex digits, BLAKE2b-256), bytes with another digest are refused. A refused
  // load keeps the circuit's keys loaded before.
  async loadKeyBytes(circuit, pk, vk, expect) {
    const { pkBlake2b, vkBlake2b } = optionsOf(expect, 'expect');
    const args = { pk: pk == null ? null : toBuffer(pk, 'pk'), vk: toBuffer(vk, 'vk'), pkBlake2b, vkBlake2b };
    // Without shared memory a cancel restarts the worker, which gets the keys again: from a copy
    // of the bytes made now (the caller may reuse or transfer its buffer). With shared memory
    // there is no restart, and no copy is kept.
    const kept = this.#cancelView ? null
      : { ...args, pk: args.pk && args.pk.slice(0), vk: args.vk.slice(0) };
    const loaded = this.#call('loadKeyBytes', { circuit, ...args });
    loaded.then(() => {
      if (kept) this.#keys.set(keyOf(circuit), { op: 'loadKeyBytes', args: kept });
      else this.#keys.delete(keyOf(circuit));
    }, () => {});
    return loaded;
  }
  // Forgets a circuit's keys (their memory is freed in the module).
  async unloadKeys(circuit) {
    const unloaded = this.#call('unloadKeys', { circuit });
    const forget = () => this.#keys.delete(keyOf(circuit));
    unloaded.then(forget, forget);
    return unloaded;
  }
  // {memory_bytes, heap_in_use_bytes, heap_free_bytes, threads}: the module's memory now.
  memory() {
    return this.#call('memory', {});
  }
  // The verifier's warm-up (create's warmVerifier): {state: 'off' | 'waiting' (no keys yet) |
  // 'running' | 'done' | 'failed', target, rounds, busyMs (its verifications' time), firstMs,
  // lastMs (the first and the latest), error}.
  verifierWarmup() {
    return this.#call('verifierWarmup', {});
  }
  // The prover's warm-up (create's warmProver): {state: 'off' (none, or no threads) | 'waiting'
  // (no keys yet) | 'running' | 'done', target, circuit, rounds (proofs made), yielded (proofs
  // stopped for the page's operations), busyMs, firstMs, lastMs, error}.
  proverWarmup() {
    return this.#call('proverWarmup', {});
  }
  // Whether a warm-up proof is running in the worker now (read at once from memory shared with
  // it; false without threads).
  get proverWarmupRunning() {
    return this.#opSeq !== null && Atomics.load(this.#opSeq, 1) === 1;
  }
  clearKeyCache() {
    return this.#call('clearKeyCache', {});
  }
  // A valid request (JSON text) of a circuit, built by its wallet code; seed: a nonempty text
  // (its BLAKE2b-256 is the seed) or 32 bytes (Uint8Array or ArrayBuffer) for a reproducible
  // one, otherwise a fresh random one; count: the family's main count, 0 or absent for its
  // default (transfer: recipients sharing the amount, 1..k-1, default 1; withdraw: notes,
  // 1..10, default 1; join-split: real inputs, 1..10, default 2; deposit and ownership: 1).
  async makeRequest(circuit, options) {
    const { seed, count } = optionsOf(options);
    if (isDetached(seed)) throw argumentError('seed', 'seed is over a detached ArrayBuffer (its bytes were transferred)');
    // Seed bytes go to the worker as a copy of their own: a view's whole buffer would be cloned
    // with it (the wallet's heap around a 32-byte seed), and a SharedArrayBuffer's shared, so
    // that the worker's wipe would zero the caller's seed. This copy is wiped once answered.
    const bytes = ArrayBuffer.isView(seed) ? new Uint8Array(seed.buffer, seed.byteOffset, seed.byteLength)
      : seed instanceof ArrayBuffer || isSharedBuffer(seed) ? new Uint8Array(seed) : null;
    const copy = bytes ? Uint8Array.from(bytes) : null;
    const made = this.#call('makeRequest', { circuit, seed: copy || seed, count });
    if (copy) {
      const wipe = () => copy.fill(0);
      made.then(wipe, wipe);
    }
    return made;
  }
  // The transfer form of makeRequest: k = the anonymity set's size, payees = the recipients
  // sharing the amount (1..k-1, default 1). Errors name k and payees.
  async makeTransfer(k, options) {
    const { seed, payees } = optionsOf(options);
    if (!Number.isInteger(k)) throw argumentError('k', `k must be a whole number (the anonymity set's size), not ${typeof k === 'number' ? k : typeof k}`);
    if (payees != null && !(Number.isInteger(payees) && payees >= 1 && payees < k)) {
      throw argumentError('payees', `payees must be a whole number from 1 to k - 1 = ${k - 1}, not ${typeof payees === 'number' ? payees : typeof payees}`);
    }
    try {
      return await this.makeRequest('transfer-k' + k, { seed, count: payees });
    } catch (e) {
      // a k without a circuit: the module names the circuit it made of it
      if (e instanceof EnygmaError && e.field === 'circuit') throw new EnygmaError(e.status, { error: e.message, rule: e.rule, field: 'k' });
      throw e;
    }
  }
  // -> {valid: true} or {valid: false, error: {error, rule, field}} (a request that does not
  // parse included); an unknown circuit rejects, as in every call.
  async validate(circuit, request) {
    return this.#call('validate', { circuit, request: asText(request, 'request') });
  }
  // A proof of the request: a promise of {response (reference JSON text), ms, stages: {name:
  // ms}, memory (the module's, right after the proof)} with a cancel() method. onStage({stage, name, t}) at the start of each stage (t: ms
  // since the proof began). testSeed: INSECURE deterministic blinding, the CLI's --test-seed.
  prove(circuit, request, options) {
    // #proveRequest runs at once up to #call, which numbers the proof: proof.id is set when it
    // returns (0 when an argument is refused). The closures below hold `proof` only, not the
    // request (a wallet's secret key), which a page may keep the promise of long after.
    const proof = { id: 0 };
    const promise = this.#proveRequest(circuit, request, options, proof);
    const done = () => {
      if (this.#runningProof === proof.id) this.#runningProof = null;
      this.#cancelled.delete(proof.id);
      this.#proofs.delete(proof.id);
    };
    promise.then(done, done);
    promise.id = proof.id;
    // A proof whose arguments were refused (id 0) has nothing to cancel.
    promise.cancel = () => proof.id !== 0 && this.cancel(proof.id);
    return promise;
  }
  async #proveRequest(circuit, request, options, proof) {
    const { onStage, testSeed } = optionsOf(options);
    callbackOf(onStage, 'onStage');
    if (testSeed != null && typeof testSeed !== 'string') throw argumentError('testSeed', `testSeed must be a text, not ${typeof testSeed}`);
    // as the CLI's --test-seed: an empty text is refused, not taken as a seed (a form's empty
    // field would otherwise make every proof's blinding the same)
    if (testSeed === '') throw argumentError('testSeed', 'testSeed must not be empty: leave it out for random blinding');
    return this.#call('prove', { circuit, request: asText(request, 'request'), testSeed }, (event) => {
      if (event.event === 'started') {
        this.#runningProof = event.id;
        // cancelled before it started: the worker cleared the flag on entry, set it again
        if (this.#cancelled.has(event.id)) this.cancel(event.id);
      } else if (event.event === 'stage' && onStage) {
        onStage({ stage: event.stage, name: event.name, t: event.t });
      }
    }, (newId) => {
      proof.id = newId;
      this.#proofs.add(newId);
    });
  }
  // Cancels a proof (by id; default: the running one). It stops at its next stage boundary
  // and its promise rejects with status 'cancelled'. -> false when there is no such proof
  // waiting or running (an unknown id, one already answered).
  cancel(id) {
    const target = id == null ? this.#runningProof : id;
    if (!target || this.#terminated || !this.#proofs.has(target)) return false;
    const held = this.#held.findIndex((h) => h.id === target);
    if (held >= 0) { // never sent: dropped here, the worker knows nothing of it
      this.#held.splice(held, 1);
      this.#proofs.delete(target);
      const pending = this.#pending.get(target);
      this.#pending.delete(target);
      pending.reject(new EnygmaError('cancelled', { error: 'the proof was cancelled before it started', rule: 'cancelled', field: '' }));
      this.#sendHeld();
      return true;
    }
    this.#cancelled.add(target);
    if (this.#runningProof === target) {
      if (this.#cancelView) {
        this.#setCancelFlag(target);
      } else {
        // Without shared memory the busy worker cannot be told: it is replaced. The proof and
        // whatever waited behind it reject with 'cancelled', the others as not run (questions
        // about the worker's state and unloads go to the new one); the keys are loaded again.
        this.#restart('the proof was cancelled (the worker was restarted)', { cancelled: target });
      }
    }
    return true;
  }

  // A new worker in place of this one, after a cancel (the calls waiting reject with 'cancelled')
  // or after its module failed (they reject with `error`).
  // cancelled: the proof whose cancel restarts it; the calls that waited behind it are told
  // apart (not run, unless the page had cancelled them too).
  #restart(why, { error = new EnygmaError('cancelled', { error: why, rule: 'cancelled', field: '' }),
    after = 'a cancel', cancelled = 0 } = {}) {
    this.#worker.terminate();
    const notRun = new EnygmaError('cancelled', {
      error: `not run: the worker was restarted to cancel proof ${cancelled} (without cross-origin ` +
        'isolation there is no other way to stop it); ask again', rule: 'cancelled', field: '' });
    const asked = this.#rejectPending(
      (id) => (cancelled && id !== cancelled && !this.#cancelled.has(id) ? notRun : error),
      (pending) => ASKED_AGAIN.has(pending.op));
    this.#runningProof = null;
    this.#starting = this.#start().catch((e) => {
      // terminate() during the start: the calls waiting say so, as every call after it does
      if (this.#terminated) throw terminatedError();
      // (the page went offline, the worker's script changed on the server): this instance has no
      // worker any more; every later call says so instead of waiting for one
      this.#worker.terminate();
      this.#releaseModuleMemory(); // the old module's
      this.#broken = new EnygmaError('error', {
        error: `the worker could not be started again after ${after}: ${e.message}`, rule: 'internal', field: '' });
      throw this.#broken;
    }).finally(() => {
      this.#starting = null;
    });
    this.#starting.catch(() => {}); // a failed start rejects the calls that wait for it
    for (const { op, args, resolve, reject } of asked) {
      this.#starting.then(() => this.#post(this.#nextId++, op, args)).then(resolve, reject);
    }
  }
  // -> {valid: true, ms} | {valid: false, ms, error}; malformed responses reject.
  async verify(circuit, response) {
    return this.#call('verify', { circuit, response: asText(response, 'response') });
  }
  // The response in another format: 'reference', 'snarkjs', 'public_snarkjs', 'binary_hex'.
  async exportProof(response, format = 'reference') {
    return this.#call('exportProof', { response: asText(response, 'response'), format });
  }
  // The WebAssembly module the worker will run, compiled on this thread while the worker
  // starts: reading the engine's compiled-code cache for it takes ~80 ms of the thread that
  // compiles, and the worker's thread is the start's critical path (its engine, its scripts,
  // then the module) while the page's is idle. The worker instantiates the module it is sent,
  // and compiles its own when this one fails (no application/wasm type: it then compiles from
  // the bytes; an engine without relaxed SIMD: it picks the module without). Only for the files
  // of this index.mjs's version (an unversioned worker hashes its .wasm's bytes itself). A
  // restart takes the same module. {name: the .wasm's file name, promise} or null.
  #compileModule() {
    const version = this.#workerUrl.searchParams.get('v');
    if (!PACKAGE_VERSION || version !== PACKAGE_VERSION || typeof WebAssembly.compileStreaming !== 'function') return null;
    if (this.#compiled) return this.#compiled;
    // the module enygma_worker.js picks (MODULE_SCRIPT), where the engine has relaxed SIMD
    const threaded = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
    const name = !threaded ? 'enygma_module_st.wasm'
      : this.#workerUrl.searchParams.get('relaxed-simd') === '0' ? 'enygma_module.wasm' : 'enygma_module_relaxed.wasm';
    const url = new URL(name, this.#workerUrl);
    url.search = '';
    url.searchParams.set('v', version);
    this.#compileAbort = new AbortController();
    const promise = fetch(url, { credentials: 'same-origin', signal: this.#compileAbort.signal }).then((response) => {
      const type = response.headers.get('Content-Type') || '';
      if (!response.ok || !/^application\/wasm\b/i.test(type)) throw new Error(`GET ${url.href}: not a module`);
      return WebAssembly.compileStreaming(response);
    });
    promise.catch(() => {
      if (this.#compiled?.promise === promise) this.#compiled = null; // the next start tries again
    });
    this.#compiled = { name, promise };
    return this.#compiled;
  }

  // Ends the worker. The calls still waiting reject, and so does every later call, with status
  // and rule 'cancelled'.
  terminate() {
    this.#terminated = true;
    this.#compileAbort?.abort();
    this.#compiled = null; // (the compiled module's code is not held for a restart that cannot come)
    this.#worker?.terminate(); // null when create's Worker could not be made
    this.#rejectPending(terminatedError());
    this.#runningProof = null;
    this.#keys.clear(); // key bytes kept for a restart
    this.#releaseModuleMemory();
  }

  // The module's memory (shared with the worker, with threads; up to gigabytes, and a failed
  // module's was not wiped) is not held from here: the views into it and the info's reference
  // to it go.
  #releaseModuleMemory() {
    this.#cancelView = null;
    this.#opSeq = null;
    if (this.#info) this.#info = { ...this.#info, memory: null, opSeq: null };
  }

  // Rejects the calls waiting for the worker's answers, except those keep(pending) holds, which
  // are returned.
  // error: the rejection, or a function of the call's id that gives it.
  #rejectPending(error, keep = () => false) {
    const kept = [];
    for (const [id, pending] of this.#pending) {
      if (keep(pending)) kept.push(pending);
      else pending.reject(typeof error === 'function' ? error(id) : error);
    }
    this.#pending.clear();
    this.#held = [];
    this.#sent.clear();
    return kept;
  }

  #setCancelFlag(target) {
    // Which proof the flag is meant for, first: the worker may have finished that proof and
    // started the next before this page saw the answer; it then runs the next one again
    // (enygma_worker.js prove). The module polls the flag byte (a std::atomic<bool>) between
    // proof stages.
    if (this.#opSeq) Atomics.store(this.#opSeq, 2, target);
    Atomics.store(this.#cancelView, this.#info.cancelFlag, 1);
  }

  #call(op, args, onEvent, onId) {
    const id = this.#nextId++;
    if (onId) onId(id);
    if (this.#starting) {
      // A restart is under way: the operation goes to the new worker once it is ready.
      return this.#starting.then(() => this.#post(id, op, args, onEvent));
    }
    return this.#post(id, op, args, onEvent);
  }

  // Sends without waiting for a restart (the restart's own messages).
  #send(op, args) {
    return this.#post(this.#nextId++, op, args);
  }

  // init, failed when the worker tells of no progress for #stallMs: its script, which runs before
  // it reads the message, then the steps it posts as 'starting' events (enygma_worker.js
  // startingStep), each naming what the start waits for next.
  #sendInit(args) {
    const id = this.#nextId++;
    let waiting = `the worker's script ${this.#workerUrl.href}`;
    let timer = null;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const pending = this.#pending.get(id);
        if (!pending) return;
        this.#pending.delete(id);
        pending.reject(new EnygmaError('error', {
          error: `the prover did not start: nothing new for ${this.#stallMs / 1000} s while waiting for ${waiting} ` +
            '(the server or the network stalled)', rule: 'internal', field: '' }));
      }, this.#stallMs);
    };
    arm();
    return this.#post(id, 'init', args, (event) => {
      if (event.event !== 'starting') return;
      waiting = event.waiting;
      arm();
    }).finally(() => clearTimeout(timer));
  }

  #post(id, op, args, onEvent) {
    return new Promise((resolve, reject) => {
      if (this.#terminated) return reject(terminatedError());
      if (this.#broken) return reject(this.#broken);
      // A call asked again after a restart keeps its arguments (a state question's, an unload's
      // circuit); other calls' arguments (a proof's request with its secret key) are not held.
      const pending = { resolve, reject, onEvent, op };
      if (ASKED_AGAIN.has(op)) pending.args = args;
      this.#pending.set(id, pending);
      if (this.#info && !this.#cancelView && (this.#held.length > 0 || (op === 'prove' && this.#sent.size > 0))) {
        this.#held.push({ id, op, args });
        return;
      }
      const counted = this.#opSeq !== null && !STATE_QUESTIONS.has(op);
      if (counted) {
        // A warm-up proof running in the worker stops for this operation (the order matters:
        // enygma_worker.js proverWarmupRound).
        Atomics.add(this.#opSeq, 0, 1);
        Atomics.store(this.#cancelView, this.#info.warmupYieldFlag, 1);
      }
      this.#postToWorker(id, op, args, counted);
    });
  }

  #postToWorker(id, op, args, counted = false) {
    try {
      this.#worker.postMessage({ id, op, args });
      this.#sent.add(id);
    } catch (e) { // an argument that cannot be copied to the worker (a function, a symbol)
      if (counted) Atomics.sub(this.#opSeq, 0, 1); // never sent: the worker counts what it receives
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      pending.reject(argumentError('', `an argument of ${op} cannot be sent to the worker: ${e.message}`));
    }
  }

  // The calls held (#post) that may go now: those before the next proof, and that proof once
  // the worker has answered everything sent before it.
  #sendHeld() {
    while (this.#held.length > 0 && !(this.#held[0].op === 'prove' && this.#sent.size > 0)) {
      const { id, op, args } = this.#held.shift();
      this.#postToWorker(id, op, args);
    }
  }

  #receive(message) {
    if (message.event === 'moduleFailed' && message.id === undefined) {
      // The module failed in a warm-up, between operations: replaced now. The calls sent to it
      // meanwhile did not run: they are asked again of the new worker where they can be (their
      // arguments kept), else told so.
      this.#replaceFailedWorker(new EnygmaError('error', {
        error: `not run: the module failed in a warm-up (${message.error}; most likely its memory ran out) and ` +
          'the prover restarted with a new one; ask again', rule: 'internal', field: '' }));
      return;
    }
    // an answer (not an event): the calls held behind it may go
    if (!message.event && this.#sent.delete(message.id) && this.#held.length > 0) this.#sendHeld();
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    if (message.event) {
      if (pending.onEvent) pending.onEvent(message);
      return;
    }
    this.#pending.delete(message.id);
    if (message.ok) {
      pending.resolve(message.result);
      return;
    }
    const error = new EnygmaError(message.status, message.error);
    pending.reject(error);
    if (message.moduleFailed) this.#replaceFailedWorker(error); // memory exhausted
  }

  // A worker whose module failed runs nothing more: it is replaced, as after a cancel (the keys
  // loaded again where they can be: URLs, the key cache, bytes kept without threads), and the
  // calls waiting reject with `error`. Not before the first start ends, nor while a restart
  // starts its worker (that start then fails, and every later call says so). -> whether it was.
  #replaceFailedWorker(error) {
    if (!this.#info || this.#starting || this.#terminated) return false;
    this.#restart(error.message, { error, after: 'its module failed' });
    return true;
  }
}

// Operations that only read the worker's state (READ_ONLY_OPS in enygma_worker.js): after a
// restart the new worker answers those asked of the old one.
const STATE_QUESTIONS = new Set(['verifierWarmup', 'proverWarmup', 'memory']);
// Calls that a restart asks again of the new worker instead of rejecting them: the questions
// about its state, and unloads (the new worker first loads the keys still listed).
const ASKED_AGAIN = new Set([...STATE_QUESTIONS, 'unloadKeys']);

// A request or response argument: JSON text, or an object written as JSON.
function asText(value, field) {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch (e) { // a cycle, a BigInt
      throw argumentError(field, `${field} cannot be written as JSON: ${e.message}`);
    }
  }
  throw argumentError(field, `${field} must be JSON text or an object, not ${value === null ? 'null' : typeof value}`);
}

// Key file bytes (an ArrayBuffer, or a typed array or DataView over one) as an ArrayBuffer of
// their own.
function toBuffer(bytes, field) {
  if (isDetached(bytes)) throw argumentError(field, `${field} is over a detached ArrayBuffer (its bytes were transferred)`);
  if (bytes instanceof ArrayBuffer) return bytes;
  if (ArrayBuffer.isView(bytes)) return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  throw argumentError(field, `${field} must be an ArrayBuffer or a typed array of key file bytes, not ${bytes === null ? 'null' : typeof bytes}`);
}
