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

// r = a - m if that does not borrow, else a (branch-free).
inline __attribute__((always_inline)) void reduce_once(uint64_t r[4], const uint64_t a[4],
                                                       const uint64_t m[4]) {
  uint64_t s[4], br = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t d = a[i] - m[i];
    const uint64_t b1 = a[i] < m[i];
    s[i] = d - br;
    br = b1 | (d < br);
  }
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
  uint64_t br = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t d = a[i] - b[i];
    const uint64_t b1 = a[i] < b[i];
    const uint64_t e = d - br;
    br = b1 | (d < br);
    t[i] = e;
  }
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
inline __attribute__((always_inline)) void add_x86(uint64_t r[4], const uint64_t a[4],
                                                   const uint64_t b[4], const uint64_t m[4]) {
  unsigned long long t[4], s[4];
  unsigned char c = 0;
  c = _addcarry_u64(c, a[0], b[0], &t[0]);
  c = _addcarry_u64(c, a[1], b[1], &t[1]);
  c = _addcarry_u64(c, a[2], b[2], &t[2]);
  c = _addcarry_u64(c, a[3], b[3], &t[3]);
  unsigned char br = 0;
  br = _subborrow_u64(br, t[0], m[0], &s[0]);
  br = _subborrow_u64(br, t[1], m[1], &s[1]);
  br = _subborrow_u64(br, t[2], m[2], &s[2]);
  br = _subborrow_u64(br, t[3], m[3], &s[3]);
  for (int i = 0; i < 4; ++i) r[i] = br ? t[i] : s[i];
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
