#include "core/payment/relation.hpp"

#include <algorithm>

#include "core/primitives/poseidon.hpp"

namespace enygma::relation {

namespace bjj = babyjubjub;

const Fr& message_tag_domain() {
  static const Fr t = poseidon(Fr::from_u64(12));
  return t;
}

const Fr& random_factor_domain() {
  static const Fr u = poseidon(Fr::from_u64(21));
  return u;
}

Fr reduce_mod_l(const Fr& x) {
  return *Fr::from_canonical(bjj::mod_l(x));
}  // < l < p

Fr shared_secret(const Fr& r, const Fr& sk) {
  return reduce_mod_l(poseidon(r, sk));
}
Fr hashed_shared_secret(const Fr& ss) {
  return reduce_mod_l(poseidon(ss, ss));
}
Fr public_key(const Fr& sk) {
  return reduce_mod_l(poseidon(sk, sk));
}
Fr message_tag(const Fr& ss, const Fr& block) {
  return reduce_mod_l(poseidon(message_tag_domain(), ss, block));
}
Fr nullifier(const Fr& hs_sender, const Fr& block) {
  return poseidon(hs_sender, block);
}
Fr random_factor(const Fr& ss, const Fr& block) {
  return reduce_mod_l(poseidon(random_factor_domain(), ss, block));
}

Fr note_hash(const Fr& pk, const Fr& salt, const Fr& amount, const Fr& address) {
  return poseidon(poseidon(poseidon(pk, salt), amount), address);
}

const Fr& note_amount_bound() {
  static const Fr bound = *Fr::from_decimal("1000000000000000000000000000000000000");
  return bound;
}

U256 note_amount_max() {
  U256 m;
  sub_borrow(m, note_amount_bound().to_u256(), U256::from_u64(1));
  return m;
}

Fr l_as_fr() {
  return *Fr::from_canonical(bjj::subgroup_order());
}

Fr sender_tx_value_entry(const Fr& v) {
  return sub_mod_l(Fr::zero(), v);
}

std::vector<Fr> tx_random_values(const std::vector<Fr>& h, unsigned j) {
  std::vector<Fr> tr(h.size());
  const Fr l = l_as_fr();
  Fr others = Fr::zero();
  for (unsigned i = 0; i < h.size(); ++i) {
    if (i == j) continue;
    tr[i] = l - h[i];
    others = add_mod_l(others, h[i]);
  }
  if (j < h.size()) tr[j] = others;
  return tr;
}

bool below_pow2(const Fr& x, unsigned bits) {
  return x.to_u256().bit_length() <= bits;
}

bool below_l(const Fr& x) {
  return cmp(x.to_u256(), l_as_fr().to_u256()) < 0;
}

Fr pow2(unsigned bits) {
  U256 x;
  x.w[bits / 64] = uint64_t(1) << (bits % 64);
  return *Fr::from_canonical(x);
}

static BjjScalar to_scalar(const Fr& x) {
  return *BjjScalar::from_canonical(bjj::mod_l(x));
}
static Fr from_scalar(const BjjScalar& s) {
  return *Fr::from_canonical(s.to_u256());
}

Fr add_mod_l(const Fr& x, const Fr& y) {
  return from_scalar(to_scalar(x) + to_scalar(y));
}
Fr sub_mod_l(const Fr& x, const Fr& y) {
  return from_scalar(to_scalar(x) - to_scalar(y));
}

Fr sum_mod_l(const std::vector<Fr>& xs) {
  BjjScalar s = BjjScalar::zero();
  for (const Fr& x : xs) s += to_scalar(x);
  return from_scalar(s);
}

static void sort_unique(std::vector<Fr>& v) {
  auto less = [](const Fr& a, const Fr& b) { return cmp(a.to_u256(), b.to_u256()) < 0; };
  std::sort(v.begin(), v.end(), less);
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

std::vector<Fr> same_residue_aliases(const Fr& x) {
  std::vector<Fr> out;
  U256 y = bjj::mod_l(x);
  for (;;) {
    if (add_carry(y, y, bjj::subgroup_order()) != 0) break;
    auto f = Fr::from_canonical(y);
    if (!f) break;
    out.push_back(*f);
  }
  return out;
}

std::vector<Fr> mod_l_aliases(const Fr& x) {
  const Fr r = reduce_mod_l(x), l = l_as_fr();
  std::vector<Fr> out = same_residue_aliases(x);
  Fr y = x;
  for (int q = 0; q <= 7; ++q, y -= l) {
    if (y != r) out.push_back(y);
  }
  sort_unique(out);
  return out;
}

}  // namespace enygma::relation
