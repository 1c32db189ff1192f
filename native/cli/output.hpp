// How the CLI reports failures: one JSON object {"error", "rule", "field"} on stderr, the same
// shape the server answers with.
#pragma once

#include <string>

#include "core/util/error_json.hpp"
#include "core/util/result.hpp"

namespace enygma::cli {

// A JSON string literal (quoted, escaped).
std::string json_string(const std::string& s);
// Prints error_json(e) (core/util/error_json.hpp) to stderr and returns exit_code.
int fail_with(const Error& e, int exit_code);
// Errors that are the request's fault (a relation rule or the input format), as opposed to
// keys, files or internal failures.
bool is_request_error(const Error& e);

}  // namespace enygma::cli
