// The transfer circuit, on the payment gadgets that deposit and withdraw share
// (core/payment/gadgets.hpp). Rule ids R1..R16 label the constraints that enforce them.
//
// Private wires, in allocation order: sender_id, sk, ss[0..k); the bits of V (250), v (250), R
// (251, at most l - 1: R16) and of every tv[i] (251); then every gadget's internal wires. V, v, R
// and tv have no wire of their own: they are used only through their bits.
//
// Every tv[i] is held exactly (no reduction mod l): R13 uses it through Pedersen(tv[i], .), R2
// bounds the sender's entry (tv[j] < l < 2^251) and R15 the others' (tv[i] < 2^250: bit 250 is
// zero unless i is the sender). A value of 2^251 or more gives a non-boolean top bit, so an
// out-of-range request yields a failing witness rather than a truncated one.
//
// Cost per participant (3,306; fixed part 3,734): three Poseidons (240 + 258 + 258), two exact
// reductions mod l (445 each, R5 and R8), the canonical bits of Poseidon(U, ss, b) (354), two
// fixed-base multiplications (513 for [P]H, 505 for [tv]G), 251 bits of tv, one R15 range
// constraint, and 36 for R1, R3, the selections and the point additions.
#include "core/transfer/transfer_circuit.hpp"

#include <array>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "core/circuit/babyjubjub_gadget.hpp"
#include "core/circuit/bits.hpp"
#include "core/circuit/fixed_base.hpp"
#include "core/payment/circuit_runs.hpp"
#include "core/payment/gadgets.hpp"
#include "core/poly/evaluation_domain.hpp"

namespace enygma {

using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::PointLc;
using circuit::Var;
using Scope = circuit::CircuitBuilder::Scope;

namespace {

constexpr unsigned kBalanceBits = 250;  // R11: V < 2^250 (and v <= V)
constexpr unsigned kTxValueBits = 251;  // the sender's tv[j] < l < 2^251; the others' < 2^250

// A request of zeros: the values of a shape-only build.
TransferRequest zero_request(unsigned k) {
  TransferRequest r;
  payment::zero_payment_fields(r, k);
  return r;
}

}  // namespace

void define_transfer_circuit(CircuitBuilder& b, unsigned k, const TransferRequest* req) {
  if (k < kMinK || k > kMaxK) std::abort();
  const TransferRequest zeros = req == nullptr ? zero_request(k) : TransferRequest{};
  const TransferRequest& r = req == nullptr ? zeros : *req;
  if (r.k != k || !r.payment_shape_ok()) std::abort();

  // ---- public inputs, in the order of TransferRequest::public_inputs() ----------------------
  const payment::PaymentPublic pub = payment::alloc_payment_public(b, r);

  // ---- private inputs ----------------------------------------------------------------------
  const payment::SenderSecrets sec = payment::alloc_sender_secrets(b, r);
  std::vector<Var> balance_bits, value_bits, random_bits;
  {
    Scope s(b, "R11 V");
    balance_bits = circuit::alloc_bits(b, r.previous_sender_balance, kBalanceBits, "bits");
  }
  {
    Scope s(b, "R11 v");
    value_bits = circuit::alloc_bits(b, r.sender_tx_value, kBalanceBits, "bits");
  }
  random_bits = payment::alloc_random_bits(b, r);
  std::vector<std::vector<Var>> tv_bits;
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R2/R13/R15 tv", int(i));  // ranges: R2 (sender), R15 (others); all serve R13
    tv_bits.push_back(circuit::alloc_bits(b, r.tx_values[i], kTxValueBits, "bits"));
  }
  const Lc balance = circuit::pack_bits(balance_bits);
  const Lc value = circuit::pack_bits(value_bits);
  std::vector<Lc> tv;
  for (const auto& bits : tv_bits) tv.push_back(circuit::pack_bits(bits));

  // ---- R1: exactly one j with as[j] == sender_id --------------------------------------------
  const std::vector<Var> sel = payment::select_sender(b, pub.as, sec.sender_id);

  // ---- R3: every previous commitment is on the curve ----------------------------------------
  payment::enforce_previous_commits_on_curve(b, pub.pc);

  // ---- R11: V < 2^250 (its bits), v <= V (v < 2^250 and V - v in 250 bits) -----------------
  payment::enforce_amount_within_balance(b, balance, value);

  // ---- R2: tv[j] == (l - v) mod l -----------------------------------------------------------
  const Lc sender_entry = payment::enforce_sender_debit(b, sel, tv, value);

  // ---- R15: for i != j, 0 <= tv[i] < 2^250, and the sum over i != j of tv[i] is v ----------
  // Exact for every k together with R10 below (payment::enforce_other_amounts).
  payment::enforce_other_amounts(b, sel, tv_bits, tv, sender_entry, value);

  // ---- R4, R6: the sender knows sk and R; R5, R8: hashed secrets and tags; R12: the
  // nullifier; R7: pc[j] == Pedersen(V, R) ------------------------------------------------------
  payment::enforce_sender_opening(b, sel, sec, pub, balance_bits, random_bits);

  // ---- R13 + R14 without tr in the circuit (payment::enforce_tx_commits) --------------------
  // X[i] = [h[i]]H; the transfer's W[i] = [tv[i]]G - X[i] holds every member's value part,
  // the sender's included.
  const std::vector<PointLc> x = payment::random_factor_points(b, sec.ss, pub.block);
  std::vector<PointLc> w(k);
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R13 tc", int(i));
    const PointLc tv_g = circuit::fixed_base_mul(b, circuit::FixedBase::kG, tv_bits[i], "[tv]G");
    w[i] = circuit::edwards_add(b, tv_g, circuit::negate(x[i]), "W = [tv]G - X");
  }
  payment::enforce_tx_commits(b, sel, w, x, nullptr, pub.tc);

  // ---- R10: tc[0] + ... + tc[k-1] == (0, 1) -------------------------------------------------
  // Enforced, not derived: sum tc = [sum tv]G + [sum tr]H (R13, R14 above), so this gives
  // sum tv == 0 modulo l, the half of R15's exactness that the field cannot give from k = 14 on
  // (see R15). R9 then needs no constraint of its own (transfer-relation.md item 6): sum tr = 0
  // mod l by the construction of tr from R14, and sum tv = tv[j] + v = l (or 0 for v = 0) as
  // integers by R2 and R15.
  {
    Scope s(b, "R10");
    PointLc partial = pub.tc[0].lc();
    for (unsigned i = 1; i + 1 < k; ++i)
      partial = circuit::edwards_add(b, partial, pub.tc[i].lc(), "sum");
    // partial + tc[k-1] == identity  <=>  partial == -tc[k-1]
    b.enforce_equal(partial.x, -Lc(pub.tc[k - 1].x), "sum.x == -tc[k-1].x");
    b.enforce_equal(partial.y, pub.tc[k - 1].y, "sum.y == tc[k-1].y");
  }
}

circuit::CircuitBuilder::SizeHint transfer_r1cs_size_hint(unsigned k) {
  // Linear in k (measured): wires 3300k + 3730, constraints 3306k + 3734, and the terms of A, B
  // and C per participant and fixed.
  auto with_margin = [](size_t n) { return n + n / 16; };
  return {with_margin(3300 * k + 3730), with_margin(3306 * k + 3734),
          with_margin(12022 * k + 12454), with_margin(18542 * k + 18544),
          with_margin(4557 * k + 5222)};
}

const R1cs& transfer_r1cs(unsigned k) {
  if (k < kMinK || k > kMaxK) std::abort();
  static std::array<std::once_flag, kMaxK + 1> once;
  static std::array<std::unique_ptr<const R1cs>, kMaxK + 1> cache;
  std::call_once(once[k], [k] {
    cache[k] = std::make_unique<const R1cs>(
        payment::build_payment_r1cs(k, &define_transfer_circuit, &transfer_r1cs_size_hint));
  });
  return *cache[k];
}

TransferCircuitInfo transfer_circuit_info(unsigned k) {
  const R1cs& r = transfer_r1cs(k);
  TransferCircuitInfo info{k, r.num_constraints(), r.num_wires, r.num_public, r.num_private(), 0,
                           0};
  const size_t rows = info.constraints + info.public_inputs + 1;
  while ((size_t(1) << info.fft_log_domain) < rows) ++info.fft_log_domain;
  info.domain_size = EvaluationDomain::size_for(rows);
  return info;
}

std::vector<Fr> transfer_witness(const TransferRequest& req) {
  return payment::payment_witness(req, req.payment_shape_ok(), &define_transfer_circuit,
                                  &transfer_r1cs_size_hint);
}

std::string first_violated_constraint(const TransferRequest& req) {
  return payment::first_violated_payment_constraint(req, req.payment_shape_ok(),
                                                    &define_transfer_circuit);
}

}  // namespace enygma
