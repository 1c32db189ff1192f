#include "native/cli/output.hpp"

#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/field/cpu_features.hpp"
#include "core/field/u256.hpp"
#include "core/util/json_parse.hpp"
#include "native/common/file_io.hpp"

namespace enygma::cli {

namespace {
const char* running_command = nullptr;
}  // namespace

void set_running_command(const char* name) {
  running_command = name;
}

int usage_error(const std::string& message) {
  fprintf(stderr, "enygma%s%s: %s (see --help)\n", running_command ? " " : "",
          running_command ? running_command : "", message.c_str());
  return native::kExitUsage;
}

std::string json_string(const std::string& s) {
  // Paths and names are bytes (a file name in Latin-1, a zkey's contribution name).
  return json_text(nlohmann::json(s));
}

std::string cpu_json() {
  const CpuIdentity cpu = cpu_identity();
  if (!cpu.known) return "null";
  return "{\"vendor\":" + json_string(cpu.vendor) + ",\"family\":" + std::to_string(cpu.family) +
         ",\"model\":" + std::to_string(cpu.model) +
         ",\"stepping\":" + std::to_string(cpu.stepping) + ",\"brand\":" + json_string(cpu.brand) +
         "}";
}

void warn_if_insecure_verifying_key(const char* command, bool insecure_dev) {
  if (!insecure_dev) return;
  fprintf(stderr,
          "enygma %s: WARNING: this verifying key comes from insecure development keys (a "
          "seeded setup or a zkey without contribution); never deploy it\n",
          command);
}

FILE* summary_stream(const std::string& out) {
  if (out == "-") return stderr;
  struct stat named {
  }, standard{};
  if (stat(out.c_str(), &named) == 0 && fstat(STDOUT_FILENO, &standard) == 0 &&
      named.st_dev == standard.st_dev && named.st_ino == standard.st_ino) {
    return stderr;
  }
  return stdout;
}

int exit_code_for(const Error& e) {
  if (e.rule == "usage") return native::kExitUsage;
  if (e.rule == "wallet") return native::kExitRefused;  // the values cannot make a request
  return is_request_error(e) ? native::kExitRefused : native::kExitFailed;
}

int fail(const Error& e) {
  if (e.rule == "usage") return usage_error(e.message);
  fprintf(stderr, "%s\n", error_json(e).c_str());
  return exit_code_for(e);
}

JsonDocument proof_file_document(const std::string& path) {
  return JsonDocument{path == "-" ? std::string_view("standard input") : std::string_view(path),
                      path};
}

std::string request_text_line(std::string& json) {
  std::string line;
  line.reserve(json.size() + 1);
  line.append(json).push_back('\n');
  sodium_memzero(json.data(), json.size());
  return line;
}

int write_request_text(const native::Args& args, std::string& text) {
  int status = 0;
  if (auto out = args.get("out")) {
    // The request holds secret keys: readable by its owner alone.
    if (Status st = native::write_output_file(*out, text, native::FileAccess::kOwnerOnly); !st) {
      status = fail(st.error());
    }
  } else {
    fputs(text.c_str(), stdout);
  }
  sodium_memzero(text.data(), text.size());
  return status;
}

std::string circuit_json_fields(const CircuitId& circuit) {
  std::string out = "\"circuit\":" + json_string(circuit.str());
  if (circuit.family->has_k()) out += ",\"k\":" + std::to_string(circuit.k);
  return out;
}

// --seed S: a decimal 64-bit integer (its 8 little-endian bytes, then zeros) or 64 hex digits.
Result<std::array<uint8_t, 32>> parse_seed(const std::string& text) {
  std::array<uint8_t, 32> seed{};
  if (text.size() == 64) {
    for (size_t i = 0; i < 64; ++i) {
      const char c = text[i];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return make_error("--seed is not 64 hex digits", "usage", "seed");
      seed[i / 2] = uint8_t(seed[i / 2] | (d << (i % 2 ? 0 : 4)));
    }
    return seed;
  }
  // (a decimal with leading zeros would read as hex at 64 digits and as decimal beside: refused)
  auto v = u256_from_decimal(text);
  if ((text.size() > 1 && text[0] == '0') || !v || v->w[1] | v->w[2] | v->w[3]) {
    return make_error(
        "--seed must be a decimal 64-bit integer without leading zeros or 64 hex digits", "usage",
        "seed");
  }
  for (int i = 0; i < 8; ++i) seed[i] = uint8_t(v->w[0] >> (8 * i));
  return seed;
}

}  // namespace enygma::cli
