// The checks that the deposit and withdraw circuit tests and soundness tests make alike, on a
// payment family described by its functions (PaymentCircuitUnderTest; payment_families.hpp has
// the two families): a request's witness satisfies the R1CS and starts with its public inputs, a
// vector gives its public_signal, a bad vector is refused naming exactly its rule, the builder's
// modes agree, the registered family agrees with the folder's functions, the constraint counts
// and the capacity hint, every rule breaker's request fails, and no single private wire is free.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/circuit/circuit_family.hpp"
#include "core/payment/request.hpp"
#include "core/payment/rules.hpp"
#include "core/registry/registry.hpp"
#include "support/audit.hpp"
#include "support/payment_rule_breaker.hpp"
#include "support/vectors.hpp"

namespace enygma::test {

// Whether a constraint's label is rule `id`'s: "R7 R/bits..." or "R15d/tv[1]/...".
inline bool label_names_rule(const std::string& label, const std::string& id) {
  return label.rfind(id + " ", 0) == 0 || label.rfind(id + "/", 0) == 0;
}

template <class Request>
struct PaymentCircuitUnderTest {
  std::string_view name;       // the family's registry name and the vectors' prefix: "deposit"
  unsigned own_public_inputs;  // after the 8k + 2 payment inputs: 1 (deposit), 10 (withdraw)
  Result<Request> (*parse)(std::string_view json_text, unsigned k);
  Status (*validate)(const Request& req);
  std::vector<Error> (*validate_all)(const Request& req);
  std::vector<Fr> (*witness)(const Request& req);
  std::string (*first_violation)(const Request& req);
  std::vector<std::string_view> (*rule_ids)();
  void (*define)(circuit::CircuitBuilder& b, unsigned k, const Request* req);
  circuit::CircuitBuilder::SizeHint (*size_hint)(unsigned k);
  const CircuitFamily& (*family)();
  unsigned (*breaker_variants)(std::string_view rule);
  Result<BrokenPayment<Request>> (*break_rule)(const Request& valid, std::string_view rule,
                                               uint64_t variant_seed);

  const R1cs& r1cs(unsigned k) const { return circuit_r1cs(*find_circuit(name, k)); }
  Request load(const std::string& file, unsigned k) const {
    return load_vector<Request>(file, parse, k);
  }
  size_t public_inputs(unsigned k) const { return 8 * k + 2 + own_public_inputs; }
  bool satisfies(const Request& req) const {
    const std::vector<Fr> w = witness(req);
    return !w.empty() && !r1cs(req.k).first_unsatisfied(w).has_value();
  }
};

// The request validates, and its witness satisfies the cached R1CS and starts with 1 and the
// public inputs.
template <class Request>
void expect_satisfying_witness(const PaymentCircuitUnderTest<Request>& f, const Request& req) {
  ASSERT_TRUE(f.validate(req).ok()) << f.validate(req).error().message;
  const R1cs& r1cs = f.r1cs(req.k);
  std::vector<Fr> w = f.witness(req);
  ASSERT_EQ(w.size(), r1cs.num_wires);
  EXPECT_EQ(w[0], Fr::one());
  const std::vector<Fr> pub = req.public_inputs();
  ASSERT_EQ(pub.size(), r1cs.num_public);
  ASSERT_EQ(pub.size(), f.public_inputs(req.k));
  for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w[1 + i], pub[i]) << "public input " << i;
  EXPECT_EQ(r1cs.first_unsatisfied(w), std::nullopt)
      << "k=" << req.k << ": " << f.first_violation(req);
}

// <vector>.json satisfies, and its public inputs, as decimal strings, are
// <vector>.public_signal.json.
template <class Request>
void expect_vector_gives_its_public_signal(const PaymentCircuitUnderTest<Request>& f,
                                           const std::string& vector, unsigned k) {
  const Request req = f.load(std::string(vector).append(".json"), k);
  expect_satisfying_witness(f, req);
  const std::vector<std::string> expected =
      load_public_signal(std::string(vector).append(".public_signal.json"));
  EXPECT_EQ(expected.size(), f.public_inputs(k));
  EXPECT_EQ(decimal_strings(req.public_inputs()), expected);
}

// The bad vector `file` fails exactly `rule` ("<rule>: <field> ..."), and with validation
// bypassed its witness fails, first at a constraint labelled "<rule><separator>...".
template <class Request>
void expect_bad_vector_refused(const PaymentCircuitUnderTest<Request>& f, const std::string& file,
                               unsigned k, const std::string& rule, char separator) {
  const Request req = f.load(file, k);
  const std::vector<Error> errors = f.validate_all(req);
  ASSERT_EQ(payment::failed_rule_ids(errors), std::vector<std::string>{rule});
  EXPECT_EQ(errors[0].message.rfind(std::string(rule).append(": ").append(errors[0].field), 0), 0u)
      << errors[0].message;
  const std::vector<Fr> w = f.witness(req);
  EXPECT_TRUE(f.r1cs(k).first_unsatisfied(w).has_value());
  EXPECT_EQ(f.first_violation(req).rfind(std::string(rule) + separator, 0), 0u)
      << f.first_violation(req);
}

// The family is registered under its name, with the reference routes and the payment k ranges
// (2..16, by default 2..6).
template <class Request>
void expect_registered(const PaymentCircuitUnderTest<Request>& f, std::string_view prove_route_6,
                       std::string_view verify_route_6) {
  const CircuitFamily* family = find_circuit_family(f.name);
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family, &f.family());
  EXPECT_EQ(find_circuit(f.name, 6)->prove_route(), prove_route_6);
  EXPECT_EQ(find_circuit(f.name, 6)->verify_route(), verify_route_6);
  EXPECT_EQ(family->min_k, 2u);
  EXPECT_EQ(family->max_k, 16u);
  EXPECT_EQ(family->default_min_k, 2u);
  EXPECT_EQ(family->default_max_k, 6u);
}

// The registered family's functions agree with the folder's: the witness of the k = 2 vector,
// and the k = 2 bad vector refused by `rule` alone, first failing at `label`.
template <class Request>
void expect_family_functions_agree(const PaymentCircuitUnderTest<Request>& f,
                                   const std::string& rule, const std::string& label) {
  const CircuitFamily& family = f.family();
  const std::string vector = std::string(f.name).append("-k2.json");
  auto w = family.witness(read_vector(vector), 2);
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(*w, f.witness(f.load(vector, 2)));
  const std::string bad = read_vector(std::string(f.name).append("-k2-bad.json"));
  EXPECT_EQ(family.witness(bad, 2).error().rule, rule);
  EXPECT_EQ(*family.first_violation(bad, 2), label);
  ASSERT_EQ(family.validate_all(bad, 2).size(), 1u);
}

// The builder's modes agree on a valid request (the shape of the cached and of the family's
// R1CS, the witness), and every constraint is labelled with a rule id of the relation.
template <class Request>
void expect_modes_agree(const PaymentCircuitUnderTest<Request>& f, const Request& req) {
  circuit::CircuitBuilder both(circuit::BuildMode::kShapeAndWitness);
  f.define(both, req.k, &req);
  EXPECT_EQ(both.first_violation(), std::nullopt);
  const R1cs r = both.take_r1cs();
  EXPECT_EQ(r.digest(), f.r1cs(req.k).digest());
  EXPECT_EQ(r.digest(), f.family().build_r1cs(req.k).digest());
  EXPECT_EQ(both.take_witness(), f.witness(req));
  const std::vector<std::string_view> ids = f.rule_ids();
  ASSERT_EQ(r.labels.size(), r.num_constraints());
  for (const std::string& label : r.labels) {
    const std::string id = label.substr(0, label.find_first_of(" /"));
    ASSERT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << label;
  }
}

// For every k: the pinned constraint count, the public inputs, the wires, and a capacity hint
// that covers the real sizes without much waste.
template <class Request>
void expect_constraint_counts(const PaymentCircuitUnderTest<Request>& f,
                              const size_t (&expected)[kMaxK + 1]) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const CircuitInfo info = circuit_info(*find_circuit(f.name, k));
    EXPECT_EQ(info.public_inputs, f.public_inputs(k));
    EXPECT_EQ(info.wires, info.public_inputs + info.private_wires + 1);
    EXPECT_EQ(info.constraints, expected[k]) << "k=" << k;
    const R1cs& r = f.r1cs(k);
    const auto hint = f.size_hint(k);
    const size_t real[5] = {r.num_wires, r.num_constraints(), r.a.terms.size(), r.b.terms.size(),
                            r.c.terms.size()};
    const size_t hinted[5] = {hint.wires, hint.constraints, hint.terms_a, hint.terms_b,
                              hint.terms_c};
    for (int m = 0; m < 5; ++m) {
      EXPECT_GE(hinted[m], real[m]) << "k=" << k << " " << m;
      EXPECT_LE(hinted[m], real[m] + real[m] / 8) << "k=" << k << " " << m;
    }
  }
}

// For every rule of the relation and every kind of breakage its rule breaker knows
// (`seeds_per_variant` seeds each): validation refuses the broken request naming the rule (the
// first of its companions when it cannot fail alone), and its witness does not satisfy the R1CS
// (except R14's invisible variant, whose witness is the valid one's).
template <class Request>
void check_every_breakage(const PaymentCircuitUnderTest<Request>& f, const Request& valid,
                          unsigned seeds_per_variant) {
  ASSERT_TRUE(f.validate(valid).ok());
  ASSERT_TRUE(f.satisfies(valid));
  const std::vector<Fr> valid_witness = f.witness(valid);
  for (std::string_view rule : f.rule_ids()) {
    const unsigned variants = f.breaker_variants(rule);
    ASSERT_GT(variants, 0u) << rule;
    for (uint64_t seed = 0; seed < variants * seeds_per_variant; ++seed) {
      auto broken = f.break_rule(valid, rule, seed);
      ASSERT_TRUE(broken.ok()) << rule << " seed " << seed << ": " << broken.error().message;
      const Request& req = broken->request;
      SCOPED_TRACE(testing::Message() << "k=" << valid.k << " " << rule << " variant "
                                      << seed % variants << ": " << broken->how);
      // Refused by validation, naming the rule (the first of its companions).
      const Status st = f.validate(req);
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.error().rule, broken->broken_rules[0]);
      if (broken->broken_rules.size() == 1) {
        EXPECT_EQ(st.error().rule, rule);
      }
      // Validation bypassed: the witness does not satisfy the R1CS.
      const std::vector<Fr> w = f.witness(req);
      ASSERT_EQ(w.size(), f.r1cs(valid.k).num_wires);
      const bool ok = !f.r1cs(valid.k).first_unsatisfied(w).has_value();
      if (rule == "R14" && r14_invisible(unsigned(seed % variants))) {
        EXPECT_EQ(req.public_inputs(), valid.public_inputs());
        EXPECT_TRUE(ok);
        EXPECT_EQ(w, valid_witness);
      } else {
        EXPECT_FALSE(ok) << "the witness of an invalid request satisfies the circuit";
      }
    }
  }
}

// No single private wire of the request's witness can change: the `free_inputs` wires from the
// first private one (the request's own values) and every wire after them (`rest`: hints and
// what else follows) are each audited (support/audit.hpp).
template <class Request>
void expect_no_free_wire(const PaymentCircuitUnderTest<Request>& f, const Request& req,
                         uint32_t free_inputs, const char* rest) {
  const R1cs& r1cs = f.r1cs(req.k);
  const std::vector<Fr> w = f.witness(req);
  const uint32_t first_private = 1 + r1cs.num_public;
  const uint32_t first_rest = first_private + free_inputs;
  ASSERT_LT(first_rest, r1cs.num_wires);
  EXPECT_EQ(circuit::audit(r1cs, w, first_rest, r1cs.num_wires), "") << rest;
  EXPECT_EQ(circuit::audit(r1cs, w, first_private, first_rest), "") << "free inputs";
}

}  // namespace enygma::test
