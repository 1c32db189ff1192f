#include "core/r1cs/r1cs_file.hpp"

#include <algorithm>
#include <string>

#include "core/r1cs/iden3_binfile.hpp"

namespace enygma {

namespace {

constexpr uint32_t kHeaderSection = 1;
constexpr uint32_t kConstraintsSection = 2;
constexpr uint32_t kWireMapSection = 3;
constexpr uint32_t kCustomGatesListSection = 4;
constexpr uint32_t kCustomGatesUsesSection = 5;

Error r1cs_error(const std::string& message, const std::string& field) {
  return make_error("r1cs file: " + message, "r1cs", field);
}

void write_terms(ByteWriter& w, std::span<const R1csTerm> terms) {
  auto canonical = canonical_terms(terms);
  w.u32(uint32_t(canonical.size()));
  for (const auto& t : canonical) {
    w.u32(t.wire);
    iden3::write_le(w, t.coeff);
  }
}

}  // namespace

std::vector<R1csTerm> canonical_terms(std::span<const R1csTerm> terms) {
  std::vector<R1csTerm> sorted(terms.begin(), terms.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const R1csTerm& x, const R1csTerm& y) { return x.wire < y.wire; });
  std::vector<R1csTerm> out;
  out.reserve(sorted.size());
  for (const auto& t : sorted) {
    if (!out.empty() && out.back().wire == t.wire) {
      out.back().coeff += t.coeff;
    } else {
      out.push_back(t);
    }
  }
  std::erase_if(out, [](const R1csTerm& t) { return t.coeff.is_zero(); });
  return out;
}

std::vector<uint8_t> write_r1cs_file(const R1cs& r1cs, const R1csFileOptions& options) {
  iden3::BinWriter f("r1cs", 1, options.wire_map ? 3 : 2);
  ByteWriter& w = f.out();

  f.begin_section(kHeaderSection);
  w.u32(32);
  uint8_t prime[32];
  u256_to_le_bytes(Fr::kModulus, prime);
  w.bytes(prime, 32);
  w.u32(r1cs.num_wires);
  w.u32(0);  // outputs
  w.u32(r1cs.num_public);
  w.u32(options.num_private_inputs);
  w.u64(r1cs.num_wires);  // labels: one per wire
  w.u32(uint32_t(r1cs.num_constraints()));
  f.end_section();

  f.begin_section(kConstraintsSection);
  for (size_t i = 0; i < r1cs.num_constraints(); ++i) {
    write_terms(w, r1cs.a.row(i));
    write_terms(w, r1cs.b.row(i));
    write_terms(w, r1cs.c.row(i));
  }
  f.end_section();

  if (options.wire_map) {
    f.begin_section(kWireMapSection);
    for (uint32_t j = 0; j < r1cs.num_wires; ++j) w.u64(j);
    f.end_section();
  }
  return f.take();
}

Result<R1csFile> read_r1cs_file(std::span<const uint8_t> bytes) {
  auto file = iden3::parse_bin_file(bytes, "r1cs", 1, "r1cs", "r1cs file");
  if (!file) return file.error();
  if (iden3::has_section(*file, kCustomGatesListSection) ||
      iden3::has_section(*file, kCustomGatesUsesSection)) {
    return r1cs_error("custom gates (PLONK only) are not supported", "section 4");
  }

  R1csFile out;
  uint32_t num_constraints = 0;
  {
    auto body = iden3::unique_section(*file, kHeaderSection, "r1cs", "r1cs file");
    if (!body) return body.error();
    ByteReader r(*body);
    uint32_t n8 = 0, num_wires = 0;
    U256 prime;
    if (!r.u32(n8)) return r1cs_error("truncated header", "header");
    if (n8 != 32)
      return r1cs_error("field elements of " + std::to_string(n8) + " bytes (expected 32: BN254)",
                        "header.n8");
    if (!iden3::read_u256_le(r, prime) || !r.u32(num_wires) || !r.u32(out.num_outputs) ||
        !r.u32(out.num_public_inputs) || !r.u32(out.num_private_inputs) || !r.u64(out.num_labels) ||
        !r.u32(num_constraints)) {
      return r1cs_error("truncated header", "header");
    }
    if (r.remaining() != 0) return r1cs_error("header section is too long", "header");
    if (!iden3::prime_is<Fr>(prime)) {
      return r1cs_error("the prime is not the BN254 scalar field (bn128)", "header.prime");
    }
    if (num_wires == 0) return r1cs_error("no wires (wire 0 is the constant 1)", "header.nWires");
    const uint64_t num_public = uint64_t(out.num_outputs) + out.num_public_inputs;
    if (num_public + out.num_private_inputs >= num_wires) {
      return r1cs_error("more inputs and outputs than wires", "header.nWires");
    }
    out.r1cs.num_wires = num_wires;
    out.r1cs.num_public = uint32_t(num_public);
  }

  {
    auto body = iden3::unique_section(*file, kConstraintsSection, "r1cs", "r1cs file");
    if (!body) return body.error();
    ByteReader r(*body);
    // Every term takes 36 bytes: a bound on what to reserve that the file cannot inflate.
    std::vector<R1csTerm> terms;
    for (uint32_t i = 0; i < num_constraints; ++i) {
      SparseMatrix* matrices[3] = {&out.r1cs.a, &out.r1cs.b, &out.r1cs.c};
      for (int m = 0; m < 3; ++m) {
        const std::string where =
            "constraint " + std::to_string(i) + " " + std::string(1, char('A' + m));
        uint32_t count = 0;
        if (!r.u32(count) || count > r.remaining() / 36) {
          return r1cs_error("truncated at " + where, "constraints");
        }
        terms.resize(count);
        for (uint32_t t = 0; t < count; ++t) {
          U256 v;
          if (!r.u32(terms[t].wire) || !iden3::read_u256_le(r, v)) {
            return r1cs_error("truncated at " + where, "constraints");
          }
          if (terms[t].wire >= out.r1cs.num_wires) {
            return r1cs_error(where + " uses wire " + std::to_string(terms[t].wire) + " of " +
                                  std::to_string(out.r1cs.num_wires),
                              "constraints");
          }
          auto coeff = Fr::from_canonical(v);
          if (!coeff) return r1cs_error(where + " has a coefficient >= r", "constraints");
          terms[t].coeff = *coeff;
        }
        matrices[m]->append_row(terms);
      }
    }
    if (r.remaining() != 0) {
      return r1cs_error("constraints section is longer than its " +
                            std::to_string(num_constraints) + " constraints",
                        "constraints");
    }
  }

  if (iden3::has_section(*file, kWireMapSection)) {
    auto body = iden3::unique_section(*file, kWireMapSection, "r1cs", "r1cs file");
    if (!body) return body.error();
    if (uint64_t(body->size()) != uint64_t(out.r1cs.num_wires) * 8) {
      return r1cs_error("wire map has " + std::to_string(body->size() / 8) + " entries, not " +
                            std::to_string(out.r1cs.num_wires),
                        "map");
    }
    ByteReader r(*body);
    out.wire_labels.resize(out.r1cs.num_wires);
    for (auto& label : out.wire_labels) r.u64(label);
  }
  return out;
}

}  // namespace enygma
