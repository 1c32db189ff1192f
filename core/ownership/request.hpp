// An ERC-721 ownership request (../shared/docs/ownership-relation.md): the reference's JSON for
// POST /ownership-721 (Go struct Erc721OwnershipRequest), parsed, with the public signals the
// reference's handler computes (nullifier, output and revert commitments).
//
// Parsing checks the format only (required fields, canonical values, the Go int treeNumber)
// and refuses everything the reference would crash on or reduce silently; every error has rule
// "input" and names the field. Rules O1..O7 are checked by validate.hpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/dvp/relation.hpp"
#include "core/field/fr.hpp"
#include "core/util/result.hpp"

namespace enygma {

inline constexpr unsigned kOwnershipPublicInputs = 6;

struct OwnershipRequest {
  // ---- public, in the order of public_inputs() -------------------------------------------
  Fr payment_commitment{};
  Fr merkle_root{};
  Fr nullifier{};          // Poseidon(sk, idx)
  Fr tree_number{};        // a Go int, default 0
  Fr commitment_out{};     // Note(rpk, saltOut, uid)
  Fr revert_commitment{};  // Note(pk, revertSalt, uid)

  // ---- private -----------------------------------------------------------------------------
  Fr secret_key{};  // sk (keyPairIn.privateKey)
  Fr uid{};         // u
  Fr salt_in{}, salt_out{}, revert_salt{};
  Fr recipient_key{};  // rpk (pubKeyOut.publicKey)
  Fr index{};          // idx (merkleProof.indices)
  dvp::MerklePath path{};

  // ---- the relation's intermediate values (see JoinSplitRequest) ----------------------------
  // pk (O1) and leaf (O3): set by the parser to PK(sk) and Note(pk, saltIn, uid); the circuit
  // derives both and never reads these; validation checks them (rule breakers).
  Fr public_key{};
  Fr leaf{};

  OwnershipRequest() = default;
  OwnershipRequest(const OwnershipRequest&) = default;
  OwnershipRequest& operator=(const OwnershipRequest&) = default;
  OwnershipRequest(OwnershipRequest&&) = default;
  OwnershipRequest& operator=(OwnershipRequest&&) = default;
  ~OwnershipRequest() { wipe_secrets(); }

  // paymentCommitment, merkleRoot, nullifier, treeNumber, commitmentOut, revertCommitment.
  std::vector<Fr> public_inputs() const;
  void wipe_secrets();
  // Recompute pk, leaf, the nullifier and both commitments from the private values.
  void derive_public_values();
};

// Errors: rule "input", the field named ("merkleProof.elements[3] ...").
Result<OwnershipRequest> parse_ownership_request(std::string_view json_text);

// The reference JSON of a request (the Go struct's key order; keyPairIn.publicKey = pk).
std::string ownership_request_to_json(const OwnershipRequest& req);

}  // namespace enygma
