// G2 of BN254: the sextic D-type twist y^2 = x^3 + 3/(9 + u) over Fp2. Its order is r times a
// large cofactor, so points from untrusted input need the subgroup check (core/curve/g2_subgroup).
#pragma once

#include "core/curve/fp2.hpp"
#include "core/curve/short_weierstrass.hpp"
#include "core/field/fr.hpp"

namespace enygma {

struct G2Params {
  // b' = 3 / (9 + u); checked against its definition in tests/curve_test.cpp.
  static Fp2 b() {
    return {Fp::constant(
                "19485874751759354771024239261021720505790618469301721065564631296452457478373"),
            Fp::constant(
                "266929791119991161246907387137283842545076965332900288569378510910307636690")};
  }
  // The generator of EIP-197.
  static AffinePoint<Fp2, G2Params> generator() {
    return {{Fp::constant(
                 "10857046999023057135944570762232829481370756359578518086990519993285655852781"),
             Fp::constant(
                 "11559732032986387107991004021392285783925812861821192530917403151452391805634")},
            {Fp::constant(
                 "8495653923123431417604973247489272438418190587263600148770280649306958101930"),
             Fp::constant(
                 "4082367875863433681332203403145435568316851327593401208105741076214120093531")}};
  }
};
using G2Affine = AffinePoint<Fp2, G2Params>;
using G2 = JacobianPoint<Fp2, G2Params>;

}  // namespace enygma
