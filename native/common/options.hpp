// The one command-line option parser of the native programs, shared by the CLI commands and
// `enygma serve`'s flags (native/server/config.cpp): --name value, --name=value, boolean --flag;
// everything else is an error. Also the value syntaxes they share (k lists, byte sizes,
// durations, booleans) and the choice of circuits (--circuit, --k).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/registry/registry.hpp"
#include "core/util/result.hpp"

namespace enygma::native {

// The exit codes of every native command (README.md, "Exit codes"). kExitRefused: the request,
// or verify's proof file, is refused (its error, as JSON on stderr, names the rule and field);
// kExitFailed: anything else (keys, files, the machine; verify: a proof that does not verify);
// kExitUsage: the command line (an unknown, repeated or missing option, a value out of range),
// sysexits.h's EX_USAGE.
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitRefused = 2;
constexpr int kExitUsage = 64;

class Args {
 public:
  // value_options take a value; flag_options do not. Returns false (after printing the reason,
  // prefixed by `program`, to stderr) on unknown or repeated options or missing or empty values
  // (`--keys ""` is a mistake, not the root folder) but those of may_be_empty. --help is always
  // accepted.
  bool parse(int argc, char** argv, const std::set<std::string>& value_options,
             const std::set<std::string>& flag_options = {}, const char* program = "enygma",
             const std::set<std::string>& may_be_empty = {});

  Args() = default;
  Args(const Args&) = delete;  // a copy of the values would be freed unwiped; a move takes them
  Args(Args&&) = default;
  Args& operator=(const Args&) = delete;
  // The values are wiped: a wallet's seed, secret key and amounts come as options.
  ~Args();

  bool has(const std::string& name) const { return values_.count(name) || flags_.count(name); }
  bool help() const { return flags_.count("help") > 0; }
  // The value of an option given (nullptr when absent), not copied: for a secret, whose copies
  // would be freed unwiped.
  const std::string* value(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  std::optional<std::string> get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  std::string get_or(const std::string& name, const std::string& fallback) const {
    return get(name).value_or(fallback);
  }
  // Unsigned integer option in [lo, hi] (fallback when absent). Errors: rule "usage", field
  // name.
  Result<unsigned long> get_uint(const std::string& name, unsigned long fallback, unsigned long lo,
                                 unsigned long hi) const;
  // True when every option in names was given; otherwise prints
  // "enygma COMMAND: --a, --b and --c are required (see --help)" and returns false.
  bool require(const char* command, const std::vector<std::string>& names) const;
  const std::string& error() const { return error_; }

 private:
  bool fail(const char* program, const std::string& why);
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  std::string error_;
};

// A decimal integer without sign or spaces, at most `max`.
std::optional<unsigned long> parse_unsigned(const std::string& text, unsigned long max);

// `text` as an error message may quote it on one line: control and non-ASCII bytes as \xNN (a
// value given with a newline would otherwise split the message); beyond `max_bytes` of it, cut
// with "\u2026".
std::string shown_on_one_line(std::string_view text, size_t max_bytes = SIZE_MAX);
// "2-6", "2,3,6", "2-4,6" or "4" -> a sorted list of distinct k values within [lo, hi].
std::optional<std::vector<unsigned>> parse_k_list(const std::string& spec, unsigned lo,
                                                  unsigned hi);
// "65536", "64k", "64KiB", "1M" -> bytes.
std::optional<size_t> parse_byte_size(const std::string& text);
// "10s", "500ms", "2m", "10" (seconds) -> milliseconds.
std::optional<std::chrono::milliseconds> parse_duration(const std::string& text);
// 1/true/on/yes, 0/false/off/no, in any case (ON, True).
std::optional<bool> parse_bool(const std::string& text);

// One circuit from --circuit NAME (default "transfer") and --k K (required for a family with an
// anonymity-set size unless default_k is non-zero, refused for one without). Errors: rule
// "usage", naming the option.
Result<CircuitId> circuit_option(const Args& args, unsigned default_k = 0);
// Several circuits from --circuit LIST (comma-separated family names or circuit ids such as
// transfer-k6, or "all"; default_families when absent) and --k LIST (for the families with k;
// each family's server defaults when absent). Errors: rule "usage", naming the option.
Result<std::vector<CircuitId>> circuits_option(const Args& args,
                                               const std::string& default_families = "all");
// Whether --k has nothing to choose in a circuit list: it names circuit ids (transfer-k6,
// deposit-k2), at least one of a family with k, and otherwise only families without k
// (ownership-721); no family with k, no "all". A list with an item that is neither is not:
// resolve_circuits refuses it.
bool names_circuit_ids_only(const std::string& spec);
// The anonymity-set sizes of the registry: the smallest min_k and the largest max_k of the
// families that have k ({2, 16}), and the same as text ("2..16") for messages.
std::pair<unsigned, unsigned> k_bounds();
std::string k_bounds_text();
// The same from the texts of the two options (`option` names the first in errors); the server's
// --circuits and --k use it.
Result<std::vector<CircuitId>> resolve_circuits(const std::string& spec,
                                                const std::optional<std::string>& k_spec,
                                                const std::string& option);

}  // namespace enygma::native

namespace enygma::cli {
using native::Args;
using native::parse_k_list;
}  // namespace enygma::cli
