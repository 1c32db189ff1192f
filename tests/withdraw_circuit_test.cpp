// The withdraw circuit (../shared/docs/withdraw-relation.md): the specification's vectors
// validate, their witnesses satisfy the R1CS and their public inputs, printed as decimal
// strings, are the vectors' public_signal; each bad vector is refused naming exactly its rule;
// wallet requests with 0..10 notes (real notes of amount 0 among them, in any slots) satisfy
// for every k = 2..16; the family is registered as the shells expect; the R1CS is
// deterministic, labelled with rule ids, and its size is pinned for k = 2..16.
#include "core/withdraw/withdraw_circuit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "core/circuit/builder.hpp"
#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/payment/wallet.hpp"
#include "core/registry/registry.hpp"
#include "core/withdraw/request.hpp"
#include "core/withdraw/validate.hpp"
#include "core/withdraw/wallet.hpp"
#include "core/withdraw/withdraw_family.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

WithdrawRequest load(const std::string& name, unsigned k) {
  return test::load_vector<WithdrawRequest>(name, k, &parse_withdraw_request);
}

const R1cs& r1cs_for(unsigned k) {
  return circuit_r1cs(*find_circuit("withdraw", k));
}

WithdrawRequest wallet_request(unsigned k, uint64_t seed, unsigned notes) {
  auto q = make_withdraw_checked(withdraw_inputs_from_seed(k, payment::seed_from_u64(seed), notes));
  EXPECT_TRUE(q.ok()) << q.error().message;
  return q.ok() ? std::move(q).value() : WithdrawRequest{};
}

// The witness satisfies the cached R1CS and starts with 1 and the public inputs.
void expect_satisfying_witness(const WithdrawRequest& req) {
  ASSERT_TRUE(validate_withdraw(req).ok()) << validate_withdraw(req).error().message;
  const R1cs& r1cs = r1cs_for(req.k);
  std::vector<Fr> w = withdraw_witness(req);
  ASSERT_EQ(w.size(), r1cs.num_wires);
  EXPECT_EQ(w[0], Fr::one());
  const std::vector<Fr> pub = req.public_inputs();
  ASSERT_EQ(pub.size(), r1cs.num_public);
  ASSERT_EQ(pub.size(), 8 * req.k + 12);
  for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w[1 + i], pub[i]) << "public input " << i;
  EXPECT_EQ(r1cs.first_unsatisfied(w), std::nullopt)
      << "k=" << req.k << ": " << first_violated_withdraw_constraint(req);
}

TEST(WithdrawCircuit, VectorsSatisfyAndGiveTheirPublicSignal) {
  for (const auto& [name, k] : {std::pair{"withdraw-k2", 2u}, {"withdraw-k6", 6u}}) {
    SCOPED_TRACE(name);
    const WithdrawRequest req = load(std::string(name) + ".json", k);
    expect_satisfying_witness(req);
    const std::vector<std::string> expected =
        test::load_public_signal(std::string(name) + ".public_signal.json");
    EXPECT_EQ(expected.size(), 8 * k + 12);
    EXPECT_EQ(test::decimal_strings(req.public_inputs()), expected);
  }
}

TEST(WithdrawCircuit, BadVectorsAreRefusedNamingExactlyTheirRule) {
  for (const auto& [name, k, rule] :
       {std::tuple{"withdraw-k2-bad.json", 2u, "W3"}, {"withdraw-k6-bad.json", 6u, "W1"}}) {
    SCOPED_TRACE(name);
    const WithdrawRequest req = load(name, k);
    const std::vector<Error> errors = validate_withdraw_all(req);
    ASSERT_EQ(payment::failed_rule_ids(errors), std::vector<std::string>{rule});
    EXPECT_EQ(errors[0].message.rfind(std::string(rule) + ": " + errors[0].field, 0), 0u)
        << errors[0].message;
    // Validation bypassed: the witness fails, first at a constraint of that rule.
    const std::vector<Fr> w = withdraw_witness(req);
    EXPECT_TRUE(r1cs_for(k).first_unsatisfied(w).has_value());
    EXPECT_EQ(first_violated_withdraw_constraint(req).rfind(std::string(rule) + " ", 0), 0u)
        << first_violated_withdraw_constraint(req);
  }
  EXPECT_EQ(validate_withdraw(load("withdraw-k2-bad.json", 2)).error().message,
            "W3: sender_tx_value is not the sum of v_per_deposit (the notes add up to 50, not "
            "1000050)");
  EXPECT_EQ(validate_withdraw(load("withdraw-k6-bad.json", 6)).error().message,
            "W1: hashes[1] is not Note(PK(sk_deposits[1]), saltsIn[1], v_per_deposit[1], "
            "address)");
}

TEST(WithdrawCircuit, WalletRequestsSatisfyForEveryK) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const uint64_t seed = 1000 + k;
    const unsigned notes = 1 + k % 10;
    SCOPED_TRACE(testing::Message() << "k=" << k << " seed=" << seed << " notes=" << notes);
    expect_satisfying_witness(wallet_request(k, seed, notes));
  }
}

TEST(WithdrawCircuit, WalletRequestsWithZeroToTenNotes) {
  bool zero_amount_note = false, largest_amount = false, slot_after_an_unused_one = false;
  for (unsigned notes = 0; notes <= kNoteSlots; ++notes) {
    for (uint64_t seed : {uint64_t(notes), uint64_t(100 + notes)}) {
      SCOPED_TRACE(testing::Message() << "notes=" << notes << " seed=" << seed);
      const WithdrawRequest req = wallet_request(3, seed, notes);
      expect_satisfying_witness(req);
      unsigned used = 0;
      for (unsigned d = 0; d < kNoteSlots; ++d) {
        if (req.hashes[d].is_zero()) {
          EXPECT_TRUE(req.v_per_deposit[d].is_zero() && req.sk_deposits[d].is_zero() &&
                      req.salts_in[d].is_zero());
          continue;
        }
        ++used;
        zero_amount_note = zero_amount_note || req.v_per_deposit[d].is_zero();
        largest_amount =
            largest_amount || req.v_per_deposit[d] + Fr::one() == relation::note_amount_bound();
        slot_after_an_unused_one =
            slot_after_an_unused_one || (d > 0 && req.hashes[d - 1].is_zero());
      }
      EXPECT_EQ(used, notes);
    }
  }
  EXPECT_TRUE(zero_amount_note) << "no real note of amount 0";
  EXPECT_TRUE(largest_amount) << "no note of 10^36 - 1";
  EXPECT_TRUE(slot_after_an_unused_one) << "real notes only in the first slots";
}

TEST(WithdrawCircuit, FamilyIsRegisteredWithTheReferenceRoutes) {
  const CircuitFamily* f = find_circuit_family("withdraw");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f, &withdraw_family());
  EXPECT_EQ(find_circuit("withdraw", 6)->prove_route(), "/generateProofWithdraw-6");
  EXPECT_EQ(find_circuit("withdraw", 6)->verify_route(), "/verifyProofWithdraw-6");
  EXPECT_EQ(f->min_k, 2u);
  EXPECT_EQ(f->max_k, 16u);
  EXPECT_EQ(f->default_min_k, 2u);
  EXPECT_EQ(f->default_max_k, 6u);
  // make_request: count is the number of notes consumed (0: one).
  const auto seed = payment::seed_from_u64(9);
  for (unsigned count = 0; count <= kNoteSlots; ++count) {
    auto text = f->make_request(4, seed, count);
    ASSERT_TRUE(text.ok()) << text.error().message;
    auto req = parse_withdraw_request(*text, 4);
    ASSERT_TRUE(req.ok());
    EXPECT_EQ(unsigned(std::count_if(req->hashes.begin(), req->hashes.end(),
                                     [](const Fr& h) { return !h.is_zero(); })),
              count == 0 ? 1u : count);
  }
  EXPECT_EQ(f->make_request(4, seed, 11).error().rule, "wallet");
  EXPECT_EQ(f->make_request(1, seed, 1).error().field, "k");
  // The family's functions agree with the folder's.
  auto w = f->witness(test::read_vector("withdraw-k2.json"), 2);
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(*w, withdraw_witness(load("withdraw-k2.json", 2)));
  const std::string bad = test::read_vector("withdraw-k2-bad.json");
  EXPECT_EQ(f->witness(bad, 2).error().rule, "W3");
  EXPECT_EQ(*f->first_violation(bad, 2), "W3 v == sum of v_per_deposit");
  ASSERT_EQ(f->validate_all(bad, 2).size(), 1u);
}

TEST(WithdrawCircuit, ModesAgreeAndTheShapeIsDeterministic) {
  const WithdrawRequest req = load("withdraw-k2.json", 2);
  circuit::CircuitBuilder both(circuit::BuildMode::kShapeAndWitness);
  define_withdraw_circuit(both, 2, &req);
  EXPECT_EQ(both.first_violation(), std::nullopt);
  const R1cs r = both.take_r1cs();
  EXPECT_EQ(r.digest(), r1cs_for(2).digest());
  EXPECT_EQ(r.digest(), withdraw_family().build_r1cs(2).digest());
  EXPECT_EQ(both.take_witness(), withdraw_witness(req));
  // Every constraint is labelled with a rule id of the withdraw relation.
  const std::vector<std::string_view> ids = withdraw_rule_ids();
  ASSERT_EQ(r.labels.size(), r.num_constraints());
  for (const std::string& label : r.labels) {
    const std::string id = label.substr(0, label.find_first_of(" /"));
    ASSERT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << label;
  }
}

TEST(WithdrawCircuit, MalformedRequestsGiveNoWitness) {
  const WithdrawRequest valid = wallet_request(2, 1, 2);
  WithdrawRequest short_salts = valid;
  short_salts.salts_in.pop_back();
  EXPECT_TRUE(withdraw_witness(short_salts).empty());
  EXPECT_EQ(first_violated_withdraw_constraint(short_salts), "input shape");
  EXPECT_EQ(validate_withdraw(short_salts).error().field, "saltsIn");
  WithdrawRequest short_tv = valid;
  short_tv.tx_values.pop_back();
  EXPECT_TRUE(withdraw_witness(short_tv).empty());
  EXPECT_EQ(validate_withdraw(short_tv).error().rule, "input");
  WithdrawRequest big_k = valid;
  big_k.k = 17;
  EXPECT_TRUE(withdraw_witness(big_k).empty());
}

// Pinned so that a change in any gadget is noticed (update with the reason when intended).
TEST(WithdrawCircuit, ConstraintCountsAreStable) {
  // 2,538 per participant (as the deposit circuit) + 19,594: R4, R6, R7 (canonical V and R),
  // R12, [v]G over 123 bits, and the ten note slots (per slot: PK's Poseidon and exact
  // reduction, three Poseidons, the 120-bit bound walk, the zero test; W5's 45 pairs).
  const size_t expected[kMaxK + 1] = {0,     0,     24670, 27208, 29746, 32284, 34822, 37360, 39898,
                                      42436, 44974, 47512, 50050, 52588, 55126, 57664, 60202};
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const CircuitInfo info = circuit_info(*find_circuit("withdraw", k));
    EXPECT_EQ(info.public_inputs, 8 * k + 12);
    EXPECT_EQ(info.wires, info.public_inputs + info.private_wires + 1);
    EXPECT_EQ(info.constraints, expected[k]) << "k=" << k;
    // The capacity hint covers the real sizes without much waste.
    const R1cs& r = r1cs_for(k);
    const auto hint = withdraw_r1cs_size_hint(k);
    const size_t real[5] = {r.num_wires, r.num_constraints(), r.a.terms.size(), r.b.terms.size(),
                            r.c.terms.size()};
    const size_t hinted[5] = {hint.wires, hint.constraints, hint.terms_a, hint.terms_b,
                              hint.terms_c};
    for (int m = 0; m < 5; ++m) {
      EXPECT_GE(hinted[m], real[m]) << "k=" << k << " " << m;
      EXPECT_LE(hinted[m], real[m] + real[m] / 8) << "k=" << k << " " << m;
    }
  }
  // The size goal at k = 6 (issue 18), and the FFT domains: 2^15 up to k = 5, 2^16 from 6.
  EXPECT_LE(circuit_info(*find_circuit("withdraw", 6)).constraints, 38000u);
  EXPECT_EQ(circuit_info(*find_circuit("withdraw", 5)).fft_log_domain, 15u);
  EXPECT_EQ(circuit_info(*find_circuit("withdraw", 6)).fft_log_domain, 16u);
  EXPECT_EQ(circuit_info(*find_circuit("withdraw", 16)).fft_log_domain, 16u);
}

}  // namespace
}  // namespace enygma
