#include "core/circuit/compare.hpp"

#include <cstdlib>

namespace enygma::circuit {

namespace {

// The walk of alloc_bits_at_most(_dual). tighter == nullptr: single bound.
std::vector<Var> bound_walk(CircuitBuilder& b, const U256& value, const U256& bound,
                            const U256* tighter, const Lc* cond, std::string_view label) {
  const int n = int(bound.bit_length());
  if (n == 0) std::abort();
  // m: the first position (from the top) where the bounds differ; -1 for a single bound.
  int m = -1;
  if (tighter != nullptr) {
    if (cmp(*tighter, bound) >= 0) std::abort();
    for (int i = n - 1; i >= 0 && m < 0; --i) {
      if (bound.bit(unsigned(i)) != tighter->bit(unsigned(i))) m = i;
    }
  }
  // A run update at position i is needed only if a later (lower) position reads that run:
  // run1 is read where bound has a 0 and at m (to start run2), run2 where tighter has a 0.
  int lowest_read1 = m, lowest_read2 = -1;
  for (int i = n - 1; i >= 0; --i) {
    if (!bound.bit(unsigned(i)) && (lowest_read1 < 0 || i < lowest_read1)) lowest_read1 = i;
    if (i <= m && !tighter->bit(unsigned(i))) lowest_read2 = i;
  }

  CircuitBuilder::Scope scope(b, label);
  std::vector<Var> bits(size_t(n), Var{});
  Lc run1 = Lc::constant(1);  // prefix equals bound's prefix
  Lc run2;                    // cond and prefix equals tighter's prefix (from m on)
  bool run1_is_one = true;
  const Lc one = Lc::constant(1);
  for (int i = n - 1; i >= 0; --i) {
    const bool c1 = bound.bit(unsigned(i));
    const bool c2 = (m >= 0 && i <= m) ? tighter->bit(unsigned(i)) : c1;
    if (i == m) run2 = run1_is_one ? *cond : Lc(b.mul(*cond, run1, "run2 start"));
    const bool dual = m >= 0 && i <= m;
    Var bit = b.private_wire(value.bit(unsigned(i)) ? Fr::one() : Fr::zero());
    bits[size_t(i)] = bit;
    const Lc lb(bit);
    if (!dual) {
      if (c1) {
        b.enforce_lazy([&] { return std::tuple{lb, one - lb, Lc()}; }, "boolean");
      } else {
        b.enforce_lazy([&] { return std::tuple{one - run1 - lb, lb, Lc()}; }, "bit <= bound");
      }
    } else if (c1 && c2) {
      b.enforce_lazy([&] { return std::tuple{lb, one - lb, Lc()}; }, "boolean");
    } else if (c1 && !c2) {
      b.enforce_lazy([&] { return std::tuple{one - run2 - lb, lb, Lc()}; }, "bit <= tighter");
    } else if (!c1 && c2) {
      b.enforce_lazy([&] { return std::tuple{one - run1 - lb, lb, Lc()}; }, "bit <= bound");
    } else {
      // run1 * run2 == 0 here: at m, run2 == 1 forces bit m to 0 and so run1 to 0.
      b.enforce_lazy([&] { return std::tuple{one - run1 - run2 - lb, lb, Lc()}; }, "bit <= both");
    }
    if (c1 && lowest_read1 >= 0 && i > lowest_read1) {
      run1 = run1_is_one ? lb : Lc(b.mul(run1, lb, "run"));
      run1_is_one = false;
    }
    if (dual && c2 && lowest_read2 >= 0 && i > lowest_read2) run2 = Lc(b.mul(run2, lb, "run2"));
  }
  return bits;
}

}  // namespace

std::vector<Var> alloc_bits_at_most(CircuitBuilder& b, const U256& value, const U256& bound,
                                    std::string_view label) {
  return bound_walk(b, value, bound, nullptr, nullptr, label);
}

std::vector<Var> alloc_bits_at_most_dual(CircuitBuilder& b, const U256& value, const U256& bound,
                                         const U256& tighter, const Lc& cond,
                                         std::string_view label) {
  return bound_walk(b, value, bound, &tighter, &cond, label);
}

Var is_zero(CircuitBuilder& b, const Lc& x, std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  const bool zero = x.value().is_zero();
  Var inv = b.private_wire(x.value().inverse());  // inverse(0) == 0
  Var e = b.private_wire(zero ? Fr::one() : Fr::zero());
  b.enforce(x, inv, Lc::constant(1) - Lc(e), "x * inv = 1 - e");
  b.enforce(x, e, Lc(), "x * e = 0");
  b.enforce(inv, e, Lc(), "inv * e = 0");
  return e;
}

Var is_equal(CircuitBuilder& b, const Lc& x, const Lc& y, std::string_view label) {
  return is_zero(b, x - y, label);
}

Var select(CircuitBuilder& b, const Lc& bit, const Lc& if_one, const Lc& if_zero,
           std::string_view label) {
  Var z = b.private_wire(bit.value().is_zero() ? if_zero.value() : if_one.value());
  b.enforce(bit, if_one - if_zero, Lc(z) - if_zero, label);
  return z;
}

}  // namespace enygma::circuit
