#include "support/deposit_rule_breaker.hpp"

#include <algorithm>

#include "core/deposit/validate.hpp"
#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma::test {

namespace {

namespace bjj = babyjubjub;

struct Breaking : PaymentBreak {
  DepositRequest& d;
  std::vector<std::string> broken;

  // D1 after v or the opening changed.
  void rehash() {
    d.hash = relation::note_hash(d.note_public_key, d.salt_out, d.sender_tx_value, d.address);
  }
  // v := amount with R2 (tx_values[j], its commitment) and D1 following.
  void set_amount(const Fr& amount) {
    d.sender_tx_value = amount;
    d.tx_values[j] = relation::sender_tx_value_entry(amount);
    recommit(j);
    rehash();
  }
};

void break_r2(Breaking& b) {
  DepositRequest& q = b.d;
  const Fr& balance = q.previous_sender_balance;
  if (b.variant == 1 && !balance.is_zero()) {
    const bool up = cmp(q.sender_tx_value.to_u256(), balance.to_u256()) < 0;
    q.sender_tx_value += up ? Fr::one() : -Fr::one();
    b.rehash();  // tx_values[j] still debits the old amount
    b.how = std::string(up ? "sender_tx_value += 1" : "sender_tx_value -= 1") + ", hash recomputed";
  } else if (b.variant == 2) {
    q.tx_values[b.j] =
        relation::add_mod_l(q.tx_values[b.j], Fr::from_u64(1 + b.pick.below(1000000)));
    b.recommit(b.j);
    b.how = b.at("tx_values", b.j) + " += delta, " + b.at("tx_commits", b.j) + " recomputed";
  } else {
    q.tx_values[b.j] = b.pick.pick(relation::same_residue_aliases(q.tx_values[b.j]));
    b.how = b.at("tx_values", b.j) + " += m*l";
  }
}

void break_r9d(Breaking& b) {
  DepositRequest& q = b.d;
  if (b.variant == 0) {
    const unsigned r = b.pick.other_than(q.k, b.j);
    q.tx_values[r] = Fr::from_u64(1 + b.pick.below(1000000));
    b.recommit(r);
    b.how = b.at("tx_values", r) + " := delta > 0, " + b.at("tx_commits", r) + " recomputed";
    b.broken = {"R9d", "R15d"};
  } else {
    const unsigned a = b.pick.below(q.k);
    q.tx_random_values[a] = relation::add_mod_l(q.tx_random_values[a], b.pick.nonzero_mod_l());
    b.recommit(a);
    b.how = b.at("tx_random_values", a) + " += delta, " + b.at("tx_commits", a) + " recomputed";
    b.broken = {"R9d", "R14"};
  }
}

void break_r11(Breaking& b) {
  DepositRequest& q = b.d;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if (variant == 3 && q.sender_tx_value.is_zero()) variant = 2;
  if (variant == 0) {
    q.previous_sender_balance += relation::l_as_fr();
    b.how = "previous_sender_balance += l (same commitment)";
  } else if (variant == 1 || variant == 3) {
    q.previous_sender_balance = variant == 1 ? relation::pow2(250) : q.sender_tx_value - Fr::one();
    q.previous_commits[j] =
        bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value);
    b.how = std::string(variant == 1 ? "previous_sender_balance := 2^250"
                                     : "previous_sender_balance := sender_tx_value - 1") +
            ", " + b.at("previous_commits", j) + " recomputed";
  } else {
    b.set_amount(q.previous_sender_balance + Fr::from_u64(1 + b.pick.below(1000)));
    b.how = "sender_tx_value := previous_sender_balance + delta, " + b.at("tx_values", j) +
            ", its commitment and hash recomputed";
  }
}

void break_r15d(Breaking& b) {
  DepositRequest& q = b.d;
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
    // Up to four members share l: each amount alone is a plausible balance, the total is 0 mod
    // l, and nothing was paid for it.
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

void break_d1(Breaking& b) {
  DepositRequest& q = b.d;
  switch (b.variant) {
    case 0:
      q.hash += b.pick.nonzero_mod_l();
      b.how = "hash += delta";
      break;
    case 1:
      q.salt_out += Fr::one();
      b.how = "saltOut += 1, hash kept";
      break;
    case 2:
      q.address += Fr::one();
      b.how = "address += 1, hash kept";
      break;
    case 3:
      q.note_public_key = relation::public_key(b.pick.nonzero_mod_l());
      b.how = "pk := another owner's key, hash kept";
      break;
    default:
      q.hash = relation::note_hash(q.note_public_key, q.salt_out, q.sender_tx_value + Fr::one(),
                                   q.address);
      b.how = "hash := the note of sender_tx_value + 1";
  }
}

using Breaker = void (*)(Breaking&);
struct RuleBreaker {
  std::string_view id;
  unsigned variants;
  Breaker breaker;
};

constexpr RuleBreaker kBreakers[] = {
    {"R1", kR1Variants, [](Breaking& b) { break_r1(b); }},
    {"R2", 3, break_r2},
    {"R3", kR3Variants, [](Breaking& b) { break_r3(b); }},
    {"R4", kR4Variants, [](Breaking& b) { break_r4(b); }},
    {"R5", kR5Variants, [](Breaking& b) { break_r5(b); }},
    {"R6", kR6Variants, [](Breaking& b) { break_r6(b); }},
    {"R7", kR7Variants, [](Breaking& b) { break_r7(b, /*balance_bounded=*/true); }},
    {"R8", kR8Variants, [](Breaking& b) { break_r8(b); }},
    {"R9d", 2, break_r9d},
    {"R11", 4, break_r11},
    {"R12", kR12Variants, [](Breaking& b) { break_r12(b); }},
    {"R13", kR13PointVariants, [](Breaking& b) { break_r13_points(b); }},
    {"R14", kR14Variants, [](Breaking& b) { break_r14(b); }},
    {"R15d", 3, break_r15d},
    {"D1", 5, break_d1},
};

const RuleBreaker* find(std::string_view rule) {
  for (const RuleBreaker& r : kBreakers) {
    if (r.id == rule) return &r;
  }
  return nullptr;
}

}  // namespace

unsigned deposit_rule_variants(std::string_view rule) {
  const RuleBreaker* r = find(rule);
  return r ? r->variants : 0;
}

Result<BrokenDeposit> break_deposit_rule(const DepositRequest& valid, std::string_view rule,
                                         uint64_t variant_seed) {
  const RuleBreaker* r = find(rule);
  if (!r) return make_error("no deposit rule " + std::string(rule), "input", "rule");
  if (Status st = validate_deposit(valid); !st) {
    return make_error("the request to break is not valid: " + st.error().message, "input",
                      st.error().field);
  }
  Picker pick(variant_seed / r->variants ^ rule_salt(rule));
  DepositRequest q = valid;
  Breaking b{{q, *payment::sender_index(valid), unsigned(variant_seed % r->variants), pick, {}},
             q,
             {std::string(rule)}};
  r->breaker(b);
  // The claim is checked, not trusted (a coincidence of hashes would show up here).
  const std::vector<std::string> failed = payment::failed_rule_ids(validate_deposit_all(q));
  if (failed != b.broken) {
    std::string message = "breaking ";
    message.append(rule).append(" by ").append(b.how).append(
        " did not fail exactly the intended rules; failed:");
    for (const std::string& id : failed) message.append(" ").append(id);
    return make_error(std::move(message), "internal", "");
  }
  return BrokenDeposit{std::move(q), std::move(b.broken), std::move(b.how)};
}

}  // namespace enygma::test
