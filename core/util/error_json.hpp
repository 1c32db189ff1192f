// The one JSON shape every front end reports an Error in (CLI on stderr, server answers,
// WebAssembly API): {"error": message, "rule": rule, "field": field}.
#pragma once

#include <string>
#include <string_view>

#include "core/util/result.hpp"

namespace enygma {

// Invalid UTF-8 (a message may quote a client's bytes) is replaced, never thrown on.
std::string error_json(std::string_view message, std::string_view rule, std::string_view field);
inline std::string error_json(const Error& e) {
  return error_json(e.message, e.rule, e.field);
}

}  // namespace enygma
