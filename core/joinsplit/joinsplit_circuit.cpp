// The join-split circuit. Rule ids J1..J11 label the constraints that enforce them.
//
// Every slot, the dummies included, gets the same constraints (the circuit cannot tell a dummy
// from a real input, and must not: which constraints exist never depends on witness values).
// A dummy (a = sk = s = idx = 0, zero path) satisfies J1..J4 with nullifier Z = Poseidon(0, 0);
// J5 asks nothing of it because its amount is 0; J9 and J11 exempt it for the same reason.
//
// Private wires, in allocation order: the token t (and the ERC-1155 id); per input slot sk,
// s, the 8 path elements, the amount a (with its 120 bits) and the 8 index bits; per output
// rpk, s, b (with its bits); revertSalt; then the gadgets' internal wires. The index has no
// wire of its own: it is used only through its bits, so idx >= 2^8 gives a non-boolean top bit
// (bits.hpp's alloc_bits), i.e. a failing witness rather than a truncated one.
//
// Unlike the reference, no Poseidon output passes through a hint: nullifiers, leaves, every
// Merkle level and the commitments are the gadgets' outputs themselves (relation item 1), and
// PK's reduction is exact (item 2).
//
// Cost (ERC-20 / ERC-1155), per input slot: PK (Poseidon 240 + reduction 445), nullifier (240
// + 1), note (720 / 960), Merkle path (8 x 241), J5 (1), amount (163), index bits (8), J9's
// zero test (3), J11 (2); fixed: 2 output notes and the revert note (3 x 720 / 960), 2 output
// amounts (163 each), J6/J7 equalities (3), J8 (1), J9's 45 pairs (135), J10 (11).
#include "core/joinsplit/joinsplit_circuit.hpp"

#include <array>
#include <cstdlib>

#include "core/circuit/amount.hpp"
#include "core/circuit/bits.hpp"
#include "core/circuit/compare.hpp"
#include "core/circuit/distinct.hpp"
#include "core/circuit/dvp_note.hpp"
#include "core/circuit/merkle.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/circuit/public_binding.hpp"
#include "core/circuit/spend_key.hpp"
#include "core/dvp/relation.hpp"

namespace enygma {

using circuit::BuildMode;
using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::PoseidonInput;
using circuit::Var;
using Scope = circuit::CircuitBuilder::Scope;

namespace {

using joinsplit::M;
using joinsplit::N;
constexpr unsigned D = dvp::kMerkleDepth;

struct InputSlot {
  Var sk, salt, amount;
  std::array<Var, D> path;
  std::vector<Var> index_bits;
};

struct OutputSlot {
  Var recipient_key, salt, amount;
};

}  // namespace

void define_joinsplit_circuit(CircuitBuilder& b, NoteFormat format, const JoinSplitRequest* req) {
  JoinSplitRequest zeros;  // the values of a shape-only build (all zero)
  zeros.format = format;
  const JoinSplitRequest& r = req == nullptr ? zeros : *req;
  if (r.format != format) std::abort();

  // ---- public inputs, in the order of JoinSplitRequest::public_inputs() ---------------------
  const Var nft_commitment = b.public_input(r.nft_commitment);
  std::array<Var, N> roots, nullifiers, tree_numbers;
  for (unsigned i = 0; i < N; ++i) roots[i] = b.public_input(r.merkle_roots[i]);
  for (unsigned i = 0; i < N; ++i) nullifiers[i] = b.public_input(r.nullifiers[i]);
  for (unsigned i = 0; i < N; ++i) tree_numbers[i] = b.public_input(r.tree_numbers[i]);
  std::array<Var, M> commitments_out;
  for (unsigned o = 0; o < M; ++o) commitments_out[o] = b.public_input(r.commitments_out[o]);
  const Var revert_commitment = b.public_input(r.revert_commitment);

  // ---- private inputs -----------------------------------------------------------------------
  const Var token = b.private_wire(r.token);
  const Lc token_id = format == NoteFormat::kErc1155 ? Lc(b.private_wire(r.token_id)) : Lc();
  std::array<InputSlot, N> in;
  for (unsigned i = 0; i < N; ++i) {
    in[i].sk = b.private_wire(r.secret_keys[i]);
    in[i].salt = b.private_wire(r.salts_in[i]);
    for (unsigned m = 0; m < D; ++m) in[i].path[m] = b.private_wire(r.paths[i][m]);
    {
      Scope s(b, "J1 valuesIn", int(i));
      in[i].amount = circuit::alloc_amount(b, r.values_in[i], "a < 10^36");
    }
    {
      Scope s(b, "J3 index", int(i));
      in[i].index_bits = circuit::alloc_bits(b, r.indices[i], D, "idx < 2^8");
    }
  }
  std::array<OutputSlot, M> out;
  for (unsigned o = 0; o < M; ++o) {
    out[o].recipient_key = b.private_wire(r.recipient_keys[o]);
    out[o].salt = b.private_wire(r.salts_out[o]);
    Scope s(b, "J1 valuesOut", int(o));
    out[o].amount = circuit::alloc_amount(b, r.values_out[o], "b < 10^36");
  }
  const Var revert_salt = b.private_wire(r.revert_salt);

  auto note = [&](const Lc& pk, const Lc& salt, const Lc& amount) {
    return format == NoteFormat::kErc20
               ? circuit::note_erc20(b, pk, salt, amount, token, "Note")
               : circuit::note_erc1155(b, pk, salt, amount, token, token_id, "Note");
  };

  // ---- per input slot: J2, J3, J4, J5 ------------------------------------------------------
  Lc pk0;
  for (unsigned i = 0; i < N; ++i) {
    const InputSlot& s = in[i];
    Lc pk;
    {
      Scope sc(b, "J2 pk", int(i));  // pk_i = Poseidon(sk_i, sk_i) mod l, exact
      pk = circuit::spend_public_key(b, s.sk, "PK(sk)");
    }
    if (i == 0) pk0 = pk;
    {
      Scope sc(b, "J3 nullifier", int(i));  // idx < 2^8 by its 8 bits (above)
      const PoseidonInput args[2] = {s.sk, circuit::pack_bits(s.index_bits)};
      b.enforce_equal(circuit::poseidon_gadget(b, args, "Poseidon(sk, idx)"), nullifiers[i],
                      "nullifiers[i] == Poseidon(sk, idx)");
    }
    // J4: the leaf is the note gadget's output itself, fed straight into the path (J5); it is
    // no wire a prover chooses, so J4 needs no equality of its own.
    Lc leaf;
    {
      Scope sc(b, "J4 leaf", int(i));
      leaf = note(pk, s.salt, s.amount);
    }
    {
      Scope sc(b, "J5 root", int(i));
      const Lc root = circuit::merkle_root(b, leaf, s.index_bits, s.path, "Root");
      // a_i * (Root - merkleRoots[i]) = 0: the root must match exactly when a_i != 0 (a_i is an
      // integer below 10^36 < p, so it is non-zero in the field exactly when it is as an
      // integer).
      circuit::enforce_root_if_nonzero(b, s.amount, root, roots[i],
                                       "a * (Root - merkleRoots[i]) == 0");
    }
  }

  // ---- J6: commitmentsOut[o] == Note(rpk_o, saltsOut[o], b_o) --------------------------------
  for (unsigned o = 0; o < M; ++o) {
    Scope sc(b, "J6 commitmentsOut", int(o));
    b.enforce_equal(note(out[o].recipient_key, out[o].salt, out[o].amount), commitments_out[o],
                    "commitmentsOut[o] == Note(rpk, s, b)");
  }

  // ---- J7: revertCommitment == Note(pk_0, revertSalt, a_0 + ... + a_9) -----------------------
  Lc total_in;
  for (const InputSlot& s : in) total_in += Lc(s.amount);
  {
    Scope sc(b, "J7 revertCommitment");
    b.enforce_equal(note(pk0, revert_salt, total_in), revert_commitment,
                    "revertCommitment == Note(pk_0, revertSalt, sum a)");
  }

  // ---- J8: a_0 + ... + a_9 == b_0 + b_1 over the integers ------------------------------------
  // J1 bounds every amount below 10^36, so both sums are below 10^37 < p: equality in F_p is
  // equality of the integers (no wrap-around).
  {
    Scope sc(b, "J8");
    b.enforce_equal(total_in, Lc(out[0].amount) + Lc(out[1].amount), "sum a == b_0 + b_1");
  }

  // ---- J9: distinct nullifiers among the inputs with a non-zero amount -----------------------
  std::array<Lc, N> enabled;  // 1 - [a_i == 0], shared with J11
  {
    Scope sc(b, "J9");
    std::array<Lc, N> values;
    for (unsigned i = 0; i < N; ++i) {
      values[i] = Lc(nullifiers[i]);
      const Var zero = circuit::is_zero(b, in[i].amount, "a == 0");
      enabled[i] = Lc::constant(1) - Lc(zero);
    }
    circuit::enforce_distinct_where_enabled(b, values, enabled, "distinct nullifiers");
  }

  // ---- J11: no input with a non-zero amount publishes the dummies' nullifier Z ---------------
  // The contract ignores Z (every dummy slot publishes it), so a note spent under Z (sk = 0 at
  // leaf index 0) would be spendable again in every later proof.
  {
    Scope sc(b, "J11");
    const Lc z = Lc::constant(dvp::dummy_nullifier());
    for (unsigned i = 0; i < N; ++i) {
      Scope si(b, "nullifiers", int(i));
      circuit::enforce_nonzero_where_enabled(b, Lc(nullifiers[i]) - z, enabled[i],
                                             "nullifier != Z");
    }
  }

  // ---- J10: nftCommitment and every tree number enter a constraint ---------------------------
  // The relation requires nothing of their values; without a constraint their verifying-key
  // points would be the identity and a proof could be re-bound to other values (relation item
  // 3). public_binding.hpp explains the squaring.
  {
    Scope sc(b, "J10");
    circuit::bind_public_input(b, nft_commitment, "nftCommitment^2");
    for (unsigned i = 0; i < N; ++i) {
      Scope si(b, "treeNumbers", int(i));
      circuit::bind_public_input(b, tree_numbers[i], "treeNumber^2");
    }
  }
}

circuit::CircuitBuilder::SizeHint joinsplit_r1cs_size_hint(NoteFormat format) {
  // Measured (tests/joinsplit_circuit_test.cpp checks the hint covers them), plus 1/16.
  auto with_margin = [](size_t n) { return n + n / 16; };
  if (format == NoteFormat::kErc20) {
    return {with_margin(40188), with_margin(40146), with_margin(329904), with_margin(604896),
            with_margin(36282)};
  }
  return {with_margin(43309), with_margin(43266), with_margin(359050), with_margin(660068),
          with_margin(39402)};
}

R1cs build_joinsplit_r1cs(NoteFormat format) {
  CircuitBuilder b(BuildMode::kShape);
  b.reserve(joinsplit_r1cs_size_hint(format));
  define_joinsplit_circuit(b, format, nullptr);
  return b.take_r1cs();
}

std::vector<Fr> joinsplit_witness(const JoinSplitRequest& req) {
  CircuitBuilder b(BuildMode::kWitness);
  b.reserve(joinsplit_r1cs_size_hint(req.format));  // no growth: no copies of secrets left behind
  define_joinsplit_circuit(b, req.format, &req);
  return b.take_witness();
}

std::string joinsplit_first_violation(const JoinSplitRequest& req) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  define_joinsplit_circuit(b, req.format, &req);
  return b.first_violation() ? b.first_violation_label() : std::string();
}

}  // namespace enygma
