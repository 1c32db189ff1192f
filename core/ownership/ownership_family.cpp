#include "core/ownership/ownership_family.hpp"

#include "core/ownership/ownership_circuit.hpp"
#include "core/ownership/request.hpp"
#include "core/ownership/validate.hpp"
#include "core/ownership/wallet.hpp"

namespace enygma {

namespace {

R1cs build_r1cs(unsigned) {
  return build_ownership_r1cs();
}

Result<std::vector<Fr>> witness_unchecked(std::string_view json, unsigned) {
  auto req = parse_ownership_request(json);
  if (!req) return req.error();
  return ownership_witness(*req);
}

Result<std::vector<Fr>> witness(std::string_view json, unsigned) {
  auto req = parse_ownership_request(json);
  if (!req) return req.error();
  if (Status st = validate_ownership(*req); !st) return st.error();
  return ownership_witness(*req);
}

std::vector<Error> validate_all(std::string_view json, unsigned) {
  auto req = parse_ownership_request(json);
  if (!req) return {req.error()};
  return validate_ownership_all(*req);
}

Result<std::string> make_request(unsigned, const std::array<uint8_t, 32>& seed, unsigned) {
  return ownership_request_to_json(ownership_request_from_seed(seed));
}

Result<std::string> first_violation(std::string_view json, unsigned) {
  auto req = parse_ownership_request(json);
  if (!req) return req.error();
  return ownership_first_violation(*req);
}

}  // namespace

const CircuitFamily& ownership_721_family() {
  static const CircuitFamily family{
      .name = "ownership-721",
      .summary =
          "DvP ownership of an ERC-721 note in a Merkle tree, re-issued to a recipient "
          "with a revert note",
      .relation_document = "ownership-relation.md",
      .prove_route = "/ownership-721",
      .verify_route = "/verifyProof/ownership-721",
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
