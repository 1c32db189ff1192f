// A stand-in prover for testing the HTTP layer: proofs sleep, answers are fixed. Selected only
// by `enygma serve --backend fake`, which says so loudly at start-up.
#include <chrono>
#include <new>
#include <nlohmann/json.hpp>
#include <thread>

#include "native/server/backend.hpp"

namespace enygma::server {

namespace {

std::string fake_response(const CircuitId& circuit) {
  nlohmann::ordered_json j;
  j["pi_a"] = {"1", "2"};
  j["pi_b"] = nlohmann::ordered_json::array(
      {nlohmann::ordered_json::array({"3", "4"}), nlohmann::ordered_json::array({"5", "6"})});
  j["pi_c"] = {"7", "8"};
  std::vector<std::string> signals(circuit.family->has_k() ? 8 * circuit.k + 2 : 6, "0");
  j["public_signal"] = signals;
  return j.dump();
}

KeyAsset fake_asset(const std::string& file_name, size_t size) {
  KeyAsset asset;
  asset.file_name = file_name;
  asset.bytes.resize(size);
  for (size_t i = 0; i < size; ++i) asset.bytes[i] = static_cast<uint8_t>(i * 131 + size);
  asset.blake2b_hex = blake2b_hex(asset.bytes.data(), asset.bytes.size());
  return asset;
}

class FakeBackend final : public ProofBackend {
 public:
  FakeBackend(const std::vector<CircuitId>& circuits, unsigned prove_ms) : prove_ms_(prove_ms) {
    for (const CircuitId& circuit : circuits) {
      CircuitKeys keys;
      keys.circuit = circuit;
      keys.circuit_name = circuit.key_name();
      keys.insecure_dev_keys = true;
      keys.proving_key = fake_asset(circuit.str() + ".pk", 4096 + circuit.k);
      keys.verifying_key = fake_asset(circuit.str() + ".vk", 512 + circuit.k);
      circuits_.push_back(std::move(keys));
    }
  }

  const std::vector<CircuitKeys>& circuits() const override { return circuits_; }

  Result<std::string> prove(const CircuitId& circuit, std::string_view request_json, ThreadPool&,
                            const std::atomic<bool>* cancel) const override {
    auto parsed = nlohmann::json::parse(request_json, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      return make_error("the request is not a JSON object", "input", "");
    }
    // The server's handling of work that throws (an allocation failing mid-proof), which no
    // real request can make happen on demand.
    if (parsed.contains("fake_bad_alloc")) throw std::bad_alloc();
    if (parsed.contains("sender_id") && !parsed["sender_id"].is_string()) {
      return make_error("sender_id is not a decimal string", "input", "sender_id");
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(prove_ms_);
    while (std::chrono::steady_clock::now() < deadline) {
      if (cancel && cancel->load()) return make_error("proof cancelled", "cancelled", "");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return fake_response(circuit);
  }

  Status verify(const CircuitId& circuit, std::string_view response_json) const override {
    auto parsed = nlohmann::json::parse(response_json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("pi_a")) {
      return make_error("the response is not a proof JSON object", "proof", "pi_a");
    }
    if (response_json != fake_response(circuit)) {
      return make_error("not the fake proof", "invalid");
    }
    return ok_status();
  }

 private:
  unsigned prove_ms_;
  std::vector<CircuitKeys> circuits_;
};

}  // namespace

std::unique_ptr<ProofBackend> make_fake_backend(const std::vector<CircuitId>& circuits,
                                                unsigned prove_ms) {
  return std::make_unique<FakeBackend>(circuits, prove_ms);
}

}  // namespace enygma::server
