// The C ABI of the WebAssembly module (enygma_abi.h) over the portable core: the same
// TransferProver, wallet and validation code as the native CLI and server.
#include "wasm/enygma_abi.h"

#include <sodium.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/setup.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/util/error_json.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/transfer_prover.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"

namespace {

using namespace enygma;

// Module state: touched only by the thread that calls the ABI (see enygma_abi.h).
std::unique_ptr<ThreadPool> g_pool;
std::map<unsigned, std::shared_ptr<const TransferProver>> g_provers;
// The page writes 1 here through the shared memory; the prover polls it between stages.
alignas(4) std::atomic<bool> g_cancel{false};

constexpr char kVersion[] = "enygma-wasm 0.1";

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

int fill_bytes(eny_buffer* out, const std::vector<uint8_t>& bytes) {
  return fill(out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

int fail(eny_buffer* out, int code, const Error& e) {
  fill(out, error_json(e));
  return code;
}

// A request's own fault (a rule or the input format) versus anything else.
bool is_request_error(const Error& e) {
  return e.rule == "input" || (e.rule.size() >= 2 && e.rule[0] == 'R' &&
                               e.rule.find_first_not_of("0123456789", 1) == std::string::npos);
}

int status_of(const Error& e) {
  if (e.rule == "cancelled") return ENY_CANCELLED;
  return is_request_error(e) ? ENY_REJECTED : ENY_ERROR;
}

bool k_supported(unsigned k) { return k >= kMinK && k <= kMaxK; }

Error bad_k(unsigned k) {
  return make_error("unsupported anonymity-set size k=" + std::to_string(k) + " (supported: " +
                        std::to_string(kMinK) + ".." + std::to_string(kMaxK) + ")",
                    "input", "k");
}

Error not_initialized() { return make_error("eny_init has not been called", "state"); }

const TransferProver* prover_for(unsigned k) {
  auto it = g_provers.find(k);
  return it == g_provers.end() ? nullptr : it->second.get();
}

Error no_keys(unsigned k) {
  return make_error("no keys loaded for k=" + std::to_string(k), "key", "k");
}

std::string_view text_of(const char* data, size_t len) {
  return data ? std::string_view(data, len) : std::string_view();
}

}  // namespace

extern "C" {

int eny_init(unsigned threads) {
  if (sodium_init() < 0) return ENY_ERROR;
  const unsigned want = threads == 0 ? ThreadPool::hardware_threads() : threads;
  if (g_pool) return g_pool->size() == want ? ENY_OK : ENY_ERROR;
  g_pool = std::make_unique<ThreadPool>(want);
  return ENY_OK;
}

unsigned eny_pool_size(void) { return g_pool ? g_pool->size() : 0; }

const char* eny_version(void) { return kVersion; }

int eny_circuit_info(unsigned k, eny_buffer* out) {
  if (!k_supported(k)) return fail(out, ENY_REJECTED, bad_k(k));
  const TransferCircuitInfo info = transfer_circuit_info(k);
  nlohmann::ordered_json j;
  j["k"] = k;
  j["circuit"] = transfer_circuit_name(k);
  j["constraints"] = info.constraints;
  j["wires"] = info.wires;
  j["public_inputs"] = info.public_inputs;
  j["log_domain"] = info.fft_log_domain;
  fill(out, j.dump());
  return ENY_OK;
}

int eny_load_keys(unsigned k, const uint8_t* pk, size_t pk_len, const uint8_t* vk,
                  size_t vk_len, eny_buffer* out) {
  if (!g_pool) return fail(out, ENY_ERROR, not_initialized());
  if (!k_supported(k)) return fail(out, ENY_REJECTED, bad_k(k));
  std::span<const uint8_t> pk_span = pk ? std::span<const uint8_t>(pk, pk_len)
                                        : std::span<const uint8_t>();
  std::span<const uint8_t> vk_span = vk ? std::span<const uint8_t>(vk, vk_len)
                                        : std::span<const uint8_t>();
  auto prover = TransferProver::load(k, pk_span, vk_span, *g_pool);
  if (!prover) return fail(out, ENY_ERROR, prover.error());
  g_provers[k] = *prover;
  nlohmann::ordered_json j;
  j["k"] = k;
  j["insecure_dev_keys"] = (*prover)->can_prove() ? (*prover)->insecure_dev_keys() : false;
  j["can_prove"] = (*prover)->can_prove();
  fill(out, j.dump());
  return ENY_OK;
}

int eny_export_proving_key_raw(unsigned k, eny_buffer* out) {
  const TransferProver* prover = prover_for(k);
  if (!prover || !prover->can_prove()) return fail(out, ENY_ERROR, no_keys(k));
  fill_bytes(out, serialize_proving_key(prover->proving_key(), transfer_circuit_name(k),
                                        PointFormat::kRaw));
  return ENY_OK;
}

int eny_export_verifying_key(unsigned k, eny_buffer* out) {
  const TransferProver* prover = prover_for(k);
  if (!prover) return fail(out, ENY_ERROR, no_keys(k));
  fill_bytes(out, serialize_verifying_key(prover->verifying_key(), transfer_circuit_name(k),
                                          PointFormat::kRaw));
  return ENY_OK;
}

int eny_insecure_dev_setup(unsigned k, const char* seed_text, size_t len, eny_buffer* pk_out,
                           eny_buffer* vk_out) {
  if (!g_pool) return fail(pk_out, ENY_ERROR, not_initialized());
  if (!k_supported(k)) return fail(pk_out, ENY_REJECTED, bad_k(k));
  // The derivation of `enygma setup --insecure-seed TEXT` (native/cli_setup.cpp).
  const std::string seed = std::string(text_of(seed_text, len)) + "/k=" + std::to_string(k);
  Groth16Keys keys = groth16_setup_insecure_from_seed(
      transfer_r1cs(k), {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()}, *g_pool);
  const std::string name = transfer_circuit_name(k);
  fill_bytes(pk_out, serialize_proving_key(keys.pk, name, PointFormat::kRaw));
  fill_bytes(vk_out, serialize_verifying_key(keys.vk, name, PointFormat::kRaw));
  return ENY_OK;
}

void eny_blake2b256(const uint8_t* data, size_t len, uint8_t out[32]) {
  crypto_generichash(out, 32, data, len, nullptr, 0);
}

int eny_make_transfer(unsigned k, const uint8_t* seed32, unsigned payees, eny_buffer* out) {
  if (!k_supported(k)) return fail(out, ENY_REJECTED, bad_k(k));
  if (payees < 1 || payees > k - 1) {
    return fail(out, ENY_REJECTED,
                make_error("payees = " + std::to_string(payees) + " is not in 1..k-1", "input",
                           "payees"));
  }
  std::array<uint8_t, 32> seed;
  if (seed32) {
    std::memcpy(seed.data(), seed32, seed.size());
  } else {
    randombytes_buf(seed.data(), seed.size());
  }
  WalletInputs inputs = wallet_inputs_from_seed(k, seed, payees);
  sodium_memzero(seed.data(), seed.size());
  auto request = make_transfer_checked(inputs);
  if (!request) return fail(out, ENY_ERROR, request.error());
  std::string text = transfer_request_to_json(*request);
  fill(out, text);
  sodium_memzero(text.data(), text.size());
  return ENY_OK;
}

int eny_validate(unsigned k, const char* request_json, size_t len, eny_buffer* out) {
  if (!k_supported(k)) return fail(out, ENY_REJECTED, bad_k(k));
  auto request = parse_transfer_request(text_of(request_json, len), k);
  if (!request) return fail(out, ENY_REJECTED, request.error());
  if (Status valid = validate_transfer(*request); !valid) {
    return fail(out, ENY_REJECTED, valid.error());
  }
  fill(out, R"({"valid":true})");
  return ENY_OK;
}

int eny_prove(unsigned k, const char* request_json, size_t len, const uint8_t* test_seed,
              size_t test_seed_len, eny_stage_fn on_stage, void* user, eny_buffer* out) {
  if (!g_pool) return fail(out, ENY_ERROR, not_initialized());
  if (!k_supported(k)) return fail(out, ENY_REJECTED, bad_k(k));
  const TransferProver* prover = prover_for(k);
  if (!prover || !prover->can_prove()) return fail(out, ENY_ERROR, no_keys(k));
  ProveOptions options;
  if (test_seed && test_seed_len) options.insecure_test_seed = {test_seed, test_seed_len};
  if (on_stage) {
    options.on_stage = [on_stage, user](ProveStage stage) { on_stage(user, int(stage)); };
  }
  options.cancel = &g_cancel;
  auto proof = prover->prove_request(text_of(request_json, len), *g_pool, options);
  if (!proof) return fail(out, status_of(proof.error()), proof.error());
  fill(out, proof->response_json);
  return ENY_OK;
}

int eny_verify(unsigned k, const char* response_json, size_t len, eny_buffer* out) {
  if (!k_supported(k)) return fail(out, ENY_REJECTED, bad_k(k));
  const TransferProver* prover = prover_for(k);
  if (!prover) return fail(out, ENY_ERROR, no_keys(k));
  Status valid = prover->verify_response(text_of(response_json, len));
  if (valid) {
    fill(out, R"({"valid":true})");
    return ENY_OK;
  }
  return fail(out, valid.error().rule == "invalid" ? ENY_INVALID : ENY_REJECTED, valid.error());
}

int eny_export_proof(const char* response_json, size_t len, int format, eny_buffer* out) {
  auto parsed = proof_from_reference_json(text_of(response_json, len));
  if (!parsed) return fail(out, ENY_REJECTED, parsed.error());
  switch (format) {
    case ENY_PROOF_REFERENCE:
      fill(out, proof_to_reference_json(parsed->proof, parsed->public_inputs));
      return ENY_OK;
    case ENY_PROOF_SNARKJS:
      fill(out, proof_to_snarkjs_json(parsed->proof));
      return ENY_OK;
    case ENY_PUBLIC_SNARKJS:
      fill(out, public_to_snarkjs_json(parsed->public_inputs));
      return ENY_OK;
    case ENY_PROOF_BINARY_HEX: {
      static const char kHex[] = "0123456789abcdef";
      const auto bytes = proof_to_bytes(parsed->proof);
      std::string hex;
      for (uint8_t b : bytes) {
        hex += kHex[b >> 4];
        hex += kHex[b & 15];
      }
      fill(out, hex);
      return ENY_OK;
    }
    default:
      return fail(out, ENY_ERROR,
                  make_error("unknown proof format " + std::to_string(format), "usage", "format"));
  }
}

uint8_t* eny_cancel_flag(void) { return reinterpret_cast<uint8_t*>(&g_cancel); }

void eny_buffer_free(eny_buffer* buf) {
  if (!buf || !buf->data) return;
  sodium_memzero(buf->data, buf->len);
  std::free(buf->data);
  buf->data = nullptr;
  buf->len = 0;
}

}  // extern "C"

static_assert(sizeof(std::atomic<bool>) == 1, "the page writes the cancel flag as one byte");
