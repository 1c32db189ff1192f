// The deposit and withdraw families as the payment circuit checks take them
// (payment_circuit_checks.hpp), and their wallets' requests from a seed, for the circuit and
// soundness tests of both.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "core/deposit/deposit_circuit.hpp"
#include "core/deposit/deposit_family.hpp"
#include "core/deposit/request.hpp"
#include "core/deposit/validate.hpp"
#include "core/deposit/wallet.hpp"
#include "core/payment/wallet.hpp"
#include "core/withdraw/request.hpp"
#include "core/withdraw/validate.hpp"
#include "core/withdraw/wallet.hpp"
#include "core/withdraw/withdraw_circuit.hpp"
#include "core/withdraw/withdraw_family.hpp"
#include "support/deposit_rule_breaker.hpp"
#include "support/payment_circuit_checks.hpp"
#include "support/withdraw_rule_breaker.hpp"

namespace enygma::test {

inline const PaymentCircuitUnderTest<DepositRequest>& deposit_under_test() {
  static const PaymentCircuitUnderTest<DepositRequest> f{
      "deposit",
      1,  // hash
      &parse_deposit_request,
      &validate_deposit,
      &validate_deposit_all,
      &deposit_witness,
      &first_violated_deposit_constraint,
      &deposit_rule_ids,
      &define_deposit_circuit,
      &deposit_r1cs_size_hint,
      &deposit_family,
      &deposit_rule_variants,
      &break_deposit_rule,
  };
  return f;
}

inline const PaymentCircuitUnderTest<WithdrawRequest>& withdraw_under_test() {
  static const PaymentCircuitUnderTest<WithdrawRequest> f{
      "withdraw",
      kNoteSlots,  // hashes
      &parse_withdraw_request,
      &validate_withdraw,
      &validate_withdraw_all,
      &withdraw_witness,
      &first_violated_withdraw_constraint,
      &withdraw_rule_ids,
      &define_withdraw_circuit,
      &withdraw_r1cs_size_hint,
      &withdraw_family,
      &withdraw_rule_variants,
      &break_withdraw_rule,
  };
  return f;
}

// A wallet's request (a failed expectation and an empty request if the wallet refused).
template <class Request>
Request wallet_made(Result<Request> q) {
  EXPECT_TRUE(q.ok()) << q.error().message;
  return q.ok() ? std::move(q).value() : Request{};
}

// The deposit wallet's request from seed_from_u64(seed).
inline DepositRequest deposit_wallet_request(unsigned k, uint64_t seed) {
  return wallet_made(
      make_deposit_checked(deposit_inputs_from_seed(k, payment::seed_from_u64(seed))));
}

// The withdraw wallet's request from seed_from_u64(seed), consuming `notes` notes.
inline WithdrawRequest withdraw_wallet_request(unsigned k, uint64_t seed, unsigned notes) {
  return wallet_made(
      make_withdraw_checked(withdraw_inputs_from_seed(k, payment::seed_from_u64(seed), notes)));
}

}  // namespace enygma::test
