// How the CLI reports failures: one JSON object {"error", "rule", "field"} on stderr, the same
// shape the server answers with.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/groth16/proof_format.hpp"
#include "core/registry/registry.hpp"
#include "core/util/error_json.hpp"
#include "core/util/error_kind.hpp"
#include "core/util/result.hpp"
#include "native/common/options.hpp"

namespace enygma::cli {

// The command running ("prove"), set by main before it runs: usage errors name it.
void set_running_command(const char* name);
// A usage error, every command's alike (README.md, "Exit codes"): one plain-text line
// "enygma COMMAND: <message> (see --help)" on stderr, as the option parser's (Args::parse,
// Args::require); returns kExitUsage.
int usage_error(const std::string& message);

// A JSON string literal (quoted, escaped).
std::string json_string(const std::string& s);
// The CPU (cpu_identity, core/field/cpu_features.hpp) as a JSON object {"vendor", "family",
// "model", "stepping", "brand"}, or null where there is no cpuid: `version` and `bench` name the
// machine they ran on.
std::string cpu_json();
// The exit code for a failure (native/common/options.hpp): rule "usage" kExitUsage, the
// request's (or proof file's) fault kExitRefused (core/util/error_kind.hpp) as a wallet
// command's values that make no valid request (rule "wallet"), else kExitFailed.
int exit_code_for(const Error& e);
// Prints e to stderr and returns exit_code_for(e): a usage error (rule "usage") as usage_error
// does, any other as error_json(e) (core/util/error_json.hpp).
int fail(const Error& e);
// A proof file (--proof PATH) as the core's parsers name it when they refuse it as a whole:
// "<path> is not valid JSON (...)" ("-": standard input), its field the path where the refusal
// names no member. It refers to `path`, which must outlive it.
JsonDocument proof_file_document(const std::string& path);
// --seed S of the wallet commands: a decimal 64-bit integer (its 8 little-endian bytes, then
// zeros) or 64 hex digits (32 bytes). Errors: rule "usage", field "seed".
Result<std::array<uint8_t, 32>> parse_seed(const std::string& text);

// A request's JSON text and a newline, in a string made at its final size (appending to `json`
// itself could move it to a larger block, leaving the old one with the secrets unwiped in freed
// memory); `json` is wiped.
std::string request_text_line(std::string& json);

// The wallet commands' output (make-request, make-transfer): a request's JSON text, secrets
// included, written to --out FILE (atomically) or, without --out, to standard output; `text` is
// wiped after. Returns the exit status: 0, or 1 (the error printed) when FILE cannot be written.
int write_request_text(const native::Args& args, std::string& text);

// Where a command's JSON summary of what it wrote goes: standard output, or standard error when
// the output itself went to standard output (--out -, or a path to the same file or pipe, such as
// /dev/stdout), so as not to corrupt it.
FILE* summary_stream(const std::string& out);

// A verifying key written out for others (export-vk, export-solidity) from insecure
// development keys: a warning on stderr, naming the command, that it must never be deployed.
void warn_if_insecure_verifying_key(const char* command, bool insecure_dev);

// `"circuit":"transfer-k6","k":6` (k only for a family with k): the circuit in a JSON summary.
std::string circuit_json_fields(const CircuitId& circuit);

}  // namespace enygma::cli
