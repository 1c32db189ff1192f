// Coordinated forgeries against every circuit: a prover who picks several hints together, where
// the algebra leaves it an alternative to the honest values, must be refused by the bound that
// exists for it, and by nothing later. The rule-breaker tests change the request and the
// single-wire audits change one wire at a time; neither sees a circuit that uses a gadget with
// the wrong parameters (a reduction that is not exact, a bound walk left out, a decomposition
// with too many bits). Here, on honest witnesses of each circuit (tests/support/forge.hpp
// recomputes everything after the forced wires; tests/support/circuit_forgeries.hpp finds the
// places by their constraints' labels):
//  - every exact reduction mod l (x == q*l + r): every other quotient q' that the quotient bits
//    can hold, with r' = x - q'*l mod p when it fits in the remainder's bits (q' = q - 1 with
//    r + l, or the wrap q' = 7 with r - (7 - q)*l + p). The recomposition holds and the first
//    constraint the forged witness breaks must be in that remainder's bound walk;
//  - every bound walk of 254 bits (the canonical bits of Poseidon(U, ss[i], b) for R14, the
//    withdraw's canonical V): the bits of v + p, the same field element; the first broken
//    constraint must be in that walk (its bound p - 1);
//  - every walk to l - 1 outside a reduction (R16's R, a scalar of [R]H): the bits of R + l,
//    the same point; the first broken constraint must be in that walk.
// The number of each per circuit is checked, so a reduction or walk that disappears (or that its
// labels no longer name) fails the test rather than leaving less to check.
//
// No other hint of these circuits has an alternative solution, so no other forgery is tried:
// decompositions of at most 252 bits (alloc_bits, to_bits, the amounts' 120-bit walks, the
// index bits) recompose below 2^252 < p, one value each; is_zero's e and inv (x != 0 forces
// e = 0 and inv = 1/x, x = 0 forces e = 1 and inv = 0), and the inverses of W5, J9 and J11
// ((d * inv = m, inv * (1 - m) = 0: inv = 1/d when m = 1, 0 when m = 0); products, selections
// and S-box powers (one constraint fixes each output); the Edwards additions (complete: a is a
// square and d is not, so 1 +- d*tau != 0 for points on the curve) and the fixed-base chain's
// lambdas (no exceptional case for any bits, core/circuit/fixed_base.cpp).
//
// By default each circuit's first instance of every group (R5 hs[*]/mod l, ...) that admits a
// forgery is forged, on as many wallet requests as it takes for every group to have one (a value
// admits a wrapped representation or an alias about one time in three); with ENYGMA_SWEEP=full,
// every instance of at least two requests (ten of the join-splits, thirty of the ownership
// circuit), and every k = 2..16 of the payment circuits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/joinsplit/joinsplit_circuit.hpp"
#include "core/joinsplit/wallet.hpp"
#include "core/ownership/ownership_circuit.hpp"
#include "core/ownership/wallet.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/wallet.hpp"
#include "support/circuit_forgeries.hpp"
#include "support/dvp_circuits.hpp"
#include "support/forge.hpp"
#include "support/payment_families.hpp"
#include "support/sweep.hpp"

namespace enygma {
namespace {

// How many places of each kind a circuit has.
struct ForgeryPlaces {
  size_t reductions, canonical_walks, walks_below_l;
};

// Requests tried until every group has had a forgery, at most; with ENYGMA_SWEEP=full every
// place of at least `full_requests` requests is forged.
constexpr unsigned kForgeryRequestsAtMost = 24;

// l - 1 and p - 7l - 1, the bounds of an exact reduction's remainder (core/circuit/mod_l.cpp).
const U256 kForgeryLMinus1 = [] {
  U256 r;
  sub_borrow(r, BjjScalarParams::kModulus, U256::from_u64(1));
  return r;
}();
const std::optional<U256> kForgeryWrapBound = [] {
  U256 seven_l, r;
  mul_small_add(seven_l, BjjScalarParams::kModulus, 7, 0);
  sub_borrow(r, Fr::kModulus, seven_l);
  sub_borrow(r, r, U256::from_u64(1));
  return std::optional<U256>(r);
}();

std::string forgery_circuit_name(const char* family, unsigned k) {
  std::string s = family;
  s += "-k";
  s += std::to_string(k);
  return s;
}

// "R4/mod l, R5 hs[*]/mod l x2, ...": the groups of some places, for messages.
std::string forgery_groups(const std::vector<std::string>& scopes) {
  std::map<std::string, unsigned> n;
  for (const std::string& s : scopes) ++n[test::instance_group(s)];
  std::string out;
  for (const auto& [group, count] : n) {
    if (!out.empty()) out += ", ";
    out += group;
    if (count > 1) {
      out += " x";
      out += std::to_string(count);
    }
  }
  return out.empty() ? std::string("none") : out;
}

void check_coordinated_forgeries(const std::string& circuit, const R1cs& r1cs,
                                 const ForgeryPlaces& expected,
                                 const std::function<std::vector<Fr>(uint64_t)>& witness_of,
                                 uint64_t first_seed, unsigned full_requests) {
  const test::CircuitInstances inst = test::find_instances(r1cs);
  ASSERT_EQ(inst.error, "") << circuit;
  std::vector<std::string> reductions, canonical, below_l;
  for (const test::ModLReduction& r : inst.reductions) reductions.push_back(r.scope);
  for (size_t i : inst.p_alias_walks) canonical.push_back(inst.walks[i].scope);
  for (size_t i : inst.l_alias_walks) below_l.push_back(inst.walks[i].scope);
  EXPECT_EQ(reductions.size(), expected.reductions)
      << circuit << ": exact reductions mod l found: " << forgery_groups(reductions);
  EXPECT_EQ(canonical.size(), expected.canonical_walks)
      << circuit << ": bound walks of 254 bits found: " << forgery_groups(canonical);
  EXPECT_EQ(below_l.size(), expected.walks_below_l)
      << circuit
      << ": bound walks to l - 1 outside the reductions found: " << forgery_groups(below_l);
  // The wrap q' = 7, r' = x + p - 7l is refused by r <= l - 1 unless x < 8l - p (about
  // 2^125.6): a Poseidon output that no test can find, so the second bound that refuses it then
  // (q == 7 => r <= p - 7l - 1; tests/circuit_bits_test.cpp tries it on chosen x) is checked
  // here by its value, with the reduction's widths.
  for (const test::ModLReduction& r : inst.reductions) {
    EXPECT_EQ(r.quotient_bits.size(), 3u) << circuit << ": " << r.scope;
    EXPECT_EQ(r.remainder_bits.size(), 251u) << circuit << ": " << r.scope;
    if (!r.walk) {
      ADD_FAILURE() << circuit << ": " << r.scope << ": its remainder has no bound walk";
      continue;
    }
    const test::BoundWalk& walk = inst.walks[*r.walk];
    EXPECT_TRUE(walk.bound == kForgeryLMinus1 && walk.tighter == kForgeryWrapBound)
        << circuit << ": " << r.scope << ": its remainder is not walked to l - 1 and, when "
        << "q == 7, to p - 7l - 1";
  }

  // The places: the reductions, then the walks with aliases mod p, then those mod l.
  enum class Kind { kReduction, kAliasP, kAliasL };
  struct Place {
    Kind kind;
    size_t index;
    std::string group;
  };
  std::vector<Place> places;
  for (size_t i = 0; i < inst.reductions.size(); ++i) {
    places.push_back({Kind::kReduction, i, test::instance_group(inst.reductions[i].scope)});
  }
  for (size_t i : inst.p_alias_walks) {
    places.push_back({Kind::kAliasP, i, test::instance_group(inst.walks[i].scope)});
  }
  for (size_t i : inst.l_alias_walks) {
    places.push_back({Kind::kAliasL, i, test::instance_group(inst.walks[i].scope)});
  }
  std::map<std::string, unsigned> forged;  // per group: places forged (with a forgery to try)
  for (const Place& p : places) forged[p.group] = 0;

  const test::Forger forger(r1cs);
  const bool full = test::full_sweep();
  unsigned requests = 0;
  size_t forgeries = 0, refused = 0;
  for (uint64_t seed = first_seed; requests < std::max(kForgeryRequestsAtMost, full_requests);
       ++seed) {
    const std::vector<Fr> w = witness_of(seed);
    ++requests;
    ASSERT_EQ(r1cs.first_unsatisfied(w), std::nullopt) << circuit << " seed " << seed;
    for (const Place& p : places) {
      if (!full && forged[p.group] > 0) continue;
      const std::vector<test::ForgeryCase> cases =
          p.kind == Kind::kReduction
              ? test::wrapped_representations(r1cs, inst, p.index, w)
              : test::walk_aliases(inst, p.index, w, p.kind == Kind::kAliasP);
      if (cases.empty()) continue;  // this value has no representation to forge
      for (const test::ForgeryCase& c : cases) {
        const std::string failure = test::refused_by_its_walk(forger, inst, c, w);
        EXPECT_EQ(failure, "") << circuit << " (request seed " << seed << ")";
        ++forgeries;
        refused += failure.empty();
      }
      ++forged[p.group];
    }
    bool every_group = true;
    for (const auto& [group, n] : forged) every_group = every_group && n > 0;
    if (every_group && (!full || requests >= full_requests)) break;
  }
  std::string summary;
  for (const auto& [group, n] : forged) {
    EXPECT_GT(n, 0u) << circuit << ": no place of " << group << " admitted a forgery in "
                     << requests << " requests (seeds from " << first_seed << "): try other seeds";
    if (!summary.empty()) summary += "; ";
    summary += group;
    summary += ": ";
    summary += std::to_string(n);
  }
  std::printf(
      "[forgeries] %s: %zu reductions mod l, %zu walks of 254 bits, %zu to l - 1; "
      "%u requests, %zu forgeries, %zu refused first by their bound walks (places "
      "forged: %s)\n",
      circuit.c_str(), reductions.size(), canonical.size(), below_l.size(), requests, forgeries,
      refused, summary.c_str());
}

// R4, R6, R5 and R8 (two per member) reduce mod l; R14's k hashes have canonical bits; R16's R
// is walked to l - 1.
TEST(CircuitForgerySoundness, Transfer) {
  for (unsigned k : test::sweep_ks({2, 6})) {
    check_coordinated_forgeries(
        forgery_circuit_name("transfer", k), transfer_r1cs(k), {2 * k + 2, k, 1},
        [k](uint64_t seed) {
          return transfer_witness(
              make_transfer(wallet_inputs_from_seed(k, seed, 1 + unsigned(seed % (k - 1)))));
        },
        1000 + 100 * k, 2);
  }
}

TEST(CircuitForgerySoundness, Deposit) {
  for (unsigned k : test::sweep_ks({2})) {
    check_coordinated_forgeries(
        forgery_circuit_name("deposit", k), test::deposit_under_test().r1cs(k), {2 * k + 2, k, 1},
        [k](uint64_t seed) { return deposit_witness(test::deposit_wallet_request(k, seed)); },
        2000 + 100 * k, 2);
  }
}

// As the deposit, plus PK(sk_d) of every note slot (W1) and the canonical bits of V (R7).
TEST(CircuitForgerySoundness, Withdraw) {
  for (unsigned k : test::sweep_ks({2})) {
    check_coordinated_forgeries(
        forgery_circuit_name("withdraw", k), test::withdraw_under_test().r1cs(k),
        {2 * k + 2 + kNoteSlots, k + 1, 1},
        [k](uint64_t seed) {
          return withdraw_witness(
              test::withdraw_wallet_request(k, seed, 1 + unsigned(seed % kNoteSlots)));
        },
        3000 + 100 * k, 2);
  }
}

// PK(sk_i) of every input slot (J2); the amounts' and indices' bits are below 2^252.
TEST(CircuitForgerySoundness, JoinSplit) {
  const std::pair<NoteFormat, const char*> formats[] = {{NoteFormat::kErc20, "joinsplit-enygma"},
                                                        {NoteFormat::kErc1155, "joinsplit-1155"}};
  for (const auto& circuit : formats) {
    const NoteFormat format = circuit.first;
    check_coordinated_forgeries(
        circuit.second, test::joinsplit_r1cs(format), {kJoinSplitInputs, 0, 0},
        [format](uint64_t seed) {
          return joinsplit_witness(joinsplit_request_from_seed(
              format, seed, kJoinSplitInputs - unsigned(seed % kJoinSplitInputs)));
        },
        4000, 10);
  }
}

// PK(sk) (O1), once.
TEST(CircuitForgerySoundness, Ownership) {
  check_coordinated_forgeries(
      "ownership-721", test::ownership_r1cs(), {1, 0, 0},
      [](uint64_t seed) { return ownership_witness(ownership_request_from_seed(seed)); }, 5000, 30);
}

}  // namespace
}  // namespace enygma
