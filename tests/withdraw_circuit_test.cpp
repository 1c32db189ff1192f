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

#include "core/payment/relation.hpp"
#include "core/payment/wallet.hpp"
#include "core/registry/registry.hpp"
#include "core/withdraw/request.hpp"
#include "core/withdraw/validate.hpp"
#include "support/payment_circuit_checks.hpp"
#include "support/payment_families.hpp"

namespace enygma {
namespace {

const test::PaymentCircuitUnderTest<WithdrawRequest>& kWithdraw = test::withdraw_under_test();

TEST(WithdrawCircuit, VectorsSatisfyAndGiveTheirPublicSignal) {
  for (const auto& [name, k] : {std::pair{"withdraw-k2", 2u}, {"withdraw-k6", 6u}}) {
    SCOPED_TRACE(name);
    test::expect_vector_gives_its_public_signal(kWithdraw, name, k);
  }
}

TEST(WithdrawCircuit, BadVectorsAreRefusedNamingExactlyTheirRule) {
  for (const auto& [name, k, rule] :
       {std::tuple{"withdraw-k2-bad.json", 2u, "W3"}, {"withdraw-k6-bad.json", 6u, "W1"}}) {
    SCOPED_TRACE(name);
    test::expect_bad_vector_refused(kWithdraw, name, k, rule, ' ');
  }
  EXPECT_EQ(validate_withdraw(kWithdraw.load("withdraw-k2-bad.json", 2)).error().message,
            "W3: sender_tx_value is not the sum of v_per_deposit");
  EXPECT_EQ(validate_withdraw(kWithdraw.load("withdraw-k6-bad.json", 6)).error().message,
            "W1: hashes[1] is not Note(PK(sk_deposits[1]), saltsIn[1], v_per_deposit[1], "
            "address)");
}

TEST(WithdrawCircuit, WalletRequestsSatisfyForEveryK) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const uint64_t seed = 1000 + k;
    const unsigned notes = 1 + k % 10;
    SCOPED_TRACE(testing::Message() << "k=" << k << " seed=" << seed << " notes=" << notes);
    test::expect_satisfying_witness(kWithdraw, test::withdraw_wallet_request(k, seed, notes));
  }
}

TEST(WithdrawCircuit, WalletRequestsWithZeroToTenNotes) {
  bool zero_amount_note = false, largest_amount = false, slot_after_an_unused_one = false;
  for (unsigned notes = 0; notes <= kNoteSlots; ++notes) {
    for (uint64_t seed : {uint64_t(notes), uint64_t(100 + notes)}) {
      SCOPED_TRACE(testing::Message() << "notes=" << notes << " seed=" << seed);
      const WithdrawRequest req = test::withdraw_wallet_request(3, seed, notes);
      test::expect_satisfying_witness(kWithdraw, req);
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
  test::expect_registered(kWithdraw, "/generateProofWithdraw-6", "/verifyProofWithdraw-6");
  // make_request: count is the number of notes consumed (0: one).
  const CircuitFamily& family = kWithdraw.family();
  const auto seed = payment::seed_from_u64(9);
  for (unsigned count = 0; count <= kNoteSlots; ++count) {
    auto text = family.make_request(4, seed, count);
    ASSERT_TRUE(text.ok()) << text.error().message;
    auto req = parse_withdraw_request(*text, 4);
    ASSERT_TRUE(req.ok());
    EXPECT_EQ(unsigned(std::count_if(req->hashes.begin(), req->hashes.end(),
                                     [](const Fr& h) { return !h.is_zero(); })),
              count == 0 ? 1u : count);
  }
  EXPECT_EQ(family.make_request(4, seed, 11).error().rule, "wallet");
  EXPECT_EQ(family.make_request(1, seed, 1).error().field, "k");
  test::expect_family_functions_agree(kWithdraw, "W3", "W3 v == sum of v_per_deposit");
}

TEST(WithdrawCircuit, ModesAgreeAndTheShapeIsDeterministic) {
  test::expect_modes_agree(kWithdraw, kWithdraw.load("withdraw-k2.json", 2));
}

TEST(WithdrawCircuit, MalformedRequestsGiveNoWitness) {
  const WithdrawRequest valid = test::withdraw_wallet_request(2, 1, 2);
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
  // 2,538 per participant (as the deposit circuit) + 19,597: R4, R6, R7 (canonical V, R below l),
  // R12, [v]G over 123 bits, and the ten note slots (per slot: PK's Poseidon and exact
  // reduction, three Poseidons, the 120-bit bound walk, the zero test; W5's 45 pairs).
  const size_t expected[kMaxK + 1] = {0,     0,     24673, 27211, 29749, 32287, 34825, 37363, 39901,
                                      42439, 44977, 47515, 50053, 52591, 55129, 57667, 60205};
  test::expect_constraint_counts(kWithdraw, expected);
  // The size goal at k = 6 (issue 18), and the FFT domains: 2^15 up to k = 5, 2^16 from 6.
  EXPECT_LE(circuit_info(*find_circuit("withdraw", 6)).constraints, 38000u);
  EXPECT_EQ(circuit_info(*find_circuit("withdraw", 5)).fft_log_domain, 15u);
  EXPECT_EQ(circuit_info(*find_circuit("withdraw", 6)).fft_log_domain, 16u);
  EXPECT_EQ(circuit_info(*find_circuit("withdraw", 16)).fft_log_domain, 16u);
}

}  // namespace
}  // namespace enygma
