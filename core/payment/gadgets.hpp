// The circuit pieces the three payment circuits (transfer, deposit, withdraw) share, as
// functions each circuit definition calls: public inputs, sender selection (R1), secret
// knowledge (R4, R6), hashed secrets and tags (R5, R8), the nullifier (R12), the previous
// commitment (R7), R11, R2 and the R15 forms, R13 + R14 without tr in the circuit, and the
// note hash of D1 and W1. Each one opens a Scope named by its rule id, so every constraint it
// adds is labelled "<rule> ...".
//
// The caller allocates the wires; these functions only read them. None of them branches on
// witness values (core/circuit/builder.hpp), so the shape is the same in every mode.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/circuit/babyjubjub_gadget.hpp"
#include "core/circuit/builder.hpp"
#include "core/payment/request.hpp"

namespace enygma::payment {

using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::PointLc;
using circuit::Var;

struct PointVars {
  Var x, y;
  PointLc lc() const { return circuit::point_of(x, y); }
};

// The 8k + 2 public inputs of PaymentRequest::payment_public_inputs(), in that order (the first
// wires after the constant; a family's own public inputs follow them).
struct PaymentPublic {
  std::vector<Var> hs, pk;
  std::vector<PointVars> pc, tc;
  Var nf, block;
  std::vector<Var> as, mt;
};
PaymentPublic alloc_payment_public(CircuitBuilder& b, const PaymentRequest& r);

// The first private wires of every payment circuit: sender_id, sk and ss[0..k).
struct SenderSecrets {
  Var sender_id, sk;
  std::vector<Var> ss;
};
SenderSecrets alloc_sender_secrets(CircuitBuilder& b, const PaymentRequest& r);

// R16: the bits of R (previous_sender_random_value), at most l - 1: one R, hence one nullifier,
// per balance commitment. R7 (enforce_sender_opening) uses them.
std::vector<Var> alloc_random_bits(CircuitBuilder& b, const PaymentRequest& r);

// R1: sel[i] = [as[i] == sender_id] (zero tests) and sum(sel) == 1. The selectors stand for the
// private sender index j everywhere below.
std::vector<Var> select_sender(CircuitBuilder& b, std::span<const Var> as, const Var& sender_id);

// sel[i] * (a[i] - target) == 0 for every i: a[j] == target for the sender j (one constraint
// per member), under Scope `label`.
void enforce_selected_equal(CircuitBuilder& b, std::span<const Var> sel, std::span<const Lc> a,
                            const Lc& target, std::string_view label);

// R3 for the previous commitments (the tx commitments equal points the circuit computes, so
// they are on the curve by construction).
void enforce_previous_commits_on_curve(CircuitBuilder& b, std::span<const PointVars> pc);

// R11: V - v has 250 bits, given V and v as 250-bit combinations: with V < 2^250 and v < 2^250
// from their own bits this is v <= V.
void enforce_amount_within_balance(CircuitBuilder& b, const Lc& balance, const Lc& value);

// R2 (transfer, deposit): tv[j] == (l - v) mod l for v < 2^250 < l, i.e. l - v for v > 0 and
// 0 for v = 0. Returns (l - v) mod l as a combination. Both sides are below 2^251 < p, so the
// field equality is the integer one.
Lc enforce_sender_debit(CircuitBuilder& b, std::span<const Var> sel, std::span<const Lc> tv,
                        const Lc& value);

// R15 (transfer): for i != j, tv[i] < 2^250, and the sum over i != j of tv[i] is v; tv_bits[i]
// are tv[i]'s 251 bits and sender_entry the R2 value of tv[j]. Exact as integers only together
// with R10 from k = 14 on (see gadgets.cpp).
void enforce_other_amounts(CircuitBuilder& b, std::span<const Var> sel,
                           std::span<const std::vector<Var>> tv_bits, std::span<const Lc> tv,
                           const Lc& sender_entry, const Lc& value);

// R15d, R15w (`rule`): (1 - sel[i]) * tv[i] == 0, so tv[i] == 0 for every i != j.
void enforce_others_receive_nothing(CircuitBuilder& b, std::span<const Var> sel,
                                    std::span<const Lc> tv, std::string_view rule);

// Poseidon(sk, sk) mod l, exact (mod_l_exact): the spend key of R6 and W1's PK.
Lc spend_key(CircuitBuilder& b, const Lc& sk);

// R4: ss[j] == Poseidon(R, sk) mod l; R6: pk[j] == Poseidon(sk, sk) mod l. Both exact.
void enforce_secret_knowledge(CircuitBuilder& b, std::span<const Var> sel, const Var& sk,
                              const Lc& random, std::span<const Var> ss, std::span<const Var> pk);

// R5: hs[i] == Poseidon(ss[i], ss[i]) mod l; R8: mt[i] == Poseidon(T, ss[i], b) mod l. Exact.
void enforce_hashed_secrets_and_tags(CircuitBuilder& b, std::span<const Var> ss,
                                     std::span<const Var> hs, std::span<const Var> mt,
                                     const Var& block);

// R12: nf == Poseidon(hs[j], b), no reduction.
void enforce_nullifier(CircuitBuilder& b, std::span<const Var> sel, std::span<const Var> hs,
                       const Var& block, const Var& nf);

// R7: pc[j] == Pedersen(V, R) = [V]G + [R]H, from V's and R's bits (boolean, constrained by the
// caller; R's 251 bits at most l - 1 (R16), and V's either below 2^250 or canonical).
void enforce_previous_commit(CircuitBuilder& b, std::span<const Var> sel,
                             std::span<const PointVars> pc, std::span<const Var> balance_bits,
                             std::span<const Var> random_bits);

// What every payment relation asks of the sender's identity and previous balance, in this order:
// R4 + R6 (enforce_secret_knowledge), R5 + R8 (enforce_hashed_secrets_and_tags), R12
// (enforce_nullifier) and R7 (enforce_previous_commit).
void enforce_sender_opening(CircuitBuilder& b, std::span<const Var> sel, const SenderSecrets& sec,
                            const PaymentPublic& pub, std::span<const Var> balance_bits,
                            std::span<const Var> random_bits);

// R14, first half: X[i] = [Poseidon(U, ss[i], b)]H with the canonical bits of the hash, which
// is [h[i]]H for h[i] = Poseidon(U, ss[i], b) mod l, exactly (H has order l).
std::vector<PointLc> random_factor_points(CircuitBuilder& b, std::span<const Var> ss,
                                          const Var& block);

// R13 + R14 without tr in the circuit. R14 gives [tr[i]]H = -X[i] for i != j and
// [tr[j]]H = S - X[j], S = sum of every X[i]; so, with W[i] = [tv[i]]G - X[i] for i != j,
// R13 for every i is tc[i] == W[i] for i != j and tc[j] == Y = W[j] + S + E for the sender,
// where the sender's [tv[j]]G is either in W[j] (transfer: `w` holds [tv[i]]G - X[i] for every
// i, sender_value == nullptr) or is E = *sender_value (deposit, withdraw: w[i] = -X[i], and
// E = [tv[j]]G computed once from v). Enforced as the selection
// tc[i] == W[i] + sel[i] * (Y - W[i]), two constraints per member. Conversely, when these
// hold, tr defined by R14 from h satisfies R13 and R14: the circuit proves exactly R13 and R14
// for any k (no reduction of a k-term sum is needed), and the prover knows tr, a function of ss
// and b.
void enforce_tx_commits(CircuitBuilder& b, std::span<const Var> sel, std::span<const PointLc> w,
                        std::span<const PointLc> x, const PointLc* sender_value,
                        std::span<const PointVars> tc);

// R13 + R14 for deposit and withdraw, where no member but the sender receives anything (R15d,
// R15w): W[i] = -X[i] for every i (X from random_factor_points) and the sender's value part
// E = [v]G from v's bits under Scope "R13 sender", negated when `debit` (deposit: tv[j] =
// (l - v) mod l, and [l - v]G = -[v]G; withdraw: tv[j] = v); then enforce_tx_commits.
void enforce_sender_only_tx_commits(CircuitBuilder& b, std::span<const Var> sel,
                                    const SenderSecrets& sec, const PaymentPublic& pub,
                                    std::span<const Var> value_bits, bool debit);

// D1, W1: Note(pk, s, a, t) = Poseidon(Poseidon(Poseidon(pk, s), a), t), no reduction.
Lc note_hash(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& amount, const Lc& address);

}  // namespace enygma::payment
