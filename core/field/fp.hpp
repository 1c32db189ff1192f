// Fp: the base field of BN254 (coordinates of G1 and, through Fp2, of G2).
#pragma once

#include "core/field/prime_field.hpp"

namespace enygma {

struct FpParams {
  static constexpr U256 kModulus =
      u256_const("21888242871839275222246405745257275088696311157297823662689037894645226208583");
  static constexpr const char* kName = "Fp";
};
using Fp = PrimeField<FpParams>;

}  // namespace enygma
