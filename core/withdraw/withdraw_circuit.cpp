// The withdraw circuit, on the payment gadgets shared with transfer and deposit
// (core/payment/gadgets.hpp). Rule ids label the constraints that enforce them.
//
// Private wires, in allocation order: sender_id, sk, ss[0..k); the canonical bits of V (254: V
// is only opened, R11 does not apply, so V may be any field element) and R's 251 (R16: R < l); the
// bits of v (123); tv[0..k) (one wire each); address; for each slot d: sk_d, salt_d and v_d (one
// wire each) and v_d's bits (120, at most 10^36 - 1); then every gadget's internal wires.
//
// The statement's parts:
//  - the balance side as in the deposit circuit, with the sign of the value part flipped: R2w
//    makes tv[j] = v and R15w every other tv[i] = 0, so tv[i] = sel[i] * v and R13's value part
//    is [v]G, added to the sender's commitment only. R9w needs no constraint: the sum over
//    i != j of tv[i] is 0 by R15w and sum(tr) = 0 modulo l by R14's construction of tr.
//  - the notes (W1..W5), per slot d, with f_d = 1 - [hashes[d] == 0]:
//      W1  f_d * (hashes[d] - Note(PK(sk_d), salt_d, v_d, address)) == 0, PK exact
//      W2  v_d <= 10^36 - 1 by a bound walk over its 120 bits
//      W4  (1 - f_d) * v_d == 0
//    and over all slots W3 (v == sum of v_d, one linear constraint; no wrap, as the sum is below
//    10 * 10^36 < 2^123 < p) and W5 (distinct used hashes, 3 constraints per pair).
//  - v's 123 bits: W2 and W3 make v < 10^37 < 2^123, so every valid v has them (R2w's
//    v < 2^252 is implied), and [v]G is a 123-bit fixed-base multiplication.
#include "core/withdraw/withdraw_circuit.hpp"

#include <sodium.h>

#include <cstdlib>
#include <string>

#include "core/circuit/bits.hpp"
#include "core/circuit/compare.hpp"
#include "core/payment/circuit_runs.hpp"
#include "core/payment/gadgets.hpp"
#include "core/payment/relation.hpp"

namespace enygma {

using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::Var;
using Scope = circuit::CircuitBuilder::Scope;

namespace {

// v < 10 * 10^36 = 10^37 < 2^123 (10^37 = 2^122.91...).
constexpr unsigned kCreditBits = 123;

WithdrawRequest zero_request(unsigned k) {
  WithdrawRequest r;
  payment::zero_payment_fields(r, k);
  r.address = Fr::zero();
  r.hashes = r.sk_deposits = r.v_per_deposit = r.salts_in = std::vector<Fr>(kNoteSlots, Fr::zero());
  return r;
}

struct NoteSlot {
  Var secret_key, salt, amount;
};

}  // namespace

void define_withdraw_circuit(CircuitBuilder& b, unsigned k, const WithdrawRequest* req) {
  if (k < kMinK || k > kMaxK) std::abort();
  const WithdrawRequest zeros = req == nullptr ? zero_request(k) : WithdrawRequest{};
  const WithdrawRequest& r = req == nullptr ? zeros : *req;
  if (r.k != k || !r.shape_ok()) std::abort();

  // ---- public inputs: the payment inputs, then the consumed notes ----------------------------
  const payment::PaymentPublic pub = payment::alloc_payment_public(b, r);
  std::vector<Var> hashes;
  for (unsigned d = 0; d < kNoteSlots; ++d) hashes.push_back(b.public_input(r.hashes[d]));

  // ---- private inputs ------------------------------------------------------------------------
  const payment::SenderSecrets sec = payment::alloc_sender_secrets(b, r);
  std::vector<Var> balance_bits, random_bits, value_bits;
  {
    Scope s(b, "R7 V");
    balance_bits = circuit::alloc_bits_canonical(b, r.previous_sender_balance, "bits");
  }
  random_bits = payment::alloc_random_bits(b, r);
  {
    Scope s(b, "R2w/R13/W3 v");  // serves [v]G (R13) and the sum (W3)
    value_bits = circuit::alloc_bits(b, r.sender_tx_value, kCreditBits, "bits");
  }
  // tv[i] exactly as requested (canonical, below p): R2w and R15w pin each one.
  std::vector<Lc> tv;
  for (unsigned i = 0; i < k; ++i) tv.push_back(b.private_wire(r.tx_values[i]));
  const Var address = b.private_wire(r.address);
  std::vector<NoteSlot> notes;
  // W2's bound for the walk: 10^36 - 1 (its bit length, 120, is the number of bits of v_d).
  const U256 amount_max = relation::note_amount_max();
  for (unsigned d = 0; d < kNoteSlots; ++d) {
    NoteSlot n{b.private_wire(r.sk_deposits[d]), b.private_wire(r.salts_in[d]),
               b.private_wire(r.v_per_deposit[d])};
    // W2: 0 <= v_d <= 10^36 - 1 as integers. The walk's bits take the low bits of the request's
    // value; tying them to v_d's wire makes a value of 2^120 or more fail instead of truncating.
    Scope s(b, "W2 v_per_deposit", int(d));
    U256 amount = r.v_per_deposit[d].to_u256();
    const std::vector<Var> bits = circuit::alloc_bits_at_most(b, amount, amount_max, "bits");
    sodium_memzero(&amount, sizeof amount);
    b.enforce_equal(circuit::pack_bits(bits), n.amount, "recompose");
    notes.push_back(n);
  }
  const Lc value = circuit::pack_bits(value_bits);

  // ---- R1: exactly one j with as[j] == sender_id ---------------------------------------------
  const std::vector<Var> sel = payment::select_sender(b, pub.as, sec.sender_id);

  // ---- R3: every previous commitment is on the curve -------------------------------------------
  payment::enforce_previous_commits_on_curve(b, pub.pc);

  // ---- R2w: tv[j] == v (both below p: the field equality is the integer one) ------------------
  {
    Scope s(b, "R2w");
    payment::enforce_selected_equal(b, sel, tv, value, "tv[j] == v");
  }

  // ---- R15w: tv[i] == 0 for every i != j -------------------------------------------------------
  payment::enforce_others_receive_nothing(b, sel, tv, "R15w");
  // R9w has no constraint of its own: the sum over i != j of tv[i] is 0 by R15w above, and
  // sum(tr) = 0 modulo l by R14's construction of tr, which R13 + R14 below prove exactly.

  // ---- R4, R6: the sender knows sk and R; R5, R8: hashed secrets and tags; R12: the
  // nullifier; R7: pc[j] == Pedersen(V, R) ------------------------------------------------------
  payment::enforce_sender_opening(b, sel, sec, pub, balance_bits, random_bits);

  // ---- R13 + R14 without tr in the circuit ---------------------------------------------------
  // W[i] = -X[i] (no member's value part), and the sender's [tv[j]]G = [v]G (see the top).
  payment::enforce_sender_only_tx_commits(b, sel, sec, pub, value_bits, /*debit=*/false);

  // ---- W1, W4: each slot is a real note opened with its secret, or unused and empty ------------
  std::vector<Var> unused(kNoteSlots);  // 1 - f_d
  Lc amounts;
  for (unsigned d = 0; d < kNoteSlots; ++d) {
    {
      Scope s(b, "W1/W4/W5 hashes", int(d));
      unused[d] = circuit::is_zero(b, hashes[d], "== 0");
    }
    {
      Scope s(b, "W1 hashes", int(d));
      const Lc pk = payment::spend_key(b, notes[d].secret_key);  // PK(sk_d), exact
      const Lc note = payment::note_hash(b, pk, notes[d].salt, notes[d].amount, address);
      b.enforce(Lc::constant(1) - Lc(unused[d]), Lc(hashes[d]) - note, Lc(),
                "used => hashes[d] == Note(PK(sk_d), salt_d, v_d, address)");
    }
    {
      Scope s(b, "W4 v_per_deposit", int(d));
      b.enforce(unused[d], notes[d].amount, Lc(), "unused => v_d == 0");
    }
    amounts += Lc(notes[d].amount);
  }

  // ---- W3: v == v_0 + ... + v_9 (each below 10^36 by W2: the field sum is the integer one) ----
  b.enforce_equal(amounts, value, "W3 v == sum of v_per_deposit");

  // ---- W5: used hashes are distinct
  // ----------------------------------------------------------------- For d < e, with m = f_d *
  // f_e: (h_d - h_e) * inv == m makes h_d != h_e when both are used (m = 1), and inv * (1 - m) == 0
  // pins inv to 0 otherwise (a hint left free would be a witness value nothing checks).
  for (unsigned d = 0; d < kNoteSlots; ++d) {
    for (unsigned e = d + 1; e < kNoteSlots; ++e) {
      const std::string pair = std::string("W5 hashes[")
                                   .append(std::to_string(d))
                                   .append("] != hashes[")
                                   .append(std::to_string(e))
                                   .append("]");
      Scope s(b, pair);
      const Var both =
          b.mul(Lc::constant(1) - Lc(unused[d]), Lc::constant(1) - Lc(unused[e]), "both used");
      const Lc diff = Lc(hashes[d]) - Lc(hashes[e]);
      const Var inv = b.private_wire(both.value().is_zero() ? Fr::zero() : diff.value().inverse());
      b.enforce(diff, inv, both, "(h_d - h_e) * inv == both used");
      b.enforce(inv, Lc::constant(1) - Lc(both), Lc(), "inv * (1 - both used) == 0");
    }
  }
}

circuit::CircuitBuilder::SizeHint withdraw_r1cs_size_hint(unsigned k) {
  // Linear in k (measured): wires 2533k + 19543, constraints 2538k + 19597, and the terms of A,
  // B and C per participant and fixed (tests/withdraw_circuit_test checks the margin for every k).
  auto with_margin = [](size_t n) { return n + n / 16; };
  return {with_margin(2533 * k + 19543), with_margin(2538 * k + 19597),
          with_margin(11000 * k + 118301), with_margin(16507 * k + 201189),
          with_margin(2909 * k + 17597)};
}

std::vector<Fr> withdraw_witness(const WithdrawRequest& req) {
  return payment::payment_witness(req, req.shape_ok(), &define_withdraw_circuit,
                                  &withdraw_r1cs_size_hint);
}

std::string first_violated_withdraw_constraint(const WithdrawRequest& req) {
  return payment::first_violated_payment_constraint(req, req.shape_ok(), &define_withdraw_circuit);
}

}  // namespace enygma
