// Wires and linear combinations of wires, the values circuits are written in.
//
// An Lc is sum(coeff_i * wire_i) + constant. Linear relations cost nothing in R1CS until a value
// must be multiplied, so gadgets keep values symbolic as long as they can (bit recompositions,
// Poseidon's linear layers, negated coordinates).
//
// An Lc carries its value (the witness) and, only when the builder records the shape, its
// terms: in witness mode no term vector is ever allocated. Terms are kept sorted by wire with
// duplicates merged and zero coefficients dropped, so rows are canonical and deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/field/fr.hpp"
#include "core/r1cs/r1cs.hpp"

namespace enygma::circuit {

class CircuitBuilder;

// A handle to one wire of a builder.
struct Var {
  uint32_t index = 0;
  const CircuitBuilder* builder = nullptr;
  const Fr& value() const;  // the witness value (zero when only the shape is built)
};

class Lc {
 public:
  Lc() = default;
  Lc(const Var& v);  // NOLINT(google-explicit-constructor): 1 * v
  static Lc constant(const Fr& c);
  static Lc constant(uint64_t c) { return constant(Fr::from_u64(c)); }
  // A combination known only by its value: for witness-mode fast paths of gadgets, when the
  // builder does not record the shape (it has no terms and no constant part).
  static Lc value_only(const Fr& v) {
    Lc r;
    r.value_ = v;
    return r;
  }
  ~Lc() { wipe_value(); }
  Lc(const Lc&) = default;
  Lc(Lc&&) noexcept = default;
  Lc& operator=(const Lc&) = default;
  Lc& operator=(Lc&&) noexcept = default;

  const Fr& value() const { return value_; }
  const Fr& constant_term() const { return constant_; }
  std::span<const R1csTerm> terms() const { return terms_; }

  Lc& add_scaled(const Lc& o, const Fr& k);  // += k * o
  Lc& add_var(const Var& v, const Fr& k);    // += k * v
  Lc& add_constant(const Fr& c);
  Lc& operator+=(const Lc& o);
  Lc& operator-=(const Lc& o);
  Lc& operator*=(const Fr& k);

  friend Lc operator+(Lc a, const Lc& b) { return a += b; }
  friend Lc operator-(Lc a, const Lc& b) { return a -= b; }
  friend Lc operator-(Lc a) { return a *= -Fr::one(); }
  friend Lc operator*(Lc a, const Fr& k) { return a *= k; }
  friend Lc operator*(const Fr& k, Lc a) { return a *= k; }
  friend Lc operator+(Lc a, const Fr& c) { return a.add_constant(c); }
  friend Lc operator-(Lc a, const Fr& c) { return a.add_constant(-c); }

  // The row of this combination: (0, constant) first when nonzero, then the terms.
  void append_to_row(std::vector<R1csTerm>& row) const;

 private:
  // The value may be secret; a volatile store keeps the wipe from being optimized away (an Lc
  // is destroyed too often for a library call).
  void wipe_value() {
    volatile uint64_t* p = value_.limbs;
    p[0] = 0;
    p[1] = 0;
    p[2] = 0;
    p[3] = 0;
  }

  Fr value_ = Fr::zero();
  Fr constant_ = Fr::zero();
  std::vector<R1csTerm> terms_;
};

}  // namespace enygma::circuit
