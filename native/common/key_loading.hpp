// Loading the prover of a circuit from a key folder, shared by the CLI commands and the server.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/groth16/key_format.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/registry/circuit_prover.hpp"

namespace enygma::native {

// Reads DIR/<circuit>.vk and, when with_proving_key, DIR/<circuit>.pk. Errors name the file and
// the reason (missing, corrupt, another circuit's key) and how to make the keys. options.on_step
// also sees "read_keys" before the files are read.
Result<std::shared_ptr<const CircuitProver>> load_circuit_prover(
    const std::string& dir, const CircuitId& circuit, bool with_proving_key, ThreadPool& pool,
    const CircuitLoadOptions& options = {});

// A key file's header, read alone and checked before the file is read or mapped whole: what
// read_key_header refuses (another format or version), a body length other than the file's
// ("truncated" or trailing bytes), a key of another kind than `expected` (said before its size:
// "<path>: a proving key; --vk takes a verifying key (.vk)" when the file was named by `option`,
// else "<path>: a proving key, not a verifying key"), or a file larger than max_bytes. Key errors
// name the file (rule "key"); one opening or reading it is the I/O error (rule "io").
Status check_key_file(const std::string& path, KeyKind expected, size_t max_bytes = SIZE_MAX,
                      const std::string& option = "");
// A folder of key files to write (setup's and import-zkey's --out): never "-", which is standard
// output elsewhere and cannot hold two files (rule "usage", field "out").
Status check_key_folder_option(const std::string& dir);
// The largest verifying key file: its body holds a few points per public input (a k = 16
// withdraw's, the largest, is ~10 KB).
inline constexpr size_t kMaxVerifyingKeyFileBytes = size_t(1) << 20;

// The seed of `--test-seed TEXT`: BLAKE2b-256 of the text.
std::array<uint8_t, 32> test_seed_from_text(const std::string& text);

}  // namespace enygma::native
