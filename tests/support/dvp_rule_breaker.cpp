#include "support/dvp_rule_breaker.hpp"

#include "core/dvp/relation.hpp"
#include "core/dvp/rules.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"

namespace enygma::test {

Fr DvpBreak::nonzero_field() {
  for (;;) {
    const Fr f = rng.field<Fr>();
    if (!f.is_zero()) return f;
  }
}

std::vector<Fr> spend_key_aliases(const Fr& sk) {
  const Fr x = poseidon(sk, sk), r = dvp::spend_public_key(sk);
  const Fr l = *Fr::from_canonical(babyjubjub::subgroup_order());
  std::vector<Fr> out;
  for (U256 y = r.to_u256();;) {
    if (add_carry(y, y, babyjubjub::subgroup_order()) != 0) break;
    auto f = Fr::from_canonical(y);
    if (!f) break;
    out.push_back(*f);
  }
  Fr y = x;
  for (int k = 0; k < 8; ++k, y -= l) {
    if (y != r) out.push_back(y);
  }
  return out;
}

Error unbreakable_dvp_rule(char letter, int rule) {
  std::string message("rule ");  // appended: g++ 12 -Wrestrict false positive on "lit" + string
  message.append(dvp::rule_id(letter, rule)).append(" cannot be broken by a request");
  return make_error(std::move(message), "input", "rule");
}

Status check_dvp_claim(char letter, int rule, unsigned variant, const std::string& how,
                       const std::vector<int>& failed, const std::vector<int>& intended) {
  if (failed == intended) return ok_status();
  std::string message = dvp::rule_id(letter, rule);
  message.append(" variant ")
      .append(std::to_string(variant))
      .append(" (")
      .append(how)
      .append(") broke:");
  for (int r : failed) message.append(" ").append(dvp::rule_id(letter, r));
  return make_error(std::move(message), "input", "rule");
}

}  // namespace enygma::test
