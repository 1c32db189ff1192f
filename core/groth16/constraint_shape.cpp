#include "core/groth16/constraint_shape.hpp"

#include <unordered_map>

#include "core/r1cs/r1cs_digest.hpp"

namespace enygma {

namespace {

struct LimbsHash {
  size_t operator()(const std::array<uint64_t, 4>& x) const {
    uint64_t h = x[0] * 0x9e3779b97f4a7c15ull;
    h ^= x[1] + (h << 6) + (h >> 2);
    h ^= x[2] + (h << 6) + (h >> 2);
    h ^= x[3] + (h << 6) + (h >> 2);
    return size_t(h);
  }
};

std::array<uint64_t, 4> limbs_of(const Fr& x) {
  return {x.limbs[0], x.limbs[1], x.limbs[2], x.limbs[3]};
}

std::string check_matrix(const ConstraintShape::Matrix& m, size_t rows, uint32_t num_wires,
                         size_t table, const char* name) {
  const std::string what = std::string("matrix ") + name + ": ";
  if (m.row_start.size() != rows + 1 || m.row_start[0] != 0) return what + "wrong row count";
  if (m.wire.size() != m.coeff.size() || m.row_start[rows] != m.wire.size()) {
    return what + "term counts disagree";
  }
  for (size_t i = 0; i < rows; ++i) {
    if (m.row_start[i + 1] < m.row_start[i]) return what + "row starts decrease";
  }
  for (size_t t = 0; t < m.wire.size(); ++t) {
    if (m.wire[t] >= num_wires) return what + "a wire beyond the circuit's";
    if (m.coeff[t] >= table) return what + "a coefficient index beyond the table";
  }
  return {};
}

}  // namespace

ConstraintShape ConstraintShape::from_r1cs(const R1cs& r1cs) {
  ConstraintShape s;
  s.num_wires = r1cs.num_wires;
  s.num_public = r1cs.num_public;
  std::vector<Fr> coefficients = {Fr::one(), -Fr::one()};
  std::unordered_map<std::array<uint64_t, 4>, uint32_t, LimbsHash> index;
  index.emplace(limbs_of(Fr::one()), 0);
  index.emplace(limbs_of(-Fr::one()), 1);
  auto convert = [&](const SparseMatrix& in, Matrix& out) {
    out.row_start = in.row_start;
    std::vector<uint32_t> wire, coeff;
    wire.reserve(in.terms.size());
    coeff.reserve(in.terms.size());
    for (const R1csTerm& t : in.terms) {
      auto [it, added] = index.emplace(limbs_of(t.coeff), uint32_t(coefficients.size()));
      if (added) coefficients.push_back(t.coeff);
      wire.push_back(t.wire);
      coeff.push_back(it->second);
    }
    out.wire = std::move(wire);
    out.coeff = std::move(coeff);
  };
  convert(r1cs.a, s.a);
  convert(r1cs.b, s.b);
  convert(r1cs.c, s.c);
  s.coefficients = std::move(coefficients);
  return s;
}

std::string ConstraintShape::check() const {
  if (coefficients.size() < 2 || !(coefficients[0] == Fr::one()) ||
      !(coefficients[1] == -Fr::one())) {
    return "the coefficient table does not start with 1 and -1";
  }
  if (num_public >= num_wires) return "more public inputs than wires";
  if (a.row_start.empty()) return "matrix A: wrong row count";  // num_constraints() needs one
  const size_t rows = num_constraints();
  for (const auto& [m, name] : {std::pair{&a, "A"}, std::pair{&b, "B"}, std::pair{&c, "C"}}) {
    if (std::string e = check_matrix(*m, rows, num_wires, coefficients.size(), name); !e.empty()) {
      return e;
    }
  }
  return {};
}

// The same bytes as R1cs::digest of the circuit this shape was taken from.
std::array<uint8_t, 32> ConstraintShape::digest() const {
  std::vector<std::array<uint8_t, 32>> be(coefficients.size());
  for (size_t i = 0; i < coefficients.size(); ++i) coefficients[i].to_be_bytes(be[i].data());
  R1csDigestWriter d{num_wires, num_public, uint32_t(num_constraints())};
  for (const Matrix* m : {&a, &b, &c}) {
    d.row_starts(m->row_start);
    for (size_t t = 0; t < m->wire.size(); ++t) d.term(m->wire[t], be[m->coeff[t]].data());
  }
  return d.finish();
}

bool ConstraintShape::operator==(const ConstraintShape& o) const {
  auto same = [](const Matrix& x, const Matrix& y) {
    return x.row_start == y.row_start && x.wire == y.wire && x.coeff == y.coeff;
  };
  return num_wires == o.num_wires && num_public == o.num_public && coefficients == o.coefficients &&
         same(a, o.a) && same(b, o.b) && same(c, o.c);
}

}  // namespace enygma
