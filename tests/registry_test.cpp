// The circuit registry: names and ids round-trip, errors name the families and k ranges, and for
// EVERY registered family (so a new one is tested by being registered) the wallet's requests
// give witnesses that satisfy the family's R1CS, at the smallest and the largest k and at k=6.
#include "core/registry/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "core/poly/evaluation_domain.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

std::array<uint8_t, 32> seed_of(uint64_t n) {
  std::array<uint8_t, 32> s{};
  for (int i = 0; i < 8; ++i) s[i] = uint8_t(n >> (8 * i));
  return s;
}

std::vector<unsigned> ks_to_test(const CircuitFamily& f) {
  if (!f.has_k()) return {0};
  std::set<unsigned> ks = {f.min_k, f.max_k};
  if (6 >= f.min_k && 6 <= f.max_k) ks.insert(6);
  return {ks.begin(), ks.end()};
}

TEST(Registry, NamesAreUniqueAndIdsRoundTrip) {
  std::set<std::string> names, routes;
  ASSERT_FALSE(circuit_families().empty());
  EXPECT_EQ(circuit_families()[0]->name, "transfer");
  for (const CircuitFamily* f : circuit_families()) {
    EXPECT_TRUE(names.insert(std::string(f->name)).second) << f->name;
    for (char c : f->name)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
    EXPECT_EQ(find_circuit_family(f->name), f);
    EXPECT_TRUE(f->build_r1cs && f->witness && f->witness_unchecked && f->validate_all &&
                f->make_request && f->first_violation)
        << f->name;
    EXPECT_EQ(f->prove_route[0], '/');
    EXPECT_EQ(f->verify_route[0], '/');
    EXPECT_EQ(f->prove_route.find("{k}") != std::string_view::npos, f->has_k()) << f->name;
    EXPECT_EQ(f->verify_route.find("{k}") != std::string_view::npos, f->has_k()) << f->name;
    if (f->has_k()) {
      EXPECT_LE(f->min_k, f->default_min_k);
      EXPECT_LE(f->default_min_k, f->default_max_k);
      EXPECT_LE(f->default_max_k, f->max_k);
    }
    for (unsigned k : ks_to_test(*f)) {
      auto id = find_circuit(f->name, k);
      ASSERT_TRUE(id.ok()) << id.error().message;
      auto back = parse_circuit_id(id->str());
      ASSERT_TRUE(back.ok()) << back.error().message;
      EXPECT_EQ(*back, *id);
      EXPECT_EQ(id->key_name(), "enygma-" + id->str());
      EXPECT_TRUE(routes.insert(id->prove_route()).second) << id->prove_route();
      EXPECT_TRUE(routes.insert(id->verify_route()).second) << id->verify_route();
    }
  }
  EXPECT_EQ(find_circuit("transfer", 6)->str(), "transfer-k6");
  EXPECT_EQ(find_circuit("transfer", 6)->prove_route(), "/generateProofTransfer-6");
}

TEST(Registry, ErrorsNameTheCircuitOrTheRange) {
  auto none = find_circuit("no-such", 2);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().field, "circuit");
  EXPECT_NE(none.error().message.find("transfer"), std::string::npos);
  auto big = find_circuit("transfer", 17);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().field, "k");
  EXPECT_NE(big.error().message.find("2..16"), std::string::npos);
  for (const char* bad : {"", "transfer", "transfer-k", "transfer-k1", "transfer-kx",
                          "transfer-k66666", "-k6", "transfer-6", "nothing-k6"}) {
    EXPECT_FALSE(parse_circuit_id(bad).ok()) << bad;
  }
}

TEST(Registry, ListsAndDefaults) {
  const auto defaults = default_circuits();
  std::set<std::string> ids;
  for (const CircuitId& id : defaults) ids.insert(id.str());
  EXPECT_TRUE(ids.count("transfer-k2") && ids.count("transfer-k6"));
  EXPECT_FALSE(ids.count("transfer-k7"));
  const std::string transfer[] = {"transfer"};
  const unsigned ks[] = {3, 17};
  auto listed = list_circuits(transfer, ks);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].str(), "transfer-k3");
  const std::string unknown[] = {"nope"};
  EXPECT_FALSE(list_circuits(unknown, {}).ok());
}

TEST(Registry, EveryFamilysWalletRequestSatisfiesItsCircuit) {
  for (const CircuitFamily* f : circuit_families()) {
    for (unsigned k : ks_to_test(*f)) {
      SCOPED_TRACE(testing::Message() << f->name << " k=" << k);
      const CircuitId id = *find_circuit(f->name, k);
      const R1cs& r1cs = circuit_r1cs(id);
      EXPECT_EQ(&circuit_r1cs(id), &r1cs);  // cached
      EXPECT_EQ(circuit_digest(id), r1cs.digest());
      const CircuitInfo info = circuit_info(id);
      EXPECT_EQ(info.wires, r1cs.num_wires);
      EXPECT_GE(size_t(1) << info.fft_log_domain, info.constraints + info.public_inputs + 1);
      EXPECT_GE(info.domain_size, info.constraints + info.public_inputs + 1);
      EXPECT_LE(info.domain_size, size_t(1) << info.fft_log_domain);
      EXPECT_TRUE(EvaluationDomain::valid_size(info.domain_size));
      auto request = f->make_request(k, seed_of(k + 100), 0);
      ASSERT_TRUE(request.ok()) << request.error().message;
      EXPECT_TRUE(f->validate_all(*request, k).empty()) << f->validate_all(*request, k)[0].message;
      auto w = f->witness(*request, k);
      ASSERT_TRUE(w.ok()) << w.error().message;
      ASSERT_EQ(w->size(), r1cs.num_wires);
      EXPECT_EQ((*w)[0], Fr::one());
      EXPECT_EQ(r1cs.first_unsatisfied(*w), std::nullopt);
      auto unchecked = f->witness_unchecked(*request, k);
      ASSERT_TRUE(unchecked.ok());
      EXPECT_EQ(*unchecked, *w);
      auto label = f->first_violation(*request, k);
      ASSERT_TRUE(label.ok());
      EXPECT_EQ(*label, "");
      // The same seed gives the same request; another seed another one.
      EXPECT_EQ(*f->make_request(k, seed_of(k + 100), 0), *request);
      EXPECT_NE(*f->make_request(k, seed_of(k + 101), 0), *request);
      // A count beyond the family's (every family has one, if only "one note, one token") is
      // refused, never ignored.
      auto too_many = f->make_request(k, seed_of(k + 100), 1000);
      ASSERT_FALSE(too_many.ok());
      EXPECT_EQ(too_many.error().rule, "wallet") << too_many.error().message;
      // A request that does not parse is an "input" error naming a field, never a crash.
      for (const char* junk : {"", "{", "[]", "{}", "null"}) {
        auto bad = f->witness(junk, k);
        ASSERT_FALSE(bad.ok()) << junk;
        EXPECT_EQ(bad.error().rule, "input") << junk;
        EXPECT_FALSE(f->validate_all(junk, k).empty());
        EXPECT_FALSE(f->witness_unchecked(junk, k).ok());
        EXPECT_FALSE(f->first_violation(junk, k).ok());
      }
    }
  }
}

// A member given twice is refused, naming it, by every family and every entry point: JSON
// readers differ on which of the two counts (nlohmann and Go keep the last), so a relayer and
// the prover could otherwise read different requests in the same bytes. Each of the wallet
// request's top-level members in turn, given again first (a string member as "0", any other
// with its own value: a repeat is refused whatever its value), then last in upper case.
// Request bodies as Rayls' relayer sends them (rayls-sovereign-relayer 587b0ed): Go's
// encoding/json of its request structs, made from the shared vectors (its struct field order,
// every field present, "privateKey": "" in the output keys, tree numbers and merkleDepth as JSON
// numbers, empty input arrays for a join-split without inputs). Each is valid and, where made
// from a vector, proves the vector's public inputs.
TEST(Registry, TheRelayersRequestBodiesAreValid) {
  struct Body {
    const char* file;
    const char* family;
    unsigned k;
    const char* vector;  // the shared vector it was made from, or nullptr
  };
  for (const Body& b :
       {Body{"transfer-k2.json", "transfer", 2, "transfer-k2.json"},
        Body{"deposit-k2.json", "deposit", 2, "deposit-k2.json"},
        Body{"withdraw-k2.json", "withdraw", 2, "withdraw-k2.json"},
        Body{"joinsplit-enygma.json", "joinsplit-enygma", 0, "joinsplit-enygma.json"},
        Body{"joinsplit-1155.json", "joinsplit-1155", 0, "joinsplit-1155.json"},
        Body{"ownership-721.json", "ownership-721", 0, "ownership-721.json"},
        Body{"joinsplit-enygma-no-inputs.json", "joinsplit-enygma", 0, nullptr}}) {
    SCOPED_TRACE(b.file);
    std::ifstream in(std::string(ENYGMA_SOURCE_DIR).append("/tests/relayer/").append(b.file));
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty());
    const CircuitFamily* f = find_circuit_family(b.family);
    ASSERT_NE(f, nullptr);
    const std::vector<Error> errors = f->validate_all(text.str(), b.k);
    EXPECT_TRUE(errors.empty()) << errors[0].message;
    auto w = f->witness(text.str(), b.k);
    ASSERT_TRUE(w.ok()) << w.error().message;
    if (b.vector == nullptr) continue;
    auto reference = f->witness(test::read_vector(b.vector), b.k);
    ASSERT_TRUE(reference.ok()) << reference.error().message;
    const CircuitId id = *find_circuit(b.family, b.k);
    const uint32_t npub = circuit_r1cs(id).num_public;
    EXPECT_TRUE(std::equal(w->begin(), w->begin() + 1 + npub, reference->begin()));
  }
}

TEST(Registry, EveryFamilyRefusesAMemberGivenTwice) {
  for (const CircuitFamily* f : circuit_families()) {
    const unsigned k = f->has_k() ? f->min_k : 0;
    SCOPED_TRACE(f->name);
    auto request = f->make_request(k, seed_of(7), 0);
    ASSERT_TRUE(request.ok()) << request.error().message;
    const auto doc = nlohmann::ordered_json::parse(*request);
    ASSERT_TRUE(doc.is_object());
    for (const auto& [name, value] : doc.items()) {
      const nlohmann::ordered_json other = value.is_string() ? nlohmann::ordered_json("0") : value;
      const std::string text = "{\"" + name + "\": " + other.dump() + ", " + request->substr(1);
      auto witness = f->witness(text, k);
      auto unchecked = f->witness_unchecked(text, k);
      const std::vector<Error> all = f->validate_all(text, k);
      ASSERT_TRUE(!witness.ok() && !unchecked.ok() && all.size() == 1) << name;
      for (const Error& e : {witness.error(), unchecked.error(), all[0]}) {
        EXPECT_EQ(e.rule, "input") << name;
        EXPECT_EQ(e.field, name);
        EXPECT_NE(e.message.find(name + " is given twice"), std::string::npos) << e.message;
      }
      EXPECT_FALSE(f->first_violation(text, k).ok()) << name;
      // The same with the second name in upper case: Go's encoding/json binds both to one field.
      std::string upper = name;
      for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
      const std::string cased =
          request->substr(0, request->size() - 1) + ", \"" + upper + "\": " + other.dump() + "}";
      auto cased_witness = f->witness(cased, k);
      ASSERT_FALSE(cased_witness.ok()) << upper;
      const Error& e = cased_witness.error();
      EXPECT_EQ(e.rule, "input") << upper;
      EXPECT_EQ(e.field, name);
      EXPECT_NE(e.message.find("\"" + upper + "\""), std::string::npos) << e.message;
    }
  }
}

}  // namespace
}  // namespace enygma
