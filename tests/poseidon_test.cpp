// Poseidon: published known answers for 1..4 inputs, the compiled constants against the JSON
// they were generated from, and the optimized round structure against the fixed-arity forms.
#include "core/primitives/poseidon.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/test_rng.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

Fr hash_of(std::initializer_list<uint64_t> xs) {
  std::vector<Fr> in;
  for (uint64_t x : xs) in.push_back(Fr::from_u64(x));
  return poseidon(std::span<const Fr>(in));
}

TEST(Poseidon, KnownAnswers) {
  // go-iden3-crypto poseidon/poseidon_test.go (TestPoseidonHash) and the relation document.
  EXPECT_EQ(
      hash_of({1}),
      test::dec("18586133768512220936620570745912940619677854269274689475585506675881198879027"));
  EXPECT_EQ(
      hash_of({1, 2}),
      test::dec("7853200120776062878684798364095072458815029376092732009249414926327459813530"));
  // circomlibjs test/poseidon.js (poseidon([1, 2, 3]) and poseidon([1, 2, 3, 4])), also quoted
  // by several independent circomlib-compatible implementations.
  EXPECT_EQ(
      hash_of({1, 2, 3}),
      test::dec("6542985608222806190361240322586112750744169038454362455181422643027100751666"));
  EXPECT_EQ(
      hash_of({1, 2, 3, 4}),
      test::dec("18821383157269793795438455681495246036402687001665670618754263018637548127333"));
  // Trailing zero inputs change the width, hence the hash.
  EXPECT_NE(hash_of({1, 2, 0}), hash_of({1, 2}));
}

TEST(Poseidon, FixedArityFormsAgree) {
  test::TestRng rng(7);
  for (int i = 0; i < 20; ++i) {
    Fr a = rng.field<Fr>(), b = rng.field<Fr>(), c = rng.field<Fr>();
    const Fr two[2] = {a, b}, three[3] = {a, b, c};
    EXPECT_EQ(poseidon(a), poseidon(std::span<const Fr>(&a, 1)));
    EXPECT_EQ(poseidon(a, b), poseidon(std::span<const Fr>(two)));
    EXPECT_EQ(poseidon(a, b, c), poseidon(std::span<const Fr>(three)));
    EXPECT_NE(poseidon(a, b), poseidon(b, a));
  }
}

TEST(Poseidon, ParameterShapes) {
  const unsigned partial[4] = {56, 57, 56, 60};
  for (unsigned n = 1; n <= 4; ++n) {
    const PoseidonParams& p = poseidon_params(n);
    const unsigned t = n + 1;
    EXPECT_EQ(p.t, t);
    EXPECT_EQ(p.rounds_full, 8u);
    EXPECT_EQ(p.rounds_partial, partial[n - 1]);
    EXPECT_EQ(p.c.size(), t * 8 + partial[n - 1]);
    EXPECT_EQ(p.s.size(), (2 * t - 1) * partial[n - 1]);
    EXPECT_EQ(p.m.size(), t * t);
    EXPECT_EQ(p.p.size(), t * t);
  }
}

Fr from_json_number(const nlohmann::json& v) {
  const std::string& s = v.get_ref<const std::string&>();
  if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) {
    U256 x;
    for (char ch : s.substr(2)) {
      unsigned d = ch <= '9' ? unsigned(ch - '0') : unsigned((ch | 0x20) - 'a' + 10);
      EXPECT_LT(d, 16u) << s;
      EXPECT_EQ(mul_small_add(x, x, 16, d), 0u) << s;
    }
    auto f = Fr::from_canonical(x);
    EXPECT_TRUE(f.has_value()) << s;
    return f.value_or(Fr::zero());
  }
  auto f = Fr::from_decimal(s);
  EXPECT_TRUE(f.has_value()) << s;
  return f.value_or(Fr::zero());
}

// The generated poseidon_constants.cpp must equal the JSON in shared/ (run where it exists).
TEST(Poseidon, CompiledConstantsEqualTheJson) {
  std::ifstream f(std::string(ENYGMA_SHARED_DIR).append("/vectors/poseidon-constants.json"));
  ASSERT_TRUE(f) << "shared/vectors/poseidon-constants.json is missing";
  std::stringstream ss;
  ss << f.rdbuf();
  auto doc = nlohmann::json::parse(ss.str());
  ASSERT_EQ(doc["rounds_full"], 8);
  for (unsigned n = 1; n <= 4; ++n) {
    const std::string t = std::to_string(n + 1);
    const PoseidonParams& p = poseidon_params(n);
    EXPECT_EQ(doc["rounds_partial"][t], p.rounds_partial);
    const auto& j = doc["params"][t];
    auto flat = [](const nlohmann::json& a) {
      std::vector<nlohmann::json> out;
      for (const auto& e : a) {
        if (e.is_array()) {
          for (const auto& x : e) out.push_back(x);
        } else {
          out.push_back(e);
        }
      }
      return out;
    };
    const std::pair<const char*, std::span<const Fr>> tables[] = {
        {"C", p.c}, {"S", p.s}, {"M", p.m}, {"P", p.p}};
    for (const auto& [name, compiled] : tables) {
      auto expected = flat(j[name]);
      ASSERT_EQ(expected.size(), compiled.size()) << name << " t=" << t;
      for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(from_json_number(expected[i]), compiled[i]) << name << "[" << i << "] t=" << t;
      }
    }
  }
}

}  // namespace
}  // namespace enygma
