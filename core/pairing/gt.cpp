#include "core/pairing/gt.hpp"

#include "core/field/fr.hpp"

namespace enygma {

namespace {

// The twelve Fp coefficients in encoding order (highest first).
template <class Fp12Ref, class Visit>
void for_each_coefficient(Fp12Ref& x, Visit visit) {
  auto* c1 = &x.c1;
  auto* c0 = &x.c0;
  for (auto* half : {c1, c0}) {
    for (auto* fp2 : {&half->c2, &half->c1, &half->c0}) {
      visit(fp2->c1);
      visit(fp2->c0);
    }
  }
}

}  // namespace

void fp12_to_bytes(const Fp12& x, uint8_t out[kGtBytes]) {
  size_t offset = 0;
  for_each_coefficient(x, [&](const Fp& c) {
    c.to_be_bytes(out + offset);
    offset += 32;
  });
}

std::optional<Fp12> fp12_from_bytes(const uint8_t in[kGtBytes]) {
  Fp12 x;
  size_t offset = 0;
  bool ok = true;
  for_each_coefficient(x, [&](Fp& c) {
    auto v = Fp::from_be_bytes(in + offset);
    offset += 32;
    if (!v) {
      ok = false;
      return;
    }
    c = *v;
  });
  if (!ok) return std::nullopt;
  return x;
}

std::optional<Fp12> gt_from_bytes(const uint8_t in[kGtBytes]) {
  auto x = fp12_from_bytes(in);
  if (!x || !is_in_gt(*x)) return std::nullopt;
  return x;
}

bool is_in_gt(const Fp12& x) {
  if (x.is_zero()) return false;
  // Cyclotomic subgroup of order p^4 - p^2 + 1: x^(p^4) * x == x^(p^2).
  const Fp12 x_p2 = x.frobenius_map(2);
  if (x_p2.frobenius_map(2) * x != x_p2) return false;
  return x.cyclotomic_pow(Fr::kModulus).is_one();
}

}  // namespace enygma
