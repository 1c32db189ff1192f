// The rule breakers the three payment families share (transfer_rule_breaker,
// deposit_rule_breaker, withdraw_rule_breaker): for the rules every payment relation states
// alike (R1, R3..R8, R12, R13's point changes, R14), the change of a VALID request that breaks
// the rule, re-deriving the public values that depend on what changed so that, as far as the
// payment fields go, only that rule fails. Each family's breaker adds its own rules, picks the
// variant and checks the claim with its validator.
//
// Variants (PaymentBreak::variant), indices 0-based, j the sender index of R1:
//   R1  0 sender_id := an id not in the set;  1 anonymity_set[i] := sender_id (i != j, a
//       duplicate);  2 anonymity_set[j] := an id not in the set
//   R3  previous_commits[i], i != j, off the curve: 0 (x, y + 1);  1 (0, 0);  2 random
//   R4  0 shared_secrets[j] := an alias of Poseidon(R, sk) mod l (relation::mod_l_aliases);
//       1 shared_secrets[j] := another value below l;  2 R += 1 with previous_commits[j]
//       recomputed;  3 sk += 1 with public_keys[j] recomputed. 0 and 1 re-derive
//       hashed_shared_secrets[j], message_tags[j] and the nullifier.
//   R5  hashed_shared_secrets[i] (any i; the nullifier re-derived when i == j): 0 an alias of
//       Poseidon(ss[i], ss[i]);  1 another value below l
//   R6  0 public_keys[j] := an alias of Poseidon(sk, sk);  1 another value below l;  2 sk +=
//       delta keeping public_keys[j], with shared_secrets[j] and what follows from it
//       re-derived (a proof without the key)
//   R7  0 previous_commits[j] += G;  1 previous_commits[j] += (0, -1) (order 2);  2 V := V + 1
//       (where R11 applies: or V - 1 when V + 1 = 2^250; variant 0 when neither keeps R11)
//   R8  message_tags[i] (any i): 0 an alias of Poseidon(T, ss[i], b);  1 another value below
//       l;  2 the tag of block_number + 1
//   R12 0 nullifier += delta;  1 another participant's nullifier Poseidon(hs[i], b), i != j;
//       2 nullifier mod l (or + l when it is below l)
//   R13 (point changes) a != c: 0 tx_commits[a] += G, tx_commits[c] -= G;  1 both += (0, -1);
//       2 tx_commits[a] += H, tx_commits[c] -= H;  3 tx_commits[a] += G alone
//   R14 0 tx_random_values[a] += delta, tx_random_values[c] -= delta mod l (a != c, commitments
//       recomputed);  1 tx_random_values[a] += m*l (same residue, same commitment: the public
//       statement is the valid one's, see R14_invisible below)
//   R16 previous_sender_random_value := R + m*l below p (the same commitment), shared_secrets[j]
//       and what follows from it re-derived (a second nullifier for one balance): 0 m = 1;
//       1 m picked among every m with R + m*l < p
// and, for the rules that two families state alike:
//   R9d, R9w (cannot fail alone): 0 {R9x, R15x} tx_values[r] := delta > 0 (r != j),
//       tx_commits[r] recomputed;  1 {R9x, R14} tx_random_values[a] += delta alone, tx_commits[a]
//       recomputed
//   R15d, R15w, a, c != j, commitments recomputed: 0 theft: tx_values[a] += X, tx_values[c] -= X
//       mod l (k >= 3, else variant 1);  1 tx_values[a] += l (same commitment);  2 value from
//       nowhere: up to four other members share l
//   R11 (transfer, deposit), by the balance: 0 V += l (same commitment);  1 V := 2^250;  3 V :=
//       v - 1 (v >= 1); previous_commits[j] recomputed for 1 and 3
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/payment/request.hpp"
#include "core/payment/rules.hpp"
#include "core/util/result.hpp"

namespace enygma::test {

// SplitMix64 over a seed: the indices and values of a breakage.
class Picker {
 public:
  explicit Picker(uint64_t seed) : s_(seed) {}
  uint64_t next();
  unsigned below(unsigned n) { return unsigned(next() % n); }
  // Any index in 0..k-1 but `avoid`.
  unsigned other_than(unsigned k, unsigned avoid) { return (avoid + 1 + below(k - 1)) % k; }
  // A value below l, not zero.
  Fr nonzero_mod_l();
  // A value below l other than `not_this`.
  Fr mod_l_except(const Fr& not_this);
  template <class T>
  const T& pick(const std::vector<T>& xs) {
    return xs[below(unsigned(xs.size()))];
  }

 private:
  uint64_t s_;
};

// A per-rule constant mixed into a Picker's seed (FNV-1a of the rule id), so that the same
// variant seed picks different indices for different rules.
uint64_t rule_salt(std::string_view rule);

// A breakage in progress: the request being changed (a family's request, seen through its
// payment fields), the sender index, the variant, and what was done.
struct PaymentBreak {
  PaymentRequest& q;
  unsigned j;
  unsigned variant;
  Picker& pick;
  std::string how;

  std::string at(const char* name, unsigned i) const;
  // tx_commits[i] := Pedersen(tx_values[i], tx_random_values[i]) (R13).
  void recommit(unsigned i);
  // After shared_secrets[i] changed: R5, R8 and (i == j) R12 follow.
  void rederive_from_shared_secret(unsigned i);
  void rederive_nullifier();
  // After secret_key changed, keeping R4: shared_secrets[j] and what follows from it.
  void rederive_from_secret_key();
  // An id in no anonymity_set entry and not sender_id.
  Fr fresh_id();
  // Moves delta (mod l) from tx_values[from] to tx_values[to], recomputing both commitments
  // when asked: sum(tv) mod l is kept.
  void shift_tx_value(unsigned from, unsigned to, const Fr& delta, bool recompute);
};

// The variants per shared rule (see the top).
inline constexpr unsigned kR1Variants = 3, kR3Variants = 3, kR4Variants = 4, kR5Variants = 2,
                          kR6Variants = 3, kR7Variants = 3, kR8Variants = 3, kR12Variants = 3,
                          kR13PointVariants = 4, kR14Variants = 2, kR16Variants = 2;

void break_r1(PaymentBreak& b);
void break_r3(PaymentBreak& b);
void break_r4(PaymentBreak& b);
void break_r5(PaymentBreak& b);
void break_r6(PaymentBreak& b);
// balance_bounded: R11 applies (V < 2^250, v <= V must still hold after the change).
void break_r7(PaymentBreak& b, bool balance_bounded);
void break_r8(PaymentBreak& b);
void break_r12(PaymentBreak& b);
void break_r13_points(PaymentBreak& b);
void break_r14(PaymentBreak& b);
void break_r16(PaymentBreak& b);
// R := r in a valid request, with what follows from it re-derived (shared_secrets[j],
// hashed_shared_secrets[j], message_tags[j], the nullifier): for R16's aliases R + m*l, which
// open the same commitment (the wallets refuse to build them).
void set_balance_random(PaymentRequest& q, const Fr& r);

// R2's alias variant, every family's R2 or R2w variant 0: tx_values[j] += m*l (same residue,
// same commitment).
void break_sender_entry_by_alias(PaymentBreak& b);
// R11 by the balance alone, variants 0, 1 and 3 (see the top; variant 2 is the family's own).
void break_r11_by_balance(PaymentBreak& b, unsigned variant);

// A breakage in a family whose rule ids are strings (deposit, withdraw): the rules it breaks.
struct NamedRuleBreak : PaymentBreak {
  std::vector<std::string> broken;  // in rule order; {rule} when broken alone
};

// R9d, R9w (`r9`; `r15` names the family's R15 form): variants 0, 1 (see the top).
void break_r9_others(NamedRuleBreak& b, const char* r9, const char* r15);
// R15d, R15w: variants 0, 1, 2 (see the top).
void break_r15_nothing_to_others(PaymentBreak& b);

inline constexpr unsigned kR9OthersVariants = 2, kR15NothingVariants = 3;

// A request that breaks a rule of a family with string rule ids, and the rules it broke.
template <class Request>
struct BrokenPayment {
  Request request;
  std::vector<std::string> broken_rules;  // in rule order; {rule} when broken alone
  std::string how;                        // what was changed
};

// A family's rule breakers (Breaking: a NamedRuleBreak with the family's request as a second
// member), by rule id.
template <class Breaking>
struct RuleBreaker {
  std::string_view id;
  unsigned variants;
  void (*breaker)(Breaking& b);
};

template <class Breaking>
const RuleBreaker<Breaking>* find_rule_breaker(std::span<const RuleBreaker<Breaking>> breakers,
                                               std::string_view rule) {
  for (const RuleBreaker<Breaking>& r : breakers) {
    if (r.id == rule) return &r;
  }
  return nullptr;
}

// The number of variants of `rule` in `breakers` (0 when it has none).
template <class Breaking>
unsigned rule_breaker_variants(std::span<const RuleBreaker<Breaking>> breakers,
                               std::string_view rule) {
  const RuleBreaker<Breaking>* r = find_rule_breaker(breakers, rule);
  return r ? r->variants : 0;
}

// break_deposit_rule, break_withdraw_rule: from a valid request, the variant of `rule` that
// variant_seed selects, checked with the family's validate_all (`family` names it in errors).
template <class Breaking, class Request>
Result<BrokenPayment<Request>> break_named_rule(std::string_view family,
                                                std::span<const RuleBreaker<Breaking>> breakers,
                                                Status (*validate)(const Request&),
                                                std::vector<Error> (*validate_all)(const Request&),
                                                const Request& valid, std::string_view rule,
                                                uint64_t variant_seed) {
  const RuleBreaker<Breaking>* r = find_rule_breaker(breakers, rule);
  if (!r) {
    std::string message("no ");
    message.append(family).append(" rule ").append(rule);
    return make_error(std::move(message), "input", "rule");
  }
  if (Status st = validate(valid); !st) {
    return make_error("the request to break is not valid: " + st.error().message, "input",
                      st.error().field);
  }
  Picker pick(variant_seed / r->variants ^ rule_salt(rule));
  Request q = valid;
  Breaking b{{{q, *payment::sender_index(valid), unsigned(variant_seed % r->variants), pick, {}},
              {std::string(rule)}},
             q};
  r->breaker(b);
  // The claim is checked, not trusted (a coincidence of hashes would show up here).
  const std::vector<std::string> failed = payment::failed_rule_ids(validate_all(q));
  if (failed != b.broken) {
    std::string message = "breaking ";
    message.append(rule).append(" by ").append(b.how).append(
        " did not fail exactly the intended rules; failed:");
    for (const std::string& id : failed) message.append(" ").append(id);
    return make_error(std::move(message), "internal", "");
  }
  return BrokenPayment<Request>{std::move(q), std::move(b.broken), std::move(b.how)};
}

// R14 variant 1 adds a multiple of l to a tx_random_values entry: tx_commits (Pedersen is the
// same point) and every other public input stay as they were, so the public statement is the
// valid request's, and true. tr enters the statement only through tc; the payment circuits
// prove R13 and R14 for the tr that R14 defines from ss and b (payment::enforce_tx_commits),
// which is the only witness that matters. No circuit over these public inputs can, or needs
// to, reject this request: its witness is exactly the valid request's.
inline bool r14_invisible(unsigned variant) {
  return variant == 1;
}

}  // namespace enygma::test
