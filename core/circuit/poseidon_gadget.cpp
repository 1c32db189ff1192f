// The round structure mirrors core/primitives/poseidon.cpp (go-iden3-crypto's optimized
// Poseidon): 4 full rounds, the pre-sparse matrix P, the partial rounds with sparse matrices,
// 4 full rounds, and only column 0 of the last mix.
#include "core/circuit/poseidon_gadget.hpp"

#include <sodium.h>

#include <cstdlib>

#include "core/primitives/poseidon.hpp"

namespace enygma::circuit {

namespace {

constexpr unsigned kMaxWidth = 5;

// A state word: a linear combination, and whether it is a constant of the circuit definition
// (decided by the definition alone, never by witness values, so every mode agrees).
struct Word {
  Lc lc;
  bool is_constant = true;
};

Fr pow5(const Fr& x) {
  return x.square().square() * x;
}

Word sbox(CircuitBuilder& b, const Word& x) {
  if (x.is_constant) return {Lc::constant(pow5(x.lc.constant_term())), true};
  Var x2 = b.mul(x.lc, x.lc, "x^2");
  Var x4 = b.mul(x2, x2, "x^4");
  return {Lc(b.mul(x4, x.lc, "x^5")), false};
}

// state <- state * A (row vector times the row-major t*t matrix A, as the native code).
void mix(Word* s, std::span<const Fr> a, unsigned t) {
  Word out[kMaxWidth];
  for (unsigned i = 0; i < t; ++i) {
    for (unsigned j = 0; j < t; ++j) {
      out[i].lc.add_scaled(s[j].lc, a[j * t + i]);
      out[i].is_constant = out[i].is_constant && s[j].is_constant;
    }
  }
  for (unsigned i = 0; i < t; ++i) s[i] = std::move(out[i]);
}

void full_round(CircuitBuilder& b, Word* s, const Fr* round_constants, std::span<const Fr> matrix,
                unsigned t) {
  for (unsigned i = 0; i < t; ++i) {
    s[i] = sbox(b, s[i]);
    s[i].lc.add_constant(round_constants[i]);
  }
  mix(s, matrix, t);
}

// Witness mode: the same rounds on plain values, allocating the same S-box wires in the same
// order (x^2, x^4, x^5 for every S-box of a non-constant word), without the bookkeeping of
// linear combinations. The tests compare its witness with the recording path's.
struct Val {
  Fr v;
  bool is_constant;
};

Val sbox_value(CircuitBuilder& b, const Val& x) {
  const Fr x2 = x.v.square(), x4 = x2.square(), x5 = x4 * x.v;
  if (!x.is_constant) {
    b.private_wire(x2);
    b.private_wire(x4);
    b.private_wire(x5);
    b.skip_constraints(3);
  }
  return {x5, x.is_constant};
}

void mix_values(Val* s, std::span<const Fr> a, unsigned t) {
  Val out[kMaxWidth];
  for (unsigned i = 0; i < t; ++i) {
    out[i] = {a[i] * s[0].v, s[0].is_constant};
    for (unsigned j = 1; j < t; ++j) {
      out[i].v += a[j * t + i] * s[j].v;
      out[i].is_constant = out[i].is_constant && s[j].is_constant;
    }
  }
  for (unsigned i = 0; i < t; ++i) s[i] = out[i];
}

void full_round_values(CircuitBuilder& b, Val* s, const Fr* rc, std::span<const Fr> m, unsigned t) {
  for (unsigned i = 0; i < t; ++i) {
    s[i] = sbox_value(b, s[i]);
    s[i].v += rc[i];
  }
  mix_values(s, m, t);
}

Lc poseidon_witness(CircuitBuilder& b, std::span<const PoseidonInput> inputs) {
  const unsigned n = unsigned(inputs.size());
  const PoseidonParams& pp = poseidon_params(n);
  const unsigned t = pp.t, half = pp.rounds_full / 2, rp = pp.rounds_partial;
  const Fr* c = pp.c.data();
  Val s[kMaxWidth];
  s[0] = {c[0], true};
  for (unsigned i = 0; i < n; ++i)
    s[i + 1] = {inputs[i].value.value() + c[i + 1], inputs[i].is_constant};
  for (unsigned r = 0; r + 1 < half; ++r) full_round_values(b, s, c + (r + 1) * t, pp.m, t);
  full_round_values(b, s, c + half * t, pp.p, t);
  const Fr* cp = c + (half + 1) * t;
  for (unsigned r = 0; r < rp; ++r) {
    const Fr* sr = pp.s.data() + (2 * t - 1) * r;
    s[0] = sbox_value(b, s[0]);
    s[0].v += cp[r];
    Val s0 = {sr[0] * s[0].v, s[0].is_constant};
    for (unsigned i = 1; i < t; ++i) {
      s0.v += sr[i] * s[i].v;
      s0.is_constant = s0.is_constant && s[i].is_constant;
    }
    for (unsigned i = 1; i < t; ++i) {
      s[i].v += s[0].v * sr[t + i - 1];
      s[i].is_constant = s[i].is_constant && s[0].is_constant;
    }
    s[0] = s0;
  }
  const Fr* cf = cp + rp;
  for (unsigned r = 0; r + 1 < half; ++r) full_round_values(b, s, cf + r * t, pp.m, t);
  Fr out = Fr::zero();
  bool out_is_constant = true;
  for (unsigned j = 0; j < t; ++j) {
    out += sbox_value(b, s[j]).v * pp.m[j * t];
    out_is_constant = out_is_constant && s[j].is_constant;
  }
  for (unsigned i = 0; i < t; ++i) sodium_memzero(&s[i].v, sizeof(Fr));  // secret-derived
  return out_is_constant ? Lc::constant(out) : Lc::value_only(out);
}

}  // namespace

Lc poseidon_gadget(CircuitBuilder& b, std::span<const PoseidonInput> inputs,
                   std::string_view label) {
  const unsigned n = unsigned(inputs.size());
  if (n < 1 || n > kMaxWidth - 1) std::abort();
  if (!b.records_shape()) return poseidon_witness(b, inputs);
  CircuitBuilder::Scope scope(b, label);
  const PoseidonParams& pp = poseidon_params(n);
  const unsigned t = pp.t, half = pp.rounds_full / 2, rp = pp.rounds_partial;
  const Fr* c = pp.c.data();

  Word s[kMaxWidth];
  s[0] = {Lc(), true};
  for (unsigned i = 0; i < n; ++i) s[i + 1] = {inputs[i].value, inputs[i].is_constant};
  for (unsigned i = 0; i < t; ++i) s[i].lc.add_constant(c[i]);

  unsigned round = 0;
  for (unsigned r = 0; r + 1 < half; ++r) {
    CircuitBuilder::Scope rs(b, "full", int(round++));
    full_round(b, s, c + (r + 1) * t, pp.m, t);
  }
  {
    CircuitBuilder::Scope rs(b, "full", int(round++));
    full_round(b, s, c + half * t, pp.p, t);
  }
  const Fr* cp = c + (half + 1) * t;
  for (unsigned r = 0; r < rp; ++r) {
    CircuitBuilder::Scope rs(b, "partial", int(r));
    const Fr* sr = pp.s.data() + (2 * t - 1) * r;
    s[0] = sbox(b, s[0]);
    s[0].lc.add_constant(cp[r]);
    Word s0;
    for (unsigned i = 0; i < t; ++i) {
      s0.lc.add_scaled(s[i].lc, sr[i]);
      s0.is_constant = s0.is_constant && s[i].is_constant;
    }
    for (unsigned i = 1; i < t; ++i) {
      s[i].lc.add_scaled(s[0].lc, sr[t + i - 1]);
      s[i].is_constant = s[i].is_constant && s[0].is_constant;
    }
    s[0] = std::move(s0);
  }
  const Fr* cf = cp + rp;
  for (unsigned r = 0; r + 1 < half; ++r) {
    CircuitBuilder::Scope rs(b, "full", int(round++));
    full_round(b, s, cf + r * t, pp.m, t);
  }
  CircuitBuilder::Scope rs(b, "full", int(round));
  Lc out;
  for (unsigned j = 0; j < t; ++j) out.add_scaled(sbox(b, s[j]).lc, pp.m[j * t]);
  return out;
}

}  // namespace enygma::circuit
