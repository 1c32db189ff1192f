// See core/poly/ntt_ifma.hpp. The pipeline of one polynomial (A, B or C of the quotient):
//   evaluations (natural order, scalar form) -> blocks -> inverse transform by decimation in
//   frequency (natural -> bit-reversed coefficients) -> times omega_2n^rev(p) / n -> forward
//   transform by decimation in time (bit-reversed -> natural order): the odd-coset evaluations.
// The stages inside a chunk of 4096 elements run chunk by chunk, so that the end of the inverse
// transform, the coset factors and the start of the forward transform are one visit of the
// chunk; the larger stages are passes over the whole polynomial.
//
// Bounds (m = r, the scalar field's modulus, 2^253 < m < 2^254, so 2^260 > 84m). A product
// mul(a, b) is below a*b/2^260 + m (core/field/ifma/fe8.hpp); with b a canonical constant (a
// twiddle or a factor, < m) that is below 2m for any a < 2^260.
// - Inverse transform (DIF), (u, v) -> (u + v, (u - v + 2m) * w): inputs < 2m give u + v < 4m,
//   reduced to < 2m, and a product < 2m. The last stage (w = 1) leaves u - v + 2m < 4m.
// - Coset factors: a product, < 2m.
// - Forward transform (DIT), (u, v) -> (u + t, u - t + 2m) with t = v * w < 2m: each stage adds
//   at most 2m, so after log n <= 27 stages the values are below 2m (log n + 1) <= 56m, never
//   reduced. (The first stage, w = 1, has t = v < 2m as well.)
// - Product: mul(mul(a, b), 16 * 2^260) is below 2m (a, b < 2^260); minus c plus K*m (K*m above
//   c's bound) is below 2m + 56m; a product with 2^260 (one) brings it below 2m, and two
//   conditional subtractions to [0, m).
#include "core/poly/ntt_ifma.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

#include <sodium.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/field/ifma/fe8.hpp"
#include "core/poly/ntt.hpp"

namespace enygma::ntt_detail {

namespace {

using ifma::Fe8;
using M52 = ifma::Radix52Modulus<Fr>;

// Eight elements, limb-major: l[i][lane] is limb i of element 8b + lane.
struct alignas(64) Block {
  uint64_t l[5][8];
};

// Chunks of this many blocks (4096 elements, 160 KiB) run all their stages in L2.
constexpr size_t kChunkBlocks = 512;

// Limbs of k*m in radix 2^52, normalized (k*m < 2^260 for k <= 84).
struct Limbs {
  uint64_t v[5];
};
constexpr Limbs times_m(uint64_t k) {
  Limbs r{};
  uint64_t carry = 0;
  for (int i = 0; i < 5; ++i) {
    const uint64_t x = M52::kP1.v[i] * k + carry;  // < 2^52 * 84 + carry: no overflow
    r.v[i] = i < 4 ? (x & ifma::kMask52) : x;
    carry = x >> 52;
  }
  return r;
}
constexpr Limbs k2m = times_m(2);
// c's bound after the forward transform is 2m (log n + 1) <= 56m; 58m covers it.
constexpr Limbs k58m = times_m(58);

ENYGMA_IFMA_INLINE Fe8 load(const Block& b) {
  Fe8 r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_load_si512(b.l[i]);
  return r;
}
ENYGMA_IFMA_INLINE void store(Block& b, const Fe8& x) {
  for (int i = 0; i < 5; ++i) _mm512_store_si512(b.l[i], x.l[i]);
}

// a - b + k*m, normalized (non-negative when b < a + k*m).
ENYGMA_IFMA_INLINE Fe8 sub_plus(const Fe8& a, const Fe8& b, const Limbs& km) {
  Fe8 r;
  for (int i = 0; i < 5; ++i) {
    r.l[i] = _mm512_add_epi64(_mm512_sub_epi64(a.l[i], b.l[i]), ifma::splat(km.v[i]));
  }
  ifma::normalize(r);
  return r;
}

// Eight consecutive scalar-form elements <-> one block (a transpose of 8 x 4 words).
ENYGMA_IFMA_INLINE Fe8 load_elements(const Fr* src) {
  const __m512i* p = reinterpret_cast<const __m512i*>(src);
  const __m512i z0 = _mm512_loadu_si512(p), z1 = _mm512_loadu_si512(p + 1),
                z2 = _mm512_loadu_si512(p + 2), z3 = _mm512_loadu_si512(p + 3);
  const __m512i i0 = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
  const __m512i i1 = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  const __m512i t0 = _mm512_permutex2var_epi64(z0, i0, z1),
                t1 = _mm512_permutex2var_epi64(z0, i1, z1);
  const __m512i t2 = _mm512_permutex2var_epi64(z2, i0, z3),
                t3 = _mm512_permutex2var_epi64(z2, i1, z3);
  const __m512i w[4] = {
      _mm512_permutex2var_epi64(t0, lo, t2), _mm512_permutex2var_epi64(t0, hi, t2),
      _mm512_permutex2var_epi64(t1, lo, t3), _mm512_permutex2var_epi64(t1, hi, t3)};
  return ifma::from_words(w);
}
// x must be canonical (< m, normalized).
ENYGMA_IFMA_INLINE void store_elements(const Fe8& x, Fr* dst) {
  __m512i w[4];
  ifma::to_words(x, w);
  const __m512i i0 = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
  const __m512i i1 = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  const __m512i t0 = _mm512_permutex2var_epi64(w[0], lo, w[1]),
                t2 = _mm512_permutex2var_epi64(w[0], hi, w[1]);
  const __m512i t1 = _mm512_permutex2var_epi64(w[2], lo, w[3]),
                t3 = _mm512_permutex2var_epi64(w[2], hi, w[3]);
  __m512i* p = reinterpret_cast<__m512i*>(dst);
  _mm512_storeu_si512(p, _mm512_permutex2var_epi64(t0, i0, t1));
  _mm512_storeu_si512(p + 1, _mm512_permutex2var_epi64(t0, i1, t1));
  _mm512_storeu_si512(p + 2, _mm512_permutex2var_epi64(t2, i0, t3));
  _mm512_storeu_si512(p + 3, _mm512_permutex2var_epi64(t2, i1, t3));
}

// (The zero-masked form: GCC 12's unmasked one starts from _mm512_undefined_epi32() and draws a
// false -Wmaybe-uninitialized, as noted in core/field/ifma/fe8.hpp. Same instruction.)
ENYGMA_IFMA_INLINE Fe8 permute(const Fe8& x, __m512i idx) {
  Fe8 r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_maskz_permutexvar_epi64(__mmask8(0xFF), idx, x.l[i]);
  return r;
}
ENYGMA_IFMA_INLINE Fe8 blend(__mmask8 take_b, const Fe8& a, const Fe8& b) {
  Fe8 r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_mask_blend_epi64(take_b, a.l[i], b.l[i]);
  return r;
}

// The stage with half-size h in {1, 2, 4} inside a block: lane l meets lane l ^ h. U and V are
// the pair's lower and upper element seen from every lane; `upper` marks the lanes that hold the
// upper element (l & h).
struct InBlockStage {
  __m512i u, v;
  __mmask8 upper;
};
ENYGMA_IFMA_INLINE InBlockStage in_block_stage(int h) {
  alignas(64) uint64_t u[8], v[8];
  uint32_t upper = 0;
  for (int l = 0; l < 8; ++l) {
    u[l] = uint64_t(l & ~h);
    v[l] = uint64_t(l | h);
    if (l & h) upper |= 1u << l;
  }
  return {_mm512_load_si512(u), _mm512_load_si512(v), __mmask8(upper)};
}

}  // namespace

struct IfmaTables {
  unsigned log_n = 0;
  size_t blocks = 0;           // n / 8
  std::vector<Block> fwd;      // stage with half-size 8 hb (hb blocks): fwd[hb - 1 + q], omega_2h^j
  std::vector<Block> inv;      // the same with omega_2h^-j
  std::vector<Block> coset;    // coset[b] lane l: omega_2n^rev(8b + l) / n
  Block in_fwd[3], in_inv[3];  // in-block stages h = 1, 2, 4: lane l holds omega_2h^(+-(l mod h))
};

namespace {

// The kernel's 2^260-scaled constant c is the integer of 16 c in the scalar form: put16 stores
// a value already multiplied by 16 (the tables' powers start at 16), put_scaled any value.
void put16(const Fr& x16, Block& b, int lane) {
  uint64_t limbs[5];
  ifma::to_radix52(x16.montgomery(), limbs);
  for (int i = 0; i < 5; ++i) b.l[i][lane] = limbs[i];
}
void put_scaled(const Fr& x, Block& b, int lane) {
  put16(x * Fr::from_u64(16), b, lane);
}
void copy_lane(const Block& from, int from_lane, Block& to, int to_lane) {
  for (int i = 0; i < 5; ++i) to.l[i][to_lane] = from.l[i][from_lane];
}

uint32_t reverse_bits(uint32_t x, unsigned bits) {
  uint32_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

// Inverse transform (DIF) on the chunk's stages below hb_top (block units), then the in-block
// stages h = 4, 2, 1. Inputs < 2m; outputs < 4m.
ENYGMA_IFMA_TARGET void dif_chunk(Block* x, size_t nb, size_t hb_top, const IfmaTables& t) {
  for (size_t hb = hb_top; hb >= 1; hb /= 2) {
    const Block* tw = t.inv.data() + (hb - 1);
    for (size_t k = 0; k < nb; k += 2 * hb) {
      for (size_t q = 0; q < hb; ++q) {
        const Fe8 u = load(x[k + q]), v = load(x[k + q + hb]);
        store(x[k + q], ifma::sub_if_not_below(ifma::add(u, v), k2m.v));
        store(x[k + q + hb], ifma::mul<Fr>(sub_plus(u, v, k2m), load(tw[q])));
      }
    }
  }
  const InBlockStage s4 = in_block_stage(4), s2 = in_block_stage(2), s1 = in_block_stage(1);
  const Fe8 w4 = load(t.in_inv[2]), w2 = load(t.in_inv[1]);
  for (size_t b = 0; b < nb; ++b) {
    Fe8 e = load(x[b]);
    {
      const Fe8 u = permute(e, s4.u), v = permute(e, s4.v);
      e = blend(s4.upper, ifma::sub_if_not_below(ifma::add(u, v), k2m.v),
                ifma::mul<Fr>(sub_plus(u, v, k2m), w4));
    }
    {
      const Fe8 u = permute(e, s2.u), v = permute(e, s2.v);
      e = blend(s2.upper, ifma::sub_if_not_below(ifma::add(u, v), k2m.v),
                ifma::mul<Fr>(sub_plus(u, v, k2m), w2));
    }
    {
      const Fe8 u = permute(e, s1.u), v = permute(e, s1.v);
      e = blend(s1.upper, ifma::sub_if_not_below(ifma::add(u, v), k2m.v), sub_plus(u, v, k2m));
    }
    store(x[b], e);
  }
}

// The coset factors of the chunk's positions (products, < 2m), then the forward transform
// (DIT): in-block stages h = 1, 2, 4 and the chunk's stages up to hb_top (block units).
ENYGMA_IFMA_TARGET void coset_dit_chunk(Block* x, const Block* factor, size_t nb, size_t hb_top,
                                        const IfmaTables& t) {
  const InBlockStage s4 = in_block_stage(4), s2 = in_block_stage(2), s1 = in_block_stage(1);
  const Fe8 w4 = load(t.in_fwd[2]), w2 = load(t.in_fwd[1]);
  for (size_t b = 0; b < nb; ++b) {
    Fe8 e = ifma::mul<Fr>(load(x[b]), load(factor[b]));
    {
      const Fe8 u = permute(e, s1.u), v = permute(e, s1.v);
      e = blend(s1.upper, ifma::add(u, v), ifma::sub<Fr, 2>(u, v));
    }
    {
      const Fe8 u = permute(e, s2.u), tv = ifma::mul<Fr>(permute(e, s2.v), w2);
      e = blend(s2.upper, ifma::add(u, tv), ifma::sub<Fr, 2>(u, tv));
    }
    {
      const Fe8 u = permute(e, s4.u), tv = ifma::mul<Fr>(permute(e, s4.v), w4);
      e = blend(s4.upper, ifma::add(u, tv), ifma::sub<Fr, 2>(u, tv));
    }
    store(x[b], e);
  }
  for (size_t hb = 1; hb <= hb_top; hb *= 2) {
    const Block* tw = t.fwd.data() + (hb - 1);
    for (size_t k = 0; k < nb; k += 2 * hb) {
      for (size_t q = 0; q < hb; ++q) {
        const Fe8 u = load(x[k + q]), tv = ifma::mul<Fr>(load(x[k + q + hb]), load(tw[q]));
        store(x[k + q], ifma::add(u, tv));
        store(x[k + q + hb], ifma::sub<Fr, 2>(u, tv));
      }
    }
  }
}

// One stage with half-size hb blocks over the whole polynomial, butterflies [p0, p1).
template <bool kDif>
ENYGMA_IFMA_TARGET void stage_pass(Block* x, size_t hb, const Block* tw, size_t p0, size_t p1) {
  for (size_t p = p0; p < p1; ++p) {
    const size_t q = p % hb, k = (p / hb) * 2 * hb;
    Block& lo = x[k + q];
    Block& hi = x[k + q + hb];
    const Fe8 u = load(lo);
    if constexpr (kDif) {
      const Fe8 v = load(hi);
      store(lo, ifma::sub_if_not_below(ifma::add(u, v), k2m.v));
      store(hi, ifma::mul<Fr>(sub_plus(u, v, k2m), load(tw[q])));
    } else {
      const Fe8 tv = ifma::mul<Fr>(load(hi), load(tw[q]));
      store(lo, ifma::add(u, tv));
      store(hi, ifma::sub<Fr, 2>(u, tv));
    }
  }
}

ENYGMA_IFMA_TARGET void load_blocks(const Fr* src, Block* dst, size_t b0, size_t b1) {
  for (size_t b = b0; b < b1; ++b) store(dst[b], load_elements(src + 8 * b));
}

// Evaluations on the roots (src, natural order) -> odd-coset evaluations in blocks (natural
// order), below 2m (log n + 1).
void to_odd_coset(const IfmaTables& t, const Fr* src, Block* x, ThreadPool& pool) {
  const size_t nb = t.blocks;
  const size_t chunk = std::min(nb, kChunkBlocks);
  pool.parallel_for(
      nb, [&](size_t b0, size_t b1) { load_blocks(src, x, b0, b1); }, 256);
  for (size_t hb = nb / 2; hb >= chunk; hb /= 2) {
    const Block* tw = t.inv.data() + (hb - 1);
    pool.parallel_for(
        nb / 2, [&](size_t p0, size_t p1) { stage_pass<true>(x, hb, tw, p0, p1); }, 128);
  }
  pool.parallel_for(
      nb / chunk,
      [&](size_t c0, size_t c1) {
        for (size_t c = c0; c < c1; ++c) {
          dif_chunk(x + c * chunk, chunk, chunk / 2, t);
          coset_dit_chunk(x + c * chunk, t.coset.data() + c * chunk, chunk, chunk / 2, t);
        }
      },
      1);
  for (size_t hb = chunk; hb < nb; hb *= 2) {
    const Block* tw = t.fwd.data() + (hb - 1);
    pool.parallel_for(
        nb / 2, [&](size_t p0, size_t p1) { stage_pass<false>(x, hb, tw, p0, p1); }, 128);
  }
}

// x = 16 * x * y (mul's 2^-260 and the scalar form's 2^256 twice: a product in scalar form).
ENYGMA_IFMA_TARGET void product_pass(Block* x, const Block* y, size_t b0, size_t b1) {
  Fe8 k16;
  uint64_t limbs[5];
  ifma::to_radix52(Fr::from_u64(256).montgomery(), limbs);  // 16 * 2^260 mod m
  for (int i = 0; i < 5; ++i) k16.l[i] = ifma::splat(limbs[i]);
  for (size_t b = b0; b < b1; ++b)
    store(x[b], ifma::mul<Fr>(ifma::mul<Fr>(load(x[b]), load(y[b])), k16));
}

// out = canonical(ab - c).
ENYGMA_IFMA_TARGET void difference_pass(const Block* ab, const Block* c, Fr* out, size_t b0,
                                        size_t b1) {
  Fe8 one;
  for (int i = 0; i < 5; ++i) one.l[i] = ifma::splat(M52::kOne260.v[i]);
  for (size_t b = b0; b < b1; ++b) {
    const Fe8 d = ifma::mul<Fr>(sub_plus(load(ab[b]), load(c[b]), k58m), one);
    store_elements(ifma::reduce_below_4m<Fr>(d), out + 8 * b);
  }
}

// out = canonical(x), x from to_odd_coset.
ENYGMA_IFMA_TARGET void canonical_pass(const Block* x, Fr* out, size_t b0, size_t b1) {
  Fe8 one;
  for (int i = 0; i < 5; ++i) one.l[i] = ifma::splat(M52::kOne260.v[i]);
  for (size_t b = b0; b < b1; ++b) {
    store_elements(ifma::reduce_below_4m<Fr>(ifma::mul<Fr>(load(x[b]), one)), out + 8 * b);
  }
}

}  // namespace

struct IfmaRadix3Tables {
  size_t m = 0;
  std::vector<Block> in[2], out[2];  // lane l of block b: 16 times twiddle 8b + l
  Block w, w_inv, third;             // every lane: 16 times the constant
};

namespace {

// The radix-3 passes (EvaluationDomain::to_odd_coset, core/poly/evaluation_domain.cpp) on blocks
// [b0, b1) of each third. Values in and out are canonical; in between every sum or difference
// stays below 4m and every product below 2m (a product of values below 4m and m is below
// 4m^2 / 2^260 + m), and each output is brought below m.
ENYGMA_IFMA_TARGET void radix3_in_pass(const IfmaRadix3Tables& t, Fr* a, size_t b0, size_t b1) {
  const size_t m = t.m;
  const Fe8 w_inv = load(t.w_inv), third = load(t.third);
  for (size_t b = b0; b < b1; ++b) {
    Fr* p = a + 8 * b;
    const Fe8 x0 = load_elements(p), x1 = load_elements(p + m), x2 = load_elements(p + 2 * m);
    const Fe8 t1 = ifma::mul<Fr>(ifma::sub<Fr, 1>(x1, x2), w_inv);
    const Fe8 t2 = ifma::mul<Fr>(ifma::sub<Fr, 1>(x2, x1), w_inv);
    const Fe8 y1 = ifma::add(ifma::sub<Fr, 1>(x0, x2), t1);
    const Fe8 y2 = ifma::add(ifma::sub<Fr, 1>(x0, x1), t2);
    const Fe8 s = ifma::add(ifma::add(x0, x1), x2);
    store_elements(ifma::reduce_below_4m<Fr>(ifma::mul<Fr>(s, third)), p);
    store_elements(ifma::reduce_below_4m<Fr>(ifma::mul<Fr>(y1, load(t.in[0][b]))), p + m);
    store_elements(ifma::reduce_below_4m<Fr>(ifma::mul<Fr>(y2, load(t.in[1][b]))), p + 2 * m);
  }
}

ENYGMA_IFMA_TARGET void radix3_out_pass(const IfmaRadix3Tables& t, Fr* a, size_t b0, size_t b1) {
  const size_t m = t.m;
  const Fe8 w = load(t.w);
  for (size_t b = b0; b < b1; ++b) {
    Fr* p = a + 8 * b;
    const Fe8 u0 = load_elements(p);
    const Fe8 u1 =
        ifma::reduce_below_4m<Fr>(ifma::mul<Fr>(load_elements(p + m), load(t.out[0][b])));
    const Fe8 u2 =
        ifma::reduce_below_4m<Fr>(ifma::mul<Fr>(load_elements(p + 2 * m), load(t.out[1][b])));
    const Fe8 t1 = ifma::mul<Fr>(ifma::sub<Fr, 1>(u1, u2), w);
    const Fe8 t2 = ifma::mul<Fr>(ifma::sub<Fr, 1>(u2, u1), w);
    store_elements(ifma::reduce_below_4m<Fr>(ifma::add(ifma::add(u0, u1), u2)), p);
    store_elements(ifma::reduce_below_4m<Fr>(ifma::add(ifma::sub<Fr, 1>(u0, u2), t1)), p + m);
    store_elements(ifma::reduce_below_4m<Fr>(ifma::add(ifma::sub<Fr, 1>(u0, u1), t2)), p + 2 * m);
  }
}

}  // namespace

IfmaRadix3Tables* make_ifma_radix3_tables(const std::vector<Fr> (&in)[2],
                                          const std::vector<Fr> (&out)[2], const Fr& w,
                                          const Fr& w_inv, const Fr& third) {
  auto t = std::make_unique<IfmaRadix3Tables>();
  t->m = in[0].size();
  for (int j = 0; j < 2; ++j) {
    t->in[j].resize(t->m / 8);
    t->out[j].resize(t->m / 8);
    for (size_t i = 0; i < t->m; ++i) {
      put_scaled(in[j][i], t->in[j][i / 8], int(i % 8));
      put_scaled(out[j][i], t->out[j][i / 8], int(i % 8));
    }
  }
  for (int l = 0; l < 8; ++l) {
    put_scaled(w, t->w, l);
    put_scaled(w_inv, t->w_inv, l);
    put_scaled(third, t->third, l);
  }
  return t.release();
}

void destroy_ifma_radix3_tables(IfmaRadix3Tables* tables) {
  delete tables;
}

void ifma_to_odd_coset_radix3(const IfmaTables& sub, const IfmaRadix3Tables& r3, Fr* a,
                              ThreadPool& pool) {
  const size_t m = r3.m, nb = sub.blocks;
  pool.parallel_for(
      m / 8, [&](size_t b0, size_t b1) { radix3_in_pass(r3, a, b0, b1); }, 256);
  std::vector<Block> x(nb);  // one buffer for the three thirds (fresh pages cost on some VMs)
  for (size_t j = 0; j < 3; ++j) {
    Fr* third = a + j * m;
    to_odd_coset(sub, third, x.data(), pool);
    pool.parallel_for(
        nb, [&](size_t b0, size_t b1) { canonical_pass(x.data(), third, b0, b1); }, 256);
  }
  sodium_memzero(x.data(), nb * sizeof(Block));
  pool.parallel_for(
      m / 8, [&](size_t b0, size_t b1) { radix3_out_pass(r3, a, b0, b1); }, 256);
}

IfmaTables* make_ifma_tables(const NttDomain& d) {
  const unsigned log_n = d.log_size();
  auto t = std::make_unique<IfmaTables>();
  const size_t n = d.size(), nb = n / 8;
  t->log_n = log_n;
  t->blocks = nb;
  t->fwd.resize(nb - 1);
  t->inv.resize(nb - 1);
  t->coset.resize(nb);
  const Fr omega_inv = d.omega().inverse();
  const Fr sixteen = Fr::from_u64(16);
  // Stage with half-size h = 8 hb holds omega_2h^j = omega^(j n / 2h): the top stage (h = n/2)
  // as powers of omega, each lower one every (n / 2h)-th entry of it.
  const size_t top = nb / 2;
  {
    Fr p = sixteen, pi = sixteen;
    for (size_t j = 0; j < n / 2; ++j) {
      put16(p, t->fwd[top - 1 + j / 8], int(j % 8));
      put16(pi, t->inv[top - 1 + j / 8], int(j % 8));
      p *= d.omega();
      pi *= omega_inv;
    }
  }
  for (size_t hb = 1; hb < top; hb *= 2) {
    const size_t h = 8 * hb, stride = (n / 2) / h;
    for (size_t j = 0; j < h; ++j) {
      const size_t k = j * stride;
      copy_lane(t->fwd[top - 1 + k / 8], int(k % 8), t->fwd[hb - 1 + j / 8], int(j % 8));
      copy_lane(t->inv[top - 1 + k / 8], int(k % 8), t->inv[hb - 1 + j / 8], int(j % 8));
    }
  }
  for (int s = 0; s < 3; ++s) {
    const size_t h = size_t(1) << s;
    const U256 e = U256::from_u64(n / (2 * h));
    const Fr w = d.omega().pow(e), wi = omega_inv.pow(e);
    for (int l = 0; l < 8; ++l) {
      const U256 j = U256::from_u64(uint64_t(l) % h);
      put_scaled(w.pow(j), t->in_fwd[s], l);
      put_scaled(wi.pow(j), t->in_inv[s], l);
    }
  }
  Fr p = sixteen * Fr::from_u64(n).inverse();  // 16 omega_2n^i / n, to position rev(i)
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = reverse_bits(uint32_t(i), log_n);
    put16(p, t->coset[r / 8], int(r % 8));
    p *= d.omega_2n();
  }
  return t.release();
}

void destroy_ifma_tables(IfmaTables* tables) {
  delete tables;
}

void ifma_odd_coset_product(const IfmaTables& t, Fr* a, Fr* b, Fr* c, ThreadPool& pool) {
  const size_t nb = t.blocks;
  std::vector<Block> x(nb), y(nb);
  to_odd_coset(t, a, x.data(), pool);
  to_odd_coset(t, b, y.data(), pool);
  pool.parallel_for(
      nb, [&](size_t b0, size_t b1) { product_pass(x.data(), y.data(), b0, b1); }, 256);
  to_odd_coset(t, c, y.data(), pool);
  pool.parallel_for(
      nb, [&](size_t b0, size_t b1) { difference_pass(x.data(), y.data(), a, b0, b1); }, 256);
  sodium_memzero(x.data(), nb * sizeof(Block));
  sodium_memzero(y.data(), nb * sizeof(Block));
}

}  // namespace enygma::ntt_detail

#endif  // ENYGMA_HAVE_IFMA_KERNEL
