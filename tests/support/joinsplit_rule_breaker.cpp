// One function per rule. Variants (variant_seed % joinsplit_break_variants(rule)); "slot i" is
// any of the ten slots, dummies included, unless a non-zero amount is needed (see the header):
//   J1  0 valuesIn[i] := 10^36 (leaf and root re-derived, outputs rebalanced, revert
//       recomputed);  1 valuesOut[o] := 10^36 (inputs raised to match through slot 0);  with
//       J8: 2 valuesOut[o] := p - 1 and the other output + valuesOut[o] + 1 (a negative output:
//       the field sum is unchanged);  3 valuesIn[i] := p - 1 and valuesIn[j] += valuesIn[i] + 1
//       (a negative input, roots re-derived)
//   J2  slot i with a non-zero amount, or slot 0 (the revert note's key):  0 privateKey :=
//       another key, the note (pk_i, leaf, root) kept and the nullifier re-derived: spending
//       without the key;  1 pk_i := an alias of Poseidon(sk, sk) (r + m*l below p, or a wrapped
//       x - q*l), leaf, root and revert re-derived: the reference's free quotient
//   J3  0 nullifiers[i] += 1;  1 indices[i] += 256, nullifier re-derived (Root reads 8 bits, so
//       the root still matches);  2 nullifiers[i] := Poseidon(another key, idx): a fresh one
//   J4  slot i with a non-zero amount:  0 leaf_i := the note of the same key and salt with a
//       larger amount;  1 leaf_i := a random leaf; the root re-derived from the claimed leaf
//   J5  slot i with a non-zero amount:  0 merkleProofs[i].elements[m] += 1;  1 merkleRoots[i]
//       := a random value;  2 one bit of indices[i] flipped, nullifier re-derived (one that
//       repeats no other input's nullifier; else variant 1);  3 a slot
//       with amount 0 given 1 without a root (outputs rebalanced, or 1 taken from the largest
//       input when they are full; variant 0 when every slot carries an amount)
//   J6  0 commitmentsOut[o] += 1;  1 saltsOut[o] += 1;  2 pubKeysOut[o] := another key
//       (commitments kept: the output stolen)
//   J7  0 revertCommitment += 1;  1 revertSalt += 1;  2 revertCommitment := the note of the sum
//       + 1
//   J8  0 an output + 1 (minting);  1 an input's amount + 1 with its root re-derived (burning)
//   J9  slot i with a non-zero amount, copied to slot j (a zero-amount slot when there is one):
//       0 the same note twice (counted twice, outputs rebalanced; variant 1 when the outputs
//       cannot carry it);  1 another note with the same key and index in another tree (the
//       same nullifier), amount 1 (taken from the largest input when the outputs are full)
//   J11 under privateKey 0 at leaf index 0 (nullifier Z, the dummies'):  0 slot i with a
//       non-zero amount, its note re-issued to PK(0) at leaf 0 (leaf, root, revert re-derived);
//       1 a zero-amount slot given 1 there (a note sent to PK(0) at leaf 0 of a fresh tree;
//       variant 0 when every slot carries an amount)
#include "support/joinsplit_rule_breaker.hpp"

#include <algorithm>

#include "core/dvp/json.hpp"
#include "core/dvp/relation.hpp"
#include "core/dvp/rules.hpp"
#include "core/joinsplit/validate.hpp"
#include "support/dvp_rule_breaker.hpp"

namespace enygma {

namespace {

constexpr unsigned N = kJoinSplitInputs, M = kJoinSplitOutputs;
constexpr unsigned kVariants[kJoinSplitRules + 1] = {0, 4, 2, 3, 2, 4, 3, 3, 2, 2, 0, 2};

U256 amount_max() {
  U256 m;
  sub_borrow(m, dvp::amount_bound(), U256::from_u64(1));
  return m;
}

Fr fr(const U256& x) {
  return *Fr::from_canonical(x);
}

struct Breaking : test::DvpBreak {
  JoinSplitRequest q;
  std::vector<int> broken;

  std::string at(const char* name, unsigned i) const { return dvp::indexed(name, i); }

  U256 total_in() const {
    U256 t;
    for (const Fr& a : q.values_in) add_carry(t, t, a.to_u256());
    return t;
  }
  void make_real(unsigned i) { q.n = std::max(q.n, i + 1); }
  void refresh_leaf_and_root(unsigned i) {
    q.leaves[i] = joinsplit_note(q, q.input_keys[i], q.salts_in[i], q.values_in[i]);
    q.merkle_roots[i] = dvp::merkle_root(q.leaves[i], q.indices[i], q.paths[i]);
  }
  void refresh_revert() {
    Fr total = Fr::zero();
    for (const Fr& a : q.values_in) total += a;
    q.revert_commitment = joinsplit_note(q, q.input_keys[0], q.revert_salt, total);
  }
  void refresh_outputs() {
    for (unsigned o = 0; o < M; ++o) {
      q.commitments_out[o] =
          joinsplit_note(q, q.recipient_keys[o], q.salts_out[o], q.values_out[o]);
    }
  }
  // Outputs carrying the inputs' total, each below 10^36 when possible (b_1 kept if it can be).
  bool rebalance() {
    const U256 t = total_in(), max = amount_max();
    U256 b0, b1 = q.values_out[1].to_u256();
    if (cmp(t, b1) < 0 || sub_borrow(b0, t, b1) != 0 || cmp(b0, max) > 0) {
      b0 = cmp(t, max) < 0 ? t : max;
      sub_borrow(b1, t, b0);
    }
    q.values_out[0] = fr(b0);
    q.values_out[1] = fr(b1);
    refresh_outputs();
    return cmp(b1, max) <= 0;
  }
  // A slot with a non-zero amount; when none has one, slot 0 is given 1 (an output balancing
  // it; every valid request has room for 1 more when its total is 0).
  unsigned nonzero_slot() {
    std::vector<unsigned> c;
    for (unsigned i = 0; i < N; ++i) {
      if (!q.values_in[i].is_zero()) c.push_back(i);
    }
    if (!c.empty()) return c[below(unsigned(c.size()))];
    q.values_in[0] = Fr::one();
    make_real(0);
    keep_nullifier_unique(0);
    refresh_leaf_and_root(0);
    rebalance();
    refresh_revert();
    how += "valuesIn[0] := 1 (outputs balanced), then ";
    return 0;
  }
  // Before an input of 1 is added: when the outputs already carry the most they can
  // (2 * (10^36 - 1)), 1 is taken from the largest input instead (its root re-derived).
  void make_room_for_one() {
    U256 full;
    add_carry(full, amount_max(), amount_max());
    if (cmp(total_in(), full) != 0) return;
    unsigned big = 0;
    for (unsigned k = 1; k < N; ++k) {
      if (cmp(q.values_in[k].to_u256(), q.values_in[big].to_u256()) > 0) big = k;
    }
    q.values_in[big] -= Fr::one();
    refresh_leaf_and_root(big);
    how += at("valuesIn", big) + " -= 1 (outputs full), then ";
  }
  // After slot j was given an amount: when it publishes Z (a dummy's key 0 at index 0, J11) or
  // another slot with an amount publishes the same nullifier (two dummies both publish Z, J9),
  // slot j gets a fresh key so that J9 and J11 still hold.
  void keep_nullifier_unique(unsigned j) {
    for (unsigned k = 0; k < N; ++k) {
      const bool z = k == j && q.nullifiers[j] == dvp::dummy_nullifier();
      if (!z && (k == j || q.values_in[k].is_zero() || q.nullifiers[k] != q.nullifiers[j])) {
        continue;
      }
      q.secret_keys[j] = nonzero_field();
      q.input_keys[j] = dvp::spend_public_key(q.secret_keys[j]);
      q.nullifiers[j] = dvp::nullifier(q.secret_keys[j], q.indices[j]);
      if (j == 0) refresh_revert();
      return;
    }
  }
  // A slot other than i with a zero amount, or any other slot when every one carries one.
  unsigned zero_slot_other_than(unsigned i) {
    std::vector<unsigned> c;
    for (unsigned j = 0; j < N; ++j) {
      if (j != i && q.values_in[j].is_zero()) c.push_back(j);
    }
    if (!c.empty()) return c[below(unsigned(c.size()))];
    return (i + 1 + below(N - 1)) % N;
  }
};

void break_j1(Breaking& b) {
  JoinSplitRequest& q = b.q;
  const Fr bound = fr(dvp::amount_bound());
  if (b.variant == 0) {
    const unsigned i = b.below(N);
    q.values_in[i] = bound;
    b.make_real(i);
    b.keep_nullifier_unique(i);
    b.refresh_leaf_and_root(i);
    b.rebalance();
    b.refresh_revert();
    b.how += b.at("valuesIn", i) + " := 10^36";
  } else if (b.variant == 1) {
    const unsigned o = b.below(M);
    U256 t = b.total_in(), rest;
    if (cmp(t, dvp::amount_bound()) < 0) {
      U256 missing;
      sub_borrow(missing, dvp::amount_bound(), t);
      q.values_in[0] += fr(missing);
      b.make_real(0);
      b.keep_nullifier_unique(0);
      b.refresh_leaf_and_root(0);
      b.refresh_revert();
      t = dvp::amount_bound();
    }
    sub_borrow(rest, t, dvp::amount_bound());
    q.values_out[o] = bound;
    q.values_out[1 - o] = fr(rest);
    b.refresh_outputs();
    b.how += b.at("valuesOut", o) + " := 10^36";
  } else if (b.variant == 2) {
    const unsigned o = b.below(M);
    q.values_out[1 - o] += q.values_out[o] + Fr::one();
    q.values_out[o] = -Fr::one();
    b.refresh_outputs();
    b.broken = {1, 8};
    b.how += b.at("valuesOut", o) + " := p - 1 (a negative output), the other raised to match";
  } else {
    const unsigned i = b.nonzero_slot();
    const unsigned j = (i + 1 + b.below(N - 1)) % N;
    q.values_in[j] += q.values_in[i] + Fr::one();
    q.values_in[i] = -Fr::one();
    b.make_real(j);
    b.keep_nullifier_unique(j);
    b.refresh_leaf_and_root(i);
    b.refresh_leaf_and_root(j);
    b.broken = {1, 8};
    b.how += b.at("valuesIn", i) + " := p - 1 (a negative input), " + b.at("valuesIn", j) +
             " raised to match";
  }
}

void break_j2(Breaking& b) {
  JoinSplitRequest& q = b.q;
  std::vector<unsigned> c = {0};
  for (unsigned i = 1; i < N; ++i) {
    if (!q.values_in[i].is_zero()) c.push_back(i);
  }
  const unsigned i = c[b.below(unsigned(c.size()))];
  if (b.variant == 0) {
    q.secret_keys[i] += b.nonzero_field();
    q.nullifiers[i] = dvp::nullifier(q.secret_keys[i], q.indices[i]);
    b.make_real(i);
    b.how += dvp::indexed("keyPairsIn", i) + ".privateKey := another key, the note kept";
  } else {
    const std::vector<Fr> aliases = test::spend_key_aliases(q.secret_keys[i]);
    q.input_keys[i] = aliases[b.below(unsigned(aliases.size()))];
    b.refresh_leaf_and_root(i);
    if (i == 0) b.refresh_revert();
    b.how += "pk_" + std::to_string(i) + " := an alias of Poseidon(sk, sk) mod l";
  }
}

void break_j3(Breaking& b) {
  JoinSplitRequest& q = b.q;
  const unsigned i = b.below(N);
  if (b.variant == 0) {
    q.nullifiers[i] += Fr::one();
    b.how += b.at("nullifiers", i) + " += 1";
  } else if (b.variant == 1) {
    q.indices[i] += Fr::from_u64(256);
    q.nullifiers[i] = dvp::nullifier(q.secret_keys[i], q.indices[i]);
    b.make_real(i);
    b.how += dvp::indexed("merkleProofs", i) + ".indices += 256";
  } else {
    q.nullifiers[i] = dvp::nullifier(b.nonzero_field(), q.indices[i]);
    b.how += b.at("nullifiers", i) + " := Poseidon(another key, idx)";
  }
}

void break_j4(Breaking& b) {
  JoinSplitRequest& q = b.q;
  const unsigned i = b.nonzero_slot();
  if (b.variant == 0) {
    q.leaves[i] =
        joinsplit_note(q, q.input_keys[i], q.salts_in[i], q.values_in[i] + Fr::from_u64(1000));
    b.how += "leaf_" + std::to_string(i) + " := the note of a larger amount";
  } else {
    q.leaves[i] = b.nonzero_field();
    b.how += "leaf_" + std::to_string(i) + " := a random leaf";
  }
  q.merkle_roots[i] = dvp::merkle_root(q.leaves[i], q.indices[i], q.paths[i]);
}

void break_j5(Breaking& b) {
  JoinSplitRequest& q = b.q;
  unsigned variant = b.variant;
  if (variant == 3) {
    bool any_zero = false;
    for (const Fr& a : q.values_in) any_zero = any_zero || a.is_zero();
    if (!any_zero) variant = 0;
  }
  if (variant == 3) {
    const unsigned j = b.zero_slot_other_than(N);  // N: no slot excluded
    b.make_room_for_one();
    q.values_in[j] = Fr::one();
    b.make_real(j);
    b.keep_nullifier_unique(j);
    q.leaves[j] = joinsplit_note(q, q.input_keys[j], q.salts_in[j], q.values_in[j]);
    b.rebalance();
    b.refresh_revert();
    b.how += b.at("valuesIn", j) + " := 1 without a root";
    return;
  }
  const unsigned i = b.nonzero_slot();
  if (variant == 0) {
    const unsigned m = b.below(dvp::kMerkleDepth);
    q.paths[i][m] += Fr::one();
    b.how += dvp::indexed("merkleProofs", i) + ".elements[" + std::to_string(m) + "] += 1";
  } else if (variant == 1) {
    q.merkle_roots[i] = b.nonzero_field();
    b.how += b.at("merkleRoots", i) + " := a random value";
  } else {
    // A flipped bit whose index no other input with an amount uses under the same key (else
    // the nullifiers would repeat, J9); variant 1 when none qualifies.
    const uint64_t idx = q.indices[i].to_u256().w[0];
    const unsigned start = b.below(dvp::kMerkleDepth);
    for (unsigned k = 0; k < dvp::kMerkleDepth; ++k) {
      const unsigned m = (start + k) % dvp::kMerkleDepth;
      const Fr flipped = Fr::from_u64(idx ^ (uint64_t(1) << m));
      const Fr nf = dvp::nullifier(q.secret_keys[i], flipped);
      bool repeats = false;
      for (unsigned j = 0; j < N; ++j) {
        repeats = repeats || (j != i && !q.values_in[j].is_zero() && q.nullifiers[j] == nf);
      }
      if (repeats) continue;
      q.indices[i] = flipped;
      q.nullifiers[i] = nf;
      b.how += dvp::indexed("merkleProofs", i) + ".indices bit " + std::to_string(m) + " flipped";
      return;
    }
    q.merkle_roots[i] = b.nonzero_field();
    b.how += b.at("merkleRoots", i) + " := a random value";
  }
}

void break_j6(Breaking& b) {
  JoinSplitRequest& q = b.q;
  const unsigned o = b.below(M);
  if (b.variant == 0) {
    q.commitments_out[o] += Fr::one();
    b.how += b.at("commitmentsOut", o) + " += 1";
  } else if (b.variant == 1) {
    q.salts_out[o] += Fr::one();
    b.how += b.at("saltsOut", o) + " += 1, commitment kept";
  } else {
    q.recipient_keys[o] = dvp::spend_public_key(b.nonzero_field());
    b.how += dvp::indexed("pubKeysOut", o) + ".publicKey := another key, commitment kept";
  }
}

void break_j7(Breaking& b) {
  JoinSplitRequest& q = b.q;
  if (b.variant == 0) {
    q.revert_commitment += Fr::one();
    b.how += "revertCommitment += 1";
  } else if (b.variant == 1) {
    q.revert_salt += Fr::one();
    b.how += "revertSalt += 1, revertCommitment kept";
  } else {
    Fr total = Fr::one();
    for (const Fr& a : q.values_in) total += a;
    q.revert_commitment = joinsplit_note(q, q.input_keys[0], q.revert_salt, total);
    b.how += "revertCommitment := the note of the sum + 1";
  }
}

void break_j8(Breaking& b) {
  JoinSplitRequest& q = b.q;
  const Fr max = fr(amount_max());
  if (b.variant == 0) {
    const unsigned o = q.values_out[0] != max ? 0 : q.values_out[1] != max ? 1 : M;
    if (o < M) {
      q.values_out[o] += Fr::one();
      b.how += b.at("valuesOut", o) + " += 1";
    } else {
      q.values_out[0] -= Fr::one();
      b.how += "valuesOut[0] -= 1";
    }
    b.refresh_outputs();
  } else {
    const unsigned i = b.nonzero_slot();
    const bool up = q.values_in[i] != max;
    q.values_in[i] += up ? Fr::one() : -Fr::one();
    b.refresh_leaf_and_root(i);
    b.refresh_revert();
    b.how += b.at("valuesIn", i) + (up ? " += 1" : " -= 1") + ", its root re-derived";
  }
}

void break_j9(Breaking& b) {
  JoinSplitRequest& q = b.q;
  const unsigned i = b.nonzero_slot();
  const unsigned j = b.zero_slot_other_than(i);
  b.make_real(j);
  if (b.variant == 0) {
    JoinSplitRequest copy = q;
    copy.values_in[j] = q.values_in[i];
    copy.secret_keys[j] = q.secret_keys[i];
    copy.salts_in[j] = q.salts_in[i];
    copy.indices[j] = q.indices[i];
    copy.paths[j] = q.paths[i];
    copy.merkle_roots[j] = q.merkle_roots[i];
    copy.tree_numbers[j] = q.tree_numbers[i];
    copy.input_keys[j] = q.input_keys[i];
    copy.leaves[j] = q.leaves[i];
    copy.nullifiers[j] = q.nullifiers[i];
    std::swap(copy, q);
    if (b.rebalance()) {
      b.refresh_revert();
      b.how += "slot " + std::to_string(j) + " := a copy of slot " + std::to_string(i);
      return;
    }
    std::swap(copy, q);  // the outputs cannot carry the copy: variant 1
  }
  // Another note under the same key and index, in another tree: the same nullifier.
  b.make_room_for_one();
  q.values_in[j] = Fr::one();
  q.secret_keys[j] = q.secret_keys[i];
  q.input_keys[j] = q.input_keys[i];
  q.indices[j] = q.indices[i];
  q.salts_in[j] = b.nonzero_field();
  for (Fr& e : q.paths[j]) e = b.rng.field<Fr>();
  q.tree_numbers[j] = q.tree_numbers[i] + Fr::one();
  q.nullifiers[j] = q.nullifiers[i];
  b.refresh_leaf_and_root(j);
  b.rebalance();
  b.refresh_revert();
  b.how += "slot " + std::to_string(j) + " := another note with the key and index of slot " +
           std::to_string(i);
}

void break_j11(Breaking& b) {
  JoinSplitRequest& q = b.q;
  bool any_zero = false;
  for (const Fr& a : q.values_in) any_zero = any_zero || a.is_zero();
  const bool fresh = b.variant == 1 && any_zero;
  unsigned i;
  if (fresh) {
    i = b.zero_slot_other_than(N);  // N: no slot excluded
    b.make_room_for_one();
    q.values_in[i] = Fr::one();
    b.make_real(i);
  } else {
    i = b.nonzero_slot();
  }
  q.secret_keys[i] = Fr::zero();
  q.input_keys[i] = dvp::spend_public_key(Fr::zero());
  q.indices[i] = Fr::zero();
  q.nullifiers[i] = dvp::dummy_nullifier();
  b.refresh_leaf_and_root(i);
  if (fresh) b.rebalance();
  b.refresh_revert();
  b.how += fresh ? b.at("valuesIn", i) + " := 1 under privateKey 0 at leaf index 0"
                 : "slot " + std::to_string(i) + "'s note re-issued to PK(0) at leaf index 0";
}

Result<BrokenJoinSplit> break_impl(const JoinSplitRequest& valid, int rule, uint64_t seed) {
  if (rule < 1 || rule > kJoinSplitRules || kVariants[rule] == 0) {
    return test::unbreakable_dvp_rule('J', rule);
  }
  if (!validate_joinsplit_all(valid).empty()) {
    return make_error("the request to break is not valid", "input", "request");
  }
  test::TestRng rng(test::dvp_break_seed(seed, rule));
  Breaking b{{unsigned(seed % kVariants[rule]), rng, {}}, valid, {rule}};
  using Breaker = void (*)(Breaking&);
  static constexpr Breaker kBreakers[kJoinSplitRules + 1] = {
      nullptr,  break_j1, break_j2, break_j3, break_j4, break_j5,
      break_j6, break_j7, break_j8, break_j9, nullptr,  break_j11};
  kBreakers[rule](b);
  const std::vector<int> failed = dvp_failed_rules(validate_joinsplit_all(b.q));
  if (Status st = test::check_dvp_claim('J', rule, b.variant, b.how, failed, b.broken); !st) {
    return st.error();
  }
  return BrokenJoinSplit{std::move(b.q), std::move(b.broken), std::move(b.how)};
}

}  // namespace

unsigned joinsplit_break_variants(int rule) {
  return rule >= 1 && rule <= kJoinSplitRules ? kVariants[rule] : 0;
}

Result<JoinSplitRequest> break_joinsplit_rule(const JoinSplitRequest& valid, int rule,
                                              uint64_t variant_seed) {
  Result<BrokenJoinSplit> r = break_impl(valid, rule, variant_seed);
  if (!r) return r.error();
  if (r->broken_rules != std::vector<int>{rule}) {
    return make_error(dvp::rule_id('J', rule) + " variant " +
                          std::to_string(variant_seed % kVariants[rule]) +
                          " breaks a set of rules; use break_joinsplit_rule_minimal",
                      "input", "rule");
  }
  return std::move(r->request);
}

Result<BrokenJoinSplit> break_joinsplit_rule_minimal(const JoinSplitRequest& valid, int rule,
                                                     uint64_t variant_seed) {
  return break_impl(valid, rule, variant_seed);
}

}  // namespace enygma
