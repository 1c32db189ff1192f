#include "core/util/error_json.hpp"

#include <nlohmann/json.hpp>

#include "core/util/json_parse.hpp"

namespace enygma {

std::string error_json(std::string_view message, std::string_view rule, std::string_view field) {
  nlohmann::ordered_json j;
  j["error"] = message;
  j["rule"] = rule;
  j["field"] = field;
  return json_text(j);
}

}  // namespace enygma
