#include "support/deposit_rule_breaker.hpp"

#include "core/deposit/validate.hpp"
#include "core/payment/relation.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma::test {

namespace {

struct Breaking : NamedRuleBreak {
  DepositRequest& d;

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
    break_sender_entry_by_alias(b);
  }
}

void break_r11(Breaking& b) {
  DepositRequest& q = b.d;
  unsigned variant = b.variant;
  if (variant == 3 && q.sender_tx_value.is_zero()) variant = 2;
  if (variant != 2) return break_r11_by_balance(b, variant);
  b.set_amount(q.previous_sender_balance + Fr::from_u64(1 + b.pick.below(1000)));
  b.how = "sender_tx_value := previous_sender_balance + delta, " + b.at("tx_values", b.j) +
          ", its commitment and hash recomputed";
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

constexpr RuleBreaker<Breaking> kBreakers[] = {
    {"R1", kR1Variants, [](Breaking& b) { break_r1(b); }},
    {"R2", 3, break_r2},
    {"R3", kR3Variants, [](Breaking& b) { break_r3(b); }},
    {"R4", kR4Variants, [](Breaking& b) { break_r4(b); }},
    {"R5", kR5Variants, [](Breaking& b) { break_r5(b); }},
    {"R6", kR6Variants, [](Breaking& b) { break_r6(b); }},
    {"R7", kR7Variants, [](Breaking& b) { break_r7(b, /*balance_bounded=*/true); }},
    {"R8", kR8Variants, [](Breaking& b) { break_r8(b); }},
    {"R9d", kR9OthersVariants, [](Breaking& b) { break_r9_others(b, "R9d", "R15d"); }},
    {"R11", 4, break_r11},
    {"R12", kR12Variants, [](Breaking& b) { break_r12(b); }},
    {"R13", kR13PointVariants, [](Breaking& b) { break_r13_points(b); }},
    {"R14", kR14Variants, [](Breaking& b) { break_r14(b); }},
    {"R15d", kR15NothingVariants, [](Breaking& b) { break_r15_nothing_to_others(b); }},
    {"R16", kR16Variants, [](Breaking& b) { break_r16(b); }},
    {"D1", 5, break_d1},
};

}  // namespace

unsigned deposit_rule_variants(std::string_view rule) {
  return rule_breaker_variants<Breaking>(kBreakers, rule);
}

Result<BrokenDeposit> break_deposit_rule(const DepositRequest& valid, std::string_view rule,
                                         uint64_t variant_seed) {
  return break_named_rule<Breaking>("deposit", kBreakers, &validate_deposit, &validate_deposit_all,
                                    valid, rule, variant_seed);
}

}  // namespace enygma::test
