// What the join-split and ownership rule breakers share (joinsplit_rule_breaker,
// ownership_rule_breaker): a breakage's variant, randomness and description, the other
// representatives of a spend key that a check with a free quotient would take, and the check of
// a breaker's claim against the family's validator.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/field/fr.hpp"
#include "core/util/result.hpp"
#include "support/test_rng.hpp"

namespace enygma::test {

// A DvP breakage in progress (a family's breaking state adds its request).
struct DvpBreak {
  unsigned variant;
  TestRng& rng;
  std::string how;

  unsigned below(unsigned n) { return unsigned(rng.next() % n); }
  Fr nonzero_field();
};

// The seed of the TestRng that breaks `rule` for `variant_seed`.
inline uint64_t dvp_break_seed(uint64_t variant_seed, int rule) {
  return variant_seed * 0x9e3779b97f4a7c15ull + uint64_t(rule);
}

// Every representative other than PK(sk) that a check "pk == Poseidon(sk, sk) mod l" with a
// free quotient would take: r + m*l below p (r = PK(sk)), then x - q*l in F_p for q = 0..7
// (x = Poseidon(sk, sk)), in that order.
std::vector<Fr> spend_key_aliases(const Fr& sk);

// "rule <id> cannot be broken by a request" (rule "input", field "rule"); letter 'J' or 'O'.
Error unbreakable_dvp_rule(char letter, int rule);

// ok when the rules that failed (dvp_failed_rules of the validator) are the intended ones;
// otherwise "<id> variant <v> (<how>) broke: <ids>" (rule "input", field "rule").
Status check_dvp_claim(char letter, int rule, unsigned variant, const std::string& how,
                       const std::vector<int>& failed, const std::vector<int>& intended);

}  // namespace enygma::test
