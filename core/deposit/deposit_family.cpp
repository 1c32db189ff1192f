#include "core/deposit/deposit_family.hpp"

#include "core/circuit/request_functions.hpp"
#include "core/deposit/deposit_circuit.hpp"
#include "core/deposit/request.hpp"
#include "core/deposit/validate.hpp"
#include "core/deposit/wallet.hpp"
#include "core/payment/circuit_runs.hpp"

namespace enygma {

namespace {

R1cs build_r1cs(unsigned k) {
  return payment::build_payment_r1cs(k, &define_deposit_circuit, &deposit_r1cs_size_hint);
}

// count: the notes a deposit creates, always one (0 or 1 are accepted).
Result<std::string> make_request(unsigned k, const std::array<uint8_t, 32>& seed, unsigned count) {
  if (Status st = payment::check_wallet_k(k); !st) return st.error();
  if (count > 1) {
    return payment::wallet_error("count",
                                 "= " + std::to_string(count) + ": a deposit creates one note");
  }
  auto req = make_deposit_checked(deposit_inputs_from_seed(k, seed));
  if (!req) return req.error();
  return deposit_request_to_json(*req);
}

// The family's own request functions, for circuit::RequestFunctions.
struct Requests {
  static Result<DepositRequest> parse(std::string_view json, unsigned k) {
    return parse_deposit_request(json, k);
  }
  static Status validate(const DepositRequest& q) { return validate_deposit(q); }
  static std::vector<Error> validate_all(const DepositRequest& q) {
    return validate_deposit_all(q);
  }
  static std::vector<Fr> witness(const DepositRequest& q) { return deposit_witness(q); }
  static std::string first_violation(const DepositRequest& q) {
    return first_violated_deposit_constraint(q);
  }
};

}  // namespace

const CircuitFamily& deposit_family() {
  static const CircuitFamily family = circuit::RequestFunctions<Requests>::with({
      .name = "deposit",
      .summary = "moves v from a confidential balance (anonymity set of k) into a new DvP note",
      .relation_document = "deposit-relation.md",
      .min_k = kMinK,
      .max_k = kMaxK,
      .default_min_k = 2,
      .default_max_k = 6,
      .prove_route = "/generateProofDeposit-{k}",
      .verify_route = "/verifyProofDeposit-{k}",
      .build_r1cs = &build_r1cs,
      .make_request = &make_request,
      .fields_derived_by_circuit = kPaymentFieldsDerivedByCircuit,
  });
  return family;
}

}  // namespace enygma
