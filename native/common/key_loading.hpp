// Loading the transfer prover of k from a key folder, shared by the CLI commands and the server.
#pragma once

#include <memory>
#include <string>

#include "core/parallel/thread_pool.hpp"
#include "core/transfer/transfer_prover.hpp"

namespace enygma::native {

// Reads DIR/transfer-k<k>.vk and, when with_proving_key, DIR/transfer-k<k>.pk. Errors name the
// file and the reason (missing, corrupt, another circuit's key).
Result<std::shared_ptr<const TransferProver>> load_transfer_prover(const std::string& dir,
                                                                   unsigned k,
                                                                   bool with_proving_key,
                                                                   ThreadPool& pool);

// The seed of `--test-seed TEXT`: BLAKE2b-256 of the text.
std::array<uint8_t, 32> test_seed_from_text(const std::string& text);

}  // namespace enygma::native
