#include "core/groth16/verifier.hpp"

#include <string>

#include "core/curve/g2_subgroup.hpp"
#include "core/groth16/proof_format.hpp"

namespace enygma {

namespace {
Error invalid(const std::string& why) {
  return make_error(why, "invalid");
}

// The proof's points on their curves, then B's lines into `b` and with them whether B is in G2
// (prepare_g2_checked: no subgroup check of its own); the first failure, by name.
Status check_proof_and_prepare_b(const Proof& proof, G2Prepared& b) {
  if (auto st = validate_proof_points_on_curve(proof); !st) return st;
  bool in_subgroup = false;
  b = prepare_g2_checked(proof.b, in_subgroup);
  return proof_b_subgroup_status(in_subgroup);
}
}  // namespace

Status validate_verifying_key_points(const VerifyingKey& vk) {
  auto bad = [](const std::string& what) { return make_error("verifying key: " + what, "key"); };
  if (!vk.alpha1.is_on_curve() || vk.alpha1.is_infinity()) return bad("alpha is not a G1 point");
  const std::pair<const G2Affine*, const char*> g2[] = {
      {&vk.beta2, "beta"}, {&vk.gamma2, "gamma"}, {&vk.delta2, "delta"}};
  for (const auto& [p, name] : g2) {
    if (p->is_infinity() || !p->is_on_curve() || !g2_is_in_subgroup(*p)) {
      return bad(std::string(name) + " is not a G2 point of order r");
    }
  }
  if (uint64_t(vk.ic.size()) != uint64_t(vk.num_public) + 1) return bad("IC has the wrong length");
  for (size_t i = 0; i < vk.ic.size(); ++i) {
    if (!vk.ic[i].is_on_curve()) return bad("IC[" + std::to_string(i) + "] is not on the curve");
  }
  return ok_status();
}

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk) {
  PreparedVerifyingKey pvk;
  pvk.vk = vk;
  pvk.alpha_beta_inverse = pairing(vk.alpha1, vk.beta2).conjugate();  // GT: inverse = conjugate
  pvk.gamma = prepare_g2_monic(vk.gamma2);
  pvk.delta = prepare_g2_monic(vk.delta2);
  if (!vk.ic.empty()) pvk.ic_sum = FixedBaseMsm<Fp, G1Params>(std::span(vk.ic).subspan(1));
  return pvk;
}

Status groth16_verify(const PreparedVerifyingKey& pvk, const Proof& proof,
                      std::span<const Fr> public_inputs, ThreadPool& pool) {
  const VerifyingKey& vk = pvk.vk;
  if (public_inputs.size() != vk.num_public) {
    return invalid("expected " + std::to_string(vk.num_public) + " public inputs, got " +
                   std::to_string(public_inputs.size()));
  }
  if (pvk.ic_sum.size() != public_inputs.size() || vk.ic.empty()) {
    return invalid("the verifying key was not prepared for " +
                   std::to_string(public_inputs.size()) + " public inputs");
  }
  // vk_x = IC_0 + sum_j x_j IC_j
  const auto vk_x = [&] {
    return pvk.ic_sum.eval(public_inputs).add_mixed(vk.ic[0]).to_affine(/*public_values=*/true);
  };

  if (pool.size() < 2) {
    G2Prepared b;
    if (auto st = check_proof_and_prepare_b(proof, b); !st) return invalid(st.error().message);
    const G1Affine g1[3] = {-proof.a, vk_x(), proof.c};
    const G2Prepared* g2[3] = {&b, &pvk.gamma, &pvk.delta};
    if (final_exponentiation(miller_loop(g1, g2)) != pvk.alpha_beta_inverse) {
      return invalid("the pairing check failed");
    }
    return ok_status();
  }

  // Two threads: the proof's side (its points on their curves, B's lines and subgroup, the
  // Miller loop of (-A, B) and (C, delta)) beside the key's side (the public-input sum and
  // the Miller loop of (vk_x, gamma)), balanced by measured times natively and in WebAssembly
  // (docs/performance.md); the product of the two Miller-loop values is the three-pair value,
  // and one final exponentiation follows. Until both checks have passed nothing is concluded;
  // the failures are reported in the order of the sequential path.
  Status checked = ok_status();
  Fp12 half[2];
  pool.run_tasks(2, [&](size_t task) {
    if (task == 0) {
      G2Prepared b;
      checked = check_proof_and_prepare_b(proof, b);
      if (!checked) return;
      const G1Affine g1[2] = {-proof.a, proof.c};
      const G2Prepared* g2[2] = {&b, &pvk.delta};
      half[0] = miller_loop(g1, g2);
    } else {
      const G1Affine g1[1] = {vk_x()};
      const G2Prepared* g2[1] = {&pvk.gamma};
      half[1] = miller_loop(g1, g2);
    }
  });
  if (!checked) return invalid(checked.error().message);
  if (final_exponentiation(half[0] * half[1]) != pvk.alpha_beta_inverse) {
    return invalid("the pairing check failed");
  }
  return ok_status();
}

}  // namespace enygma
