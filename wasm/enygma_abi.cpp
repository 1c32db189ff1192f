// The C ABI of the WebAssembly module (enygma_abi.h) over the portable core: the same circuit
// registry, CircuitProver, wallet and validation code as the native CLI and server.
#include "wasm/enygma_abi.h"

#include <emscripten/emscripten.h>
#include <emscripten/stack.h>
#include <malloc.h>
#include <sodium.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/field/cpu_features.hpp"
#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/setup.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/registry/circuit_prover.hpp"
#include "core/registry/registry.hpp"
#include "core/util/error_json.hpp"
#include "core/util/error_kind.hpp"

namespace {

using namespace enygma;

// Module state: touched only by the thread that calls the ABI (see enygma_abi.h).
std::unique_ptr<ThreadPool> g_pool;
std::map<std::string, std::shared_ptr<const CircuitProver>> g_provers;  // by circuit id
// The page writes 1 here through the shared memory; the prover polls it between stages.
alignas(4) std::atomic<bool> g_cancel{false};
// The same for the prover's warm-up proofs only (eny_prover_warmup): the page writes 1 with
// every operation it sends, so that a warm-up yields to it; the worker clears it before each.
alignas(4) std::atomic<bool> g_warmup_yield{false};

constexpr char kVersion[] = "enygma-wasm 0.2";
// A response text (eny_verify, eny_export_proof) refused as a whole is named as the page's
// argument to verify and exportProof.
constexpr JsonDocument kResponseArgument{"response", "response"};

// This build catches no C++ exceptions: a failed allocation must end the call (an abort, which
// the worker reports, and after which it runs nothing more on this instance). The plain
// operator new aborts by itself, but the aligned one (cache-aligned buffers: the MSM's buckets)
// returns null when no handler is installed, and its caller writes through it, over the start
// of linear memory. Installed before any call, for every thread (the handler is global).
[[noreturn]] void out_of_memory() {
  std::abort();
}
const bool g_new_aborts = (std::set_new_handler(out_of_memory), true);

int fill(eny_buffer* out, std::string_view text) {
  if (!out) return 0;
  out->data = nullptr;
  out->len = 0;
  if (text.empty()) return 0;
  auto* data = static_cast<uint8_t*>(std::malloc(text.size()));
  if (!data) return -1;
  std::memcpy(data, text.data(), text.size());
  out->data = data;
  out->len = text.size();
  return 0;
}

// What a call answers: status with text in out, or, where malloc cannot give the answer's bytes
// (the module's memory at its maximum), ENY_ERROR with this error in their place (allocated
// without any other allocation; where even that fails, ENY_ERROR with an empty buffer, which
// the glue reports as the same error).
constexpr char kNoMemoryForAnswer[] =
    R"({"error":"the module ran out of memory for its answer","rule":"internal"})";

int answer(eny_buffer* out, std::string_view text, int status = ENY_OK) {
  if (fill(out, text) == 0) return status;
  fill(out, kNoMemoryForAnswer);
  return ENY_ERROR;
}

int answer_bytes(eny_buffer* out, const std::vector<uint8_t>& bytes) {
  return answer(out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

int fail(eny_buffer* out, int code, const Error& e) {
  return answer(out, error_json(e), code);
}

// The one classification of core/util/error_kind.hpp, as the module's status codes.
int status_of(const Error& e) {
  switch (classify_error(e)) {
    case ErrorKind::kCancelled:
      return ENY_CANCELLED;
    case ErrorKind::kRequest:
      return ENY_REJECTED;
    case ErrorKind::kInvalid:
      return ENY_INVALID;
    default:
      return ENY_ERROR;
  }
}

Error not_initialized() {
  return make_error("eny_init has not been called", "state");
}

std::string_view text_of(const char* data, size_t len) {
  return data ? std::string_view(data, len) : std::string_view();
}

// A circuit id ("transfer-k6", "ownership-721") from a NUL-terminated string.
Result<CircuitId> circuit_of(const char* id) {
  if (!id) return make_error("no circuit given", "input", "circuit");
  return parse_circuit_id(id);
}

// Held for the whole call: a stage callback that unloads or replaces the circuit's keys (the
// glue refuses such calls; a C caller might not) cannot free them under a running proof.
std::shared_ptr<const CircuitProver> prover_for(const CircuitId& id) {
  auto it = g_provers.find(id.str());
  return it == g_provers.end() ? nullptr : it->second;
}

Error no_keys(const CircuitId& id) {
  return make_error("no keys loaded for " + id.str(), "key", "circuit");
}

// No proving key: none loaded, or only a verifying key (a verify-only instance).
Error no_proving_key(const CircuitId& id, const CircuitProver* prover) {
  if (!prover) return no_keys(id);
  return make_error("only a verifying key is loaded for " + id.str() +
                        " (verify-only): load its proving key to prove",
                    "key", "circuit");
}

// A valid request made by the circuit's wallet from seed32, or from a fresh random seed when
// seed32 is null (the seed's copy wiped).
Result<std::string> wallet_request(const CircuitId& id, const uint8_t* seed32, unsigned count) {
  std::array<uint8_t, 32> seed;
  if (seed32) {
    std::memcpy(seed.data(), seed32, seed.size());
  } else {
    randombytes_buf(seed.data(), seed.size());
  }
  auto request = id.family->make_request(id.k, seed, count);
  sodium_memzero(seed.data(), seed.size());
  return request;
}

// eny_prove and eny_prover_warmup: the proof of a request, on the module's pool (initialized by
// the caller's check); out = its response JSON, or the error with its status.
int prove_into(const CircuitId& id, std::string_view request, const ProveOptions& options,
               eny_buffer* out) {
  const std::shared_ptr<const CircuitProver> prover = prover_for(id);
  if (!prover || !prover->can_prove())
    return fail(out, ENY_ERROR, no_proving_key(id, prover.get()));
  auto proof = prover->prove_request(request, *g_pool, options);
  if (!proof) return fail(out, status_of(proof.error()), proof.error());
  return answer(out, proof->response_json);
}

// The dead part of this thread's stack (below the caller's frame, down to the stack's end)
// zeroed. The stacks are in the linear memory, which lives as long as the worker: the frames of
// a parse, a validation, a witness or a wallet left their locals there (field elements, U256
// values, number text), unwiped, until a deeper call happens to overwrite them. No frame of its
// own (the loop keeps its pointer in a local), so nothing live lies below the stack pointer.
__attribute__((noinline)) void zero_dead_stack() {
  const uintptr_t end = (emscripten_stack_get_end() + 7) & ~uintptr_t(7);
  const uintptr_t here = emscripten_stack_get_current() & ~uintptr_t(7);
  for (volatile uint64_t* p = reinterpret_cast<volatile uint64_t*>(end);
       reinterpret_cast<uintptr_t>(p) < here; ++p) {
    *p = 0;
  }
}

// Zeroes the dead stack of every thread of the pool, the caller's included.
void zero_dead_stacks(ThreadPool& pool) {
  pool.run_on_every_thread(zero_dead_stack);
  zero_dead_stack();  // the caller's, below run_on_every_thread's frames too
}

// On leaving an ABI function that saw a secret (a request, a wallet's seed, a setup's toxic
// waste): the dead stacks of its threads zeroed (heap buffers are wiped by their owners).
struct ZeroDeadStacks {
  ~ZeroDeadStacks() {
    if (g_pool) {
      zero_dead_stacks(*g_pool);
    } else {
      zero_dead_stack();
    }
  }
};

// Drops the registry's R1CS of a circuit when the call that built it returns
// (release_circuit_r1cs: core/registry/registry.hpp).
struct ReleaseR1cs {
  CircuitId id;
  ~ReleaseR1cs() { release_circuit_r1cs(id); }
};

// The threads a pool may start: the Web Workers the module made before it started
// (Module.enygmaWorkers, PTHREAD_POOL_SIZE_STRICT=2 in wasm/CMakeLists.txt), none in the module
// linked without threads (the same objects: there is no PThread). One more would fail in
// pthread_create, an exception this build cannot catch: the module would abort.
unsigned startable_threads() {
  return unsigned(
      EM_ASM_INT({ return typeof PThread != "undefined" ? PThread.unusedWorkers.length : 0; }));
}

}  // namespace

extern "C" {

int eny_init(unsigned threads) {
  if (sodium_init() < 0) return ENY_ERROR;
  const unsigned want = threads == 0 ? ThreadPool::hardware_threads() : threads;
  if (g_pool) return g_pool->size() == want ? ENY_OK : ENY_ERROR;
  if (want - 1 > startable_threads()) return ENY_ERROR;
  g_pool = std::make_unique<ThreadPool>(want);
  return ENY_OK;
}

unsigned eny_pool_size(void) {
  return g_pool ? g_pool->size() : 0;
}

const char* eny_version(void) {
  return kVersion;
}

const char* eny_lane_kernel(void) {
  return batch_lanes_enabled() ? "f64x2 relaxed SIMD" : "none";
}

int eny_circuits(eny_buffer* out) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CircuitFamily* f : circuit_families()) {
    nlohmann::ordered_json j;
    j["name"] = f->name;
    j["summary"] = f->summary;
    if (f->has_k()) {
      j["min_k"] = f->min_k;
      j["max_k"] = f->max_k;
      j["default_min_k"] = f->default_min_k;
      j["default_max_k"] = f->default_max_k;
    }
    j["prove_route"] = f->prove_route;
    j["verify_route"] = f->verify_route;
    list.push_back(j);
  }
  return answer(out, list.dump());
}

int eny_circuit_id(const char* circuit, eny_buffer* out) {
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  nlohmann::ordered_json j;
  j["circuit"] = id->str();
  if (id->family->has_k()) j["k"] = id->k;
  return answer(out, j.dump());
}

int eny_circuit_info(const char* circuit, eny_buffer* out) {
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  const CircuitInfo info = circuit_info(*id);
  nlohmann::ordered_json j;
  j["circuit"] = id->str();
  j["family"] = id->family->name;
  if (id->family->has_k()) j["k"] = id->k;
  j["key_name"] = id->key_name();
  j["constraints"] = info.constraints;
  j["wires"] = info.wires;
  j["public_inputs"] = info.public_inputs;
  j["domain"] = info.domain_size;
  j["log_domain"] = info.fft_log_domain;
  return answer(out, j.dump());
}

int eny_load_keys(const char* circuit, const uint8_t* pk, size_t pk_len, const uint8_t* vk,
                  size_t vk_len, unsigned flags, eny_buffer* out) {
  // Adopted bytes are freed when the last array reading them goes (or on return, unused).
  std::shared_ptr<const void> pk_owner;
  if ((flags & ENY_ADOPT_PROVING_KEY) && pk) {
    pk_owner = std::shared_ptr<const void>(pk, [](const void* p) { free(const_cast<void*>(p)); });
  }
  if (!g_pool) return fail(out, ENY_ERROR, not_initialized());
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  // The module keeps no circuit's R1CS beyond a load (5-45 MB each, built for the digest check;
  // eny_circuit_info's stays until then): a prover that proves without a constraint shape holds
  // its own.
  const ReleaseR1cs release_r1cs{*id};
  // No pointer: no proving key (a verify-only instance); a pointer with no bytes: a truncated key.
  std::optional<std::span<const uint8_t>> pk_span;
  if (pk) pk_span = std::span<const uint8_t>(pk, pk_len);
  std::span<const uint8_t> vk_span =
      vk ? std::span<const uint8_t>(vk, vk_len) : std::span<const uint8_t>();
  if (flags &
      ~unsigned(ENY_KEYS_CHECKED_BY_THIS_MODULE | ENY_DEFER_VERIFIER | ENY_ADOPT_PROVING_KEY)) {
    return fail(out, ENY_REJECTED, make_error("unknown flags", "input", "flags"));
  }
  CircuitLoadOptions options;
  options.check_circuit_digest = !(flags & ENY_KEYS_CHECKED_BY_THIS_MODULE);
  options.check_verifying_key_points = !(flags & ENY_KEYS_CHECKED_BY_THIS_MODULE);
  options.proving_key_owner = std::move(pk_owner);
  options.prepare_verifier = !(flags & ENY_DEFER_VERIFIER);
  // The steps' times, each until the next step starts or load() returns.
  nlohmann::ordered_json steps = nlohmann::ordered_json::object();
  const char* step = nullptr;
  double step_start = 0;
  auto end_step = [&] {
    if (step) steps[step] = emscripten_get_now() - step_start;
  };
  options.on_step = [&](const char* name) {
    end_step();
    step = name;
    step_start = emscripten_get_now();
  };
  auto prover = CircuitProver::load(*id, pk_span, vk_span, *g_pool, options);
  end_step();
  if (!prover) return fail(out, ENY_ERROR, prover.error());
  g_provers[id->str()] = *prover;
  nlohmann::ordered_json j;
  j["circuit"] = id->str();
  j["insecure_dev_keys"] = (*prover)->can_prove() ? (*prover)->insecure_dev_keys() : false;
  j["can_prove"] = (*prover)->can_prove();
  j["steps_ms"] = steps;
  return answer(out, j.dump());
}

int eny_unload_keys(const char* circuit) {
  auto id = circuit_of(circuit);
  if (!id) return ENY_REJECTED;
  g_provers.erase(id->str());
  release_circuit_r1cs(*id);  // one eny_circuit_info built, with no load since
  return ENY_OK;
}

int eny_release_circuit(const char* circuit) {
  auto id = circuit_of(circuit);
  if (!id) return ENY_REJECTED;
  release_circuit_r1cs(*id);
  return ENY_OK;
}

int eny_export_proving_key_raw(const char* circuit, eny_buffer* out) {
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  const std::shared_ptr<const CircuitProver> prover = prover_for(*id);
  if (!prover || !prover->can_prove())
    return fail(out, ENY_ERROR, no_proving_key(*id, prover.get()));
  return answer_bytes(out, prover->raw_proving_key_file());
}

int eny_export_verifying_key(const char* circuit, eny_buffer* out) {
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  const std::shared_ptr<const CircuitProver> prover = prover_for(*id);
  if (!prover) return fail(out, ENY_ERROR, no_keys(*id));
  return answer_bytes(
      out, serialize_verifying_key(prover->verifying_key(), id->key_name(), PointFormat::kRaw));
}

int eny_insecure_dev_setup(const char* circuit, const char* seed_text, size_t len,
                           eny_buffer* pk_out, eny_buffer* vk_out) {
  const ZeroDeadStacks zero_dead_stacks_on_return;
  if (!g_pool) return fail(pk_out, ENY_ERROR, not_initialized());
  auto id = circuit_of(circuit);
  if (!id) return fail(pk_out, ENY_REJECTED, id.error());
  // The derivation of `enygma setup --insecure-seed TEXT` (native/cli/setup.cpp).
  const std::string seed = insecure_setup_seed_text(std::string(text_of(seed_text, len)), *id);
  const ReleaseR1cs release_r1cs{*id};
  Groth16Keys keys = groth16_setup_insecure_from_seed(
      circuit_r1cs(*id), {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()}, *g_pool);
  const std::string name = id->key_name();
  const int pk_status =
      answer_bytes(pk_out, serialize_proving_key(keys.pk, name, PointFormat::kRaw));
  if (pk_status != ENY_OK) return pk_status;  // its error in pk_out, as every error
  if (answer_bytes(vk_out, serialize_verifying_key(keys.vk, name, PointFormat::kRaw)) != ENY_OK) {
    eny_buffer_free(vk_out);
    eny_buffer_free(pk_out);
    return answer(pk_out, kNoMemoryForAnswer, ENY_ERROR);
  }
  return ENY_OK;
}

void eny_blake2b256(const uint8_t* data, size_t len, uint8_t out[32]) {
  crypto_generichash(out, 32, data, len, nullptr, 0);
  zero_dead_stack();  // the hash's state, whose output may be a wallet's seed
}

int eny_make_request(const char* circuit, const uint8_t* seed, size_t seed_len, unsigned count,
                     eny_buffer* out) {
  const ZeroDeadStacks zero_dead_stacks_on_return;
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  if (seed && seed_len != 32) {
    return fail(
        out, ENY_REJECTED,
        make_error("seed is " + std::to_string(seed_len) + " bytes, not 32", "input", "seed"));
  }
  auto request = wallet_request(*id, seed, count);
  if (!request) {
    // A count out of range is the caller's request error; anything else is ours.
    return fail(out, request.error().rule == "wallet" ? ENY_REJECTED : ENY_ERROR, request.error());
  }
  const int status = answer(out, *request);
  sodium_memzero(request->data(), request->size());
  return status;
}

int eny_validate(const char* circuit, const char* request_json, size_t len, eny_buffer* out) {
  const ZeroDeadStacks zero_dead_stacks_on_return;
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  const std::vector<Error> errors = id->family->validate_all(text_of(request_json, len), id->k);
  if (!errors.empty()) return fail(out, ENY_INVALID, errors.front());
  return answer(out, R"({"valid":true})");
}

int eny_prove(const char* circuit, const char* request_json, size_t len, const uint8_t* test_seed,
              size_t test_seed_len, eny_stage_fn on_stage, void* user, eny_buffer* out) {
  const ZeroDeadStacks zero_dead_stacks_on_return;
  if (!g_pool) return fail(out, ENY_ERROR, not_initialized());
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  ProveOptions options;
  if (test_seed) {
    // an empty seed is refused, not taken as no seed (random blinding where the caller asked for
    // the reproducible one), as the CLI refuses --test-seed ""
    if (test_seed_len == 0) {
      return fail(out, ENY_REJECTED, make_error("the test seed is empty", "input", "test_seed"));
    }
    options.insecure_test_seed = {test_seed, test_seed_len};
  }
  if (on_stage) {
    options.on_stage = [on_stage, user](ProveStage stage) { on_stage(user, int(stage)); };
  }
  options.cancel = &g_cancel;
  return prove_into(*id, text_of(request_json, len), options, out);
}

int eny_verify(const char* circuit, const char* response_json, size_t len, eny_buffer* out) {
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  const std::shared_ptr<const CircuitProver> prover = prover_for(*id);
  if (!prover) return fail(out, ENY_ERROR, no_keys(*id));
  // On the module's pool: with two threads or more the proof's pairings and the public-input
  // sum with its pairing run at once (core/groth16/verifier.hpp).
  Status valid = prover->verify_response(text_of(response_json, len), kResponseArgument,
                                         g_pool ? *g_pool : sequential_pool());
  if (valid) {
    return answer(out, R"({"valid":true})");
  }
  return fail(out, status_of(valid.error()), valid.error());
}

int eny_verifier_warmup_response(const char* circuit, eny_buffer* out) {
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  const std::shared_ptr<const CircuitProver> prover = prover_for(*id);
  if (!prover) return fail(out, ENY_ERROR, no_keys(*id));
  // Points of order r on their curves (every check before the pairing passes), public inputs
  // near r (the public-input sum's every window does work): only the pairing check fails.
  const Proof proof{G1Params::generator(), G2Params::generator(), G1Params::generator()};
  std::vector<Fr> inputs(prover->verifying_key().num_public);
  for (size_t j = 0; j < inputs.size(); ++j) inputs[j] = -Fr::from_u64(j + 1);
  return answer(out, proof_to_reference_json(proof, inputs));
}

int eny_prover_warmup(const char* circuit, eny_buffer* out) {
  const ZeroDeadStacks zero_dead_stacks_on_return;
  if (!g_pool) return fail(out, ENY_ERROR, not_initialized());
  auto id = circuit_of(circuit);
  if (!id) return fail(out, ENY_REJECTED, id.error());
  // A fresh wallet's request (its own random seed: nothing of the page's), proved as any other
  // and dropped; the request (its secret key) wiped as eny_make_request's is.
  auto request = wallet_request(*id, nullptr, 0);
  if (!request) return fail(out, ENY_ERROR, request.error());
  ProveOptions options;
  options.cancel = &g_warmup_yield;
  const int status = prove_into(*id, *request, options, out);
  sodium_memzero(request->data(), request->size());
  if (status != ENY_OK) return status;
  eny_buffer_free(out);
  return answer(out, R"({"proved":true})");
}

int eny_export_proof(const char* response_json, size_t len, int format, eny_buffer* out) {
  if (format < ENY_PROOF_REFERENCE || format > ENY_PROOF_BINARY_HEX) {
    return fail(out, ENY_REJECTED,
                make_error("unknown proof format " + std::to_string(format), "input", "format"));
  }
  auto parsed = proof_from_reference_json(text_of(response_json, len), kResponseArgument);
  if (!parsed) return fail(out, ENY_REJECTED, parsed.error());
  switch (format) {
    case ENY_PROOF_REFERENCE:
      return answer(out, proof_to_reference_json(parsed->proof, parsed->public_inputs));
    case ENY_PROOF_SNARKJS:
      return answer(out, proof_to_snarkjs_json(parsed->proof));
    case ENY_PUBLIC_SNARKJS:
      return answer(out, public_to_snarkjs_json(parsed->public_inputs));
    case ENY_PROOF_BINARY_HEX: {
      // A compressed point is its x and a sign bit: one off its curve would be written as
      // another point (the curve's point with that x) or as bytes that decode to none.
      if (Status on_curve = validate_proof_points_on_curve(parsed->proof); !on_curve) {
        return fail(out, ENY_REJECTED, on_curve.error());
      }
      static const char kHex[] = "0123456789abcdef";
      const auto bytes = proof_to_bytes(parsed->proof);
      std::string hex;
      for (uint8_t b : bytes) {
        hex += kHex[b >> 4];
        hex += kHex[b & 15];
      }
      return answer(out, hex);
    }
  }
  return ENY_ERROR;  // not reached: the format was checked above
}

int eny_memory_stats(eny_buffer* out) {
  const struct mallinfo info = mallinfo();
  nlohmann::ordered_json j;
  // The module's linear memory (it grows, never shrinks) and what malloc holds of it now.
  j["memory_bytes"] = size_t(__builtin_wasm_memory_size(0)) * 65536;
  j["heap_in_use_bytes"] = size_t(info.uordblks);
  j["heap_free_bytes"] = size_t(info.fordblks);
  j["threads"] = g_pool ? g_pool->size() : 0;
  return answer(out, j.dump());
}

uint8_t* eny_cancel_flag(void) {
  return reinterpret_cast<uint8_t*>(&g_cancel);
}

uint8_t* eny_warmup_yield_flag(void) {
  return reinterpret_cast<uint8_t*>(&g_warmup_yield);
}

void eny_buffer_free(eny_buffer* buf) {
  if (!buf || !buf->data) return;
  sodium_memzero(buf->data, buf->len);
  std::free(buf->data);
  buf->data = nullptr;
  buf->len = 0;
}

}  // extern "C"

static_assert(sizeof(std::atomic<bool>) == 1, "the page writes the cancel flag as one byte");
