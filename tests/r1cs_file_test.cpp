// circom's .r1cs and .wtns files: round trips through our reader, the exact byte layout the
// iden3 tools expect, and refusal (with a named reason) of damaged or foreign files.
// (snarkjs itself reads our files in tests/interop/.)
#include "core/r1cs/r1cs_file.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/r1cs/iden3_binfile.hpp"
#include "core/r1cs/wtns_file.hpp"
#include "support/random_r1cs.hpp"

namespace enygma {
namespace {

using test::TestRng;

uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}
uint64_t u64_at(const std::vector<uint8_t>& b, size_t at) {
  return uint64_t(u32_at(b, at)) | uint64_t(u32_at(b, at + 4)) << 32;
}
void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

// The file with section 1 (the header) replaced by `header`, every other section as it was.
std::vector<uint8_t> with_header(const std::vector<uint8_t>& file,
                                 const std::vector<uint8_t>& header) {
  std::vector<uint8_t> out(file.begin(), file.begin() + 12);
  for (size_t at = 12; at < file.size();) {
    const uint32_t id = u32_at(file, at);
    const uint64_t size = u64_at(file, at + 4);
    const auto body = file.begin() + std::ptrdiff_t(at + 12);
    const std::vector<uint8_t> kept =
        id == 1 ? header : std::vector<uint8_t>(body, body + std::ptrdiff_t(size));
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(id >> (8 * i)));
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(uint64_t(kept.size()) >> (8 * i)));
    out.insert(out.end(), kept.begin(), kept.end());
    at += 12 + size;
  }
  return out;
}
// Section 1's body.
std::vector<uint8_t> header_of(const std::vector<uint8_t>& file) {
  return {file.begin() + 24, file.begin() + 24 + std::ptrdiff_t(u64_at(file, 16))};
}

bool rows_equal_canonically(const SparseMatrix& x, const SparseMatrix& y) {
  if (x.rows() != y.rows()) return false;
  for (size_t i = 0; i < x.rows(); ++i) {
    auto cx = canonical_terms(x.row(i)), cy = canonical_terms(y.row(i));
    if (cx.size() != cy.size()) return false;
    for (size_t t = 0; t < cx.size(); ++t) {
      if (cx[t].wire != cy[t].wire || !(cx[t].coeff == cy[t].coeff)) return false;
    }
  }
  return true;
}

TEST(R1csFile, CanonicalTermsSortMergeAndDropZeros) {
  const Fr two = Fr::from_u64(2), three = Fr::from_u64(3);
  std::vector<R1csTerm> row = {{5, two}, {1, three}, {5, three}, {2, two}, {2, -two}, {0, two}};
  auto c = canonical_terms(row);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].wire, 0u);
  EXPECT_EQ(c[1].wire, 1u);
  EXPECT_EQ(c[2].wire, 5u);
  EXPECT_EQ(c[2].coeff, Fr::from_u64(5));
  EXPECT_TRUE(canonical_terms({}).empty());
}

TEST(R1csFile, RandomCircuitsRoundTrip) {
  TestRng rng(31);
  struct Shape {
    uint32_t npub, npriv;
    size_t m;
  };
  for (Shape s : {Shape{0, 2, 3}, Shape{1, 5, 10}, Shape{7, 40, 150}, Shape{18, 100, 400}}) {
    auto rc = test::random_circuit(rng, s.npub, s.npriv, s.m);
    auto bytes = write_r1cs_file(rc.r1cs);
    auto back = read_r1cs_file(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    const R1cs& r = back->r1cs;
    EXPECT_EQ(r.num_wires, rc.r1cs.num_wires);
    EXPECT_EQ(r.num_public, rc.r1cs.num_public);
    EXPECT_EQ(back->num_outputs, 0u);
    EXPECT_EQ(back->num_public_inputs, s.npub);
    EXPECT_EQ(back->num_labels, rc.r1cs.num_wires);
    ASSERT_EQ(back->wire_labels.size(), rc.r1cs.num_wires);
    EXPECT_EQ(back->wire_labels.back(), rc.r1cs.num_wires - 1);
    EXPECT_TRUE(rows_equal_canonically(r.a, rc.r1cs.a));
    EXPECT_TRUE(rows_equal_canonically(r.b, rc.r1cs.b));
    EXPECT_TRUE(rows_equal_canonically(r.c, rc.r1cs.c));
    EXPECT_FALSE(r.first_unsatisfied(rc.witness).has_value());
    // canonical form is a fixed point: writing what we read gives the same bytes
    EXPECT_EQ(write_r1cs_file(r), bytes);
  }
}

TEST(R1csFile, ByteLayoutIsCircoms) {
  R1cs r;
  r.num_wires = 4;
  r.num_public = 1;
  // w1 * w2 = 7 w3 + w0 (terms out of order on purpose)
  std::vector<R1csTerm> a = {{1, Fr::one()}}, b = {{2, Fr::one()}},
                        c = {{3, Fr::from_u64(7)}, {0, Fr::one()}};
  r.add_constraint(a, b, c);
  R1csFileOptions opt;
  opt.num_private_inputs = 1;
  auto f = write_r1cs_file(r, opt);
  ASSERT_GE(f.size(), 12u);
  EXPECT_EQ(std::string(f.begin(), f.begin() + 4), "r1cs");
  EXPECT_EQ(u32_at(f, 4), 1u);   // version
  EXPECT_EQ(u32_at(f, 8), 3u);   // sections
  EXPECT_EQ(u32_at(f, 12), 1u);  // header section
  EXPECT_EQ(u64_at(f, 16), 64u);
  EXPECT_EQ(u32_at(f, 24), 32u);  // n8
  EXPECT_EQ(f[28], 0x01);         // r = 0x30644e72...f0000001, little-endian
  EXPECT_EQ(f[28 + 31], 0x30);
  EXPECT_EQ(u32_at(f, 60), 4u);  // wires
  EXPECT_EQ(u32_at(f, 64), 0u);  // outputs
  EXPECT_EQ(u32_at(f, 68), 1u);  // public inputs
  EXPECT_EQ(u32_at(f, 72), 1u);  // private inputs
  EXPECT_EQ(u64_at(f, 76), 4u);  // labels
  EXPECT_EQ(u32_at(f, 84), 1u);  // constraints
  EXPECT_EQ(u32_at(f, 88), 2u);  // constraints section
  EXPECT_EQ(u64_at(f, 92), 3 * 4 + 4 * 36u);
  size_t at = 100;
  EXPECT_EQ(u32_at(f, at), 1u);      // A: one term
  EXPECT_EQ(u32_at(f, at + 4), 1u);  // wire 1
  EXPECT_EQ(f[at + 8], 1);           // coefficient 1, standard form
  at += 4 + 36 + 4 + 36;
  EXPECT_EQ(u32_at(f, at), 2u);  // C: two terms, sorted by wire
  EXPECT_EQ(u32_at(f, at + 4), 0u);
  EXPECT_EQ(u32_at(f, at + 40), 3u);
  EXPECT_EQ(f[at + 44], 7);
  at += 4 + 72;
  EXPECT_EQ(u32_at(f, at), 3u);  // wire map section
  EXPECT_EQ(u64_at(f, at + 4), 32u);
  EXPECT_EQ(f.size(), at + 12 + 32);
  EXPECT_EQ(write_r1cs_file(r, {0, false}).size(), at);  // without the map
  EXPECT_TRUE(read_r1cs_file(write_r1cs_file(r, {0, false}))->wire_labels.empty());
}

TEST(R1csFile, DamagedOrForeignFilesAreRefused) {
  TestRng rng(32);
  auto rc = test::random_circuit(rng, 2, 6, 8);
  const auto good = write_r1cs_file(rc.r1cs);
  auto error = [](const std::vector<uint8_t>& bytes) {
    auto r = read_r1cs_file(bytes);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().field + ": " + r.error().message;
  };
  EXPECT_NE(error({good.begin(), good.begin() + 10}).find("truncated"), std::string::npos);
  auto bad = good;
  bad[0] = 'x';
  EXPECT_NE(error(bad).find("magic"), std::string::npos);
  bad = good;
  put_u32(bad, 4, 2);
  EXPECT_NE(error(bad).find("version"), std::string::npos);
  bad = good;
  bad[28] ^= 0x02;  // another prime
  EXPECT_NE(error(bad).find("prime"), std::string::npos);
  bad = good;
  put_u32(bad, 100 + 4, rc.r1cs.num_wires);  // first A term's wire out of range
  EXPECT_NE(error(bad).find("uses wire"), std::string::npos);
  bad = good;
  for (int i = 0; i < 32; ++i) bad[108 + i] = 0xff;  // first coefficient >= r
  EXPECT_NE(error(bad).find("coefficient"), std::string::npos);
  bad = good;
  bad.resize(bad.size() - 1);
  EXPECT_NE(error(bad).find("past the end"), std::string::npos);
  bad = good;
  bad.insert(bad.end(), good.begin(), good.end());  // two files in one
  EXPECT_NE(error(bad).find("sections: r1cs file: " + std::to_string(good.size()) +
                            " bytes after the last section"),
            std::string::npos);
  bad = good;
  put_u32(bad, 84, uint32_t(rc.r1cs.num_constraints() - 1));  // constraint count too small
  EXPECT_NE(error(bad).find("longer"), std::string::npos);
  // a custom-gates section (PLONK)
  bad = good;
  put_u32(bad, 8, 4);
  for (uint32_t v : {4u, 4u, 0u, 0u}) {
    for (int i = 0; i < 4; ++i) bad.push_back(uint8_t(v >> (8 * i)));
  }
  EXPECT_NE(error(bad).find("custom gates"), std::string::npos);
  // more sections announced than the file holds: the table ends early
  bad = good;
  put_u32(bad, 8, 4);
  EXPECT_EQ(error(bad), "sections: r1cs file: truncated section table");
  // the header section alone: the constraints are missing
  bad = {good.begin(), good.begin() + 24 + u64_at(good, 16)};
  put_u32(bad, 8, 1);
  EXPECT_EQ(error(bad), "section 2: r1cs file: section 2 is missing");
  // a constraint that announces more terms than its section holds
  bad = good;
  put_u32(bad, 100, 0xffffffffu);  // the first constraint's A: its term count
  EXPECT_EQ(error(bad), "constraints: r1cs file: truncated at constraint 0 A");
  // a duplicated header
  iden3::BinWriter w("r1cs", 1, 2);
  w.begin_section(1);
  w.end_section();
  w.begin_section(1);
  w.end_section();
  EXPECT_NE(error(w.take()).find("twice"), std::string::npos);
}

// Each check of the header and the wire map alone, with the field it names.
TEST(R1csFile, EachHeaderCheckRefusesItsFault) {
  TestRng rng(34);
  auto rc = test::random_circuit(rng, 2, 6, 8);
  const auto good = write_r1cs_file(rc.r1cs);
  ASSERT_TRUE(read_r1cs_file(with_header(good, header_of(good))).ok());
  auto error = [](const std::vector<uint8_t>& bytes) {
    auto r = read_r1cs_file(bytes);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().field + ": " + r.error().message;
  };
  auto bad = good;
  put_u32(bad, 24, 48);  // BLS12-381's 48-byte elements
  EXPECT_EQ(error(bad), "header.n8: r1cs file: field elements of 48 bytes (expected 32: BN254)");
  std::vector<uint8_t> header = header_of(good);
  EXPECT_EQ(error(with_header(good, {header.begin(), header.begin() + 4})),
            "header: r1cs file: truncated header");
  EXPECT_EQ(error(with_header(good, {header.begin(), header.end() - 1})),
            "header: r1cs file: truncated header");
  header.push_back(0);
  EXPECT_EQ(error(with_header(good, header)), "header: r1cs file: header section is too long");
  bad = good;
  put_u32(bad, 60, 0);
  EXPECT_EQ(error(bad), "header.nWires: r1cs file: no wires (wire 0 is the constant 1)");
  bad = good;
  put_u32(bad, 72, rc.r1cs.num_wires - 2);  // private inputs: with the 2 public, every wire but 0
  EXPECT_EQ(error(bad), "header.nWires: r1cs file: more inputs and outputs than wires");
  // the wire map (the last section) one entry short
  bad = good;
  const size_t map = good.size() - 12 - 8 * size_t(rc.r1cs.num_wires);
  ASSERT_EQ(u32_at(good, map), 3u);
  bad.resize(bad.size() - 8);
  put_u32(bad, map + 4, 8 * (rc.r1cs.num_wires - 1));
  EXPECT_EQ(error(bad), "map: r1cs file: wire map has " + std::to_string(rc.r1cs.num_wires - 1) +
                            " entries, not " + std::to_string(rc.r1cs.num_wires));
}

TEST(WtnsFile, RoundTripAndLayout) {
  TestRng rng(33);
  auto rc = test::random_circuit(rng, 3, 20, 30);
  auto bytes = write_wtns_file(rc.witness);
  ASSERT_EQ(bytes.size(), 76 + 32 * rc.witness.size());
  std::vector<uint8_t> f(bytes.begin(), bytes.end());
  EXPECT_EQ(std::string(f.begin(), f.begin() + 4), "wtns");
  EXPECT_EQ(u32_at(f, 4), 2u);  // version
  EXPECT_EQ(u32_at(f, 8), 2u);  // sections
  EXPECT_EQ(u32_at(f, 12), 1u);
  EXPECT_EQ(u64_at(f, 16), 40u);
  EXPECT_EQ(u32_at(f, 24), 32u);
  EXPECT_EQ(u32_at(f, 60), rc.witness.size());
  EXPECT_EQ(u32_at(f, 64), 2u);
  EXPECT_EQ(u64_at(f, 68), 32 * rc.witness.size());
  EXPECT_EQ(f[76], 1);  // witness[0] = 1, standard form
  for (int i = 1; i < 32; ++i) EXPECT_EQ(f[76 + i], 0);

  auto back = read_wtns_file(f);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->size(), rc.witness.size());
  for (size_t i = 0; i < back->size(); ++i) EXPECT_EQ((*back)[i], rc.witness[i]);
  EXPECT_FALSE(rc.r1cs.first_unsatisfied(*back).has_value());
}

TEST(WtnsFile, DamagedFilesAreRefused) {
  std::vector<Fr> w = {Fr::one(), Fr::from_u64(5), Fr::from_u64(6)};
  auto s = write_wtns_file(w);
  const std::vector<uint8_t> good(s.begin(), s.end());
  auto error = [](const std::vector<uint8_t>& bytes) {
    auto r = read_wtns_file(bytes);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().message;
  };
  auto bad = good;
  put_u32(bad, 60, 4);  // announces one value more than it holds
  EXPECT_NE(error(bad).find("announces"), std::string::npos);
  bad = good;
  for (int i = 0; i < 32; ++i) bad[76 + 32 + i] = 0xff;
  EXPECT_NE(error(bad).find("value 1"), std::string::npos);
  bad = good;
  bad[28 + 31] = 0x31;
  EXPECT_NE(error(bad).find("prime"), std::string::npos);
  bad = good;
  std::copy_n("r1cs", 4, bad.begin());
  EXPECT_NE(error(bad).find("magic"), std::string::npos);
  bad = good;
  bad.resize(bad.size() + 32);  // one value more than the section holds, after it
  EXPECT_NE(error(bad).find("32 bytes after the last section"), std::string::npos);
  bad = good;
  put_u32(bad, 24, 48);
  EXPECT_EQ(error(bad), "wtns file: values of 48 bytes (expected 32)");
  std::vector<uint8_t> header = header_of(good);
  EXPECT_EQ(error(with_header(good, {header.begin(), header.begin() + 2})),
            "wtns file: truncated header");
  EXPECT_EQ(error(with_header(good, {header.begin(), header.end() - 1})),
            "wtns file: truncated header");
  header.push_back(0);
  EXPECT_EQ(error(with_header(good, header)), "wtns file: header section is too long");
  // version 1 files have the same layout and are accepted
  bad = good;
  put_u32(bad, 4, 1);
  EXPECT_TRUE(read_wtns_file(bad).ok());
}

}  // namespace
}  // namespace enygma
