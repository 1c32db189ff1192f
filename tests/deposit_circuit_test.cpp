// The deposit circuit (../shared/docs/deposit-relation.md): the specification's vectors
// validate, their witnesses satisfy the R1CS and their public inputs, printed as decimal
// strings, are the vectors' public_signal; each bad vector is refused naming exactly its rule;
// wallet requests satisfy for every k = 2..16; the family is registered as the shells expect;
// the R1CS is deterministic, labelled with rule ids, and its size is pinned for k = 2..16.
#include "core/deposit/deposit_circuit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "core/circuit/builder.hpp"
#include "core/deposit/deposit_family.hpp"
#include "core/deposit/request.hpp"
#include "core/deposit/validate.hpp"
#include "core/deposit/wallet.hpp"
#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/payment/wallet.hpp"
#include "core/registry/registry.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

DepositRequest load(const std::string& name, unsigned k) {
  return test::load_vector<DepositRequest>(name, k, &parse_deposit_request);
}

const R1cs& r1cs_for(unsigned k) {
  return circuit_r1cs(*find_circuit("deposit", k));
}

DepositRequest wallet_request(unsigned k, uint64_t seed) {
  auto q = make_deposit_checked(deposit_inputs_from_seed(k, payment::seed_from_u64(seed)));
  EXPECT_TRUE(q.ok()) << q.error().message;
  return q.ok() ? std::move(q).value() : DepositRequest{};
}

// The witness satisfies the cached R1CS and starts with 1 and the public inputs.
void expect_satisfying_witness(const DepositRequest& req) {
  ASSERT_TRUE(validate_deposit(req).ok()) << validate_deposit(req).error().message;
  const R1cs& r1cs = r1cs_for(req.k);
  std::vector<Fr> w = deposit_witness(req);
  ASSERT_EQ(w.size(), r1cs.num_wires);
  EXPECT_EQ(w[0], Fr::one());
  const std::vector<Fr> pub = req.public_inputs();
  ASSERT_EQ(pub.size(), r1cs.num_public);
  ASSERT_EQ(pub.size(), 8 * req.k + 3);
  for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w[1 + i], pub[i]) << "public input " << i;
  EXPECT_EQ(r1cs.first_unsatisfied(w), std::nullopt)
      << "k=" << req.k << ": " << first_violated_deposit_constraint(req);
}

TEST(DepositCircuit, VectorsSatisfyAndGiveTheirPublicSignal) {
  for (const auto& [name, k] : {std::pair{"deposit-k2", 2u}, {"deposit-k6", 6u}}) {
    SCOPED_TRACE(name);
    const DepositRequest req = load(std::string(name) + ".json", k);
    expect_satisfying_witness(req);
    const std::vector<std::string> expected =
        test::load_public_signal(std::string(name) + ".public_signal.json");
    EXPECT_EQ(expected.size(), 8 * k + 3);
    EXPECT_EQ(test::decimal_strings(req.public_inputs()), expected);
  }
}

TEST(DepositCircuit, BadVectorsAreRefusedNamingExactlyTheirRule) {
  for (const auto& [name, k, rule] :
       {std::tuple{"deposit-k2-bad.json", 2u, "R12"}, {"deposit-k6-bad.json", 6u, "R15d"}}) {
    SCOPED_TRACE(name);
    const DepositRequest req = load(name, k);
    const std::vector<Error> errors = validate_deposit_all(req);
    ASSERT_EQ(payment::failed_rule_ids(errors), std::vector<std::string>{rule});
    EXPECT_EQ(errors[0].message.rfind(std::string(rule) + ": " + errors[0].field, 0), 0u)
        << errors[0].message;
    // Validation bypassed: the witness fails, first at a constraint of that rule.
    const std::vector<Fr> w = deposit_witness(req);
    EXPECT_TRUE(r1cs_for(k).first_unsatisfied(w).has_value());
    EXPECT_EQ(first_violated_deposit_constraint(req).rfind(std::string(rule) + "/", 0), 0u)
        << first_violated_deposit_constraint(req);
  }
  EXPECT_EQ(validate_deposit(load("deposit-k6-bad.json", 6)).error().message,
            "R15d: tx_values[1] is not 0: a deposit pays no other member");
}

TEST(DepositCircuit, WalletRequestsSatisfyForEveryK) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    for (uint64_t seed : {uint64_t(k), uint64_t(1000 + k)}) {
      SCOPED_TRACE(testing::Message() << "k=" << k << " seed=" << seed);
      expect_satisfying_witness(wallet_request(k, seed));
    }
  }
}

TEST(DepositCircuit, WalletEdgeValuesSatisfy) {
  // v = 0, v = V, V = 0, V = 2^250 - 1 (v capped below 10^36) among the first seeds, and notes
  // to the sender's own key.
  bool zero = false, capped = false, own = false;
  for (uint64_t seed = 0; seed < 32; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed=" << seed);
    const DepositRequest req = wallet_request(3, seed);
    expect_satisfying_witness(req);
    zero = zero || req.sender_tx_value.is_zero();
    capped = capped || req.sender_tx_value + Fr::one() == relation::note_amount_bound();
    own = own || req.note_public_key == req.public_keys[*payment::sender_index(req)];
  }
  EXPECT_TRUE(zero) << "no v = 0";
  EXPECT_TRUE(capped) << "no v = 10^36 - 1";
  EXPECT_TRUE(own) << "no note to the sender";
}

TEST(DepositCircuit, FamilyIsRegisteredWithTheReferenceRoutes) {
  const CircuitFamily* f = find_circuit_family("deposit");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f, &deposit_family());
  EXPECT_EQ(find_circuit("deposit", 6)->prove_route(), "/generateProofDeposit-6");
  EXPECT_EQ(find_circuit("deposit", 6)->verify_route(), "/verifyProofDeposit-6");
  EXPECT_EQ(f->min_k, 2u);
  EXPECT_EQ(f->max_k, 16u);
  EXPECT_EQ(f->default_min_k, 2u);
  EXPECT_EQ(f->default_max_k, 6u);
  // make_request: count is the notes created, always one.
  const auto seed = payment::seed_from_u64(9);
  EXPECT_EQ(*f->make_request(4, seed, 0), *f->make_request(4, seed, 1));
  EXPECT_EQ(f->make_request(4, seed, 2).error().rule, "wallet");
  EXPECT_EQ(f->make_request(17, seed, 0).error().field, "k");
  // The family's functions agree with the folder's.
  const std::string text = test::read_vector("deposit-k2.json");
  auto w = f->witness(text, 2);
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(*w, deposit_witness(load("deposit-k2.json", 2)));
  const std::string bad = test::read_vector("deposit-k2-bad.json");
  EXPECT_EQ(f->witness(bad, 2).error().rule, "R12");
  EXPECT_EQ(*f->first_violation(bad, 2), "R12/nf == Poseidon(hs[j], b)");
  ASSERT_EQ(f->validate_all(bad, 2).size(), 1u);
}

TEST(DepositCircuit, ModesAgreeAndTheShapeIsDeterministic) {
  const DepositRequest req = load("deposit-k2.json", 2);
  circuit::CircuitBuilder both(circuit::BuildMode::kShapeAndWitness);
  define_deposit_circuit(both, 2, &req);
  EXPECT_EQ(both.first_violation(), std::nullopt);
  const R1cs r = both.take_r1cs();
  EXPECT_EQ(r.digest(), r1cs_for(2).digest());
  EXPECT_EQ(r.digest(), deposit_family().build_r1cs(2).digest());
  EXPECT_EQ(both.take_witness(), deposit_witness(req));
  // Every constraint is labelled with a rule id of the deposit relation.
  const std::vector<std::string_view> ids = deposit_rule_ids();
  ASSERT_EQ(r.labels.size(), r.num_constraints());
  for (const std::string& label : r.labels) {
    const std::string id = label.substr(0, label.find_first_of(" /"));
    ASSERT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << label;
  }
}

TEST(DepositCircuit, MalformedRequestsGiveNoWitness) {
  DepositRequest req = wallet_request(2, 1);
  req.tx_values.pop_back();
  EXPECT_TRUE(deposit_witness(req).empty());
  EXPECT_EQ(first_violated_deposit_constraint(req), "input shape");
  EXPECT_EQ(validate_deposit(req).error().rule, "input");
  req.k = 17;
  EXPECT_TRUE(deposit_witness(req).empty());
}

// Pinned so that a change in any gadget is noticed (update with the reason when intended).
TEST(DepositCircuit, ConstraintCountsAreStable) {
  // 2,538 per participant + 4,969: per member the transfer's R5, R8 and R14 hashes and
  // reductions, [P]H and the R1/R3/R13 selections, without the transfer's tv bits and [tv]G;
  // fixed: R4, R6, R7, R11, R12, one [v]G and D1's three Poseidons.
  const size_t expected[kMaxK + 1] = {0,     0,     10045, 12583, 15121, 17659, 20197, 22735, 25273,
                                      27811, 30349, 32887, 35425, 37963, 40501, 43039, 45577};
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const CircuitInfo info = circuit_info(*find_circuit("deposit", k));
    EXPECT_EQ(info.public_inputs, 8 * k + 3);
    EXPECT_EQ(info.wires, info.public_inputs + info.private_wires + 1);
    EXPECT_EQ(info.constraints, expected[k]) << "k=" << k;
    // The capacity hint covers the real sizes without much waste.
    const R1cs& r = r1cs_for(k);
    const auto hint = deposit_r1cs_size_hint(k);
    const size_t real[5] = {r.num_wires, r.num_constraints(), r.a.terms.size(), r.b.terms.size(),
                            r.c.terms.size()};
    const size_t hinted[5] = {hint.wires, hint.constraints, hint.terms_a, hint.terms_b,
                              hint.terms_c};
    for (int m = 0; m < 5; ++m) {
      EXPECT_GE(hinted[m], real[m]) << "k=" << k << " " << m;
      EXPECT_LE(hinted[m], real[m] + real[m] / 8) << "k=" << k << " " << m;
    }
  }
  // The size goal at k = 6 (issue 18), and the FFT domains: 2^14 up to k = 4, 2^15 up to
  // k = 10, 2^16 up to 16.
  EXPECT_LE(circuit_info(*find_circuit("deposit", 6)).constraints, 23000u);
  EXPECT_EQ(circuit_info(*find_circuit("deposit", 4)).fft_log_domain, 14u);
  EXPECT_EQ(circuit_info(*find_circuit("deposit", 10)).fft_log_domain, 15u);
  EXPECT_EQ(circuit_info(*find_circuit("deposit", 16)).fft_log_domain, 16u);
}

}  // namespace
}  // namespace enygma
