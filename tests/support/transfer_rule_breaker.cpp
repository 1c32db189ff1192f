// One function per rule. Variants (variant_seed % break_rule_variants(rule)); the rules every
// payment relation shares (R1, R3..R8, R12, R13's point changes, R14) are broken by the shared
// breakers of payment_rule_breaker.hpp, whose variants are listed there:
//   R1, R3, R4, R5, R6, R7 (with R11), R8, R12, R14, R16: as payment_rule_breaker.hpp
//   R2  0 tx_values[j] += m*l (same residue, same commitment);  with R15 (R15 makes the others
//       add up to v, so a changed v or tv[j] breaks both): 1 sender_tx_value := another value
//       in [0, V] (V >= 1, else variant 0);  2 tx_values[j] -= delta, tx_values[r] += delta,
//       both commitments recomputed (pays the recipient more than v)
//   R9  see transfer_rule_breaker.hpp
//   R10 see transfer_rule_breaker.hpp
//   R11 0 V += l (the same commitment: the overspend of the reference);  1 V := 2^250 with
//       previous_commits[j] recomputed;  2 v := V + delta, tx_values[j] := (l - v) mod l and
//       the difference moved to a receiver, both commitments recomputed;  3 V := v - 1 with
//       previous_commits[j] recomputed (v >= 1, else variant 2)
//   R13 0, 1: the shared point variants 0, 1 (a pair of tx_commits += G / -= G, += (0, -1));
//       2 tx_values[a] += delta, tx_values[c] -= delta with 0 < delta <= tx_values[c],
//       commitments kept (a, c != j; needs k >= 3 and a receiver, else variant 0);  3 the
//       shared point variant 2 (+= H / -= H). (A single changed commitment breaks R10 too.)
//   R15 a, b != j, commitments recomputed: 0 theft: tx_values[a] += X, tx_values[b] -= X mod l
//       with X > tx_values[b] (k >= 3, else variant 2);  1 value from nowhere: v := 0,
//       tx_values[j] := 0 and up to four other members sharing l;  2 tx_values[a] += l (same
//       commitment);  3 a negative amount: tx_values[a] := l - 1, tx_values[b] += the
//       difference (k >= 3, else variant 2)
#include "support/transfer_rule_breaker.hpp"

#include <algorithm>

#include "core/payment/relation.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/transfer/validate.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma {

namespace {

namespace bjj = babyjubjub;
using test::PaymentBreak;

// "R<n>" (appended, not "R" + to_string(n): g++ 12 -Wrestrict false positive, PR 105651).
std::string rule_id(int n) {
  std::string id("R");
  id += std::to_string(n);
  return id;
}

constexpr unsigned kVariants[kNumRules + 1] = {0,
                                               test::kR1Variants,
                                               3,
                                               test::kR3Variants,
                                               test::kR4Variants,
                                               test::kR5Variants,
                                               test::kR6Variants,
                                               test::kR7Variants,
                                               test::kR8Variants,
                                               2,
                                               3,
                                               4,
                                               test::kR12Variants,
                                               4,
                                               test::kR14Variants,
                                               4,
                                               test::kR16Variants};

// floor(x / n) for 0 < n < 2^32, by 32-bit long division.
U256 divide_small(const U256& x, uint32_t n) {
  U256 q;
  uint64_t rem = 0;
  for (int half = 7; half >= 0; --half) {
    const uint64_t cur = (rem << 32) | ((x.w[half / 2] >> (32 * (half % 2))) & 0xffffffffu);
    q.w[half / 2] |= (cur / n) << (32 * (half % 2));
    rem = cur % n;
  }
  return q;
}

// The shared breaking state, and the rules it broke (ascending).
struct Breaking : PaymentBreak {
  std::vector<int> broken;
};

void break_r2(Breaking& b) {
  PaymentRequest& q = b.q;
  const Fr& balance = q.previous_sender_balance;
  if (b.variant == 1 && !balance.is_zero()) {
    const bool up = cmp(q.sender_tx_value.to_u256(), balance.to_u256()) < 0;
    q.sender_tx_value += up ? Fr::one() : -Fr::one();
    b.how = up ? "sender_tx_value += 1" : "sender_tx_value -= 1";
    b.broken = {2, 15};
  } else if (b.variant == 2) {
    const unsigned r = b.pick.other_than(q.k, b.j);
    b.shift_tx_value(b.j, r, Fr::from_u64(1 + b.pick.below(1000)), true);
    b.how = b.at("tx_values", b.j) + " -= delta, " + b.at("tx_values", r) + " += delta";
    b.broken = {2, 15};
  } else {
    test::break_sender_entry_by_alias(b);
  }
}

// R9 with R10 (recompute) or R13 (keep the commitment).
void break_r9_with(Breaking& b, bool recompute) {
  PaymentRequest& q = b.q;
  const unsigned r = b.pick.other_than(q.k, b.j);
  q.tx_values[r] = relation::add_mod_l(q.tx_values[r], b.pick.nonzero_mod_l());
  if (recompute) b.recommit(r);
  b.how = b.at("tx_values", r) + " += delta" +
          (recompute ? ", " + b.at("tx_commits", r) + " recomputed" : "");
  b.broken = {9, recompute ? 10 : 13, 15};
}

void break_r9(Breaking& b) {
  break_r9_with(b, b.variant == 0);
}

void break_r10(Breaking& b) {
  if (b.variant == 2) return break_r9_with(b, true);
  const unsigned a = b.pick.below(b.q.k);
  const BjjPoint d = b.variant == 0 ? bjj::generator_g() : bjj::torsion_point_order2();
  b.q.tx_commits[a] = bjj::add(b.q.tx_commits[a], d);
  b.how = b.at("tx_commits", a) + (b.variant == 0 ? " += G" : " += (0, -1)");
  b.broken = {10, 13};
}

void break_r11(Breaking& b) {
  PaymentRequest& q = b.q;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if (variant == 3 && q.sender_tx_value.is_zero()) variant = 2;
  // Variant 2 pays the extra to one receiver, whose amount must stay below 2^250 (R15).
  const Fr raised = q.previous_sender_balance + Fr::from_u64(1 + b.pick.below(1000));
  if (variant == 2 && !relation::below_pow2(raised, 250)) variant = 0;
  if (variant != 2) return test::break_r11_by_balance(b, variant);
  const Fr old_entry = q.tx_values[j];
  q.sender_tx_value = raised;
  q.tx_values[j] = relation::sender_tx_value_entry(q.sender_tx_value);
  const unsigned r = b.pick.other_than(q.k, j);
  q.tx_values[r] =
      relation::add_mod_l(q.tx_values[r], relation::sub_mod_l(old_entry, q.tx_values[j]));
  b.recommit(j);
  b.recommit(r);
  b.how = "sender_tx_value := previous_sender_balance + delta, " + b.at("tx_values", j) + " and " +
          b.at("tx_values", r) + " adjusted, commitments recomputed";
}

void break_r13(Breaking& b) {
  PaymentRequest& q = b.q;
  unsigned variant = b.variant;
  // Variant 2 takes from a receiver c no more than it has, so R15 (ranges and sum) still holds.
  std::vector<unsigned> receivers;
  for (unsigned i = 0; i < q.k; ++i) {
    if (i != b.j && !q.tx_values[i].is_zero()) receivers.push_back(i);
  }
  if (variant == 2 && (q.k < 3 || receivers.empty())) variant = 0;
  if (variant == 2) {
    const unsigned c = b.pick.pick(receivers);
    unsigned a = b.pick.other_than(q.k, b.j);
    while (a == c) a = b.pick.other_than(q.k, b.j);
    U256 delta = b.pick.nonzero_mod_l().to_u256();
    const U256 have = q.tx_values[c].to_u256();
    while (cmp(delta, have) > 0) delta = shr1(delta);
    if (delta.is_zero()) delta = U256::from_u64(1);
    b.shift_tx_value(c, a, *Fr::from_canonical(delta), false);
    b.how =
        b.at("tx_values", a) + " += delta, " + b.at("tx_values", c) + " -= delta, commitments kept";
    return;
  }
  // The shared point changes in pairs (a single one breaks R10 too): G, (0, -1), H.
  b.variant = variant == 3 ? 2 : variant;
  test::break_r13_points(b);
}

void break_r15(Breaking& b) {
  PaymentRequest& q = b.q;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if ((variant == 0 || variant == 3) && q.k < 3) variant = 2;
  const unsigned a = b.pick.other_than(q.k, j);
  unsigned c = a;
  if (q.k >= 3) {
    while (c == a) c = b.pick.other_than(q.k, j);
  }
  if (variant == 0) {
    // Theft: c pays more than it has (its entry wraps to l - something), a receives it.
    Fr x = q.tx_values[c] + Fr::from_u64(1 + b.pick.below(1000000));
    b.shift_tx_value(c, a, x, true);
    b.how = b.at("tx_values", a) + " += X, " + b.at("tx_values", c) + " -= X > " +
            b.at("tx_values", c) + ", commitments recomputed";
  } else if (variant == 1) {
    // Value from nowhere: nothing sent, up to four members share l (each below 2^250 from
    // four members on), which sums to 0 modulo l.
    q.sender_tx_value = Fr::zero();
    for (unsigned i = 0; i < q.k; ++i) q.tx_values[i] = Fr::zero();
    const unsigned n = std::min(4u, q.k - 1);
    const U256 l = relation::l_as_fr().to_u256();
    const U256 part = divide_small(l, n);
    U256 left = l;
    for (unsigned i = (j + 1) % q.k, given = 0; given < n; i = (i + 1) % q.k) {
      if (i == j) continue;
      const U256 this_part = ++given == n ? left : part;  // the last one takes the remainder
      sub_borrow(left, left, this_part);
      q.tx_values[i] = *Fr::from_canonical(this_part);
    }
    for (unsigned m = 0; m < q.k; ++m) b.recommit(m);
    b.how = "sender_tx_value := 0, " + std::to_string(n) + " members share l";
  } else if (variant == 2) {
    q.tx_values[a] += relation::l_as_fr();
    b.how = b.at("tx_values", a) + " += l (same commitment)";
  } else {
    // A negative amount: a's entry becomes l - 1 (-1 modulo l), c receives the difference.
    const Fr delta = q.tx_values[a] + Fr::one();
    b.shift_tx_value(a, c, delta, true);
    b.how = b.at("tx_values", a) + " := l - 1, " + b.at("tx_values", c) +
            " += the difference, commitments recomputed";
  }
}

void break_r7_bounded(Breaking& b) {
  test::break_r7(b, /*balance_bounded=*/true);
}

}  // namespace

unsigned break_rule_variants(int rule) {
  return rule >= 1 && rule <= kNumRules ? kVariants[rule] : 0;
}

Result<BrokenRequest> break_rule_minimal(const TransferRequest& valid, int rule,
                                         uint64_t variant_seed) {
  if (rule < 1 || rule > kNumRules) {
    return make_error("no rule " + std::to_string(rule) + " (rules are R1..R16)", "input", "rule");
  }
  if (Status st = validate_transfer(valid); !st) {
    return make_error("the request to break is not valid: " + st.error().message, "input",
                      st.error().field);
  }
  test::Picker pick(variant_seed / kVariants[rule] ^ (uint64_t(rule) << 56));
  TransferRequest q = valid;
  Breaking b{{q, *sender_index(valid), unsigned(variant_seed % kVariants[rule]), pick, {}}, {rule}};
  // The shared breakers take the payment fields; each wrapper keeps the signature uniform.
  using Breaker = void (*)(Breaking&);
  static constexpr Breaker kBreakers[kNumRules + 1] = {nullptr,
                                                       [](Breaking& x) { test::break_r1(x); },
                                                       break_r2,
                                                       [](Breaking& x) { test::break_r3(x); },
                                                       [](Breaking& x) { test::break_r4(x); },
                                                       [](Breaking& x) { test::break_r5(x); },
                                                       [](Breaking& x) { test::break_r6(x); },
                                                       break_r7_bounded,
                                                       [](Breaking& x) { test::break_r8(x); },
                                                       break_r9,
                                                       break_r10,
                                                       break_r11,
                                                       [](Breaking& x) { test::break_r12(x); },
                                                       break_r13,
                                                       [](Breaking& x) { test::break_r14(x); },
                                                       break_r15,
                                                       [](Breaking& x) { test::break_r16(x); }};
  kBreakers[rule](b);
  // The claim is checked, not trusted (a coincidence of hashes would show up here).
  const std::vector<int> failed = failed_rules(validate_transfer_all(q));
  if (failed != b.broken) {
    std::string message = "breaking ";
    message += rule_id(rule);
    message += " by " + b.how + " did not fail exactly the intended rules; failed:";
    for (int n : failed) {
      message += ' ';
      message += rule_id(n);
    }
    return make_error(std::move(message), "internal", "");
  }
  return BrokenRequest{std::move(q), std::move(b.broken), std::move(b.how)};
}

Result<TransferRequest> break_rule(const TransferRequest& valid, int rule, uint64_t variant_seed) {
  if (rule == 9 || rule == 10) {
    return make_error(
        rule == 9 ? "R9 cannot fail alone: R14 gives sum(tr) = 0 mod l, and R2 with R15 give "
                    "sum(tv) = l or 0; use break_rule_minimal"
                  : "R10 cannot fail alone: R13 and R9 give sum(tc) = sum(tv) * G + sum(tr) * H "
                    "= O; use break_rule_minimal",
        rule_id(rule), "");
  }
  Result<BrokenRequest> r = break_rule_minimal(valid, rule, variant_seed);
  if (!r) return r.error();
  if (r->broken_rules != std::vector<int>{rule}) {
    return make_error(rule_id(rule) + " variant " + std::to_string(variant_seed % kVariants[rule]) +
                          " breaks other rules with it; use break_rule_minimal",
                      rule_id(rule), "");
  }
  return std::move(r->request);
}

}  // namespace enygma
