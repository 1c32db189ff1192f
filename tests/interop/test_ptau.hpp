// A prepared ("phase 2") powers-of-tau file in snarkjs's .ptau format, made natively from a
// KNOWN tau, alpha, beta: INSECURE, for tests only. `snarkjs powersoftau prepare phase2` needs
// many minutes in JavaScript for 2^14 and more on a shared 2-core machine; this takes seconds,
// so the transfer-circuit interop tests and scripts/bench-vs-snarkjs.sh can run a snarkjs
// `groth16 setup` on fresh machines. (The small random-circuit tests use a real snarkjs ptau.)
//
// Layout (iden3 container "ptau" version 1; points affine, Montgomery form, see zkey_import.hpp):
//   1  n8 (u32, 32) | q (32 bytes LE) | power (u32) | ceremony power (u32)
//   2  tau^i G1,        i < 2^(power+1) - 1
//   3  tau^i G2,        i < 2^power
//   4  alpha tau^i G1,  i < 2^power
//   5  beta tau^i G1,   i < 2^power
//   6  beta G2
//   7  contributions: count (u32) = 0
//   12 for p = 0 .. power+1: L^(2^p)_i(tau) G1, i < 2^p (the Lagrange basis of the 2^p-th roots)
//      where the last level is computed, as snarkjs does, from section 2 with its missing
//      2^(power+1)-th power taken as 0: L_i(tau) - omega^i tau^(N-1) / N
//   13 for p = 0 .. power: L^(2^p)_i(tau) G2
//   14, 15 for p = 0 .. power: alpha L^(2^p)_i(tau) G1, beta L^(2^p)_i(tau) G1
#pragma once

#include <sodium.h>

#include <span>
#include <vector>

#include "core/field/batch_inverse.hpp"
#include "core/groth16/fixed_base.hpp"
#include "core/poly/ntt.hpp"
#include "core/r1cs/iden3_binfile.hpp"

namespace enygma::test {

inline void ptau_put_fp(ByteWriter& w, const Fp& x) {
  uint8_t b[32];
  u256_to_le_bytes(x.montgomery(), b);
  w.bytes(b, 32);
}
inline void ptau_put(ByteWriter& w, const G1Affine& p) {
  ptau_put_fp(w, p.x);
  ptau_put_fp(w, p.y);
}
inline void ptau_put(ByteWriter& w, const G2Affine& p) {
  ptau_put_fp(w, p.x.c0);
  ptau_put_fp(w, p.x.c1);
  ptau_put_fp(w, p.y.c0);
  ptau_put_fp(w, p.y.c1);
}

// L^(n)_i(tau) for n = 2^log_n, i < n: omega^i (tau^n - 1) / (n (tau - omega^i)); truncated:
// minus omega^i tau^(n-1) / n (see the file comment).
inline std::vector<Fr> lagrange_at(const Fr& tau, unsigned log_n, bool truncated) {
  const size_t n = size_t(1) << log_n;
  Fr omega = NttDomain::root_of_unity_max();
  for (unsigned i = log_n; i < Fr::kTwoAdicity; ++i) omega = omega.square();
  std::vector<Fr> roots(n), den(n), scratch(n);
  const Fr n_fr = Fr::from_u64(n);
  Fr w = Fr::one();
  for (size_t i = 0; i < n; ++i) {
    roots[i] = w;
    den[i] = n_fr * (tau - w);
    w *= omega;
  }
  batch_inverse(den.data(), n, scratch.data());
  const Fr tau_n = tau.pow(U256::from_u64(n));
  const Fr tau_n1 = tau.pow(U256::from_u64(n - 1));
  const Fr n_inv = n_fr.inverse();
  std::vector<Fr> out(n);
  for (size_t i = 0; i < n; ++i) {
    out[i] = roots[i] * (tau_n - Fr::one()) * den[i];
    if (truncated) out[i] -= roots[i] * tau_n1 * n_inv;
  }
  return out;
}

inline std::vector<uint8_t> make_test_ptau(unsigned power, std::span<const uint8_t> seed,
                                           ThreadPool& pool) {
  // tau, alpha, beta from the seed (BLAKE2b-512 of seed || index).
  Fr secrets[3];
  for (uint8_t i = 0; i < 3; ++i) {
    std::vector<uint8_t> msg(seed.begin(), seed.end());
    msg.push_back(i);
    uint8_t wide[64];
    crypto_generichash(wide, sizeof wide, msg.data(), msg.size(), nullptr, 0);
    secrets[i] = Fr::from_wide_le_bytes(wide);
  }
  const Fr tau = secrets[0], alpha = secrets[1], beta = secrets[2];
  const FixedBaseTable<G1> g1(G1::generator());
  const FixedBaseTable<G2> g2(G2::generator());

  iden3::BinWriter f("ptau", 1, 11);
  ByteWriter& w = f.out();
  auto put_g1 = [&](const std::vector<Fr>& scalars) {
    std::vector<G1Affine> pts(scalars.size());
    g1.mul_many(scalars.data(), scalars.size(), pts.data(), pool);
    for (const auto& p : pts) ptau_put(w, p);
  };
  auto put_g2 = [&](const std::vector<Fr>& scalars) {
    std::vector<G2Affine> pts(scalars.size());
    g2.mul_many(scalars.data(), scalars.size(), pts.data(), pool);
    for (const auto& p : pts) ptau_put(w, p);
  };
  auto powers = [&](size_t count, const Fr& factor) {
    std::vector<Fr> v(count);
    Fr x = factor;
    for (size_t i = 0; i < count; ++i, x *= tau) v[i] = x;
    return v;
  };
  auto scaled = [](std::vector<Fr> v, const Fr& factor) {
    for (auto& x : v) x *= factor;
    return v;
  };

  f.begin_section(1);
  w.u32(32);
  uint8_t q[32];
  u256_to_le_bytes(Fp::kModulus, q);
  w.bytes(q, 32);
  w.u32(power);
  w.u32(power);
  f.end_section();

  const size_t n = size_t(1) << power;
  f.begin_section(2);
  put_g1(powers(2 * n - 1, Fr::one()));
  f.end_section();
  f.begin_section(3);
  put_g2(powers(n, Fr::one()));
  f.end_section();
  f.begin_section(4);
  put_g1(powers(n, alpha));
  f.end_section();
  f.begin_section(5);
  put_g1(powers(n, beta));
  f.end_section();
  f.begin_section(6);
  put_g2({beta});
  f.end_section();
  f.begin_section(7);
  w.u32(0);
  f.end_section();

  f.begin_section(12);
  for (unsigned p = 0; p <= power + 1; ++p) put_g1(lagrange_at(tau, p, p == power + 1));
  f.end_section();
  f.begin_section(13);
  for (unsigned p = 0; p <= power; ++p) put_g2(lagrange_at(tau, p, false));
  f.end_section();
  f.begin_section(14);
  for (unsigned p = 0; p <= power; ++p) put_g1(scaled(lagrange_at(tau, p, false), alpha));
  f.end_section();
  f.begin_section(15);
  for (unsigned p = 0; p <= power; ++p) put_g1(scaled(lagrange_at(tau, p, false), beta));
  f.end_section();
  return f.take();
}

}  // namespace enygma::test
