// The lane kernel of core/msm/batch_affine_lanes.hpp on f64 lanes (core/field/wasm/f64_lanes.hpp),
// two G1 or G2 additions at once. In the WebAssembly module built with relaxed SIMD
// (wasm/CMakeLists.txt, enygma_module_relaxed) it is the build's lane kernel; everywhere else it
// compiles to the C++ model of the lanes, which the tests compare with the scalar additions.
//
// Scalings (the lanes' products are Montgomery products with R = 2^255; the points arrive and
// leave in the scalar Montgomery form, R = 2^256): write S(x) = s when the stored integer is
// x 2^s mod m, so that a product has S = S(a) + S(b) - 255. Coordinates, d = x_b - x_a and
// dy = y_b - y_a have S = 256; the running product of a lane starts at one with S = 255 and
// gains 1 per factor, so after G groups S(acc) = 255 + G. The scalar inversion reads acc as
// a 2^(G - 1) (R = 2^256) and returns a^-1 2^(257 - G); a quarter of it has S = 255 - G, which
// makes every 1/d come out with S = 254 (independent of its group), lambda = dy (1/d) with
// S = 255, and twice a product of two values with S = 255 has S = 256: x3 = 2 lambda^2 - x_a - x_b
// (G2: 4 lambda^2 from the square with R = 2^256, S = 254) and y3 = (x_a - x3) lambda - y_a are
// in the scalar form with no conversion product.
//
// G2 inverts through the norm: 1/d = conj(d) / N(d) with N(d) = d0^2 + d1^2 in Fp (nonzero
// for d != 0: -1 is not a square mod m), so Montgomery's trick runs on Fp products (one per
// factor and two per inverse) instead of Fp2 products (about three Fp products each). With
// S(N) = 257 each factor adds 2 to S(acc): after G groups S(acc) = 255 + 2G, the quarter of its
// inverse has S = 255 - 2G, a chain's 1/N comes out with S = 253 and conj(d) (1/N) with S = 254,
// as 1/d above.
//
// Bounds: every value is below m except d, dy and x_a - x3, which are below 2m and are the
// first operand of a product whose second one is below m (f64_lanes::mul's contract); G2's
// norm takes d reduced below m.
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/field/batch_inverse.hpp"
#include "core/field/fp.hpp"
#include "core/field/wasm/f64_lanes.hpp"
#include "core/msm/batch_affine_lanes.hpp"

namespace enygma::msm_detail {

namespace {

using f64_lanes::Fe2;

constexpr U256 kOne255 = field_detail::shl_mod_slow(U256::from_u64(1), 255, Fp::kModulus);

Fe2 splat(const U256& v) {
  Fe2 r;
  for (int i = 0; i < 5; ++i) r.l[i] = f64_lanes::splat_limb(v, i);
  return r;
}
Fe2 mul(const Fe2& a, const Fe2& b) {
  Fe2 r;
  f64_lanes::mul(r, a, b);
  return r;
}

// x[l]^-1 / 4 for the two lanes' elements.
void invert_quarter(Fp x[2], bool public_values) {
  Fp scratch[2];
  batch_inverse(x, 2, scratch, public_values);
  static const Fp kQuarter = Fp::from_u64(4).inverse();
  for (int l = 0; l < 2; ++l) x[l] = x[l] * kQuarter;
}

// The lane operations of G1's coordinate field.
struct FpOps {
  using T = Fe2;
  static constexpr int kWords = 4;
  static T load(const uint64_t* p0, const uint64_t* p1) { return f64_lanes::load(p0, p1); }
  // o1 null: the second lane is padding, its result dropped.
  static void store(uint64_t* o0, uint64_t* o1, const T& x) {
    uint64_t unused[4];
    f64_lanes::store(o0, o1 ? o1 : unused, x);
  }
  static T one255() { return splat(kOne255); }
  static T mul(const T& a, const T& b) { return msm_detail::mul(a, b); }
  // r0 = a0 b0 and r1 = a1 b1, interleaved (f64_lanes::mul2).
  static void mul2(T& r0, const T& a0, const T& b0, T& r1, const T& a1, const T& b1) {
    f64_lanes::mul2(r0, a0, b0, r1, a1, b1);
  }
  static T add(const T& a, const T& b) { return f64_lanes::add(a, b); }
  static T sub(const T& a, const T& b) { return f64_lanes::sub(a, b); }
  static T sub_lazy(const T& a, const T& b) { return f64_lanes::sub_lazy(a, b); }
  // sq_e = 2 lambda_e^2 (S = 256 from lambda's 255), the two chains' squares interleaved.
  static void twice_squares(T& sq0, const T& lambda0, T& sq1, const T& lambda1) {
    f64_lanes::square2(sq0, lambda0, sq1, lambda1);
    sq0 = add(sq0, sq0);
    sq1 = add(sq1, sq1);
  }
  // Montgomery's trick runs on the denominators themselves: Fact is the field of the chain's
  // factors, the factor of d is d, and 1/d is the chain's inverse of that factor.
  using Fact = Fe2;
  static constexpr bool kNorm = false;
  // The two lanes' values as scalar elements, inverted, times 1/4, and back.
  static T invert(const T& a, bool public_values) {
    U256 w[2];
    f64_lanes::store(w[0].w, w[1].w, a);
    Fp x[2] = {Fp::from_montgomery(w[0]), Fp::from_montgomery(w[1])};
    invert_quarter(x, public_values);
    return f64_lanes::load(x[0].limbs, x[1].limbs);
  }
};

// The lane operations of G2's coordinate field Fp2 = Fp[u]/(u^2 + 1): componentwise, and the
// product with one reduction per coefficient (f64_lanes::fp2_mul; components of a below 2m, of b
// below m, as for Fp).
struct Fp2Ops {
  struct T {
    Fe2 c0, c1;
  };
  static constexpr int kWords = 8;
  static T load(const uint64_t* p0, const uint64_t* p1) {
    return {f64_lanes::load(p0, p1), f64_lanes::load(p0 + 4, p1 + 4)};
  }
  static void store(uint64_t* o0, uint64_t* o1, const T& x) {
    FpOps::store(o0, o1, x.c0);
    FpOps::store(o0 + 4, o1 ? o1 + 4 : nullptr, x.c1);
  }
  static T mul(const T& a, const T& b) {
    T r;
    f64_lanes::fp2_mul(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1);
    return r;
  }
  // One after the other: interleaved, two Fp2 products (four columns) spill and run slower.
  static void mul2(T& r0, const T& a0, const T& b0, T& r1, const T& a1, const T& b1) {
    const T p0 = mul(a0, b0), p1 = mul(a1, b1);
    r0 = p0;
    r1 = p1;
  }
  static T add(const T& a, const T& b) {
    return {f64_lanes::add(a.c0, b.c0), f64_lanes::add(a.c1, b.c1)};
  }
  static T sub(const T& a, const T& b) {
    return {f64_lanes::sub(a.c0, b.c0), f64_lanes::sub(a.c1, b.c1)};
  }
  static T sub_lazy(const T& a, const T& b) {
    return {f64_lanes::sub_lazy(a.c0, b.c0), f64_lanes::sub_lazy(a.c1, b.c1)};
  }
  // sq = 4 lambda^2 (S = 256: the square's product with R = 2^256 has S = 254), from the square's
  // two products instead of a general Fp2 product's four.
  static T twice_square(const T& lambda) {
    T sq;
    f64_lanes::fp2_square_r256(sq.c0, sq.c1, lambda.c0, lambda.c1);
    sq = add(sq, sq);
    return add(sq, sq);
  }
  static void twice_squares(T& sq0, const T& lambda0, T& sq1, const T& lambda1) {
    sq0 = twice_square(lambda0);
    sq1 = twice_square(lambda1);
  }
  // Montgomery's trick runs on the norms (the file comment): Fact holds Fp elements.
  using Fact = Fe2;
  static constexpr bool kNorm = true;
  // d reduced below m (d below 2m) and its norm d0^2 + d1^2 (S = 257), one reduction.
  static T reduced(const T& d) { return {f64_lanes::reduce(d.c0), f64_lanes::reduce(d.c1)}; }
  static Fact norm(const T& d) { return f64_lanes::fp2_norm(d.c0, d.c1); }
  // 1/d_e = conj(d_e) inv_norm_e (S = 254) for the two chains' groups, d reduced.
  static void inverses(T& r0, const T& d0, const Fact& inv_norm0, T& r1, const T& d1,
                       const Fact& inv_norm1) {
    f64_lanes::mul2(r0.c0, d0.c0, inv_norm0, r1.c0, d1.c0, inv_norm1);
    f64_lanes::mul2(r0.c1, f64_lanes::neg_lazy(d0.c1), inv_norm0, r1.c1, f64_lanes::neg_lazy(d1.c1),
                    inv_norm1);
  }
};

// A finite dummy addition for the unused lane of an odd count: a = (0, 0), b = (R, 0) with
// R = Montgomery one (in every component), so d != 0. Its result is not stored.
alignas(16) const uint64_t kPadA[16] = {};
alignas(16) const uint64_t kPadB[8] = {Fp::kR.w[0], Fp::kR.w[1], Fp::kR.w[2], Fp::kR.w[3],
                                       Fp::kR.w[0], Fp::kR.w[1], Fp::kR.w[2], Fp::kR.w[3]};

// Two chains of Montgomery's trick side by side, groups 2c + e in chain e (a padding group
// when the count of groups is odd), so that every product has an independent partner to be
// interleaved with (mul2): acc_e is the running product of chain e's factors (d, or G2's
// norms: S = 255 + G_e or 255 + 2 G_e after G_e groups), one inversion of acc_0 acc_1 gives
// inv = (acc_0 acc_1)^-1, and inv acc_1, inv acc_0 are chain 0's and chain 1's inverses: each
// chain then runs as a single one would.
template <class L>
void batch_add(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
               bool public_values) {
  using T = typename L::T;
  using Fact = typename L::Fact;
  // What the backward pass needs of one group of two additions (G2: d reduced, its norm).
  struct Group {
    T x_a, y_a, x_b, dy, d;
    Fact prefix;
    [[no_unique_address]] std::conditional_t<L::kNorm, Fact, std::monostate> norm;
  };
  if (k == 0) return;
  const size_t groups = (k + 1) / 2, steps = (groups + 1) / 2;
  Group* store = group_storage<Group, 16>(scratch, 2 * steps);
  // The chain's factor of a group.
  const auto factor = [](const Group& s) -> const Fact& {
    if constexpr (L::kNorm) {
      return s.norm;
    } else {
      return s.d;
    }
  };

  // Forward: d per lane and the running product of each chain's factors.
  Fact acc[2] = {FpOps::one255(), FpOps::one255()};
  for (size_t c = 0; c < steps; ++c) {
    for (size_t e = 0; e < 2; ++e) {
      const size_t g = 2 * c + e;
      Group& s = store[g];
      const AffineAddJob pad{kPadA, kPadB, kPadA, nullptr};
      const AffineAddJob& j0 = g < groups ? jobs[2 * g] : pad;
      const AffineAddJob& j1 = 2 * g + 1 < k ? jobs[2 * g + 1] : pad;
      s.x_a = L::load(j0.a_xy, j1.a_xy);
      s.y_a = L::load(j0.a_xy + L::kWords, j1.a_xy + L::kWords);
      s.x_b = L::load(j0.b_x, j1.b_x);
      s.dy = L::sub_lazy(L::load(j0.b_y, j1.b_y), s.y_a);
      s.d = L::sub_lazy(s.x_b, s.x_a);
      if constexpr (L::kNorm) {
        s.d = L::reduced(s.d);
        s.norm = L::norm(s.d);
      }
      s.prefix = acc[e];
    }
    FpOps::mul2(acc[0], factor(store[2 * c]), acc[0], acc[1], factor(store[2 * c + 1]), acc[1]);
  }

  Fact inv[2];
  {
    const Fact all = FpOps::invert(FpOps::mul(acc[0], acc[1]), public_values);
    FpOps::mul2(inv[0], all, acc[1], inv[1], all, acc[0]);
  }

  // Backward: 1/d per addition, lambda, x3, y3, both chains at once.
  for (size_t c = steps; c-- > 0;) {
    const Group* s[2] = {&store[2 * c], &store[2 * c + 1]};
    Fact inv_f[2];
    T inv_d[2], lambda[2], sq[2], x3[2], y3[2];
    FpOps::mul2(inv_f[0], inv[0], s[0]->prefix, inv_f[1], inv[1], s[1]->prefix);
    FpOps::mul2(inv[0], factor(*s[0]), inv[0], inv[1], factor(*s[1]), inv[1]);
    if constexpr (L::kNorm) {
      L::inverses(inv_d[0], s[0]->d, inv_f[0], inv_d[1], s[1]->d, inv_f[1]);
    } else {
      inv_d[0] = inv_f[0];
      inv_d[1] = inv_f[1];
    }
    L::mul2(lambda[0], s[0]->dy, inv_d[0], lambda[1], s[1]->dy, inv_d[1]);
    L::twice_squares(sq[0], lambda[0], sq[1], lambda[1]);
    for (size_t e = 0; e < 2; ++e) x3[e] = L::sub(L::sub(sq[e], s[e]->x_a), s[e]->x_b);
    L::mul2(y3[0], L::sub_lazy(s[0]->x_a, x3[0]), lambda[0], y3[1], L::sub_lazy(s[1]->x_a, x3[1]),
            lambda[1]);
    for (size_t e = 0; e < 2; ++e) {
      const size_t g = 2 * c + e;
      if (g >= groups) continue;
      y3[e] = L::sub(y3[e], s[e]->y_a);
      uint64_t* o1 = 2 * g + 1 < k ? jobs[2 * g + 1].out : nullptr;
      uint64_t* o0 = jobs[2 * g].out;
      L::store(o0, o1, x3[e]);
      L::store(o0 + L::kWords, o1 ? o1 + L::kWords : nullptr, y3[e]);
    }
  }
}

}  // namespace

void g1_batch_add_f64(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                      bool public_values) {
  batch_add<FpOps>(jobs, k, scratch, public_values);
}

void g2_batch_add_f64(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                      bool public_values) {
  batch_add<Fp2Ops>(jobs, k, scratch, public_values);
}

#if defined(ENYGMA_HAVE_F64_LANES)
void g2_batch_add_lanes(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                        bool public_values) {
  g2_batch_add_f64(jobs, k, scratch, public_values);
}
void g1_batch_add_lanes(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                        bool public_values) {
  g1_batch_add_f64(jobs, k, scratch, public_values);
}
#if defined(__wasm_relaxed_simd__)
// This object is the module's lane kernel: switch it on at start where the engine fuses
// relaxed_madd (f64_lanes::fused_fma_works).
namespace {
[[maybe_unused]] const bool g_f64_lanes_started = [] {
  set_f64_lanes_available(f64_lanes::fused_fma_works());
  return true;
}();
}  // namespace
#endif
#endif

}  // namespace enygma::msm_detail
