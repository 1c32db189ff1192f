// Loading the prover of a circuit from a key folder, shared by the CLI commands and the server.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/parallel/thread_pool.hpp"
#include "core/registry/circuit_prover.hpp"

namespace enygma::native {

// Reads DIR/<circuit>.vk and, when with_proving_key, DIR/<circuit>.pk. Errors name the file and
// the reason (missing, corrupt, another circuit's key) and how to make the keys. options.on_step
// also sees "read_keys" before the files are read.
Result<std::shared_ptr<const CircuitProver>> load_circuit_prover(
    const std::string& dir, const CircuitId& circuit, bool with_proving_key, ThreadPool& pool,
    const CircuitLoadOptions& options = {});

// The seed of `--test-seed TEXT`: BLAKE2b-256 of the text.
std::array<uint8_t, 32> test_seed_from_text(const std::string& text);

}  // namespace enygma::native
