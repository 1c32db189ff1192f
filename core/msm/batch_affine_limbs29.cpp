// The lane kernel of core/msm/batch_affine_lanes.hpp for WebAssembly's G1 additions: one
// addition at a time, every coordinate kept as 29-bit limbs from load to store
// (core/field/wasm/fe29.hpp). G2 keeps the scalar code: its lazily reduced Fp2 products
// (core/field/wasm/fp2.hpp) were not beaten by the same scheme on limbs (msm_bench, msm_g2 with
// and without lanes). The
// arithmetic and the scalings are those of batch_affine_ifma.cpp with R' = 2^261 and a 5-bit
// shift: inputs arrive as v*2^256 (the scalar Montgomery form); the denominators d = x_b - x_a
// are shifted to d*2^261, so the running products and the inverses stay 2^261-scaled;
// lambda = dy * (1/d) comes out 2^256-scaled, and lambda*2^261 times a 2^256-scaled value is
// 2^256-scaled, so y3 leaves in the scalar form with no conversion multiplication; lambda^2 is
// a squaring with R = 2^256 (fewer limb products than a general multiplication).
//
// Bounds (m = p): inputs < m; x_a + x_b, dy, 1/d, prefix products < 2m; d*2^261 and
// lambda*2^261 < 64m. Every multiplication has one operand < 64m and the other < 2m and returns
// < 2m (fe29.hpp), so x3 before reduction is in (0, 4m) and y3 in (0, 3m).
//
// Plain C++: compiled into every build, natively too, where tests compare it with the scalar
// group law; the WebAssembly build's dispatch runs it (batch_affine_lanes.hpp).
#include <cstring>

#include "core/field/batch_inverse.hpp"
#include "core/field/inverse_vartime.hpp"
#include "core/field/wasm/fe29.hpp"
#include "core/msm/batch_affine_lanes.hpp"

namespace enygma::msm_detail {

namespace {

using wasm::Fe29;

// As a scalar Montgomery form, the integer A = v*2^261 means 32v; (32v)^-1 * 1024 in scalar
// form is the integer v^-1 * 2^261 again.
Fp to_scalar(const Fe29& a) {
  Fp x;
  wasm::to_words(wasm::reduce_below_4m<Fp>(a), x.limbs);
  return x;
}

// The coordinate field operations of G1 (Fp).
struct FpLimbs {
  using T = Fe29;
  static constexpr int kWords = 4;
  static T load(const uint64_t* w) { return wasm::from_words(w); }
  static void store(uint64_t* w, const T& a) { wasm::to_words(a, w); }
  static T add(const T& a, const T& b) { return wasm::add(a, b); }
  template <int K>
  static T sub(const T& a, const T& b) {
    return wasm::sub<Fp, K>(a, b);
  }
  static T shl5(const T& a) { return wasm::shl5(a); }
  static T mul(const T& a, const T& b) { return wasm::mul<Fp>(a, b); }
  static T square256(const T& a) { return wasm::square256<Fp>(a); }
  static T reduce(const T& a) { return wasm::reduce_below_4m<Fp>(a); }
  static T one261() { return wasm::Fe29Modulus<Fp>::kOne261; }
  static T invert(const T& a, bool public_values) {
    Fp x = to_scalar(a);
    x = public_values ? inverse_vartime(x) : x.inverse();
    x = x * Fp::from_u64(1024);
    return wasm::from_words(x.limbs);
  }
};

template <class L>
void batch_add(const AffineAddJob* jobs, size_t k, std::vector<uint64_t>& scratch,
               bool public_values) {
  using T = typename L::T;
  constexpr int kY = L::kWords;  // word offset of y
  // What the backward pass keeps of each addition (it loads the points again), and the result,
  // copied out only at the end: outputs may alias any addition's inputs.
  struct Saved {
    T d261, prefix;
    uint64_t out[2 * kY];
  };
  static_assert(sizeof(Saved) % sizeof(uint64_t) == 0 && alignof(Saved) <= alignof(uint64_t));
  if (k == 0) return;
  scratch.resize(k * (sizeof(Saved) / sizeof(uint64_t)));
  Saved* saved = reinterpret_cast<Saved*>(scratch.data());

  // Forward: d per addition and the running product of the d (2^261-scaled).
  T acc = L::one261();
  for (size_t j = 0; j < k; ++j) {
    const T x_a = L::load(jobs[j].a_xy);
    const T x_b = L::load(jobs[j].b_x);
    saved[j].d261 = L::shl5(L::template sub<1>(x_b, x_a));
    saved[j].prefix = acc;
    acc = L::mul(acc, saved[j].d261);
  }

  T inv = L::invert(acc, public_values);

  // Backward: 1/d per addition, lambda, x3, y3.
  for (size_t j = k; j-- > 0;) {
    Saved& s = saved[j];
    const T inv_d = L::mul(inv, s.prefix);
    inv = L::mul(inv, s.d261);
    const T x_a = L::load(jobs[j].a_xy);
    const T y_a = L::load(jobs[j].a_xy + kY);
    const T x_b = L::load(jobs[j].b_x);
    const T y_b = L::load(jobs[j].b_y);
    const T lambda = L::mul(L::template sub<1>(y_b, y_a), inv_d);  // 2^256-scaled
    const T lambda261 = L::shl5(lambda);
    const T x3 = L::reduce(L::template sub<2>(L::square256(lambda), L::add(x_a, x_b)));
    const T y3 = L::reduce(
        L::template sub<1>(L::mul(lambda261, L::template sub<1>(x_a, x3)), y_a));
    L::store(s.out, x3);
    L::store(s.out + kY, y3);
  }
  for (size_t j = 0; j < k; ++j) {
    std::memcpy(jobs[j].out, saved[j].out, sizeof(saved[j].out));
  }
}

}  // namespace

void g1_batch_add_limbs29(const AffineAddJob* jobs, size_t k, std::vector<uint64_t>& scratch,
                          bool public_values) {
  batch_add<FpLimbs>(jobs, k, scratch, public_values);
}

#if defined(ENYGMA_HAVE_LIMBS29_LANES)
void g1_batch_add_lanes(const AffineAddJob* jobs, size_t k, std::vector<uint64_t>& scratch,
                        bool public_values) {
  g1_batch_add_limbs29(jobs, k, scratch, public_values);
}
#endif

}  // namespace enygma::msm_detail
