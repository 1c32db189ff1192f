#include "core/groth16/setup.hpp"

#include <sodium.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/field/batch_inverse.hpp"
#include "core/groth16/fixed_base.hpp"
#include "core/poly/evaluation_domain.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

size_t groth16_domain_size(const R1cs& r1cs, DomainSizes sizes) {
  const size_t rows = r1cs.num_constraints() + r1cs.num_public + 1;
  if (sizes == DomainSizes::kAny) return EvaluationDomain::size_for(rows);
  size_t n = 1;
  while (n < rows) n *= 2;
  return n;
}

namespace {

// The toxic waste and the values derived from it that give it back (tau^n leaves n candidates
// for tau), wiped however the setup ends (an allocation that throws included).
struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;
  Fr tau_n, gamma_inv, delta_inv, h_factor;
  ToxicWaste() = default;
  ToxicWaste(const ToxicWaste&) = delete;
  ToxicWaste& operator=(const ToxicWaste&) = delete;
  ~ToxicWaste() { sodium_memzero(this, sizeof *this); }
};

// Source of the toxic waste: the CSPRNG, or (insecure) an expansion of a public seed.
class WasteSource {
 public:
  WasteSource() = default;
  explicit WasteSource(std::span<const uint8_t> seed) : seeded_(true) {
    crypto_generichash(key_, sizeof key_, seed.data(), seed.size(), nullptr, 0);
  }
  ~WasteSource() { sodium_memzero(key_, sizeof key_); }

  Fr next_nonzero() {
    for (;;) {
      uint8_t wide[64];
      if (seeded_) {
        uint8_t msg[16] = "enygma-setup";
        memcpy(msg + 12, &counter_, 4);
        ++counter_;
        crypto_generichash(wide, sizeof wide, msg, sizeof msg, key_, sizeof key_);
      } else {
        randombytes_buf(wide, sizeof wide);
      }
      Fr x = Fr::from_wide_le_bytes(wide);
      sodium_memzero(wide, sizeof wide);
      if (!x.is_zero()) return x;
    }
  }

 private:
  bool seeded_ = false;
  uint8_t key_[32] = {};
  uint32_t counter_ = 0;
};

Groth16Keys setup_with(const R1cs& r1cs, WasteSource& source, bool insecure, ThreadPool& pool,
                       DomainSizes sizes) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  const size_t n = groth16_domain_size(r1cs, sizes);
  const size_t m = r1cs.num_constraints();
  const uint32_t npub = r1cs.num_public;
  const uint32_t nwires = r1cs.num_wires;
  const EvaluationDomain& domain = EvaluationDomain::shared(n);
  const Fr n_fr = Fr::from_u64(n);

  // Toxic waste; tau must avoid the 2n-th roots of unity (the Lagrange formulas divide by
  // tau - x for x in the domain and its odd coset).
  ToxicWaste tw;
  do {
    tw.tau = source.next_nonzero();
    tw.tau_n = tw.tau.pow(U256::from_u64(n));
  } while (tw.tau_n == Fr::one() || tw.tau_n == -Fr::one());
  tw.alpha = source.next_nonzero();
  tw.beta = source.next_nonzero();
  tw.gamma = source.next_nonzero();
  tw.delta = source.next_nonzero();

  // Lagrange basis of the n-th roots at tau: L_i(tau) = omega^i (tau^n - 1) / (n (tau - omega^i)).
  SecureVector<Fr> lagrange(n), scratch(n), roots(n);
  {
    Fr w = Fr::one();
    for (size_t i = 0; i < n; ++i) {
      roots[i] = w;
      lagrange[i] = n_fr * (tw.tau - w);
      w *= domain.omega();
    }
    batch_inverse(lagrange.data(), n, scratch.data());
    Fr zn = tw.tau_n - Fr::one();  // as secret as tau^n: it leaves tau n candidates
    for (size_t i = 0; i < n; ++i) lagrange[i] *= roots[i] * zn;
    sodium_memzero(&zn, sizeof zn);
  }

  // Per-wire polynomials at tau: u_j = A_j(tau), v_j = B_j(tau), w_j = C_j(tau).
  SecureVector<Fr> u(nwires, Fr::zero()), v(nwires, Fr::zero()), w(nwires, Fr::zero());
  for (size_t i = 0; i < m; ++i) {
    for (const auto& t : r1cs.a.row(i)) u[t.wire] += t.coeff * lagrange[i];
    for (const auto& t : r1cs.b.row(i)) v[t.wire] += t.coeff * lagrange[i];
    for (const auto& t : r1cs.c.row(i)) w[t.wire] += t.coeff * lagrange[i];
  }
  for (uint32_t s = 0; s <= npub; ++s) u[s] += lagrange[m + s];  // the IC rows

  Groth16Keys keys;
  ProvingKey& pk = keys.pk;
  VerifyingKey& vk = keys.vk;
  pk.num_wires = nwires;
  pk.num_public = npub;
  pk.domain_size = uint32_t(n);
  pk.circuit_digest = vk.circuit_digest = r1cs.digest();
  pk.shape = std::make_shared<const ConstraintShape>(ConstraintShape::from_r1cs(r1cs));
  pk.insecure_dev = vk.insecure_dev = insecure;
  vk.num_public = npub;

  const FixedBaseTable<G1> g1(G1::generator());
  const FixedBaseTable<G2> g2(G2::generator());
  auto g1_one = [&](const Fr& s) { return g1.mul(s).to_affine(); };
  auto g2_one = [&](const Fr& s) { return g2.mul(s).to_affine(); };
  pk.alpha1 = vk.alpha1 = g1_one(tw.alpha);
  pk.beta1 = g1_one(tw.beta);
  pk.delta1 = g1_one(tw.delta);
  pk.beta2 = vk.beta2 = g2_one(tw.beta);
  pk.delta2 = vk.delta2 = g2_one(tw.delta);
  vk.gamma2 = g2_one(tw.gamma);

  // Sparse queries: only wires with a non-zero evaluation get a point.
  SecureVector<Fr> scalars;
  std::vector<uint32_t> wires;
  auto fill_g1 = [&](SparseQuery<G1Affine>& q) {
    std::vector<G1Affine> points(scalars.size());
    g1.mul_many(scalars.data(), scalars.size(), points.data(), pool);
    q.points = std::move(points);
    q.wires = wires;
  };
  for (uint32_t j = 0; j < nwires; ++j) {
    if (!u[j].is_zero()) {
      wires.push_back(j);
      scalars.push_back(u[j]);
    }
  }
  fill_g1(pk.a);
  scalars.clear();
  wires.clear();
  for (uint32_t j = 0; j < nwires; ++j) {
    if (!v[j].is_zero()) {
      wires.push_back(j);
      scalars.push_back(v[j]);
    }
  }
  fill_g1(pk.b1);
  pk.b2.wires = pk.b1.wires;
  std::vector<G2Affine> b2(scalars.size());
  g2.mul_many(scalars.data(), scalars.size(), b2.data(), pool);
  pk.b2.points = std::move(b2);

  // IC (public wires, over gamma) and the C query (private wires, over delta).
  tw.gamma_inv = tw.gamma.inverse();
  tw.delta_inv = tw.delta.inverse();
  scalars.clear();
  for (uint32_t j = 0; j <= npub; ++j) {
    scalars.push_back((tw.beta * u[j] + tw.alpha * v[j] + w[j]) * tw.gamma_inv);
  }
  vk.ic.resize(scalars.size());
  g1.mul_many(scalars.data(), scalars.size(), vk.ic.data(), pool);
  scalars.clear();
  wires.clear();
  for (uint32_t j = npub + 1; j < nwires; ++j) {
    Fr k = (tw.beta * u[j] + tw.alpha * v[j] + w[j]) * tw.delta_inv;
    if (!k.is_zero()) {
      wires.push_back(j);
      scalars.push_back(k);
    }
  }
  fill_g1(pk.c);

  // H query: [L^(2n)_(2i+1)(tau) / delta]_1 = [(tau^2n - 1) x_i / (2n delta (tau - x_i))]_1 with
  // x_i = omega_2n * omega^i, the odd 2n-th roots (derivation in core/groth16/quotient.hpp).
  scalars.assign(n, Fr::zero());
  for (size_t i = 0; i < n; ++i) {
    roots[i] *= domain.omega_2n();  // x_i
    scalars[i] = tw.tau - roots[i];
  }
  batch_inverse(scalars.data(), n, scratch.data());
  tw.h_factor = (tw.tau_n.square() - Fr::one()) * (n_fr.dbl() * tw.delta).inverse();
  for (size_t i = 0; i < n; ++i) scalars[i] *= roots[i] * tw.h_factor;
  std::vector<G1Affine> h(n);
  g1.mul_many(scalars.data(), n, h.data(), pool);
  pk.h = std::move(h);
  return keys;
}

}  // namespace

Groth16Keys groth16_setup(const R1cs& r1cs, ThreadPool& pool, DomainSizes sizes) {
  WasteSource source;
  return setup_with(r1cs, source, false, pool, sizes);
}

Groth16Keys groth16_setup_insecure_from_seed(const R1cs& r1cs, std::span<const uint8_t> seed,
                                             ThreadPool& pool, DomainSizes sizes) {
  WasteSource source(seed);
  return setup_with(r1cs, source, true, pool, sizes);
}

}  // namespace enygma
