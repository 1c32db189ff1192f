// The real backend: one CircuitProver per circuit served, from <keys_dir>/<circuit>.{pk,vk}
// (loaded by native/common/key_loading, shared with the CLI), plus the compressed keys for the
// browser.
#include <chrono>
#include <map>

#include "core/groth16/key_format.hpp"
#include "core/registry/circuit_prover.hpp"
#include "native/common/key_loading.hpp"
#include "native/server/backend.hpp"

namespace enygma::server {

namespace {

KeyAsset make_asset(std::string file_name, std::vector<uint8_t> bytes) {
  KeyAsset asset;
  asset.file_name = std::move(file_name);
  asset.blake2b_hex = blake2b_hex(bytes.data(), bytes.size());
  asset.bytes = std::move(bytes);
  return asset;
}

class CircuitBackend final : public ProofBackend {
 public:
  const std::vector<CircuitKeys>& circuits() const override { return circuits_; }

  Result<std::string> prove(const CircuitId& circuit, std::string_view request_json,
                            ThreadPool& pool, const std::atomic<bool>* cancel) const override {
    ProveOptions options;
    options.cancel = cancel;
    auto proof = provers_.at(circuit.str())->prove_request(request_json, pool, options);
    if (!proof.ok()) return proof.error();
    return std::move(proof.value().response_json);
  }

  Status verify(const CircuitId& circuit, std::string_view response_json) const override {
    return provers_.at(circuit.str())->verify_response(response_json, kRequestBody);
  }

  std::vector<CircuitKeys> circuits_;
  std::map<std::string, std::shared_ptr<const CircuitProver>> provers_;
};

}  // namespace

Result<std::unique_ptr<ProofBackend>> load_circuit_backend(const std::string& keys_dir,
                                                           const std::vector<CircuitId>& circuits,
                                                           ThreadPool& pool,
                                                           void (*on_loaded)(const CircuitKeys&)) {
  auto backend = std::make_unique<CircuitBackend>();
  for (const CircuitId& circuit : circuits) {
    const auto start = std::chrono::steady_clock::now();
    auto prover = native::load_circuit_prover(keys_dir, circuit, /*with_proving_key=*/true, pool);
    if (!prover.ok()) return prover.error();
    const CircuitProver& loaded = *prover.value();
    const std::string name = circuit.key_name();
    CircuitKeys keys;
    keys.circuit = circuit;
    keys.circuit_name = name;
    keys.insecure_dev_keys = loaded.insecure_dev_keys();
    keys.proving_key =
        make_asset(circuit.str() + ".pk",
                   serialize_proving_key(loaded.proving_key(), name, PointFormat::kCompressed));
    keys.verifying_key =
        make_asset(circuit.str() + ".vk",
                   serialize_verifying_key(loaded.verifying_key(), name, PointFormat::kCompressed));
    keys.load_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (on_loaded) on_loaded(keys);
    backend->provers_[circuit.str()] = prover.value();
    backend->circuits_.push_back(std::move(keys));
  }
  return std::unique_ptr<ProofBackend>(std::move(backend));
}

}  // namespace enygma::server
