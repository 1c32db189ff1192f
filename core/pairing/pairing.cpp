#include "core/pairing/pairing.hpp"

namespace enygma {

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
  return final_exponentiation(
      miller_loop(std::span<const G1Affine>(&p, 1), std::span<const G2Affine>(&q, 1)));
}

bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q) {
  if (p.size() != q.size()) return false;
  return final_exponentiation(miller_loop(p, q)).is_one();
}

bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Prepared* const> q) {
  if (p.size() != q.size()) return false;
  return final_exponentiation(miller_loop(p, q)).is_one();
}

}  // namespace enygma
