// The transfer circuit. Rule ids R1..R15 label the constraints that enforce them.
//
// Private wires, in allocation order: sender_id, sk, ss[0..k); the bits of V (250), v (250), R
// (254, canonical) and of every tv[i] (251); then every gadget's internal wires. V, v, R and tv
// have no wire of their own: they are used only through their bits.
//
// Every tv[i] is held exactly (no reduction mod l): R13 uses it through Pedersen(tv[i], .), R2
// bounds the sender's entry (tv[j] < l < 2^251) and R15 the others' (tv[i] < 2^250: bit 250 is
// zero unless i is the sender). A value of 2^251 or more gives a non-boolean top bit, so an
// out-of-range request yields a failing witness rather than a truncated one.
//
// Cost per participant (3,306; fixed part 3,731): three Poseidons (240 + 258 + 258), two exact
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
#include "core/circuit/compare.hpp"
#include "core/circuit/fixed_base.hpp"
#include "core/circuit/mod_l.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/primitives/poseidon.hpp"

namespace enygma {

using circuit::BuildMode;
using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::PointLc;
using circuit::PoseidonInput;
using circuit::Var;
using Scope = circuit::CircuitBuilder::Scope;

namespace {

constexpr unsigned kBalanceBits = 250;  // R11: V < 2^250 (and v <= V)
constexpr unsigned kTxValueBits = 251;  // the sender's tv[j] < l < 2^251; the others' < 2^250

bool request_shape_ok(const TransferRequest& r, unsigned k) {
  return r.shared_secrets.size() == k && r.tx_values.size() == k &&
         r.tx_random_values.size() == k && r.hashed_shared_secrets.size() == k &&
         r.public_keys.size() == k && r.previous_commits.size() == k && r.tx_commits.size() == k &&
         r.anonymity_set.size() == k && r.message_tags.size() == k;
}

// A request of zeros: the values of a shape-only build.
TransferRequest zero_request(unsigned k) {
  TransferRequest r;
  r.k = k;
  r.sender_id = r.secret_key = r.previous_sender_balance = r.previous_sender_random_value =
      r.sender_tx_value = r.nullifier = r.block_number = Fr::zero();
  r.shared_secrets = r.tx_values = r.tx_random_values = r.hashed_shared_secrets = r.public_keys =
      r.anonymity_set = r.message_tags = std::vector<Fr>(k, Fr::zero());
  r.previous_commits = r.tx_commits = std::vector<BjjPoint>(k, BjjPoint{Fr::zero(), Fr::zero()});
  return r;
}

Fr l_as_fr() {
  return *Fr::from_canonical(babyjubjub::subgroup_order());
}

struct PointVars {
  Var x, y;
  PointLc lc() const { return circuit::point_of(x, y); }
};

}  // namespace

void define_transfer_circuit(CircuitBuilder& b, unsigned k, const TransferRequest* req) {
  if (k < kMinK || k > kMaxK) std::abort();
  const TransferRequest zeros = req == nullptr ? zero_request(k) : TransferRequest{};
  const TransferRequest& r = req == nullptr ? zeros : *req;
  if (!request_shape_ok(r, k)) std::abort();
  const Fr l = l_as_fr();

  // ---- public inputs, in the order of TransferRequest::public_inputs() ----------------------
  std::vector<Var> hs, pk, as, mt;
  std::vector<PointVars> pc, tc;
  for (unsigned i = 0; i < k; ++i) hs.push_back(b.public_input(r.hashed_shared_secrets[i]));
  for (unsigned i = 0; i < k; ++i) pk.push_back(b.public_input(r.public_keys[i]));
  for (unsigned i = 0; i < k; ++i) {
    pc.push_back(
        {b.public_input(r.previous_commits[i].x), b.public_input(r.previous_commits[i].y)});
  }
  for (unsigned i = 0; i < k; ++i) {
    tc.push_back({b.public_input(r.tx_commits[i].x), b.public_input(r.tx_commits[i].y)});
  }
  const Var nf = b.public_input(r.nullifier);
  const Var block = b.public_input(r.block_number);
  for (unsigned i = 0; i < k; ++i) as.push_back(b.public_input(r.anonymity_set[i]));
  for (unsigned i = 0; i < k; ++i) mt.push_back(b.public_input(r.message_tags[i]));

  // ---- private inputs ----------------------------------------------------------------------
  const Var sender_id = b.private_wire(r.sender_id);
  const Var sk = b.private_wire(r.secret_key);
  std::vector<Var> ss;
  for (unsigned i = 0; i < k; ++i) ss.push_back(b.private_wire(r.shared_secrets[i]));
  std::vector<Var> balance_bits, value_bits, random_bits;
  {
    Scope s(b, "R11 V");
    balance_bits = circuit::alloc_bits(b, r.previous_sender_balance, kBalanceBits, "bits");
  }
  {
    Scope s(b, "R11 v");
    value_bits = circuit::alloc_bits(b, r.sender_tx_value, kBalanceBits, "bits");
  }
  {
    Scope s(b, "R7 R");
    random_bits = circuit::alloc_bits_canonical(b, r.previous_sender_random_value, "bits");
  }
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
  std::vector<Var> sel;
  Lc sel_sum;
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R1 as", int(i));
    sel.push_back(circuit::is_equal(b, as[i], sender_id, "== sender_id"));
    sel_sum += Lc(sel.back());
  }
  b.enforce_equal(sel_sum, Lc::constant(1), "R1 exactly one sender");
  // sel[i] * (a[i] - target) = 0 for every i: a[j] == target for the sender j.
  auto enforce_selected_equal = [&](const std::vector<Lc>& a, const Lc& target,
                                    std::string_view label) {
    Scope s(b, label);
    for (unsigned i = 0; i < k; ++i) {
      Scope si(b, "i", int(i));
      b.enforce(sel[i], a[i] - target, Lc(), "sel[i] * (a[i] - target) = 0");
    }
  };
  auto lcs = [](const std::vector<Var>& v) { return std::vector<Lc>(v.begin(), v.end()); };

  // ---- R3: every previous commitment is on the curve (the tx commitments are equal to points
  // computed below, so they are on it by construction) --------------------------------------
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R3 pc", int(i));
    circuit::enforce_on_curve(b, pc[i].lc(), "on curve");
  }

  // ---- R11: V < 2^250 (its bits), v <= V (v < 2^250 and V - v in 250 bits) -----------------
  {
    Scope s(b, "R11 V - v");
    circuit::to_bits(b, balance - value, kBalanceBits, "bits");
  }

  // ---- R2: tv[j] == (l - v) mod l, i.e. l - v for v > 0 and 0 for v = 0 (v < 2^250 < l). Both
  // sides are below 2^251, so equality in the field is equality of integers; tv[j] < 2^252.
  Lc sender_entry;  // (l - v) mod l, which R2 makes equal to tv[j]
  {
    Scope s(b, "R2");
    const Var v_is_zero = circuit::is_zero(b, value, "v == 0");
    sender_entry = Lc::constant(l) - value - l * Lc(v_is_zero);
    enforce_selected_equal(tv, sender_entry, "tv[j] == (l - v) mod l");
  }

  // ---- R15: for i != j, 0 <= tv[i] < 2^250, and the sum over i != j of tv[i] is v ----------
  // With u[i] = (1 - sel[i]) * tv[i] (transfer-relation.md):
  //  - range: tv[i] has 251 bits; (1 - sel[i]) * bit250 = 0 makes u[i] < 2^250 (for the sender
  //    u[j] = 0 and its bit 250 is free: tv[j] = l - v may exceed 2^250).
  //  - sum: sum u[i] = sum tv[i] - tv[j] = sum tv[i] - (l - v) mod l by R2, so the one linear
  //    constraint sum tv[i] - sender_entry == v states S == v modulo p, where S is the integer
  //    sum over i != j of tv[i], 0 <= S < (k - 1) * 2^250.
  //  - exactness for every k, without bounding partial sums: R10 (below) gives S == v modulo l
  //    as well (sum tv = tv[j] + S == 0 mod l with tv[j] = l - v, or 0 when v = 0). l and p are
  //    distinct primes, so S - v is a multiple of l * p (about 2^504), while |S - v| < 16 * 2^250
  //    for k <= 16: S == v as integers. (For k <= 13 the field equality alone suffices, as
  //    (k - 1) * 2^250 < p; from k = 14 on this argument needs R10, which must therefore stay.)
  {
    Scope s(b, "R15");
    for (unsigned i = 0; i < k; ++i) {
      Scope si(b, "tv", int(i));
      b.enforce(Lc::constant(Fr::one()) - Lc(sel[i]), tv_bits[i][kTxValueBits - 1], Lc(),
                "(1 - sel) * bit250 == 0");
    }
    Lc sum;
    for (const Lc& x : tv) sum += x;
    b.enforce_equal(sum - sender_entry, value, "sum over i != j of tv[i] == v");
  }

  // ---- R4: ss[j] == Poseidon(R, sk) mod l; R6: pk[j] == Poseidon(sk, sk) mod l --------------
  {
    Scope s(b, "R4");
    const PoseidonInput in[2] = {circuit::pack_bits(random_bits), sk};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(R, sk)"), "mod l");
    enforce_selected_equal(lcs(ss), m.remainder, "ss[j] == Poseidon(R, sk) mod l");
  }
  {
    Scope s(b, "R6");
    const PoseidonInput in[2] = {sk, sk};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(sk, sk)"), "mod l");
    enforce_selected_equal(lcs(pk), m.remainder, "pk[j] == Poseidon(sk, sk) mod l");
  }

  // ---- R5: hs[i] == Poseidon(ss[i], ss[i]) mod l; R8: mt[i] == Poseidon(T, ss[i], b) mod l ---
  const Fr tag_domain = poseidon(Fr::from_u64(12));     // T
  const Fr random_domain = poseidon(Fr::from_u64(21));  // U
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R5 hs", int(i));
    const PoseidonInput in[2] = {ss[i], ss[i]};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(ss, ss)"), "mod l");
    b.enforce_equal(m.remainder, hs[i], "hs == Poseidon(ss, ss) mod l");
  }
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R8 mt", int(i));
    const PoseidonInput in[3] = {PoseidonInput::constant(tag_domain), ss[i], block};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(T, ss, b)"), "mod l");
    b.enforce_equal(m.remainder, mt[i], "mt == Poseidon(T, ss, b) mod l");
  }

  // ---- R12: nf == Poseidon(hs[j], b), no reduction ------------------------------------------
  {
    Scope s(b, "R12");
    Lc hs_sender;
    for (unsigned i = 0; i < k; ++i) hs_sender += Lc(b.mul(sel[i], hs[i], "sel * hs"));
    const PoseidonInput in[2] = {hs_sender, block};
    b.enforce_equal(circuit::poseidon_gadget(b, in, "Poseidon(hs[j], b)"), nf,
                    "nf == Poseidon(hs[j], b)");
  }

  // ---- R7: pc[j] == Pedersen(V, R) = [V]G + [R]H --------------------------------------------
  {
    Scope s(b, "R7");
    const PointLc vg = circuit::fixed_base_mul(b, circuit::FixedBase::kG, balance_bits, "[V]G");
    const PointLc rh = circuit::fixed_base_mul(b, circuit::FixedBase::kH, random_bits, "[R]H");
    const PointLc commit = circuit::edwards_add(b, vg, rh, "[V]G + [R]H");
    std::vector<Lc> xs, ys;
    for (const auto& p : pc) {
      xs.push_back(Lc(p.x));
      ys.push_back(Lc(p.y));
    }
    enforce_selected_equal(xs, commit.x, "pc[j].x");
    enforce_selected_equal(ys, commit.y, "pc[j].y");
  }

  // ---- R13 + R14 without tr in the circuit --------------------------------------------------
  // P[i] = Poseidon(U, ss[i], b) and X[i] = [P[i]]H with the canonical bits of P[i]; H has
  // order l, so X[i] = [P[i] mod l]H = [h[i]]H. R14 gives [tr[i]]H = -X[i] for i != j and
  // [tr[j]]H = sum over i != j of X[i] = S - X[j], S = sum of all X[i]. So R13 for every i is
  // tc[i] == W[i] + sel[i] * S with W[i] = [tv[i]]G - X[i]. Conversely, when these hold, tr
  // defined by R14 from h satisfies R13 and R14: the circuit proves exactly R13 and R14, for
  // any k (no reduction of a k-term sum is needed). The prover knows tr: it is a function of ss
  // and b. For the sender the sum is formed once: Y = W[j] + S with W[j] = sum of sel[i]*W[i],
  // then tc[i] == W[i] + sel[i] * (Y - W[i]) costs 2 constraints per i.
  std::vector<PointLc> w(k), x(k);
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R14 P", int(i));
    const PoseidonInput in[3] = {PoseidonInput::constant(random_domain), ss[i], block};
    const Lc p = circuit::poseidon_gadget(b, in, "Poseidon(U, ss, b)");
    const std::vector<Var> p_bits = circuit::to_bits_canonical(b, p, "canonical bits");
    x[i] = circuit::fixed_base_mul(b, circuit::FixedBase::kH, p_bits, "[P]H");
  }
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R13 tc", int(i));
    const PointLc tv_g = circuit::fixed_base_mul(b, circuit::FixedBase::kG, tv_bits[i], "[tv]G");
    w[i] = circuit::edwards_add(b, tv_g, circuit::negate(x[i]), "W = [tv]G - X");
  }
  PointLc y;  // W[j] + S
  {
    Scope s(b, "R14 S");
    PointLc sum = x[0];
    for (unsigned i = 1; i < k; ++i) sum = circuit::edwards_add(b, sum, x[i], "S += X[i]");
    PointLc w_sender;
    for (unsigned i = 0; i < k; ++i) {
      w_sender.x += Lc(b.mul(sel[i], w[i].x, "sel * W.x"));
      w_sender.y += Lc(b.mul(sel[i], w[i].y, "sel * W.y"));
    }
    y = circuit::edwards_add(b, w_sender, sum, "Y = W[j] + S");
  }
  for (unsigned i = 0; i < k; ++i) {
    Scope s(b, "R13 tc", int(i));
    b.enforce(sel[i], y.x - w[i].x, Lc(tc[i].x) - w[i].x, "tc.x == W.x + sel * (Y.x - W.x)");
    b.enforce(sel[i], y.y - w[i].y, Lc(tc[i].y) - w[i].y, "tc.y == W.y + sel * (Y.y - W.y)");
  }

  // ---- R10: tc[0] + ... + tc[k-1] == (0, 1) -------------------------------------------------
  // Enforced, not derived: sum tc = [sum tv]G + [sum tr]H (R13, R14 above), so this gives
  // sum tv == 0 modulo l, the half of R15's exactness that the field cannot give from k = 14 on
  // (see R15). R9 then needs no constraint of its own (transfer-relation.md item 6): sum tr = 0
  // mod l by the construction of tr from R14, and sum tv = tv[j] + v = l (or 0 for v = 0) as
  // integers by R2 and R15.
  {
    Scope s(b, "R10");
    PointLc partial = tc[0].lc();
    for (unsigned i = 1; i + 1 < k; ++i)
      partial = circuit::edwards_add(b, partial, tc[i].lc(), "sum");
    // partial + tc[k-1] == identity  <=>  partial == -tc[k-1]
    b.enforce_equal(partial.x, -Lc(tc[k - 1].x), "sum.x == -tc[k-1].x");
    b.enforce_equal(partial.y, tc[k - 1].y, "sum.y == tc[k-1].y");
  }
}

circuit::CircuitBuilder::SizeHint transfer_r1cs_size_hint(unsigned k) {
  // Linear in k (measured): wires 3300k + 3727, constraints 3305k + 3730, and the terms of A, B
  // and C per participant and fixed.
  auto with_margin = [](size_t n) { return n + n / 16; };
  return {with_margin(3300 * k + 3727), with_margin(3305 * k + 3730),
          with_margin(11769 * k + 12236), with_margin(18541 * k + 18568),
          with_margin(4557 * k + 4966)};
}

const R1cs& transfer_r1cs(unsigned k) {
  if (k < kMinK || k > kMaxK) std::abort();
  static std::array<std::once_flag, kMaxK + 1> once;
  static std::array<std::unique_ptr<const R1cs>, kMaxK + 1> cache;
  std::call_once(once[k], [k] {
    CircuitBuilder b(BuildMode::kShape);
    b.reserve(transfer_r1cs_size_hint(k));
    define_transfer_circuit(b, k, nullptr);
    cache[k] = std::make_unique<const R1cs>(b.take_r1cs());
  });
  return *cache[k];
}

TransferCircuitInfo transfer_circuit_info(unsigned k) {
  const R1cs& r = transfer_r1cs(k);
  TransferCircuitInfo info{k, r.num_constraints(), r.num_wires, r.num_public, r.num_private(), 0};
  const size_t rows = info.constraints + info.public_inputs + 1;
  while ((size_t(1) << info.fft_log_domain) < rows) ++info.fft_log_domain;
  return info;
}

std::vector<Fr> transfer_witness(const TransferRequest& req) {
  if (req.k < kMinK || req.k > kMaxK || !request_shape_ok(req, req.k)) return {};
  CircuitBuilder b(BuildMode::kWitness);
  b.reserve(transfer_r1cs_size_hint(req.k));  // no growth: no copies of secrets left behind
  define_transfer_circuit(b, req.k, &req);
  return b.take_witness();
}

std::string first_violated_constraint(const TransferRequest& req) {
  if (req.k < kMinK || req.k > kMaxK || !request_shape_ok(req, req.k)) return "input shape";
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  define_transfer_circuit(b, req.k, &req);
  return b.first_violation() ? b.first_violation_label() : std::string();
}

}  // namespace enygma
