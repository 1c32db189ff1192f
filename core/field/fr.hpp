// Fr: the scalar field of BN254 (circuit values, witnesses, NTT domains, MSM scalars).
#pragma once

#include "core/field/prime_field.hpp"

namespace enygma {

struct FrParams {
  static constexpr U256 kModulus =
      u256_const("21888242871839275222246405745257275088548364400416034343698204186575808495617");
  static constexpr const char* kName = "Fr";
};
using Fr = PrimeField<FrParams>;

}  // namespace enygma
