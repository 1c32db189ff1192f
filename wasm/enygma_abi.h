/* The C ABI of the enygma WebAssembly module: what wasm/enygma_worker.js calls.
 *
 * Plain C: integers, byte buffers, one struct. No exception ever crosses it; every function
 * returns a status code and, where it has something to say, fills an eny_buffer that the
 * caller releases with eny_buffer_free (which wipes it first: buffers can hold secrets).
 * Text in and out is UTF-8 JSON; errors are {"error": ..., "rule": ..., "field": ...}, the
 * shape the native CLI and server use.
 *
 * Threading: call every function from ONE thread (the worker hosting the module). The proofs
 * themselves run on the module's thread pool (eny_init), whose threads are Web Workers.
 * The one exception is the cancel flag (eny_cancel_flag), which another agent (the page,
 * through the shared WebAssembly.Memory) may set at any time. */
#ifndef ENYGMA_WASM_ENYGMA_ABI_H_
#define ENYGMA_WASM_ENYGMA_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
enum {
  ENY_OK = 0,
  ENY_INVALID = 1,   /* a well-formed proof that does not verify, a request that breaks a rule
                        (eny_validate) (buffer: the reason) */
  ENY_REJECTED = 2,  /* the input breaks a rule or the format, or an argument is refused (an
                        unknown circuit, flag or format; rule "input") (buffer: rule-naming
                        error) */
  ENY_CANCELLED = 3, /* the proof was cancelled through the cancel flag */
  ENY_ERROR = 4      /* anything else: keys, state, usage (buffer: error JSON) */
};

/* Flags of eny_load_keys. */
enum {
  /* The caller has loaded these very key bytes into this very module before, which compared
   * them with its circuit (a cache entry recording the module's digest): the circuit's R1CS is
   * not built again to compare its digest, nor are the verifying key's points checked again (on
   * their curves, in G2's subgroup); the two keys are still compared with each other and each
   * file with its digest. */
  ENY_KEYS_CHECKED_BY_THIS_MODULE = 1,
  /* The verifier's tables (e(alpha, beta), the lines of gamma and delta, the public-input
   * table) are made by the first verification instead of by the load: for a caller that makes
   * that verification itself while idle (the worker's warm-up), so that the load, on the way to
   * proof-ready, is shorter. */
  ENY_DEFER_VERIFIER = 2,
  /* pk was allocated with this module's malloc and belongs to the module from the call on: a
   * raw proving key is read in place (its arrays stay in those bytes, no second copy), the bytes
   * kept while the keys are loaded and freed with them; freed at once when the load fails or
   * when the key is compressed (decoded into memory of its own). */
  ENY_ADOPT_PROVING_KEY = 4
};

/* Proof export formats (eny_export_proof). */
enum {
  ENY_PROOF_REFERENCE = 0, /* the reference response JSON, re-serialized canonically */
  ENY_PROOF_SNARKJS = 1,   /* snarkjs proof.json */
  ENY_PUBLIC_SNARKJS = 2,  /* snarkjs public.json */
  ENY_PROOF_BINARY_HEX = 3 /* the 128-byte binary proof A || B || C, compressed, as hex (a point
                              off its curve, which compression cannot write: ENY_REJECTED, rule
                              "proof", the point named) */
};

typedef struct {
  uint8_t* data; /* module heap; NULL when empty */
  size_t len;
} eny_buffer;

/* Stage callback of eny_prove: called on the calling thread at the start of each stage
 * (0 constraints, 1 quotient, 2 msm_a, 3 msm_b1, 4 msm_b2, 5 msm_c, 6 msm_h, 7 done). */
typedef void (*eny_stage_fn)(void* user, int stage);

/* libsodium, then a thread pool of `threads` in total (the caller included; 0: all cores).
 * The pool can be made once: a later call with another size fails. More threads than the
 * module's Web Workers (made before it started: Module.enygmaWorkers) plus the caller fail, as
 * does more than one in the module without threads. */
int eny_init(unsigned threads);
/* Threads of the pool (0 before eny_init). */
unsigned eny_pool_size(void);
/* "enygma-wasm <version>" as a NUL-terminated static string. */
const char* eny_version(void);
/* The lane kernel of the MSM's batch-affine additions in use, as a NUL-terminated static string:
 * "f64x2 relaxed SIMD" (the module built with it, on an engine that fuses relaxed_madd) or
 * "none". */
const char* eny_lane_kernel(void);

/* Circuits are named by their id: "transfer-k6", "deposit-k2", "withdraw-k4",
 * "joinsplit-enygma", "joinsplit-1155", "ownership-721" (a registered family with -k<K> where
 * it has an anonymity-set size; core/registry/registry.hpp). An unknown id is ENY_REJECTED. */

/* [{"name","summary","min_k","max_k","default_min_k","default_max_k","prove_route",
 *   "verify_route"}, ...]: every registered circuit family (k fields only where it has k). */
int eny_circuits(eny_buffer* out);
/* {"circuit","family","k","key_name","constraints","wires","public_inputs","domain",
 *  "log_domain"} ("k" only where the family has one; "domain": the Groth16 evaluation domain of
 * this project's keys, 2^k or 3 * 2^k rows; "log_domain": log2 of snarkjs's, the smallest power of
 * two of at least as many rows). The module's first call for a circuit builds its constraint
 * system (kept until the next eny_load_keys, eny_unload_keys or eny_release_circuit of the
 * circuit); later ones read the sizes kept. */
int eny_circuit_info(const char* circuit, eny_buffer* out);
/* {"circuit", "k"}: the id as the module writes it ("transfer-k06" is "transfer-k6") and its k
 * (absent for a family without k), or ENY_REJECTED for an unknown one; nothing is built
 * (eny_circuit_info builds the constraint system). */
int eny_circuit_id(const char* circuit, eny_buffer* out);

/* Loads the keys of a circuit from key files' bytes (raw or compressed, see
 * core/groth16/key_format.hpp); pk NULL for a verify-only instance (a pointer with pk_len 0 is
 * an empty, truncated key file: refused, rule "key"). On any refusal the keys loaded before
 * stay.
 * flags: ENY_KEYS_CHECKED_BY_THIS_MODULE, ENY_DEFER_VERIFIER, ENY_ADOPT_PROVING_KEY, or'ed, or 0.
 * Replaces the keys loaded before for that circuit. out:
 * {"circuit","insecure_dev_keys","can_prove","steps_ms"} or error; steps_ms: the milliseconds of
 * each step of the load ("verifying_key", "r1cs", "proving_key", "verifier").
 */
int eny_load_keys(const char* circuit, const uint8_t* pk, size_t pk_len, const uint8_t* vk,
                  size_t vk_len, unsigned flags, eny_buffer* out);
/* Forgets a circuit's keys (their memory is freed): ENY_OK, also where none were loaded;
 * ENY_REJECTED for an unknown circuit (no buffer: there is no out). */
int eny_unload_keys(const char* circuit);
/* Frees the constraint system eny_circuit_info built for a circuit (no load since took it),
 * keeping its keys: for a key download that failed after it was built. ENY_OK, or ENY_REJECTED
 * for an unknown circuit. */
int eny_release_circuit(const char* circuit);
/* The loaded proving key of a circuit re-encoded as a raw key file (fast to load: no point
 * decompression), e.g. for a browser cache. */
int eny_export_proving_key_raw(const char* circuit, eny_buffer* out);
int eny_export_verifying_key(const char* circuit, eny_buffer* out);
/* INSECURE development keys for a circuit, derived from a public seed text exactly as
 * `enygma setup --insecure-seed TEXT` does (the same bytes): raw key files into pk_out and
 * vk_out. For tests and offline demos only; anyone who knows the text can forge proofs. */
int eny_insecure_dev_setup(const char* circuit, const char* seed_text, size_t len,
                           eny_buffer* pk_out, eny_buffer* vk_out);
/* BLAKE2b-256 (unkeyed), the digest of the key manifest and of --test-seed texts. */
void eny_blake2b256(const uint8_t* data, size_t len, uint8_t out[32]);

/* A valid request JSON of a circuit built by its wallet code from a seed of seed_len = 32 bytes
 * (deterministic; another length: ENY_REJECTED, rule "input", field "seed"), or from a fresh
 * random seed when seed is NULL. count: the family's main count, 0 for its default (transfer:
 * recipients sharing the amount, 1..k-1, default 1; withdraw: notes, 1..10, default 1;
 * join-split: real inputs, 1..10, default 2; deposit and ownership: 0 or 1); out of range:
 * ENY_REJECTED (rule "wallet"). */
int eny_make_request(const char* circuit, const uint8_t* seed, size_t seed_len, unsigned count,
                     eny_buffer* out);
/* Parse + the rules of the circuit's relation: ENY_OK with {"valid":true}, or ENY_INVALID with
 * the first rule broken as {"error","rule","field"} (a request that does not parse: rule
 * "input"). An unknown circuit is ENY_REJECTED, as everywhere. */
int eny_validate(const char* circuit, const char* request_json, size_t len, eny_buffer* out);

/* The Groth16 proof of a request: out = the reference response JSON. test_seed (may be NULL):
 * INSECURE deterministic blinding for cross-target tests (BLAKE2b-256 of the CLI's
 * --test-seed text gives the CLI's bytes); 1 to 64 bytes (none, or 65 or more: ENY_REJECTED). The
 * cancel flag is NOT cleared here: the caller clears it before (so that a cancel written after that
 * point is never lost). */
int eny_prove(const char* circuit, const char* request_json, size_t len, const uint8_t* test_seed,
              size_t test_seed_len, eny_stage_fn on_stage, void* user, eny_buffer* out);
/* ENY_OK valid; ENY_INVALID not valid (out: why); ENY_REJECTED malformed (out: which field; a
 * text that is no JSON object, or over 1 MiB: rule "input", field "response", as the page's
 * argument). Runs on the module's pool (two halves at once with two threads or more). */
int eny_verify(const char* circuit, const char* response_json, size_t len, eny_buffer* out);
/* A response JSON for the circuit's loaded verifying key that parses and does not verify
 * (generator points, public inputs of full size): eny_verify on it runs every step of a real
 * verification and ends with ENY_INVALID. For warming the engine's code of the verifier. */
int eny_verifier_warmup_response(const char* circuit, eny_buffer* out);
/* One proof of a fresh random request of the circuit (its wallet's make_request), made as
 * eny_prove makes one and dropped: for warming the engine's code of the prover (and the
 * memory a proof uses) before the page's first proof. It stops at its next stage boundary with
 * ENY_CANCELLED once eny_warmup_yield_flag is 1 (not cleared here: the caller clears it
 * before); out: {"proved":true} or the error. */
int eny_prover_warmup(const char* circuit, eny_buffer* out);
/* A reference response JSON in another format (ENY_PROOF_*; another value: ENY_REJECTED, rule
 * "input", field "format"; a response refused as eny_verify refuses it). Needs no keys. */
int eny_export_proof(const char* response_json, size_t len, int format, eny_buffer* out);

/* Address of the cancel flag (one byte, a C++ std::atomic<bool>, 4-byte aligned): writing 1
 * there stops the running eny_prove at its next stage boundary with ENY_CANCELLED, and every
 * later one until it is written 0 again. */
uint8_t* eny_cancel_flag(void);
/* The same kind of flag for eny_prover_warmup only (eny_prove never reads it). */
uint8_t* eny_warmup_yield_flag(void);

/* {"memory_bytes","heap_in_use_bytes","heap_free_bytes","threads"}: the module's linear memory
 * (which only grows) and what malloc holds now, for the page's memory report and the tests
 * that check that a proof leaves nothing behind. */
int eny_memory_stats(eny_buffer* out);

/* Wipes and frees a buffer filled by this module; safe on an empty one. */
void eny_buffer_free(eny_buffer* buf);

#ifdef __cplusplus
}
#endif

#endif /* ENYGMA_WASM_ENYGMA_ABI_H_ */
