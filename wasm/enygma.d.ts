// Types of the enygma browser package (index.mjs = wasm/enygma.js). A wallet proves its own
// requests in the page; every heavy call runs in a Worker.

export declare const STAGES: readonly [
  'constraints', 'quotient', 'msm_a', 'msm_b1', 'msm_b2', 'msm_c', 'msm_h', 'done',
];
export type StageName = (typeof STAGES)[number];

/** The ranges of `create`'s and `loadKeys`' whole-number options (`threads` 0 is the default). */
export declare const LIMITS: {
  readonly threads: { readonly min: number; readonly max: number };
  readonly warmVerifier: { readonly min: number; readonly max: number };
  readonly warmProver: { readonly min: number; readonly max: number };
  readonly stallTimeoutMs: { readonly min: number; readonly max: number };
};

/** The anonymity-set sizes k of the circuits with a k (transfer, deposit, withdraw): each one's
 * `min_k`..`max_k` in `circuits()`, known before a module starts. */
export declare const K_RANGE: { readonly min: number; readonly max: number };

/** A circuit id: "transfer-k6", "deposit-k2", "withdraw-k4", "joinsplit-enygma",
 * "joinsplit-1155", "ownership-721"; a number k stands for "transfer-k<k>". */
export type CircuitId = string | number;

/** The error object of the core: the rule broken ("R15", "W3", "J5", ...) or a category
 * ("input", "key", "cancelled", ...) and the field concerned. */
export interface ErrorJson {
  error: string;
  rule: string;
  field: string;
}

/** Every call's promise rejects with one. An argument of the wrong type or value: status
 * 'rejected', rule 'input', field the argument's name ('circuit', 'seed', 'count', 'format',
 * 'pk', 'options', ...); a call that answers with a promise never throws. */
export declare class EnygmaError extends Error {
  constructor(status: string, error: ErrorJson);
  /** 'rejected' (the input breaks a rule or the format), 'cancelled', 'invalid', 'error'. */
  readonly status: string;
  readonly rule: string;
  readonly field: string;
  readonly json: ErrorJson;
}

export interface CircuitFamily {
  name: string;
  summary: string;
  min_k?: number;
  max_k?: number;
  default_min_k?: number;
  default_max_k?: number;
  prove_route: string;
  verify_route: string;
}

export interface CircuitInfo {
  circuit: string;
  family: string;
  k?: number;
  key_name: string;
  constraints: number;
  wires: number;
  public_inputs: number;
  /** The Groth16 evaluation domain of this project's keys: 2^k or 3 * 2^k rows. */
  domain: number;
  /** log2 of snarkjs's domain: the smallest power of two of at least as many rows. */
  log_domain: number;
}

export interface KeysLoaded {
  circuit: string;
  /** The circuit's k (from its id), for the families that have one. */
  k?: number;
  source: 'cache' | 'network';
  insecureDevKeys: boolean;
  /** Whether the keys' circuit digest was compared with the module's circuit now (which builds
   * the circuit): false for keys from the cache that this same module compared when it cached
   * them (the same build's version and module name; for an unversioned worker, the .wasm's
   * SHA-256). */
  circuitChecked: boolean;
  bytes?: number;
  /** manifest, cacheRead (the key cache's entry and file found, beside the manifest's) and read
   * (the wait for the cached key's bytes in the module's memory: 0 for a prefetched key copied
   * there already), or download; decode (the module's part), total. */
  ms: Record<string, number>;
  /** The decode's steps in the module: verifying_key, r1cs (when circuitChecked), proving_key,
   * verifier. */
  decodeSteps: Record<string, number>;
  /** Whether the manifest and the cache were read while the module started (prefetchKeys). */
  prefetched: boolean;
}

export interface MemoryStats {
  /** The module's linear memory: it grows as needed and never shrinks. */
  memory_bytes: number;
  /** What the module's allocator holds now (back to its idle value after a proof). */
  heap_in_use_bytes: number;
  heap_free_bytes: number;
  threads: number;
}

export interface VerifierWarmup {
  /** 'waiting': no keys loaded yet; 'failed': the warm-up proof verified (never expected). */
  state: 'off' | 'waiting' | 'running' | 'done' | 'failed';
  target: number;
  rounds: number;
  /** The warm-up's verifications' time in all, the first one's and the latest one's. */
  busyMs: number;
  firstMs: number | null;
  lastMs: number | null;
  error: string | null;
}

export interface ProverWarmup {
  /** 'off': none asked for, or the module without threads; 'waiting': no proving key loaded yet
   * (or its circuit's keys unloaded, or replaced by a verifying key alone). */
  state: 'off' | 'waiting' | 'running' | 'done';
  target: number;
  /** The circuit it proves (the first whose proving key was loaded). */
  circuit: string | null;
  /** Warm-up proofs made, and those stopped for an operation of the page (made again later). */
  rounds: number;
  yielded: number;
  /** The warm-up proofs' time in all, the first one's and the latest one's. */
  busyMs: number;
  firstMs: number | null;
  lastMs: number | null;
  error: string | null;
}

export interface ProofResult {
  /** The reference service's response JSON: {pi_a, pi_b, pi_c, public_signal}. */
  response: string;
  ms: number;
  stages: Partial<Record<StageName | 'parse', number>>;
  memory: MemoryStats;
}

export interface ProofPromise extends Promise<ProofResult> {
  readonly id: number;
  /** Stops the proof at its next stage boundary; the promise rejects with status 'cancelled'.
   * false when there is nothing to stop: the proof was already answered, or its arguments were
   * refused (id 0). */
  cancel(): boolean;
}

export type VerifyResult = { valid: true; ms: number } | { valid: false; ms: number; error: ErrorJson };
export type ValidateResult = { valid: true } | { valid: false; error: ErrorJson };

export declare class Enygma {
  /** Made by `Enygma.create` only. */
  private constructor();
  /** Starts the worker and the module: with threads (`threads`, 1 to 64, or 0 or absent for the
   * default: all cores up to 64) when the page
   * is cross-origin isolated, without otherwise. With threads, engines with relaxed SIMD get the
   * module's variant with the f64-lane kernel (the same proofs); `relaxedSimd: false` keeps the
   * other one. Cached proving keys are files in the origin private file system where there is
   * one; `keyStore: 'blob'` keeps them as Blobs in IndexedDB instead. `manifestUrl`: the key
   * manifest `loadKeys` uses when given none (default 'keys/manifest.json' relative to the
   * page). `prefetchKeys`: circuits whose manifest entry and cached keys are read while the
   * module starts (the first `loadKeys` of each with that manifest takes them; an id the
   * module does not know rejects `create`, field `prefetchKeys`).
   * `warmVerifier` (default 150, 0 for none): once the first keys are loaded and the worker has
   * been idle for half a second, it verifies a proof that does not verify this many times while
   * it has nothing else to do, so that the engine has optimized the verifier's code before the
   * first real verification. `warmProver` (default 6, 0 for none; module with threads only):
   * after that, each time the worker has been idle for half a second, it proves a fresh random
   * request of the first circuit whose proving key was loaded (not a verifying key alone), until
   * it has made this many proofs, so
   * that the page's first proof runs optimized code; a warm-up proof stops at its next stage
   * as soon as the page sends an operation and is made again later. `stallTimeoutMs` (default
   * 30000, 1 to 600000): a start (this one, and a restart after a cancel without threads or a
   * failed module) whose worker tells of no progress for this long (the worker's script, the
   * module's scripts, each chunk of its `.wasm`, the pool's Workers: a stalled server or
   * network) fails (status 'error', rule 'internal'), naming what it waited for. */
  static create(options?: {
    threads?: number;
    workerUrl?: string | URL;
    relaxedSimd?: boolean;
    keyStore?: 'auto' | 'blob';
    manifestUrl?: string | URL;
    prefetchKeys?: CircuitId[];
    warmVerifier?: number;
    warmProver?: number;
    stallTimeoutMs?: number;
  }): Promise<Enygma>;

  readonly version: string;
  readonly poolSize: number;
  readonly threaded: boolean;
  /** The module that runs: with threads (on engines with relaxed SIMD, its variant with the
   * f64-lane kernel), or without threads. */
  readonly module: 'enygma_module' | 'enygma_module_relaxed' | 'enygma_module_st';
  /** Whether the f64-lane kernels run ('f64x2 relaxed SIMD') or not ('none'): the MSM's G1 and
   * G2 additions, the pairing's Fp2 products, the quotient's transforms, the keys' decoding. */
  readonly laneKernel: string;
  readonly crossOriginIsolated: boolean;
  readonly initMs: number;
  /** Whether the module was compiled by this page (on its thread, while the worker started) and
   * handed to the worker, or by the worker: where the page's compile failed (the .wasm served
   * without the application/wasm type, an engine without relaxed SIMD) or for a worker of
   * another version than this index.mjs's. */
  readonly compiledByPage: boolean;

  circuits(): Promise<CircuitFamily[]>;
  /** One circuit's sizes, counted on its constraint system: the first call for a circuit builds it
   * (5-45 MB, up to a second at the largest k), and does not keep it. */
  circuitInfo(circuit: CircuitId): Promise<CircuitInfo>;
  /** A circuit's keys from a manifest (default: create's `manifestUrl`, itself by default
   * 'keys/manifest.json' relative to the page), checked
   * against its sizes and BLAKE2b-256 digests, decoded, cached decoded (the raw proving key as a
   * file in the origin private file system, or a Blob in IndexedDB). `stallTimeoutMs` (1 to
   * 600000, default 30000): a wait for the network (the manifest, a response's headers, the
   * next chunk of a key file) that gets nothing for this long fails the load (rule 'key', the
   * URL named), so that a stalled server does not hold the calls queued behind it. */
  loadKeys(circuit: CircuitId, options?: {
    manifestUrl?: string | URL;
    noCache?: boolean;
    stallTimeoutMs?: number;
    onDownload?: (event: { url: string; loaded: number; total: number }) => void;
  }): Promise<KeysLoaded>;
  /** Keys from the bytes of key files (raw or compressed); pk null for a
   * verify-only instance, while empty bytes are a truncated key file, refused (rule 'key'). With
   * the digests given (64 hex digits each), bytes with other BLAKE2b-256 digests are refused
   * (rule 'key'); a digest that is not 64 hex digits, or pkBlake2b without a pk, is refused
   * (rule 'input'). A refused load keeps the circuit's keys loaded before. */
  loadKeyBytes(circuit: CircuitId, pk: ArrayBuffer | ArrayBufferView | null,
               vk: ArrayBuffer | ArrayBufferView,
               expect?: { pkBlake2b?: string; vkBlake2b?: string }):
      Promise<{ circuit: string; insecureDevKeys: boolean; canProve: boolean; decodeSteps: Record<string, number> }>;
  unloadKeys(circuit: CircuitId): Promise<boolean>;
  clearKeyCache(): Promise<boolean>;

  /** A valid request (JSON text) built by the circuit's wallet code. seed: a nonempty text (its
   * BLAKE2b-256 is the seed) or exactly 32 bytes, for a reproducible request; absent: a fresh
   * random one. count: the family's main count, a whole number, 0 or absent for the family's
   * default: transfer, recipients sharing the amount, 1..k-1 (default 1); withdraw, notes,
   * 1..10 (default 1); join-split, real inputs, 1..10 (default 2); deposit and ownership, 1.
   * Other seeds and counts are refused (rule 'input', field 'seed' or 'count'), counts
   * out of the family's range by its wallet (rule 'wallet'). */
  makeRequest(circuit: CircuitId, options?: { seed?: string | Uint8Array | ArrayBuffer; count?: number }): Promise<string>;
  /** makeRequest of 'transfer-k' + k: payees = the recipients sharing the amount, 1..k-1
   * (default 1). A k that is not a whole number, or without a circuit, is refused naming k;
   * payees out of range, naming payees. */
  makeTransfer(k: number, options?: { seed?: string | Uint8Array | ArrayBuffer; payees?: number }): Promise<string>;
  /** Whether the request is valid: a request that breaks a rule or does not parse resolves
   * {valid: false, error}; an unknown circuit rejects, as in every call. */
  validate(circuit: CircuitId, request: string | object): Promise<ValidateResult>;
  /** The Groth16 proof of a request. testSeed: INSECURE deterministic blinding (the CLI's
   * --test-seed), for cross-target tests only; a non-empty text (an empty one is refused).
   * onStage: called as each stage starts; what it throws is the page's uncaught error (as an
   * event listener's), and the proof goes on. */
  prove(circuit: CircuitId, request: string | object, options?: {
    onStage?: (event: { stage: number; name: StageName; t: number }) => void;
    testSeed?: string;
  }): ProofPromise;
  /** Stops a proof waiting or running (default: the running one); false when there is no such
   * proof (an unknown id, one already answered). Without threads (a page that is not
   * cross-origin isolated) the busy worker is replaced: the calls sent after the running proof
   * reject with status 'cancelled' too, their message saying that they were not run and may be
   * asked again (proofs cancelled by the page say that they were cancelled), except memory(),
   * the warm-up questions and unloadKeys(), which the new worker answers. */
  cancel(id?: number): boolean;
  /** {valid: false, error} for a proof that does not verify (a changed public signal, points
   * off their curves); a response that does not parse as a proof rejects (rule 'input', field
   * 'response' for text that is not JSON, as in exportProof; rule 'proof' naming the member of a
   * malformed one). */
  verify(circuit: CircuitId, response: string | object): Promise<VerifyResult>;
  /** Another format, default 'reference'; any other format is refused (rule 'input', field
   * 'format'). 'binary_hex' (the 128 bytes of compressed points) refuses a point off its curve,
   * which that form cannot write (rule 'proof', field 'pi_a', 'pi_b' or 'pi_c'). */
  exportProof(response: string | object,
              format?: 'reference' | 'snarkjs' | 'public_snarkjs' | 'binary_hex'): Promise<string>;
  memory(): Promise<MemoryStats>;
  /** Where the verifier's warm-up (create's `warmVerifier`) stands. */
  verifierWarmup(): Promise<VerifierWarmup>;
  /** Where the prover's warm-up (create's `warmProver`) stands. */
  proverWarmup(): Promise<ProverWarmup>;
  /** Whether a warm-up proof is running in the worker now (false without threads). */
  readonly proverWarmupRunning: boolean;
  /** Ends the worker. The calls still waiting reject, and so does every later call (status and
   * rule 'cancelled'). */
  terminate(): void;
}
