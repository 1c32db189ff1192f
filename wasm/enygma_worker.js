// The dedicated Worker that hosts the WebAssembly module (a classic worker script).
//
// Everything heavy runs here, so the page never blocks: instantiating the module, fetching,
// checking and decoding keys, making requests, proving, verifying. The module's own thread
// pool (pthreads) consists of further Workers created by the module from here.
//
// Protocol (wasm/enygma.js is the other side):
//   page -> worker  {id, op, args}
//   worker -> page  {id, ok: true, result} | {id, ok: false, status, error: {error, rule, field}}
//                   {id, event: 'started'}                         a proof begins
//                   {id, event: 'stage', stage, name, t}           a proof stage begins
//                   {id, event: 'download', url, loaded, total}    key download progress
// Operations run one at a time in arrival order. A running proof cannot read messages (the
// worker is busy): the page cancels it by writing the flag in the shared memory instead.
'use strict';

// The module with threads needs a SharedArrayBuffer, which a page has only when cross-origin
// isolated (COOP + COEP); otherwise the module linked without threads runs (the same code and
// proofs, one thread).
var THREADED = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
// Where the engine has relaxed SIMD (it validates f64x2.relaxed_madd), the module with threads
// comes in its variant with the f64-lane kernel (core/msm/batch_affine_f64.cpp): the same
// proofs, faster G1 MSMs. The module itself checks at start that the operation is fused and
// otherwise keeps the scalar code. `?relaxed-simd=0` on this script's URL (Enygma.create's
// relaxedSimd: false) keeps the module without it.
var RELAXED_SIMD = new URLSearchParams(self.location.search).get('relaxed-simd') !== '0' && (function () {
  // (func (param f64 f64 f64) (result f64) splat x3, f64x2.relaxed_madd, extract_lane 0)
  var body = [0x00, 0x20, 0x00, 0xfd, 0x14, 0x20, 0x01, 0xfd, 0x14, 0x20, 0x02, 0xfd, 0x14,
              0xfd, 0x87, 0x02, 0xfd, 0x21, 0x00, 0x0b];
  var bytes = [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 8, 1, 0x60, 3, 0x7c, 0x7c, 0x7c, 1, 0x7c,
               3, 2, 1, 0, 10, body.length + 2, 1, body.length].concat(body);
  try {
    return WebAssembly.validate(new Uint8Array(bytes));
  } catch (e) {
    return false;
  }
})();
var MODULE_SCRIPT = !THREADED ? 'enygma_module_st.js'
  : RELAXED_SIMD ? 'enygma_module_relaxed.js' : 'enygma_module.js';
// The ABI and module scripts are imported by init, after it has started the key prefetch: the
// manifest request and the key cache's reads then run while they load.

var abi = null;
var queue = Promise.resolve();
// The module's own failure (an abort: its memory exhausted; a trap): its memory, locks and
// threads can no longer be trusted, and secrets it held are not wiped. Nothing more runs on it:
// every later operation is answered with this at once, and the page replaces the worker.
var moduleFailure = null;
// Whether e is the module's failure (then noted) rather than the glue's or the worker's own.
function noteModuleFailure(e) {
  if (e !== 'unwind' && !(typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError)) return false;
  if (moduleFailure === null) moduleFailure = String((e && e.message) || e);
  return true;
}
// A failure outside any operation (a warm-up's): the page is told at once, so that it replaces
// the worker before it sends more (which would fail without having run).
function noteWarmupFailure(e) {
  if (moduleFailure !== null || !noteModuleFailure(e)) return;
  postMessage({ event: 'moduleFailed', error: moduleFailure });
}
function moduleFailureAnswer(id) {
  return { id: id, ok: false, status: 'error', moduleFailed: true,
    error: { error: 'the module failed (' + moduleFailure + '; most likely its memory ran out): ' +
      'the prover restarts with a new one', rule: 'internal', field: '' } };
}
var KEY_DB = 'enygma-keys';
var KEY_DB_VERSION = 3; // 3: the raw proving key in a file or a Blob (2: an ArrayBuffer)
var KEY_STORE = 'keys';
// `?key-store=blob` on this script's URL (Enygma.create's keyStore: 'blob'): the raw proving
// keys as Blobs in IndexedDB even where the origin private file system is available.
var FORCE_BLOB_KEY_STORE = new URLSearchParams(self.location.search).get('key-store') === 'blob';
// The package's build version this worker was asked for with (wasm/enygma.js): the files it
// loads beside it are asked for with the same, so that a server may keep them all cached.
var PACKAGE_VERSION = new URLSearchParams(self.location.search).get('v');

// A file of the package beside this worker, with its version.
function packageUrl(name) {
  var url = new URL(name, self.location.href);
  if (PACKAGE_VERSION) url.searchParams.set('v', PACKAGE_VERSION);
  return url.href;
}

// The first Web Worker of the module's thread pool, made as this script starts: a Worker's
// start (its engine, its script) takes ~50-100 ms here, and the module, made later by init,
// would make it only then and wait for it after its own instantiation. Init hands it to the
// module (every pool has one at least) in place of the one it would make; unused, it ends.
var earlyPoolWorker = null;
if (THREADED) {
  try {
    var poolScript = packageUrl(MODULE_SCRIPT.replace(/\.js$/, '.worker.js'));
    earlyPoolWorker = { url: poolScript, worker: new Worker(poolScript) };
  } catch (e) { // (a Content-Security-Policy that refuses it): the module makes its own, and says why
    earlyPoolWorker = null;
  }
}

// create(options) with earlyPoolWorker given to the module's first `new Worker` of its URL.
function createWithEarlyWorker(create, options) {
  var early = earlyPoolWorker;
  earlyPoolWorker = null;
  if (!early) return create(options);
  var MadeWorker = self.Worker;
  self.Worker = function (url, workerOptions) {
    if (early && String(url) === early.url) {
      var w = early.worker;
      early = null;
      return w;
    }
    return new MadeWorker(url, workerOptions);
  };
  try {
    return create(options); // (the module makes its pool's Workers before it returns)
  } finally {
    self.Worker = MadeWorker;
    if (early) early.worker.terminate(); // not the module's URL: not used
  }
}

function now() {
  return performance.now();
}

function errorOf(outcome) {
  if (outcome.json && typeof outcome.json.error === 'string') return outcome.json;
  return { error: outcome.text || 'failed (' + outcome.statusName + ')', rule: 'internal', field: '' };
}

// A failure answered to the page (not an exception of this script).
function Failure(status, error) {
  this.status = status;
  this.error = error;
}

function check(outcome) {
  if (outcome.status !== EnygmaAbi.STATUS.OK) throw new Failure(outcome.statusName, errorOf(outcome));
  return outcome;
}

// An argument of the wrong type or value, as the module refuses one: status 'rejected', rule
// 'input', the argument named.
function argumentFailure(field, error) {
  return new Failure('rejected', { error: error, rule: 'input', field: field });
}

// The circuit of an operation: args.circuit ("transfer-k6", "ownership-721"), or args.k for
// the transfer circuit of that k.
function circuitOf(args) {
  if (typeof args.circuit === 'string' && args.circuit.indexOf('\0') >= 0) {
    // the module reads an id up to its first NUL: "transfer-k2\0x" would be transfer-k2
    throw argumentFailure('circuit', 'circuit must not hold a NUL character: ' + EnygmaAbi.shown(args.circuit));
  }
  if (typeof args.circuit === 'string' && args.circuit) {
    // k without leading zeros, as the module reads it ("deposit-k02" is "deposit-k2": the key
    // manifest and the prefetched keys are found under that name)
    var m = /^(.+)-k(\d{1,3})$/.exec(args.circuit);
    return m ? m[1] + '-k' + Number(m[2]) : args.circuit;
  }
  if (typeof args.circuit === 'number') return 'transfer-k' + args.circuit;
  if (args.k != null) return 'transfer-k' + args.k;
  throw argumentFailure('circuit', args.circuit == null ? 'no circuit given'
    : 'circuit must be a circuit id (a text, or a number k), not ' + EnygmaAbi.shown(args.circuit));
}

// A seed's kind for an error, never its value (a wallet's seed may be a number by mistake).
function kindOf(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'an empty text';
  if (Array.isArray(value)) return 'an array';
  return 'a value of type ' + typeof value;
}

function hex(bytes) {
  var s = '';
  for (var i = 0; i < bytes.length; ++i) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return s;
}

// ---- key cache: per circuit, the raw proving key and the verifying key, filed under the
// digests of the files they were decoded from. An IndexedDB entry per circuit holds the
// digests, the verifying key and where the raw proving key is: a file in the origin private
// file system (OPFS, read back as one file), or, where that is unavailable, a Blob in the
// entry. Both are read several times faster than an ArrayBuffer in IndexedDB, which the
// browser copies through its structured clone. The entry is written after its file is
// complete (a writable's close commits the file at once), and an entry whose file is missing
// or of another size is dropped and the keys downloaded again. ---------------------------
//
// Tabs of other builds may hold the database open at another version. Opening it at a higher
// one waits until every other connection closes ("blocked"): this worker then goes on without
// the cache (keys downloaded) rather than wait, and closes its own connection as soon as another
// tab asks for a newer version, so that it never holds that tab back (a later call opens it
// again, and finds the newer version: no cache).
function openKeyDb() {
  return new Promise(function (resolve) {
    if (typeof indexedDB === 'undefined') return resolve(null);
    var settled = false;
    var settle = function (db) {
      if (!settled) {
        settled = true;
        resolve(db);
      } else if (db) {
        db.close(); // opened after this worker went on without it
      }
    };
    var req;
    try {
      req = indexedDB.open(KEY_DB, KEY_DB_VERSION);
    } catch (e) {
      return resolve(null);
    }
    req.onupgradeneeded = function () {
      if (req.result.objectStoreNames.contains(KEY_STORE)) req.result.deleteObjectStore(KEY_STORE);
      req.result.createObjectStore(KEY_STORE, { keyPath: 'circuit' });
    };
    req.onsuccess = function () {
      var db = req.result;
      db.onversionchange = function () {
        db.close();
        if (keyDbPromise && keyDbConnection === db) keyDbPromise = null;
      };
      if (!settled) keyDbConnection = db;
      settle(db);
    };
    req.onblocked = function () {
      // another tab holds an older version open: no cache this time (the next call asks again)
      if (!settled && keyDbPromise) keyDbPromise = null;
      settle(null);
    };
    req.onerror = function () {
      settle(null); // no cache (private mode, quota, a newer version): keys are downloaded every time
    };
  });
}

function dbRequest(db, mode, fn) {
  return new Promise(function (resolve) {
    if (!db) return resolve(null);
    try {
      var tx = db.transaction(KEY_STORE, mode);
      var req = fn(tx.objectStore(KEY_STORE));
      tx.oncomplete = function () {
        resolve(req ? req.result : null);
      };
      tx.onerror = tx.onabort = function () {
        resolve(null);
      };
    } catch (e) {
      resolve(null);
    }
  });
}

var keyDbPromise = null;
var keyDbConnection = null; // the connection keyDbPromise gave
function keyDb() {
  if (!keyDbPromise) keyDbPromise = openKeyDb();
  return keyDbPromise;
}

var KEY_DIR = 'enygma-keys';
// The OPFS folder of the raw proving keys, or null where there is none (older browsers,
// some private modes).
async function keyDir() {
  try {
    if (!navigator.storage || !navigator.storage.getDirectory) return null;
    var root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(KEY_DIR, { create: true });
  } catch (e) {
    return null;
  }
}

// The entry's raw proving key as a Blob (a File of the origin private file system, or the Blob
// in IndexedDB), unread, or null (missing, another size, unreadable).
async function rawPkBlob(entry) {
  try {
    var blob = entry.rawPk;
    if (entry.rawPkFile) {
      var dir = await keyDir();
      if (!dir) return null;
      blob = await (await dir.getFileHandle(entry.rawPkFile)).getFile();
    }
    if (!(blob instanceof Blob) || blob.size !== entry.rawPkBytes) return null;
    return blob;
  } catch (e) {
    return null;
  }
}

// A cached raw proving key copied into room in the module's memory (abi.copyBytes, which
// loadKeys then hands to the module): its bytes are read from the file as soon as the file is
// found (bytes: the promise of that ArrayBuffer, begun by keysFromCache while the module may
// still be starting), copied once the module has started. Read as a stream into the module's
// memory instead, chunk by chunk, the 10 MB key took ~110-150 ms here against ~70 ms for the
// ArrayBuffer (then ~40 ms for the copy into fresh pages). Null where the read fails (a
// download follows).
async function copyRawPk(bytes) {
  var buffer;
  try {
    buffer = await bytes;
  } catch (e) {
    return null;
  }
  return abi.copyBytes(buffer);
}

// Files the entry's raw proving key (bytes: a Uint8Array), then the entry.
async function writeKeyEntry(db, entry, bytes) {
  entry.rawPkBytes = bytes.length;
  var dir = FORCE_BLOB_KEY_STORE ? null : await keyDir();
  if (dir) {
    try {
      var name = entry.circuit + '-' + entry.pkDigest + '.rawpk';
      var writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
      await writable.write(bytes);
      await writable.close();
      entry.rawPkFile = name;
    } catch (e) {
      dir = null; // quota or no access: the Blob below
    }
  }
  if (!dir) entry.rawPk = new Blob([bytes]);
  await dbRequest(db, 'readwrite', function (store) {
    return store.put(entry);
  });
  await removeStaleKeyFiles(db);
}

// Deletes the OPFS files that no entry names (an older key of a circuit, a cleared cache).
async function removeStaleKeyFiles(db) {
  var dir = await keyDir();
  if (!dir) return;
  var entries = await dbRequest(db, 'readonly', function (store) {
    return store.getAll();
  });
  if (!entries) return; // the entries could not be read (a connection closed for another tab's newer version)
  var named = new Set(entries.map(function (e) {
    return e.rawPkFile;
  }));
  try {
    var stale = [];
    for await (var name of dir.keys()) {
      if (!named.has(name)) stale.push(name);
    }
    for (var i = 0; i < stale.length; ++i) await dir.removeEntry(stale[i]);
  } catch (e) {
    // a file in use by another tab stays until the next clean-up
  }
}

// Downloads url, reporting progress; checks the size and BLAKE2b-256 digest of the manifest.
// Never more than the manifest's size is read: a longer file is refused as soon as it is longer.
// A server that stops sending for stallMs fails the download (see stalling).
async function download(id, url, expect, stallMs) {
  var controller = new AbortController();
  var response = await fetched(url, url, { cache: 'no-cache' }, stallMs, controller);
  if (!response.ok) {
    throw new Failure('error', { error: 'GET ' + url + ': HTTP ' + response.status, rule: 'key', field: url });
  }
  var total = expect.bytes;
  var bytes = new Uint8Array(total);
  var loaded = 0;
  var reader = response.body.getReader();
  var lastReport = 0;
  for (;;) {
    var chunk;
    try {
      chunk = await stalling(reader.read(), stallMs, function () {
        reader.cancel().catch(function () {});
        controller.abort();
        return stallFailure(url, url, stallMs);
      });
    } catch (e) {
      if (e instanceof Failure) throw e;
      throw networkFailure(url, url, e);
    }
    if (chunk.done) break;
    if (loaded + chunk.value.length > total) {
      reader.cancel().catch(function () {});
      throw new Failure('error', {
        error: url + ': more than the ' + total + ' bytes the manifest says', rule: 'key', field: url
      });
    }
    bytes.set(chunk.value, loaded);
    loaded += chunk.value.length;
    if (now() - lastReport > 100) {
      lastReport = now();
      postMessage({ id: id, event: 'download', url: url, loaded: loaded, total: total });
    }
  }
  bytes = bytes.subarray(0, loaded);
  postMessage({ id: id, event: 'download', url: url, loaded: loaded, total: total });
  if (loaded !== expect.bytes) {
    throw new Failure('error', {
      error: url + ': ' + loaded + ' bytes, the manifest says ' + expect.bytes, rule: 'key', field: url
    });
  }
  var digest = hex(abi.blake2b256(bytes));
  if (digest !== expect.blake2b.toLowerCase()) {
    throw new Failure('error', {
      error: url + ': BLAKE2b-256 digest ' + digest + ' differs from the manifest (' + expect.blake2b + ')',
      rule: 'key', field: url
    });
  }
  return bytes;
}

// ---- the module's WebAssembly: compiled as it streams in. A key cache entry records which
// module compared its keys with the circuit (moduleDigest): the build's version where this
// worker runs the files of the index.mjs that started it (their version covers the .wasm's
// bytes: wasm/stamp_versions.cmake), else the SHA-256 of the .wasm, hashed as it streams in --
var compiledByPage = false; // the module came compiled from the page (instantiateModule)
var moduleDigest = null; // null where there is neither (no crypto.subtle: insecure contexts)

// What the module's start waits for, told to the page (init's 'starting' events): the page
// fails a start that tells it nothing new for create's stallTimeoutMs (enygma.js #sendInit).
function startingStep(id, waiting) {
  postMessage({ id: id, event: 'starting', waiting: waiting });
}

// The bytes of a response as they arrive, counted on a copy of its body (the response itself
// goes to instantiateStreaming whole, with its URL, which the engine's compiled-code cache is
// keyed by): onBytes(loaded) at most every 100 ms, and at the end.
function watchBody(response, onBytes) {
  if (!response.body || typeof response.clone !== 'function') return;
  var reader = response.clone().body.getReader();
  var loaded = 0;
  var lastReport = 0;
  (function next() {
    reader.read().then(function (chunk) {
      if (chunk.done) return onBytes(loaded);
      loaded += chunk.value.length;
      if (now() - lastReport > 100) {
        lastReport = now();
        onBytes(loaded);
      }
      next();
    }, function () {}); // a failed body fails the compilation, which says so
  })();
}

// buildVersion: the version index.mjs was stamped with, or '' (a source checkout, another
// worker URL). id: init's, for its 'starting' events.
function instantiateModule(imports, buildVersion, id, pageModuleName) {
  var wasmName = MODULE_SCRIPT.replace(/\.js$/, '.wasm');
  var url = packageUrl(wasmName);
  var versioned = !!buildVersion && buildVersion === PACKAGE_VERSION;
  startingStep(id, 'the answer to GET ' + url);
  // The page compiles this module (Enygma's #compileModule, the same file): instantiated here as
  // it comes; where the page's compile failed, this worker's own below.
  if (versioned && pageModuleName === wasmName) {
    return pageModule.then(function (module) {
      if (!module) return instantiateModule(imports, buildVersion, id, null);
      compiledByPage = true;
      return WebAssembly.instantiate(module, imports).then(function (instance) {
        return [{ instance: instance, module: module }, 'build ' + buildVersion + ' ' + MODULE_SCRIPT];
      });
    });
  }
  return fetch(url, { credentials: 'same-origin' }).then(function (response) {
    if (!response.ok) throw new Error('GET ' + url + ': HTTP ' + response.status);
    var compiled = false; // then the start waits for the next step, not for these bytes
    var counting = null; // the response whose bytes are the step waited for (the latest)
    // The bytes of response r received so far, as the step `what` waits for.
    var counted = function (what, r) {
      // (with a Content-Encoding, Content-Length counts the encoded bytes, not those read)
      var total = r.headers.get('Content-Encoding') ? 0 : Number(r.headers.get('Content-Length')) || 0;
      counting = r;
      watchBody(r, function (loaded) {
        if (!compiled && counting === r) startingStep(id, what + ' (' + loaded + (total ? ' of ' + total : '') + ' bytes received)');
      });
    };
    counted('the body of ' + url, response);
    // Without a version the bytes are read twice (compiled and hashed); with one, only compiled.
    var bytes = versioned ? null : response.clone().arrayBuffer();
    var bytesAgain = function () {
      if (bytes) return bytes;
      counting = null;
      startingStep(id, 'the answer to GET ' + url + ' again (to compile it from its bytes)');
      return fetch(url, { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error('GET ' + url + ': HTTP ' + r.status);
        counted('the body of ' + url + ' again (to compile it from its bytes)', r);
        return r.arrayBuffer();
      });
    };
    // A server without the application/wasm type: compiled from the bytes instead.
    var instantiated = WebAssembly.instantiateStreaming(response, imports).catch(function () {
      return bytesAgain().then(function (b) {
        return WebAssembly.instantiate(b, imports);
      });
    });
    instantiated.then(function () {
      compiled = true;
    }, function () {});
    if (versioned) return Promise.all([instantiated, 'build ' + buildVersion + ' ' + MODULE_SCRIPT]);
    var digest = bytes.then(function (b) {
      return self.crypto && crypto.subtle ? crypto.subtle.digest('SHA-256', b).then(function (d) {
        return hex(new Uint8Array(d));
      }) : null;
    }).catch(function () {
      return null;
    });
    return Promise.all([instantiated, digest]);
  });
}

// A request that got no answer (offline, refused by CORS or by the page's Content-Security-Policy
// connect-src, a connection cut mid-file): rule 'key', the URL named.
function networkFailure(url, field, e) {
  return new Failure('error', {
    error: 'GET ' + url + ' failed: ' + String((e && e.message) || e) + ' (offline, or refused by CORS or the ' +
      "page's Content-Security-Policy connect-src)", rule: 'key', field: field
  });
}
// The response's headers, within stallMs; `controller` (optional: the caller's, to abort the
// body's read with it too) aborts the request when they do not come.
async function fetched(url, field, init, stallMs, controller) {
  controller = controller || new AbortController();
  try {
    return await stalling(fetch(url, Object.assign({}, init, { signal: controller.signal })), stallMs, function () {
      controller.abort();
      return stallFailure(url, field, stallMs);
    });
  } catch (e) {
    if (e instanceof Failure) throw e;
    throw networkFailure(url, field, e);
  }
}

// A key server that stops sending (a connection stalled mid-file, a proxy that holds it) would
// hold this worker's queue, and every call behind the download, for good: each wait for the
// network (the headers, each chunk, the manifest's body) that gets nothing for stallMs
// (loadKeys' stallTimeoutMs, default DEFAULT_STALL_MS) fails instead, naming the URL.
var DEFAULT_STALL_MS = 30000;
// Once stalled, the promise's own rejection is the stall's failure: onStall aborts the request,
// which rejects the fetch or the body's read (an AbortError) before the failure it returns could,
// and that rejection was reported as the network's failure ("signal is aborted without reason
// (offline, or refused by CORS ...)") or as a manifest that is not JSON.
function stalling(promise, stallMs, onStall) {
  var timer = null, failure = null;
  var stalled = new Promise(function (resolve, reject) {
    timer = setTimeout(function () {
      failure = onStall();
      reject(failure);
    }, stallMs || DEFAULT_STALL_MS);
  });
  return Promise.race([promise, stalled]).catch(function (e) {
    throw failure || e;
  }).finally(function () {
    clearTimeout(timer);
  });
}
function stallFailure(url, field, stallMs) {
  return new Failure('error', {
    error: 'GET ' + url + ': nothing received for ' + ((stallMs || DEFAULT_STALL_MS) / 1000) +
      ' s (the server or the network stalled)', rule: 'key', field: field
  });
}

function manifestFailure(field, error) {
  return new Failure('error', { error: error, rule: 'key', field: field });
}

// A key of a manifest entry ({url, bytes, blake2b}) as the server writes it: a URL that resolves
// against the manifest's, a size, a BLAKE2b-256 digest (keys are never taken unchecked). Its
// absolute URL is kept in entry[name].href.
function checkManifestKey(entry, name, manifestUrl) {
  var field = 'manifest.' + entry.id + '.' + name;
  var key = entry[name];
  if (!key || typeof key !== 'object') throw manifestFailure(field, field + ' is missing');
  if (typeof key.url !== 'string' || !key.url) throw manifestFailure(field + '.url', field + '.url is not a URL');
  try {
    key.href = new URL(key.url, manifestUrl).href;
  } catch (e) {
    throw manifestFailure(field + '.url', field + '.url ' + JSON.stringify(key.url) + ' is not a URL here (' + e.message + ')');
  }
  if (!Number.isInteger(key.bytes) || key.bytes <= 0 || key.bytes > MAX_KEY_BYTES) {
    throw manifestFailure(field + '.bytes', field + '.bytes must be a size from 1 to ' + MAX_KEY_BYTES + ' bytes');
  }
  if (typeof key.blake2b !== 'string' || !/^[0-9a-fA-F]{64}$/.test(key.blake2b)) {
    throw manifestFailure(field + '.blake2b', field + '.blake2b must be a BLAKE2b-256 digest (64 hex digits)');
  }
}
// The largest key file a manifest may announce (the largest proving key is ~40 MB raw).
var MAX_KEY_BYTES = 1 << 30;

// ---- what loadKeys needs before the module: the manifest's entry of a circuit, and unless
// noCache its cache entry with the raw proving key (rawPk: the promise of its bytes, read from
// its file as soon as it is found; null when absent or stale). init
// starts it for the circuits in args.prefetchKeys (with args.prefetchManifestUrl), beside the
// module's start; the first loadKeys of such a circuit with the same manifest takes the
// result. The cache is read while the manifest is asked for (its digests then tell whether the
// entry is current): the read does not wait for the server. ----------------------------------
async function keysFromCache(circuit, manifestUrlText, noCache, stallMs) {
  var t0 = now();
  var cacheRead = !noCache && earlyCacheReads[circuit] ? earlyCacheReads[circuit] : readKeyCache(circuit, noCache);
  delete earlyCacheReads[circuit];
  var manifestUrl = new URL(manifestUrlText || 'keys/manifest.json', self.location.href);
  var manifestController = new AbortController();
  var manifestResponse = await fetched(manifestUrl.href, 'manifest', { cache: 'no-cache' }, stallMs,
    manifestController);
  if (!manifestResponse.ok) {
    throw new Failure('error', {
      error: 'GET ' + manifestUrl.pathname + ': HTTP ' + manifestResponse.status, rule: 'key', field: 'manifest'
    });
  }
  var manifest = null;
  try {
    manifest = await stalling(manifestResponse.json(), stallMs, function () {
      manifestController.abort();
      return stallFailure(manifestUrl.href, 'manifest', stallMs);
    });
  } catch (e) {
    if (e instanceof Failure) throw e;
    throw manifestFailure('manifest', 'GET ' + manifestUrl.pathname + ' is not JSON (' + e.message + ')');
  }
  if (!manifest || !Array.isArray(manifest.circuits)) {
    throw manifestFailure('manifest', 'GET ' + manifestUrl.pathname + ' has no "circuits" list');
  }
  var entry = manifest.circuits.find(function (c) {
    return c && c.id === circuit;
  });
  if (!entry) {
    throw new Failure('error', { error: 'the server has no keys for ' + circuit, rule: 'key', field: 'circuit' });
  }
  checkManifestKey(entry, 'proving_key', manifestUrl);
  checkManifestKey(entry, 'verifying_key', manifestUrl);
  var pkDigest = entry.proving_key.blake2b.toLowerCase();
  var vkDigest = entry.verifying_key.blake2b.toLowerCase();
  var tManifest = now();
  var read = await cacheRead;
  var cached = read.cached;
  var rawPk = cached && cached.pkDigest === pkDigest && cached.vkDigest === vkDigest ? read.rawPk : null;
  return {
    manifestUrl: manifestUrl, entry: entry, pkDigest: pkDigest, vkDigest: vkDigest, db: read.db, cached: cached, rawPk: rawPk,
    // (the cache's read ran beside the manifest's: its own time, from the start)
    ms: { manifest: tManifest - t0, cacheRead: read.ms }
  };
}
// A circuit's key cache entry, its raw proving key's file and the promise of its bytes (read
// from the moment the file is found), with the time it took: {db, cached, rawPk, ms}.
function readKeyCache(circuit, noCache) {
  var t0 = now();
  var read = (async function () {
    var db = await keyDb();
    var cached = noCache ? null : await dbRequest(db, 'readonly', function (store) {
      return store.get(circuit);
    });
    var blob = cached ? await rawPkBlob(cached) : null;
    var rawPk = blob ? blob.arrayBuffer() : null; // (read from here on)
    if (rawPk) rawPk.catch(function () {}); // (a stale entry's is not awaited)
    return { db: db, cached: cached, rawPk: rawPk, ms: now() - t0 };
  })();
  read.catch(function () {}); // (awaited by keysFromCache unless the manifest fails first)
  return read;
}
// ---- the verifier's warm-up: the engine first runs the module's code unoptimized and
// optimizes each function once it has run enough (dynamic tiering), so in Chromium 156 the first
// ~35 verifications of a page take 2-20 ms each, and those up to ~70 about 2.2 ms, instead of
// ~1.2 ms (docs/performance.md): create's default target is 150. Once
// the first keys are loaded, the worker verifies a proof that does not verify
// (eny_verifier_warmup_response: the real path up to the failing pairing check) `target` times,
// one verification per task and only while no operation is queued or running: an operation
// waits for at most one verification. The first one waits until the worker has had nothing to
// do for WARMUP_IDLE_MS, so that the warm-up does not compete with the page's start. Once per
// worker: the verifier's code is the same for every circuit. Enygma.create's warmVerifier sets
// target (0: no warm-up).
var warmup = { state: 'off', target: 0, rounds: 0, busyMs: 0, firstMs: null, lastMs: null, error: null };
var warmupInput = null; // {circuit, response}
var warmupTimer = null;
var opsInFlight = 0;
var opsReceived = 0; // operations received that the page counts in opSeq[0] (all but init and READ_ONLY_OPS)
var WARMUP_IDLE_MS = 500;

// ---- the prover's warm-up, for the same reason: a page's first proofs run the prover's code
// unoptimized and take several times longer (docs/performance.md). After the verifier's warm-up
// (or without one), the worker proves a fresh random request of the first circuit whose
// proving key was loaded, not a verifying key alone (eny_prover_warmup), `target` times, each
// after WARMUP_IDLE_MS with no operation.
// A warm-up proof yields to any operation the page sends:
// the page adds 1 to opSeq and writes the module's warm-up yield flag before posting it, the
// proof stops at its next stage boundary, and it is made again once the worker is idle. Only
// in the module with threads, whose memory (holding the flag) the page shares; elsewhere a
// warm-up proof could not yield. Enygma.create's warmProver sets target (0: none).
var proverWarmup = { state: 'off', target: 0, circuit: null, rounds: 0, yielded: 0, busyMs: 0, firstMs: null,
  lastMs: null, error: null };
// Int32Array over a SharedArrayBuffer shared with the page (module with threads): [0] added to
// by the page before each operation it sends, [1] 1 while a warm-up proof runs, [2] the id of the
// proof the page last cancelled (written before the cancel flag; see prove).
var opSeq = null;

// Flags for abi.loadKeys: keys whose load starts the warm-up leave the verifier's tables to its
// first verification (made while the worker is idle, not on the way to proof-ready).
function verifierLoadFlags() {
  return warmup.state === 'waiting' ? EnygmaAbi.LOAD_FLAGS.DEFER_VERIFIER : 0;
}

// canProve: whether the keys loaded have a proving key (loadKeyBytes may load a verifying key
// alone): the prover's warm-up proves only such a circuit.
function warmupStart(circuit, canProve) {
  loadedCircuits[circuit] = canProve;
  if (!canProve && proverWarmup.state === 'running' && proverWarmup.circuit === circuit) {
    proverWarmup.state = 'waiting'; // its proving key replaced by a verifying key alone
  }
  if (proverWarmup.state === 'waiting') {
    var provable = canProve ? circuit : Object.keys(loadedCircuits).find(function (c) {
      return loadedCircuits[c];
    });
    if (provable !== undefined) {
      proverWarmup.circuit = provable;
      proverWarmup.state = 'running';
    }
  }
  if (warmup.state === 'waiting') {
    var sample = abi.verifierWarmupResponse(circuit);
    if (sample.status === EnygmaAbi.STATUS.OK) {
      warmupInput = { circuit: circuit, response: sample.text };
      warmup.state = 'running';
    }
  }
  warmupSchedule();
}

// The circuits whose keys are loaded (circuitOf's ids): where a warm-up may run; each to whether
// its proving key is loaded (the prover's warm-up), or only its verifying key.
var loadedCircuits = {};

// Keys unloaded: a warm-up running on them goes on with other keys still loaded, else waits for
// the next keys loaded (warmupStart) (a page that moves to another circuit before the first
// round: loading the new one first, or unloading the old one first).
function warmupForget(circuit) {
  delete loadedCircuits[circuit];
  if (proverWarmup.state === 'running' && proverWarmup.circuit === circuit) proverWarmup.state = 'waiting';
  if (warmup.state === 'running' && warmupInput && warmupInput.circuit === circuit) {
    warmup.state = 'waiting';
    warmupInput = null;
  }
  var other = Object.keys(loadedCircuits)[0];
  if (other !== undefined) warmupStart(other, loadedCircuits[other]);
}

// One timer at a time; an operation that arrives meanwhile makes the round wait for its end
// (and an operation's end sets the timer again). The verifier's rounds first.
function warmupSchedule() {
  if (opsInFlight > 0) return;
  if (warmupTimer !== null) clearTimeout(warmupTimer);
  warmupTimer = null;
  if (warmup.state === 'running') {
    warmupTimer = setTimeout(warmupRound, warmup.rounds === 0 ? WARMUP_IDLE_MS : 0);
  } else if (proverWarmup.state === 'running') {
    warmupTimer = setTimeout(proverWarmupRound, WARMUP_IDLE_MS);
  }
}

function proverWarmupRound() {
  warmupTimer = null;
  if (proverWarmup.state !== 'running' || opsInFlight > 0 || moduleFailure !== null) return;
  // The yield flag cleared, then no operation sent since before the clear: one sent later
  // writes the flag after it (the page adds to opSeq first), and the proof yields to it. One
  // sent before (its flag written) but not yet received would be waiting behind the whole
  // warm-up proof, its flag cleared here: the warm-up waits for it instead.
  var seq = Atomics.load(opSeq, 0);
  if (seq !== opsReceived) return; // its end sets the timer again
  abi.resetWarmupYield();
  if (Atomics.load(opSeq, 0) !== seq) return; // its operation sets the timer again at its end
  var t0 = now();
  Atomics.store(opSeq, 1, 1);
  var outcome;
  try {
    outcome = abi.proverWarmup(proverWarmup.circuit);
  } catch (e) { // the ABI's own failure (out of memory): the warm-up's error, as below
    noteWarmupFailure(e);
    outcome = { status: EnygmaAbi.STATUS.ERROR, text: String((e && e.message) || e), json: null };
  } finally {
    Atomics.store(opSeq, 1, 0);
  }
  var ms = now() - t0;
  if (outcome.status === EnygmaAbi.STATUS.CANCELLED) {
    proverWarmup.yielded += 1;
    return;
  }
  if (outcome.status !== EnygmaAbi.STATUS.OK) { // e.g. its keys unloaded: the next keys loaded resume it
    proverWarmup.state = 'waiting';
    proverWarmup.error = errorOf(outcome).error;
    return;
  }
  proverWarmup.rounds += 1;
  proverWarmup.busyMs += ms;
  if (proverWarmup.firstMs === null) proverWarmup.firstMs = ms;
  proverWarmup.lastMs = ms;
  if (proverWarmup.rounds >= proverWarmup.target) proverWarmup.state = 'done';
  warmupSchedule();
}

function warmupRound() {
  warmupTimer = null;
  if (warmup.state !== 'running' || opsInFlight > 0 || moduleFailure !== null) return; // resumed when the queue is empty
  var t0 = now();
  var outcome;
  try {
    outcome = abi.verify(warmupInput.circuit, warmupInput.response);
  } catch (e) { // the ABI's own failure (out of memory): the warm-up stops, as below
    noteWarmupFailure(e);
    outcome = { status: EnygmaAbi.STATUS.ERROR, text: String((e && e.message) || e), json: null };
  }
  var ms = now() - t0;
  if (outcome.status !== EnygmaAbi.STATUS.INVALID) {
    warmupInput = null;
    if (outcome.status === EnygmaAbi.STATUS.OK) { // never: its points cannot make a valid proof
      warmup.state = 'failed';
      warmup.error = 'the warm-up proof verified';
      console.error('enygma: ' + warmup.error);
    } else {
      warmup.state = 'waiting'; // its keys were unloaded: the next keys loaded resume it
    }
    warmupSchedule(); // the prover's warm-up, where it runs on keys still loaded
    return;
  }
  warmup.rounds += 1;
  warmup.busyMs += ms;
  if (warmup.firstMs === null) warmup.firstMs = ms;
  warmup.lastMs = ms;
  if (warmup.rounds >= warmup.target) {
    warmup.state = 'done';
    warmupInput = null;
  }
  warmupSchedule();
}

var prefetchedKeys = {}; // circuit -> {manifestUrl, pending: the promise of keysFromCache}
var PREFETCH_KEEP_MS = 60000;

// Once the module has started, a prefetched key is copied into its memory as soon as its bytes
// are read (copyRawPk), while init's answer and the page's loadKeys travel; that loadKeys then
// finds it there (c.copied). A prefetch dropped frees its room.
function copyPrefetch(prefetch) {
  prefetch.pending = prefetch.pending.then(function (c) {
    if (c.rawPk) {
      c.copied = copyRawPk(c.rawPk);
      c.copied.catch(function () {}); // (out of memory: reported by the loadKeys that takes it)
    }
    return c;
  });
  prefetch.pending.catch(function () {}); // reported by the loadKeys that takes it
}
function dropPrefetch(prefetch) {
  prefetch.pending.then(function (c) {
    return c.copied;
  }).then(function (room) {
    if (room) abi.freeBytes(room);
  }, function () {});
}

var ops = {
  init: function (id, args) {
    var threads = THREADED ? Math.max(1, args.threads | 0 || navigator.hardwareConcurrency || 1) : 1;
    var t0 = now();
    warmup.target = Math.max(0, args.warmVerifier | 0);
    warmup.state = warmup.target > 0 ? 'waiting' : 'off';
    proverWarmup.target = THREADED ? Math.max(0, args.warmProver | 0) : 0;
    proverWarmup.state = proverWarmup.target > 0 ? 'waiting' : 'off';
    opSeq = THREADED ? new Int32Array(new SharedArrayBuffer(12)) : null;
    (args.prefetchKeys || []).forEach(function (c) {
      var circuit = circuitOf({ circuit: c });
      // (a stalled manifest fails after create's stallTimeoutMs, as its start would: the
      // loadKeys that takes the prefetch waits for it)
      var prefetch = { manifestUrl: args.prefetchManifestUrl,
        pending: keysFromCache(circuit, args.prefetchManifestUrl, false, args.stallTimeoutMs) };
      prefetch.pending.catch(function () {}); // reported by the loadKeys that takes it
      prefetchedKeys[circuit] = prefetch;
      setTimeout(function () { // not taken in time: its raw key is not held longer
        if (prefetchedKeys[circuit] !== prefetch) return;
        delete prefetchedKeys[circuit];
        dropPrefetch(prefetch);
      }, PREFETCH_KEEP_MS);
    });
    earlyCacheReads = {}; // (read for circuits the prefetch did not name: dropped)
    startingStep(id, 'the scripts ' + packageUrl('enygma_abi.js') + ' and ' + packageUrl(MODULE_SCRIPT));
    try {
      importScripts(packageUrl('enygma_abi.js'), packageUrl(MODULE_SCRIPT));
    } catch (e) {
      throw new Failure('error', { error: 'the module script ' + MODULE_SCRIPT + ' did not load: ' + e.message, rule: 'internal', field: '' });
    }
    var options = {
      locateFile: function (path) {
        return packageUrl(path);
      },
      print: function (text) {
        console.log(text);
      },
      printErr: function (text) {
        console.warn(text);
      }
    };
    if (THREADED) {
      // The pool's Workers, made before the module starts (see wasm/CMakeLists.txt); the
      // caller's thread is one of the pool's `threads`.
      options.enygmaWorkers = Math.max(1, threads - 1);
      // The pthread workers load the module script itself (not this worker's script).
      options.mainScriptUrlOrBlob = packageUrl(MODULE_SCRIPT);
    }
    var failed;
    var instantiateFailed = new Promise(function (resolve, reject) {
      failed = reject;
    });
    options.instantiateWasm = function (imports, receiveInstance) {
      instantiateModule(imports, typeof args.packageVersion === 'string' ? args.packageVersion : '', id,
        args.pageModule).then(function (r) {
        moduleDigest = r[1];
        // With threads, the module then waits for its pool's Web Workers to load its script.
        startingStep(id, THREADED ? 'the ' + options.enygmaWorkers + ' Web Workers of the pool to load ' +
          options.mainScriptUrlOrBlob : 'the module to start');
        receiveInstance(r[0].instance, r[0].module);
      }, function (e) {
        failed(new Failure('error', { error: 'the WebAssembly module did not load: ' + e.message, rule: 'internal', field: '' }));
      });
      return {}; // exports come later, through receiveInstance
    };
    var create = THREADED ? createEnygmaModule : createEnygmaModuleSingle;
    return Promise.race([createWithEarlyWorker(create, options), instantiateFailed]).then(function (M) {
      abi = EnygmaAbi.bindAbi(M);
      if (abi.init(threads) !== 0) {
        throw new Failure('error', { error: 'eny_init(' + threads + ') failed', rule: 'internal', field: '' });
      }
      // A prefetched id the module does not know is the caller's error, as in every call (its
      // prefetch, begun before the module, would otherwise fail unseen and be dropped).
      (args.prefetchKeys || []).forEach(function (c, i) {
        var known = abi.circuitId(circuitOf({ circuit: c }));
        if (known.status !== EnygmaAbi.STATUS.OK) {
          throw new Failure('rejected', { error: 'prefetchKeys[' + i + ']: ' + errorOf(known).error, rule: 'input',
            field: 'prefetchKeys' });
        }
      });
      Object.keys(prefetchedKeys).forEach(function (circuit) {
        copyPrefetch(prefetchedKeys[circuit]);
      });
      return {
        version: abi.version(),
        poolSize: abi.poolSize(),
        threaded: THREADED,
        module: MODULE_SCRIPT.replace(/\.js$/, ''),
        laneKernel: abi.laneKernel(),
        crossOriginIsolated: self.crossOriginIsolated === true,
        hardwareConcurrency: navigator.hardwareConcurrency || 0,
        // Shared with the page only when it is shared memory (the cancel flag lives there);
        // posting an unshared memory would copy it.
        memory: THREADED ? abi.memory.buffer : null,
        cancelFlag: abi.cancelFlagAddress(),
        // With threads: what the page writes with each operation it sends, so that a warm-up
        // proof yields to it.
        opSeq: opSeq ? opSeq.buffer : null,
        warmupYieldFlag: abi.warmupYieldFlagAddress(),
        initMs: now() - t0,
        compiledByPage: compiledByPage
      };
    });
  },

  memory: function () {
    return abi.memoryStats();
  },

  verifierWarmup: function () {
    return { state: warmup.state, target: warmup.target, rounds: warmup.rounds, busyMs: warmup.busyMs,
      firstMs: warmup.firstMs, lastMs: warmup.lastMs, error: warmup.error };
  },

  proverWarmup: function () {
    return { state: proverWarmup.state, target: proverWarmup.target, circuit: proverWarmup.circuit,
      rounds: proverWarmup.rounds, yielded: proverWarmup.yielded, busyMs: proverWarmup.busyMs,
      firstMs: proverWarmup.firstMs, lastMs: proverWarmup.lastMs, error: proverWarmup.error };
  },

  circuits: function () {
    return check(abi.circuits()).json;
  },

  // The sizes of a circuit. The module builds its constraint system to count them, the first time
  // (5-45 MB; the sizes stay known): not kept for a page that only asks (held until an unload, a
  // page listing every circuit's sizes would hold them all). A load builds it again if it needs it.
  circuitInfo: function (id, args) {
    var circuit = circuitOf(args);
    var info = check(abi.circuitInfo(circuit)).json; // (an unknown circuit: nothing built)
    abi.releaseCircuit(circuit);
    return info;
  },

  // A circuit's keys from the server's manifest, through the cache of decoded keys.
  loadKeys: async function (id, args) {
    var circuit = circuitOf(args);
    // A circuit the module does not know is the caller's error, as in every call: before the
    // manifest is asked for (offline, an unknown id would be named as a failed request).
    // k as the module reads the id ("transfer-k02": 2), not as the manifest writes it, which may not
    var k = check(abi.circuitId(circuit)).json.k;
    var t0 = now();
    var prefetch = prefetchedKeys[circuit];
    delete prefetchedKeys[circuit];
    var prefetched = prefetch && !args.noCache && prefetch.manifestUrl === args.manifestUrl;
    if (prefetch && !prefetched) dropPrefetch(prefetch);
    // From a prefetch, ms.manifest and ms.cacheRead are the prefetch's, beside the module's start.
    var c = await (prefetched ? prefetch.pending
      : keysFromCache(circuit, args.manifestUrl, args.noCache, args.stallTimeoutMs));
    var entry = c.entry, pkDigest = c.pkDigest, vkDigest = c.vkDigest, db = c.db, cached = c.cached;
    var tCache = now();
    // (in the module's memory; a prefetch's was copied there once the module had started)
    var rawPk = c.copied ? await c.copied : c.rawPk ? await copyRawPk(c.rawPk) : null;
    var tRead = now();
    if (rawPk) {
      // This module compared these keys with its circuit when it cached them: not again.
      var checkedBefore = moduleDigest !== null && cached.checkedBy === moduleDigest;
      // (the module takes the room, loaded or not)
      var loaded = abi.loadKeys(circuit, rawPk, new Uint8Array(cached.vk),
        (checkedBefore ? EnygmaAbi.LOAD_FLAGS.KEYS_CHECKED_BY_THIS_MODULE : 0) | verifierLoadFlags());
      if (loaded.status === EnygmaAbi.STATUS.OK) {
        var tDecode = now();
        if (!checkedBefore && moduleDigest !== null) { // checked now: the next load need not
          cached.checkedBy = moduleDigest;
          await dbRequest(db, 'readwrite', function (store) {
            return store.put(cached);
          });
        }
        return {
          circuit: circuit, k: k, source: 'cache', insecureDevKeys: loaded.json.insecure_dev_keys,
          circuitChecked: !checkedBefore,
          ms: { manifest: c.ms.manifest, cacheRead: c.ms.cacheRead, read: tRead - tCache, decode: tDecode - tRead,
            total: now() - t0 },
          decodeSteps: loaded.json.steps_ms, prefetched: !!prefetched
        };
      }
    }
    if (cached) { // stale or unusable entry: drop it
      await dbRequest(db, 'readwrite', function (store) {
        return store.delete(circuit);
      });
    }
    var pkPending = download(id, entry.proving_key.href, entry.proving_key, args.stallTimeoutMs);
    // Meanwhile the circuit that the keys are compared with (its constraint system and digest,
    // built once per module): the download needs no work of this thread until its bytes are in.
    // The load frees that constraint system; a download that fails frees it here.
    var pk, vk;
    try {
      abi.circuitInfo(circuit);
      pk = await pkPending;
      vk = await download(id, entry.verifying_key.href, entry.verifying_key, args.stallTimeoutMs);
    } catch (e) {
      pkPending.catch(function () {}); // (circuitInfo's own failure: the download's is not waited for)
      if (!noteModuleFailure(e)) abi.releaseCircuit(circuit); // (an aborted module runs nothing more)
      throw e;
    }
    var tDownload = now();
    var info = check(abi.loadKeys(circuit, pk, vk, verifierLoadFlags())).json;
    var tDecode = now();
    var raw = abi.exportProvingKeyRaw(circuit);
    if (raw.status === EnygmaAbi.STATUS.OK && db && !args.noCache) {
      await writeKeyEntry(db, {
        circuit: circuit, pkDigest: pkDigest, vkDigest: vkDigest, vk: vk.slice().buffer, checkedBy: moduleDigest
      }, raw.bytes);
    }
    return {
      circuit: circuit, k: k, source: 'network', insecureDevKeys: info.insecure_dev_keys, circuitChecked: true,
      bytes: pk.length + vk.length,
      ms: { manifest: c.ms.manifest, download: tDownload - tRead, decode: tDecode - tDownload, total: now() - t0 },
      decodeSteps: info.steps_ms, prefetched: !!prefetched
    };
  },

  // Keys given as bytes (tests, files picked by the user; the page sends ArrayBuffers, pk null
  // for none); with args.pkBlake2b / vkBlake2b (64 hex digits), the bytes must have those
  // BLAKE2b-256 digests. A digest that cannot be checked (not hex, no bytes to check) is refused.
  loadKeyBytes: function (id, args) {
    var pk = args.pk != null ? new Uint8Array(args.pk) : null;
    var vk = new Uint8Array(args.vk);
    [[pk, args.pkBlake2b, 'pk'], [vk, args.vkBlake2b, 'vk']].forEach(function (c) {
      var field = c[2] + 'Blake2b';
      if (c[1] == null) return;
      if (typeof c[1] !== 'string' || !/^[0-9a-fA-F]{64}$/.test(c[1])) {
        throw argumentFailure(field, field + ' must be 64 hex digits (a BLAKE2b-256 digest), not ' + EnygmaAbi.shown(c[1]));
      }
      if (!c[0]) throw argumentFailure(field, field + ' is given without a proving key to check');
      var digest = hex(abi.blake2b256(c[0]));
      if (digest !== c[1].toLowerCase()) {
        throw new Failure('error', { error: 'the ' + c[2] + ' bytes have BLAKE2b-256 ' + digest + ', not ' + c[1], rule: 'key', field: c[2] });
      }
    });
    var loaded = check(abi.loadKeys(circuitOf(args), pk, vk, verifierLoadFlags())).json;
    // named as loadKeys' answer names them
    return { circuit: loaded.circuit, insecureDevKeys: loaded.insecure_dev_keys, canProve: loaded.can_prove,
      decodeSteps: loaded.steps_ms };
  },

  unloadKeys: function (id, args) {
    var circuit = circuitOf(args);
    if (abi.unloadKeys(circuit) !== EnygmaAbi.STATUS.OK) {
      throw argumentFailure('circuit', 'no circuit ' + EnygmaAbi.shown(circuit));
    }
    warmupForget(circuit);
    return true;
  },

  clearKeyCache: async function () {
    Object.keys(prefetchedKeys).forEach(function (circuit) { // read from the cache before it was cleared
      dropPrefetch(prefetchedKeys[circuit]);
    });
    prefetchedKeys = {};
    var db = await keyDb();
    await dbRequest(db, 'readwrite', function (store) {
      return store.clear();
    });
    await removeStaleKeyFiles(db);
    return true;
  },

  // args.seed: a nonempty text (its BLAKE2b-256 is the seed) or 32 bytes (the module refuses
  // another length); absent: a random seed.
  makeRequest: function (id, args) {
    var seed = null;
    if (args.seed != null) {
      seed = typeof args.seed === 'string' && args.seed ? abi.testSeedFromText(args.seed) : EnygmaAbi.bytesOf(args.seed);
      if (!seed) {
        throw argumentFailure('seed', 'seed must be a nonempty text or 32 bytes (a Uint8Array or an ArrayBuffer), not ' + kindOf(args.seed));
      }
    }
    try {
      return check(abi.makeRequest(circuitOf(args), seed, args.count)).text;
    } finally {
      if (seed) seed.fill(0); // a wallet's seed: this worker's copy, or the one derived from the text
    }
  },

  validate: function (id, args) {
    var outcome = abi.validate(circuitOf(args), args.request);
    if (outcome.status === EnygmaAbi.STATUS.OK) return { valid: true };
    if (outcome.status === EnygmaAbi.STATUS.INVALID) return { valid: false, error: errorOf(outcome) };
    throw new Failure(outcome.statusName, errorOf(outcome));
  },

  prove: function (id, args) {
    if (args.testSeed != null && typeof args.testSeed !== 'string') {
      throw argumentFailure('testSeed', 'testSeed must be a text, not ' + kindOf(args.testSeed));
    }
    var seed = args.testSeed != null ? abi.testSeedFromText(args.testSeed) : null;
    var starts = [];
    abi.resetCancel(); // before 'started': a cancel the page writes after it is never lost
    postMessage({ id: id, event: 'started' });
    var t0 = now();
    var run = function () {
      return abi.prove(circuitOf(args), args.request, seed, function (stage) {
        var t = now();
        starts.push([stage, t]);
        postMessage({ id: id, event: 'stage', stage: stage, name: EnygmaAbi.STAGES[stage], t: t - t0 });
      });
    };
    var outcome;
    try {
      outcome = run();
      // The page writes the id of the proof it cancels (opSeq[2]) before the flag. A cancel
      // meant for the proof before this one (written as that one ended, before the page saw its
      // answer) stopped this one instead: it runs again.
      while (outcome.status === EnygmaAbi.STATUS.CANCELLED && opSeq && Atomics.load(opSeq, 2) !== id) {
        abi.resetCancel();
        // a cancel of this proof written just before the reset (its id first, then the flag) is kept
        if (Atomics.load(opSeq, 2) === id) break;
        starts = [];
        t0 = now();
        outcome = run();
      }
    } finally {
      if (seed) seed.fill(0); // the test seed's digest, as makeRequest wipes its seed
    }
    var total = now() - t0;
    var memory = abi.memoryStats();
    check(outcome);
    // Per-stage durations: from a stage's start to the next one's ('parse' = before the first).
    var stages = {};
    if (starts.length) stages.parse = starts[0][1] - t0;
    for (var i = 0; i < starts.length; ++i) {
      var name = EnygmaAbi.STAGES[starts[i][0]];
      if (name === 'done') continue;
      var end = i + 1 < starts.length ? starts[i + 1][1] : t0 + total;
      stages[name] = end - starts[i][1];
    }
    return { response: outcome.text, ms: total, stages: stages, memory: memory };
  },

  verify: function (id, args) {
    var t0 = now();
    var outcome = abi.verify(circuitOf(args), args.response);
    var ms = now() - t0;
    if (outcome.status === EnygmaAbi.STATUS.OK) return { valid: true, ms: ms };
    if (outcome.status === EnygmaAbi.STATUS.INVALID) return { valid: false, ms: ms, error: errorOf(outcome) };
    throw new Failure(outcome.statusName, errorOf(outcome));
  },

  exportProof: function (id, args) {
    return check(abi.exportProof(args.response, args.format)).text;
  }
};

function run(message) {
  var id = message.id;
  var op = ops[message.op];
  if (!op) return Promise.resolve(postMessage({ id: id, ok: false, status: 'error', error: { error: 'unknown operation ' + message.op, rule: 'usage', field: 'op' } }));
  if (!abi && message.op !== 'init') {
    return Promise.resolve(postMessage({ id: id, ok: false, status: 'error', error: { error: 'the module is not initialised', rule: 'state', field: '' } }));
  }
  if (moduleFailure !== null) return Promise.resolve(postMessage(moduleFailureAnswer(id)));
  return Promise.resolve()
    .then(function () {
      return op(id, message.args || {});
    })
    .then(
      function (result) {
        if (message.op === 'loadKeys' || message.op === 'loadKeyBytes') {
          try {
            warmupStart(circuitOf(message.args), message.op === 'loadKeys' || result.canProve === true);
          } catch (e) { // (out of memory): no warm-up; the keys are loaded
            console.warn('enygma: the warm-up did not start: ' + String((e && e.message) || e));
          }
        }
        postMessage({ id: id, ok: true, result: result });
      },
      function (e) {
        if (e instanceof Failure) {
          postMessage({ id: id, ok: false, status: e.status, error: e.error });
        } else if (noteModuleFailure(e)) {
          postMessage(moduleFailureAnswer(id));
        } else {
          postMessage({ id: id, ok: false, status: 'error', error: { error: String((e && e.message) || e), rule: 'internal', field: '' } });
        }
      }
    )
    .catch(function (e) { // an answer that could not be posted: the page must not wait forever
      postMessage({ id: id, ok: false, status: 'error', error: { error: 'the answer could not be sent: ' + String((e && e.message) || e), rule: 'internal', field: '' } });
    });
}

// Operations that only read the worker's state do not hold the warm-up back: they are not
// activity that delays its start or its next verification (and after a restart the page asks
// them of the new worker: STATE_QUESTIONS in enygma.js).
var READ_ONLY_OPS = { verifierWarmup: true, proverWarmup: true, memory: true };

// The circuits whose cached keys the page will load first (create's prefetchKeys, in this
// script URL's fragment, which is no part of the HTTP cache's key): their key cache entries are
// read as this script starts, not when init's message comes (10-70 ms later here); init's
// prefetch takes them, and drops the others.
var earlyCacheReads = {};
(function () {
  var m = /(?:^#|&)prefetch=([^&]*)/.exec(self.location.hash);
  var list = null;
  try {
    list = m ? JSON.parse(decodeURIComponent(m[1])) : null;
  } catch (e) { // (not ours): init's prefetch reads the cache itself
  }
  if (!Array.isArray(list)) return;
  list.forEach(function (c) {
    try {
      var circuit = circuitOf({ circuit: c });
      earlyCacheReads[circuit] = readKeyCache(circuit, false);
    } catch (e) { // (not a circuit id: init refuses it)
    }
  });
})();

// The module the page compiled for this worker (init's args.pageModule names it): its message
// comes apart from the operations (init waits for it); null where the page's compile failed.
var pageModuleArrived;
var pageModule = new Promise(function (resolve) {
  pageModuleArrived = resolve;
});

self.onmessage = function (event) {
  if (event.data && event.data.op === 'module' && !('id' in event.data)) {
    pageModuleArrived(event.data.module instanceof WebAssembly.Module ? event.data.module : null);
    return;
  }
  var counted = !READ_ONLY_OPS[event.data && event.data.op];
  if (counted) opsInFlight += 1;
  if (counted && event.data.op !== 'init') opsReceived += 1; // as the page counts them in opSeq[0]
  // (a failure of one operation's run, caught or not, never stops the queue nor the count)
  queue = queue.then(function () {
    return run(event.data);
  }).catch(function (e) {
    console.error('enygma: ' + String((e && e.message) || e));
  }).then(function () {
    if (!counted) return;
    opsInFlight -= 1;
    warmupSchedule();
  });
};
