#include "support/withdraw_rule_breaker.hpp"

#include "core/payment/relation.hpp"
#include "core/primitives/poseidon.hpp"
#include "core/withdraw/validate.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma::test {

namespace {

struct Breaking : NamedRuleBreak {
  WithdrawRequest& w;

  std::vector<unsigned> slots(bool used) const {
    std::vector<unsigned> out;
    for (unsigned d = 0; d < kNoteSlots; ++d) {
      if (w.hashes[d].is_zero() != used) out.push_back(d);
    }
    return out;
  }
  // W1 for slot d, from its opening.
  void rehash(unsigned d) {
    w.hashes[d] = relation::note_hash(relation::public_key(w.sk_deposits[d]), w.salts_in[d],
                                      w.v_per_deposit[d], w.address);
  }
  // v := amount, with R2w (tx_values[j]) and R13 (its commitment) following.
  void set_amount(const Fr& amount) {
    w.sender_tx_value = amount;
    w.tx_values[j] = amount;
    recommit(j);
  }
  // v_d := amount, its hash and v following (W1, W3).
  void set_note_amount(unsigned d, const Fr& amount) {
    set_amount(w.sender_tx_value - w.v_per_deposit[d] + amount);
    w.v_per_deposit[d] = amount;
    rehash(d);
  }
};

void break_r2w(Breaking& b) {
  WithdrawRequest& q = b.w;
  if (b.variant == 1) {
    q.tx_values[b.j] += Fr::from_u64(1 + b.pick.below(1000000));
    b.recommit(b.j);
    b.how = b.at("tx_values", b.j) + " += delta, " + b.at("tx_commits", b.j) + " recomputed";
  } else {
    break_sender_entry_by_alias(b);
  }
}

void break_w1(Breaking& b) {
  WithdrawRequest& q = b.w;
  const std::vector<unsigned> used = b.slots(true), unused = b.slots(false);
  unsigned variant = b.variant;
  if (variant == 0 && unused.empty()) variant = 2;
  if (variant != 0 && used.empty()) variant = 0;
  if (variant == 0) {
    // Another owner's note (its opening unknown to this prover) in an unused slot.
    const unsigned e = b.pick.pick(unused);
    q.hashes[e] =
        relation::note_hash(relation::public_key(b.pick.nonzero_mod_l()), b.pick.nonzero_mod_l(),
                            Fr::from_u64(1 + b.pick.below(1000)), q.address);
    b.how = b.at("hashes", e) + " := another owner's note (unused slot, v_d = 0)";
    return;
  }
  const unsigned d = b.pick.pick(used);
  if (variant == 1) {
    const Fr alias =
        b.pick.pick(relation::mod_l_aliases(poseidon(q.sk_deposits[d], q.sk_deposits[d])));
    q.hashes[d] = relation::note_hash(alias, q.salts_in[d], q.v_per_deposit[d], q.address);
    b.how = b.at("hashes", d) + " := the note of an alias of PK(" + b.at("sk_deposits", d) + ")";
  } else if (variant == 2) {
    q.salts_in[d] += Fr::one();
    b.how = b.at("saltsIn", d) + " += 1, hash kept";
  } else if (variant == 3) {
    q.sk_deposits[d] += Fr::one();
    b.how = b.at("sk_deposits", d) + " += 1, hash kept";
  } else {
    q.address += Fr::one();
    b.how = "address += 1, hashes kept";
  }
}

void break_w2(Breaking& b) {
  const unsigned d = b.pick.below(kNoteSlots);
  const Fr amount =
      b.variant == 0 ? relation::note_amount_bound() : relation::pow2(120);  // 10^36 < 2^120
  b.set_note_amount(d, amount);
  b.how = b.at("v_per_deposit", d) + (b.variant == 0 ? " := 10^36" : " := 2^120") +
          ", its hash and v recomputed";
}

void break_w3(Breaking& b) {
  WithdrawRequest& q = b.w;
  const Fr delta = Fr::from_u64(1 + b.pick.below(1000000));
  if (b.variant == 1 && !q.sender_tx_value.is_zero()) {
    const Fr down = cmp(delta.to_u256(), q.sender_tx_value.to_u256()) <= 0 ? delta : Fr::one();
    b.set_amount(q.sender_tx_value - down);
    b.how = "sender_tx_value -= delta, tx_values[j] and its commitment following";
  } else {
    b.set_amount(q.sender_tx_value + delta);
    b.how =
        "sender_tx_value += delta (more than the notes' sum), tx_values[j] and its commitment "
        "following";
  }
}

void break_w4(Breaking& b) {
  WithdrawRequest& q = b.w;
  const std::vector<unsigned> unused = b.slots(false);
  std::vector<unsigned> paying;  // used slots with an amount
  for (unsigned d : b.slots(true)) {
    if (!q.v_per_deposit[d].is_zero()) paying.push_back(d);
  }
  const unsigned variant = (b.variant == 0 && !unused.empty()) || paying.empty() ? 0 : 1;
  if (variant == 0) {
    const unsigned e = b.pick.pick(unused);
    const Fr amount = Fr::from_u64(1 + b.pick.below(1000000));
    b.set_amount(q.sender_tx_value + amount);
    q.v_per_deposit[e] = amount;
    b.how = b.at("v_per_deposit", e) + " := delta in an unused slot, v following";
  } else {
    const unsigned d = b.pick.pick(paying);
    q.hashes[d] = Fr::zero();
    b.how = b.at("hashes", d) + " := 0, its amount kept";
  }
}

void break_w5(Breaking& b) {
  WithdrawRequest& q = b.w;
  const std::vector<unsigned> used = b.slots(true), unused = b.slots(false);
  unsigned d = 0;
  if (used.empty()) {
    // No note at all: make one in slot d first (a valid request with one more note).
    q.sk_deposits[d] = b.pick.nonzero_mod_l();
    q.salts_in[d] = b.pick.nonzero_mod_l();
    b.set_note_amount(d, Fr::from_u64(1 + b.pick.below(1000)));
  } else {
    d = b.pick.pick(used);
  }
  unsigned e = unused.empty() ? b.pick.other_than(kNoteSlots, d) : b.pick.pick(unused);
  while (e == d) e = b.pick.other_than(kNoteSlots, d);
  b.set_amount(q.sender_tx_value - q.v_per_deposit[e] + q.v_per_deposit[d]);
  q.hashes[e] = q.hashes[d];
  q.sk_deposits[e] = q.sk_deposits[d];
  q.salts_in[e] = q.salts_in[d];
  q.v_per_deposit[e] = q.v_per_deposit[d];
  b.how = b.at("hashes", d) + " listed again in slot " + std::to_string(e) + ", v following";
}

constexpr RuleBreaker<Breaking> kBreakers[] = {
    {"R1", kR1Variants, [](Breaking& b) { break_r1(b); }},
    {"R2w", 2, break_r2w},
    {"R3", kR3Variants, [](Breaking& b) { break_r3(b); }},
    {"R4", kR4Variants, [](Breaking& b) { break_r4(b); }},
    {"R5", kR5Variants, [](Breaking& b) { break_r5(b); }},
    {"R6", kR6Variants, [](Breaking& b) { break_r6(b); }},
    {"R7", kR7Variants, [](Breaking& b) { break_r7(b, /*balance_bounded=*/false); }},
    {"R8", kR8Variants, [](Breaking& b) { break_r8(b); }},
    {"R9w", kR9OthersVariants, [](Breaking& b) { break_r9_others(b, "R9w", "R15w"); }},
    {"R12", kR12Variants, [](Breaking& b) { break_r12(b); }},
    {"R13", kR13PointVariants, [](Breaking& b) { break_r13_points(b); }},
    {"R14", kR14Variants, [](Breaking& b) { break_r14(b); }},
    {"R15w", kR15NothingVariants, [](Breaking& b) { break_r15_nothing_to_others(b); }},
    {"R16", kR16Variants, [](Breaking& b) { break_r16(b); }},
    {"W1", 5, break_w1},
    {"W2", 2, break_w2},
    {"W3", 2, break_w3},
    {"W4", 2, break_w4},
    {"W5", 1, break_w5},
};

}  // namespace

unsigned withdraw_rule_variants(std::string_view rule) {
  return rule_breaker_variants<Breaking>(kBreakers, rule);
}

Result<BrokenWithdraw> break_withdraw_rule(const WithdrawRequest& valid, std::string_view rule,
                                           uint64_t variant_seed) {
  return break_named_rule<Breaking>("withdraw", kBreakers, &validate_withdraw,
                                    &validate_withdraw_all, valid, rule, variant_seed);
}

}  // namespace enygma::test
