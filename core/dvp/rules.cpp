#include "core/dvp/rules.hpp"

namespace enygma::dvp {

std::string rule_id(char letter, int rule) {
  std::string id(1, letter);  // appended: g++ 12 -Wrestrict false positive on "J" + to_string()
  id.append(std::to_string(rule));
  return id;
}

Error rule_error(char letter, int rule, const std::string& field, const std::string& what) {
  const std::string id = rule_id(letter, rule);
  std::string message(id);
  message.append(": ").append(field).append(" ").append(what);
  return make_error(std::move(message), id, field);
}

}  // namespace enygma::dvp
