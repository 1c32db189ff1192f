// CircuitBuilder runs ONE circuit definition in one of three modes:
//   kShape   records the constraints (the R1CS); values are absent (zero),
//   kWitness computes the wire values only (fast: linear combinations carry values, no terms),
//   kShapeAndWitness does both and checks every constraint as it is added (tests).
// The same code path allocates the same wires in the same order in every mode, so a witness
// computed in kWitness mode fits the R1CS recorded in kShape mode. Gadgets must therefore never
// branch on witness values when deciding which wires or constraints to create.
//
// Wire layout (core/r1cs/r1cs.hpp): 0 = the constant 1, then the public inputs (all allocated
// before the first private wire), then private wires.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/circuit/linear_combination.hpp"
#include "core/r1cs/r1cs.hpp"

namespace enygma::circuit {

enum class BuildMode : uint8_t { kShape = 1, kWitness = 2, kShapeAndWitness = 3 };

class CircuitBuilder {
 public:
  explicit CircuitBuilder(BuildMode mode);
  ~CircuitBuilder();
  CircuitBuilder(const CircuitBuilder&) = delete;
  CircuitBuilder& operator=(const CircuitBuilder&) = delete;

  bool records_shape() const { return (uint8_t(mode_) & 1) != 0; }
  bool computes_witness() const { return (uint8_t(mode_) & 2) != 0; }

  // A new public input (only before the first private wire) or private wire holding `value`
  // (ignored in kShape mode).
  Var public_input(const Fr& value);
  Var private_wire(const Fr& value);

  // <a> * <b> = <c>.
  void enforce(const Lc& a, const Lc& b, const Lc& c, std::string_view label);
  // a == b (one constraint: a * 1 = b).
  void enforce_equal(const Lc& a, const Lc& b, std::string_view label);
  // enforce(a, b, c) with make() -> std::tuple{a, b, c} called only when the shape is recorded:
  // for hot loops, where building the combinations in witness mode would cost more than the
  // values they carry.
  template <class MakeAbc>
  void enforce_lazy(MakeAbc&& make, std::string_view label) {
    if (!records_shape()) {
      ++num_constraints_;
      return;
    }
    const auto abc = make();
    enforce(std::get<0>(abc), std::get<1>(abc), std::get<2>(abc), label);
  }
  // Witness mode only (aborts otherwise): account for n constraints whose combinations a fast
  // path of a gadget does not build, so that num_constraints() agrees across modes.
  void skip_constraints(size_t n);
  // A new wire z = x * y.
  Var mul(const Lc& x, const Lc& y, std::string_view label);

  // Labels: constraints added while a Scope lives are labelled "<scope>/<scope>/<label>", e.g.
  // "R5 hs[2]/mod_l/r bit 17". Formatting happens only when the shape is recorded.
  class Scope {
   public:
    Scope(CircuitBuilder& b, std::string_view name, int index = -1);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CircuitBuilder& b_;
    size_t saved_length_;
  };

  // Capacity for the circuit about to be defined (a hint: more is allowed). Growing the
  // matrices of 40-byte terms or the witness by doubling copies them and touches fresh pages at
  // every step, which cost most of a build (and half of a witness) without it.
  struct SizeHint {
    size_t wires, constraints, terms_a, terms_b, terms_c;
  };
  void reserve(const SizeHint& hint);

  uint32_t num_wires() const { return num_wires_; }
  uint32_t num_public() const { return num_public_; }
  size_t num_constraints() const { return num_constraints_; }
  // Witness value of a wire (zero in kShape mode).
  const Fr& value(uint32_t wire) const;

  // In kShapeAndWitness mode: the first constraint whose values did not satisfy it.
  std::optional<size_t> first_violation() const { return first_violation_; }
  const std::string& first_violation_label() const { return first_violation_label_; }

  // The recorded constraint system (kShape / kShapeAndWitness).
  R1cs take_r1cs();
  // The witness (kWitness / kShapeAndWitness): num_wires values, [0] = 1. The caller wipes it.
  std::vector<Fr> take_witness();

 private:
  std::string label_for(std::string_view label) const;
  void grow_values();

  BuildMode mode_;
  uint32_t num_wires_ = 1;
  uint32_t num_public_ = 0;
  size_t num_constraints_ = 0;
  R1cs r1cs_;
  // Witness values. Grown by grow_values(), which wipes the buffer it leaves (a plain vector, so
  // that take_witness hands it over without a copy).
  std::vector<Fr> values_;
  std::string scope_;
  std::vector<R1csTerm> row_a_, row_b_, row_c_;  // scratch, reused
  std::optional<size_t> first_violation_;
  std::string first_violation_label_;
};

}  // namespace enygma::circuit
