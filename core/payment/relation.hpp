// The per-rule formulas of the payment relations, natively (../shared/docs/transfer-relation.md,
// and the note of deposit-relation.md and withdraw-relation.md), shared by the rule checks
// (rules.hpp), the wallets and the rule breakers of tests/support. "mod l" results are Fr
// elements whose integer value is the reduced one (< l).
#pragma once

#include <vector>

#include "core/field/fr.hpp"
#include "core/field/u256.hpp"
#include "core/primitives/babyjubjub.hpp"

namespace enygma::relation {

const Fr& message_tag_domain();    // T = Poseidon(12)
const Fr& random_factor_domain();  // U = Poseidon(21)

Fr reduce_mod_l(const Fr& x);                        // x mod l, as an Fr
Fr shared_secret(const Fr& r, const Fr& sk);         // R4: Poseidon(R, sk) mod l
Fr hashed_shared_secret(const Fr& ss);               // R5: Poseidon(ss, ss) mod l
Fr public_key(const Fr& sk);                         // R6, and PK of W1: Poseidon(sk, sk) mod l
Fr message_tag(const Fr& ss, const Fr& block);       // R8: Poseidon(T, ss, b) mod l
Fr nullifier(const Fr& hs_sender, const Fr& block);  // R12: Poseidon(hs[j], b)
Fr random_factor(const Fr& ss, const Fr& block);     // R14: h = Poseidon(U, ss, b) mod l
Fr sender_tx_value_entry(const Fr& v);               // R2: (l - v) mod l, v as an integer
// D1 and W1: Note(pk, s, a, t) = Poseidon(Poseidon(Poseidon(pk, s), a), t), no reduction.
Fr note_hash(const Fr& pk, const Fr& salt, const Fr& amount, const Fr& address);
// 10^36, the DvP amount bound (W2: every note amount is below it).
const Fr& note_amount_bound();
// 10^36 - 1 as an integer: the largest note amount (W2's bound walk, the wallets' cap).
U256 note_amount_max();
// R14 for every i, from the participants' random factors h (h[j] is ignored): l - h[i] for
// i != j, (sum over i != j of h[i]) mod l for i == j.
std::vector<Fr> tx_random_values(const std::vector<Fr>& h, unsigned j);

bool below_pow2(const Fr& x, unsigned bits);  // x < 2^bits as an integer
bool below_l(const Fr& x);                    // x < l as an integer (R16)
Fr pow2(unsigned bits);                       // 2^bits (bits < 254)
Fr l_as_fr();                                 // l as a field element

// (x + y) mod l and (x - y) mod l of the integers x, y (each reduced mod l first), as Fr.
Fr add_mod_l(const Fr& x, const Fr& y);
Fr sub_mod_l(const Fr& x, const Fr& y);
// The sum of the canonical integers of xs, modulo l (R9), as an Fr.
Fr sum_mod_l(const std::vector<Fr>& xs);

// Every field element y other than r = x mod l that a check of "y == x mod l" could be fooled
// by: y = r + m*l (m >= 1, y < p; same residue mod l) and the wrapped representatives
// y = x - q*l mod p for q = 0..7 (q*l + y == x in F_p with a small quotient). Sorted, distinct.
std::vector<Fr> mod_l_aliases(const Fr& x);
// Only the representatives r + m*l (m >= 1, below p) of r = x mod l.
std::vector<Fr> same_residue_aliases(const Fr& x);

}  // namespace enygma::relation
