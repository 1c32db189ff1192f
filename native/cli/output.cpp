#include "native/cli/output.hpp"

#include <cctype>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace enygma::cli {

std::string json_string(const std::string& s) { return nlohmann::json(s).dump(); }

int fail_with(const Error& e, int exit_code) {
  fprintf(stderr, "%s\n", error_json(e).c_str());
  return exit_code;
}

bool is_request_error(const Error& e) {
  return e.rule == "input" || (e.rule.size() >= 2 && e.rule[0] == 'R' && isdigit(e.rule[1]));
}

}  // namespace enygma::cli
