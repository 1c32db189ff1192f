#include "core/joinsplit/wallet.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "core/dvp/merkle_tree.hpp"
#include "core/primitives/seed_expander.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

namespace {

using joinsplit::N;
constexpr unsigned kLeaves = dvp::MerkleTree::kLeaves;

enum class SlotKind : uint8_t { kNote, kZeroNote, kDummy };

// n distinct indices below 256, in a seed-chosen order.
std::array<unsigned, N> distinct_indices(const SeedExpander& ex, unsigned n) {
  std::array<unsigned, N> out{};
  for (unsigned i = 0; i < n; ++i) {
    for (uint32_t attempt = 0;; ++attempt) {
      const unsigned idx = ex.below(kLeaves, "index", i * 1024 + attempt);
      if (std::find(out.begin(), out.begin() + i, idx) == out.begin() + i) {
        out[i] = idx;
        break;
      }
    }
  }
  return out;
}

// Amounts of the real notes (kNote slots): each below min(10^36, floor((2 * 10^36 - 2) / k))
// for k notes, so that the total fits two outputs below 10^36.
void choose_amounts(const SeedExpander& ex, JoinSplitRequest& q,
                    const std::array<SlotKind, N>& kinds) {
  unsigned notes = 0;
  for (unsigned i = 0; i < q.n; ++i) notes += kinds[i] == SlotKind::kNote;
  U256 amount_max;  // 10^36 - 1
  sub_borrow(amount_max, dvp::amount_bound(), U256::from_u64(1));
  U256 cap = dvp::amount_bound();
  if (notes >= 2) {
    U256 twice;
    add_carry(twice, amount_max, amount_max);
    // floor(twice / notes) by long division in 32-bit digits (notes <= 10).
    U256 q256;
    uint64_t rem = 0;
    for (int half = 7; half >= 0; --half) {
      const uint64_t cur = (rem << 32) | ((twice.w[half / 2] >> (32 * (half % 2))) & 0xffffffffu);
      q256.w[half / 2] |= (cur / notes) << (32 * (half % 2));
      rem = cur % notes;
    }
    add_carry(cap, q256, U256::from_u64(1));  // amounts <= floor(twice / notes)
    if (cmp(cap, dvp::amount_bound()) > 0) cap = dvp::amount_bound();
  }
  const unsigned shape = ex.below(6, "amount_shape");
  const U256 small = U256::from_u64(uint64_t(1) << 40);
  for (unsigned i = 0; i < q.n; ++i) {
    if (kinds[i] != SlotKind::kNote) continue;
    U256 a;
    if (shape == 0) {  // the largest amounts the outputs can carry
      sub_borrow(a, cap, U256::from_u64(1));
    } else if (shape == 1) {
      a = ex.u256_below(cmp(cap, small) < 0 ? cap : small, "amount", i);
    } else {
      a = ex.u256_below(cap, "amount", i);
    }
    q.values_in[i] = *Fr::from_canonical(a);
    sodium_memzero(&a, sizeof a);
  }
  // Outputs: b_0 in [max(0, T - (10^36 - 1)), min(T, 10^36 - 1)], b_1 = T - b_0; shape 3 puts
  // as much as possible on output 0.
  U256 total;
  for (unsigned i = 0; i < q.n; ++i) add_carry(total, total, q.values_in[i].to_u256());
  U256 lo, hi = cmp(total, amount_max) < 0 ? total : amount_max;
  if (cmp(total, amount_max) > 0) sub_borrow(lo, total, amount_max);
  U256 span, b0;
  sub_borrow(span, hi, lo);
  add_carry(span, span, U256::from_u64(1));
  if (shape == 3) {
    b0 = hi;
  } else {
    add_carry(b0, lo, ex.u256_below(span, "output_split"));
  }
  U256 b1;
  sub_borrow(b1, total, b0);
  q.values_out[0] = *Fr::from_canonical(b0);
  q.values_out[1] = *Fr::from_canonical(b1);
  for (U256* x : {&total, &lo, &hi, &span, &b0, &b1}) sodium_memzero(x, sizeof *x);
}

}  // namespace

JoinSplitRequest joinsplit_request_from_seed(NoteFormat format, const std::array<uint8_t, 32>& seed,
                                             unsigned inputs) {
  if (inputs > N) std::abort();
  const SeedExpander ex(seed);
  JoinSplitRequest q;
  q.format = format;
  q.n = inputs;
  q.nft_commitment = ex.field("nft_commitment");
  U256 token = ex.u256_below(U256{{0, 0, uint64_t(1) << 32, 0}}, "token");  // 160 bits
  q.token = *Fr::from_canonical(token);
  q.token_id = format == NoteFormat::kErc1155 ? Fr::from_u64(ex.u64("token_id") >> 1) : Fr::zero();

  // Which real slots carry a note, a zero-value note or a dummy (never slot 0: its key
  // receives the revert note).
  std::array<SlotKind, N> kinds{};
  for (unsigned i = 1; i < inputs; ++i) {
    const unsigned pick = ex.below(10, "slot_kind", i);
    kinds[i] = pick == 0 ? SlotKind::kDummy : pick == 1 ? SlotKind::kZeroNote : SlotKind::kNote;
  }
  choose_amounts(ex, q, kinds);

  // Keys: one spend key for all inputs, or one per input.
  const bool one_key = ex.below(2, "one_key") == 0;
  const std::array<unsigned, N> indices = distinct_indices(ex, inputs);
  const unsigned trees = 1 + ex.below(2, "trees");
  std::array<uint64_t, 2> tree_number = {ex.u64("tree_number", 0) % 1000, 0};
  tree_number[1] = (tree_number[0] + 1 + ex.u64("tree_number", 1) % 999) % 1000;

  // The trees: append-only, leaves [0, fill) occupied by other notes, then ours placed.
  unsigned highest = 0;
  for (unsigned i = 0; i < inputs; ++i) highest = std::max(highest, indices[i]);
  const unsigned fill = highest + 1 + ex.below(kLeaves - highest, "fill");
  // Wiped when freed, as the trees' levels: the leaves tell which notes are spent.
  SecureVector<std::array<Fr, kLeaves>> leaves(2);
  for (unsigned t = 0; t < trees; ++t) {
    for (unsigned j = 0; j < kLeaves; ++j) {
      leaves[t][j] = j < fill ? ex.field("other_note", t * kLeaves + j) : Fr::zero();
    }
  }
  std::array<unsigned, N> tree_of{};
  for (unsigned i = 0; i < inputs; ++i) {
    if (kinds[i] == SlotKind::kDummy) continue;
    q.secret_keys[i] = ex.mod_l("secret_key", one_key ? 0 : i);
    q.salts_in[i] = ex.field("salt_in", i);
    q.indices[i] = Fr::from_u64(indices[i]);
    tree_of[i] = trees == 1 ? 0 : ex.below(2, "tree_of", i);
    q.tree_numbers[i] = Fr::from_u64(tree_number[tree_of[i]]);
    const Fr pk = dvp::spend_public_key(q.secret_keys[i]);
    leaves[tree_of[i]][indices[i]] = joinsplit_note(q, pk, q.salts_in[i], q.values_in[i]);
  }
  std::unique_ptr<dvp::MerkleTree> built[2];
  for (unsigned t = 0; t < trees; ++t) built[t] = std::make_unique<dvp::MerkleTree>(leaves[t]);
  for (unsigned i = 0; i < inputs; ++i) {
    if (kinds[i] == SlotKind::kDummy) continue;
    q.paths[i] = built[tree_of[i]]->path(indices[i]);
    q.merkle_roots[i] = built[tree_of[i]]->root();
  }
  for (unsigned o = 0; o < kJoinSplitOutputs; ++o) {
    Fr recipient_sk = ex.mod_l("recipient_key", o);
    q.recipient_keys[o] = dvp::spend_public_key(recipient_sk);
    sodium_memzero(&recipient_sk, sizeof recipient_sk);
    q.salts_out[o] = ex.field("salt_out", o);
  }
  q.revert_salt = ex.field("revert_salt");
  for (unsigned i = inputs; i < N; ++i) set_dummy_slot(q, i);
  for (unsigned i = 0; i < inputs; ++i) {
    if (kinds[i] == SlotKind::kDummy) set_dummy_slot(q, i);
  }
  q.derive_public_values();
  sodium_memzero(&token, sizeof token);
  return q;
}

JoinSplitRequest joinsplit_request_from_seed(NoteFormat format, uint64_t seed, unsigned inputs) {
  std::array<uint8_t, 32> s{};
  for (int i = 0; i < 8; ++i) s[i] = uint8_t(seed >> (8 * i));
  return joinsplit_request_from_seed(format, s, inputs);
}

}  // namespace enygma
