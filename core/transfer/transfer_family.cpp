#include "core/transfer/transfer_family.hpp"

#include "core/circuit/builder.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"

namespace enygma {

namespace {

R1cs build_r1cs(unsigned k) {
  circuit::CircuitBuilder b(circuit::BuildMode::kShape);
  b.reserve(transfer_r1cs_size_hint(k));
  define_transfer_circuit(b, k, nullptr);
  return b.take_r1cs();
}

Result<std::vector<Fr>> witness_unchecked(std::string_view json, unsigned k) {
  auto req = parse_transfer_request(json, k);
  if (!req) return req.error();
  std::vector<Fr> w = transfer_witness(*req);
  if (w.empty()) return make_error("the request does not have k entries", "input", "k");
  return w;
}

Result<std::vector<Fr>> witness(std::string_view json, unsigned k) {
  auto req = parse_transfer_request(json, k);
  if (!req) return req.error();
  if (Status st = validate_transfer(*req); !st) return st.error();
  return transfer_witness(*req);
}

std::vector<Error> validate_all(std::string_view json, unsigned k) {
  auto req = parse_transfer_request(json, k);
  if (!req) return {req.error()};
  return validate_transfer_all(*req);
}

Result<std::string> make_request(unsigned k, const std::array<uint8_t, 32>& seed,
                                 unsigned count) {
  if (k < kMinK || k > kMaxK) {
    return make_error("k = " + std::to_string(k) + " is not in " + std::to_string(kMinK) + ".." +
                          std::to_string(kMaxK),
                      "wallet", "k");
  }
  if (count > k - 1) {
    return make_error("recipients = " + std::to_string(count) + " is not in 1..k-1", "wallet",
                      "recipients");
  }
  WalletInputs in = wallet_inputs_from_seed(k, seed, count == 0 ? 1 : count);
  auto req = make_transfer_checked(in);
  if (!req) return req.error();
  return transfer_request_to_json(*req);
}

Result<std::string> first_violation(std::string_view json, unsigned k) {
  auto req = parse_transfer_request(json, k);
  if (!req) return req.error();
  return first_violated_constraint(*req);
}

}  // namespace

const CircuitFamily& transfer_family() {
  static const CircuitFamily family{
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
      .witness = &witness,
      .witness_unchecked = &witness_unchecked,
      .validate_all = &validate_all,
      .make_request = &make_request,
      .first_violation = &first_violation,
  };
  return family;
}

}  // namespace enygma
