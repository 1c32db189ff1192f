// Failure injection for key files: a key that is truncated, has any bit flipped, or belongs to
// another k (or is the other half of the pair) is refused with a message saying so.
// (An interrupted `enygma setup`: hardening_setup_kill_test.cpp.)
#include <gtest/gtest.h>
#include <sodium.h>

#include <cstring>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/setup.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/registry/circuit_prover.hpp"
#include "support/random_r1cs.hpp"
#include "support/test_rng.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

CircuitId transfer_k(unsigned k) {
  return *find_circuit("transfer", k);
}

// Development keys of a registered circuit, from a seed text.
Groth16Keys dev_keys(const CircuitId& id, const std::string& seed) {
  return groth16_setup_insecure_from_seed(
      circuit_r1cs(id), {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()},
      sequential_pool());
}

struct KeyFiles {
  std::vector<uint8_t> pk, vk;
};

// Keys of a small random circuit (development keys: insecure_dev is set), in both point formats.
struct SmallKeys {
  Groth16Keys keys;
  KeyFiles raw, compressed;
};

const SmallKeys& small_keys() {
  static const SmallKeys k = [] {
    test::TestRng rng(808);
    auto rc = test::random_circuit(rng, 2, 6, 8);
    const std::string seed = "hardening";
    SmallKeys s;
    s.keys = groth16_setup_insecure_from_seed(
        rc.r1cs, {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()}, sequential_pool());
    for (PointFormat f : {PointFormat::kRaw, PointFormat::kCompressed}) {
      KeyFiles& out = f == PointFormat::kRaw ? s.raw : s.compressed;
      out.pk = serialize_proving_key(s.keys.pk, "small", f);
      out.vk = serialize_verifying_key(s.keys.vk, "small", f);
    }
    return s;
  }();
  return k;
}

// The load error of a proving (or verifying) key file, "" when it loads.
std::string pk_error(const std::vector<uint8_t>& file, const std::string& name = "small") {
  auto r = load_proving_key(file, name, sequential_pool());
  if (r.ok()) return "";
  EXPECT_EQ(r.error().rule, "key");
  return r.error().message;
}
std::string vk_error(const std::vector<uint8_t>& file, const std::string& name = "small") {
  auto r = load_verifying_key(file, name);
  if (r.ok()) return "";
  EXPECT_EQ(r.error().rule, "key");
  return r.error().message;
}

TEST(HardeningKeys, IntactKeysLoad) {
  for (const KeyFiles* f : {&small_keys().raw, &small_keys().compressed}) {
    EXPECT_EQ(pk_error(f->pk), "");
    EXPECT_EQ(vk_error(f->vk), "");
  }
}

TEST(HardeningKeys, TruncatedKeysAreRefusedAsTruncated) {
  for (const KeyFiles* f : {&small_keys().raw, &small_keys().compressed}) {
    for (const std::vector<uint8_t>* file : {&f->pk, &f->vk}) {
      const bool proving = file == &f->pk;
      const size_t n = file->size();
      for (size_t len : {size_t(0), size_t(1), size_t(8), kKeyHeaderSize - 1, kKeyHeaderSize,
                         kKeyHeaderSize + 1, n / 2, n - 64, n - 1}) {
        std::vector<uint8_t> cut(file->begin(), file->begin() + len);
        const std::string msg = proving ? pk_error(cut) : vk_error(cut);
        EXPECT_NE(msg.find("truncated"), std::string::npos)
            << (proving ? "pk" : "vk") << " cut to " << len << " of " << n << ": " << msg;
      }
    }
  }
}

// Every single-bit change anywhere (header or body) is caught: the digest covers the header
// fields too, so neither a flipped flag nor a changed padding byte passes.
TEST(HardeningKeys, EveryFlippedBitIsRefused) {
  for (const KeyFiles* f : {&small_keys().raw, &small_keys().compressed}) {
    for (size_t i = 0; i < f->vk.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        auto bad = f->vk;
        bad[i] ^= uint8_t(1u << bit);
        ASSERT_NE(vk_error(bad, ""), "") << "vk byte " << i << " bit " << bit;
      }
    }
    for (size_t i = 0; i < f->pk.size(); ++i) {
      auto bad = f->pk;
      bad[i] ^= uint8_t(1u << (i % 8));
      ASSERT_NE(pk_error(bad, ""), "") << "pk byte " << i << " bit " << i % 8;
    }
  }
}

// A verifying key whose file is intact (its digest matches) but whose points are not: gamma
// off G2's order-r subgroup, or an IC point off the curve. Refused by name, unless the caller
// says it checked these very points before (check_points false, the browser's key cache).
TEST(HardeningKeys, VerifyingKeyPointsAreCheckedUnlessCheckedBefore) {
  G2Affine twist_point;  // on the twist, of another order than r
  for (uint64_t x = 1;; ++x) {
    Fp2 xx{Fp::from_u64(x), Fp::one()};
    auto y = (xx.square() * xx + G2Params::b()).sqrt();
    if (!y) continue;
    twist_point = G2Affine{xx, *y};
    break;
  }
  VerifyingKey off_subgroup = small_keys().keys.vk;
  off_subgroup.gamma2 = twist_point;
  VerifyingKey off_curve = small_keys().keys.vk;
  off_curve.ic[1].y += Fp::one();
  VerifyingKey alpha_off_curve = small_keys().keys.vk;
  alpha_off_curve.alpha1.y += Fp::one();
  VerifyingKey alpha_infinity = small_keys().keys.vk;
  alpha_infinity.alpha1 = G1Affine::infinity();
  // With gamma at infinity e(vk_x, gamma) = 1: the public inputs would no longer be bound.
  VerifyingKey beta_infinity = small_keys().keys.vk, gamma_infinity = beta_infinity,
               delta_infinity = beta_infinity;
  beta_infinity.beta2 = G2Affine::infinity();
  gamma_infinity.gamma2 = G2Affine::infinity();
  delta_infinity.delta2 = G2Affine::infinity();
  const std::pair<const VerifyingKey*, const char*> cases[] = {
      {&off_subgroup, "gamma is not a G2 point of order r"},
      {&off_curve, "IC[1] is not on the curve"},
      {&alpha_off_curve, "alpha is not a G1 point"},
      {&alpha_infinity, "alpha is not a G1 point"},
      {&beta_infinity, "beta is not a G2 point of order r"},
      {&gamma_infinity, "gamma is not a G2 point of order r"},
      {&delta_infinity, "delta is not a G2 point of order r"}};
  for (const auto& [vk, expected] : cases) {
    for (PointFormat format : {PointFormat::kRaw, PointFormat::kCompressed}) {
      if (format == PointFormat::kCompressed && (vk == &off_curve || vk == &alpha_off_curve)) {
        continue;  // not encodable
      }
      const auto file = serialize_verifying_key(*vk, "small", format);
      EXPECT_EQ(vk_error(file), std::string("verifying key: ") + expected);
      auto unchecked = load_verifying_key(file, "small", false);
      ASSERT_TRUE(unchecked.ok()) << unchecked.error().message;
      EXPECT_TRUE(unchecked->alpha1 == vk->alpha1 && unchecked->beta2 == vk->beta2 &&
                  unchecked->gamma2 == vk->gamma2 && unchecked->delta2 == vk->delta2 &&
                  unchecked->ic == vk->ic);
    }
  }
  // A snarkjs verification_key.json (import-zkey --check-vk): the same refusal, always.
  for (const auto& [vk, expected] : cases) {
    auto parsed = verifying_key_from_snarkjs_json(verifying_key_to_snarkjs_json(*vk));
    ASSERT_FALSE(parsed.ok()) << expected;
    EXPECT_EQ(parsed.error().message, std::string("verifying key: ") + expected);
  }
  // Through CircuitProver::load: the same refusal unless check_verifying_key_points is false.
  const CircuitId id = transfer_k(2);
  const Groth16Keys keys = dev_keys(id, "vk points");
  VerifyingKey bad = keys.vk;
  bad.delta2 = twist_point;
  const auto vk_file = serialize_verifying_key(bad, id.key_name());
  auto refused = CircuitProver::load(id, {}, vk_file, sequential_pool());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "verifying key: delta is not a G2 point of order r");
  CircuitLoadOptions checked_before;
  checked_before.check_verifying_key_points = false;
  checked_before.prepare_verifier = false;
  EXPECT_TRUE(CircuitProver::load(id, {}, vk_file, sequential_pool(), checked_before).ok());
}

// A snarkjs verification_key.json (import-zkey --check-vk) is read field by field: each of its
// checks refuses its fault by name.
TEST(HardeningKeys, SnarkjsVerificationKeyJsonFieldsAreChecked) {
  const std::string good = verifying_key_to_snarkjs_json(small_keys().keys.vk);
  ASSERT_TRUE(verifying_key_from_snarkjs_json(good).ok());
  using Json = nlohmann::ordered_json;
  const std::pair<std::function<void(Json&)>, std::string> cases[] = {
      {[](Json& j) { j["protocol"] = "plonk"; }, "protocol"},
      {[](Json& j) { j["curve"] = "bls12381"; }, "curve"},
      {[](Json& j) { j["IC"] = Json::array(); }, "IC"},
      {[](Json& j) { j["nPublic"] = j["nPublic"].get<uint64_t>() + 1; }, "nPublic"},
      {[](Json& j) { j["vk_alpha_1"][2] = "2"; }, "vk_alpha_1[2]"},
      {[](Json& j) {
         j["vk_delta_2"][2] = Json::array({"2", "0"});
       },
       "vk_delta_2[2]"},
  };
  for (const auto& [change, field] : cases) {
    Json doc = Json::parse(good);
    change(doc);
    auto r = verifying_key_from_snarkjs_json(doc.dump());
    EXPECT_FALSE(r.ok()) << field;
    if (!r.ok()) {
      EXPECT_EQ(r.error().field, field) << r.error().message;
    }
  }
}

// Every array of a proving key, for comparisons and for checking where its elements live.
template <class F>
void for_each_array(const ProvingKey& pk, F&& f) {
  f(pk.a.wires, "a.wires");
  f(pk.a.points, "a.points");
  f(pk.b1.wires, "b1.wires");
  f(pk.b1.points, "b1.points");
  f(pk.b2.wires, "b2.wires");
  f(pk.b2.points, "b2.points");
  f(pk.c.wires, "c.wires");
  f(pk.c.points, "c.points");
  f(pk.h, "h");
  if (pk.shape) {
    f(pk.shape->coefficients, "shape.coefficients");
    for (const ConstraintShape::Matrix* m : {&pk.shape->a, &pk.shape->b, &pk.shape->c}) {
      f(m->row_start, "shape.row_start");
      f(m->wire, "shape.wire");
      f(m->coeff, "shape.coeff");
    }
  }
}

// A raw proving key read in place (load_proving_key's file_owner): every array lies in the
// file's buffer, which the key keeps alive after the caller lets go of it, and the key is the
// one a copying load gives, on one thread and on two. At an odd address (not aligned for the
// arrays' elements) they are copied instead; a compressed key never holds on to its file.
TEST(HardeningKeys, RawProvingKeyReadInPlace) {
  ThreadPool two(2);
  const auto& file = small_keys().raw.pk;
  const auto copied = load_proving_key(file, "small", sequential_pool());
  ASSERT_TRUE(copied.ok()) << copied.error().message;
  for (ThreadPool* pool : {&sequential_pool(), &two}) {
    auto owned = std::make_shared<std::vector<uint8_t>>(file);
    const uint8_t* begin = owned->data();
    const uint8_t* end = begin + owned->size();
    auto in_place = load_proving_key(*owned, "small", *pool, owned);
    owned.reset();  // the key holds the buffer now
    ASSERT_TRUE(in_place.ok()) << in_place.error().message;
    size_t arrays = 0;
    for_each_array(*in_place, [&](const auto& array, const char* name) {
      if (array.empty()) return;
      ++arrays;
      EXPECT_TRUE(array.borrowed()) << name;
      const auto* p = reinterpret_cast<const uint8_t*>(array.data());
      EXPECT_TRUE(p >= begin && p < end) << name;
    });
    EXPECT_EQ(arrays, 19u);
    EXPECT_EQ(serialize_proving_key(*in_place, "small"), file);
    EXPECT_EQ(serialize_proving_key(*copied, "small"), file);
  }
  // Misaligned: the same key, copied.
  auto shifted = std::make_shared<std::vector<uint8_t>>(file.size() + 1);
  std::copy(file.begin(), file.end(), shifted->begin() + 1);
  auto moved = load_proving_key(std::span<const uint8_t>(*shifted).subspan(1), "small",
                                sequential_pool(), shifted);
  ASSERT_TRUE(moved.ok()) << moved.error().message;
  for_each_array(
      *moved, [&](const auto& array, const char* name) { EXPECT_FALSE(array.borrowed()) << name; });
  EXPECT_EQ(serialize_proving_key(*moved, "small"), file);
  // Compressed: decoded, nothing borrowed.
  auto compressed = std::make_shared<std::vector<uint8_t>>(small_keys().compressed.pk);
  auto decoded = load_proving_key(*compressed, "small", sequential_pool(), compressed);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  for_each_array(*decoded, [&](const auto& array, const char* name) {
    EXPECT_FALSE(array.borrowed()) << name;
  });
  EXPECT_EQ(compressed.use_count(), 1);
}

// Version 4's zero padding before the points (8-byte alignment) is part of the format: a file
// with any padding byte set, its digest made to match, is malformed.
// A key file whose header or body was changed, with its digest made again (the header's first
// 104 bytes and the body; the digest at 104..136).
std::vector<uint8_t> reseal(std::vector<uint8_t> f) {
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, 32);
  crypto_generichash_update(&state, f.data(), 104);
  crypto_generichash_update(&state, f.data() + kKeyHeaderSize, f.size() - kKeyHeaderSize);
  crypto_generichash_final(&state, f.data() + 104, 32);
  return f;
}

// Each check of a key's header and body, by itself: the digest (made again) no longer covers
// for it. The body's faults are written by the serializer from a changed key.
TEST(HardeningKeys, EachHeaderAndBodyCheckRefusesItsFault) {
  const auto& pk_file = small_keys().raw.pk;
  const auto& vk_file = small_keys().raw.vk;
  ASSERT_EQ(pk_error(reseal(pk_file)), "");
  auto curve = pk_file;
  std::memcpy(curve.data() + 16, "bn255", 5);
  EXPECT_EQ(pk_error(reseal(curve)), "key is for curve 'bn255', not bn254");
  for (const char* name : {"x\nuint256 constant PWN=1;/*", "a*/b", "k\"2", "transfer k2"}) {
    auto named = vk_file;  // the circuit name at 32..64, NUL-padded
    std::memset(named.data() + 32, 0, 32);
    std::memcpy(named.data() + 32, name, std::strlen(name));
    EXPECT_EQ(vk_error(reseal(named)),
              "the key's circuit name has a character other than a letter, a digit, '.', '_' or "
              "'-'")
        << name;
  }
  auto flags = pk_file;
  flags[13] |= 1;  // bit 8
  EXPECT_EQ(pk_error(reseal(flags)), "unknown key flags");
  auto vk_shape = vk_file;
  vk_shape[12] |= 4;
  EXPECT_EQ(vk_error(reseal(vk_shape)), "a verifying key with a shape flag");
  auto trailing = pk_file;  // 8 bytes more in the body, its length in the header following
  trailing.resize(trailing.size() + 8, 0);
  uint64_t body_length = 0;
  std::memcpy(&body_length, trailing.data() + 96, 8);
  body_length += 8;
  std::memcpy(trailing.data() + 96, &body_length, 8);
  EXPECT_EQ(pk_error(reseal(trailing)), "proving key body is malformed");

  const ProvingKey& good = small_keys().keys.pk;
  ASSERT_TRUE(good.shape);
  auto body_error = [](const ProvingKey& pk) {
    return pk_error(serialize_proving_key(pk, "small", PointFormat::kRaw));
  };
  ASSERT_EQ(body_error(good), "");
  {  // a query's wire beyond the witness
    ProvingKey pk = good;
    std::vector<uint32_t> wires(pk.c.wires.begin(), pk.c.wires.end());
    wires.back() = pk.num_wires;
    pk.c.wires = wires;
    EXPECT_EQ(body_error(pk), "proving key body is malformed");
  }
  {  // H with a point fewer than the domain
    ProvingKey pk = good;
    pk.h = std::vector<G1Affine>(pk.h.begin(), pk.h.end() - 1);
    EXPECT_EQ(body_error(pk), "proving key body is malformed");
  }
  {  // a domain too small for the shape's rows (and H to its size)
    ProvingKey pk = good;
    ASSERT_GE(pk.domain_size, 4u);
    pk.domain_size = 2;
    pk.h = std::vector<G1Affine>(pk.h.begin(), pk.h.begin() + 2);
    ASSERT_GT(pk.shape->num_constraints() + pk.num_public + 1, 2u);
    EXPECT_EQ(body_error(pk), "proving key body is malformed");
  }
  {  // a domain of no valid size
    ProvingKey pk = good;
    pk.domain_size = 5 * 1024;
    pk.h = std::vector<G1Affine>(pk.domain_size, pk.h[0]);
    EXPECT_EQ(body_error(pk), "proving key body is malformed");
  }
  {  // as many public inputs as wires
    ProvingKey pk = good;
    pk.num_public = pk.num_wires;
    EXPECT_EQ(body_error(pk), "proving key body is malformed");
  }
  {  // a coordinate's limbs not below p
    ProvingKey pk = good;
    std::vector<G1Affine> a(pk.a.points.begin(), pk.a.points.end());
    a[0].x = Fp::from_montgomery(Fp::kModulus);
    pk.a.points = a;
    EXPECT_EQ(body_error(pk), "proving key body is malformed (a coordinate is not below p)");
  }
}

TEST(HardeningKeys, NonZeroAlignmentPaddingIsRefused) {
  const auto& file = small_keys().raw.pk;
  ASSERT_EQ(pk_error(reseal(file)), "");
  // The padding's places: after the body's three u32, after each query's wires when the count's
  // u32 and the wires end 4 bytes past a multiple of 8, and after H's count.
  const ProvingKey& pk = small_keys().keys.pk;
  std::vector<size_t> padding;  // body offsets of 4-byte paddings
  size_t pos = 12;
  padding.push_back(pos);
  pos += 4 + 3 * sizeof(G1Affine) + 2 * sizeof(G2Affine);
  const std::pair<size_t, size_t> queries[] = {{pk.a.size(), sizeof(G1Affine)},
                                               {pk.b1.size(), sizeof(G1Affine)},
                                               {pk.b2.size(), sizeof(G2Affine)},
                                               {pk.c.size(), sizeof(G1Affine)}};
  for (const auto& [count, point_size] : queries) {
    pos += 4 + 4 * count;
    if (pos % 8) {
      padding.push_back(pos);
      pos += 4;
    }
    pos += count * point_size;
  }
  pos += 4;
  ASSERT_NE(pos % 8, 0u);
  padding.push_back(pos);
  ASSERT_GE(padding.size(), 2u);
  for (size_t at : padding) {
    for (size_t i = 0; i < 4; ++i) {
      ASSERT_EQ(file[kKeyHeaderSize + at + i], 0) << "body offset " << at + i;
      auto bad = file;
      bad[kKeyHeaderSize + at + i] = uint8_t(1u << i);
      EXPECT_EQ(pk_error(reseal(bad)), "proving key body is malformed") << "body offset " << at + i;
    }
  }
}

// With two threads a raw proving key's digest is computed beside its parse: the same answers,
// and a body flipped anywhere (the shape at the end included) is still "corrupt".
TEST(HardeningKeys, DigestBesideTheParseOnTwoThreads) {
  ThreadPool two(2);
  const auto& pk = small_keys().raw.pk;
  auto loaded = load_proving_key(pk, "small", two);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->h, small_keys().keys.pk.h);
  ASSERT_TRUE(loaded->shape);
  EXPECT_TRUE(*loaded->shape == *small_keys().keys.pk.shape);
  for (size_t i = kKeyHeaderSize; i < pk.size(); i += 97) {
    auto bad = pk;
    bad[i] ^= 0x10;
    auto r = load_proving_key(bad, "small", two);
    ASSERT_FALSE(r.ok()) << "byte " << i;
    EXPECT_NE(r.error().message.find("corrupt"), std::string::npos) << r.error().message;
  }
  auto last = pk;
  last.back() ^= 1;
  auto r = load_proving_key(last, "small", two);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("corrupt"), std::string::npos) << r.error().message;
}

TEST(HardeningKeys, ClearingTheDevelopmentFlagIsDetected) {
  auto pk = small_keys().raw.pk;
  ASSERT_TRUE(read_key_header(pk)->insecure_dev);
  pk[12] &= uint8_t(~1u);  // flags, bit 0: insecure development key
  EXPECT_NE(pk_error(pk).find("corrupt"), std::string::npos) << pk_error(pk);
}

TEST(HardeningKeys, KeysOfAnotherCircuitOrKAreRefusedByName) {
  const auto& keys = small_keys().keys;
  // Files claiming to be the k = 2 transfer keys (they are a random circuit's).
  const auto pk2 = serialize_proving_key(keys.pk, transfer_k(2).key_name());
  const auto vk2 = serialize_verifying_key(keys.vk, transfer_k(2).key_name());
  for (unsigned k : {3u, 6u, 16u}) {
    auto r = CircuitProver::load(transfer_k(k), pk2, vk2, sequential_pool());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().rule, "key");
    EXPECT_NE(r.error().message.find("is for circuit 'enygma-transfer-k2', expected "
                                     "'enygma-transfer-k" +
                                     std::to_string(k) + "'"),
              std::string::npos)
        << r.error().message;
  }
  // The right name, another circuit: the circuit digest differs.
  auto r = CircuitProver::load(transfer_k(2), pk2, vk2, sequential_pool());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("circuit digest differs"), std::string::npos)
      << r.error().message;
  // The pair swapped.
  r = CircuitProver::load(transfer_k(2), vk2, pk2, sequential_pool());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("expected a verifying key, found a proving key"),
            std::string::npos)
      << r.error().message;
  // Absurd k never makes a circuit, so never reaches the files.
  for (unsigned k : {0u, 1u, 17u, 4294967295u}) {
    auto bad = find_circuit("transfer", k);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().field, "k") << bad.error().message;
  }
  // Another family's keys under a transfer circuit's name are refused by name as well.
  for (const CircuitFamily* f : circuit_families()) {
    const CircuitId other = *find_circuit(f->name, f->has_k() ? 2 : 0);
    if (other == transfer_k(2)) continue;
    auto r2 = CircuitProver::load(other, pk2, vk2, sequential_pool());
    ASSERT_FALSE(r2.ok());
    EXPECT_NE(r2.error().message.find("expected '" + other.key_name() + "'"), std::string::npos)
        << r2.error().message;
  }
}

// A compressed key carries no constraint shape; its raw export (the browser's key cache) gets
// the one derived from the circuit: the same file as the setup's raw key, which then loads
// unchecked without building the circuit and proves the same.
// A proving key and a verifying key of one circuit but of two setups load as a pair no longer:
// the proofs made would fail against that verifying key. Checked with and without the circuit
// check; an empty proving key is a truncated one, not a verify-only instance.
// Development keys of the k = 2 transfer circuit, made once for the tests below.
const Groth16Keys& transfer_k2_keys() {
  static const Groth16Keys keys = dev_keys(transfer_k(2), "pair");
  return keys;
}

TEST(HardeningKeys, KeysOfTwoSetupsAreRefusedAsAPair) {
  const CircuitId id = transfer_k(2);
  const Groth16Keys& keys = transfer_k2_keys();
  const auto pk = serialize_proving_key(keys.pk, id.key_name());
  CircuitLoadOptions unchecked;
  unchecked.check_circuit_digest = false;
  unchecked.prepare_verifier = false;
  for (int point = 0; point < 3; ++point) {
    VerifyingKey other = keys.vk;
    if (point == 0) other.alpha1 = other.alpha1.to_jacobian().dbl().to_affine();
    if (point == 1) other.beta2 = other.beta2.to_jacobian().dbl().to_affine();
    if (point == 2) other.delta2 = other.delta2.to_jacobian().dbl().to_affine();
    const auto vk = serialize_verifying_key(other, id.key_name());
    for (const CircuitLoadOptions& options : {CircuitLoadOptions{}, unchecked}) {
      auto r = CircuitProver::load(id, pk, vk, sequential_pool(), options);
      ASSERT_FALSE(r.ok()) << point;
      EXPECT_EQ(r.error().rule, "key");
      EXPECT_EQ(r.error().field, "proving_key");
      EXPECT_NE(r.error().message.find("different setups"), std::string::npos) << r.error().message;
    }
    // Verify-only, the verifying key alone is whatever setup it is.
    EXPECT_TRUE(CircuitProver::load(id, std::nullopt, vk, sequential_pool()).ok());
  }
  const auto vk = serialize_verifying_key(keys.vk, id.key_name());
  EXPECT_TRUE(CircuitProver::load(id, pk, vk, sequential_pool()).ok());
  auto empty = CircuitProver::load(id, std::span<const uint8_t>(), vk, sequential_pool());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().field, "proving_key");
  EXPECT_NE(empty.error().message.find("truncated"), std::string::npos) << empty.error().message;
  // A verifying key error names the verifying key.
  auto swapped = CircuitProver::load(id, pk, pk, sequential_pool());
  ASSERT_FALSE(swapped.ok());
  EXPECT_EQ(swapped.error().field, "verifying_key");
}

// A response whose public_signal is not as long as the circuit's public inputs (another
// circuit's, cut short, extended) is malformed, named by its field: not a proof that fails.
TEST(HardeningKeys, AResponseOfAnotherLengthIsMalformed) {
  const CircuitId id = transfer_k(2);
  const Groth16Keys& keys = transfer_k2_keys();
  auto prover =
      CircuitProver::load(id, serialize_proving_key(keys.pk, id.key_name()),
                          serialize_verifying_key(keys.vk, id.key_name()), sequential_pool());
  ASSERT_TRUE(prover.ok()) << prover.error().message;
  auto proof = (*prover)->prove_request(test::read_vector("transfer-k2.json"), sequential_pool());
  ASSERT_TRUE(proof.ok()) << proof.error().message;
  EXPECT_TRUE((*prover)->verify_response(proof->response_json, kRequestBody).ok());
  auto response = nlohmann::json::parse(proof->response_json);
  auto tampered = response;
  tampered["public_signal"][0] = "1";
  EXPECT_EQ((*prover)->verify_response(tampered.dump(), kRequestBody).error().rule, "invalid");
  for (size_t length : {size_t(0), size_t(17), size_t(19), size_t(50)}) {
    auto other = response;
    auto& signal = other["public_signal"];
    while (signal.size() > length) signal.erase(signal.size() - 1);
    while (signal.size() < length) signal.push_back("1");
    const Status st = (*prover)->verify_response(other.dump(), kRequestBody);
    ASSERT_FALSE(st.ok()) << length;
    EXPECT_EQ(st.error().rule, "proof") << length;
    EXPECT_EQ(st.error().field, "public_signal") << length;
    EXPECT_NE(st.error().message.find("has " + std::to_string(length) +
                                      " values; the transfer-k2 circuit has 18 public inputs"),
              std::string::npos)
        << st.error().message;
  }
}

TEST(HardeningKeys, RawExportOfACompressedKeyCarriesTheShape) {
  const CircuitId id = transfer_k(2);
  const Groth16Keys keys = dev_keys(id, "raw export");
  const auto raw = serialize_proving_key(keys.pk, id.key_name());
  const auto vk = serialize_verifying_key(keys.vk, id.key_name());
  // Checked against the circuit: each step reported once, in order (the page's decodeSteps).
  CircuitLoadOptions checked;
  std::vector<std::string> checked_steps;
  checked.on_step = [&](const char* step) { checked_steps.emplace_back(step); };
  auto compressed = CircuitProver::load(
      id, serialize_proving_key(keys.pk, id.key_name(), PointFormat::kCompressed), vk,
      sequential_pool(), checked);
  ASSERT_TRUE(compressed.ok()) << compressed.error().message;
  EXPECT_EQ(checked_steps,
            (std::vector<std::string>{"verifying_key", "r1cs", "proving_key", "verifier"}));
  ASSERT_FALSE((*compressed)->proving_key().shape);
  const auto exported = (*compressed)->raw_proving_key_file();
  EXPECT_EQ(exported, raw);

  CircuitLoadOptions unchecked;
  unchecked.check_circuit_digest = false;
  std::vector<std::string> steps;
  unchecked.on_step = [&](const char* step) { steps.emplace_back(step); };
  auto reloaded = CircuitProver::load(id, exported, vk, sequential_pool(), unchecked);
  ASSERT_TRUE(reloaded.ok()) << reloaded.error().message;
  EXPECT_EQ(steps, (std::vector<std::string>{"verifying_key", "proving_key", "verifier"}));
  ASSERT_TRUE((*reloaded)->proving_key().shape);
  EXPECT_EQ((*reloaded)->raw_proving_key_file(), raw);

  ProveOptions options;
  const uint8_t test_seed[] = {5};
  options.insecure_test_seed = test_seed;
  const std::string request = test::read_vector("transfer-k2.json");
  auto a = (*compressed)->prove_request(request, sequential_pool(), options);
  auto b = (*reloaded)->prove_request(request, sequential_pool(), options);
  ASSERT_TRUE(a.ok() && b.ok()) << (a.ok() ? b.error().message : a.error().message);
  EXPECT_EQ(a->response_json, b->response_json);
}

// A one-shot prover loads with check_circuit_digest = false: a key with its constraint shape
// needs no R1CS. The proof is the same; a stale key pair (another version of the circuit:
// another digest and other constraints) is then named by the first proof, and a key whose shape
// does not match its own digest as well.
TEST(HardeningKeys, UncheckedLoadProvesTheSameAndNamesStaleKeysAtTheFirstProof) {
  const CircuitId id = transfer_k(2);
  const Groth16Keys keys = dev_keys(id, "unchecked");
  ASSERT_TRUE(keys.pk.shape);
  const std::string request = test::read_vector("transfer-k2.json");
  ProveOptions options;
  const uint8_t test_seed[] = {7, 7, 7};
  options.insecure_test_seed = test_seed;
  CircuitLoadOptions unchecked;
  unchecked.check_circuit_digest = false;
  unchecked.prepare_verifier = false;

  auto pk = serialize_proving_key(keys.pk, id.key_name());
  auto vk = serialize_verifying_key(keys.vk, id.key_name());
  auto checked_prover = CircuitProver::load(id, pk, vk, sequential_pool());
  auto unchecked_prover = CircuitProver::load(id, pk, vk, sequential_pool(), unchecked);
  ASSERT_TRUE(checked_prover.ok() && unchecked_prover.ok());
  auto a = (*checked_prover)->prove_request(request, sequential_pool(), options);
  auto b = (*unchecked_prover)->prove_request(request, sequential_pool(), options);
  ASSERT_TRUE(a.ok() && b.ok()) << (a.ok() ? b.error().message : a.error().message);
  EXPECT_EQ(a->response_json, b->response_json);
  EXPECT_TRUE((*unchecked_prover)->verify(b->proof, b->public_inputs).ok());

  // Stale: both keys say another digest, and a constraint differs.
  ProvingKey stale_pk = keys.pk;
  VerifyingKey stale_vk = keys.vk;
  stale_pk.circuit_digest[0] ^= 1;
  stale_vk.circuit_digest[0] ^= 1;
  auto shape = std::make_shared<ConstraintShape>(*keys.pk.shape);
  shape->c = shape->a;  // a * b = a fails wherever neither a = 0 nor b = 1
  stale_pk.shape = shape;
  pk = serialize_proving_key(stale_pk, id.key_name());
  vk = serialize_verifying_key(stale_vk, id.key_name());
  auto r = CircuitProver::load(id, pk, vk, sequential_pool());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("circuit digest differs"), std::string::npos);
  r = CircuitProver::load(id, pk, vk, sequential_pool(), unchecked);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto proof = (*r)->prove_request(request, sequential_pool(), options);
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.error().rule, "key");
  EXPECT_NE(proof.error().message.find("circuit digest differs"), std::string::npos)
      << proof.error().message;
  EXPECT_EQ(proof.error().field, "proving_key");

  // The right digest over another shape.
  stale_pk.circuit_digest = keys.pk.circuit_digest;
  pk = serialize_proving_key(stale_pk, id.key_name());
  vk = serialize_verifying_key(keys.vk, id.key_name());
  r = CircuitProver::load(id, pk, vk, sequential_pool(), unchecked);
  ASSERT_TRUE(r.ok()) << r.error().message;
  proof = (*r)->prove_request(request, sequential_pool(), options);
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.error().rule, "key");
  EXPECT_NE(proof.error().message.find("does not match its circuit digest"), std::string::npos)
      << proof.error().message;
  EXPECT_EQ(proof.error().field, "proving_key");  // the CLI names its file (Cli test)

  // Keys that disagree with each other are refused even unchecked.
  vk = serialize_verifying_key(stale_vk, id.key_name());
  r = CircuitProver::load(id, pk, vk, sequential_pool(), unchecked);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "key");
}

// A stale key whose circuit has another number of wires (what a changed circuit usually has):
// named as a stale key by the first proof, as one of the same size is, not as a request whose
// witness has the wrong size (rule "input": a refused request, exit 2 in the CLI).
TEST(HardeningKeys, UncheckedLoadNamesAStaleKeyOfAnotherWireCount) {
  const CircuitId id = transfer_k(2);
  const Groth16Keys other = dev_keys(transfer_k(3), "stale wires");  // 3: more wires than 2
  CircuitLoadOptions unchecked;
  unchecked.check_circuit_digest = false;
  unchecked.prepare_verifier = false;
  auto r = CircuitProver::load(id, serialize_proving_key(other.pk, id.key_name()),
                               serialize_verifying_key(other.vk, id.key_name()), sequential_pool(),
                               unchecked);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_NE(other.pk.num_wires, circuit_r1cs(id).num_wires);
  auto proof = (*r)->prove_request(test::read_vector("transfer-k2.json"), sequential_pool());
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.error().rule, "key") << proof.error().message;
  EXPECT_EQ(proof.error().field, "proving_key");
  EXPECT_EQ(proof.error().message,
            "the proving key was made for another version of the transfer-k2 circuit (circuit "
            "digest differs); regenerate it");
}

// On a pool of two threads or more, prove_request checks the rules beside the witness's
// computation: the same proof as on one thread, and for a request that breaks a rule (the first
// of several), has another shape or does not parse, the error family.witness gives.
TEST(HardeningKeys, ProveRequestOnTwoThreadsAnswersAsOnOne) {
  const CircuitId id = transfer_k(2);
  const Groth16Keys keys = dev_keys(id, "two threads");
  auto prover =
      CircuitProver::load(id, serialize_proving_key(keys.pk, id.key_name()),
                          serialize_verifying_key(keys.vk, id.key_name()), sequential_pool());
  ASSERT_TRUE(prover.ok()) << prover.error().message;
  ThreadPool two(2);
  ProveOptions options;
  const uint8_t test_seed[] = {2, 2};
  options.insecure_test_seed = test_seed;
  const std::string good = test::read_vector("transfer-k2.json");
  auto one_thread = (*prover)->prove_request(good, sequential_pool(), options);
  auto two_threads = (*prover)->prove_request(good, two, options);
  ASSERT_TRUE(one_thread.ok() && two_threads.ok())
      << (one_thread.ok() ? two_threads.error().message : one_thread.error().message);
  EXPECT_EQ(one_thread->response_json, two_threads->response_json);

  // Several rules broken at once (a balance and an amount changed): the first is named.
  std::string two_rules = good;
  for (const char* field : {"\"previous_sender_balance\": \"", "\"tx_values\": [\n    \""}) {
    const size_t at = two_rules.find(field);
    ASSERT_NE(at, std::string::npos) << field;
    two_rules.insert(at + std::string(field).size(), "1");
  }
  const std::vector<std::string> bad = {test::read_vector("transfer-k2-bad.json"), two_rules,
                                        test::read_vector("transfer-k6.json"), "{", "[]"};
  for (const std::string& request : bad) {
    auto expected = id.family->witness(request, 2);
    ASSERT_FALSE(expected.ok()) << request.substr(0, 80);
    for (ThreadPool* pool : {&sequential_pool(), &two}) {
      auto r = (*prover)->prove_request(request, *pool, options);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().rule, expected.error().rule);
      EXPECT_EQ(r.error().field, expected.error().field);
      EXPECT_EQ(r.error().message, expected.error().message);
    }
  }
  EXPECT_GE(id.family->validate_all(two_rules, 2).size(), 2u);
}

}  // namespace
}  // namespace enygma
