// A join-split request (../shared/docs/joinsplit-relation.md): the reference's JSON for
// POST /join-split-enygma (Go struct EnygmaJoinSplitRequest, ERC-20 notes) and
// POST /join-split-1155 (Erc1155JoinSplitRequest), parsed into the ten input slots of the
// circuit, with the public signals the reference's handler computes (nullifiers, output and
// revert commitments, padding of the dummy slots).
//
// Parsing checks the format only (fields present, array lengths, canonical values, the hex
// address, Go ints), and refuses everything the reference would crash on (500 with an empty
// body) or reduce silently; every error has rule "input" and names the field. Rules J1..J11 are
// checked by validate.hpp.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/dvp/relation.hpp"
#include "core/field/fr.hpp"
#include "core/util/result.hpp"

namespace enygma {

inline constexpr unsigned kJoinSplitInputs = 10;  // N, input slots (real ones first)
inline constexpr unsigned kJoinSplitOutputs = 2;  // M
namespace joinsplit {
// The relation's names for them (joinsplit-relation.md).
inline constexpr unsigned N = kJoinSplitInputs, M = kJoinSplitOutputs;
}  // namespace joinsplit
inline constexpr unsigned kJoinSplitPublicInputs = 1 + 3 * kJoinSplitInputs + kJoinSplitOutputs + 1;

// The two routes differ only in the note (and the token fields that go into it).
enum class NoteFormat : uint8_t {
  kErc20,    // Poseidon(Poseidon(Poseidon(pk, s), a), t); erc20Address
  kErc1155,  // Poseidon(Poseidon(Poseidon(Poseidon(pk, s), t), id), a); erc1155Address,
             // erc1155TokenId
};

struct JoinSplitRequest {
  NoteFormat format = NoteFormat::kErc20;
  unsigned n = 0;  // real inputs, len(valuesIn); slots n..9 are dummies

  // ---- public, in the order of public_inputs() -------------------------------------------
  Fr nft_commitment{};
  std::array<Fr, kJoinSplitInputs> merkle_roots{};  // dummies: 0
  std::array<Fr, kJoinSplitInputs> nullifiers{};    // Poseidon(sk_i, idx_i); dummies: Z
  std::array<Fr, kJoinSplitInputs> tree_numbers{};  // the request's, then 0 (from its own length)
  std::array<Fr, kJoinSplitOutputs> commitments_out{};  // Note(rpk_o, saltsOut[o], b_o)
  Fr revert_commitment{};                               // Note(pk_0, revertSalt, sum a_i)

  // ---- private -----------------------------------------------------------------------------
  std::array<Fr, kJoinSplitInputs> values_in{};           // a_i
  std::array<Fr, kJoinSplitInputs> secret_keys{};         // sk_i (keyPairsIn[i].privateKey)
  std::array<Fr, kJoinSplitInputs> salts_in{};            // s_i
  std::array<Fr, kJoinSplitInputs> indices{};             // idx_i (merkleProofs[i].indices)
  std::array<dvp::MerklePath, kJoinSplitInputs> paths{};  // merkleProofs[i].elements, padded
  std::array<Fr, kJoinSplitOutputs> values_out{};         // b_o
  std::array<Fr, kJoinSplitOutputs> recipient_keys{};     // rpk_o (pubKeysOut[o].publicKey)
  std::array<Fr, kJoinSplitOutputs> salts_out{};
  Fr revert_salt{};
  Fr token{};     // t: the ERC-20 or ERC-1155 contract address as an integer
  Fr token_id{};  // id (ERC-1155 only; 0 for ERC-20)

  // ---- the relation's intermediate values ---------------------------------------------------
  // pk_i (J2) and leaf_i (J4) are named by the rules but are no request field (the request's
  // keyPairsIn[i].publicKey is ignored, as by the reference): the parser sets them to PK(sk_i)
  // and Note(pk_i, s_i, a_i). The circuit derives both from sk_i, s_i, a_i, t (and id) and
  // never reads these; validation checks them, so that a request can claim what a prover of the
  // reference could put in its hinted wires (a note's key other than PK(sk_i): spending without
  // the key; a leaf other than the note's hash: minting), for the rule breakers.
  std::array<Fr, kJoinSplitInputs> input_keys{};
  std::array<Fr, kJoinSplitInputs> leaves{};

  JoinSplitRequest() = default;
  JoinSplitRequest(const JoinSplitRequest&) = default;
  JoinSplitRequest& operator=(const JoinSplitRequest&) = default;
  JoinSplitRequest(JoinSplitRequest&&) = default;
  JoinSplitRequest& operator=(JoinSplitRequest&&) = default;
  ~JoinSplitRequest() { wipe_secrets(); }

  // The 34 public inputs: nftCommitment, merkleRoots[10], nullifiers[10], treeNumbers[10],
  // commitmentsOut[2], revertCommitment (the response's public_signal, in order).
  std::vector<Fr> public_inputs() const;
  // Overwrite every private value with zeros (sodium_memzero).
  void wipe_secrets();
  // Recompute every derived value (pk_i, leaf_i, the nullifiers of the real slots, the output
  // and revert commitments) from the private values, as the parser does; the dummy slots'
  // values are left as they are. For wallets and rule breakers.
  void derive_public_values();
};

// Note(pk, salt, amount) in the request's format (ERC-20: token t; ERC-1155: t and id).
Fr joinsplit_note(const JoinSplitRequest& req, const Fr& pk, const Fr& salt, const Fr& amount);

// The route name of a format ("joinsplit-enygma", "joinsplit-1155").
std::string_view joinsplit_family_name(NoteFormat format);

// Parse the reference JSON of the route for `format`. Errors: rule "input", the field named
// (e.g. "merkleProofs[0].elements[4] is not a canonical field element (a decimal string
// below p)").
Result<JoinSplitRequest> parse_joinsplit_request(std::string_view json_text, NoteFormat format);

// The reference JSON of a request (the Go struct's key order; keyPairsIn[i].publicKey = pk_i;
// the real slots only; treeNumbers up to the last non-zero one past n).
std::string joinsplit_request_to_json(const JoinSplitRequest& req);

// The dummy slot values (J1..J4 hold with Z): a = sk = s = idx = 0, path = 0^8, root = 0,
// nullifier = Z, pk = PK(0), leaf = Note(PK(0), 0, 0) (with req.format, token and token_id as
// set). The slot's tree number is left alone: the public signal pads treeNumbers from their
// own length, not from n.
void set_dummy_slot(JoinSplitRequest& req, unsigned i);

}  // namespace enygma
