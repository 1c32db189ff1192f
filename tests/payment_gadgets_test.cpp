// The shared payment layer on its own: the gadgets of core/payment/gadgets.hpp against the
// native formulas of relation.hpp (on random values and at the edges of the exact reduction),
// the R2 and R15 forms satisfied exactly when their statements hold, and the rule table's
// handling of R1 failing (rules that need the sender index are skipped).
#include <gtest/gtest.h>

#include "core/circuit/builder.hpp"
#include "core/payment/gadgets.hpp"
#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"
#include "support/test_rng.hpp"

namespace enygma {
namespace {

using circuit::BuildMode;
using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::Var;

// floor(x / l) for the canonical integer of x: the quotient of the exact reduction, 0..7.
unsigned quotient_mod_l(const Fr& x) {
  U256 rest = x.to_u256();
  unsigned q = 0;
  while (cmp(rest, babyjubjub::subgroup_order()) >= 0) {
    sub_borrow(rest, rest, babyjubjub::subgroup_order());
    ++q;
  }
  return q;
}

TEST(PaymentGadgets, SpendKeyIsPoseidonModLExactlyAtEveryQuotient) {
  test::TestRng rng(1);
  bool seen[8] = {};
  for (int n = 0; n < 128; ++n) {
    const Fr sk = rng.field<Fr>();
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    const Var w = b.private_wire(sk);
    const Lc pk = payment::spend_key(b, w);
    EXPECT_EQ(pk.value(), relation::public_key(sk));
    EXPECT_EQ(b.first_violation(), std::nullopt) << b.first_violation_label();
    seen[quotient_mod_l(poseidon(sk, sk))] = true;
  }
  for (unsigned q = 0; q < 8; ++q) EXPECT_TRUE(seen[q]) << "no hash with quotient " << q;
}

TEST(PaymentGadgets, NoteHashIsTheNativeNote) {
  test::TestRng rng(2);
  for (int n = 0; n < 8; ++n) {
    const Fr pk = rng.field<Fr>(), salt = rng.field<Fr>(), amount = Fr::from_u64(rng.next()),
             address = Fr::from_u64(rng.next());
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    const Lc h = payment::note_hash(b, b.private_wire(pk), b.private_wire(salt),
                                    b.private_wire(amount), b.private_wire(address));
    EXPECT_EQ(h.value(), relation::note_hash(pk, salt, amount, address));
    EXPECT_EQ(h.value(), poseidon(poseidon(poseidon(pk, salt), amount), address));
    EXPECT_EQ(b.first_violation(), std::nullopt);
  }
}

// sel for sender j among k, built from the R1 gadget (anonymity-set ids 100 + i).
struct Selection {
  std::vector<Var> sel;
};
Selection select(CircuitBuilder& b, unsigned k, unsigned j) {
  std::vector<Var> as;
  for (unsigned i = 0; i < k; ++i) as.push_back(b.private_wire(Fr::from_u64(100 + i)));
  const Var id = b.private_wire(Fr::from_u64(100 + j));
  return {payment::select_sender(b, as, id)};
}

TEST(PaymentGadgets, SenderDebitIsLMinusVModL) {
  const Fr l = relation::l_as_fr();
  for (const Fr& v : {Fr::zero(), Fr::one(), Fr::from_u64(50), relation::pow2(250) - Fr::one()}) {
    for (bool honest : {true, false}) {
      CircuitBuilder b(BuildMode::kShapeAndWitness);
      const Selection s = select(b, 3, 1);
      const Fr entry = relation::sender_tx_value_entry(v);
      EXPECT_EQ(entry, v.is_zero() ? Fr::zero() : l - v);
      // tv[1] is the sender's entry, or its alias + l when not honest.
      std::vector<Lc> tv = {Lc(b.private_wire(Fr::zero())),
                            Lc(b.private_wire(honest ? entry : entry + l)),
                            Lc(b.private_wire(Fr::zero()))};
      const Lc value = Lc(b.private_wire(v));
      const Lc returned = payment::enforce_sender_debit(b, s.sel, tv, value);
      EXPECT_EQ(returned.value(), entry);
      EXPECT_EQ(b.first_violation().has_value(), !honest);
      if (!honest) {
        EXPECT_EQ(b.first_violation_label().rfind("R2/", 0), 0u);
      }
    }
  }
}

TEST(PaymentGadgets, OthersReceiveNothingExactlyWhenTheirValuesAreZero) {
  for (const char* rule : {"R15d", "R15w"}) {
    for (unsigned who : {0u, 1u, 2u, 3u}) {  // 3: nobody else receives anything
      CircuitBuilder b(BuildMode::kShapeAndWitness);
      const Selection s = select(b, 3, 1);
      std::vector<Lc> tv;
      for (unsigned i = 0; i < 3; ++i) {
        // The sender's entry is anything; a member `who` != sender receives l (0 mod l).
        const Fr value = i == 1 ? Fr::from_u64(7) : (i == who ? relation::l_as_fr() : Fr::zero());
        tv.push_back(b.private_wire(value));
      }
      payment::enforce_others_receive_nothing(b, s.sel, tv, rule);
      const bool violated = who != 1 && who != 3;
      EXPECT_EQ(b.first_violation().has_value(), violated) << rule << " " << who;
      if (violated) {
        EXPECT_EQ(b.first_violation_label().rfind(std::string(rule) + "/", 0), 0u);
      }
    }
  }
}

// Set by the test rule below that needs the sender index (a rule is a plain function pointer).
bool sender_rule_ran = false;

TEST(PaymentGadgets, RuleTableSkipsSenderRulesWhenR1Fails) {
  PaymentRequest q;
  q.k = 2;
  q.shared_secrets = q.tx_values = q.tx_random_values = q.hashed_shared_secrets = q.public_keys =
      q.message_tags = std::vector<Fr>(2, Fr::zero());
  q.previous_commits = q.tx_commits = std::vector<BjjPoint>(2, babyjubjub::identity());
  q.anonymity_set = {Fr::from_u64(1), Fr::from_u64(2)};
  q.sender_id = Fr::from_u64(3);  // in no entry: R1 fails, j is undefined
  sender_rule_ran = false;
  const payment::Rule<PaymentRequest> rules[] = {
      {"R1", false, [](const PaymentRequest& r, unsigned) { return payment::check_r1(r); }},
      {"R4", true,
       [](const PaymentRequest&, unsigned) -> payment::Check {
         sender_rule_ran = true;
         return std::nullopt;
       }},
      {"R3", false, [](const PaymentRequest& r, unsigned) { return payment::check_r3(r); }},
  };
  const auto errors = payment::check_rules<PaymentRequest>(
      q, [](const PaymentRequest& r) { return payment::check_payment_shape(r); }, rules, false);
  EXPECT_EQ(payment::failed_rule_ids(errors), std::vector<std::string>{"R1"});
  EXPECT_EQ(errors[0].message, "R1: sender_id is not in anonymity_set");
  EXPECT_FALSE(sender_rule_ran);
  q.tx_values.pop_back();
  const auto shape = payment::check_rules<PaymentRequest>(
      q, [](const PaymentRequest& r) { return payment::check_payment_shape(r); }, rules, false);
  ASSERT_EQ(shape.size(), 1u);
  EXPECT_EQ(shape[0].rule, "input");
  EXPECT_EQ(shape[0].field, "tx_values");
}

}  // namespace
}  // namespace enygma
