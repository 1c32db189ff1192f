// --pre-js of the browser module (enygma_module.js): runs inside the module's closure, on the
// thread hosting the module and in every pthread worker.
//
// The page cancels a running proof by writing into the module's shared WebAssembly.Memory
// (wasm/enygma_worker.js posts the memory to the page): expose it. It is read at call time,
// after instantiation, so `wasmMemory` is the runtime's own variable by then.
Module['enygmaMemory'] = function () {
  return wasmMemory;
};
