#include "core/util/error_json.hpp"

#include <nlohmann/json.hpp>

namespace enygma {

std::string error_json(std::string_view message, std::string_view rule, std::string_view field) {
  nlohmann::ordered_json j;
  j["error"] = message;
  j["rule"] = rule;
  j["field"] = field;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace enygma
