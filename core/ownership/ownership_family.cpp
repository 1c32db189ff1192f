#include "core/ownership/ownership_family.hpp"

#include "core/circuit/request_functions.hpp"
#include "core/ownership/ownership_circuit.hpp"
#include "core/ownership/request.hpp"
#include "core/ownership/validate.hpp"
#include "core/ownership/wallet.hpp"

namespace enygma {

namespace {

R1cs build_r1cs(unsigned) {
  return build_ownership_r1cs();
}

Result<std::string> make_request(unsigned, const std::array<uint8_t, 32>& seed, unsigned count) {
  if (count > 1) {
    return make_error("count = " + std::to_string(count) + ": an ownership proof is of one token",
                      "wallet", "count");
  }
  return ownership_request_to_json(ownership_request_from_seed(seed));
}

// The family's own request functions, for circuit::RequestFunctions.
struct Requests {
  static Result<OwnershipRequest> parse(std::string_view json, unsigned) {
    return parse_ownership_request(json);
  }
  static Status validate(const OwnershipRequest& q) { return validate_ownership(q); }
  static std::vector<Error> validate_all(const OwnershipRequest& q) {
    return validate_ownership_all(q);
  }
  static std::vector<Fr> witness(const OwnershipRequest& q) { return ownership_witness(q); }
  static std::string first_violation(const OwnershipRequest& q) {
    return ownership_first_violation(q);
  }
};

}  // namespace

const CircuitFamily& ownership_721_family() {
  static const CircuitFamily family = circuit::RequestFunctions<Requests>::with({
      .name = "ownership-721",
      .summary = "DvP ownership of an ERC-721 note in a Merkle tree, re-issued to a recipient "
                 "with a revert note",
      .relation_document = "ownership-relation.md",
      .prove_route = "/ownership-721",
      .verify_route = "/verifyProof/ownership-721",
      .build_r1cs = &build_r1cs,
      .make_request = &make_request,
  });
  return family;
}

}  // namespace enygma
