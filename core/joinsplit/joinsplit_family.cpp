#include "core/joinsplit/joinsplit_family.hpp"

#include "core/circuit/request_functions.hpp"
#include "core/joinsplit/joinsplit_circuit.hpp"
#include "core/joinsplit/request.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/joinsplit/wallet.hpp"

namespace enygma {

namespace {

constexpr unsigned kDefaultInputs = 2;

// The registry's function pointers, one instance per format (k is ignored: no k).
template <NoteFormat F>
struct Family {
  static R1cs build_r1cs(unsigned) { return build_joinsplit_r1cs(F); }

  static Result<std::string> make_request(unsigned, const std::array<uint8_t, 32>& seed,
                                          unsigned count) {
    if (count > kJoinSplitInputs) {
      return make_error("count (the inputs) = " + std::to_string(count) + " is not in 1.." +
                            std::to_string(kJoinSplitInputs) + " (0: the default, " +
                            std::to_string(kDefaultInputs) + ")",
                        "wallet", "count");
    }
    const JoinSplitRequest req =
        joinsplit_request_from_seed(F, seed, count == 0 ? kDefaultInputs : count);
    return joinsplit_request_to_json(req);
  }

  // The format's request functions, for circuit::RequestFunctions.
  static Result<JoinSplitRequest> parse(std::string_view json, unsigned) {
    return parse_joinsplit_request(json, F);
  }
  static Status validate(const JoinSplitRequest& q) { return validate_joinsplit(q); }
  static std::vector<Error> validate_all(const JoinSplitRequest& q) {
    return validate_joinsplit_all(q);
  }
  static std::vector<Fr> witness(const JoinSplitRequest& q) { return joinsplit_witness(q); }
  static std::string first_violation(const JoinSplitRequest& q) {
    return joinsplit_first_violation(q);
  }

  static CircuitFamily make(std::string_view name, std::string_view summary,
                            std::string_view prove_route, std::string_view verify_route) {
    return circuit::RequestFunctions<Family>::with({
        .name = name,
        .summary = summary,
        .relation_document = "joinsplit-relation.md",
        .prove_route = prove_route,
        .verify_route = verify_route,
        .build_r1cs = &build_r1cs,
        .make_request = &make_request,
    });
  }
};

}  // namespace

const CircuitFamily& joinsplit_enygma_family() {
  static const CircuitFamily family = Family<NoteFormat::kErc20>::make(
      "joinsplit-enygma",
      "DvP join-split of ERC-20 notes: up to 10 inputs from Merkle trees, 2 outputs and a "
      "revert note",
      "/join-split-enygma", "/verifyProof/join-split-enygma");
  return family;
}

const CircuitFamily& joinsplit_1155_family() {
  static const CircuitFamily family = Family<NoteFormat::kErc1155>::make(
      "joinsplit-1155",
      "DvP join-split of ERC-1155 notes: up to 10 inputs from Merkle trees, 2 outputs and a "
      "revert note",
      "/join-split-1155", "/verifyProof/join-split-1155");
  return family;
}

}  // namespace enygma
