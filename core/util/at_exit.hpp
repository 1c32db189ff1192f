// Runs a function however a scope ends (return or exception): secrets are wiped also when a
// prover or a rule check throws (bad_alloc, a stage callback's exception).
#pragma once

namespace enygma {

template <class F>
struct AtExit {
  F f;
  ~AtExit() { f(); }
};
template <class F>
AtExit(F) -> AtExit<F>;

}  // namespace enygma
