#include "core/withdraw/withdraw_family.hpp"

#include "core/circuit/request_functions.hpp"
#include "core/payment/circuit_runs.hpp"
#include "core/withdraw/request.hpp"
#include "core/withdraw/validate.hpp"
#include "core/withdraw/wallet.hpp"
#include "core/withdraw/withdraw_circuit.hpp"

namespace enygma {

namespace {

R1cs build_r1cs(unsigned k) {
  return payment::build_payment_r1cs(k, &define_withdraw_circuit, &withdraw_r1cs_size_hint);
}

// count: the notes consumed, 1..kNoteSlots (0: one note).
Result<std::string> make_request(unsigned k, const std::array<uint8_t, 32>& seed, unsigned count) {
  if (Status st = payment::check_wallet_k(k); !st) return st.error();
  if (count > kNoteSlots) {
    return payment::wallet_error("count",
                                 "(the notes) = " + std::to_string(count) + " is not in 1..10");
  }
  auto req = make_withdraw_checked(withdraw_inputs_from_seed(k, seed, count == 0 ? 1 : count));
  if (!req) return req.error();
  return withdraw_request_to_json(*req);
}

// The family's own request functions, for circuit::RequestFunctions.
struct Requests {
  static Result<WithdrawRequest> parse(std::string_view json, unsigned k) {
    return parse_withdraw_request(json, k);
  }
  static Status validate(const WithdrawRequest& q) { return validate_withdraw(q); }
  static std::vector<Error> validate_all(const WithdrawRequest& q) {
    return validate_withdraw_all(q);
  }
  static std::vector<Fr> witness(const WithdrawRequest& q) { return withdraw_witness(q); }
  static std::string first_violation(const WithdrawRequest& q) {
    return first_violated_withdraw_constraint(q);
  }
};

}  // namespace

const CircuitFamily& withdraw_family() {
  static const CircuitFamily family = circuit::RequestFunctions<Requests>::with({
      .name = "withdraw",
      .summary = "consumes up to 10 DvP notes and adds their total to a confidential balance",
      .relation_document = "withdraw-relation.md",
      .min_k = kMinK,
      .max_k = kMaxK,
      .default_min_k = 2,
      .default_max_k = 6,
      .prove_route = "/generateProofWithdraw-{k}",
      .verify_route = "/verifyProofWithdraw-{k}",
      .build_r1cs = &build_r1cs,
      .make_request = &make_request,
      .fields_derived_by_circuit = kPaymentFieldsDerivedByCircuit,
  });
  return family;
}

}  // namespace enygma
