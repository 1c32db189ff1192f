#include "support/payment_rule_breaker.hpp"

#include <algorithm>

#include "core/payment/relation.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"

namespace enygma::test {

namespace bjj = babyjubjub;

uint64_t Picker::next() {
  uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t rule_salt(std::string_view rule) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : rule) h = (h ^ uint8_t(c)) * 0x100000001b3ull;
  return h;
}

Fr Picker::nonzero_mod_l() {
  for (;;) {
    U256 x{{next(), next(), next(), next()}};
    Fr f = *Fr::from_canonical(bjj::mod_l(x));
    if (!f.is_zero()) return f;
  }
}

Fr Picker::mod_l_except(const Fr& not_this) {
  for (;;) {
    Fr f = nonzero_mod_l();
    if (f != not_this) return f;
  }
}

std::string PaymentBreak::at(const char* name, unsigned i) const {
  return std::string(name).append("[").append(std::to_string(i)).append("]");
}

void PaymentBreak::recommit(unsigned i) {
  q.tx_commits[i] = bjj::pedersen(q.tx_values[i], q.tx_random_values[i]);
}

void PaymentBreak::rederive_from_shared_secret(unsigned i) {
  q.hashed_shared_secrets[i] = relation::hashed_shared_secret(q.shared_secrets[i]);
  q.message_tags[i] = relation::message_tag(q.shared_secrets[i], q.block_number);
  if (i == j) rederive_nullifier();
}

void PaymentBreak::rederive_nullifier() {
  q.nullifier = relation::nullifier(q.hashed_shared_secrets[j], q.block_number);
}

void PaymentBreak::rederive_from_secret_key() {
  q.shared_secrets[j] = relation::shared_secret(q.previous_sender_random_value, q.secret_key);
  rederive_from_shared_secret(j);
}

Fr PaymentBreak::fresh_id() {
  for (;;) {
    Fr id = Fr::from_u64(pick.next());
    bool used = id == q.sender_id;
    for (const Fr& a : q.anonymity_set) used = used || a == id;
    if (!used) return id;
  }
}

void PaymentBreak::shift_tx_value(unsigned from, unsigned to, const Fr& delta, bool recompute) {
  q.tx_values[from] = relation::sub_mod_l(q.tx_values[from], delta);
  q.tx_values[to] = relation::add_mod_l(q.tx_values[to], delta);
  if (recompute) {
    recommit(from);
    recommit(to);
  }
}

void break_r1(PaymentBreak& b) {
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

void break_r3(PaymentBreak& b) {
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

void break_r4(PaymentBreak& b) {
  PaymentRequest& q = b.q;
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

void set_balance_random(PaymentRequest& q, const Fr& r) {
  Picker unused(0);
  PaymentBreak b{q, *payment::sender_index(q), 0, unused, {}};
  q.previous_sender_random_value = r;
  b.rederive_from_secret_key();
}

void break_r16(PaymentBreak& b) {
  PaymentRequest& q = b.q;
  const std::vector<Fr> aliases = relation::same_residue_aliases(q.previous_sender_random_value);
  set_balance_random(q, b.variant == 0 ? aliases.front() : b.pick.pick(aliases));
  b.how = "previous_sender_random_value += m*l (the same commitment), " +
          b.at("shared_secrets", b.j) + " and what follows re-derived";
}

void break_r5(PaymentBreak& b) {
  PaymentRequest& q = b.q;
  const unsigned i = b.pick.below(q.k);
  const Fr x = poseidon(q.shared_secrets[i], q.shared_secrets[i]);
  q.hashed_shared_secrets[i] = b.variant == 0 ? b.pick.pick(relation::mod_l_aliases(x))
                                              : b.pick.mod_l_except(q.hashed_shared_secrets[i]);
  if (i == b.j) b.rederive_nullifier();
  b.how =
      b.at("hashed_shared_secrets", i) + (b.variant == 0 ? " := an alias" : " := another value");
}

void break_r6(PaymentBreak& b) {
  PaymentRequest& q = b.q;
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

void break_r7(PaymentBreak& b, bool balance_bounded) {
  PaymentRequest& q = b.q;
  BjjPoint& pc = q.previous_commits[b.j];
  unsigned variant = b.variant;
  if (variant == 2) {
    const Fr up = q.previous_sender_balance + Fr::one();
    const Fr down = q.previous_sender_balance - Fr::one();
    if (!balance_bounded || relation::below_pow2(up, 250)) {
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

void break_r8(PaymentBreak& b) {
  PaymentRequest& q = b.q;
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

void break_r12(PaymentBreak& b) {
  PaymentRequest& q = b.q;
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

void break_r13_points(PaymentBreak& b) {
  PaymentRequest& q = b.q;
  const unsigned a = b.pick.below(q.k), c = b.pick.other_than(q.k, a);
  if (b.variant == 3) {
    q.tx_commits[a] = bjj::add(q.tx_commits[a], bjj::generator_g());
    b.how = b.at("tx_commits", a) + " += G";
    return;
  }
  const BjjPoint d = b.variant == 0   ? bjj::generator_g()
                     : b.variant == 1 ? bjj::torsion_point_order2()
                                      : bjj::generator_h();
  q.tx_commits[a] = bjj::add(q.tx_commits[a], d);
  q.tx_commits[c] = bjj::add(q.tx_commits[c], bjj::negate(d));
  const char* name = b.variant == 0 ? "G" : b.variant == 1 ? "(0, -1)" : "H";
  b.how = b.at("tx_commits", a) + " += " + name + ", " + b.at("tx_commits", c) + " -= " + name;
}

void break_r14(PaymentBreak& b) {
  PaymentRequest& q = b.q;
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

void break_sender_entry_by_alias(PaymentBreak& b) {
  b.q.tx_values[b.j] = b.pick.pick(relation::same_residue_aliases(b.q.tx_values[b.j]));
  b.how = b.at("tx_values", b.j) + " += m*l";
}

void break_r11_by_balance(PaymentBreak& b, unsigned variant) {
  PaymentRequest& q = b.q;
  if (variant == 0) {
    q.previous_sender_balance += relation::l_as_fr();
    b.how = "previous_sender_balance += l (same commitment)";
    return;
  }
  q.previous_sender_balance = variant == 1 ? relation::pow2(250) : q.sender_tx_value - Fr::one();
  q.previous_commits[b.j] =
      bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value);
  b.how = std::string(variant == 1 ? "previous_sender_balance := 2^250"
                                   : "previous_sender_balance := sender_tx_value - 1") +
          ", " + b.at("previous_commits", b.j) + " recomputed";
}

void break_r9_others(NamedRuleBreak& b, const char* r9, const char* r15) {
  PaymentRequest& q = b.q;
  if (b.variant == 0) {
    const unsigned r = b.pick.other_than(q.k, b.j);
    q.tx_values[r] = Fr::from_u64(1 + b.pick.below(1000000));
    b.recommit(r);
    b.how = b.at("tx_values", r) + " := delta > 0, " + b.at("tx_commits", r) + " recomputed";
    b.broken = {r9, r15};
  } else {
    const unsigned a = b.pick.below(q.k);
    q.tx_random_values[a] = relation::add_mod_l(q.tx_random_values[a], b.pick.nonzero_mod_l());
    b.recommit(a);
    b.how = b.at("tx_random_values", a) + " += delta, " + b.at("tx_commits", a) + " recomputed";
    b.broken = {r9, "R14"};
  }
}

void break_r15_nothing_to_others(PaymentBreak& b) {
  PaymentRequest& q = b.q;
  const unsigned j = b.j;
  unsigned variant = b.variant;
  if (variant == 0 && q.k < 3) variant = 1;
  const unsigned a = b.pick.other_than(q.k, j);
  unsigned c = a;
  if (q.k >= 3) {
    while (c == a) c = b.pick.other_than(q.k, j);
  }
  if (variant == 0) {
    b.shift_tx_value(c, a, Fr::from_u64(1 + b.pick.below(1000000)), true);
    b.how = b.at("tx_values", a) + " += X, " + b.at("tx_values", c) +
            " -= X mod l, commitments recomputed";
  } else if (variant == 1) {
    q.tx_values[a] += relation::l_as_fr();
    b.how = b.at("tx_values", a) + " += l (same commitment)";
  } else {
    // Up to four members share l: each amount alone is a plausible balance, the total is 0 mod
    // l, and nothing was paid for it.
    const unsigned n = std::min(4u, q.k - 1);
    const Fr part = *Fr::from_canonical(shr1(shr1(relation::l_as_fr().to_u256())));  // ~l/4
    Fr left = relation::l_as_fr();
    for (unsigned i = (j + 1) % q.k, given = 0; given < n; i = (i + 1) % q.k) {
      if (i == j) continue;
      q.tx_values[i] = ++given == n ? left : part;
      left -= q.tx_values[i];
      b.recommit(i);
    }
    b.how = std::to_string(n) + " other members share l, commitments recomputed";
  }
}

}  // namespace enygma::test
