// What the server needs from a prover, behind a small interface: the real one is a
// CircuitProver per circuit served (circuit_backend.cpp); a fake whose proofs sleep
// (fake_backend.cpp) lets the HTTP layer (admission, timeouts, shutdown) be tested and
// load-tested without keys.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/parallel/thread_pool.hpp"
#include "core/registry/registry.hpp"
#include "core/util/result.hpp"

namespace enygma::server {

// A file the browser downloads (a compressed key), with its BLAKE2b-256 digest.
struct KeyAsset {
  std::string file_name;  // "transfer-k2.pk", "ownership-721.vk"
  std::vector<uint8_t> bytes;
  std::string blake2b_hex;  // 64 hex digits
};

struct CircuitKeys {
  CircuitId circuit;
  std::string circuit_name;  // the name in the key files: "enygma-transfer-k2"
  bool insecure_dev_keys = false;
  double load_seconds = 0;  // reading + decoding both key files at start-up
  KeyAsset proving_key;     // compressed format (core/groth16/key_format.hpp)
  KeyAsset verifying_key;
};

class ProofBackend {
 public:
  virtual ~ProofBackend() = default;

  // Every served circuit with its keys, loaded (the server opens its port only after this
  // exists).
  virtual const std::vector<CircuitKeys>& circuits() const = 0;

  // Request JSON -> the reference response JSON. Errors: classified by classify_error
  // (core/util/error_kind.hpp): the request's fault ("input", a rule id), "cancelled" (cancel
  // became true), anything else a server fault. Runs on a prover thread with that thread's
  // pool; never on a network thread.
  virtual Result<std::string> prove(const CircuitId& circuit, std::string_view request_json,
                                    ThreadPool& pool, const std::atomic<bool>* cancel) const = 0;

  // Response JSON -> ok (valid), Error rule "invalid" (well formed, not valid) or another rule
  // (malformed: the request's fault).
  virtual Status verify(const CircuitId& circuit, std::string_view response_json) const = 0;

  // The served circuits' ids, in circuits()' order.
  std::vector<CircuitId> served() const {
    std::vector<CircuitId> ids;
    for (const auto& c : circuits()) ids.push_back(c.circuit);
    return ids;
  }

  bool serves(const CircuitId& circuit) const {
    for (const auto& c : circuits()) {
      if (c.circuit == circuit) return true;
    }
    return false;
  }
};

// BLAKE2b-256 of bytes as 64 lowercase hex digits (libsodium crypto_generichash).
std::string blake2b_hex(const uint8_t* data, size_t size);

// The real backend: for each circuit reads <keys_dir>/<circuit>.pk and .vk, loads a
// CircuitProver and prepares the compressed keys for the browser. Errors name the file and the
// reason (missing, unreadable, corrupt, another circuit's key). on_loaded is told each circuit
// as it is ready (for the start-up log).
Result<std::unique_ptr<ProofBackend>> load_circuit_backend(
    const std::string& keys_dir, const std::vector<CircuitId>& circuits, ThreadPool& pool,
    void (*on_loaded)(const CircuitKeys&) = nullptr);

// The fake backend: every prove sleeps `prove_ms` (checking cancel every few ms), then answers
// a fixed response shaped like the reference one; a body that is not a JSON object is an
// "input" error; verify says valid for exactly that fixed response. Keys are small dummies.
std::unique_ptr<ProofBackend> make_fake_backend(const std::vector<CircuitId>& circuits,
                                                unsigned prove_ms);

}  // namespace enygma::server
