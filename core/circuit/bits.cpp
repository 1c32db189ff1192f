#include "core/circuit/bits.hpp"

#include <sodium.h>

#include <cstdlib>

#include "core/circuit/compare.hpp"

namespace enygma::circuit {

void enforce_boolean(CircuitBuilder& b, const Lc& x, std::string_view label) {
  b.enforce_lazy([&] { return std::tuple{x, Lc::constant(1) - x, Lc()}; }, label);
}

Lc pack_bits(std::span<const Var> bits) {
  if (bits.empty()) return Lc();
  const CircuitBuilder& b = *bits[0].builder;
  Fr weight = Fr::one();
  if (b.records_shape()) {
    Lc out;
    for (const Var& bit : bits) {
      out.add_var(bit, weight);
      weight = weight.dbl();
    }
    return out;
  }
  // Witness only: sum the weights of the bits that are 1 with a mask instead of a product per
  // bit (and no branch on the secret bit). A non-boolean "bit" (an invalid witness) is
  // multiplied in so that the value stays the true combination.
  Fr value = Fr::zero();
  for (const Var& bit : bits) {
    const Fr& v = bit.value();
    const bool boolean = v.is_zero() || v == Fr::one();
    if (boolean) {
      const uint64_t mask = 0 - uint64_t(!v.is_zero());
      Fr masked;
      for (int i = 0; i < 4; ++i) masked.limbs[i] = weight.limbs[i] & mask;
      value += masked;
    } else {
      value += weight * v;
    }
    weight = weight.dbl();
  }
  return Lc::value_only(value);
}

std::vector<Var> alloc_bits(CircuitBuilder& b, const Fr& value, unsigned n,
                            std::string_view label) {
  if (n == 0 || n > 252) std::abort();
  CircuitBuilder::Scope scope(b, label);
  std::vector<Var> bits;
  bits.reserve(n);
  U256 x = value.to_u256();
  Fr low = Fr::zero(), weight = Fr::one();
  for (unsigned i = 0; i + 1 < n; ++i) {
    const bool bit = x.bit(i);
    if (bit) low += weight;
    bits.push_back(b.private_wire(bit ? Fr::one() : Fr::zero()));
    weight = weight.dbl();
  }
  // weight == 2^(n-1): the top wire takes the rest of the value (see the header), divided by
  // 2^(n-1) = multiplied by (1/2)^(n-1), 1/2 = (p + 1)/2.
  static constexpr Fr kHalf =
      Fr::constant("10944121435919637611123202872628637544274182200208017171849102093287904247809");
  bits.push_back(b.private_wire((value - low) * kHalf.pow(U256::from_u64(n - 1))));
  sodium_memzero(&x, sizeof x);  // the secret value's integer and its low part
  sodium_memzero(&low, sizeof low);
  for (const Var& bit : bits) enforce_boolean(b, bit, "boolean");
  return bits;
}

std::vector<Var> to_bits(CircuitBuilder& b, const Lc& x, unsigned n, std::string_view label) {
  std::vector<Var> bits = alloc_bits(b, x.value(), n, label);
  CircuitBuilder::Scope scope(b, label);
  b.enforce_equal(pack_bits(bits), x, "recompose");
  return bits;
}

std::vector<Var> alloc_bits_canonical(CircuitBuilder& b, const Fr& value, std::string_view label) {
  U256 p_minus_1 = Fr::kModulus;
  p_minus_1.w[0] -= 1;  // p is odd: no borrow
  U256 x = value.to_u256();
  std::vector<Var> bits = alloc_bits_at_most(b, x, p_minus_1, label);
  sodium_memzero(&x, sizeof x);
  return bits;
}

std::vector<Var> to_bits_canonical(CircuitBuilder& b, const Lc& x, std::string_view label) {
  std::vector<Var> bits = alloc_bits_canonical(b, x.value(), label);
  CircuitBuilder::Scope scope(b, label);
  b.enforce_equal(pack_bits(bits), x, "recompose");
  return bits;
}

}  // namespace enygma::circuit
