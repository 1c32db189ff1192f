// JavaScript calls of the module's C ABI (wasm/enygma_abi.h): bytes and strings in and out of
// the module's heap. Used by the worker hosting the module (wasm/enygma_worker.js, through
// importScripts) and by the Node test (wasm/tests/module_test.cjs, through require).
//
// Every call runs synchronously on the calling thread. Inputs that may hold secrets (requests)
// are wiped from the heap after the call; the module wipes its own output buffers when freed.
(function (root) {
  'use strict';

  var STATUS = { OK: 0, INVALID: 1, REJECTED: 2, CANCELLED: 3, ERROR: 4 };
  var STATUS_NAMES = ['ok', 'invalid', 'rejected', 'cancelled', 'error'];
  var STAGES = ['constraints', 'quotient', 'msm_a', 'msm_b1', 'msm_b2', 'msm_c', 'msm_h', 'done'];
  var PROOF_FORMATS = { reference: 0, snarkjs: 1, public_snarkjs: 2, binary_hex: 3 };
  var LOAD_FLAGS = { KEYS_CHECKED_BY_THIS_MODULE: 1, DEFER_VERIFIER: 2 };
  var ADOPT_PROVING_KEY = 4; // loadKeys' own (wasm/enygma_abi.h ENY_ADOPT_PROVING_KEY)

  // A value as an error message shows it: a text quoted, a number as it is, anything else by
  // its type.
  function shown(value) {
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'number') return String(value);
    return value === null ? 'null' : 'a value of type ' + typeof value;
  }

  // Bytes as this glue takes them: a Uint8Array (a Node Buffer is one), an ArrayBuffer or
  // another view read as its bytes; null for anything else (a text, an array of numbers, which
  // the heap's set() would take as zeros or values mod 256).
  function bytesOf(value) {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return null;
  }

  // Bytes in the module's memory (copyBytes): ptr 0 once the module took them or they were freed.
  function HeapRoom(ptr, length) {
    this.ptr = ptr;
    this.length = length;
  }

  function bindAbi(M) {
    var memory = M.enygmaMemory();
    var encoder = new TextEncoder();
    var decoder = new TextDecoder();
    // The heap is a SharedArrayBuffer that may grow (a new, longer buffer): views are made per
    // use, never kept.
    function heap() {
      return new Uint8Array(memory.buffer);
    }
    // A NUL-terminated string in the module's memory.
    function cString(ptr) {
      var end = ptr;
      var h = heap();
      while (h[end]) ++end;
      return decoder.decode(h.slice(ptr, end));
    }
    var outBuffer = allocate(8); // eny_buffer {uint8_t* data; size_t len;} on wasm32
    var stageHandler = null;
    var stageError = null; // the first exception of the running proof's stage callback
    var proving = false; // a proof runs: its stage callback may call only the ABI's flag functions
    var stageFn = M.addFunction(function (user, stage) {
      if (!stageHandler || stageError) return;
      try {
        stageHandler(stage);
      } catch (e) {
        // No exception may cross the module: its destructors would not run (the proof's buffers,
        // secrets among them, left unwiped and unfreed; the pool's threads left busy). The proof
        // stops at its next stage boundary, and prove throws this once the module has returned.
        stageError = e;
        Atomics.store(heap(), M._eny_cancel_flag(), 1);
      }
    }, 'vii');

    // Copies bytes into the heap: a pointer that is never null, even for no bytes (malloc(0) may
    // return null, which the module reads as no bytes given).
    function allocate(size) {
      var ptr = M._malloc(Math.max(1, size));
      if (!ptr) throw new Error('enygma: out of memory (' + size + ' bytes)');
      return ptr;
    }
    // bytesOf's, or a TypeError naming the kind of value given, never the value (a key or a
    // seed given as text).
    function byteView(bytes) {
      var view = bytesOf(bytes);
      if (view) return view;
      var kind = bytes === null ? 'null' : Array.isArray(bytes) ? 'an array' : 'a value of type ' + typeof bytes;
      throw new TypeError('enygma: bytes must be a Uint8Array, an ArrayBuffer or a view of one, not ' + kind);
    }
    function copyIn(bytes) {
      var ptr = allocate(bytes.length);
      heap().set(bytes, ptr);
      return ptr;
    }
    // Bytes (byteView's) copied into room in the heap (a HeapRoom).
    function copyBytes(bytes) {
      var view = byteView(bytes);
      return new HeapRoom(copyIn(view), view.length);
    }
    // Copies bytes into the heap for the duration of fn(ptr, len), then wipes and frees them;
    // null: fn(0, 0).
    function withBytes(bytes, fn) {
      if (bytes == null) return fn(0, 0);
      bytes = byteView(bytes);
      var ptr = copyIn(bytes);
      try {
        return fn(ptr, bytes.length);
      } finally {
        heap().fill(0, ptr, ptr + bytes.length);
        M._free(ptr);
      }
    }
    // A circuit id ("transfer-k6", "ownership-721"; a number k means "transfer-k<k>") as a
    // NUL-terminated string for the duration of fn(ptr).
    function withCircuit(circuit, fn) {
      var id = typeof circuit === 'number' ? 'transfer-k' + circuit : String(circuit);
      // (the module reads up to the first NUL: "transfer-k2\0x" would be transfer-k2)
      if (id.indexOf('\0') >= 0) throw new TypeError('a circuit id holds a NUL character');
      var bytes = encoder.encode(id + '\0');
      return withBytes(bytes, function (p) {
        return fn(p);
      });
    }
    function withText(text, fn) {
      var bytes = encoder.encode(text);
      try {
        return withBytes(bytes, fn);
      } finally {
        bytes.fill(0);
      }
    }
    // Takes the output buffer: a copy in ordinary (non-shared) memory, then frees the original.
    function takeOut() {
      var words = new Uint32Array(memory.buffer, outBuffer, 2);
      var ptr = words[0];
      var len = words[1];
      var bytes = ptr ? heap().slice(ptr, ptr + len) : new Uint8Array(0);
      M._eny_buffer_free(outBuffer);
      return bytes;
    }
    // An argument refused before the module is called, in the shape of the module's refusals
    // (ENY_REJECTED, rule "input").
    function refused(field, error) {
      var json = { error: error, rule: 'input', field: field };
      return { status: STATUS.REJECTED, statusName: 'rejected', text: JSON.stringify(json), json: json };
    }
    function clearOut() {
      new Uint32Array(memory.buffer, outBuffer, 2).fill(0);
    }
    // {status, statusName, text, json (when text parses)} of a call filling the output buffer.
    // The bytes' copy is zeroed once decoded (a request made by makeRequest is in it); the text
    // is a JS string, which nothing can wipe.
    function outcome(status) {
      var bytes = takeOut();
      var text = decoder.decode(bytes);
      bytes.fill(0);
      var json = null;
      if (!text.length && status !== STATUS.OK) {
        // An error the module had no memory left to write (enygma_abi.cpp, kNoMemoryForAnswer).
        json = { error: 'the module ran out of memory for its answer', rule: 'internal' };
        text = JSON.stringify(json);
      } else if (text.length && (text[0] === '{' || text[0] === '[')) {
        try {
          json = JSON.parse(text);
        } catch (e) {
          json = null;
        }
      }
      return { status: status, statusName: STATUS_NAMES[status] || 'error', text: text, json: json };
    }

    var abi = {
      memory: memory,
      init: function (threads) {
        return M._eny_init(threads >>> 0);
      },
      poolSize: function () {
        return M._eny_pool_size();
      },
      version: function () {
        return cString(M._eny_version());
      },
      laneKernel: function () {
        return cString(M._eny_lane_kernel());
      },
      memoryStats: function () {
        clearOut();
        return outcome(M._eny_memory_stats(outBuffer)).json;
      },
      cancelFlagAddress: function () {
        return M._eny_cancel_flag();
      },
      // Clear before each proof; anyone holding the memory may then set it to cancel.
      resetCancel: function () {
        Atomics.store(heap(), M._eny_cancel_flag(), 0);
      },
      cancel: function () {
        Atomics.store(heap(), M._eny_cancel_flag(), 1);
      },
      // The warm-up proofs' own flag (eny_warmup_yield_flag): cleared by the worker before each,
      // written 1 by the page with each operation it sends.
      warmupYieldFlagAddress: function () {
        return M._eny_warmup_yield_flag();
      },
      resetWarmupYield: function () {
        Atomics.store(heap(), M._eny_warmup_yield_flag(), 0);
      },
      circuits: function () {
        clearOut();
        return outcome(M._eny_circuits(outBuffer));
      },
      circuitInfo: function (circuit) {
        clearOut();
        return withCircuit(circuit, function (c) {
          return outcome(M._eny_circuit_info(c, outBuffer));
        });
      },
      // Whether the module knows the id ({circuit}), without building the circuit.
      circuitId: function (circuit) {
        clearOut();
        return withCircuit(circuit, function (c) {
          return outcome(M._eny_circuit_id(c, outBuffer));
        });
      },
      // flags: 0 (default), or LOAD_FLAGS' values or'ed (wasm/enygma_abi.h).
      // The proving key's bytes go to the module (ENY_ADOPT_PROVING_KEY): a raw key is read where
      // they are copied in, not copied a second time. pkBytes null: no proving key (verify only);
      // no bytes: an empty key file, which the module refuses.
      // pkBytes: bytes, null (no proving key), or copyBytes' room, which the module takes.
      loadKeys: function (circuit, pkBytes, vkBytes, flags) {
        return withCircuit(circuit, function (c) {
          return withBytes(vkBytes, function (vk, vkLen) {
            var room = pkBytes == null || pkBytes instanceof HeapRoom ? pkBytes : copyBytes(pkBytes);
            if (room && !room.ptr) throw new Error('enygma: these bytes were handed over before');
            var pk = room ? room.ptr : 0, pkLen = room ? room.length : 0;
            if (room) room.ptr = 0; // (taken by the module, loaded or not)
            clearOut();
            var all = (flags >>> 0) | (pk ? ADOPT_PROVING_KEY : 0);
            return outcome(M._eny_load_keys(c, pk, pkLen, vk, vkLen, all, outBuffer));
          });
        });
      },
      // Bytes copied into room in the module's memory, which a later loadKeys takes as its proving
      // key without copying them again (the worker copies a cached key there before loadKeys
      // comes); freeBytes gives back room not taken.
      copyBytes: copyBytes,
      freeBytes: function (room) {
        if (!room.ptr) return;
        M._free(room.ptr);
        room.ptr = 0;
      },
      unloadKeys: function (circuit) {
        return withCircuit(circuit, function (c) {
          return M._eny_unload_keys(c);
        });
      },
      // The constraint system circuitInfo built, freed (the circuit's keys kept).
      releaseCircuit: function (circuit) {
        return withCircuit(circuit, function (c) {
          return M._eny_release_circuit(c);
        });
      },
      exportProvingKeyRaw: function (circuit) {
        clearOut();
        var status = withCircuit(circuit, function (c) {
          return M._eny_export_proving_key_raw(c, outBuffer);
        });
        if (status !== STATUS.OK) return { status: status, bytes: null, error: outcome(status) };
        return { status: status, bytes: takeOut() };
      },
      exportVerifyingKey: function (circuit) {
        clearOut();
        var status = withCircuit(circuit, function (c) {
          return M._eny_export_verifying_key(c, outBuffer);
        });
        if (status !== STATUS.OK) return { status: status, bytes: null, error: outcome(status) };
        return { status: status, bytes: takeOut() };
      },
      insecureDevSetup: function (circuit, seedText) {
        var vkOut = allocate(8);
        try {
          new Uint32Array(memory.buffer, vkOut, 2).fill(0);
          clearOut();
          var status = withCircuit(circuit, function (c) {
            return withText(seedText, function (p, n) {
              return M._eny_insecure_dev_setup(c, p, n, outBuffer, vkOut);
            });
          });
          if (status !== STATUS.OK) {
            M._eny_buffer_free(vkOut);
            return { status: status, error: outcome(status) };
          }
          var pk = takeOut();
          var words = new Uint32Array(memory.buffer, vkOut, 2);
          var vk = heap().slice(words[0], words[0] + words[1]);
          M._eny_buffer_free(vkOut);
          return { status: status, pk: pk, vk: vk };
        } finally {
          M._free(vkOut);
        }
      },
      blake2b256: function (bytes) {
        var digest = allocate(32);
        try {
          withBytes(bytes, function (p, n) {
            M._eny_blake2b256(p, n, digest);
          });
          return heap().slice(digest, digest + 32);
        } finally {
          heap().fill(0, digest, digest + 32); // a wallet's seed (testSeedFromText) is a secret
          M._free(digest);
        }
      },
      // seed: 32 bytes (a Uint8Array; another length is refused), or null for a random one.
      // count: the family's main count (transfer recipients, withdraw notes, join-split inputs),
      // 0 or absent for its default; anything but a whole number from 0 up is refused.
      makeRequest: function (circuit, seed, count) {
        if (count == null) count = 0;
        if (!Number.isInteger(count) || count < 0 || count > 0xffffffff) {
          return refused('count', 'count must be a whole number from 0 up (0: the circuit\'s default), not ' + shown(count));
        }
        clearOut();
        return withCircuit(circuit, function (c) {
          return withBytes(seed, function (p, n) {
            return outcome(M._eny_make_request(c, p, n, count, outBuffer));
          });
        });
      },
      validate: function (circuit, requestJson) {
        clearOut();
        return withCircuit(circuit, function (c) {
          return withText(requestJson, function (p, n) {
            return outcome(M._eny_validate(c, p, n, outBuffer));
          });
        });
      },
      // onStage(stageIndex) is called synchronously at the start of each stage.
      // onStage may call cancel() and the other flag functions; any other call of this ABI from it
      // (which could unload the keys the proof uses) throws, and an exception thrown by onStage
      // stops the proof at its next stage and is thrown by prove.
      prove: function (circuit, requestJson, testSeed, onStage) {
        clearOut();
        stageHandler = onStage || null;
        stageError = null;
        proving = true;
        var result;
        try {
          result = withCircuit(circuit, function (c) {
            return withText(requestJson, function (p, n) {
              return withBytes(testSeed || null, function (s, sn) {
                return outcome(M._eny_prove(c, p, n, s, sn, stageFn, 0, outBuffer));
              });
            });
          });
        } finally {
          stageHandler = null;
          proving = false;
        }
        if (stageError) {
          var e = stageError;
          stageError = null;
          Atomics.store(heap(), M._eny_cancel_flag(), 0); // the flag this glue set
          throw e;
        }
        return result;
      },
      verify: function (circuit, responseJson) {
        clearOut();
        return withCircuit(circuit, function (c) {
          return withText(responseJson, function (p, n) {
            return outcome(M._eny_verify(c, p, n, outBuffer));
          });
        });
      },
      // A response that parses and does not verify (eny_verifier_warmup_response): {status, text}.
      verifierWarmupResponse: function (circuit) {
        clearOut();
        return withCircuit(circuit, function (c) {
          return outcome(M._eny_verifier_warmup_response(c, outBuffer));
        });
      },
      // One warm-up proof of a fresh random request (eny_prover_warmup): {status, json}.
      proverWarmup: function (circuit) {
        clearOut();
        return withCircuit(circuit, function (c) {
          return outcome(M._eny_prover_warmup(c, outBuffer));
        });
      },
      // format: a name of PROOF_FORMATS.
      exportProof: function (responseJson, format) {
        if (!Object.prototype.hasOwnProperty.call(PROOF_FORMATS, format)) {
          return refused('format', 'unknown proof format ' + shown(format) + ' (' + Object.keys(PROOF_FORMATS).join(', ') + ')');
        }
        var f = PROOF_FORMATS[format];
        clearOut();
        return withText(responseJson, function (p, n) {
          return outcome(M._eny_export_proof(p, n, f, outBuffer));
        });
      },
      testSeedFromText: function (text) {
        // The CLI's --test-seed TEXT: BLAKE2b-256 of the UTF-8 text, no key. (A wallet's seed
        // text is a secret: its bytes are zeroed once hashed; the text itself a script cannot wipe.)
        var bytes = encoder.encode(text);
        try {
          return this.blake2b256(bytes);
        } finally {
          bytes.fill(0);
        }
      }
    };
    // What a proof's stage callback may call: the flags and the hash (no keys, no output buffer).
    var DURING_PROOF = { poolSize: 1, version: 1, laneKernel: 1, cancelFlagAddress: 1, resetCancel: 1, cancel: 1,
      warmupYieldFlagAddress: 1, resetWarmupYield: 1, blake2b256: 1, testSeedFromText: 1 };
    Object.keys(abi).forEach(function (name) {
      var fn = abi[name];
      if (typeof fn !== 'function' || DURING_PROOF[name]) return;
      abi[name] = function () {
        if (proving) throw new Error('enygma: ' + name + ' was called while a proof runs (from its stage callback)');
        return fn.apply(this, arguments);
      };
    });
    return abi;
  }

  var api = {
    bindAbi: bindAbi,
    bytesOf: bytesOf,
    shown: shown,
    STATUS: STATUS,
    STATUS_NAMES: STATUS_NAMES,
    STAGES: STAGES,
    PROOF_FORMATS: PROOF_FORMATS,
    LOAD_FLAGS: LOAD_FLAGS
  };
  if (typeof module === 'object' && module.exports) {
    module.exports = api;
  } else {
    root.EnygmaAbi = api;
  }
})(typeof self !== 'undefined' ? self : this);
