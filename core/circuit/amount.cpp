#include "core/circuit/amount.hpp"

#include <sodium.h>

#include "core/circuit/bits.hpp"
#include "core/circuit/compare.hpp"

namespace enygma::circuit {

namespace {

constexpr U256 kAmountMax = u256_const("999999999999999999999999999999999999");  // 10^36 - 1

}  // namespace

Var alloc_amount(CircuitBuilder& b, const Fr& value, std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  const Var amount = b.private_wire(value);
  U256 x = value.to_u256();
  const std::vector<Var> bits = alloc_bits_at_most(b, x, kAmountMax, "bits <= 10^36 - 1");
  sodium_memzero(&x, sizeof x);  // a secret amount
  b.enforce_equal(pack_bits(bits), amount, "recompose");
  return amount;
}

}  // namespace enygma::circuit
