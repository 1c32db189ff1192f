// The deposit circuit, on the payment gadgets shared with transfer and withdraw
// (core/payment/gadgets.hpp). Rule ids label the constraints that enforce them.
//
// Private wires, in allocation order: sender_id, sk, ss[0..k); the bits of V (250), v (250) and
// R (251, at most l - 1: R16); tv[0..k) (one wire each); the note's pk, saltOut and address; then
// every gadget's internal wires. V, v and R have no wire of their own.
//
// What differs from the transfer circuit, and why it is cheaper:
//  - R15d makes every other member's tv[i] zero, one product per member ((1 - sel[i]) * tv[i]),
//    and R2 makes tv[j] = (l - v) mod l; so tv[i] = sel[i] * ((l - v) mod l) exactly, and no
//    member needs tv's bits or its own [tv[i]]G: R13's value part is [tv[j]]G = [l - v]G =
//    -[v]G (l * G = O; for v = 0 both are the identity), one fixed-base multiplication with
//    v's bits, added to the sender's commitment only
//    (payment::enforce_sender_only_tx_commits).
//  - R10 does not apply (the tx commitments add up to -[v]G); R9d needs no constraint: the sum
//    over i != j of tv[i] is 0 by R15d, and sum(tr) = 0 modulo l by R14's construction of tr,
//    which the circuit proves exactly (deposit-relation.md: "R9d holds by construction").
//  - D1: three Poseidons over (pk, saltOut), v, address, equal to the public hash.
#include "core/deposit/deposit_circuit.hpp"

#include <cstdlib>

#include "core/circuit/bits.hpp"
#include "core/payment/circuit_runs.hpp"
#include "core/payment/gadgets.hpp"

namespace enygma {

using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::Var;
using Scope = circuit::CircuitBuilder::Scope;

namespace {

constexpr unsigned kAmountBits = 250;  // R11: V < 2^250 and v <= V

DepositRequest zero_request(unsigned k) {
  DepositRequest r;
  payment::zero_payment_fields(r, k);
  r.hash = r.note_public_key = r.address = r.salt_out = Fr::zero();
  return r;
}

}  // namespace

void define_deposit_circuit(CircuitBuilder& b, unsigned k, const DepositRequest* req) {
  if (k < kMinK || k > kMaxK) std::abort();
  const DepositRequest zeros = req == nullptr ? zero_request(k) : DepositRequest{};
  const DepositRequest& r = req == nullptr ? zeros : *req;
  if (r.k != k || !r.payment_shape_ok()) std::abort();

  // ---- public inputs: the payment inputs, then the note ---------------------------------------
  const payment::PaymentPublic pub = payment::alloc_payment_public(b, r);
  const Var hash = b.public_input(r.hash);

  // ---- private inputs ------------------------------------------------------------------------
  const payment::SenderSecrets sec = payment::alloc_sender_secrets(b, r);
  std::vector<Var> balance_bits, value_bits, random_bits;
  {
    Scope s(b, "R11 V");
    balance_bits = circuit::alloc_bits(b, r.previous_sender_balance, kAmountBits, "bits");
  }
  {
    Scope s(b, "R11 v");
    value_bits = circuit::alloc_bits(b, r.sender_tx_value, kAmountBits, "bits");
  }
  random_bits = payment::alloc_random_bits(b, r);
  // tv[i] exactly as requested (canonical, below p): R2 and R15d pin each one.
  std::vector<Lc> tv;
  for (unsigned i = 0; i < k; ++i) tv.push_back(b.private_wire(r.tx_values[i]));
  const Var note_pk = b.private_wire(r.note_public_key);
  const Var salt = b.private_wire(r.salt_out);
  const Var address = b.private_wire(r.address);
  const Lc balance = circuit::pack_bits(balance_bits);
  const Lc value = circuit::pack_bits(value_bits);

  // ---- R1: exactly one j with as[j] == sender_id ---------------------------------------------
  const std::vector<Var> sel = payment::select_sender(b, pub.as, sec.sender_id);

  // ---- R3: every previous commitment is on the curve (the tx commitments equal computed
  // points, see R13) ----------------------------------------------------------------------------
  payment::enforce_previous_commits_on_curve(b, pub.pc);

  // ---- R11: V < 2^250 (its bits), v <= V -------------------------------------------------------
  payment::enforce_amount_within_balance(b, balance, value);

  // ---- R2: tv[j] == (l - v) mod l ---------------------------------------------------------------
  payment::enforce_sender_debit(b, sel, tv, value);

  // ---- R15d: tv[i] == 0 for every i != j -------------------------------------------------------
  payment::enforce_others_receive_nothing(b, sel, tv, "R15d");
  // R9d has no constraint of its own: the sum over i != j of tv[i] is 0 by R15d above, and
  // sum(tr) = 0 modulo l by R14's construction of tr, which R13 + R14 below prove exactly.

  // ---- R4, R6: the sender knows sk and R; R5, R8: hashed secrets and tags; R12: the
  // nullifier; R7: pc[j] == Pedersen(V, R) ------------------------------------------------------
  payment::enforce_sender_opening(b, sel, sec, pub, balance_bits, random_bits);

  // ---- R13 + R14 without tr in the circuit ---------------------------------------------------
  // W[i] = -X[i] (no member's value part), and the sender's [tv[j]]G = -[v]G (see the top).
  payment::enforce_sender_only_tx_commits(b, sel, sec, pub, value_bits, /*debit=*/true);

  // ---- D1: hash == Note(pk, saltOut, v, address), no reduction ---------------------------------
  {
    Scope s(b, "D1");
    b.enforce_equal(payment::note_hash(b, note_pk, salt, value, address), hash,
                    "hash == Note(pk, saltOut, v, address)");
  }
}

circuit::CircuitBuilder::SizeHint deposit_r1cs_size_hint(unsigned k) {
  // Linear in k (measured): wires 2533k + 4974, constraints 2538k + 4972, and the terms of A, B
  // and C per participant and fixed (tests/deposit_circuit_test checks the margin for every k).
  auto with_margin = [](size_t n) { return n + n / 16; };
  return {with_margin(2533 * k + 4974), with_margin(2538 * k + 4972),
          with_margin(11000 * k + 19699), with_margin(16636 * k + 32925),
          with_margin(2909 * k + 7344)};
}

std::vector<Fr> deposit_witness(const DepositRequest& req) {
  return payment::payment_witness(req, req.payment_shape_ok(), &define_deposit_circuit,
                                  &deposit_r1cs_size_hint);
}

std::string first_violated_deposit_constraint(const DepositRequest& req) {
  return payment::first_violated_payment_constraint(req, req.payment_shape_ok(),
                                                    &define_deposit_circuit);
}

}  // namespace enygma
