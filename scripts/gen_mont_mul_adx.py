#!/usr/bin/env python3
"""Generates core/field/limbs64_adx.hpp: 4-limb Montgomery arithmetic with MULX/ADCX/ADOX.

mont_mul: CIOS as in limbs64.hpp (same function, same "no-carry" bound), written as two
interleaved carry chains: ADOX carries the low halves of the products, ADCX the high halves. The
five accumulator registers rotate by one position per outer iteration instead of being moved.
mul_wide and redc: the two halves of it, for lazy reduction (a sum of products reduced once).
Run: python3 scripts/gen_mont_mul_adx.py > core/field/limbs64_adx.hpp
"""

T = ["%[t0]", "%[t1]", "%[t2]", "%[t3]", "%[t4]"]


def acc(i, j):
    return T[(i + j) % 5]


lines = []
for i in range(4):
    t = [acc(i, j) for j in range(5)]
    lines.append(f"// iteration {i}: t += a * b[{i}]")
    lines.append(f"movq {8 * i}(%[b]), %%rdx")
    lines.append(f"xorl %k[lo], %k[lo]")  # clears CF and OF
    if i == 0:
        # the accumulator is zero: start it from the first product's halves
        for r in t:
            lines.append(f"movq $0, {r}")
    else:
        lines.append(f"movq $0, {t[4]}")
    for j in range(4):
        lines.append(f"mulxq {8 * j}(%[a]), %[lo], %[hi]")
        lines.append(f"adoxq %[lo], {t[j]}")
        lines.append(f"adcxq %[hi], {t[j + 1]}")
    lines.append("movq $0, %[lo]")
    lines.append(f"adoxq %[lo], {t[4]}")
    lines.append(f"// m = t0 * inv; t = (t + m * M) / 2^64")
    lines.append(f"movq {t[0]}, %%rdx")
    lines.append("imulq %[inv], %%rdx")
    lines.append("xorl %k[lo], %k[lo]")
    for j in range(4):
        lines.append(f"mulxq {8 * j}(%[m]), %[lo], %[hi]")
        lines.append(f"adoxq %[lo], {t[j]}")
        lines.append(f"adcxq %[hi], {t[j + 1]}")
    lines.append("movq $0, %[lo]")
    lines.append(f"adoxq %[lo], {t[4]}")

# after 4 iterations the result sits in acc(4, 0..3) = t4, t0, t1, t2 (t < 2m); t3 is free.
# Final conditional subtraction in the same block: a SUB/SBB chain into spare registers and
# CMOVs on the borrow. (Written in C, GCC 12 turned the borrow logic into setb/or chains that
# cost ~7 ns of the ~28 ns dependent multiplication, measured.)
res = [acc(4, j) for j in range(4)]
assert res == ["%[t4]", "%[t0]", "%[t1]", "%[t2]"]
spare = ["%[lo]", "%[hi]", "%[t3]", "%%rdx"]
lines.append("// s = t - m; keep t if that borrowed")
for j in range(4):
    lines.append(f"movq {res[j]}, {spare[j]}")
    lines.append(f"{'subq' if j == 0 else 'sbbq'} {8 * j}(%[m]), {spare[j]}")
for j in range(4):
    lines.append(f"cmovncq {spare[j]}, {res[j]}")



def render(lines):
    return "\n".join(f'      "{l}\\n\\t"' if not l.startswith("//") else f"      // {l[3:]}"
                     for l in lines)


body = render(lines)

# mul_wide: r[0..7] = a * b. Row i adds a * b[i] at word i; after it, word i is final and is
# stored, so five registers rotate as in mont_mul.
wide = []
for i in range(4):
    t = [acc(i, j) for j in range(5)]
    wide.append(f"// row {i}: t += a * b[{i}] * 2^(64 {i})")
    wide.append(f"movq {8 * i}(%[b]), %%rdx")
    wide.append("xorl %k[lo], %k[lo]")
    if i == 0:
        for r in t:
            wide.append(f"movq $0, {r}")
    else:
        wide.append(f"movq $0, {t[4]}")
    for j in range(4):
        wide.append(f"mulxq {8 * j}(%[a]), %[lo], %[hi]")
        wide.append(f"adoxq %[lo], {t[j]}")
        wide.append(f"adcxq %[hi], {t[j + 1]}")
    wide.append("movq $0, %[lo]")
    wide.append(f"adoxq %[lo], {t[4]}")  # never carries out: the partial sum fits in i + 5 words
    wide.append(f"movq {t[0]}, {8 * i}(%[r])")
for j in range(1, 5):
    wide.append(f"movq {acc(4, j - 1)}, {8 * (3 + j)}(%[r])")
wide_body = render(wide)

# redc: r = t * 2^-256 mod m for t < m 2^256. The low half is reduced as in mont_mul's reduction
# steps, (t_lo + q m) / 2^256 <= m; the high half (< m) is added; the sum (< 2m) minus m if it
# does not borrow.
red = []
red.append("// the accumulator starts as the low half of t")
for j in range(4):
    red.append(f"movq {8 * j}(%[t]), {T[j]}")
red.append(f"movq $0, {T[4]}")
for i in range(4):
    t = [acc(i, j) for j in range(5)]
    red.append(f"// step {i}: q = t0 * inv; t = (t + q * M) / 2^64")
    if i > 0:
        red.append(f"movq $0, {t[4]}")
    red.append(f"movq {t[0]}, %%rdx")
    red.append("imulq %[inv], %%rdx")
    red.append("xorl %k[lo], %k[lo]")
    for j in range(4):
        red.append(f"mulxq {8 * j}(%[m]), %[lo], %[hi]")
        red.append(f"adoxq %[lo], {t[j]}")
        red.append(f"adcxq %[hi], {t[j + 1]}")
    red.append("movq $0, %[lo]")
    red.append(f"adoxq %[lo], {t[4]}")
res = [acc(4, j) for j in range(4)]
red.append("// + the high half of t")
for j in range(4):
    red.append(f"{'addq' if j == 0 else 'adcq'} {8 * (4 + j)}(%[t]), {res[j]}")
red.append("// s = sum - m; keep the sum if that borrowed")
for j in range(4):
    red.append(f"movq {res[j]}, {spare[j]}")
    red.append(f"{'subq' if j == 0 else 'sbbq'} {8 * j}(%[m]), {spare[j]}")
for j in range(4):
    red.append(f"cmovncq {spare[j]}, {res[j]}")
redc_body = render(red)

print(f'''// GENERATED by scripts/gen_mont_mul_adx.py; do not edit by hand.
//
// 4-limb Montgomery multiplication with BMI2 MULX and ADX ADCX/ADOX (x86-64 only). Same function
// as limbs64::mont_mul; selected at run time when the CPU has both extensions (see
// core/field/cpu_features.hpp), so the default build still runs on any x86-64.
#pragma once

#include <cstdint>

namespace enygma::limbs64_adx {{

// r = a * b * 2^-256 mod m, inputs < m, output < m. inv = -m^-1 mod 2^64. r may alias a or b.
inline __attribute__((always_inline)) void mont_mul(uint64_t r[4], const uint64_t a[4],
                                                    const uint64_t b[4], const uint64_t m[4],
                                                    uint64_t inv) {{
  uint64_t t0, t1, t2, t3, t4, lo, hi;
  __asm__(
{body}
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [a] "r"(a), [b] "r"(b), [m] "r"(m), [inv] "rm"(inv),
        "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b),
        "m"(*(const uint64_t(*)[4])m)
      : "rdx", "cc");
  // The accumulator ended in registers t4, t0, t1, t2 (rotated four times), reduced below m.
  (void)t3;
  (void)lo;
  (void)hi;
  r[0] = t4;
  r[1] = t0;
  r[2] = t1;
  r[3] = t2;
}}

// r = a * b, the full 512-bit product (eight words), for a, b < 2^256. r must not alias a or b.
inline __attribute__((always_inline)) void mul_wide(uint64_t r[8], const uint64_t a[4],
                                                    const uint64_t b[4]) {{
  uint64_t t0, t1, t2, t3, t4, lo, hi;
  __asm__(
{wide_body}
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi), "=m"(*(uint64_t(*)[8])r)
      : [a] "r"(a), [b] "r"(b), [r] "r"(r), "m"(*(const uint64_t(*)[4])a),
        "m"(*(const uint64_t(*)[4])b)
      : "rdx", "cc");
  (void)t0;
  (void)t1;
  (void)t2;
  (void)t3;
  (void)t4;
  (void)lo;
  (void)hi;
}}

// r = t * 2^-256 mod m for a 512-bit t (eight words) below m * 2^256; output < m. inv = -m^-1
// mod 2^64. r may alias t's low words.
inline __attribute__((always_inline)) void redc(uint64_t r[4], const uint64_t t[8],
                                                const uint64_t m[4], uint64_t inv) {{
  uint64_t t0, t1, t2, t3, t4, lo, hi;
  __asm__(
{redc_body}
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [t] "r"(t), [m] "r"(m), [inv] "rm"(inv), "m"(*(const uint64_t(*)[8])t),
        "m"(*(const uint64_t(*)[4])m)
      : "rdx", "cc");
  (void)t3;
  (void)lo;
  (void)hi;
  r[0] = t4;
  r[1] = t0;
  r[2] = t1;
  r[3] = t2;
}}

}}  // namespace enygma::limbs64_adx''')
