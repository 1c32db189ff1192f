// Modular addition and subtraction on four 64-bit words, for a modulus below 2^255 (a + b < 2m
// then fits in four words). Plain C++ for every target, and on x86-64 the same functions through
// the ADC/SBB intrinsics: GCC 12 turns the carry comparisons of the plain loops into setb/or
// sequences (79 and 65 instructions instead of 35 and 42). core/field/kernels.hpp picks one.
// r may alias a or b in all of them.
#pragma once

#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace enygma::portable64 {

// r = a - b on four words; returns the borrow out (0 or 1). r may alias a or b.
inline __attribute__((always_inline)) uint64_t sub_words(uint64_t r[4], const uint64_t a[4],
                                                         const uint64_t b[4]) {
  uint64_t br = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t d = a[i] - b[i];
    const uint64_t b1 = a[i] < b[i];
    r[i] = d - br;
    br = b1 | (d < br);
  }
  return br;
}

// r = a - m if that does not borrow, else a (branch-free).
inline __attribute__((always_inline)) void reduce_once(uint64_t r[4], const uint64_t a[4],
                                                       const uint64_t m[4]) {
  uint64_t s[4];
  const uint64_t br = sub_words(s, a, m);
  const uint64_t keep = 0 - br;  // borrowed: a < m, keep it
  for (int i = 0; i < 4; ++i) r[i] = (a[i] & keep) | (s[i] & ~keep);
}

// r = a + b mod m for a, b < m.
inline __attribute__((always_inline)) void add(uint64_t r[4], const uint64_t a[4],
                                               const uint64_t b[4], const uint64_t m[4]) {
  // a + b < 2m < 2^255: no carry out of the top word.
  uint64_t t[4];
  uint64_t c = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t s = a[i] + c;
    c = s < c;
    const uint64_t u = s + b[i];
    c |= u < s;
    t[i] = u;
  }
  reduce_once(r, t, m);
}

// r = a - b mod m for a, b < m.
inline __attribute__((always_inline)) void sub(uint64_t r[4], const uint64_t a[4],
                                               const uint64_t b[4], const uint64_t m[4]) {
  uint64_t t[4];
  const uint64_t br = sub_words(t, a, b);
  // add m back if we borrowed (branch-free)
  const uint64_t mask = 0 - br;
  uint64_t c = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t add_m = m[i] & mask;
    const uint64_t s = t[i] + c;
    c = s < c;
    const uint64_t u = s + add_m;
    c |= u < s;
    r[i] = u;
  }
}

#if defined(__x86_64__)
// r = a + b on four words, unreduced (the caller's bounds keep it below 2^256). r may alias a or b.
inline __attribute__((always_inline)) void add_words_x86(uint64_t r[4], const uint64_t a[4],
                                                         const uint64_t b[4]) {
  unsigned long long x;
  unsigned char c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, a[i], b[i], &x);
    r[i] = x;
  }
}

// r = t - m unless that borrows, else t: the final step of a modular addition. Branch-free: GCC
// 12 compiles a C++ select on the borrow (`br ? t : s`) into a conditional jump, which field
// values mispredict about half the time and which would make the time depend on secret values.
// Assembly (SUB/SBB and CMOVs) except where the sanitizers must see every instruction
// (ENYGMA_NO_ASM); there masks.
inline __attribute__((always_inline)) void reduce_once_x86(uint64_t r[4], const uint64_t t[4],
                                                           const uint64_t m[4]) {
#if !defined(ENYGMA_NO_ASM)
  uint64_t t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], s0, s1, s2, s3;
  __asm__(
      "movq %[t0], %[s0]\n\t"
      "subq %[m0], %[s0]\n\t"
      "movq %[t1], %[s1]\n\t"
      "sbbq %[m1], %[s1]\n\t"
      "movq %[t2], %[s2]\n\t"
      "sbbq %[m2], %[s2]\n\t"
      "movq %[t3], %[s3]\n\t"
      "sbbq %[m3], %[s3]\n\t"
      "cmovncq %[s0], %[t0]\n\t"
      "cmovncq %[s1], %[t1]\n\t"
      "cmovncq %[s2], %[t2]\n\t"
      "cmovncq %[s3], %[t3]\n\t"
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "=&r"(s0),
        [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
      : [m0] "rm"(m[0]), [m1] "rm"(m[1]), [m2] "rm"(m[2]), [m3] "rm"(m[3])
      : "cc");
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
  r[3] = t3;
#else
  reduce_once(r, t, m);
#endif
}

inline __attribute__((always_inline)) void add_x86(uint64_t r[4], const uint64_t a[4],
                                                   const uint64_t b[4], const uint64_t m[4]) {
  uint64_t t[4];
  add_words_x86(t, a, b);  // a + b < 2m < 2^255: no carry out
  reduce_once_x86(r, t, m);
}

inline __attribute__((always_inline)) void sub_x86(uint64_t r[4], const uint64_t a[4],
                                                   const uint64_t b[4], const uint64_t m[4]) {
  unsigned long long t[4];
  unsigned char br = 0;
  br = _subborrow_u64(br, a[0], b[0], &t[0]);
  br = _subborrow_u64(br, a[1], b[1], &t[1]);
  br = _subborrow_u64(br, a[2], b[2], &t[2]);
  br = _subborrow_u64(br, a[3], b[3], &t[3]);
  const uint64_t mask = 0 - uint64_t(br);
  unsigned char c = 0;
  unsigned long long o[4];
  c = _addcarry_u64(c, t[0], m[0] & mask, &o[0]);
  c = _addcarry_u64(c, t[1], m[1] & mask, &o[1]);
  c = _addcarry_u64(c, t[2], m[2] & mask, &o[2]);
  c = _addcarry_u64(c, t[3], m[3] & mask, &o[3]);
  for (int i = 0; i < 4; ++i) r[i] = o[i];
}
#endif

}  // namespace enygma::portable64
