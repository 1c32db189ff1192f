#include "support/circuit_forgeries.hpp"

#include <initializer_list>
#include <map>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/primitives/babyjubjub.hpp"

namespace enygma::test {

namespace {

constexpr U256 kL = BjjScalarParams::kModulus;
constexpr std::string_view kRecomposition = "x == q*l + r";  // core/circuit/mod_l.cpp

// "R5 hs[0]/mod l/r/run" -> {"R5 hs[0]/mod l/r", "run"}.
std::pair<std::string_view, std::string_view> split_label(std::string_view label) {
  const size_t slash = label.rfind('/');
  if (slash == std::string_view::npos) return {std::string_view(), label};
  return {label.substr(0, slash), label.substr(slash + 1)};
}

// The step labels of compare.cpp's bound_walk: one per bit, and the runs between them.
bool is_bit_step(std::string_view s) {
  return s == "boolean" || s == "bit <= bound" || s == "bit <= tighter" || s == "bit <= both";
}
bool is_run_step(std::string_view s) {
  return s == "run" || s == "run2" || s == "run2 start";
}

// The wire of a row that is exactly one wire with coefficient 1.
std::optional<uint32_t> single_wire(const SparseMatrix& m, size_t row) {
  const auto terms = m.row(row);
  if (terms.size() != 1 || !(terms[0].coeff == Fr::one())) return std::nullopt;
  return terms[0].wire;
}

// The concatenation (+= only: g++ 12 warns, -Wrestrict, a false positive, on operator+ chains).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

void set_bit(U256& x, unsigned i) {
  x.w[i / 64] |= uint64_t(1) << (i % 64);
}

// The integer of walk bits in the witness (nullopt if one is not 0 or 1).
std::optional<U256> bits_value(std::span<const uint32_t> bits, std::span<const Fr> witness) {
  U256 v;
  for (size_t i = 0; i < bits.size(); ++i) {
    const Fr& b = witness[bits[i]];
    if (b == Fr::one()) {
      set_bit(v, unsigned(i));
    } else if (!b.is_zero()) {
      return std::nullopt;
    }
  }
  return v;
}

void force_bits(std::vector<ForcedWire>& out, std::span<const uint32_t> bits, const U256& v) {
  for (size_t i = 0; i < bits.size(); ++i) {
    out.push_back({bits[i], v.bit(unsigned(i)) ? Fr::one() : Fr::zero()});
  }
}

std::string decimal(const U256& x) {
  return Fr::from_canonical(x) ? Fr::from_canonical(x)->to_decimal() : std::string("(>= p)");
}

// The walk made of constraints [first, end) (one scope), or an error.
std::optional<BoundWalk> read_walk(const R1cs& r1cs, size_t first, size_t end, std::string& error) {
  BoundWalk w;
  w.scope = std::string(split_label(r1cs.labels[first]).first);
  w.first = first;
  w.last = end - 1;
  std::vector<std::pair<size_t, std::string_view>> steps;  // the bit steps, top bit first
  for (size_t c = first; c < end; ++c) {
    const std::string_view step = split_label(r1cs.labels[c]).second;
    if (is_bit_step(step)) steps.emplace_back(c, step);
  }
  const size_t n = steps.size();
  if (n == 0 || n > 254 || steps[0].second != "boolean") {
    error = cat({"a bound walk of an unknown shape: ", w.scope});
    return std::nullopt;
  }
  w.bits.resize(n);
  int m = -1;  // a dual walk's first position (from the top) where the bounds differ
  for (size_t k = 0; k < n; ++k) {
    const unsigned pos = unsigned(n - 1 - k);
    const auto [c, step] = steps[k];
    // "boolean": bit * (1 - bit) = 0; the others: (1 - runs - bit) * bit = 0.
    const std::optional<uint32_t> bit =
        step == "boolean" ? single_wire(r1cs.a, c) : single_wire(r1cs.b, c);
    if (!bit) {
      error = cat({"a bound walk step without its bit: ", r1cs.labels[c]});
      return std::nullopt;
    }
    w.bits[pos] = *bit;
    if (step == "boolean" || step == "bit <= tighter") set_bit(w.bound, pos);
    if (step == "bit <= tighter" && m < 0) m = int(pos);
    if (step == "bit <= both" && m < 0) {
      error = cat({"a dual bound walk without its first tighter step: ", w.scope});
      return std::nullopt;
    }
  }
  if (m >= 0) {
    U256 t;
    for (size_t k = 0; k < n; ++k) {
      const unsigned pos = unsigned(n - 1 - k);
      const std::string_view step = steps[k].second;
      const bool one =
          int(pos) > m ? w.bound.bit(pos) : step == "boolean" || step == "bit <= bound";
      if (one) set_bit(t, pos);
    }
    w.tighter = t;
  }
  return w;
}

bool holds(const R1cs& r1cs, size_t c, std::span<const Fr> w) {
  return r1cs.a.dot(c, w) * r1cs.b.dot(c, w) == r1cs.c.dot(c, w);
}

}  // namespace

CircuitInstances find_instances(const R1cs& r1cs) {
  CircuitInstances out;
  const size_t n = r1cs.num_constraints();
  if (r1cs.labels.size() != n) {
    out.error = "the R1CS has no labels (build it in shape mode)";
    return out;
  }
  // Walks: maximal runs of consecutive constraints of one scope whose steps are walk steps, with
  // at least one "bit <= ..." (alloc_bits' plain booleans are not walks).
  std::map<std::string, size_t, std::less<>> walk_by_scope;
  for (size_t i = 0; i < n;) {
    const auto [scope, step] = split_label(r1cs.labels[i]);
    if (!is_bit_step(step) && !is_run_step(step)) {
      ++i;
      continue;
    }
    size_t j = i;
    bool bounded = false;
    for (; j < n; ++j) {
      const auto [s, st] = split_label(r1cs.labels[j]);
      if (s != scope || !(is_bit_step(st) || is_run_step(st))) break;
      bounded = bounded || st.rfind("bit <= ", 0) == 0;
    }
    if (bounded) {
      std::optional<BoundWalk> w = read_walk(r1cs, i, j, out.error);
      if (!w) return out;
      walk_by_scope[w->scope] = out.walks.size();
      out.walks.push_back(std::move(*w));
    }
    i = j;
  }
  // Reductions: "<scope>/x == q*l + r"; its bits from the recomposition's A row.
  const Fr l = *Fr::from_canonical(kL);
  std::vector<bool> remainder_walk(out.walks.size(), false);
  for (size_t c = 0; c < n; ++c) {
    const auto [scope, step] = split_label(r1cs.labels[c]);
    if (step != kRecomposition) continue;
    ModLReduction red;
    red.scope = std::string(scope);
    red.recomposition = c;
    std::map<unsigned, uint32_t> q_bits, r_bits;
    for (const R1csTerm& t : r1cs.a.row(c)) {
      bool found = false;
      Fr weight = Fr::one();
      for (unsigned i = 0; i < 254 && !found; ++i, weight = weight.dbl()) {
        if (t.coeff == weight) {
          found = r_bits.emplace(i, t.wire).second;
        } else if (i < 8 && t.coeff == weight * l) {
          found = q_bits.emplace(i, t.wire).second;
        }
      }
      if (!found) {
        out.error =
            cat({red.scope, ": a term of the recomposition that is no quotient or remainder bit"});
        return out;
      }
    }
    // The bits in order: 0, 1, 2, ... with no gap.
    auto in_order = [](const std::map<unsigned, uint32_t>& bits, std::vector<uint32_t>& into) {
      for (const auto& [i, wire] : bits) {
        if (i != into.size()) return false;
        into.push_back(wire);
      }
      return true;
    };
    if (!in_order(q_bits, red.quotient_bits) || !in_order(r_bits, red.remainder_bits)) {
      out.error = cat({red.scope, ": quotient or remainder bits with a gap"});
      return out;
    }
    const auto it = walk_by_scope.find(cat({red.scope, "/r"}));
    if (it != walk_by_scope.end()) {
      if (out.walks[it->second].bits != red.remainder_bits) {
        out.error = cat({red.scope, ": its walk is not over its remainder's bits"});
        return out;
      }
      red.walk = it->second;
      remainder_walk[it->second] = true;
    }
    out.reductions.push_back(std::move(red));
  }
  U256 l_minus_1;
  sub_borrow(l_minus_1, kL, U256::from_u64(1));
  for (size_t i = 0; i < out.walks.size(); ++i) {
    if (remainder_walk[i]) continue;
    if (out.walks[i].tighter) {
      out.error = cat({"a dual bound walk outside a reduction mod l: ", out.walks[i].scope});
      return out;
    }
    if (out.walks[i].bits.size() >= Fr::kModulus.bit_length()) out.p_alias_walks.push_back(i);
    if (out.walks[i].bound == l_minus_1) out.l_alias_walks.push_back(i);
  }
  return out;
}

std::vector<ForgeryCase> wrapped_representations(const R1cs& r1cs, const CircuitInstances& inst,
                                                 size_t i, std::span<const Fr> witness) {
  const ModLReduction& red = inst.reductions[i];
  const Fr l = *Fr::from_canonical(kL);
  const Fr x = r1cs.c.dot(red.recomposition, witness);
  unsigned q = 0;
  for (size_t b = 0; b < red.quotient_bits.size(); ++b) {
    if (witness[red.quotient_bits[b]] == Fr::one()) q |= 1u << b;
  }
  std::vector<ForgeryCase> out;
  for (unsigned qf = 0; qf < (1u << red.quotient_bits.size()); ++qf) {
    if (qf == q) continue;
    const U256 r = (x - Fr::from_u64(qf) * l).to_u256();       // x == qf*l + r in F_p
    if (r.bit_length() > red.remainder_bits.size()) continue;  // not in the remainder's bits
    ForgeryCase c;
    std::ostringstream what;
    what << red.scope << ": x = " << x.to_decimal() << " (q = " << q << "), forged q' = " << qf
         << ", r' = x - q'*l " << (qf < q ? "= r + (q - q')*l" : "mod p = r - (q' - q)*l + p")
         << " = " << decimal(r);
    c.what = what.str();
    for (size_t b = 0; b < red.quotient_bits.size(); ++b) {
      c.forced.push_back({red.quotient_bits[b], (qf >> b) & 1 ? Fr::one() : Fr::zero()});
    }
    force_bits(c.forced, red.remainder_bits, r);
    c.walk = red.walk;
    c.walk_scope = cat({red.scope, "/r"});
    c.must_hold = red.recomposition;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<ForgeryCase> walk_aliases(const CircuitInstances& inst, size_t i,
                                      std::span<const Fr> witness, bool modulus_p) {
  const BoundWalk& walk = inst.walks[i];
  std::vector<ForgeryCase> out;
  const std::optional<U256> v = bits_value(walk.bits, witness);
  if (!v) return out;
  U256 alias = *v;
  for (unsigned m = 1;; ++m) {
    if (add_carry(alias, alias, modulus_p ? Fr::kModulus : kL) != 0) break;
    if (alias.bit_length() > walk.bits.size()) break;
    ForgeryCase c;
    std::ostringstream what;
    what << walk.scope << ": v = " << decimal(*v) << ", forged bits of v + " << m
         << (modulus_p ? "*p" : "*l");
    c.what = what.str();
    force_bits(c.forced, walk.bits, alias);
    c.walk = i;
    c.walk_scope = walk.scope;
    out.push_back(std::move(c));
  }
  return out;
}

std::string refused_by_its_walk(const Forger& forger, const CircuitInstances& inst,
                                const ForgeryCase& c, std::span<const Fr> witness) {
  const R1cs& r1cs = forger.r1cs();
  const Forgery f = forger.forge(witness, c.forced);
  std::ostringstream out;
  if (c.must_hold && !holds(r1cs, *c.must_hold, f.witness)) {
    out << c.what << ": the forged witness breaks '" << r1cs.labels[*c.must_hold]
        << "' (not the coordinated forgery meant: a bug of the test)";
  } else if (!f.first_unsatisfied) {
    out << c.what << ": ACCEPTED, the forged witness satisfies every constraint";
  } else if (!c.walk) {
    out << c.what << ": first refused at constraint " << *f.first_unsatisfied << " '" << f.label
        << "', and there is no bound walk '" << c.walk_scope << "'";
  } else {
    const BoundWalk& walk = inst.walks[*c.walk];
    if (*f.first_unsatisfied < walk.first || *f.first_unsatisfied > walk.last) {
      out << c.what << ": first refused at constraint " << *f.first_unsatisfied << " '" << f.label
          << "', outside its bound walk '" << walk.scope << "' (constraints " << walk.first << ".."
          << walk.last << ")";
    }
  }
  return out.str();
}

std::string instance_group(const std::string& scope) {
  std::string out;
  for (size_t i = 0; i < scope.size(); ++i) {
    out += scope[i];
    if (scope[i] != '[') continue;
    size_t j = i + 1;
    while (j < scope.size() && scope[j] >= '0' && scope[j] <= '9') ++j;
    if (j > i + 1 && j < scope.size() && scope[j] == ']') {
      out += '*';
      i = j - 1;
    }
  }
  return out;
}

}  // namespace enygma::test
