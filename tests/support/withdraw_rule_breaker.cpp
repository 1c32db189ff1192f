#include "support/withdraw_rule_breaker.hpp"

#include <algorithm>

#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/primitives/poseidon.hpp"
#include "core/withdraw/validate.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma::test {

namespace {

struct Breaking : PaymentBreak {
  WithdrawRequest& w;
  std::vector<std::string> broken;

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
    q.tx_values[b.j] = b.pick.pick(relation::same_residue_aliases(q.tx_values[b.j]));
    b.how = b.at("tx_values", b.j) + " += m*l";
  }
}

void break_r9w(Breaking& b) {
  WithdrawRequest& q = b.w;
  if (b.variant == 0) {
    const unsigned r = b.pick.other_than(q.k, b.j);
    q.tx_values[r] = Fr::from_u64(1 + b.pick.below(1000000));
    b.recommit(r);
    b.how = b.at("tx_values", r) + " := delta > 0, " + b.at("tx_commits", r) + " recomputed";
    b.broken = {"R9w", "R15w"};
  } else {
    const unsigned a = b.pick.below(q.k);
    q.tx_random_values[a] = relation::add_mod_l(q.tx_random_values[a], b.pick.nonzero_mod_l());
    b.recommit(a);
    b.how = b.at("tx_random_values", a) + " += delta, " + b.at("tx_commits", a) + " recomputed";
    b.broken = {"R9w", "R14"};
  }
}

void break_r15w(Breaking& b) {
  WithdrawRequest& q = b.w;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if (variant == 0 && q.k < 3) variant = 1;
  const unsigned a = b.pick.other_than(q.k, j);
  unsigned c = a;
  if (q.k >= 3) {
    while (c == a) c = b.pick.other_than(q.k, j);
  }
  if (variant == 0) {
    b.shift_tx_value(c, a, Fr::from_u64(1 + b.pick.below(1000000)), true);
    b.how = b.at("tx_values", a) + " += X, " + b.at("tx_values", c) +
            " -= X mod l, commitments recomputed";
  } else if (variant == 1) {
    q.tx_values[a] += relation::l_as_fr();
    b.how = b.at("tx_values", a) + " += l (same commitment)";
  } else {
    const unsigned n = std::min(4u, q.k - 1);
    const Fr part = *Fr::from_canonical(shr1(shr1(relation::l_as_fr().to_u256())));  // ~l/4
    Fr left = relation::l_as_fr();
    for (unsigned i = (j + 1) % q.k, given = 0; given < n; i = (i + 1) % q.k) {
      if (i == j) continue;
      q.tx_values[i] = ++given == n ? left : part;
      left -= q.tx_values[i];
      b.recommit(i);
    }
    b.how = std::to_string(n) + " other members share l, commitments recomputed";
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

using Breaker = void (*)(Breaking&);
struct RuleBreaker {
  std::string_view id;
  unsigned variants;
  Breaker breaker;
};

constexpr RuleBreaker kBreakers[] = {
    {"R1", kR1Variants, [](Breaking& b) { break_r1(b); }},
    {"R2w", 2, break_r2w},
    {"R3", kR3Variants, [](Breaking& b) { break_r3(b); }},
    {"R4", kR4Variants, [](Breaking& b) { break_r4(b); }},
    {"R5", kR5Variants, [](Breaking& b) { break_r5(b); }},
    {"R6", kR6Variants, [](Breaking& b) { break_r6(b); }},
    {"R7", kR7Variants, [](Breaking& b) { break_r7(b, /*balance_bounded=*/false); }},
    {"R8", kR8Variants, [](Breaking& b) { break_r8(b); }},
    {"R9w", 2, break_r9w},
    {"R12", kR12Variants, [](Breaking& b) { break_r12(b); }},
    {"R13", kR13PointVariants, [](Breaking& b) { break_r13_points(b); }},
    {"R14", kR14Variants, [](Breaking& b) { break_r14(b); }},
    {"R15w", 3, break_r15w},
    {"W1", 5, break_w1},
    {"W2", 2, break_w2},
    {"W3", 2, break_w3},
    {"W4", 2, break_w4},
    {"W5", 1, break_w5},
};

const RuleBreaker* find(std::string_view rule) {
  for (const RuleBreaker& r : kBreakers) {
    if (r.id == rule) return &r;
  }
  return nullptr;
}

}  // namespace

unsigned withdraw_rule_variants(std::string_view rule) {
  const RuleBreaker* r = find(rule);
  return r ? r->variants : 0;
}

Result<BrokenWithdraw> break_withdraw_rule(const WithdrawRequest& valid, std::string_view rule,
                                           uint64_t variant_seed) {
  const RuleBreaker* r = find(rule);
  if (!r) return make_error("no withdraw rule " + std::string(rule), "input", "rule");
  if (Status st = validate_withdraw(valid); !st) {
    return make_error("the request to break is not valid: " + st.error().message, "input",
                      st.error().field);
  }
  Picker pick(variant_seed / r->variants ^ rule_salt(rule));
  WithdrawRequest q = valid;
  Breaking b{{q, *payment::sender_index(valid), unsigned(variant_seed % r->variants), pick, {}},
             q,
             {std::string(rule)}};
  r->breaker(b);
  // The claim is checked, not trusted (a coincidence of hashes would show up here).
  const std::vector<std::string> failed = payment::failed_rule_ids(validate_withdraw_all(q));
  if (failed != b.broken) {
    std::string message = "breaking ";
    message.append(rule).append(" by ").append(b.how).append(
        " did not fail exactly the intended rules; failed:");
    for (const std::string& id : failed) message.append(" ").append(id);
    return make_error(std::move(message), "internal", "");
  }
  return BrokenWithdraw{std::move(q), std::move(b.broken), std::move(b.how)};
}

}  // namespace enygma::test
