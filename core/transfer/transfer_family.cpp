#include "core/transfer/transfer_family.hpp"

#include "core/circuit/request_functions.hpp"
#include "core/payment/circuit_runs.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"

namespace enygma {

namespace {

R1cs build_r1cs(unsigned k) {
  return payment::build_payment_r1cs(k, &define_transfer_circuit, &transfer_r1cs_size_hint);
}

Result<std::string> make_request(unsigned k, const std::array<uint8_t, 32>& seed, unsigned count) {
  if (Status st = payment::check_wallet_k(k); !st) return st.error();
  if (count > k - 1) {
    return payment::wallet_error(
        "count", "(the recipients) = " + std::to_string(count) + " is not in 1..k-1");
  }
  WalletInputs in = wallet_inputs_from_seed(k, seed, count == 0 ? 1 : count);
  auto req = make_transfer_checked(in);
  if (!req) return req.error();
  return transfer_request_to_json(*req);
}

// The family's own request functions, for circuit::RequestFunctions.
struct Requests {
  static Result<TransferRequest> parse(std::string_view json, unsigned k) {
    return parse_transfer_request(json, k);
  }
  static Status validate(const TransferRequest& q) { return validate_transfer(q); }
  static std::vector<Error> validate_all(const TransferRequest& q) {
    return validate_transfer_all(q);
  }
  static std::vector<Fr> witness(const TransferRequest& q) { return transfer_witness(q); }
  static std::string first_violation(const TransferRequest& q) {
    return first_violated_constraint(q);
  }
};

}  // namespace

const CircuitFamily& transfer_family() {
  static const CircuitFamily family = circuit::RequestFunctions<Requests>::with({
      .name = "transfer",
      .summary = "a private payment from one member of an anonymity set of k",
      .relation_document = "transfer-relation.md",
      .min_k = kMinK,
      .max_k = kMaxK,
      .default_min_k = 2,
      .default_max_k = 6,
      .prove_route = "/generateProofTransfer-{k}",
      .verify_route = "/verifyProofTransfer-{k}",
      .build_r1cs = &build_r1cs,
      .make_request = &make_request,
      .fields_derived_by_circuit = kPaymentFieldsDerivedByCircuit,
  });
  return family;
}

}  // namespace enygma
