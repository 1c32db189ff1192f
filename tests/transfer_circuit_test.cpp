// The transfer circuit: the reference requests and wallet requests for every k give satisfying
// witnesses whose public part is the request's public inputs; the R1CS is deterministic, its
// size is pinned for k = 2..16, and k = 6 fits the 2^15 domain with the public-input rows.
#include "core/transfer/transfer_circuit.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "core/circuit/builder.hpp"
#include "core/poly/evaluation_domain.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using test::load_request_vector;

// The witness satisfies the cached R1CS and starts with 1 and the public inputs.
void expect_satisfying_witness(const TransferRequest& req) {
  ASSERT_TRUE(validate_transfer(req).ok()) << validate_transfer(req).error().message;
  const R1cs& r1cs = transfer_r1cs(req.k);
  std::vector<Fr> w = transfer_witness(req);
  ASSERT_EQ(w.size(), r1cs.num_wires);
  EXPECT_EQ(w[0], Fr::one());
  const std::vector<Fr> pub = req.public_inputs();
  ASSERT_EQ(pub.size(), r1cs.num_public);
  ASSERT_EQ(pub.size(), 8 * req.k + 2);
  for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w[1 + i], pub[i]) << "public input " << i;
  const auto bad = r1cs.first_unsatisfied(w);
  EXPECT_EQ(bad, std::nullopt) << "k=" << req.k << ": " << first_violated_constraint(req);
}

TEST(TransferCircuit, ConcurrentFirstUseIsSafe) {
  // First in this file, so that nothing is cached yet: several threads build the same R1CS, the
  // fixed-base tables and witnesses at once.
  const unsigned k = 5;
  const TransferRequest req = make_transfer(wallet_inputs_from_seed(k, 77));
  std::vector<const R1cs*> seen(4);
  std::vector<std::vector<Fr>> witnesses(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      witnesses[t] = transfer_witness(req);
      seen[t] = &transfer_r1cs(k);
    });
  }
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < seen.size(); ++t) {
    EXPECT_EQ(seen[t], seen[0]);
    EXPECT_EQ(witnesses[t], witnesses[0]);
  }
  EXPECT_EQ(seen[0]->first_unsatisfied(witnesses[0]), std::nullopt);
}

TEST(TransferCircuit, ReferenceRequestsSatisfy) {
  expect_satisfying_witness(load_request_vector("transfer-k2.json", 2));
  expect_satisfying_witness(load_request_vector("transfer-k6.json", 6));
}

TEST(TransferCircuit, TheBadReferenceRequestDoesNotSatisfy) {
  // transfer-k2-bad.json breaks R2, R9 and R13 (tx_values[0] = 10); transfer-k6-bad.json is a
  // parse error (a non-canonical number), so it never reaches the circuit.
  const TransferRequest req = load_request_vector("transfer-k2-bad.json", 2);
  ASSERT_FALSE(validate_transfer(req).ok());
  std::vector<Fr> w = transfer_witness(req);
  EXPECT_TRUE(transfer_r1cs(2).first_unsatisfied(w).has_value());
  EXPECT_EQ(first_violated_constraint(req).rfind("R2/", 0), 0u) << first_violated_constraint(req);
}

TEST(TransferCircuit, WalletRequestsSatisfyForEveryK) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const uint64_t seeds[] = {k, 1000 + k};
    for (uint64_t seed : seeds) {
      SCOPED_TRACE(testing::Message() << "k=" << k << " seed=" << seed);
      expect_satisfying_witness(make_transfer(wallet_inputs_from_seed(k, seed)));
    }
  }
}

TEST(TransferCircuit, WalletEdgeValuesSatisfy) {
  // v = 0, v = V, V = 0, V = 2^250 - 1 among the wallet's first seeds (see wallet.hpp).
  for (uint64_t seed = 0; seed < 12; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed=" << seed);
    expect_satisfying_witness(make_transfer(wallet_inputs_from_seed(3, seed)));
  }
}

TEST(TransferCircuit, ModesAgreeAndTheShapeIsDeterministic) {
  const TransferRequest req = load_request_vector("transfer-k2.json", 2);
  circuit::CircuitBuilder both(circuit::BuildMode::kShapeAndWitness);
  define_transfer_circuit(both, 2, &req);
  EXPECT_EQ(both.first_violation(), std::nullopt);
  const R1cs r = both.take_r1cs();
  EXPECT_EQ(r.digest(), transfer_r1cs(2).digest());
  const auto w_both = both.take_witness();
  const std::vector<Fr> w = transfer_witness(req);
  ASSERT_EQ(w.size(), w_both.size());
  for (size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], w_both[i]) << i;
  // Every constraint is labelled with the rule it serves.
  ASSERT_EQ(r.labels.size(), r.num_constraints());
  for (const std::string& label : r.labels) {
    ASSERT_EQ(label[0], 'R') << label;
  }
}

TEST(TransferCircuit, MalformedRequestsGiveNoWitness) {
  TransferRequest req = make_transfer(wallet_inputs_from_seed(2, 1));
  req.tx_values.pop_back();
  EXPECT_TRUE(transfer_witness(req).empty());
  req.k = 17;
  EXPECT_TRUE(transfer_witness(req).empty());
}

// Pinned so that a change in any gadget is noticed (update with the reason when intended).
TEST(TransferCircuit, ConstraintCountsAreStable) {
  // 3,306 per participant + 3,734: R5 and R8 reductions (445 each), three Poseidons (240 +
  // 258 + 258), canonical bits of P (354), [P]H (513), [tv]G (505), 251 tv bits, R15's range
  // constraint (and one fixed for its sum), ...
  const size_t expected[kMaxK + 1] = {0,     0,     10346, 13652, 16958, 20264, 23570, 26876, 30182,
                                      33488, 36794, 40100, 43406, 46712, 50018, 53324, 56630};
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const TransferCircuitInfo info = transfer_circuit_info(k);
    EXPECT_EQ(info.k, k);
    EXPECT_EQ(info.public_inputs, 8 * k + 2);
    EXPECT_EQ(info.wires, info.public_inputs + info.private_wires + 1);
    EXPECT_EQ(info.constraints, expected[k]) << "k=" << k;
    EXPECT_GE(size_t(1) << info.fft_log_domain, info.constraints + info.public_inputs + 1);
    EXPECT_LT(size_t(1) << (info.fft_log_domain - 1), info.constraints + info.public_inputs + 1);
    EXPECT_EQ(info.domain_size,
              EvaluationDomain::size_for(info.constraints + info.public_inputs + 1));
  }
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    // The capacity hint covers the real sizes without much waste.
    const R1cs& r = transfer_r1cs(k);
    const auto hint = transfer_r1cs_size_hint(k);
    const size_t real[5] = {r.num_wires, r.num_constraints(), r.a.terms.size(), r.b.terms.size(),
                            r.c.terms.size()};
    const size_t hinted[5] = {hint.wires, hint.constraints, hint.terms_a, hint.terms_b,
                              hint.terms_c};
    for (int m = 0; m < 5; ++m) {
      EXPECT_GE(hinted[m], real[m]) << "k=" << k << " " << m;
      EXPECT_LE(hinted[m], real[m] + real[m] / 8) << "k=" << k << " " << m;
    }
  }
  // k = 6 fits 2^15 rows with one row per public input and one for the constant wire, and
  // 3 * 2^13 (this project's keys); k = 2 fits 3 * 2^12, k = 3 2^14; k = 16 fits 2^16.
  EXPECT_EQ(transfer_circuit_info(6).fft_log_domain, 15u);
  EXPECT_EQ(transfer_circuit_info(6).domain_size, size_t(3) << 13);
  EXPECT_EQ(transfer_circuit_info(2).domain_size, size_t(3) << 12);
  EXPECT_EQ(transfer_circuit_info(3).domain_size, size_t(1) << 14);
  EXPECT_LE(transfer_circuit_info(16).fft_log_domain, 16u);
}

}  // namespace
}  // namespace enygma
