// J1..J10, each in its own function, as the relation document states them, and this
// project's J11. Integer statements
// (amount bounds, the balance J8) are evaluated on canonical representatives.
#include "core/joinsplit/validate.hpp"

#include <sodium.h>

#include <optional>
#include <string>

#include "core/dvp/json.hpp"
#include "core/dvp/relation.hpp"
#include "core/dvp/rules.hpp"

namespace enygma {

namespace {

using dvp::Check;
using joinsplit::M;
using joinsplit::N;

std::string at(const char* name, unsigned i) {
  return dvp::indexed(name, i);
}

std::string field_of(const char* name, unsigned i, const char* member) {
  return at(name, i).append(".").append(member);
}

Check fail(int rule, const std::string& field, const std::string& what) {
  return dvp::rule_error('J', rule, field, what);
}

// J1: 0 <= a_i < 10^36 and 0 <= b_o < 10^36, as integers.
Check j1(const JoinSplitRequest& q) {
  for (unsigned i = 0; i < N; ++i) {
    if (!dvp::below_amount_bound(q.values_in[i])) {
      return fail(1, at("valuesIn", i), "is not an amount below 10^36");
    }
  }
  for (unsigned o = 0; o < M; ++o) {
    if (!dvp::below_amount_bound(q.values_out[o])) {
      return fail(1, at("valuesOut", o), "is not an amount below 10^36");
    }
  }
  return std::nullopt;
}

// J2: pk_i = PK(sk_i) = Poseidon(sk_i, sk_i) mod l.
Check j2(const JoinSplitRequest& q) {
  for (unsigned i = 0; i < N; ++i) {
    if (q.input_keys[i] != dvp::spend_public_key(q.secret_keys[i])) {
      return fail(2, field_of("keyPairsIn", i, "publicKey"),
                  "(the input note's spend key) is not PK(" +
                      field_of("keyPairsIn", i, "privateKey") + ") = Poseidon(sk, sk) mod l");
    }
  }
  return std::nullopt;
}

// J3: 0 <= idx_i < 2^8 and nullifiers[i] == Poseidon(sk_i, idx_i).
Check j3(const JoinSplitRequest& q) {
  for (unsigned i = 0; i < N; ++i) {
    if (!dvp::index_in_range(q.indices[i])) {
      return fail(3, field_of("merkleProofs", i, "indices"), "is not a leaf index below 2^8");
    }
    if (q.nullifiers[i] != dvp::nullifier(q.secret_keys[i], q.indices[i])) {
      return fail(3, at("nullifiers", i),
                  "is not Poseidon(" + field_of("keyPairsIn", i, "privateKey") + ", " +
                      field_of("merkleProofs", i, "indices") + ")");
    }
  }
  return std::nullopt;
}

// J4: leaf_i = Note(pk_i, s_i, a_i).
Check j4(const JoinSplitRequest& q) {
  for (unsigned i = 0; i < N; ++i) {
    if (q.leaves[i] != joinsplit_note(q, q.input_keys[i], q.salts_in[i], q.values_in[i])) {
      return fail(
          4, at("leaves", i),
          "(the input note) is not Note(pk, " + at("saltsIn", i) + ", " + at("valuesIn", i) + ")");
    }
  }
  return std::nullopt;
}

// J5: a_i != 0 implies Root(leaf_i, idx_i, path_i) == merkleRoots[i].
Check j5(const JoinSplitRequest& q) {
  for (unsigned i = 0; i < N; ++i) {
    if (q.values_in[i].is_zero()) continue;
    if (dvp::merkle_root(q.leaves[i], q.indices[i], q.paths[i]) != q.merkle_roots[i]) {
      return fail(5, at("merkleRoots", i),
                  "is not the root of the input note under " + at("merkleProofs", i));
    }
  }
  return std::nullopt;
}

// J6: commitmentsOut[o] == Note(rpk_o, saltsOut[o], b_o).
Check j6(const JoinSplitRequest& q) {
  for (unsigned o = 0; o < M; ++o) {
    if (q.commitments_out[o] !=
        joinsplit_note(q, q.recipient_keys[o], q.salts_out[o], q.values_out[o])) {
      return fail(6, at("commitmentsOut", o),
                  "is not Note(" + field_of("pubKeysOut", o, "publicKey") + ", " +
                      at("saltsOut", o) + ", " + at("valuesOut", o) + ")");
    }
  }
  return std::nullopt;
}

// J7: revertCommitment == Note(pk_0, revertSalt, a_0 + ... + a_9).
Check j7(const JoinSplitRequest& q) {
  Fr total = Fr::zero();
  for (const Fr& a : q.values_in) total += a;
  const bool holds =
      q.revert_commitment == joinsplit_note(q, q.input_keys[0], q.revert_salt, total);
  sodium_memzero(&total, sizeof total);  // the amount spent
  if (holds) return std::nullopt;
  return fail(7, "revertCommitment", "is not Note(pk_0, revertSalt, the sum of valuesIn)");
}

// An integer sum of canonical values: 256 bits and the carries out of them.
struct WideSum {
  U256 low;
  uint64_t high = 0;
  void add(const Fr& x) { high += add_carry(low, low, x.to_u256()); }
  bool operator==(const WideSum& o) const { return low == o.low && high == o.high; }
};

// J8: a_0 + ... + a_9 == b_0 + b_1 over the integers.
Check j8(const JoinSplitRequest& q) {
  WideSum in, out;
  for (const Fr& a : q.values_in) in.add(a);
  for (const Fr& b : q.values_out) out.add(b);
  const bool holds = in == out;
  sodium_memzero(&in, sizeof in);
  sodium_memzero(&out, sizeof out);
  if (holds) return std::nullopt;
  return fail(8, "valuesOut", "do not add up to the sum of valuesIn");
}

// J9 (project): nullifiers[i] != nullifiers[i'] for i < i' with a_i != 0 and a_i' != 0.
Check j9(const JoinSplitRequest& q) {
  for (unsigned j = 1; j < N; ++j) {
    if (q.values_in[j].is_zero()) continue;
    for (unsigned i = 0; i < j; ++i) {
      if (!q.values_in[i].is_zero() && q.nullifiers[i] == q.nullifiers[j]) {
        return fail(9, at("nullifiers", j),
                    "repeats " + at("nullifiers", i) + " (both inputs carry an amount)");
      }
    }
  }
  return std::nullopt;
}

// J10 (project): a property of the circuit (nftCommitment and every tree number enter a
// constraint), true of every request.
Check j10(const JoinSplitRequest&) {
  return std::nullopt;
}

// J11 (project, beyond the relation document): nullifiers[i] != Z for i with a_i != 0. The
// contract ignores Z (every dummy slot publishes it), so a note spent under it (privateKey 0
// at leaf index 0) would never be marked spent.
Check j11(const JoinSplitRequest& q) {
  for (unsigned i = 0; i < N; ++i) {
    if (!q.values_in[i].is_zero() && q.nullifiers[i] == dvp::dummy_nullifier()) {
      return fail(11, at("nullifiers", i),
                  "is Z = Poseidon(0, 0) (" + field_of("keyPairsIn", i, "privateKey") +
                      " 0 at leaf index 0), the dummy slots' nullifier, which the contract "
                      "ignores: an input with an amount must not publish it, or its note could "
                      "be spent again");
    }
  }
  return std::nullopt;
}

constexpr dvp::RuleCheck<JoinSplitRequest> kRules[kJoinSplitRules] = {j1, j2, j3, j4,  j5, j6,
                                                                      j7, j8, j9, j10, j11};

Check check_shape(const JoinSplitRequest& q) {
  if (q.n > N) {
    return make_error(
        "valuesIn has " + std::to_string(q.n) + " entries, at most " + std::to_string(N), "input",
        "valuesIn");
  }
  return std::nullopt;
}

}  // namespace

Status validate_joinsplit(const JoinSplitRequest& req) {
  if (auto e = check_shape(req)) return *e;
  return dvp::first_failure<JoinSplitRequest>(req, kRules);
}

std::vector<Error> validate_joinsplit_all(const JoinSplitRequest& req) {
  if (auto e = check_shape(req)) return {*e};
  return dvp::every_failure<JoinSplitRequest>(req, kRules);
}

std::vector<int> dvp_failed_rules(const std::vector<Error>& errors) {
  std::vector<int> rules;
  for (const Error& e : errors) {
    int n = 0;
    if (e.rule.size() > 1 && (e.rule[0] == 'J' || e.rule[0] == 'O')) {
      for (size_t i = 1; i < e.rule.size() && e.rule[i] >= '0' && e.rule[i] <= '9'; ++i) {
        n = 10 * n + (e.rule[i] - '0');
      }
    }
    rules.push_back(n);
  }
  return rules;
}

}  // namespace enygma
