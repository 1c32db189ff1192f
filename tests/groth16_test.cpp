// Groth16 end to end on random R1CS instances: setup, prove, verify, and everything that must
// make verification fail; key and proof formats.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"
#include "support/random_r1cs.hpp"
#include "support/threads.hpp"

namespace enygma {
namespace {

using test::RandomCircuit;
using test::TestRng;

std::vector<Fr> public_part(const RandomCircuit& rc) {
  return {rc.witness.begin() + 1, rc.witness.begin() + 1 + rc.r1cs.num_public};
}

const uint8_t kSeed[] = {1, 2, 3, 4};
const uint8_t kOtherSeed[] = {9, 9};

struct Groth16Fixture {
  RandomCircuit rc;
  Groth16Keys keys;
  PreparedVerifyingKey pvk;
};

// The verifier on one thread and split over two: the same answer and reason every time.
Status verify_both(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> pub) {
  static ThreadPool two(2);
  Status one = groth16_verify(pvk, proof, pub);
  Status split = groth16_verify(pvk, proof, pub, two);
  EXPECT_EQ(one.ok(), split.ok());
  if (!one.ok() && !split.ok()) {
    EXPECT_EQ(one.error().message, split.error().message);
    EXPECT_EQ(one.error().rule, split.error().rule);
  }
  return one;
}

Groth16Fixture make_fixture(uint64_t rng_seed, uint32_t npub, uint32_t npriv, size_t m) {
  TestRng rng(rng_seed);
  Groth16Fixture f{test::random_circuit(rng, npub, npriv, m), {}, {}};
  f.keys = groth16_setup_insecure_from_seed(f.rc.r1cs, kSeed, sequential_pool());
  f.pvk = prepare_verifying_key(f.keys.vk);
  return f;
}

TEST(Groth16, RandomCircuitsProveAndVerify) {
  struct Shape {
    uint32_t npub, npriv;
    size_t m;
  };
  ThreadPool pool(2);
  int i = 0;
  for (Shape s : {Shape{0, 3, 4}, Shape{1, 5, 10}, Shape{3, 20, 60}, Shape{10, 50, 200},
                  Shape{2, 300, 700}}) {
    auto f = make_fixture(100 + i++, s.npub, s.npriv, s.m);
    ASSERT_FALSE(f.rc.r1cs.first_unsatisfied(f.rc.witness).has_value());
    auto proof = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, pool);
    ASSERT_TRUE(proof.ok()) << proof.error().message;
    auto pub = public_part(f.rc);
    EXPECT_TRUE(verify_both(f.pvk, *proof, pub).ok()) << "shape " << s.npub << "/" << s.m;
    if (!pub.empty()) {
      pub[0] += Fr::one();
      auto st = verify_both(f.pvk, *proof, pub);
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.error().rule, "invalid");
    }
  }
}

TEST(Groth16, TamperedProofsAndForeignKeysFail) {
  auto f = make_fixture(7, 4, 40, 120);
  auto proof = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool());
  ASSERT_TRUE(proof.ok());
  auto pub = public_part(f.rc);
  ASSERT_TRUE(verify_both(f.pvk, *proof, pub).ok());

  Proof p = *proof;
  p.a = (p.a.to_jacobian() + G1::generator()).to_affine();
  EXPECT_FALSE(verify_both(f.pvk, p, pub).ok());
  p = *proof;
  p.b = p.b.to_jacobian().dbl().to_affine();
  EXPECT_FALSE(verify_both(f.pvk, p, pub).ok());
  p = *proof;
  p.c = -p.c;
  EXPECT_FALSE(verify_both(f.pvk, p, pub).ok());
  p = *proof;
  std::swap(p.a, p.c);
  EXPECT_FALSE(verify_both(f.pvk, p, pub).ok());

  // points off their curves are refused by name, before any pairing
  const std::pair<std::function<void(Proof&)>, std::string> off_curve[] = {
      {[](Proof& q) { q.a.y += Fp::one(); }, "pi_a"},
      {[](Proof& q) { q.c.y += Fp::one(); }, "pi_c"},
      {[](Proof& q) { q.b.y += Fp2::one(); }, "pi_b"}};
  for (const auto& [change, field] : off_curve) {
    p = *proof;
    change(p);
    auto refused = verify_both(f.pvk, p, pub);
    ASSERT_FALSE(refused.ok()) << field;
    EXPECT_EQ(refused.error().message.rfind(field + " is not a point of", 0), 0u)
        << refused.error().message;
  }

  // wrong number of public inputs
  auto fewer = pub;
  fewer.pop_back();
  auto st = verify_both(f.pvk, *proof, fewer);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("public inputs"), std::string::npos);

  // a B not in the G2 subgroup (a point on the twist of the wrong order) is rejected by name
  p = *proof;
  for (uint64_t x = 1;; ++x) {
    Fp2 xx{Fp::from_u64(x), Fp::one()};
    auto y = (xx.square() * xx + G2Params::b()).sqrt();
    if (!y) continue;
    p.b = G2Affine{xx, *y};
    break;
  }
  st = verify_both(f.pvk, p, pub);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "pi_b is not in the order-r subgroup of G2");
  // nor is the proof's own B plus a point of the cofactor's part ([r] of a twist point)
  p.b = (proof->b.to_jacobian() + p.b.to_jacobian().mul_vartime(Fr::kModulus)).to_affine();
  ASSERT_TRUE(p.b.is_on_curve());
  st = verify_both(f.pvk, p, pub);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "pi_b is not in the order-r subgroup of G2");

  // the same circuit with other toxic waste: a different key, the proof does not verify
  auto other = groth16_setup_insecure_from_seed(f.rc.r1cs, kOtherSeed, sequential_pool());
  EXPECT_FALSE(verify_both(prepare_verifying_key(other.vk), *proof, pub).ok());
}

// The prover's own checks (the key loaders check the same of a file; these guard a key or
// witness built in memory): a witness whose constant wire is not 1, and a key whose domain has
// fewer rows than the circuit (the quotient would write past its end) or whose wires differ.
TEST(Groth16, TheProverRefusesAKeyOrWitnessThatDoesNotFit) {
  auto f = make_fixture(9, 2, 20, 60);
  auto witness = f.rc.witness;
  witness[0] = Fr::from_u64(2);
  auto refused = groth16_prove(f.keys.pk, f.rc.r1cs, witness, sequential_pool());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "witness[0] must be 1 (the constant wire)");
  EXPECT_EQ(refused.error().rule, "witness");

  ProvingKey small = f.keys.pk;
  ASSERT_GT(small.domain_size, 32u);  // at least 60 rows + 2 public inputs + 1
  small.domain_size = 32;
  small.h = std::vector<G1Affine>(f.keys.pk.h.begin(), f.keys.pk.h.begin() + 32);
  ProvingKey fewer_wires = f.keys.pk;
  fewer_wires.num_wires -= 1;
  ProvingKey short_h = f.keys.pk;  // the H MSM would read past its points
  short_h.h = std::vector<G1Affine>(f.keys.pk.h.begin(), f.keys.pk.h.end() - 1);
  ProvingKey short_a = f.keys.pk;  // fewer points than wires
  short_a.a.points =
      std::vector<G1Affine>(f.keys.pk.a.points.begin(), f.keys.pk.a.points.end() - 1);
  for (const ProvingKey* pk : {&small, &fewer_wires, &short_h, &short_a}) {
    refused = groth16_prove(*pk, f.rc.r1cs, f.rc.witness, sequential_pool());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "the proving key does not belong to this circuit");
  }
}

// A test seed is a BLAKE2b key: up to 64 bytes, each length its own proofs; a longer one is
// refused (BLAKE2b would refuse it, leaving r and s undrawn: the same proof for every such seed).
TEST(Groth16, TestSeedsUpTo64BytesALongerOneIsRefused) {
  auto f = make_fixture(8, 2, 10, 30);
  std::vector<uint8_t> seed(64, 1);
  ProveOptions opt;
  opt.insecure_test_seed = seed;
  auto p64 = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt);
  ASSERT_TRUE(p64.ok()) << p64.error().message;
  seed[63] = 2;
  auto other = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt);
  ASSERT_TRUE(other.ok());
  EXPECT_NE(proof_to_bytes(*p64), proof_to_bytes(*other));
  EXPECT_TRUE(verify_both(f.pvk, *p64, public_part(f.rc)).ok());
  seed.push_back(1);  // 65 bytes
  opt.insecure_test_seed = seed;
  auto refused = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rule, "input");
  EXPECT_EQ(refused.error().field, "test_seed");
}

// B1 and B2 name the same wires (one scalar vector for both MSMs): a key whose B2 query is
// shorter, empty or of other wires is refused when read and by the prover (which read past B2's
// points: out of bounds), never a proof.
TEST(Groth16, AKeyWhoseB2QueryIsNotB1sIsRefused) {
  auto f = make_fixture(8, 2, 10, 30);
  ASSERT_GE(f.keys.pk.b1.size(), 2u);
  const std::function<void(ProvingKey&)> damages[] = {
      [](ProvingKey& k) {
        k.b2.wires.edit([](auto& v) { v.pop_back(); });
        k.b2.points.edit([](auto& v) { v.pop_back(); });
      },
      [](ProvingKey& k) {
        k.b2.wires = std::vector<uint32_t>{};
        k.b2.points = std::vector<G2Affine>{};
      },
      [](ProvingKey& k) { k.b2.wires.edit([](auto& v) { std::swap(v[0], v[1]); }); }};
  for (size_t d = 0; d < std::size(damages); ++d) {
    ProvingKey k = f.keys.pk;
    damages[d](k);
    for (PointFormat format : {PointFormat::kRaw, PointFormat::kCompressed}) {
      auto loaded =
          load_proving_key(serialize_proving_key(k, "b2", format), "b2", sequential_pool());
      ASSERT_FALSE(loaded.ok()) << d;
      EXPECT_NE(loaded.error().message.find("malformed"), std::string::npos)
          << loaded.error().message;
    }
    if (k.b2.size() != k.b1.size()) {
      auto proof = groth16_prove(k, f.rc.r1cs, f.rc.witness, sequential_pool());
      ASSERT_FALSE(proof.ok()) << d;
      EXPECT_EQ(proof.error().message, "the proving key does not belong to this circuit");
    }
  }
}

TEST(Groth16, UnsatisfiedWitnessIsAnErrorNotAProof) {
  auto f = make_fixture(8, 2, 10, 30);
  auto w = f.rc.witness;
  w[5] += Fr::one();
  auto proof = groth16_prove(f.keys.pk, f.rc.r1cs, w, sequential_pool());
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.error().rule, "witness");
  EXPECT_NE(proof.error().message.find("constraint"), std::string::npos);
  w.pop_back();
  EXPECT_FALSE(groth16_prove(f.keys.pk, f.rc.r1cs, w, sequential_pool()).ok());
}

TEST(Groth16, SeededProofsAreReproducibleAndThreadIndependent) {
  auto f = make_fixture(9, 3, 100, 300);
  ProveOptions opt;
  opt.insecure_test_seed = kSeed;
  ThreadPool pool2(2);
  auto p1 = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt);
  auto p2 = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, pool2, opt);
  ASSERT_TRUE(p1.ok() && p2.ok());
  EXPECT_EQ(proof_to_bytes(*p1), proof_to_bytes(*p2));
  // More threads than the proof has items for at times: the idle ones wait, none is left behind.
  ThreadPool many(test::kManyThreads);
  for (int i = 0; i < 3; ++i) {
    auto pm = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, many, opt);
    ASSERT_TRUE(pm.ok());
    EXPECT_EQ(proof_to_bytes(*p1), proof_to_bytes(*pm));
  }
  opt.insecure_test_seed = kOtherSeed;
  auto p3 = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt);
  ASSERT_TRUE(p3.ok());
  EXPECT_NE(proof_to_bytes(*p1), proof_to_bytes(*p3));
  // unseeded proofs are randomised
  auto r1 = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool());
  auto r2 = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool());
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_NE(proof_to_bytes(*r1), proof_to_bytes(*r2));
  auto pub = public_part(f.rc);
  for (const auto* p : {&*p1, &*p3, &*r1, &*r2}) EXPECT_TRUE(verify_both(f.pvk, *p, pub).ok());
}

TEST(Groth16, SecureSetupProvesAndVerifies) {
  TestRng rng(10);
  auto rc = test::random_circuit(rng, 2, 20, 50);
  auto keys = groth16_setup(rc.r1cs, sequential_pool());
  EXPECT_FALSE(keys.pk.insecure_dev);
  auto proof = groth16_prove(keys.pk, rc.r1cs, rc.witness, sequential_pool());
  ASSERT_TRUE(proof.ok());
  EXPECT_TRUE(verify_both(prepare_verifying_key(keys.vk), *proof, public_part(rc)).ok());
}

TEST(Groth16, StagesAreReportedAndCancelStops) {
  auto f = make_fixture(11, 1, 20, 40);
  std::vector<ProveStage> seen;
  ProveOptions opt;
  opt.on_stage = [&](ProveStage s) { seen.push_back(s); };
  ASSERT_TRUE(groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt).ok());
  ASSERT_EQ(seen.size(), 8u);
  EXPECT_EQ(seen.front(), ProveStage::kConstraints);
  EXPECT_EQ(seen.back(), ProveStage::kDone);

  std::atomic<bool> cancel{false};
  opt.cancel = &cancel;
  opt.on_stage = [&](ProveStage s) {
    if (s == ProveStage::kMsmB2) cancel = true;
  };
  auto r = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool(), opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "cancelled");

  // On two threads the stages are reported from the calling thread too, in order, and a cancel
  // stops both threads.
  ThreadPool two(2);
  seen.clear();
  cancel = false;
  opt.cancel = nullptr;
  opt.on_stage = [&](ProveStage s) { seen.push_back(s); };
  ASSERT_TRUE(groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, two, opt).ok());
  ASSERT_EQ(seen.size(), 8u);
  for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(int(seen[i]), int(i));
  opt.cancel = &cancel;
  opt.on_stage = [&](ProveStage s) {
    if (s == ProveStage::kQuotient) cancel = true;
  };
  r = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, two, opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "cancelled");
}

// A stage callback that throws (a bad_alloc while it records) stops the proof, whose call throws
// it, at every stage and on every pool size; the pool proves on afterwards. (The report ran
// outside the failure handling: on two threads or more the others waited for ever for the item
// it had claimed.)
TEST(Groth16, AStageCallbackThatThrowsStopsTheProof) {
#if defined(__EMSCRIPTEN__)
  // (The module's glue stops a proof whose JavaScript callback threw without a C++ exception:
  // module_test.cjs.)
  GTEST_SKIP() << "C++ exceptions are not caught in this WebAssembly build";
#endif
  auto f = make_fixture(11, 1, 20, 40);
  for (unsigned threads : {1u, 2u, 3u}) {
    ThreadPool pool(threads);
    for (int stage = 0; stage <= int(ProveStage::kDone); ++stage) {
      ProveOptions opt;
      opt.on_stage = [stage](ProveStage s) {
        if (int(s) == stage) throw std::runtime_error("callback failed");
      };
      EXPECT_THROW((void)groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, pool, opt),
                   std::runtime_error)
          << threads << " threads, stage " << stage;
    }
    EXPECT_TRUE(groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, pool).ok()) << threads;
  }
}

// The key's constraint shape encodes exactly the R1CS: the same digest (without building it),
// the same rows, and the prover gives the same proof bytes from either, on one thread and two.
TEST(ConstraintShape, EncodesTheR1csAndProvesTheSame) {
  ThreadPool pool2(2);
  for (uint64_t seed : {21u, 22u, 23u}) {
    auto f = make_fixture(seed, 1 + uint32_t(seed % 3), 40, 120);
    ASSERT_TRUE(f.keys.pk.shape);
    const ConstraintShape& shape = *f.keys.pk.shape;
    EXPECT_EQ(shape.check(), "");
    EXPECT_EQ(shape.digest(), f.rc.r1cs.digest());
    EXPECT_EQ(shape.num_constraints(), f.rc.r1cs.num_constraints());
    EXPECT_EQ(shape.coefficients[0], Fr::one());
    EXPECT_EQ(shape.coefficients[1], -Fr::one());
    for (size_t i = 0; i < shape.num_constraints(); ++i) {
      ASSERT_EQ(shape.dot(shape.a, i, f.rc.witness), f.rc.r1cs.a.dot(i, f.rc.witness));
      ASSERT_EQ(shape.dot(shape.b, i, f.rc.witness), f.rc.r1cs.b.dot(i, f.rc.witness));
      ASSERT_EQ(shape.dot(shape.c, i, f.rc.witness), f.rc.r1cs.c.dot(i, f.rc.witness));
    }
    ProveOptions opt;
    opt.insecure_test_seed = kSeed;
    for (ThreadPool* pool : {&sequential_pool(), &pool2}) {
      auto from_r1cs = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, *pool, opt);
      auto from_shape = groth16_prove(f.keys.pk, shape, f.rc.witness, *pool, opt);
      ASSERT_TRUE(from_r1cs.ok() && from_shape.ok());
      EXPECT_EQ(proof_to_bytes(*from_r1cs), proof_to_bytes(*from_shape));
    }
    auto w = f.rc.witness;
    w[w.size() - 1] += Fr::one();
    auto bad = groth16_prove(f.keys.pk, shape, w, sequential_pool());
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().rule, "witness");
  }
}

// Raw proving keys carry the shape (flag bit 2, covered by the digest), compressed ones leave it
// out; a shape whose indices or sizes are wrong is refused with a reason.
TEST(KeyFormat, ConstraintShapeRoundTripsAndMalformedShapesAreRefused) {
  auto f = make_fixture(24, 2, 30, 60);
  const auto raw = serialize_proving_key(f.keys.pk, "shaped");
  EXPECT_TRUE(read_key_header(raw)->shape);
  auto pk = load_proving_key(raw, "shaped", sequential_pool());
  ASSERT_TRUE(pk.ok()) << pk.error().message;
  ASSERT_TRUE(pk->shape);
  EXPECT_TRUE(*pk->shape == *f.keys.pk.shape);
  const auto compressed = serialize_proving_key(f.keys.pk, "shaped", PointFormat::kCompressed);
  EXPECT_FALSE(read_key_header(compressed)->shape);
  auto cpk = load_proving_key(compressed, "shaped", sequential_pool());
  ASSERT_TRUE(cpk.ok());
  EXPECT_FALSE(cpk->shape);
  ProvingKey plain = f.keys.pk;
  plain.shape.reset();
  EXPECT_FALSE(read_key_header(serialize_proving_key(plain, "shaped"))->shape);

  auto refused = [&](auto&& damage, const char* reason) {
    ProvingKey k = f.keys.pk;
    auto s = std::make_shared<ConstraintShape>(*f.keys.pk.shape);
    damage(*s);
    k.shape = s;
    auto r = load_proving_key(serialize_proving_key(k, "shaped"), "shaped", sequential_pool());
    ASSERT_FALSE(r.ok()) << reason;
    EXPECT_EQ(r.error().rule, "key");
    EXPECT_NE(r.error().message.find(reason), std::string::npos) << r.error().message;
  };
  refused([&](ConstraintShape& s) { s.a.wire.edit([&](auto& v) { v[0] = s.num_wires; }); },
          "a wire beyond");
  refused(
      [&](ConstraintShape& s) {
        s.b.coeff.edit([&](auto& v) { v[0] = uint32_t(s.coefficients.size()); });
      },
      "coefficient index beyond");
  refused([&](ConstraintShape& s) { s.coefficients.edit([](auto& v) { std::swap(v[0], v[1]); }); },
          "start with 1 and -1");
  refused([&](ConstraintShape& s) { s.c.row_start.edit([](auto& v) { v[1] = v[2] + 1; }); },
          "decrease");
  refused(
      [&](ConstraintShape& s) {
        s.coefficients.edit([](auto& v) { v[2].limbs[3] = ~uint64_t(0); });
      },
      "not below r");
  // No row starts at all: the file says 2^32 - 1 rows, whose 2^32 row starts wrapped to none in
  // the module's 32-bit size_t (read out of bounds there).
  refused(
      [&](ConstraintShape& s) {
        for (ConstraintShape::Matrix* m : {&s.a, &s.b, &s.c})
          m->row_start = std::vector<uint32_t>{};
      },
      "proving key body is malformed");
  ConstraintShape empty = *f.keys.pk.shape;
  empty.a.row_start = std::vector<uint32_t>{};
  EXPECT_EQ(empty.check(), "matrix A: wrong row count");
}

// A verifying key whose public-input count is 2^32 - 1 with no IC point: the count plus one
// wrapped to 0 and the key loaded unchecked (the browser's cached keys).
TEST(KeyFormat, AnICCountThatWrapsIsRefused) {
  auto f = make_fixture(12, 3, 30, 80);
  VerifyingKey vk = f.keys.vk;
  vk.num_public = UINT32_MAX;
  vk.ic.clear();
  for (PointFormat fmt : {PointFormat::kRaw, PointFormat::kCompressed}) {
    const auto bytes = serialize_verifying_key(vk, "test-circuit", fmt);
    for (bool check_points : {true, false}) {
      auto r = load_verifying_key(bytes, "test-circuit", check_points);
      ASSERT_FALSE(r.ok()) << check_points;
      EXPECT_NE(r.error().message.find("verifying key body is malformed"), std::string::npos)
          << r.error().message;
    }
  }
  EXPECT_FALSE(validate_verifying_key_points(vk).ok());
}

TEST(KeyFormat, RoundTripsRawAndCompressed) {
  auto f = make_fixture(12, 3, 30, 80);
  for (PointFormat fmt : {PointFormat::kRaw, PointFormat::kCompressed}) {
    auto pk_bytes = serialize_proving_key(f.keys.pk, "test-circuit", fmt);
    auto vk_bytes = serialize_verifying_key(f.keys.vk, "test-circuit", fmt);
    auto hdr = read_key_header(pk_bytes);
    ASSERT_TRUE(hdr.ok());
    EXPECT_EQ(hdr->circuit_name, "test-circuit");
    EXPECT_TRUE(hdr->insecure_dev);
    EXPECT_EQ(hdr->compressed, fmt == PointFormat::kCompressed);
    auto pk = load_proving_key(pk_bytes, "test-circuit", sequential_pool());
    ASSERT_TRUE(pk.ok()) << pk.error().message;
    auto vk = load_verifying_key(vk_bytes, "test-circuit");
    ASSERT_TRUE(vk.ok()) << vk.error().message;
    EXPECT_EQ(pk->h, f.keys.pk.h);
    EXPECT_EQ(pk->b2.points, f.keys.pk.b2.points);
    EXPECT_EQ(pk->c.wires, f.keys.pk.c.wires);
    EXPECT_EQ(vk->ic, f.keys.vk.ic);
    EXPECT_EQ(vk->gamma2, f.keys.vk.gamma2);
    // the reloaded keys prove and verify
    auto proof = groth16_prove(*pk, f.rc.r1cs, f.rc.witness, sequential_pool());
    ASSERT_TRUE(proof.ok());
    EXPECT_TRUE(verify_both(prepare_verifying_key(*vk), *proof, public_part(f.rc)).ok());
  }
}

TEST(KeyFormat, DamagedOrForeignFilesAreRefusedWithAReason) {
  auto f = make_fixture(13, 2, 10, 20);
  auto pk_bytes = serialize_proving_key(f.keys.pk, "circuit-a");
  auto vk_bytes = serialize_verifying_key(f.keys.vk, "circuit-a");
  auto expect_error = [&](std::vector<uint8_t> bytes, const char* needle, bool proving = true) {
    std::string msg = proving
                          ? load_proving_key(bytes, "circuit-a", sequential_pool()).error().message
                          : load_verifying_key(bytes, "circuit-a").error().message;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  };
  auto flipped = pk_bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  expect_error(flipped, "corrupt");
  auto truncated = pk_bytes;
  truncated.resize(truncated.size() - 100);
  expect_error(truncated, "truncated");
  expect_error({pk_bytes.begin(), pk_bytes.begin() + 50}, "header");
  auto magic = pk_bytes;
  magic[0] = 'X';
  expect_error(magic, "magic");
  expect_error(vk_bytes, "expected a proving key");
  expect_error(pk_bytes, "expected a verifying key", false);
  EXPECT_NE(load_proving_key(pk_bytes, "circuit-b", sequential_pool())
                .error()
                .message.find("'circuit-a', expected 'circuit-b'"),
            std::string::npos);
  auto version = pk_bytes;
  version[8] = 99;
  expect_error(version, "version");
  EXPECT_FALSE(load_proving_key({}, "", sequential_pool()).ok());
}

TEST(ProofFormat, RoundTripsAndNamesBadFields) {
  auto f = make_fixture(14, 3, 10, 20);
  auto proof = groth16_prove(f.keys.pk, f.rc.r1cs, f.rc.witness, sequential_pool());
  ASSERT_TRUE(proof.ok());
  auto pub = public_part(f.rc);

  auto ref = proof_to_reference_json(*proof, pub);
  auto back = proof_from_reference_json(ref);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->proof, *proof);
  EXPECT_EQ(back->public_inputs, pub);
  EXPECT_EQ(ref.find("{\"pi_a\":"), 0u);  // field order of the reference service
  EXPECT_LT(ref.find("\"pi_c\""), ref.find("\"public_signal\""));

  auto sj = proof_from_snarkjs_json(proof_to_snarkjs_json(*proof));
  ASSERT_TRUE(sj.ok()) << sj.error().message;
  EXPECT_EQ(*sj, *proof);
  auto sp = public_from_snarkjs_json(public_to_snarkjs_json(pub));
  ASSERT_TRUE(sp.ok());
  EXPECT_EQ(*sp, pub);
  auto svk = verifying_key_from_snarkjs_json(verifying_key_to_snarkjs_json(f.keys.vk));
  ASSERT_TRUE(svk.ok()) << svk.error().message;
  EXPECT_EQ(svk->ic, f.keys.vk.ic);
  EXPECT_EQ(svk->delta2, f.keys.vk.delta2);

  auto bytes = proof_to_bytes(*proof);
  auto pb = proof_from_bytes(bytes);
  ASSERT_TRUE(pb.ok());
  EXPECT_EQ(*pb, *proof);
  EXPECT_FALSE(proof_from_bytes({bytes.data(), 100}).ok());

  auto err = [](const std::string& text) { return proof_from_reference_json(text).error(); };
  EXPECT_EQ(err("not json").rule, "input");
  // A text refused as a whole is named as its reader names the document (the server's request
  // body by default), and its field where no member is at fault; a member's refusal is its own.
  EXPECT_EQ(err("[]").message, "the body must be a JSON object");
  EXPECT_EQ(err("[]").field, "");
  const JsonDocument file{"proof.json", "proof"};
  for (const Error& e :
       {proof_from_reference_json("[]", file).error(), proof_from_snarkjs_json("1", file).error(),
        verifying_key_from_snarkjs_json("\"vk\"", file).error()}) {
    EXPECT_EQ(e.message, "proof.json must be a JSON object");
    EXPECT_EQ(e.rule, "input");
    EXPECT_EQ(e.field, "proof");
  }
  for (const Error& e :
       {proof_from_reference_json("{", file).error(), public_from_snarkjs_json("", file).error()}) {
    EXPECT_EQ(e.message.rfind("proof.json is not valid JSON (", 0), 0u) << e.message;
    EXPECT_EQ(e.field, "proof");
  }
  EXPECT_EQ(proof_from_reference_json("{\"pi_a\": 1, \"pi_a\": 2}", file).error().field, "pi_a");
  EXPECT_EQ(proof_from_reference_json("{\"pi_a\": 1e999}", file).error().field, "pi_a");
  EXPECT_EQ(proof_from_reference_json("{}", file).error().field, "pi_a");
  EXPECT_EQ(err("{}").field, "pi_a");
  std::string p = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
  auto e =
      err("{\"pi_a\": [\"1\", \"" + p + "\"], \"pi_b\": [], \"pi_c\": [], \"public_signal\": []}");
  EXPECT_EQ(e.field, "pi_a[1]");
  EXPECT_NE(e.message.find("canonical"), std::string::npos);
  e = err("{\"pi_a\": [\"1\", \"2\"], \"pi_b\": [[\"1\"]], \"pi_c\": [], \"public_signal\": []}");
  EXPECT_EQ(e.field, "pi_b");
  e =
      err("{\"pi_a\": [\"1\", \"2\"], \"pi_b\": [[\"1\", \"2\"], [\"3\", 4]], \"pi_c\": [], "
          "\"public_signal\": []}");
  EXPECT_EQ(e.field, "pi_b[1][1]");
  // A text far larger than any response or key (a valid one with a long member added) is refused
  // before it is parsed, in every format: a parse takes many times its size (in the browser's
  // module, 100 MB of it ended the module).
  const std::string padded = "{\"padding\": [" + std::string(1 << 20, ' ') + "], " + ref.substr(1);
  for (const Error& large :
       {proof_from_reference_json(padded).error(), proof_from_snarkjs_json(padded).error(),
        public_from_snarkjs_json(padded).error()}) {
    EXPECT_EQ(large.rule, "input");
    EXPECT_NE(large.message.find("larger than 1048576 bytes"), std::string::npos) << large.message;
  }
  EXPECT_EQ(proof_from_reference_json(padded, file).error().message,
            "proof.json is larger than 1048576 bytes");
  EXPECT_TRUE(
      proof_from_reference_json("{\"padding\": [" + std::string(1000, ' ') + "], " + ref.substr(1))
          .ok());
  // A member given twice (JSON readers differ on which one counts) is refused in every format.
  const std::string twice = "{\"pi_a\": [\"1\", \"2\"], " + ref.substr(1);
  e = err(twice);
  EXPECT_EQ(e.rule, "input");
  EXPECT_EQ(e.field, "pi_a");
  EXPECT_NE(e.message.find("pi_a is given twice"), std::string::npos) << e.message;
  const std::string sj_text = proof_to_snarkjs_json(*proof);
  auto sj_twice = proof_from_snarkjs_json("{\"protocol\": \"groth16\", " + sj_text.substr(1));
  ASSERT_FALSE(sj_twice.ok());
  EXPECT_EQ(sj_twice.error().field, "protocol");
  const std::string vk_text = verifying_key_to_snarkjs_json(f.keys.vk);
  const size_t ic = vk_text.find("\"IC\"");
  ASSERT_NE(ic, std::string::npos);
  auto vk_twice =
      verifying_key_from_snarkjs_json(vk_text.substr(0, ic) + "\"IC\": [], " + vk_text.substr(ic));
  ASSERT_FALSE(vk_twice.ok());
  EXPECT_EQ(vk_twice.error().field, "IC");
  auto pub_twice = public_from_snarkjs_json("[\"1\", {\"a\": 1, \"a\": 1}]");
  ASSERT_FALSE(pub_twice.ok());
  EXPECT_EQ(pub_twice.error().field, "[1].a");
  // text that is not JSON: placed, and a number beyond a double named, as in the other formats
  auto pub_bad = public_from_snarkjs_json("[\"1\", 1e999]");
  ASSERT_FALSE(pub_bad.ok());
  EXPECT_EQ(pub_bad.error().field, "[1]");
  EXPECT_EQ(pub_bad.error().message,
            "the public inputs' text is not valid JSON (line 1, column 11: [1] is a number beyond "
            "the range of a double)");
}

}  // namespace
}  // namespace enygma
