// The rule breakers the three payment families share (transfer_rule_breaker,
// deposit_rule_breaker, withdraw_rule_breaker): for the rules every payment relation states
// alike (R1, R3..R8, R12, R13's point changes, R14), the change of a VALID request that breaks
// the rule, re-deriving the public values that depend on what changed so that, as far as the
// payment fields go, only that rule fails. Each family's breaker adds its own rules, picks the
// variant and checks the claim with its validator.
//
// Variants (PaymentBreak::variant), indices 0-based, j the sender index of R1:
//   R1  0 sender_id := an id not in the set;  1 anonymity_set[i] := sender_id (i != j, a
//       duplicate);  2 anonymity_set[j] := an id not in the set
//   R3  previous_commits[i], i != j, off the curve: 0 (x, y + 1);  1 (0, 0);  2 random
//   R4  0 shared_secrets[j] := an alias of Poseidon(R, sk) mod l (relation::mod_l_aliases);
//       1 shared_secrets[j] := another value below l;  2 R += 1 with previous_commits[j]
//       recomputed;  3 sk += 1 with public_keys[j] recomputed. 0 and 1 re-derive
//       hashed_shared_secrets[j], message_tags[j] and the nullifier.
//   R5  hashed_shared_secrets[i] (any i; the nullifier re-derived when i == j): 0 an alias of
//       Poseidon(ss[i], ss[i]);  1 another value below l
//   R6  0 public_keys[j] := an alias of Poseidon(sk, sk);  1 another value below l;  2 sk +=
//       delta keeping public_keys[j], with shared_secrets[j] and what follows from it
//       re-derived (a proof without the key)
//   R7  0 previous_commits[j] += G;  1 previous_commits[j] += (0, -1) (order 2);  2 V := V + 1
//       (where R11 applies: or V - 1 when V + 1 = 2^250; variant 0 when neither keeps R11)
//   R8  message_tags[i] (any i): 0 an alias of Poseidon(T, ss[i], b);  1 another value below
//       l;  2 the tag of block_number + 1
//   R12 0 nullifier += delta;  1 another participant's nullifier Poseidon(hs[i], b), i != j;
//       2 nullifier mod l (or + l when it is below l)
//   R13 (point changes) a != c: 0 tx_commits[a] += G, tx_commits[c] -= G;  1 both += (0, -1);
//       2 tx_commits[a] += H, tx_commits[c] -= H;  3 tx_commits[a] += G alone
//   R14 0 tx_random_values[a] += delta, tx_random_values[c] -= delta mod l (a != c, commitments
//       recomputed);  1 tx_random_values[a] += m*l (same residue, same commitment: the public
//       statement is the valid one's, see R14_invisible below)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/payment/request.hpp"

namespace enygma::test {

// SplitMix64 over a seed: the indices and values of a breakage.
class Picker {
 public:
  explicit Picker(uint64_t seed) : s_(seed) {}
  uint64_t next();
  unsigned below(unsigned n) { return unsigned(next() % n); }
  // Any index in 0..k-1 but `avoid`.
  unsigned other_than(unsigned k, unsigned avoid) { return (avoid + 1 + below(k - 1)) % k; }
  // A value below l, not zero.
  Fr nonzero_mod_l();
  // A value below l other than `not_this`.
  Fr mod_l_except(const Fr& not_this);
  template <class T>
  const T& pick(const std::vector<T>& xs) {
    return xs[below(unsigned(xs.size()))];
  }

 private:
  uint64_t s_;
};

// A per-rule constant mixed into a Picker's seed (FNV-1a of the rule id), so that the same
// variant seed picks different indices for different rules.
uint64_t rule_salt(std::string_view rule);

// A breakage in progress: the request being changed (a family's request, seen through its
// payment fields), the sender index, the variant, and what was done.
struct PaymentBreak {
  PaymentRequest& q;
  unsigned j;
  unsigned variant;
  Picker& pick;
  std::string how;

  std::string at(const char* name, unsigned i) const;
  // tx_commits[i] := Pedersen(tx_values[i], tx_random_values[i]) (R13).
  void recommit(unsigned i);
  // After shared_secrets[i] changed: R5, R8 and (i == j) R12 follow.
  void rederive_from_shared_secret(unsigned i);
  void rederive_nullifier();
  // After secret_key changed, keeping R4: shared_secrets[j] and what follows from it.
  void rederive_from_secret_key();
  // An id in no anonymity_set entry and not sender_id.
  Fr fresh_id();
  // Moves delta (mod l) from tx_values[from] to tx_values[to], recomputing both commitments
  // when asked: sum(tv) mod l is kept.
  void shift_tx_value(unsigned from, unsigned to, const Fr& delta, bool recompute);
};

// The variants per shared rule (see the top).
inline constexpr unsigned kR1Variants = 3, kR3Variants = 3, kR4Variants = 4, kR5Variants = 2,
                          kR6Variants = 3, kR7Variants = 3, kR8Variants = 3, kR12Variants = 3,
                          kR13PointVariants = 4, kR14Variants = 2;

void break_r1(PaymentBreak& b);
void break_r3(PaymentBreak& b);
void break_r4(PaymentBreak& b);
void break_r5(PaymentBreak& b);
void break_r6(PaymentBreak& b);
// balance_bounded: R11 applies (V < 2^250, v <= V must still hold after the change).
void break_r7(PaymentBreak& b, bool balance_bounded);
void break_r8(PaymentBreak& b);
void break_r12(PaymentBreak& b);
void break_r13_points(PaymentBreak& b);
void break_r14(PaymentBreak& b);

// R14 variant 1 adds a multiple of l to a tx_random_values entry: tx_commits (Pedersen is the
// same point) and every other public input stay as they were, so the public statement is the
// valid request's, and true. tr enters the statement only through tc; the payment circuits
// prove R13 and R14 for the tr that R14 defines from ss and b (payment::enforce_tx_commits),
// which is the only witness that matters. No circuit over these public inputs can, or needs
// to, reject this request: its witness is exactly the valid request's.
inline bool r14_invisible(unsigned variant) {
  return variant == 1;
}

}  // namespace enygma::test
