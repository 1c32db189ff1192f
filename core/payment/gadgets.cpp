#include "core/payment/gadgets.hpp"

#include "core/circuit/bits.hpp"
#include "core/circuit/compare.hpp"
#include "core/circuit/fixed_base.hpp"
#include "core/circuit/mod_l.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/payment/relation.hpp"

namespace enygma::payment {

using circuit::PoseidonInput;
using Scope = CircuitBuilder::Scope;

namespace {

constexpr unsigned kAmountBits = 250;   // R11 and R15: amounts below 2^250
constexpr unsigned kTxValueBits = 251;  // the transfer's tv[i]: tv[j] < l < 2^251

std::vector<Lc> lcs(std::span<const Var> v) {
  return std::vector<Lc>(v.begin(), v.end());
}

}  // namespace

PaymentPublic alloc_payment_public(CircuitBuilder& b, const PaymentRequest& r) {
  const unsigned k = r.k;
  PaymentPublic p;
  for (unsigned i = 0; i < k; ++i) p.hs.push_back(b.public_input(r.hashed_shared_secrets[i]));
  for (unsigned i = 0; i < k; ++i) p.pk.push_back(b.public_input(r.public_keys[i]));
  for (unsigned i = 0; i < k; ++i) {
    p.pc.push_back(
        {b.public_input(r.previous_commits[i].x), b.public_input(r.previous_commits[i].y)});
  }
  for (unsigned i = 0; i < k; ++i) {
    p.tc.push_back({b.public_input(r.tx_commits[i].x), b.public_input(r.tx_commits[i].y)});
  }
  p.nf = b.public_input(r.nullifier);
  p.block = b.public_input(r.block_number);
  for (unsigned i = 0; i < k; ++i) p.as.push_back(b.public_input(r.anonymity_set[i]));
  for (unsigned i = 0; i < k; ++i) p.mt.push_back(b.public_input(r.message_tags[i]));
  return p;
}

std::vector<Var> alloc_random_bits(CircuitBuilder& b, const PaymentRequest& r) {
  Scope s(b, "R16 R");
  return circuit::alloc_bits_below_l(b, r.previous_sender_random_value, "bits <= l - 1");
}

SenderSecrets alloc_sender_secrets(CircuitBuilder& b, const PaymentRequest& r) {
  SenderSecrets s;
  s.sender_id = b.private_wire(r.sender_id);
  s.sk = b.private_wire(r.secret_key);
  for (unsigned i = 0; i < r.k; ++i) s.ss.push_back(b.private_wire(r.shared_secrets[i]));
  return s;
}

std::vector<Var> select_sender(CircuitBuilder& b, std::span<const Var> as, const Var& sender_id) {
  std::vector<Var> sel;
  Lc sel_sum;
  for (size_t i = 0; i < as.size(); ++i) {
    Scope s(b, "R1 as", int(i));
    sel.push_back(circuit::is_equal(b, as[i], sender_id, "== sender_id"));
    sel_sum += Lc(sel.back());
  }
  b.enforce_equal(sel_sum, Lc::constant(1), "R1 exactly one sender");
  return sel;
}

void enforce_selected_equal(CircuitBuilder& b, std::span<const Var> sel, std::span<const Lc> a,
                            const Lc& target, std::string_view label) {
  Scope s(b, label);
  for (size_t i = 0; i < sel.size(); ++i) {
    Scope si(b, "i", int(i));
    b.enforce(sel[i], a[i] - target, Lc(), "sel[i] * (a[i] - target) = 0");
  }
}

void enforce_previous_commits_on_curve(CircuitBuilder& b, std::span<const PointVars> pc) {
  for (size_t i = 0; i < pc.size(); ++i) {
    Scope s(b, "R3 pc", int(i));
    circuit::enforce_on_curve(b, pc[i].lc(), "on curve");
  }
}

void enforce_amount_within_balance(CircuitBuilder& b, const Lc& balance, const Lc& value) {
  Scope s(b, "R11 V - v");
  circuit::to_bits(b, balance - value, kAmountBits, "bits");
}

Lc enforce_sender_debit(CircuitBuilder& b, std::span<const Var> sel, std::span<const Lc> tv,
                        const Lc& value) {
  Scope s(b, "R2");
  const Fr l = relation::l_as_fr();
  const Var v_is_zero = circuit::is_zero(b, value, "v == 0");
  Lc sender_entry = Lc::constant(l) - value - l * Lc(v_is_zero);
  enforce_selected_equal(b, sel, tv, sender_entry, "tv[j] == (l - v) mod l");
  return sender_entry;
}

// With u[i] = (1 - sel[i]) * tv[i] (transfer-relation.md, R15):
//  - range: tv[i] has 251 bits; (1 - sel[i]) * bit250 = 0 makes u[i] < 2^250 (for the sender
//    u[j] = 0 and its bit 250 is free: tv[j] = l - v may exceed 2^250).
//  - sum: sum u[i] = sum tv[i] - tv[j] = sum tv[i] - (l - v) mod l by R2, so the one linear
//    constraint sum tv[i] - sender_entry == v states S == v modulo p, where S is the integer
//    sum over i != j of tv[i], 0 <= S < (k - 1) * 2^250.
//  - exactness for every k, without bounding partial sums: R10 gives S == v modulo l as well
//    (sum tv = tv[j] + S == 0 mod l with tv[j] = l - v, or 0 when v = 0). l and p are distinct
//    primes, so S - v is a multiple of l * p (about 2^504), while |S - v| < 16 * 2^250 for
//    k <= 16: S == v as integers. (For k <= 13 the field equality alone suffices, as
//    (k - 1) * 2^250 < p; from k = 14 on this argument needs R10, which the transfer circuit
//    therefore enforces.)
//  - the range is also implied: with 251-bit terms the same argument gives S == v, and
//    non-negative terms adding up to v < 2^250 are each below 2^250. It is kept (one constraint
//    per member) so that R15's range does not rest on R10 and R11; no test can break it alone.
void enforce_other_amounts(CircuitBuilder& b, std::span<const Var> sel,
                           std::span<const std::vector<Var>> tv_bits, std::span<const Lc> tv,
                           const Lc& sender_entry, const Lc& value) {
  Scope s(b, "R15");
  for (size_t i = 0; i < sel.size(); ++i) {
    Scope si(b, "tv", int(i));
    b.enforce(Lc::constant(Fr::one()) - Lc(sel[i]), tv_bits[i][kTxValueBits - 1], Lc(),
              "(1 - sel) * bit250 == 0");
  }
  Lc sum;
  for (const Lc& x : tv) sum += x;
  b.enforce_equal(sum - sender_entry, value, "sum over i != j of tv[i] == v");
}

// R15 with total 0 (deposit-relation.md, withdraw-relation.md): non-negative amounts adding up
// to 0 are all 0, so no range check is needed, one product per member.
void enforce_others_receive_nothing(CircuitBuilder& b, std::span<const Var> sel,
                                    std::span<const Lc> tv, std::string_view rule) {
  Scope s(b, rule);
  for (size_t i = 0; i < sel.size(); ++i) {
    Scope si(b, "tv", int(i));
    b.enforce(Lc::constant(Fr::one()) - Lc(sel[i]), tv[i], Lc(), "(1 - sel) * tv == 0");
  }
}

Lc spend_key(CircuitBuilder& b, const Lc& sk) {
  const PoseidonInput in[2] = {sk, sk};
  return circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(sk, sk)"), "mod l")
      .remainder;
}

void enforce_secret_knowledge(CircuitBuilder& b, std::span<const Var> sel, const Var& sk,
                              const Lc& random, std::span<const Var> ss, std::span<const Var> pk) {
  {
    Scope s(b, "R4");
    const PoseidonInput in[2] = {random, sk};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(R, sk)"), "mod l");
    enforce_selected_equal(b, sel, lcs(ss), m.remainder, "ss[j] == Poseidon(R, sk) mod l");
  }
  {
    Scope s(b, "R6");
    enforce_selected_equal(b, sel, lcs(pk), spend_key(b, sk), "pk[j] == Poseidon(sk, sk) mod l");
  }
}

void enforce_hashed_secrets_and_tags(CircuitBuilder& b, std::span<const Var> ss,
                                     std::span<const Var> hs, std::span<const Var> mt,
                                     const Var& block) {
  for (size_t i = 0; i < ss.size(); ++i) {
    Scope s(b, "R5 hs", int(i));
    const PoseidonInput in[2] = {ss[i], ss[i]};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(ss, ss)"), "mod l");
    b.enforce_equal(m.remainder, hs[i], "hs == Poseidon(ss, ss) mod l");
  }
  const Fr tag_domain = relation::message_tag_domain();  // T
  for (size_t i = 0; i < ss.size(); ++i) {
    Scope s(b, "R8 mt", int(i));
    const PoseidonInput in[3] = {PoseidonInput::constant(tag_domain), ss[i], block};
    circuit::ModLResult m =
        circuit::mod_l_exact(b, circuit::poseidon_gadget(b, in, "Poseidon(T, ss, b)"), "mod l");
    b.enforce_equal(m.remainder, mt[i], "mt == Poseidon(T, ss, b) mod l");
  }
}

void enforce_nullifier(CircuitBuilder& b, std::span<const Var> sel, std::span<const Var> hs,
                       const Var& block, const Var& nf) {
  Scope s(b, "R12");
  Lc hs_sender;
  for (size_t i = 0; i < sel.size(); ++i) hs_sender += Lc(b.mul(sel[i], hs[i], "sel * hs"));
  const PoseidonInput in[2] = {hs_sender, block};
  b.enforce_equal(circuit::poseidon_gadget(b, in, "Poseidon(hs[j], b)"), nf,
                  "nf == Poseidon(hs[j], b)");
}

void enforce_previous_commit(CircuitBuilder& b, std::span<const Var> sel,
                             std::span<const PointVars> pc, std::span<const Var> balance_bits,
                             std::span<const Var> random_bits) {
  Scope s(b, "R7");
  const PointLc vg = circuit::fixed_base_mul(b, circuit::FixedBase::kG, balance_bits, "[V]G");
  const PointLc rh = circuit::fixed_base_mul(b, circuit::FixedBase::kH, random_bits, "[R]H");
  const PointLc commit = circuit::edwards_add(b, vg, rh, "[V]G + [R]H");
  std::vector<Lc> xs, ys;
  for (const PointVars& p : pc) {
    xs.push_back(Lc(p.x));
    ys.push_back(Lc(p.y));
  }
  enforce_selected_equal(b, sel, xs, commit.x, "pc[j].x");
  enforce_selected_equal(b, sel, ys, commit.y, "pc[j].y");
}

void enforce_sender_opening(CircuitBuilder& b, std::span<const Var> sel, const SenderSecrets& sec,
                            const PaymentPublic& pub, std::span<const Var> balance_bits,
                            std::span<const Var> random_bits) {
  enforce_secret_knowledge(b, sel, sec.sk, circuit::pack_bits(random_bits), sec.ss, pub.pk);
  enforce_hashed_secrets_and_tags(b, sec.ss, pub.hs, pub.mt, pub.block);
  enforce_nullifier(b, sel, pub.hs, pub.block, pub.nf);
  enforce_previous_commit(b, sel, pub.pc, balance_bits, random_bits);
}

std::vector<PointLc> random_factor_points(CircuitBuilder& b, std::span<const Var> ss,
                                          const Var& block) {
  const Fr random_domain = relation::random_factor_domain();  // U
  std::vector<PointLc> x(ss.size());
  for (size_t i = 0; i < ss.size(); ++i) {
    Scope s(b, "R14 P", int(i));
    const PoseidonInput in[3] = {PoseidonInput::constant(random_domain), ss[i], block};
    const Lc p = circuit::poseidon_gadget(b, in, "Poseidon(U, ss, b)");
    const std::vector<Var> p_bits = circuit::to_bits_canonical(b, p, "canonical bits");
    x[i] = circuit::fixed_base_mul(b, circuit::FixedBase::kH, p_bits, "[P]H");
  }
  return x;
}

void enforce_tx_commits(CircuitBuilder& b, std::span<const Var> sel, std::span<const PointLc> w,
                        std::span<const PointLc> x, const PointLc* sender_value,
                        std::span<const PointVars> tc) {
  const size_t k = sel.size();
  PointLc y;  // W[j] + S (+ E)
  {
    Scope s(b, "R14 S");
    PointLc sum = x[0];
    for (size_t i = 1; i < k; ++i) sum = circuit::edwards_add(b, sum, x[i], "S += X[i]");
    // W[j] as sum of sel[i] * W[i] (exactly one selector is 1, by R1).
    PointLc w_sender;
    for (size_t i = 0; i < k; ++i) {
      w_sender.x += Lc(b.mul(sel[i], w[i].x, "sel * W.x"));
      w_sender.y += Lc(b.mul(sel[i], w[i].y, "sel * W.y"));
    }
    y = circuit::edwards_add(b, w_sender, sum, "Y = W[j] + S");
  }
  if (sender_value != nullptr) {
    Scope s(b, "R13 sender");
    y = circuit::edwards_add(b, y, *sender_value, "Y += [tv[j]]G");
  }
  for (size_t i = 0; i < k; ++i) {
    Scope s(b, "R13 tc", int(i));
    b.enforce(sel[i], y.x - w[i].x, Lc(tc[i].x) - w[i].x, "tc.x == W.x + sel * (Y.x - W.x)");
    b.enforce(sel[i], y.y - w[i].y, Lc(tc[i].y) - w[i].y, "tc.y == W.y + sel * (Y.y - W.y)");
  }
}

void enforce_sender_only_tx_commits(CircuitBuilder& b, std::span<const Var> sel,
                                    const SenderSecrets& sec, const PaymentPublic& pub,
                                    std::span<const Var> value_bits, bool debit) {
  const std::vector<PointLc> x = random_factor_points(b, sec.ss, pub.block);
  std::vector<PointLc> w;
  for (const PointLc& p : x) w.push_back(circuit::negate(p));
  PointLc sender_value;
  {
    Scope s(b, "R13 sender");
    sender_value = circuit::fixed_base_mul(b, circuit::FixedBase::kG, value_bits, "[v]G");
    if (debit) sender_value = circuit::negate(sender_value);
  }
  enforce_tx_commits(b, sel, w, x, &sender_value, pub.tc);
}

Lc note_hash(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& amount, const Lc& address) {
  const PoseidonInput inner[2] = {pk, salt};
  const PoseidonInput middle[2] = {circuit::poseidon_gadget(b, inner, "Poseidon(pk, salt)"),
                                   amount};
  const PoseidonInput outer[2] = {circuit::poseidon_gadget(b, middle, "Poseidon(., amount)"),
                                  address};
  return circuit::poseidon_gadget(b, outer, "Poseidon(., address)");
}

}  // namespace enygma::payment
