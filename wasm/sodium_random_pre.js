// --pre-js for every WebAssembly program of this project (tests, benchmarks, browser module).
//
// libsodium built for Emscripten draws its randomness from Module.getRandomValue(), a JS
// function returning a uniformly random 32-bit value. libsodium defines it in randombytes_stir()
// (called by sodium_init()) on the thread that calls it, i.e. usually only the main thread;
// each Web Worker of a -pthread build has its own Module object, so a worker calling
// randombytes_buf() would throw "Module.getRandomValue is not a function". This file runs on
// the main thread and in every worker (the worker loads the same script), and defines it from
// the platform's cryptographically secure generator: Web Crypto's getRandomValues in browsers
// (and Node >= 19, where it is global), Node's crypto module otherwise.
(function () {
  if (typeof Module['getRandomValue'] === 'function') return;
  var word = new Uint32Array(1);  // not on the shared heap: getRandomValues refuses shared views
  var webCrypto = typeof globalThis === 'object' && globalThis.crypto &&
                  typeof globalThis.crypto.getRandomValues === 'function' ? globalThis.crypto
                                                                           : null;
  if (webCrypto) {
    Module['getRandomValue'] = function () {
      webCrypto.getRandomValues(word);
      return word[0] >>> 0;
    };
    return;
  }
  if (typeof process === 'object' && typeof require === 'function') {
    var nodeCrypto = require('crypto');
    Module['getRandomValue'] = function () {
      nodeCrypto.randomFillSync(word);
      return word[0] >>> 0;
    };
    return;
  }
  throw new Error('no cryptographically secure random number generator available');
})();
