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
importScripts('enygma_abi.js', MODULE_SCRIPT);

var abi = null;
var queue = Promise.resolve();
var KEY_DB = 'enygma-keys';
var KEY_DB_VERSION = 2; // 2: entries by circuit id (1: by transfer k)
var KEY_STORE = 'keys';

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

// The circuit of an operation: args.circuit ("transfer-k6", "ownership-721"), or args.k for
// the transfer circuit of that k.
function circuitOf(args) {
  if (typeof args.circuit === 'string' && args.circuit) return args.circuit;
  if (typeof args.circuit === 'number') return 'transfer-k' + args.circuit;
  if (args.k != null) return 'transfer-k' + args.k;
  throw new Failure('rejected', { error: 'no circuit given', rule: 'input', field: 'circuit' });
}

function hex(bytes) {
  var s = '';
  for (var i = 0; i < bytes.length; ++i) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return s;
}

// ---- key cache (IndexedDB): per circuit, the raw proving key and the verifying key, filed
// under the digests of the files they were decoded from ------------------------------------
function openKeyDb() {
  return new Promise(function (resolve) {
    if (typeof indexedDB === 'undefined') return resolve(null);
    var req = indexedDB.open(KEY_DB, KEY_DB_VERSION);
    req.onupgradeneeded = function () {
      if (req.result.objectStoreNames.contains(KEY_STORE)) req.result.deleteObjectStore(KEY_STORE);
      req.result.createObjectStore(KEY_STORE, { keyPath: 'circuit' });
    };
    req.onsuccess = function () {
      resolve(req.result);
    };
    req.onerror = function () {
      resolve(null); // no cache (private mode, quota): keys are downloaded every time
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
function keyDb() {
  if (!keyDbPromise) keyDbPromise = openKeyDb();
  return keyDbPromise;
}

// Downloads url, reporting progress; checks the size and BLAKE2b-256 digest of the manifest.
async function download(id, url, expect) {
  var response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) {
    throw new Failure('error', { error: 'GET ' + url + ': HTTP ' + response.status, rule: 'key', field: url });
  }
  var total = expect.bytes || Number(response.headers.get('content-length')) || 0;
  var bytes = new Uint8Array(total);
  var loaded = 0;
  var reader = response.body.getReader();
  var lastReport = 0;
  for (;;) {
    var chunk = await reader.read();
    if (chunk.done) break;
    if (loaded + chunk.value.length > bytes.length) {
      var grown = new Uint8Array(Math.max(bytes.length * 2, loaded + chunk.value.length));
      grown.set(bytes.subarray(0, loaded));
      bytes = grown;
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
  if (expect.bytes && loaded !== expect.bytes) {
    throw new Failure('error', {
      error: url + ': ' + loaded + ' bytes, the manifest says ' + expect.bytes, rule: 'key', field: url
    });
  }
  var digest = hex(abi.blake2b256(bytes));
  if (expect.blake2b && digest !== expect.blake2b.toLowerCase()) {
    throw new Failure('error', {
      error: url + ': BLAKE2b-256 digest ' + digest + ' differs from the manifest (' + expect.blake2b + ')',
      rule: 'key', field: url
    });
  }
  return bytes;
}

var ops = {
  init: function (id, args) {
    var threads = THREADED ? Math.max(1, args.threads | 0 || navigator.hardwareConcurrency || 1) : 1;
    var t0 = now();
    var options = {
      locateFile: function (path) {
        return new URL(path, self.location.href).href;
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
      options.mainScriptUrlOrBlob = new URL(MODULE_SCRIPT, self.location.href).href;
    }
    var create = THREADED ? createEnygmaModule : createEnygmaModuleSingle;
    return create(options).then(function (M) {
      abi = EnygmaAbi.bindAbi(M);
      if (abi.init(threads) !== 0) {
        throw new Failure('error', { error: 'eny_init(' + threads + ') failed', rule: 'internal', field: '' });
      }
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
        initMs: now() - t0
      };
    });
  },

  memory: function () {
    return abi.memoryStats();
  },

  circuits: function () {
    return check(abi.circuits()).json;
  },

  circuitInfo: function (id, args) {
    return check(abi.circuitInfo(circuitOf(args))).json;
  },

  // A circuit's keys from the server's manifest, through the IndexedDB cache of decoded keys.
  loadKeys: async function (id, args) {
    var circuit = circuitOf(args);
    var t0 = now();
    var manifestUrl = new URL(args.manifestUrl || 'keys/manifest.json', self.location.href);
    var manifestResponse = await fetch(manifestUrl.href, { cache: 'no-cache' });
    if (!manifestResponse.ok) {
      throw new Failure('error', {
        error: 'GET ' + manifestUrl.pathname + ': HTTP ' + manifestResponse.status, rule: 'key', field: 'manifest'
      });
    }
    var manifest = await manifestResponse.json();
    var entry = (manifest.circuits || []).find(function (c) {
      return c.id === circuit;
    });
    if (!entry) {
      throw new Failure('error', { error: 'the server has no keys for ' + circuit, rule: 'key', field: 'circuit' });
    }
    var pkDigest = entry.proving_key.blake2b;
    var vkDigest = entry.verifying_key.blake2b;
    var tManifest = now();
    var db = await keyDb();
    var cached = args.noCache ? null : await dbRequest(db, 'readonly', function (store) {
      return store.get(circuit);
    });
    if (cached && cached.pkDigest === pkDigest && cached.vkDigest === vkDigest) {
      var tRead = now();
      var loaded = abi.loadKeys(circuit, new Uint8Array(cached.rawPk), new Uint8Array(cached.vk));
      if (loaded.status === EnygmaAbi.STATUS.OK) {
        return {
          circuit: circuit, k: entry.k, source: 'cache', insecureDevKeys: loaded.json.insecure_dev_keys,
          ms: { manifest: tManifest - t0, cacheRead: tRead - tManifest, decode: now() - tRead, total: now() - t0 }
        };
      }
      await dbRequest(db, 'readwrite', function (store) { // unusable entry: drop it
        return store.delete(circuit);
      });
    }
    var base = manifestUrl;
    var vk = await download(id, new URL(entry.verifying_key.url, base).href, entry.verifying_key);
    var pk = await download(id, new URL(entry.proving_key.url, base).href, entry.proving_key);
    var tDownload = now();
    var info = check(abi.loadKeys(circuit, pk, vk)).json;
    var tDecode = now();
    var raw = abi.exportProvingKeyRaw(circuit);
    if (raw.status === EnygmaAbi.STATUS.OK && db && !args.noCache) {
      await dbRequest(db, 'readwrite', function (store) {
        return store.put({ circuit: circuit, pkDigest: pkDigest, vkDigest: vkDigest, rawPk: raw.bytes.buffer, vk: vk.slice().buffer });
      });
    }
    return {
      circuit: circuit, k: entry.k, source: 'network', insecureDevKeys: info.insecure_dev_keys, bytes: pk.length + vk.length,
      ms: { manifest: tManifest - t0, download: tDownload - tManifest, decode: tDecode - tDownload, total: now() - t0 }
    };
  },

  // Keys given as bytes (tests, files picked by the user); with args.pkBlake2b / vkBlake2b
  // (hex), the bytes must have those BLAKE2b-256 digests.
  loadKeyBytes: function (id, args) {
    var pk = args.pk ? new Uint8Array(args.pk) : null;
    var vk = new Uint8Array(args.vk);
    [[pk, args.pkBlake2b, 'pk'], [vk, args.vkBlake2b, 'vk']].forEach(function (c) {
      if (!c[1] || !c[0]) return;
      var digest = hex(abi.blake2b256(c[0]));
      if (digest !== String(c[1]).toLowerCase()) {
        throw new Failure('error', { error: 'the ' + c[2] + ' bytes have BLAKE2b-256 ' + digest + ', not ' + c[1], rule: 'key', field: c[2] });
      }
    });
    return check(abi.loadKeys(circuitOf(args), pk, vk)).json;
  },

  unloadKeys: function (id, args) {
    abi.unloadKeys(circuitOf(args));
    return true;
  },

  clearKeyCache: async function () {
    var db = await keyDb();
    await dbRequest(db, 'readwrite', function (store) {
      return store.clear();
    });
    return true;
  },

  makeRequest: function (id, args) {
    var seed = null;
    if (args.seed != null) {
      seed = typeof args.seed === 'string' ? abi.testSeedFromText(args.seed) : new Uint8Array(args.seed);
    }
    return check(abi.makeRequest(circuitOf(args), seed, args.count || 0)).text;
  },

  validate: function (id, args) {
    var outcome = abi.validate(circuitOf(args), args.request);
    if (outcome.status === EnygmaAbi.STATUS.OK) return { valid: true };
    if (outcome.status === EnygmaAbi.STATUS.REJECTED) return { valid: false, error: errorOf(outcome) };
    throw new Failure(outcome.statusName, errorOf(outcome));
  },

  prove: function (id, args) {
    var seed = args.testSeed != null ? abi.testSeedFromText(String(args.testSeed)) : null;
    var starts = [];
    abi.resetCancel(); // before 'started': a cancel the page writes after it is never lost
    postMessage({ id: id, event: 'started' });
    var t0 = now();
    var outcome = abi.prove(circuitOf(args), args.request, seed, function (stage) {
      var t = now();
      starts.push([stage, t]);
      postMessage({ id: id, event: 'stage', stage: stage, name: EnygmaAbi.STAGES[stage], t: t - t0 });
    });
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
    return check(abi.exportProof(args.response, args.format || 'reference')).text;
  }
};

function run(message) {
  var id = message.id;
  var op = ops[message.op];
  if (!op) return Promise.resolve(postMessage({ id: id, ok: false, status: 'error', error: { error: 'unknown operation ' + message.op, rule: 'usage', field: 'op' } }));
  if (!abi && message.op !== 'init') {
    return Promise.resolve(postMessage({ id: id, ok: false, status: 'error', error: { error: 'the module is not initialised', rule: 'state', field: '' } }));
  }
  return Promise.resolve()
    .then(function () {
      return op(id, message.args || {});
    })
    .then(
      function (result) {
        postMessage({ id: id, ok: true, result: result });
      },
      function (e) {
        if (e instanceof Failure) {
          postMessage({ id: id, ok: false, status: e.status, error: e.error });
        } else {
          postMessage({ id: id, ok: false, status: 'error', error: { error: String((e && e.message) || e), rule: 'internal', field: '' } });
        }
      }
    );
}

self.onmessage = function (event) {
  queue = queue.then(function () {
    return run(event.data);
  });
};
