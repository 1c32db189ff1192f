// Secrets take constant time: the code that handles the prover's blinding factors, the setup's
// toxic waste and the wallets' keys (scalar multiplication by a secret, reduction of random
// bytes to a field element) has no branch and no memory address that depends on the secret.
//
// Each ConstantTime test marks its secret inputs undefined for Valgrind's memcheck (a no-op when
// the program does not run under Valgrind), computes, marks the result defined again and compares
// it with a variable-time reference. The CTest test constant_time_valgrind runs these tests under
// memcheck, which fails on any branch or address computed from an undefined value; its canary
// (ConstantTimeCanary, expected to fail there) shows that memcheck does see such a branch. Without
// Valgrind (the plain unit test, the sanitizer build) they check the results only.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "support/test_rng.hpp"

#if __has_include(<valgrind/memcheck.h>) && !defined(__EMSCRIPTEN__)
#include <valgrind/memcheck.h>
#define ENYGMA_MARK_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define ENYGMA_MARK_PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#else
#define ENYGMA_MARK_SECRET(p, n) ((void)(p), (void)(n))
#define ENYGMA_MARK_PUBLIC(p, n) ((void)(p), (void)(n))
#endif

namespace enygma {
namespace {

template <class T>
void mark_secret(T& x) {
  ENYGMA_MARK_SECRET(&x, sizeof x);
}
template <class T>
void mark_public(T& x) {
  ENYGMA_MARK_PUBLIC(&x, sizeof x);
}

U256 minus(const U256& a, uint64_t b) {
  U256 r;
  sub_borrow(r, a, U256::from_u64(b));
  return r;
}

// Scalars whose 4-bit windows are all zero but one, none zero, or anything: the old windowed
// multiplication skipped an addition for every zero window.
std::vector<U256> scalars(uint64_t seed) {
  const U256 n = Fr::kModulus;
  U256 all_ones;
  for (auto& w : all_ones.w) w = ~uint64_t(0);
  std::vector<U256> out = {U256::from_u64(0),
                           U256::from_u64(1),
                           U256::from_u64(2),
                           U256::from_u64(15),
                           U256::from_u64(16),
                           minus(n, 1),
                           n,
                           minus(n, 2),
                           all_ones};
  U256 no_zero_window;
  for (auto& w : no_zero_window.w) w = 0x1111111111111111ull;
  no_zero_window.w[3] = 0x2111111111111111ull;  // below n
  out.push_back(no_zero_window);
  test::TestRng rng(seed);
  for (int i = 0; i < 4; ++i) out.push_back(rng.field<Fr>().to_u256());
  return out;
}

template <class J>
void mul_secret_is_constant_time(uint64_t seed) {
  test::TestRng rng(seed);
  const std::vector<J> points = {J::generator(), J::generator().mul_vartime(rng.u256()),
                                 J::infinity()};
  for (const J& point : points) {
    for (const U256& k : scalars(seed)) {
      U256 secret_k = k;
      J secret_point = point;
      mark_secret(secret_k);
      mark_secret(secret_point);
      J got = secret_point.mul_secret(secret_k);
      mark_public(got);
      EXPECT_EQ(got, point.mul_vartime(k)) << to_decimal(k);
      EXPECT_TRUE(got.is_on_curve());
    }
  }
}

TEST(ConstantTime, G1MulSecret) {
  mul_secret_is_constant_time<G1>(11);
}

TEST(ConstantTime, G2MulSecret) {
  mul_secret_is_constant_time<G2>(12);
}

// The reference: the remainder by repeated subtraction (variable time).
template <class F>
F slow_reduce(U256 x) {
  while (cmp(x, F::kModulus) >= 0) sub_borrow(x, x, F::kModulus);
  return *F::from_canonical(x);
}

template <class F>
void reduction_is_constant_time(uint64_t seed) {
  test::TestRng rng(seed);
  std::vector<std::array<uint8_t, 64>> inputs(6);
  inputs[1].fill(0xff);
  u256_to_le_bytes(F::kModulus, inputs[2].data());                 // m, 0
  u256_to_le_bytes(minus(F::kModulus, 1), inputs[3].data() + 32);  // 0, m - 1
  for (size_t i = 4; i < inputs.size(); ++i) {
    for (auto& b : inputs[i]) b = uint8_t(rng.u256().w[0]);
  }
  const F two_256 = F::from_montgomery(F::kR2);  // the value R = 2^256 mod m
  for (const auto& in : inputs) {
    const F want = slow_reduce<F>(u256_from_le_bytes(in.data())) +
                   slow_reduce<F>(u256_from_le_bytes(in.data() + 32)) * two_256;
    std::array<uint8_t, 64> secret = in;
    mark_secret(secret);
    F got = F::from_wide_le_bytes(secret.data());
    mark_public(got);
    EXPECT_EQ(got, want);
    U256 half = u256_from_le_bytes(in.data());
    mark_secret(half);
    F got_half = F::from_u256_reduce(half);
    mark_public(got_half);
    EXPECT_EQ(got_half, slow_reduce<F>(u256_from_le_bytes(in.data())));
  }
}

TEST(ConstantTime, RandomBytesToAFieldElement) {
  reduction_is_constant_time<Fr>(21);
  reduction_is_constant_time<Fp>(22);
  reduction_is_constant_time<BjjScalar>(23);  // wallet keys: up to 42 subtractions before
}

// Under Valgrind this test must fail (constant_time_valgrind_canary expects it to): a branch on a
// value marked secret. Without Valgrind it passes.
TEST(ConstantTimeCanary, ABranchOnASecretIsSeen) {
  volatile uint64_t sink = 0;
  uint64_t secret = 5;
  mark_secret(secret);
  if (secret > 3) {
    sink = 1;
  } else {
    sink = 2;
  }
  EXPECT_NE(sink, 0u);
}

}  // namespace
}  // namespace enygma
