#include "core/groth16/prover.hpp"

#include <sodium.h>

#include <atomic>
#include <string>

#include "core/groth16/quotient.hpp"
#include "core/msm/msm.hpp"
#include "core/poly/ntt.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

const char* prove_stage_name(ProveStage stage) {
  switch (stage) {
    case ProveStage::kConstraints: return "constraints";
    case ProveStage::kQuotient: return "quotient";
    case ProveStage::kMsmA: return "msm_a";
    case ProveStage::kMsmB1: return "msm_b1";
    case ProveStage::kMsmB2: return "msm_b2";
    case ProveStage::kMsmC: return "msm_c";
    case ProveStage::kMsmH: return "msm_h";
    case ProveStage::kDone: return "done";
  }
  return "?";
}

namespace {

// r and s: uniform in Fr from the CSPRNG, or (tests) from BLAKE2b(seed, label).
void draw_blinding(std::span<const uint8_t> seed, Fr& r, Fr& s) {
  uint8_t wide[64];
  if (seed.empty()) {
    randombytes_buf(wide, sizeof wide);
    r = Fr::from_wide_le_bytes(wide);
    randombytes_buf(wide, sizeof wide);
    s = Fr::from_wide_le_bytes(wide);
  } else {
    static const uint8_t kR[] = "enygma-groth16-r", kS[] = "enygma-groth16-s";
    crypto_generichash(wide, sizeof wide, kR, sizeof kR - 1, seed.data(), seed.size());
    r = Fr::from_wide_le_bytes(wide);
    crypto_generichash(wide, sizeof wide, kS, sizeof kS - 1, seed.data(), seed.size());
    s = Fr::from_wide_le_bytes(wide);
  }
  sodium_memzero(wide, sizeof wide);
}

// scalars[k] = witness[query.wires[k]]
template <class Q>
SecureVector<Fr> gather(const Q& query, std::span<const Fr> witness, ThreadPool& pool) {
  SecureVector<Fr> out(query.size());
  pool.parallel_for(
      query.size(),
      [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) out[k] = witness[query.wires[k]];
      },
      4096);
  return out;
}

Error cancelled() { return make_error("the proof was cancelled", "cancelled"); }

}  // namespace

Result<Proof> groth16_prove(const ProvingKey& pk, const R1cs& r1cs, std::span<const Fr> witness,
                            ThreadPool& pool, const ProveOptions& options) {
  if (sodium_init() < 0) return make_error("libsodium failed to initialise", "internal");
  auto stage = [&](ProveStage s) -> bool {
    if (options.on_stage) options.on_stage(s);
    return !(options.cancel && options.cancel->load(std::memory_order_relaxed));
  };
  const size_t m = r1cs.num_constraints();
  const size_t n = size_t(1) << pk.log_n;
  if (r1cs.num_wires != pk.num_wires || r1cs.num_public != pk.num_public ||
      m + r1cs.num_public + 1 > n) {
    return make_error("the proving key does not belong to this circuit", "key");
  }
  if (witness.size() != r1cs.num_wires) {
    return make_error("the witness has " + std::to_string(witness.size()) + " values, the circuit " +
                          std::to_string(r1cs.num_wires) + " wires",
                      "witness");
  }
  if (!(witness[0] == Fr::one())) {
    return make_error("witness[0] must be 1 (the constant wire)", "witness");
  }

  // 1. Evaluations a_i = <A_i, w>, b_i = <B_i, w>, c_i = <C_i, w>; each constraint is checked,
  //    so an unsatisfied witness is an error rather than a proof that fails to verify.
  if (!stage(ProveStage::kConstraints)) return cancelled();
  SecureVector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n, Fr::zero());
  std::atomic<size_t> first_bad{SIZE_MAX};
  pool.parallel_for(
      m,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          a[i] = r1cs.a.dot(i, witness);
          b[i] = r1cs.b.dot(i, witness);
          c[i] = r1cs.c.dot(i, witness);
          if (!(a[i] * b[i] == c[i])) {
            size_t cur = first_bad.load();
            while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
            }
          }
        }
      },
      1024);
  if (size_t bad = first_bad.load(); bad != SIZE_MAX) {
    std::string what = "the witness does not satisfy constraint " + std::to_string(bad);
    if (bad < r1cs.labels.size() && !r1cs.labels[bad].empty()) what += " (" + r1cs.labels[bad] + ")";
    return make_error(what, "witness");
  }
  for (uint32_t s = 0; s <= r1cs.num_public; ++s) a[m + s] = witness[s];  // IC rows

  // 2. The quotient on the odd coset: the H query's scalars.
  if (!stage(ProveStage::kQuotient)) return cancelled();
  quotient_odd_coset(NttDomain::shared(pk.log_n), a.data(), b.data(), c.data(), pool);
  release(b);
  release(c);

  Fr r, s;
  draw_blinding(options.insecure_test_seed, r, s);

  // 3. The multi-scalar multiplications.
  if (!stage(ProveStage::kMsmA)) return cancelled();
  G1 pi_a;
  {
    auto sc = gather(pk.a, witness, pool);
    pi_a = msm_g1(pk.a.points.data(), sc.data(), sc.size(), pool);
  }
  pi_a = pi_a.add_mixed(pk.alpha1) + pk.delta1.to_jacobian().mul_secret(r.to_u256());

  if (!stage(ProveStage::kMsmB1)) return cancelled();
  auto sc_b = gather(pk.b1, witness, pool);
  G1 b1 = msm_g1(pk.b1.points.data(), sc_b.data(), sc_b.size(), pool);
  b1 = b1.add_mixed(pk.beta1) + pk.delta1.to_jacobian().mul_secret(s.to_u256());

  if (!stage(ProveStage::kMsmB2)) return cancelled();
  // The key's B2 points are in G2 (made by the setup or an imported ceremony's key, bound by
  // its digest), so the MSM may use the endomorphism there.
  MsmOptions g2_options;
  g2_options.endomorphism = MsmOptions::Endomorphism::kOn;
  G2 pi_b = msm_g2(pk.b2.points.data(), sc_b.data(), sc_b.size(), pool, g2_options);
  pi_b = pi_b.add_mixed(pk.beta2) + pk.delta2.to_jacobian().mul_secret(s.to_u256());
  release(sc_b);

  if (!stage(ProveStage::kMsmC)) return cancelled();
  G1 pi_c;
  {
    auto sc = gather(pk.c, witness, pool);
    pi_c = msm_g1(pk.c.points.data(), sc.data(), sc.size(), pool);
  }

  if (!stage(ProveStage::kMsmH)) return cancelled();
  pi_c += msm_g1(pk.h.data(), a.data(), n, pool);
  release(a);

  // pi_C += s pi_A + r B_1 - r s delta
  Fr rs = r * s;
  pi_c += pi_a.mul_secret(s.to_u256()) + b1.mul_secret(r.to_u256()) -
          pk.delta1.to_jacobian().mul_secret(rs.to_u256());
  sodium_memzero(&r, sizeof r);
  sodium_memzero(&s, sizeof s);
  sodium_memzero(&rs, sizeof rs);

  Proof proof{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
  stage(ProveStage::kDone);
  return proof;
}

}  // namespace enygma
