// The deposit circuit (../shared/docs/deposit-relation.md): the specification's vectors
// validate, their witnesses satisfy the R1CS and their public inputs, printed as decimal
// strings, are the vectors' public_signal; each bad vector is refused naming exactly its rule;
// wallet requests satisfy for every k = 2..16; the family is registered as the shells expect;
// the R1CS is deterministic, labelled with rule ids, and its size is pinned for k = 2..16.
#include "core/deposit/deposit_circuit.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "core/deposit/request.hpp"
#include "core/deposit/validate.hpp"
#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/payment/wallet.hpp"
#include "core/registry/registry.hpp"
#include "support/payment_circuit_checks.hpp"
#include "support/payment_families.hpp"

namespace enygma {
namespace {

const test::PaymentCircuitUnderTest<DepositRequest>& kDeposit = test::deposit_under_test();

TEST(DepositCircuit, VectorsSatisfyAndGiveTheirPublicSignal) {
  for (const auto& [name, k] : {std::pair{"deposit-k2", 2u}, {"deposit-k6", 6u}}) {
    SCOPED_TRACE(name);
    test::expect_vector_gives_its_public_signal(kDeposit, name, k);
  }
}

TEST(DepositCircuit, BadVectorsAreRefusedNamingExactlyTheirRule) {
  for (const auto& [name, k, rule] :
       {std::tuple{"deposit-k2-bad.json", 2u, "R12"}, {"deposit-k6-bad.json", 6u, "R15d"}}) {
    SCOPED_TRACE(name);
    test::expect_bad_vector_refused(kDeposit, name, k, rule, '/');
  }
  EXPECT_EQ(validate_deposit(kDeposit.load("deposit-k6-bad.json", 6)).error().message,
            "R15d: tx_values[1] is not 0: a deposit pays no other member");
}

TEST(DepositCircuit, WalletRequestsSatisfyForEveryK) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    for (uint64_t seed : {uint64_t(k), uint64_t(1000 + k)}) {
      SCOPED_TRACE(testing::Message() << "k=" << k << " seed=" << seed);
      test::expect_satisfying_witness(kDeposit, test::deposit_wallet_request(k, seed));
    }
  }
}

TEST(DepositCircuit, WalletEdgeValuesSatisfy) {
  // v = 0, v = V, V = 0, V = 2^250 - 1 (v capped below 10^36) among the first seeds, and notes
  // to the sender's own key.
  bool zero = false, capped = false, own = false;
  for (uint64_t seed = 0; seed < 32; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed=" << seed);
    const DepositRequest req = test::deposit_wallet_request(3, seed);
    test::expect_satisfying_witness(kDeposit, req);
    zero = zero || req.sender_tx_value.is_zero();
    capped = capped || req.sender_tx_value + Fr::one() == relation::note_amount_bound();
    own = own || req.note_public_key == req.public_keys[*payment::sender_index(req)];
  }
  EXPECT_TRUE(zero) << "no v = 0";
  EXPECT_TRUE(capped) << "no v = 10^36 - 1";
  EXPECT_TRUE(own) << "no note to the sender";
}

TEST(DepositCircuit, FamilyIsRegisteredWithTheReferenceRoutes) {
  test::expect_registered(kDeposit, "/generateProofDeposit-6", "/verifyProofDeposit-6");
  // make_request: count is the notes created, always one.
  const CircuitFamily& family = kDeposit.family();
  const auto seed = payment::seed_from_u64(9);
  EXPECT_EQ(*family.make_request(4, seed, 0), *family.make_request(4, seed, 1));
  EXPECT_EQ(family.make_request(4, seed, 2).error().rule, "wallet");
  EXPECT_EQ(family.make_request(17, seed, 0).error().field, "k");
  test::expect_family_functions_agree(kDeposit, "R12", "R12/nf == Poseidon(hs[j], b)");
}

TEST(DepositCircuit, ModesAgreeAndTheShapeIsDeterministic) {
  test::expect_modes_agree(kDeposit, kDeposit.load("deposit-k2.json", 2));
}

TEST(DepositCircuit, MalformedRequestsGiveNoWitness) {
  DepositRequest req = test::deposit_wallet_request(2, 1);
  req.tx_values.pop_back();
  EXPECT_TRUE(deposit_witness(req).empty());
  EXPECT_EQ(first_violated_deposit_constraint(req), "input shape");
  EXPECT_EQ(validate_deposit(req).error().rule, "input");
  req.k = 17;
  EXPECT_TRUE(deposit_witness(req).empty());
}

// Pinned so that a change in any gadget is noticed (update with the reason when intended).
TEST(DepositCircuit, ConstraintCountsAreStable) {
  // 2,538 per participant + 4,972: per member the transfer's R5, R8 and R14 hashes and
  // reductions, [P]H and the R1/R3/R13 selections, without the transfer's tv bits and [tv]G;
  // fixed: R4, R6, R7, R11, R12, one [v]G and D1's three Poseidons.
  const size_t expected[kMaxK + 1] = {0,     0,     10048, 12586, 15124, 17662, 20200, 22738, 25276,
                                      27814, 30352, 32890, 35428, 37966, 40504, 43042, 45580};
  test::expect_constraint_counts(kDeposit, expected);
  // The size goal at k = 6 (issue 18), and the FFT domains: 2^14 up to k = 4, 2^15 up to
  // k = 10, 2^16 up to 16.
  EXPECT_LE(circuit_info(*find_circuit("deposit", 6)).constraints, 23000u);
  EXPECT_EQ(circuit_info(*find_circuit("deposit", 4)).fft_log_domain, 14u);
  EXPECT_EQ(circuit_info(*find_circuit("deposit", 10)).fft_log_domain, 15u);
  EXPECT_EQ(circuit_info(*find_circuit("deposit", 16)).fft_log_domain, 16u);
}

}  // namespace
}  // namespace enygma
