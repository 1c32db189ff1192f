// One function per rule. Variants (variant_seed % break_rule_variants(rule)):
//   R1  0 sender_id := an id not in the set;  1 anonymity_set[i] := sender_id (i != j, a
//       duplicate);  2 anonymity_set[j] := an id not in the set
//   R2  0 tx_values[j] += m*l (same residue, same commitment);  with R15 (R15 makes the others
//       add up to v, so a changed v or tv[j] breaks both): 1 sender_tx_value := another value
//       in [0, V] (V >= 1, else variant 0);  2 tx_values[j] -= delta, tx_values[r] += delta,
//       both commitments recomputed (pays the recipient more than v)
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
//       (or V - 1 when V + 1 = 2^250; variant 0 when neither keeps R11)
//   R8  message_tags[i] (any i): 0 an alias of Poseidon(T, ss[i], b);  1 another value below
//       l;  2 the tag of block_number + 1
//   R9  see rule_breaker.hpp
//   R10 see rule_breaker.hpp
//   R11 0 V += l (the same commitment: the overspend of the reference);  1 V := 2^250 with
//       previous_commits[j] recomputed;  2 v := V + delta, tx_values[j] := (l - v) mod l and
//       the difference moved to a receiver, both commitments recomputed;  3 V := v - 1 with
//       previous_commits[j] recomputed (v >= 1, else variant 2)
//   R12 0 nullifier += delta;  1 another participant's nullifier Poseidon(hs[i], b), i != j;
//       2 nullifier mod l (or + l when it is below l)
//   R13 a != b: 0 tx_commits[a] += G, tx_commits[b] -= G;  1 both += (0, -1);  2 tx_values[a]
//       += delta, tx_values[c] -= delta with 0 < delta <= tx_values[c], commitments kept (a, c
//       != j; needs k >= 3 and a receiver, else variant 0);  3 tx_commits[a] += H,
//       tx_commits[b] -= H
//   R14 0 tx_random_values[a] += delta, tx_random_values[b] -= delta mod l (a != b, commitments
//       recomputed);  1 tx_random_values[a] += m*l (same residue, same commitment)
//   R15 a, b != j, commitments recomputed: 0 theft: tx_values[a] += X, tx_values[b] -= X mod l
//       with X > tx_values[b] (k >= 3, else variant 2);  1 value from nowhere: v := 0,
//       tx_values[j] := 0 and up to four other members sharing l;  2 tx_values[a] += l (same
//       commitment);  3 a negative amount: tx_values[a] := l - 1, tx_values[b] += the
//       difference (k >= 3, else variant 2)
#include "support/transfer_rule_breaker.hpp"

#include <algorithm>

#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"
#include "core/payment/relation.hpp"
#include "core/transfer/validate.hpp"

namespace enygma {

namespace {

namespace bjj = babyjubjub;

// "R<n>" (appended, not "R" + to_string(n): g++ 12 -Wrestrict false positive, PR 105651).
std::string rule_id(int n) {
  std::string id("R");
  id += std::to_string(n);
  return id;
}

constexpr unsigned kVariants[kNumRules + 1] = {0, 3, 3, 3, 4, 2, 3, 3, 3, 2, 3, 4, 3, 4, 2, 4};

// floor(x / n) for 0 < n < 2^32, by 32-bit long division.
U256 divide_small(const U256& x, uint32_t n) {
  U256 q;
  uint64_t rem = 0;
  for (int half = 7; half >= 0; --half) {
    const uint64_t cur = (rem << 32) | ((x.w[half / 2] >> (32 * (half % 2))) & 0xffffffffu);
    q.w[half / 2] |= (cur / n) << (32 * (half % 2));
    rem = cur % n;
  }
  return q;
}

// SplitMix64 over the seed: indices and values of a breakage.
class Picker {
 public:
  explicit Picker(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return unsigned(next() % n); }
  // Any index but `avoid`.
  unsigned other_than(unsigned k, unsigned avoid) { return (avoid + 1 + below(k - 1)) % k; }
  // A value below l, not zero.
  Fr nonzero_mod_l() {
    for (;;) {
      U256 x{{next(), next(), next(), next()}};
      Fr f = *Fr::from_canonical(bjj::mod_l(x));
      if (!f.is_zero()) return f;
    }
  }
  // A value below l other than `not_this`.
  Fr mod_l_except(const Fr& not_this) {
    for (;;) {
      Fr f = nonzero_mod_l();
      if (f != not_this) return f;
    }
  }
  template <class T>
  const T& pick(const std::vector<T>& xs) {
    return xs[below(unsigned(xs.size()))];
  }

 private:
  uint64_t s_;
};

struct Breaking {
  TransferRequest q;
  unsigned j;
  unsigned variant;
  Picker& pick;
  std::vector<int> broken;
  std::string how;

  std::string at(const char* name, unsigned i) const {
    return std::string(name) + "[" + std::to_string(i) + "]";
  }
  void recommit(unsigned i) {
    q.tx_commits[i] = bjj::pedersen(q.tx_values[i], q.tx_random_values[i]);
  }
  // After shared_secrets[i] or hashed_shared_secrets[i] changed: R5, R8 and (i == j) R12 follow.
  void rederive_from_shared_secret(unsigned i) {
    q.hashed_shared_secrets[i] = relation::hashed_shared_secret(q.shared_secrets[i]);
    q.message_tags[i] = relation::message_tag(q.shared_secrets[i], q.block_number);
    if (i == j) rederive_nullifier();
  }
  void rederive_nullifier() {
    q.nullifier = relation::nullifier(q.hashed_shared_secrets[j], q.block_number);
  }
  // After secret_key changed, keeping R4: shared_secrets[j] and what follows from it.
  void rederive_from_secret_key() {
    q.shared_secrets[j] = relation::shared_secret(q.previous_sender_random_value, q.secret_key);
    rederive_from_shared_secret(j);
  }
  Fr fresh_id() {
    for (;;) {
      Fr id = Fr::from_u64(pick.next());
      bool used = id == q.sender_id;
      for (const Fr& a : q.anonymity_set) used = used || a == id;
      if (!used) return id;
    }
  }
  // Moves delta (mod l) from tx_values[from] to tx_values[to], recomputing both commitments
  // when asked: sum(tv) mod l is kept.
  void shift_tx_value(unsigned from, unsigned to, const Fr& delta, bool recompute) {
    q.tx_values[from] = relation::sub_mod_l(q.tx_values[from], delta);
    q.tx_values[to] = relation::add_mod_l(q.tx_values[to], delta);
    if (recompute) {
      recommit(from);
      recommit(to);
    }
  }
};

void break_r1(Breaking& b) {
  if (b.variant == 0) {
    b.q.sender_id = b.fresh_id();
    b.how = "sender_id := an id not in anonymity_set";
  } else if (b.variant == 1) {
    const unsigned i = b.pick.other_than(b.q.k, b.j);
    b.q.anonymity_set[i] = b.q.sender_id;
    b.how = b.at("anonymity_set", i) + " := sender_id";
  } else {
    b.q.anonymity_set[b.j] = b.fresh_id();
    b.how = b.at("anonymity_set", b.j) + " := an id not in anonymity_set";
  }
}

void break_r2(Breaking& b) {
  TransferRequest& q = b.q;
  const Fr& balance = q.previous_sender_balance;
  if (b.variant == 1 && !balance.is_zero()) {
    const bool up = cmp(q.sender_tx_value.to_u256(), balance.to_u256()) < 0;
    q.sender_tx_value += up ? Fr::one() : -Fr::one();
    b.how = up ? "sender_tx_value += 1" : "sender_tx_value -= 1";
    b.broken = {2, 15};
  } else if (b.variant == 2) {
    const unsigned r = b.pick.other_than(q.k, b.j);
    b.shift_tx_value(b.j, r, Fr::from_u64(1 + b.pick.below(1000)), true);
    b.how = b.at("tx_values", b.j) + " -= delta, " + b.at("tx_values", r) + " += delta";
    b.broken = {2, 15};
  } else {
    q.tx_values[b.j] = b.pick.pick(relation::same_residue_aliases(q.tx_values[b.j]));
    b.how = b.at("tx_values", b.j) + " += m*l";
  }
}

void break_r3(Breaking& b) {
  const unsigned i = b.pick.other_than(b.q.k, b.j);
  BjjPoint& p = b.q.previous_commits[i];
  if (b.variant == 0) {
    do p.y += Fr::one();
    while (bjj::on_curve(p));
    b.how = b.at("previous_commits", i) + ".y += 1";
  } else if (b.variant == 1) {
    p = {Fr::zero(), Fr::zero()};
    b.how = b.at("previous_commits", i) + " := (0, 0)";
  } else {
    do p = {b.pick.nonzero_mod_l(), b.pick.nonzero_mod_l()};
    while (bjj::on_curve(p));
    b.how = b.at("previous_commits", i) + " := random coordinates";
  }
}

void break_r4(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned j = b.j;
  if (b.variant <= 1) {
    const Fr x = poseidon(q.previous_sender_random_value, q.secret_key);
    q.shared_secrets[j] = b.variant == 0 ? b.pick.pick(relation::mod_l_aliases(x))
                                         : b.pick.mod_l_except(q.shared_secrets[j]);
    b.rederive_from_shared_secret(j);
    b.how = b.at("shared_secrets", j) + (b.variant == 0 ? " := an alias" : " := another value");
  } else if (b.variant == 2) {
    q.previous_sender_random_value += Fr::one();
    q.previous_commits[j] =
        bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value);
    b.how = "previous_sender_random_value += 1, " + b.at("previous_commits", j) + " recomputed";
  } else {
    q.secret_key += Fr::one();
    q.public_keys[j] = relation::public_key(q.secret_key);
    b.how = "secret_key += 1, " + b.at("public_keys", j) + " recomputed";
  }
}

void break_r5(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned i = b.pick.below(q.k);
  const Fr x = poseidon(q.shared_secrets[i], q.shared_secrets[i]);
  q.hashed_shared_secrets[i] = b.variant == 0 ? b.pick.pick(relation::mod_l_aliases(x))
                                              : b.pick.mod_l_except(q.hashed_shared_secrets[i]);
  if (i == b.j) b.rederive_nullifier();
  b.how =
      b.at("hashed_shared_secrets", i) + (b.variant == 0 ? " := an alias" : " := another value");
}

void break_r6(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned j = b.j;
  if (b.variant <= 1) {
    const Fr x = poseidon(q.secret_key, q.secret_key);
    q.public_keys[j] = b.variant == 0 ? b.pick.pick(relation::mod_l_aliases(x))
                                      : b.pick.mod_l_except(q.public_keys[j]);
    b.how = b.at("public_keys", j) + (b.variant == 0 ? " := an alias" : " := another value");
  } else {
    q.secret_key += b.pick.nonzero_mod_l();
    b.rederive_from_secret_key();
    b.how = "secret_key += delta, keeping " + b.at("public_keys", j);
  }
}

void break_r7(Breaking& b) {
  TransferRequest& q = b.q;
  BjjPoint& pc = q.previous_commits[b.j];
  unsigned variant = b.variant;
  if (variant == 2) {
    const Fr up = q.previous_sender_balance + Fr::one();
    const Fr down = q.previous_sender_balance - Fr::one();
    if (relation::below_pow2(up, 250)) {
      q.previous_sender_balance = up;
      b.how = "previous_sender_balance += 1";
    } else if (!q.previous_sender_balance.is_zero() &&
               cmp(q.sender_tx_value.to_u256(), down.to_u256()) <= 0) {
      q.previous_sender_balance = down;
      b.how = "previous_sender_balance -= 1";
    } else {
      variant = 0;
    }
  }
  if (variant == 0) {
    pc = bjj::add(pc, bjj::generator_g());
    b.how = b.at("previous_commits", b.j) + " += G";
  } else if (variant == 1) {
    pc = bjj::add(pc, bjj::torsion_point_order2());
    b.how = b.at("previous_commits", b.j) + " += (0, -1)";
  }
}

void break_r8(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned i = b.pick.below(q.k);
  Fr& mt = q.message_tags[i];
  if (b.variant == 0) {
    mt = b.pick.pick(relation::mod_l_aliases(
        poseidon(relation::message_tag_domain(), q.shared_secrets[i], q.block_number)));
    b.how = b.at("message_tags", i) + " := an alias";
  } else if (b.variant == 1) {
    mt = b.pick.mod_l_except(mt);
    b.how = b.at("message_tags", i) + " := another value";
  } else {
    mt = relation::message_tag(q.shared_secrets[i], q.block_number + Fr::one());
    b.how = b.at("message_tags", i) + " := the tag of block_number + 1";
  }
}

// R9 with R10 (recompute) or R13 (keep the commitment).
void break_r9_with(Breaking& b, bool recompute) {
  TransferRequest& q = b.q;
  const unsigned r = b.pick.other_than(q.k, b.j);
  q.tx_values[r] = relation::add_mod_l(q.tx_values[r], b.pick.nonzero_mod_l());
  if (recompute) b.recommit(r);
  b.how = b.at("tx_values", r) + " += delta" +
          (recompute ? ", " + b.at("tx_commits", r) + " recomputed" : "");
  b.broken = {9, recompute ? 10 : 13, 15};
}

void break_r9(Breaking& b) {
  break_r9_with(b, b.variant == 0);
}

void break_r10(Breaking& b) {
  if (b.variant == 2) return break_r9_with(b, true);
  const unsigned a = b.pick.below(b.q.k);
  const BjjPoint d = b.variant == 0 ? bjj::generator_g() : bjj::torsion_point_order2();
  b.q.tx_commits[a] = bjj::add(b.q.tx_commits[a], d);
  b.how = b.at("tx_commits", a) + (b.variant == 0 ? " += G" : " += (0, -1)");
  b.broken = {10, 13};
}

void break_r11(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if (variant == 3 && q.sender_tx_value.is_zero()) variant = 2;
  // Variant 2 pays the extra to one receiver, whose amount must stay below 2^250 (R15).
  const Fr raised = q.previous_sender_balance + Fr::from_u64(1 + b.pick.below(1000));
  if (variant == 2 && !relation::below_pow2(raised, 250)) variant = 0;
  if (variant == 0) {
    q.previous_sender_balance += relation::l_as_fr();
    b.how = "previous_sender_balance += l (same commitment)";
  } else if (variant == 1 || variant == 3) {
    q.previous_sender_balance = variant == 1 ? relation::pow2(250) : q.sender_tx_value - Fr::one();
    q.previous_commits[j] =
        bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value);
    b.how = std::string(variant == 1 ? "previous_sender_balance := 2^250"
                                     : "previous_sender_balance := sender_tx_value - 1") +
            ", " + b.at("previous_commits", j) + " recomputed";
  } else {
    const Fr old_entry = q.tx_values[j];
    q.sender_tx_value = raised;
    q.tx_values[j] = relation::sender_tx_value_entry(q.sender_tx_value);
    const unsigned r = b.pick.other_than(q.k, j);
    q.tx_values[r] =
        relation::add_mod_l(q.tx_values[r], relation::sub_mod_l(old_entry, q.tx_values[j]));
    b.recommit(j);
    b.recommit(r);
    b.how = "sender_tx_value := previous_sender_balance + delta, " + b.at("tx_values", j) +
            " and " + b.at("tx_values", r) + " adjusted, commitments recomputed";
  }
}

void break_r12(Breaking& b) {
  TransferRequest& q = b.q;
  if (b.variant == 0) {
    q.nullifier += b.pick.nonzero_mod_l();
    b.how = "nullifier += delta";
  } else if (b.variant == 1) {
    const unsigned i = b.pick.other_than(q.k, b.j);
    q.nullifier = relation::nullifier(q.hashed_shared_secrets[i], q.block_number);
    b.how = "nullifier := Poseidon(" + b.at("hashed_shared_secrets", i) + ", block_number)";
  } else {
    const Fr reduced = relation::reduce_mod_l(q.nullifier);
    q.nullifier = reduced != q.nullifier ? reduced : q.nullifier + relation::l_as_fr();
    b.how = "nullifier := nullifier mod l (or + l)";
  }
}

void break_r13(Breaking& b) {
  TransferRequest& q = b.q;
  unsigned variant = b.variant;
  // Variant 2 takes from a receiver c no more than it has, so R15 (ranges and sum) still holds.
  std::vector<unsigned> receivers;
  for (unsigned i = 0; i < q.k; ++i) {
    if (i != b.j && !q.tx_values[i].is_zero()) receivers.push_back(i);
  }
  if (variant == 2 && (q.k < 3 || receivers.empty())) variant = 0;
  if (variant == 2) {
    const unsigned c = b.pick.pick(receivers);
    unsigned a = b.pick.other_than(q.k, b.j);
    while (a == c) a = b.pick.other_than(q.k, b.j);
    U256 delta = b.pick.nonzero_mod_l().to_u256();
    const U256 have = q.tx_values[c].to_u256();
    while (cmp(delta, have) > 0) delta = shr1(delta);
    if (delta.is_zero()) delta = U256::from_u64(1);
    b.shift_tx_value(c, a, *Fr::from_canonical(delta), false);
    b.how =
        b.at("tx_values", a) + " += delta, " + b.at("tx_values", c) + " -= delta, commitments kept";
    return;
  }
  const unsigned a = b.pick.below(q.k), c = b.pick.other_than(q.k, a);
  const BjjPoint d = variant == 0   ? bjj::generator_g()
                     : variant == 1 ? bjj::torsion_point_order2()
                                    : bjj::generator_h();
  q.tx_commits[a] = bjj::add(q.tx_commits[a], d);
  q.tx_commits[c] = bjj::add(q.tx_commits[c], bjj::negate(d));
  const char* name = variant == 0 ? "G" : variant == 1 ? "(0, -1)" : "H";
  b.how = b.at("tx_commits", a) + " += " + name + ", " + b.at("tx_commits", c) + " -= " + name;
}

void break_r14(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned a = b.pick.below(q.k);
  if (b.variant == 0) {
    const unsigned c = b.pick.other_than(q.k, a);
    const Fr delta = b.pick.nonzero_mod_l();
    q.tx_random_values[a] = relation::add_mod_l(q.tx_random_values[a], delta);
    q.tx_random_values[c] = relation::sub_mod_l(q.tx_random_values[c], delta);
    b.recommit(a);
    b.recommit(c);
    b.how = b.at("tx_random_values", a) + " += delta, " + b.at("tx_random_values", c) +
            " -= delta, commitments recomputed";
  } else {
    q.tx_random_values[a] = b.pick.pick(relation::same_residue_aliases(q.tx_random_values[a]));
    b.how = b.at("tx_random_values", a) + " += m*l";
  }
}

void break_r15(Breaking& b) {
  TransferRequest& q = b.q;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if ((variant == 0 || variant == 3) && q.k < 3) variant = 2;
  const unsigned a = b.pick.other_than(q.k, j);
  unsigned c = a;
  if (q.k >= 3) {
    while (c == a) c = b.pick.other_than(q.k, j);
  }
  if (variant == 0) {
    // Theft: c pays more than it has (its entry wraps to l - something), a receives it.
    Fr x = q.tx_values[c] + Fr::from_u64(1 + b.pick.below(1000000));
    b.shift_tx_value(c, a, x, true);
    b.how = b.at("tx_values", a) + " += X, " + b.at("tx_values", c) + " -= X > " +
            b.at("tx_values", c) + ", commitments recomputed";
  } else if (variant == 1) {
    // Value from nowhere: nothing sent, up to four members share l (each below 2^250 from
    // four members on), which sums to 0 modulo l.
    q.sender_tx_value = Fr::zero();
    for (unsigned i = 0; i < q.k; ++i) q.tx_values[i] = Fr::zero();
    const unsigned n = std::min(4u, q.k - 1);
    const U256 l = relation::l_as_fr().to_u256();
    const U256 part = divide_small(l, n);
    U256 left = l;
    for (unsigned i = (j + 1) % q.k, given = 0; given < n; i = (i + 1) % q.k) {
      if (i == j) continue;
      const U256 this_part = ++given == n ? left : part;  // the last one takes the remainder
      sub_borrow(left, left, this_part);
      q.tx_values[i] = *Fr::from_canonical(this_part);
    }
    for (unsigned m = 0; m < q.k; ++m) b.recommit(m);
    b.how = "sender_tx_value := 0, " + std::to_string(n) + " members share l";
  } else if (variant == 2) {
    q.tx_values[a] += relation::l_as_fr();
    b.how = b.at("tx_values", a) + " += l (same commitment)";
  } else {
    // A negative amount: a's entry becomes l - 1 (-1 modulo l), c receives the difference.
    const Fr delta = q.tx_values[a] + Fr::one();
    b.shift_tx_value(a, c, delta, true);
    b.how = b.at("tx_values", a) + " := l - 1, " + b.at("tx_values", c) +
            " += the difference, commitments recomputed";
  }
}

}  // namespace

unsigned break_rule_variants(int rule) {
  return rule >= 1 && rule <= kNumRules ? kVariants[rule] : 0;
}

Result<BrokenRequest> break_rule_minimal(const TransferRequest& valid, int rule,
                                         uint64_t variant_seed) {
  if (rule < 1 || rule > kNumRules) {
    return make_error("no rule " + std::to_string(rule) + " (rules are R1..R15)", "input", "rule");
  }
  if (Status st = validate_transfer(valid); !st) {
    return make_error("the request to break is not valid: " + st.error().message, "input",
                      st.error().field);
  }
  Picker pick(variant_seed / kVariants[rule] ^ (uint64_t(rule) << 56));
  Breaking b{valid, *sender_index(valid), unsigned(variant_seed % kVariants[rule]), pick, {rule},
             {}};
  using Breaker = void (*)(Breaking&);
  static constexpr Breaker kBreakers[kNumRules + 1] = {
      nullptr,  break_r1,  break_r2,  break_r3,  break_r4,  break_r5,  break_r6,  break_r7,
      break_r8, break_r9, break_r10, break_r11, break_r12, break_r13, break_r14, break_r15};
  kBreakers[rule](b);
  // The claim is checked, not trusted (a coincidence of hashes would show up here).
  const std::vector<int> failed = failed_rules(validate_transfer_all(b.q));
  if (failed != b.broken) {
    std::string message = "breaking ";
    message += rule_id(rule);
    message += " by " + b.how + " did not fail exactly the intended rules; failed:";
    for (int n : failed) {
      message += ' ';
      message += rule_id(n);
    }
    return make_error(std::move(message), "internal", "");
  }
  return BrokenRequest{std::move(b.q), std::move(b.broken), std::move(b.how)};
}

Result<TransferRequest> break_rule(const TransferRequest& valid, int rule, uint64_t variant_seed) {
  if (rule == 9 || rule == 10) {
    return make_error(
        rule == 9 ? "R9 cannot fail alone: R14 gives sum(tr) = 0 mod l, and R2 with R15 give "
                    "sum(tv) = l or 0; use break_rule_minimal"
                  : "R10 cannot fail alone: R13 and R9 give sum(tc) = sum(tv) * G + sum(tr) * H "
                    "= O; use break_rule_minimal",
        rule_id(rule), "");
  }
  Result<BrokenRequest> r = break_rule_minimal(valid, rule, variant_seed);
  if (!r) return r.error();
  if (r->broken_rules != std::vector<int>{rule}) {
    return make_error(rule_id(rule) + " variant " + std::to_string(variant_seed % kVariants[rule]) +
                          " breaks other rules with it; use break_rule_minimal",
                      rule_id(rule), "");
  }
  return std::move(r->request);
}

}  // namespace enygma
