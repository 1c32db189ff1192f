// The table of circuit families every shell reads, and circuits as values: a CircuitId is a
// family with a k ("transfer-k6") or without one ("ownership-721"). The R1CS and its digest are
// built once per circuit and cached (thread-safe).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/circuit/circuit_family.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/util/result.hpp"

namespace enygma {

// Every registered family, in a fixed order (transfer first).
std::span<const CircuitFamily* const> circuit_families();
// The family named `name`, or nullptr.
const CircuitFamily* find_circuit_family(std::string_view name);

struct CircuitId {
  const CircuitFamily* family = nullptr;
  unsigned k = 0;  // 0 for a family without k

  // "transfer-k6", "ownership-721": the key-file stem (<id>.pk, <id>.vk) and the name in URLs.
  std::string str() const;
  // "enygma-transfer-k6": the name written into key files (core/groth16/key_format.hpp).
  std::string key_name() const;
  // The family's routes with k filled in.
  std::string prove_route() const;
  std::string verify_route() const;
  bool operator==(const CircuitId& o) const { return family == o.family && k == o.k; }
};

// Family name and k -> a circuit; Error (rule "input", field "circuit" or "k") naming the
// families or the k range when there is no such circuit. k is ignored (may be 0) for a family
// without k.
Result<CircuitId> find_circuit(std::string_view family, unsigned k);
// "transfer-k6" / "ownership-721" -> a circuit.
Result<CircuitId> parse_circuit_id(std::string_view id);
// Every circuit of the families named (all families when empty) for the ks given (each family's
// defaults when empty; ks outside a family's range are skipped, and families without k are
// listed once). Errors name an unknown family.
Result<std::vector<CircuitId>> list_circuits(std::span<const std::string> families,
                                             std::span<const unsigned> ks);
// The circuits the server loads when told nothing: every family at its default ks.
std::vector<CircuitId> default_circuits();

// The cached R1CS and its digest (R1cs::digest) of a circuit, built on first use. The digest
// and circuit_info's counts stay cached for the process; the R1CS until release_circuit_r1cs.
const R1cs& circuit_r1cs(const CircuitId& id);
std::shared_ptr<const R1cs> circuit_r1cs_shared(const CircuitId& id);
const std::array<uint8_t, 32>& circuit_digest(const CircuitId& id);
// Drops the cache's R1CS of the circuit (5-45 MB; rebuilt when asked for again). Only where no
// reference from circuit_r1cs is held any more: the browser module, when it unloads the keys
// of the circuit (its provers hold the R1CS they need through circuit_r1cs_shared).
void release_circuit_r1cs(const CircuitId& id);

struct CircuitInfo {
  size_t constraints, wires, public_inputs, private_wires;
  // ceil(log2(constraints + public_inputs + 1)): the snarkjs / rapidsnark domain, one extra row
  // per public input and one for the constant wire.
  unsigned fft_log_domain;
  // The domain of this project's keys (groth16_setup): the smallest 2^k or 3 * 2^k that holds
  // the same rows.
  size_t domain_size;
};
CircuitInfo circuit_info(const CircuitId& id);

// The text `enygma setup --insecure-seed TEXT` (and the WebAssembly module's development setup)
// derives a circuit's toxic waste from, so that both make the same keys: TEXT + "/k=<k>" for the
// transfer circuits (the form their keys have always had), TEXT + "/<circuit id>" otherwise.
std::string insecure_setup_seed_text(const std::string& text, const CircuitId& id);

}  // namespace enygma
