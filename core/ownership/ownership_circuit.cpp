// The ownership circuit. Rule ids O1..O7 label the constraints that enforce them.
//
// Private wires, in allocation order: sk, uid, saltIn, saltOut, revertSalt, rpk, the 8 path
// elements, the 8 index bits (the index has no wire of its own: idx >= 2^8 gives a failing
// witness, bits.hpp's alloc_bits); then the gadgets' internal wires.
//
// Unlike the reference, no Poseidon output passes through a hint (relation item 1), PK's
// reduction is exact (item 2), the membership check holds for every uid (item 4, O4's project
// form: there is no dummy slot to switch off), and the two otherwise unused public inputs are
// bound (item 3, O7). PK is derived once and serves the leaf and the revert note (the
// reference derives it twice).
//
// Cost: 16 Poseidon-2 (PK, nullifier, leaf x2, Merkle x8, output x2, revert x2: 3,840), the
// reduction (445), 8 index bits, 8 path selections, 4 equalities, 2 bindings.
#include "core/ownership/ownership_circuit.hpp"

#include <array>

#include "core/circuit/bits.hpp"
#include "core/circuit/dvp_note.hpp"
#include "core/circuit/merkle.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/circuit/public_binding.hpp"
#include "core/circuit/spend_key.hpp"

namespace enygma {

using circuit::BuildMode;
using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::PoseidonInput;
using circuit::Var;
using Scope = circuit::CircuitBuilder::Scope;

void define_ownership_circuit(CircuitBuilder& b, const OwnershipRequest* req) {
  const OwnershipRequest zeros;  // the values of a shape-only build
  const OwnershipRequest& r = req == nullptr ? zeros : *req;
  constexpr unsigned D = dvp::kMerkleDepth;

  // ---- public inputs, in the order of OwnershipRequest::public_inputs() ---------------------
  const Var payment_commitment = b.public_input(r.payment_commitment);
  const Var merkle_root = b.public_input(r.merkle_root);
  const Var nullifier = b.public_input(r.nullifier);
  const Var tree_number = b.public_input(r.tree_number);
  const Var commitment_out = b.public_input(r.commitment_out);
  const Var revert_commitment = b.public_input(r.revert_commitment);

  // ---- private inputs -----------------------------------------------------------------------
  const Var sk = b.private_wire(r.secret_key);
  const Var uid = b.private_wire(r.uid);
  const Var salt_in = b.private_wire(r.salt_in);
  const Var salt_out = b.private_wire(r.salt_out);
  const Var revert_salt = b.private_wire(r.revert_salt);
  const Var recipient_key = b.private_wire(r.recipient_key);
  std::array<Var, D> path;
  for (unsigned m = 0; m < D; ++m) path[m] = b.private_wire(r.path[m]);
  std::vector<Var> index_bits;
  {
    Scope s(b, "O2 index");
    index_bits = circuit::alloc_bits(b, r.index, D, "idx < 2^8");
  }

  // ---- O1: pk = Poseidon(sk, sk) mod l, exact -----------------------------------------------
  Lc pk;
  {
    Scope s(b, "O1 pk");
    pk = circuit::spend_public_key(b, sk, "PK(sk)");
  }

  // ---- O2: nullifier == Poseidon(sk, idx) (idx < 2^8 by its bits above) ---------------------
  {
    Scope s(b, "O2 nullifier");
    const PoseidonInput args[2] = {sk, circuit::pack_bits(index_bits)};
    b.enforce_equal(circuit::poseidon_gadget(b, args, "Poseidon(sk, idx)"), nullifier,
                    "nullifier == Poseidon(sk, idx)");
  }

  // ---- O3: leaf = Note(pk, saltIn, uid): the gadget's output, fed straight into the path ----
  Lc leaf;
  {
    Scope s(b, "O3 leaf");
    leaf = circuit::note_erc721(b, pk, salt_in, uid, "Note");
  }

  // ---- O4 (project form): Root(leaf, idx, path) == merkleRoot, whatever the uid -------------
  {
    Scope s(b, "O4 root");
    const Lc root = circuit::merkle_root(b, leaf, index_bits, path, "Root");
    b.enforce_equal(root, merkle_root, "Root == merkleRoot");
  }

  // ---- O5: commitmentOut == Note(rpk, saltOut, uid) -----------------------------------------
  {
    Scope s(b, "O5 commitmentOut");
    b.enforce_equal(circuit::note_erc721(b, recipient_key, salt_out, uid, "Note"), commitment_out,
                    "commitmentOut == Note(rpk, saltOut, uid)");
  }

  // ---- O6: revertCommitment == Note(pk, revertSalt, uid) ------------------------------------
  {
    Scope s(b, "O6 revertCommitment");
    b.enforce_equal(circuit::note_erc721(b, pk, revert_salt, uid, "Note"), revert_commitment,
                    "revertCommitment == Note(pk, revertSalt, uid)");
  }

  // ---- O7: paymentCommitment and treeNumber enter a constraint (public_binding.hpp) ---------
  {
    Scope s(b, "O7");
    circuit::bind_public_input(b, payment_commitment, "paymentCommitment^2");
    circuit::bind_public_input(b, tree_number, "treeNumber^2");
  }
}

circuit::CircuitBuilder::SizeHint ownership_r1cs_size_hint() {
  // Measured (tests/ownership_circuit_test.cpp checks the hint covers them), plus 1/16.
  auto with_margin = [](size_t n) { return n + n / 16; };
  return {with_margin(4323), with_margin(4307), with_margin(37461), with_margin(69525),
          with_margin(4071)};
}

R1cs build_ownership_r1cs() {
  CircuitBuilder b(BuildMode::kShape);
  b.reserve(ownership_r1cs_size_hint());
  define_ownership_circuit(b, nullptr);
  return b.take_r1cs();
}

std::vector<Fr> ownership_witness(const OwnershipRequest& req) {
  CircuitBuilder b(BuildMode::kWitness);
  b.reserve(ownership_r1cs_size_hint());  // no growth: no copies of secrets left behind
  define_ownership_circuit(b, &req);
  return b.take_witness();
}

std::string ownership_first_violation(const OwnershipRequest& req) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  define_ownership_circuit(b, &req);
  return b.first_violation() ? b.first_violation_label() : std::string();
}

}  // namespace enygma
