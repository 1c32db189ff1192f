// The Ethereum BN254 precompiles (ECADD, ECMUL, ECPAIRING) against go-ethereum's test vectors in
// shared/vectors/bn254-precompiles/, and inputs they must reject (upstream has no failing
// vectors for these precompiles, so those are constructed here).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/curve/point_encoding.hpp"
#include "support/evm_precompiles.hpp"
#include "support/test_rng.hpp"

namespace enygma {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes from_hex(const std::string& hex) {
  auto nibble = [](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return uint8_t(c - '0');
    if (c >= 'a' && c <= 'f') return uint8_t(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return uint8_t(c - 'A' + 10);
    ADD_FAILURE() << "bad hex digit " << c;
    return 0;
  };
  EXPECT_EQ(hex.size() % 2, 0u);
  Bytes out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = uint8_t(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  }
  return out;
}

std::string to_hex(const Bytes& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += d[x >> 4];
    s += d[x & 15];
  }
  return s;
}

nlohmann::json load_json(const char* name) {
  const std::string path =
      std::string(ENYGMA_SHARED_DIR).append("/vectors/bn254-precompiles/").append(name);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  nlohmann::json j;
  if (in.good()) in >> j;
  return j;
}

template <class Precompile>
void run_vectors(const char* file, Precompile precompile, size_t expected_count) {
  const nlohmann::json vectors = load_json(file);
  ASSERT_TRUE(vectors.is_array());
  EXPECT_EQ(vectors.size(), expected_count) << file;
  for (const auto& v : vectors) {
    const std::string name = v.at("Name").get<std::string>();
    const Bytes input = from_hex(v.at("Input").get<std::string>());
    const PrecompileResult r = precompile(input);
    ASSERT_TRUE(r.ok) << file << " " << name << ": " << r.error;
    EXPECT_EQ(to_hex(r.output), v.at("Expected").get<std::string>()) << file << " " << name;
  }
}

TEST(PrecompileVectors, Add) {
  run_vectors("bn256Add.json", evm_bn254_add, 16);
}
TEST(PrecompileVectors, ScalarMul) {
  run_vectors("bn256ScalarMul.json", evm_bn254_mul, 19);
}
TEST(PrecompileVectors, Pairing) {
  run_vectors("bn256Pairing.json", evm_bn254_pairing, 14);
}

// ---- inputs that must fail ------------------------------------------------------------------

Bytes word(const U256& v) {
  Bytes b(32);
  u256_to_be_bytes(v, b.data());
  return b;
}
Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Bytes g1_bytes(const G1Affine& p) {
  Bytes b(64);
  g1_to_uncompressed(p, b.data());
  return b;
}
Bytes g2_bytes(const G2Affine& q) {
  Bytes b(128);
  g2_to_uncompressed(q, b.data());
  return b;
}

U256 plus(const U256& a, uint64_t k) {
  U256 r;
  add_carry(r, a, U256::from_u64(k));
  return r;
}

TEST(PrecompileRejects, AddAndMul) {
  const Bytes g = g1_bytes(G1Affine::generator());
  const Bytes p_word = word(Fp::kModulus);
  const Bytes one = word(U256::from_u64(1)), two = word(U256::from_u64(2)),
              three = word(U256::from_u64(3));
  // x = p + 1 is the generator's x reduced mod p: must still be rejected (not canonical).
  const Bytes x_plus_p = word(plus(Fp::kModulus, 1));
  const Bytes y_plus_p = word(plus(Fp::kModulus, 2));
  struct Case {
    const char* what;
    Bytes point;
    const char* error_has;
  };
  const std::vector<Case> bad = {
      {"x = p + 1", concat({x_plus_p, two}), "x coordinate is not canonical"},
      {"y = p + 2", concat({one, y_plus_p}), "y coordinate is not canonical"},
      {"x = p", concat({p_word, two}), "x coordinate is not canonical"},
      {"(1, 3) off the curve", concat({one, three}), "not on the curve"},
      {"(0, 1) off the curve", concat({word(U256{}), one}), "not on the curve"},
      {"all ones", Bytes(64, 0xff), "not canonical"},
  };
  for (const Case& c : bad) {
    for (bool first : {true, false}) {
      const Bytes in = first ? concat({c.point, g}) : concat({g, c.point});
      const PrecompileResult r = evm_bn254_add(in);
      EXPECT_FALSE(r.ok) << "add " << c.what;
      EXPECT_NE(r.error.find(c.error_has), std::string::npos) << r.error;
      EXPECT_TRUE(r.output.empty());
    }
    const PrecompileResult m = evm_bn254_mul(concat({c.point, two}));
    EXPECT_FALSE(m.ok) << "mul " << c.what;
    EXPECT_NE(m.error.find(c.error_has), std::string::npos) << m.error;
  }
  // Sanity: the same shapes with valid points succeed.
  EXPECT_TRUE(evm_bn254_add(concat({g, g})).ok);
  EXPECT_EQ(evm_bn254_add(concat({g, g})).output, evm_bn254_mul(concat({g, two})).output);
  // Short input is zero-padded: a lone generator plus infinity is the generator.
  EXPECT_EQ(evm_bn254_add(g).output, g);
  EXPECT_EQ(evm_bn254_add(Bytes()).output, Bytes(64, 0));
  // Extra bytes are ignored.
  Bytes longer = concat({g, g, Bytes(40, 0xab)});
  EXPECT_EQ(evm_bn254_add(longer).output, evm_bn254_mul(concat({g, two})).output);
  // Scalars are not reduced: [r]G = infinity, [r + 1]G = G, [2^256 - 1]G is fine.
  EXPECT_EQ(evm_bn254_mul(concat({g, word(Fr::kModulus)})).output, Bytes(64, 0));
  EXPECT_EQ(evm_bn254_mul(concat({g, word(plus(Fr::kModulus, 1))})).output, g);
  EXPECT_TRUE(evm_bn254_mul(concat({g, Bytes(32, 0xff)})).ok);
}

TEST(PrecompileRejects, Pairing) {
  test::TestRng rng(51);
  const Bytes g1 = g1_bytes(G1Affine::generator());
  const G2Affine q = G2Affine::generator();
  const Bytes g2 = g2_bytes(q);
  const Bytes neg_g1 = g1_bytes(-G1Affine::generator());
  // e(G1, G2) e(-G1, G2) = 1
  const PrecompileResult good = evm_bn254_pairing(concat({g1, g2, neg_g1, g2}));
  ASSERT_TRUE(good.ok) << good.error;
  EXPECT_EQ(good.output.back(), 1);
  EXPECT_EQ(evm_bn254_pairing(concat({g1, g2})).output.back(), 0);
  EXPECT_EQ(evm_bn254_pairing(Bytes()).output.back(), 1);

  // Length not a multiple of 192.
  for (size_t n : {size_t(1), size_t(191), size_t(193), size_t(383)}) {
    Bytes in = concat({g1, g2, g1, g2});
    in.resize(n);
    const PrecompileResult r = evm_bn254_pairing(in);
    EXPECT_FALSE(r.ok) << n;
    EXPECT_NE(r.error.find("not a multiple of 192"), std::string::npos) << r.error;
  }

  // Each G2 coordinate at p (non-canonical), in the second pair.
  for (size_t k = 0; k < 4; ++k) {
    Bytes bad_g2 = g2;
    u256_to_be_bytes(Fp::kModulus, bad_g2.data() + 32 * k);
    const PrecompileResult r = evm_bn254_pairing(concat({g1, g2, g1, bad_g2}));
    EXPECT_FALSE(r.ok) << k;
    EXPECT_NE(r.error.find("pair 1: G2"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("not canonical"), std::string::npos) << r.error;
  }
  // G2 coordinates swapped into the wrong order (real part first): off the twist.
  {
    Bytes swapped = g2;
    std::swap_ranges(swapped.begin(), swapped.begin() + 32, swapped.begin() + 32);
    const PrecompileResult r = evm_bn254_pairing(concat({g1, swapped}));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("not on the twist"), std::string::npos) << r.error;
  }
  // G2 on the twist but outside the order-r subgroup.
  {
    G2Affine t;
    for (;;) {
      const Fp2 x = {rng.field<Fp>(), rng.field<Fp>()};
      auto y = (x.square() * x + G2Params::b()).sqrt();
      if (y) {
        t = {x, *y};
        break;
      }
    }
    ASSERT_TRUE(t.is_on_curve());
    const PrecompileResult r = evm_bn254_pairing(concat({g1, g2_bytes(t)}));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("not in the subgroup"), std::string::npos) << r.error;
    // Even when the G1 side is infinity (the pair would be skipped), the input is invalid.
    const PrecompileResult r0 = evm_bn254_pairing(concat({Bytes(64, 0), g2_bytes(t)}));
    EXPECT_FALSE(r0.ok);
  }
  // G1 off the curve or non-canonical.
  {
    const Bytes off = concat({word(U256::from_u64(1)), word(U256::from_u64(3))});
    EXPECT_FALSE(evm_bn254_pairing(concat({off, g2})).ok);
    const Bytes noncanon = concat({word(plus(Fp::kModulus, 1)), word(U256::from_u64(2))});
    const PrecompileResult r = evm_bn254_pairing(concat({noncanon, g2}));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("pair 0: G1 x coordinate is not canonical"), std::string::npos)
        << r.error;
  }
  // Infinity on either side is valid and contributes 1.
  EXPECT_EQ(evm_bn254_pairing(concat({Bytes(64, 0), g2})).output.back(), 1);
  EXPECT_EQ(evm_bn254_pairing(concat({g1, Bytes(128, 0)})).output.back(), 1);
}

}  // namespace
}  // namespace enygma
