// snarkjs .zkey import: a .zkey written here from our own setup (the layout of snarkjs's
// zkey_utils) imports back to the same keys; a real snarkjs ceremony's .zkey (fixture under
// tests/interop/fixtures, made by tests/interop/make_fixture.sh) imports, proves, and matches
// snarkjs's verification_key.json and proof; a zkey for another circuit, without
// contributions, or damaged is refused with a reason. Also the Solidity verifier text.
#include "core/groth16/zkey_import.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/solidity_verifier.hpp"
#include "core/groth16/verifier.hpp"
#include "core/r1cs/iden3_binfile.hpp"
#include "core/r1cs/r1cs_file.hpp"
#include "core/r1cs/wtns_file.hpp"
#include "core/registry/circuit_prover.hpp"
#include "core/registry/registry.hpp"
#include "support/curve_points.hpp"
#include "support/random_r1cs.hpp"
#include "support/subprocess.hpp"

namespace enygma {
namespace {

using test::RandomCircuit;
using test::TestRng;

// ---- a .zkey writer for tests (snarkjs's layout, see core/groth16/zkey_import.hpp) ----------

void put_mont(ByteWriter& w, const Fp& x) {
  uint8_t b[32];
  u256_to_le_bytes(x.montgomery(), b);
  w.bytes(b, 32);
}
void put_g1(ByteWriter& w, const G1Affine& p) {
  put_mont(w, p.x);
  put_mont(w, p.y);
}
void put_g2(ByteWriter& w, const G2Affine& p) {
  put_mont(w, p.x.c0);
  put_mont(w, p.x.c1);
  put_mont(w, p.y.c0);
  put_mont(w, p.y.c1);
}
template <class Affine>
std::vector<Affine> dense(const SparseQuery<Affine>& q, size_t size, uint32_t first_wire = 0) {
  std::vector<Affine> out(size, Affine::infinity());
  for (size_t i = 0; i < q.size(); ++i) out[q.wires[i] - first_wire] = q.points[i];
  return out;
}

struct ZkeyWriterOptions {
  size_t contributions = 1;
  bool wrong_last_delta = false;
  uint32_t protocol = 1;
  // The first contribution record as given instead of the usual one (a name, "alice"): its
  // type, its parameter bytes, its parameters' announced length (default: their size), and
  // its delta in G1 off the curve.
  std::optional<uint32_t> first_type;
  std::optional<std::vector<uint8_t>> first_params;
  std::optional<uint32_t> first_params_length;
  bool first_delta_off_curve = false;
  // The count of records the section announces (default: as many as written).
  std::optional<uint32_t> announced_contributions;
  // Bytes after the last contribution record, inside the section.
  std::vector<uint8_t> contributions_trailer;
  // The coefficients section's entry `bad_coefficient_index` changed by `bad_coefficient`:
  // its matrix (2: C, which a zkey does not hold) or its value (set to r itself, or one added).
  enum class BadCoefficient { kNone, kMatrix, kValueR, kValuePlusOne };
  BadCoefficient bad_coefficient = BadCoefficient::kNone;
  size_t bad_coefficient_index = 0;
  // A coefficient more after every one of the circuit's (B's, at the row past the public
  // inputs' rows), or B's last one left out: the lists agree as far as the shorter goes.
  bool extra_last_coefficient = false;
  bool drop_last_coefficient = false;
};

std::vector<uint8_t> write_test_zkey(const Groth16Keys& keys, const R1cs& r1cs,
                                     const ZkeyWriterOptions& opt = {}) {
  const ProvingKey& pk = keys.pk;
  const VerifyingKey& vk = keys.vk;
  iden3::BinWriter f("zkey", 1, 10);
  ByteWriter& w = f.out();
  f.begin_section(1);
  w.u32(opt.protocol);
  f.end_section();

  f.begin_section(2);
  uint8_t prime[32];
  w.u32(32);
  u256_to_le_bytes(Fp::kModulus, prime);
  w.bytes(prime, 32);
  w.u32(32);
  u256_to_le_bytes(Fr::kModulus, prime);
  w.bytes(prime, 32);
  w.u32(pk.num_wires);
  w.u32(pk.num_public);
  w.u32(pk.domain_size);
  put_g1(w, pk.alpha1);
  put_g1(w, pk.beta1);
  put_g2(w, pk.beta2);
  put_g2(w, vk.gamma2);
  put_g1(w, pk.delta1);
  put_g2(w, pk.delta2);
  f.end_section();

  f.begin_section(3);
  for (const auto& p : vk.ic) put_g1(w, p);
  f.end_section();

  // c * R^2 mod r: the Montgomery limbs of the element c * R.
  const Fr r_mod = *Fr::from_canonical(Fr::kR);
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, Fr>> coefficients;
  for (size_t i = 0; i < r1cs.num_constraints(); ++i) {
    for (const auto& t : canonical_terms(r1cs.a.row(i))) {
      coefficients.emplace_back(0, uint32_t(i), t.wire, t.coeff);
    }
    for (const auto& t : canonical_terms(r1cs.b.row(i))) {
      coefficients.emplace_back(1, uint32_t(i), t.wire, t.coeff);
    }
  }
  if (opt.drop_last_coefficient) coefficients.pop_back();  // B's, of the last constraint
  for (uint32_t s = 0; s <= r1cs.num_public; ++s) {
    coefficients.emplace_back(0, uint32_t(r1cs.num_constraints() + s), s, Fr::one());
  }
  if (opt.extra_last_coefficient) {
    coefficients.emplace_back(1, uint32_t(r1cs.num_constraints() + r1cs.num_public + 1), 0,
                              Fr::one());
  }
  f.begin_section(4);
  w.u32(uint32_t(coefficients.size()));
  using Bad = ZkeyWriterOptions::BadCoefficient;
  for (size_t i = 0; i < coefficients.size(); ++i) {
    const auto& [m, c, s, v] = coefficients[i];
    const Bad bad = i == opt.bad_coefficient_index ? opt.bad_coefficient : Bad::kNone;
    w.u32(bad == Bad::kMatrix ? 2 : m);
    w.u32(c);
    w.u32(s);
    uint8_t b[32];
    const Fr value = bad == Bad::kValuePlusOne ? v + Fr::one() : v;
    u256_to_le_bytes(bad == Bad::kValueR ? Fr::kModulus : (value * r_mod).montgomery(), b);
    w.bytes(b, 32);
  }
  f.end_section();

  f.begin_section(5);
  for (const auto& p : dense(pk.a, pk.num_wires)) put_g1(w, p);
  f.end_section();
  f.begin_section(6);
  for (const auto& p : dense(pk.b1, pk.num_wires)) put_g1(w, p);
  f.end_section();
  f.begin_section(7);
  for (const auto& p : dense(pk.b2, pk.num_wires)) put_g2(w, p);
  f.end_section();
  f.begin_section(8);
  for (const auto& p : dense(pk.c, pk.num_wires - pk.num_public - 1, pk.num_public + 1)) {
    put_g1(w, p);
  }
  f.end_section();
  f.begin_section(9);
  for (const auto& p : pk.h) put_g1(w, p);
  f.end_section();

  f.begin_section(10);
  for (int i = 0; i < 64; ++i) w.bytes("\x5a", 1);  // circuit hash
  w.u32(opt.announced_contributions ? *opt.announced_contributions : uint32_t(opt.contributions));
  for (size_t i = 0; i < opt.contributions; ++i) {
    const bool last = i + 1 == opt.contributions;
    G1Affine delta = last && !opt.wrong_last_delta ? pk.delta1 : G1Affine::generator();
    if (i == 0 && opt.first_delta_off_curve) delta.y += Fp::one();
    put_g1(w, delta);
    put_g1(w, G1Affine::generator());
    put_g1(w, G1Affine::generator());
    put_g2(w, G2Affine::generator());
    for (int j = 0; j < 64; ++j) w.bytes("\x01", 1);  // transcript
    const bool beacon = i == 1;
    w.u32(i == 0 && opt.first_type ? *opt.first_type : beacon ? 1 : 0);
    std::vector<uint8_t> params = {1, 5, 'a', 'l', 'i', 'c', 'e'};
    if (beacon) params.insert(params.end(), {2, 10, 3, 2, 0xab, 0xcd});
    if (i == 0 && opt.first_params) params = *opt.first_params;
    w.u32(i == 0 && opt.first_params_length ? *opt.first_params_length : uint32_t(params.size()));
    w.bytes(params.data(), params.size());
  }
  w.bytes(opt.contributions_trailer.data(), opt.contributions_trailer.size());
  f.end_section();
  return f.take();
}

std::vector<Fr> public_part(std::span<const Fr> witness, uint32_t npub) {
  return {witness.begin() + 1, witness.begin() + 1 + npub};
}

struct ZkeyFixture {
  RandomCircuit rc;
  Groth16Keys keys;
};

ZkeyFixture make_fixture(uint64_t seed, uint32_t npub, uint32_t npriv, size_t m) {
  TestRng rng(seed);
  ZkeyFixture f{test::random_circuit(rng, npub, npriv, m), {}};
  const uint8_t setup_seed[] = {7, 7};
  // A power-of-two domain: the only kind a .zkey holds (snarkjs's).
  f.keys = groth16_setup_insecure_from_seed(f.rc.r1cs, setup_seed, sequential_pool(),
                                            DomainSizes::kPowerOfTwo);
  f.keys.pk.insecure_dev = f.keys.vk.insecure_dev = false;
  return f;
}

// "field: message" of the import's refusal of `bytes` ("" and a failure when it imports).
std::string refusal_of(const std::vector<uint8_t>& bytes, const R1cs& r1cs) {
  auto r = import_zkey(bytes, r1cs, sequential_pool());
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.error().field + ": " + r.error().message;
}

TEST(ZkeyImport, OurOwnKeysRoundTripThroughTheZkeyLayout) {
  auto f = make_fixture(41, 3, 30, 60);
  ZkeyWriterOptions opt;
  opt.contributions = 2;  // a contribution and a beacon
  auto zkey = write_test_zkey(f.keys, f.rc.r1cs, opt);
  ThreadPool pool(2);
  auto imported = import_zkey(zkey, f.rc.r1cs, pool);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ProvingKey& pk = imported->keys.pk;
  const VerifyingKey& vk = imported->keys.vk;
  EXPECT_EQ(pk.domain_size, f.keys.pk.domain_size);
  EXPECT_EQ(pk.a.wires, f.keys.pk.a.wires);
  EXPECT_EQ(pk.a.points, f.keys.pk.a.points);
  EXPECT_EQ(pk.b1.wires, f.keys.pk.b1.wires);
  EXPECT_EQ(pk.b2.points, f.keys.pk.b2.points);
  EXPECT_EQ(pk.c.wires, f.keys.pk.c.wires);
  EXPECT_EQ(pk.c.points, f.keys.pk.c.points);
  EXPECT_EQ(pk.h, f.keys.pk.h);
  EXPECT_EQ(pk.delta2, f.keys.pk.delta2);
  EXPECT_EQ(vk.ic, f.keys.vk.ic);
  EXPECT_EQ(vk.gamma2, f.keys.vk.gamma2);
  EXPECT_EQ(vk.circuit_digest, f.rc.r1cs.digest());
  EXPECT_FALSE(pk.insecure_dev);

  const ZkeyInfo& info = imported->info;
  ASSERT_EQ(info.contributions.size(), 2u);
  EXPECT_EQ(info.contributions[0].name, "alice");
  EXPECT_FALSE(info.contributions[0].beacon);
  EXPECT_TRUE(info.contributions[1].beacon);
  EXPECT_EQ(info.contributions[1].beacon_iterations_exp, 10u);
  EXPECT_EQ(info.contributions[1].beacon_hash, (std::vector<uint8_t>{0xab, 0xcd}));
  EXPECT_EQ(info.circuit_hash[0], 0x5a);
  EXPECT_EQ(format_zkey_hash(info.circuit_hash).substr(0, 18), "5a5a5a5a 5a5a5a5a ");
  auto header_only = read_zkey_info(zkey);
  ASSERT_TRUE(header_only.ok());
  EXPECT_EQ(header_only->num_vars, f.rc.r1cs.num_wires);
  EXPECT_EQ(header_only->contributions.size(), 2u);

  auto proof = groth16_prove(pk, f.rc.r1cs, f.rc.witness, pool);
  ASSERT_TRUE(proof.ok()) << proof.error().message;
  auto pub = public_part(f.rc.witness, 3);
  EXPECT_TRUE(groth16_verify(prepare_verifying_key(vk), *proof, pub).ok());
  EXPECT_TRUE(groth16_verify(prepare_verifying_key(f.keys.vk), *proof, pub).ok());
}

TEST(ZkeyImport, AnotherCircuitsZkeyIsRefused) {
  auto f = make_fixture(42, 2, 12, 20);
  auto zkey = write_test_zkey(f.keys, f.rc.r1cs);
  auto message = [&](const R1cs& r1cs) {
    auto r = import_zkey(zkey, r1cs, sequential_pool());
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().message;
  };
  // one coefficient of B changed
  R1cs other = f.rc.r1cs;
  other.b.terms[3].coeff += Fr::one();
  EXPECT_NE(message(other).find("another circuit"), std::string::npos);
  // one more constraint, same wires
  other = f.rc.r1cs;
  std::vector<R1csTerm> a = {{1, Fr::one()}}, b = {{0, Fr::one()}}, c = {{1, Fr::one()}};
  other.add_constraint(a, b, c);
  EXPECT_NE(message(other).find("another circuit"), std::string::npos);
  // other shapes
  other = f.rc.r1cs;
  other.num_public = 1;
  EXPECT_NE(message(other).find("public inputs"), std::string::npos);
  other = f.rc.r1cs;
  other.num_wires += 1;
  EXPECT_NE(message(other).find("wires"), std::string::npos);
  // C is not in a zkey: a circuit differing only in C imports (its proofs will not verify)
  other = f.rc.r1cs;
  other.c.terms[0].coeff += Fr::one();
  EXPECT_TRUE(import_zkey(zkey, other, sequential_pool()).ok());
}

TEST(ZkeyImport, ZkeyWithoutContributionIsRefusedUnlessAllowed) {
  auto f = make_fixture(43, 1, 8, 10);
  // snarkjs groth16 setup leaves delta = 1
  f.keys.pk.delta1 = G1Affine::generator();
  f.keys.pk.delta2 = f.keys.vk.delta2 = G2Affine::generator();
  ZkeyWriterOptions opt;
  opt.contributions = 0;
  auto zkey = write_test_zkey(f.keys, f.rc.r1cs, opt);
  auto r = import_zkey(zkey, f.rc.r1cs, sequential_pool());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "zkey");
  EXPECT_EQ(r.error().field, "contributions");
  EXPECT_NE(r.error().message.find("forge"), std::string::npos);
  ZkeyImportOptions allow;
  allow.allow_no_contributions = true;
  auto ok = import_zkey(zkey, f.rc.r1cs, sequential_pool(), allow);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_TRUE(ok->keys.pk.insecure_dev);
  EXPECT_TRUE(ok->keys.vk.insecure_dev);  // and so is the verifying key file written from it
  auto vk_file = load_verifying_key(serialize_verifying_key(ok->keys.vk, "x"), "x");
  ASSERT_TRUE(vk_file.ok()) << vk_file.error().message;
  EXPECT_TRUE(vk_file->insecure_dev);

  // A contribution record whose delta is still 1 (one copied in by hand, which snarkjs zkey
  // verify refuses) does not make the key secure: refused, or insecure when allowed.
  opt.contributions = 1;
  auto claimed = write_test_zkey(f.keys, f.rc.r1cs, opt);
  auto r1 = import_zkey(claimed, f.rc.r1cs, sequential_pool());
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.error().field, "contributions");
  EXPECT_NE(r1.error().message.find("delta is 1"), std::string::npos) << r1.error().message;
  auto allowed = import_zkey(claimed, f.rc.r1cs, sequential_pool(), allow);
  ASSERT_TRUE(allowed.ok()) << allowed.error().message;
  EXPECT_TRUE(allowed->keys.pk.insecure_dev);
  EXPECT_TRUE(allowed->keys.vk.insecure_dev);
}

TEST(ZkeyImport, DamagedZkeysAreRefusedWithTheSectionNamed) {
  auto f = make_fixture(44, 2, 10, 16);
  const auto good = write_test_zkey(f.keys, f.rc.r1cs);
  ASSERT_TRUE(import_zkey(good, f.rc.r1cs, sequential_pool()).ok());
  auto field = [&](const std::vector<uint8_t>& bytes) { return refusal_of(bytes, f.rc.r1cs); };
  // sections start at: container 12 bytes; section 1 (12 + 4); section 2 (12 + 4 + 68 + 576 ...)
  const size_t header_body = 12 + 16 + 12;  // first byte of section 2's body
  auto bad = good;
  bad[12 + 12] = 2;  // protocol PLONK
  EXPECT_NE(field(bad).find("PLONK"), std::string::npos);
  bad = good;
  bad[header_body + 4] ^= 1;  // q changed
  EXPECT_NE(field(bad).find("curve"), std::string::npos);
  bad = good;
  const size_t alpha = header_body + 4 + 32 + 4 + 32 + 12;
  bad[alpha] ^= 1;  // alpha off the curve
  EXPECT_EQ(field(bad), "header.alpha1: zkey: the header point alpha1 is not on its curve");
  // alpha's y as y + q: the same point in a coordinate that is not below q (one zkey, two
  // encodings): refused by the range check, not by the curve equation, which it satisfies
  bad = good;
  {
    U256 y = u256_from_le_bytes(&bad[alpha + 32]), y_plus_q;
    ASSERT_EQ(add_carry(y_plus_q, y, Fp::kModulus), 0u);
    u256_to_le_bytes(y_plus_q, &bad[alpha + 32]);
  }
  EXPECT_EQ(field(bad), "header.alpha1: zkey: the header point alpha1 is not on its curve");
  bad = good;
  for (int i = 0; i < 4; ++i) bad[alpha - 4 + i] = i == 0 ? 0 : 1;  // domain size not 2^k
  EXPECT_NE(field(bad).find("domainSize"), std::string::npos);
  bad = good;  // twice snarkjs's domain (a power of two, large enough): its proofs do not verify
  {
    const uint32_t n = uint32_t(zkey_domain_size(f.rc.r1cs)) * 2;
    for (int i = 0; i < 4; ++i) bad[alpha - 4 + i] = uint8_t(n >> (8 * i));
  }
  EXPECT_NE(field(bad).find("domainSize: zkey: domain size " +
                            std::to_string(2 * zkey_domain_size(f.rc.r1cs)) + " is not " +
                            std::to_string(zkey_domain_size(f.rc.r1cs)) + ", the smallest"),
            std::string::npos)
      << field(bad);
  bad = good;
  bad.resize(bad.size() - 1);
  EXPECT_NE(field(bad).find("past the end"), std::string::npos);
  bad = good;
  bad.push_back(0);  // a byte after the last section
  EXPECT_EQ(field(bad), "sections: zkey: 1 bytes after the last section (10 announced)");
  // the last contribution's delta is not the key's delta
  ZkeyWriterOptions opt;
  opt.wrong_last_delta = true;
  EXPECT_NE(field(write_test_zkey(f.keys, f.rc.r1cs, opt)).find("last contribution"),
            std::string::npos);
  // a G1 point of section 9 (H) off the curve: find it by its bytes
  std::vector<uint8_t> h0(64);
  {
    ByteWriter w;
    put_g1(w, f.keys.pk.h[5]);
    h0 = w.take();
  }
  auto it = std::search(good.begin(), good.end(), h0.begin(), h0.end());
  ASSERT_NE(it, good.end());
  bad = good;
  bad[size_t(it - good.begin()) + 40] ^= 4;
  EXPECT_NE(field(bad).find("H: zkey: point 5 of section H"), std::string::npos) << field(bad);
  // beta1 and beta2 of different exponents
  auto keys = f.keys;
  keys.pk.beta1 = keys.pk.alpha1;
  EXPECT_NE(field(write_test_zkey(keys, f.rc.r1cs)).find("beta in G1 and in G2"),
            std::string::npos);
}

// Refusals of a zkey whose sections are well formed but do not fit together.
// Sections of the wrong size or missing: each refused with the section named (the header's
// protocol and field sizes, its length, the contributions and coefficients sections).
TEST(ZkeyImport, SectionsOfTheWrongSizeAreRefusedByName) {
  auto f = make_fixture(46, 2, 10, 16);
  const auto good = write_test_zkey(f.keys, f.rc.r1cs);
  ASSERT_TRUE(import_zkey(good, f.rc.r1cs, sequential_pool()).ok());
  auto refusal = [&](const std::vector<uint8_t>& bytes) { return refusal_of(bytes, f.rc.r1cs); };
  // The file again, with `edit` applied to its sections (id and body, in file order).
  using Sections = std::vector<std::pair<uint32_t, std::vector<uint8_t>>>;
  auto rebuilt = [&](const std::function<void(Sections&)>& edit) {
    auto file = iden3::parse_bin_file(good, "zkey", 1, "zkey", "zkey");
    EXPECT_TRUE(file.ok());
    Sections sections;
    for (const auto& sec : file->sections) {
      sections.emplace_back(sec.id, std::vector<uint8_t>(sec.body.begin(), sec.body.end()));
    }
    edit(sections);
    iden3::BinWriter w("zkey", 1, uint32_t(sections.size()));
    for (const auto& [id, body] : sections) {
      w.begin_section(id);
      w.out().bytes(body.data(), body.size());
      w.end_section();
    }
    return w.take();
  };
  auto section = [](Sections& sections, uint32_t id) -> std::vector<uint8_t>& {
    for (auto& [sid, body] : sections) {
      if (sid == id) return body;
    }
    ADD_FAILURE() << "no section " << id;
    return sections.front().second;
  };
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 1).push_back(0); })),
            "header: zkey: malformed protocol section");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 2)[0] = 48; })),  // n8q: BLS12-381's
            "header: zkey: the header is not of a 32-byte-field curve (expected bn128)");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 2).resize(4 + 32 + 4 + 32 + 8); })),
            "header: zkey: truncated header");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 2).push_back(0); })),
            "header: zkey: the header section has the wrong length");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 2).pop_back(); })),
            "header: zkey: the header section has the wrong length");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 10).resize(60); })),
            "contributions: zkey: truncated contributions section");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) { section(s, 4).pop_back(); })),
            "coefficients: zkey: the coefficients section has the wrong length");
  EXPECT_EQ(refusal(rebuilt([&](Sections& s) {
              s.erase(std::find_if(s.begin(), s.end(), [](auto& x) { return x.first == 3; }));
            })),
            "section 3: zkey: section 3 is missing");
}

TEST(ZkeyImport, InconsistentZkeysAreRefusedByName) {
  auto f = make_fixture(45, 2, 10, 16);
  auto refusal = [&](const Groth16Keys& keys, const ZkeyWriterOptions& opt = {}) {
    auto r = import_zkey(write_test_zkey(keys, f.rc.r1cs, opt), f.rc.r1cs, sequential_pool());
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().field + ": " + r.error().message;
  };
  // No contribution recorded, yet delta is not 1: not what snarkjs writes, refused even where
  // a key without contributions would be allowed.
  ZkeyWriterOptions none;
  none.contributions = 0;
  EXPECT_EQ(refusal(f.keys, none),
            "contributions: zkey: no contributions, yet delta is not the generator");
  // A wire with a B point in G1 but none in G2.
  auto keys = f.keys;
  ASSERT_GE(keys.pk.b2.size(), 2u);
  const uint32_t dropped = keys.pk.b2.wires[1];
  std::vector<uint32_t> wires(keys.pk.b2.wires.begin(), keys.pk.b2.wires.end());
  std::vector<G2Affine> points(keys.pk.b2.points.begin(), keys.pk.b2.points.end());
  wires.erase(wires.begin() + 1);
  points.erase(points.begin() + 1);
  keys.pk.b2.wires = wires;
  keys.pk.b2.points = points;
  EXPECT_EQ(refusal(keys),
            "B2: zkey: wire " + std::to_string(dropped) + " has a B point in one group only");
  // A wire's B1 (or B2) replaced by another point of its group (the generator): the two
  // sections no longer the same exponents, whichever wire it is.
  for (size_t at = 0; at < f.keys.pk.b1.size(); ++at) {
    keys = f.keys;
    std::vector<G1Affine> b1(keys.pk.b1.points.begin(), keys.pk.b1.points.end());
    b1[at] = G1Affine::generator();
    keys.pk.b1.points = b1;
    EXPECT_EQ(refusal(keys),
              "B2: zkey: the B points in G1 and in G2 (sections B1 and B2) are not the same "
              "exponents: the sections come from different setups or the zkey is damaged")
        << "B1 of wire " << keys.pk.b1.wires[at];
    keys = f.keys;
    std::vector<G2Affine> b2(keys.pk.b2.points.begin(), keys.pk.b2.points.end());
    b2[at] = G2Affine::generator();
    keys.pk.b2.points = b2;
    EXPECT_NE(refusal(keys).find("B2: zkey: the B points in G1 and in G2"), std::string::npos)
        << "B2 of wire " << keys.pk.b2.wires[at];
  }
  // Two wires' B points swapped in one group only: each point still one of the key's.
  keys = f.keys;
  {
    std::vector<G2Affine> b2(keys.pk.b2.points.begin(), keys.pk.b2.points.end());
    std::swap(b2.front(), b2.back());
    keys.pk.b2.points = b2;
  }
  EXPECT_NE(refusal(keys).find("not the same exponents"), std::string::npos);
  // A section of another size than its count of points says (one H point too many).
  keys = f.keys;
  std::vector<G1Affine> h(keys.pk.h.begin(), keys.pk.h.end());
  h.push_back(h[0]);
  keys.pk.h = h;
  EXPECT_EQ(refusal(keys), "H: zkey: section H holds " + std::to_string(64 * h.size()) +
                               " bytes, expected " + std::to_string(h.size() - 1) +
                               " points of 64");
}

// Contribution records (section 10) and the coefficients (section 4) that do not parse: each
// refused with the section and the record or entry named.
TEST(ZkeyImport, MalformedContributionRecordsAndCoefficientsAreRefusedByName) {
  auto f = make_fixture(46, 2, 10, 16);
  auto refusal = [&](const ZkeyWriterOptions& opt) {
    const auto zkey = write_test_zkey(f.keys, f.rc.r1cs, opt);
    auto r = import_zkey(zkey, f.rc.r1cs, sequential_pool());
    EXPECT_FALSE(r.ok());
    if (r.ok()) return std::string();
    // read_zkey_info (the CLI's `import-zkey --info`) reads the records the same way
    auto info = read_zkey_info(zkey);
    if (r.error().field == "contributions") {
      EXPECT_FALSE(info.ok()) << r.error().message;
      if (!info.ok()) {
        EXPECT_EQ(info.error().message, r.error().message);
      }
    }
    return r.error().field + ": " + r.error().message;
  };
  ZkeyWriterOptions two;
  two.contributions = 2;  // the first record is alice's, the second a beacon
  ASSERT_TRUE(
      import_zkey(write_test_zkey(f.keys, f.rc.r1cs, two), f.rc.r1cs, sequential_pool()).ok());

  auto opt = two;
  opt.first_type = 2;
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1 has unknown type 2");
  opt = two;
  opt.first_delta_off_curve = true;
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1: delta is not a G1 point");
  opt = two;
  opt.first_params = std::vector<uint8_t>{3, 1, 0xee, 1, 3, 'b', 'o', 'b'};  // hash before name
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1: parameters out of order");
  opt = two;
  opt.first_params = std::vector<uint8_t>{1, 3, 'b', 'o', 'b', 1, 3, 'b', 'o', 'b'};  // twice
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1: parameters out of order");
  opt = two;
  opt.first_params = std::vector<uint8_t>{1, 9, 'b', 'o', 'b'};  // a name longer than its bytes
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1: truncated parameter");
  opt = two;
  opt.first_params = std::vector<uint8_t>{2};  // the iterations' exponent without its byte
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1: truncated parameter");
  opt = two;
  opt.first_params = std::vector<uint8_t>{1, 1, 'x', 4, 0};
  EXPECT_EQ(refusal(opt), "contributions: zkey: contribution 1: unknown parameter 4");
  opt = two;
  opt.first_params_length = 1u << 20;  // parameters announced past the section's end
  EXPECT_EQ(refusal(opt), "contributions: zkey: truncated contribution 1");
  opt = two;
  opt.contributions_trailer = {0};
  EXPECT_EQ(refusal(opt),
            "contributions: zkey: contributions section is longer than its contributions");
  opt = two;
  opt.announced_contributions = 3;  // the records of two written
  EXPECT_EQ(refusal(opt), "contributions: zkey: truncated contribution 3");

  using Bad = ZkeyWriterOptions::BadCoefficient;
  opt = {};
  opt.bad_coefficient = Bad::kMatrix;
  opt.bad_coefficient_index = 3;
  EXPECT_EQ(refusal(opt), "coefficients: zkey: coefficient 3 is malformed");
  opt.bad_coefficient = Bad::kValueR;  // r itself: not below the modulus
  EXPECT_EQ(refusal(opt), "coefficients: zkey: coefficient 3 is malformed");
  opt.bad_coefficient = Bad::kValuePlusOne;  // a well-formed value, another circuit's
  EXPECT_NE(refusal(opt).find("coefficients: zkey: the zkey was made for another circuit: its "
                              "A/B coefficients differ from this circuit's at "),
            std::string::npos)
      << refusal(opt);
  // Every coefficient the same as far as the shorter list goes: the counts differ.
  const std::string counts = "coefficients: zkey: the zkey was made for another circuit: it has ";
  opt = {};
  opt.extra_last_coefficient = true;
  const std::string more = refusal(opt);
  EXPECT_EQ(more.rfind(counts, 0), 0u) << more;
  opt = {};
  opt.drop_last_coefficient = true;
  const std::string fewer = refusal(opt);
  EXPECT_EQ(fewer.rfind(counts, 0), 0u) << fewer;
  // One more and one fewer than the circuit's count.
  auto numbers = [&](const std::string& m) {
    unsigned got = 0, want = 0;
    EXPECT_EQ(std::sscanf(m.c_str() + counts.size(),
                          "%u non-zero A/B coefficients, this circuit %u", &got, &want),
              2)
        << m;
    return std::pair{got, want};
  };
  const auto [more_got, more_want] = numbers(more);
  const auto [fewer_got, fewer_want] = numbers(fewer);
  EXPECT_EQ(more_got, more_want + 1);
  EXPECT_EQ(fewer_got + 1, fewer_want);
  EXPECT_EQ(more_want, fewer_want);
}

// ---- a real snarkjs ceremony (fixture made by tests/interop/make_fixture.sh) ----------------

std::vector<uint8_t> read_fixture(const std::string& name) {
  std::ifstream in(std::string(ENYGMA_SOURCE_DIR).append("/tests/interop/fixtures/").append(name),
                   std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Keys of transfer-k2 on snarkjs's domain (made once: the setup takes a while).
const Groth16Keys& transfer_k2_keys() {
  static const Groth16Keys keys = [] {
    ThreadPool pool(2);
    const uint8_t seed[] = {'z', 'k', 'e', 'y'};
    return groth16_setup_insecure_from_seed(circuit_r1cs(*parse_circuit_id("transfer-k2")), seed,
                                            pool, DomainSizes::kPowerOfTwo);
  }();
  return keys;
}

// A zkey whose points are all in their groups may still make no valid proof: H queries of
// another setup (two points swapped) import without error, and the keys' own proof shows it
// (check_keys_prove); `enygma import-zkey` refuses them before it writes a key file (it wrote
// keys whose every proof failed verification, exit 0). A B2 point outside G2's subgroup, which
// a proof shows only where the witness uses its wire, is refused by the import itself, whatever
// its wire.
TEST(ZkeyImport, KeysThatMakeNoValidProofAreRefused) {
  const CircuitId id = *parse_circuit_id("transfer-k2");
  const R1cs& r1cs = circuit_r1cs(id);
  ThreadPool pool(2);
  const Groth16Keys& keys = transfer_k2_keys();
  auto checked = [&](const Groth16Keys& k) {
    return check_keys_prove(id, serialize_proving_key(k.pk, id.key_name()),
                            serialize_verifying_key(k.vk, id.key_name()), pool);
  };
  EXPECT_TRUE(checked(keys).ok()) << checked(keys).error().message;
  test::TempDir tmp;
  auto import_file = [&](const Groth16Keys& k) {
    const auto bytes = write_test_zkey(k, r1cs);
    std::ofstream(tmp / "bad.zkey", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return test::run_enygma(
        {"import-zkey", "--k", "2", "--zkey", tmp / "bad.zkey", "--out", tmp / "keys"});
  };
  Groth16Keys swapped_h = keys;
  std::vector<G1Affine> h(keys.pk.h.begin(), keys.pk.h.end());
  std::swap(h[0], h[1]);
  swapped_h.pk.h = std::move(h);
  auto imported = import_zkey(write_test_zkey(swapped_h, r1cs), r1cs, pool);
  ASSERT_TRUE(imported.ok()) << imported.error().message;  // in their groups
  Status st = checked(imported->keys);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "key");
  EXPECT_NE(st.error().message.find("make proofs that do not verify"), std::string::npos)
      << st.error().message;
  auto r = import_file(swapped_h);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("do not verify"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "keys/transfer-k2.pk"));
  // B2 outside G2's subgroup, at the first wire and at the last (whatever the witness uses)
  TestRng rng(7);
  for (size_t at : {size_t(0), keys.pk.b2.points.size() - 1}) {
    Groth16Keys b2_outside = keys;
    std::vector<G2Affine> b2(keys.pk.b2.points.begin(), keys.pk.b2.points.end());
    b2[at] = test::random_twist_point(rng);
    b2_outside.pk.b2.points = std::move(b2);
    auto refused = import_zkey(write_test_zkey(b2_outside, r1cs), r1cs, pool);
    ASSERT_FALSE(refused.ok()) << at;
    EXPECT_EQ(refused.error().field, "B2");
    EXPECT_NE(refused.error().message.find("is not a G2 point of order r"), std::string::npos)
        << refused.error().message;
    r = import_file(b2_outside);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("of section B2 is not a G2 point of order r"), std::string::npos) << r.err;
  }
  const auto good = write_test_zkey(keys, r1cs);
  std::ofstream(tmp / "good.zkey", std::ios::binary)
      .write(reinterpret_cast<const char*>(good.data()), std::streamsize(good.size()));
  r = test::run_enygma(
      {"import-zkey", "--k", "2", "--zkey", tmp / "good.zkey", "--out", tmp / "keys"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(tmp / "keys/transfer-k2.pk"));
  // --check-vk names the member of verification_key.json that differs
  VerifyingKey other_delta = keys.vk;
  other_delta.delta2 = keys.vk.gamma2;
  std::ofstream(tmp / "vk.json") << verifying_key_to_snarkjs_json(other_delta);
  r = test::run_enygma({"import-zkey", "--k", "2", "--zkey", tmp / "good.zkey", "--out",
                        tmp / "keys2", "--check-vk", tmp / "vk.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("(its vk_delta_2 differs)"), std::string::npos) << r.err;
}

// A B1 (or B2) point replaced by another point of its group at a wire that the own-proof
// check's witness (check_keys_prove: the wallet's request from the zero seed) leaves 0: that
// proof never touches the point, so the keys pass it, yet every proof whose witness uses the
// wire would fail verification. The import refuses it by its B1/B2 check, before any key file is
// written.
TEST(ZkeyImport, BPointsOfAnotherExponentAtAWireTheOwnProofLeavesZeroAreRefused) {
  const CircuitId id = *parse_circuit_id("transfer-k2");
  const R1cs& r1cs = circuit_r1cs(id);
  ThreadPool pool(2);
  const Groth16Keys& keys = transfer_k2_keys();
  auto request = id.family->make_request(id.k, std::array<uint8_t, 32>{}, 0);
  ASSERT_TRUE(request.ok()) << request.error().message;
  auto witness = id.family->witness(*request, id.k);
  ASSERT_TRUE(witness.ok()) << witness.error().message;
  // a wire with B points that the witness leaves 0, and one it does not
  std::optional<size_t> zero_at, used_at;
  for (size_t i = 0; i < keys.pk.b1.size(); ++i) {
    auto& slot = (*witness)[keys.pk.b1.wires[i]].is_zero() ? zero_at : used_at;
    if (!slot) slot = i;
  }
  ASSERT_TRUE(zero_at && used_at);
  auto checked = [&](const Groth16Keys& k) {
    return check_keys_prove(id, serialize_proving_key(k.pk, id.key_name()),
                            serialize_verifying_key(k.vk, id.key_name()), pool);
  };
  test::TempDir tmp;
  const std::string refused =
      "the B points in G1 and in G2 (sections B1 and B2) are not the same exponents";
  for (const bool in_g2 : {false, true}) {
    Groth16Keys bad = keys;
    if (in_g2) {  // another wire's B2: in the subgroup, of another exponent
      std::vector<G2Affine> b2(keys.pk.b2.points.begin(), keys.pk.b2.points.end());
      b2[*zero_at] = b2[*used_at];
      bad.pk.b2.points = std::move(b2);
    } else {
      std::vector<G1Affine> b1(keys.pk.b1.points.begin(), keys.pk.b1.points.end());
      b1[*zero_at] = G1Affine::generator();
      bad.pk.b1.points = std::move(b1);
    }
    const std::string what = in_g2 ? "B2" : "B1";
    // the own proof alone does not show it
    const Status own = checked(bad);
    EXPECT_TRUE(own.ok()) << what << ": " << own.error().message;
    // the import does, naming the check
    const auto zkey = write_test_zkey(bad, r1cs);
    auto imported = import_zkey(zkey, r1cs, pool);
    ASSERT_FALSE(imported.ok()) << what;
    EXPECT_EQ(imported.error().rule, "zkey");
    EXPECT_EQ(imported.error().field, "B2");
    EXPECT_NE(imported.error().message.find(refused), std::string::npos)
        << imported.error().message;
    std::ofstream(tmp / "bad.zkey", std::ios::binary)
        .write(reinterpret_cast<const char*>(zkey.data()), std::streamsize(zkey.size()));
    auto r = test::run_enygma(
        {"import-zkey", "--k", "2", "--zkey", tmp / "bad.zkey", "--out", tmp / "keys"});
    EXPECT_EQ(r.exit_code, 1) << what << ": " << r.err;
    EXPECT_NE(r.err.find("bad.zkey: " + refused), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp / "keys/transfer-k2.pk"));
    EXPECT_FALSE(std::filesystem::exists(tmp / "keys/transfer-k2.vk"));
  }
  // the consistent zkey imports, and its keys prove
  auto imported = import_zkey(write_test_zkey(keys, r1cs), r1cs, pool);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_TRUE(checked(imported->keys).ok());
}

TEST(ZkeyImport, RealSnarkjsCeremonyImportsProvesAndMatchesSnarkjs) {
  auto r1cs_file = read_r1cs_file(read_fixture("circuit.r1cs"));
  ASSERT_TRUE(r1cs_file.ok()) << r1cs_file.error().message;
  const R1cs& r1cs = r1cs_file->r1cs;
  auto witness = read_wtns_file(read_fixture("witness.wtns"));
  ASSERT_TRUE(witness.ok()) << witness.error().message;
  ASSERT_FALSE(r1cs.first_unsatisfied(*witness).has_value());

  ThreadPool pool(2);
  auto imported = import_zkey(read_fixture("circuit_final.zkey"), r1cs, pool);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  ASSERT_GE(imported->info.contributions.size(), 1u);
  EXPECT_EQ(imported->info.contributions[0].name, "interop fixture");

  // the same key snarkjs exports
  auto vk_json = read_fixture("verification_key.json");
  auto snark_vk = verifying_key_from_snarkjs_json(std::string(vk_json.begin(), vk_json.end()));
  ASSERT_TRUE(snark_vk.ok()) << snark_vk.error().message;
  const VerifyingKey& vk = imported->keys.vk;
  EXPECT_EQ(snark_vk->ic, vk.ic);
  EXPECT_EQ(snark_vk->alpha1, vk.alpha1);
  EXPECT_EQ(snark_vk->beta2, vk.beta2);
  EXPECT_EQ(snark_vk->gamma2, vk.gamma2);
  EXPECT_EQ(snark_vk->delta2, vk.delta2);
  // Our verification_key.json equals snarkjs's, e(alpha, beta) (vk_alphabeta_12) included.
  const auto ours = nlohmann::json::parse(verifying_key_to_snarkjs_json(vk));
  const auto theirs = nlohmann::json::parse(std::string(vk_json.begin(), vk_json.end()));
  EXPECT_EQ(ours, theirs);
  // A vk_alphabeta_12 that the key does not imply is refused, naming it.
  auto altered = theirs;
  altered["vk_alphabeta_12"][0][0][0] = "1";
  auto refused = verifying_key_from_snarkjs_json(altered.dump());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().field, "vk_alphabeta_12");

  // snarkjs's proof verifies under our verifier, and our proof with the imported key too
  const auto pvk = prepare_verifying_key(vk);
  auto proof_json = read_fixture("proof.json");
  auto public_json = read_fixture("public.json");
  auto snark_proof = proof_from_snarkjs_json(std::string(proof_json.begin(), proof_json.end()));
  auto snark_pub = public_from_snarkjs_json(std::string(public_json.begin(), public_json.end()));
  ASSERT_TRUE(snark_proof.ok() && snark_pub.ok());
  auto pub = public_part(*witness, r1cs.num_public);
  EXPECT_EQ(*snark_pub, pub);
  EXPECT_TRUE(groth16_verify(pvk, *snark_proof, pub).ok());
  auto proof = groth16_prove(imported->keys.pk, r1cs, *witness, pool);
  ASSERT_TRUE(proof.ok()) << proof.error().message;
  EXPECT_TRUE(groth16_verify(pvk, *proof, pub).ok());
  pub[0] += Fr::one();
  EXPECT_FALSE(groth16_verify(pvk, *proof, pub).ok());
}

// ---- the Solidity verifier's text ------------------------------------------------------------

TEST(SolidityVerifier, SourceHasTheKeyAndTheCallingConvention) {
  auto f = make_fixture(45, 4, 10, 12);
  SolidityVerifierOptions opt;
  opt.contract_name = "MyVerifier";
  opt.circuit_name = "test-circuit";
  std::string src = solidity_verifier_source(f.keys.vk, opt);
  EXPECT_NE(src.find("contract MyVerifier {"), std::string::npos);
  EXPECT_NE(src.find("uint256[4] calldata pubSignals"), std::string::npos);
  EXPECT_NE(src.find("uint256[2][2] calldata pB"), std::string::npos);
  EXPECT_NE(src.find("0x08"), std::string::npos);
  EXPECT_NE(src.find("IC4_X"), std::string::npos);
  EXPECT_EQ(src.find("IC5_X"), std::string::npos);
  EXPECT_NE(src.find("SPDX-License-Identifier: UNLICENSED"), std::string::npos);
  // G2 constants imaginary part first
  EXPECT_NE(src.find("DELTA_X_IM = " + f.keys.vk.delta2.x.c1.to_decimal() + ";"),
            std::string::npos);
  EXPECT_NE(src.find("DELTA_X_RE = " + f.keys.vk.delta2.x.c0.to_decimal() + ";"),
            std::string::npos);
  EXPECT_NE(src.find("IC0_Y = " + f.keys.vk.ic[0].y.to_decimal() + ";"), std::string::npos);
  EXPECT_NE(
      src.find("uint256 internal constant R = "
               "21888242871839275222246405745257275088548364400416034343698204186575808495617;"),
      std::string::npos);

  // A circuit name that is not a circuit id's characters is left out of the source.
  opt.circuit_name = "x\nuint256 constant PWN=1;/*";
  src = solidity_verifier_source(f.keys.vk, opt);
  EXPECT_EQ(src.find("PWN"), std::string::npos);
  EXPECT_NE(src.find("for a Groth16 circuit."), std::string::npos);

  EXPECT_TRUE(is_usable_contract_name("EnygmaTransferVerifierK2"));
  EXPECT_TRUE(is_usable_contract_name("_x$1"));
  EXPECT_FALSE(is_usable_contract_name("2abc"));
  EXPECT_FALSE(is_usable_contract_name("a-b"));
  EXPECT_FALSE(is_usable_contract_name("contract"));
  EXPECT_FALSE(is_usable_contract_name(""));
  // Keywords, elementary types and the contract's own names do not compile (or warn).
  for (const char* taken : {"address",     "uint",      "uint8",
                            "int256",      "bytes32",   "fixed128x18",
                            "mapping",     "event",     "emit",
                            "unchecked",   "byte",      "abstract",
                            "verifyProof", "mulAdd",    "publicCombination",
                            "R",           "Q",         "NUM_PUBLIC_INPUTS",
                            "ALPHA_X",     "BETA_Y_RE", "IC0_X",
                            "IC12_Y",      "throw",     "msg",
                            "keccak256",   "bytes",     "bytes1",
                            "ufixed",      "ufixed8x0", "fixed256x80",
                            "sha3",        "suicide"}) {  // solc: "shadows a builtin symbol"
    EXPECT_FALSE(is_usable_contract_name(taken)) << taken;
  }
  for (const char* fine : {"Uint", "uint_", "IC", "IC1", "IC_X", "ALPHA", "Verifier", "bytesX",
                           "uint7", "int0", "bytes33", "bytes0", "intx", "fixed8x81", "from"}) {
    EXPECT_TRUE(is_usable_contract_name(fine)) << fine;
  }
}

}  // namespace
}  // namespace enygma
