// Request parsing: the reference requests, the reference field order on output, and every kind
// of malformed input named by its field.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/transfer/request.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using test::read_vector;

#define LOAD_OR_SKIP(var, name)              \
  const std::string var = read_vector(name); \
  if (var.empty()) GTEST_SKIP() << name << " not present"

// The k = 6 reference request as a JSON value, to edit.
nlohmann::ordered_json k6_json() {
  return nlohmann::ordered_json::parse(read_vector("transfer-k6.json"));
}

Error parse_error(const nlohmann::ordered_json& doc, unsigned k = 6) {
  auto r = parse_transfer_request(doc.dump(), k);
  EXPECT_FALSE(r.ok()) << doc.dump();
  return r.ok() ? Error{} : r.error();
}

TEST(TransferRequest, ParsesTheReferenceRequests) {
  LOAD_OR_SKIP(k2, "transfer-k2.json");
  auto r = parse_transfer_request(k2, 2);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const TransferRequest& q = *r;
  EXPECT_EQ(q.k, 2u);
  EXPECT_EQ(q.sender_id, Fr::from_u64(12345));
  EXPECT_EQ(q.block_number, Fr::from_u64(1538));
  EXPECT_EQ(
      q.secret_key,
      test::dec("89698971508923053473176041701011203005081891077538649997168009440145377529"));
  EXPECT_EQ(q.previous_commits[1], (BjjPoint{Fr::zero(), Fr::one()}));
  EXPECT_EQ(
      q.tx_commits[1].x,
      test::dec("19410905035702411481013492628601818787046637480098826753472199901771165932821"));
  EXPECT_EQ(q.anonymity_set[1], Fr::from_u64(12346));

  LOAD_OR_SKIP(k6, "transfer-k6.json");
  auto r6 = parse_transfer_request(k6, 6);
  ASSERT_TRUE(r6.ok()) << r6.error().message;
  EXPECT_EQ(r6->sender_tx_value, Fr::from_u64(10));
  EXPECT_EQ(r6->previous_sender_balance, Fr::from_u64(1000));
  EXPECT_EQ(r6->tx_values[1], Fr::from_u64(10));
}

TEST(TransferRequest, PublicInputsInTheDocumentedOrder) {
  LOAD_OR_SKIP(k6, "transfer-k6.json");
  auto r = parse_transfer_request(k6, 6);
  ASSERT_TRUE(r.ok());
  const TransferRequest& q = *r;
  const std::vector<Fr> pub = q.public_inputs();
  ASSERT_EQ(pub.size(), 8u * 6 + 2);
  size_t at = 0;
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(pub[at++], q.hashed_shared_secrets[i]);
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(pub[at++], q.public_keys[i]);
  for (unsigned i = 0; i < 6; ++i) {
    EXPECT_EQ(pub[at++], q.previous_commits[i].x);
    EXPECT_EQ(pub[at++], q.previous_commits[i].y);
  }
  for (unsigned i = 0; i < 6; ++i) {
    EXPECT_EQ(pub[at++], q.tx_commits[i].x);
    EXPECT_EQ(pub[at++], q.tx_commits[i].y);
  }
  EXPECT_EQ(pub[at++], q.nullifier);
  EXPECT_EQ(pub[at++], q.block_number);
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(pub[at++], q.anonymity_set[i]);
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(pub[at++], q.message_tags[i]);
  EXPECT_EQ(at, pub.size());
}

TEST(TransferRequest, PrintsTheReferenceJsonByteForByte) {
  for (auto [name, k] : {std::pair{"transfer-k2.json", 2u}, {"transfer-k6.json", 6u}}) {
    LOAD_OR_SKIP(text, name);
    auto r = parse_transfer_request(text, k);
    ASSERT_TRUE(r.ok()) << name;
    EXPECT_EQ(transfer_request_to_json(*r), text) << name;
  }
}

TEST(TransferRequest, RejectsTheNonCanonicalReferenceRequest) {
  LOAD_OR_SKIP(bad, "transfer-k6-bad.json");
  auto r = parse_transfer_request(bad, 6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "input");
  EXPECT_EQ(r.error().field, "hashed_shared_secrets[0]");
  EXPECT_EQ(r.error().message,
            "hashed_shared_secrets[0] is not a canonical field element (a decimal string below "
            "p)");
}

TEST(TransferRequest, RejectsUnsupportedK) {
  LOAD_OR_SKIP(k2, "transfer-k2.json");
  for (unsigned k : {0u, 1u, 17u, 1000u, 4000000000u}) {
    auto r = parse_transfer_request(k2, k);
    ASSERT_FALSE(r.ok()) << k;
    EXPECT_EQ(r.error().field, "k");
    EXPECT_EQ(r.error().rule, "input");
  }
  auto r = parse_transfer_request(k2, 3);  // valid k, but the arrays have 2 entries
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "public_keys");
  EXPECT_EQ(r.error().message, "public_keys has 2 entries, expected 3");
}

TEST(TransferRequest, NamesEveryMissingField) {
  if (read_vector("transfer-k6.json").empty()) GTEST_SKIP();
  const auto full = k6_json();
  for (const auto& [key, value] : full.items()) {
    auto doc = full;
    doc.erase(key);
    Error e = parse_error(doc);
    EXPECT_EQ(e.field, key);
    EXPECT_EQ(e.message, "missing field " + key);
    EXPECT_EQ(e.rule, "input");
  }
}

// Go's encoding/json binds "Sender_ID" to sender_id; here names must be exact, and the error
// for the missing field names the member that was meant for it.
TEST(TransferRequest, AFieldWrittenInAnotherCaseIsNamedInTheError) {
  const auto full = k6_json();
  for (const auto& [key, value] : full.items()) {
    auto doc = full;
    doc.erase(key);
    std::string other = key;
    other[0] = char(std::toupper(static_cast<unsigned char>(other[0])));
    doc[other] = value;
    Error e = parse_error(doc);
    EXPECT_EQ(e.field, key);
    EXPECT_EQ(e.rule, "input");
    EXPECT_EQ(e.message, "missing field " + key + " (a member \"" + other +
                             "\" is given: member names must be written exactly, here \"" + key +
                             "\")");
  }
}

TEST(TransferRequest, RejectsNonCanonicalNumbers) {
  if (read_vector("transfer-k6.json").empty()) GTEST_SKIP();
  const std::string p = to_decimal(Fr::kModulus);
  const std::string too_long(79, '1');
  for (const std::string& bad :
       {p, std::string("0").append(p), std::string("+1"), std::string("-1"), std::string("-0"),
        std::string(" 1"), std::string("1 "), std::string("0x1"), std::string("1e3"),
        std::string("1.0"), std::string(""), too_long,
        std::string(
            "115792089237316195423570985008687907853269984665640564039457584007913129639936")}) {
    auto doc = k6_json();
    doc["tx_values"][3] = bad;
    Error e = parse_error(doc);
    EXPECT_EQ(e.field, "tx_values[3]") << bad;
    EXPECT_NE(e.message.find("tx_values[3] is not a canonical field element"), std::string::npos);
    doc = k6_json();
    doc["previous_commits"][1][0] = bad;
    EXPECT_EQ(parse_error(doc).field, "previous_commits[1][0]") << bad;
    doc = k6_json();
    doc["block_number"] = bad;
    EXPECT_EQ(parse_error(doc).field, "block_number") << bad;
  }
  // Leading zeros are accepted as the number they denote (transfer-relation.md, "Inputs").
  const std::pair<std::string, uint64_t> padded[] = {
      {"00", 0}, {"0012", 12}, {std::string(90, '0') + "12", 12}};
  for (const auto& [text, value] : padded) {
    auto doc = k6_json();
    doc["block_number"] = text;
    auto r = parse_transfer_request(doc.dump(), 6);
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_EQ(r->block_number, Fr::from_u64(value)) << text;
  }
  // p - 1 is the largest accepted value.
  auto doc = k6_json();
  Fr pm1 = -Fr::one();
  doc["tx_values"][3] = pm1.to_decimal();
  auto r = parse_transfer_request(doc.dump(), 6);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->tx_values[3], pm1);
}

TEST(TransferRequest, RejectsWrongJsonTypes) {
  if (read_vector("transfer-k6.json").empty()) GTEST_SKIP();
  struct Case {
    const char* path;
    nlohmann::ordered_json value;
    const char* field;
  };
  const Case cases[] = {
      {"/sender_id", 12345, "sender_id"},
      {"/secret_key", nullptr, "secret_key"},
      {"/nullifier", nlohmann::ordered_json::array({"1"}), "nullifier"},
      {"/tx_values", "0", "tx_values"},
      {"/tx_values/2", 0, "tx_values[2]"},
      {"/anonymity_set/5", true, "anonymity_set[5]"},
      {"/previous_commits/4", "0", "previous_commits[4]"},
      {"/previous_commits/4", nlohmann::ordered_json::array({"0"}), "previous_commits[4]"},
      {"/tx_commits/0", nlohmann::ordered_json::array({"0", "1", "2"}), "tx_commits[0]"},
      {"/tx_commits/5/1", 1, "tx_commits[5][1]"},
      {"/message_tags", nlohmann::ordered_json::object(), "message_tags"},
  };
  for (const Case& c : cases) {
    auto doc = k6_json();
    doc[nlohmann::ordered_json::json_pointer(c.path)] = c.value;
    Error e = parse_error(doc);
    EXPECT_EQ(e.field, c.field) << c.path;
    EXPECT_EQ(e.message.rfind(c.field, 0), 0u) << e.message;
  }
  auto doc = k6_json();
  doc["tx_values"].push_back("0");
  Error e = parse_error(doc);
  EXPECT_EQ(e.message, "tx_values has 7 entries, expected 6");
}

TEST(TransferRequest, RejectsNonObjectsAndBrokenJson) {
  for (const char* text : {"", "{", "[]", "42", "\"x\"", "null", "{\"sender_id\": }",
                           "{\"a\":1} trailing", "\xff\xfe"}) {
    auto r = parse_transfer_request(text, 2);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().rule, "input");
    EXPECT_EQ(r.error().field, "");
  }
}

TEST(TransferRequest, IgnoresUnknownFields) {
  if (read_vector("transfer-k6.json").empty()) GTEST_SKIP();
  auto doc = k6_json();
  doc["comment"] = "extra";
  doc["nested"] = nlohmann::ordered_json::parse("[[[[{\"a\": [1, 2, {}]}]]]]");
  auto r = parse_transfer_request(doc.dump(), 6);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(transfer_request_to_json(*r), read_vector("transfer-k6.json"));
}

TEST(TransferRequest, HostileInputIsRejectedCheaply) {
  if (read_vector("transfer-k6.json").empty()) GTEST_SKIP();
  // A long array is refused on its length, before any element is converted.
  auto doc = k6_json();
  doc["public_keys"] = nlohmann::ordered_json::array();
  for (int i = 0; i < 20000; ++i) doc["public_keys"].push_back("1");
  Error e = parse_error(doc);
  EXPECT_EQ(e.message, "public_keys has 20000 entries, expected 6");
  // Deep nesting in an ignored field: the parser is iterative, nothing recurses.
  std::string deep = read_vector("transfer-k6.json");
  deep.pop_back();  // the closing brace
  deep += ",\"deep\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_TRUE(parse_transfer_request(deep, 6).ok());
  // Anything over 1 MiB is not a request.
  std::string huge = read_vector("transfer-k6.json");
  huge.insert(1, std::string(size_t(1) << 20, ' '));
  auto r = parse_transfer_request(huge, 6);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("larger than"), std::string::npos);
}

TEST(TransferRequest, WipeSecretsZeroesThePrivateValues) {
  LOAD_OR_SKIP(k6, "transfer-k6.json");
  auto r = parse_transfer_request(k6, 6);
  ASSERT_TRUE(r.ok());
  TransferRequest q = *r;
  const std::vector<Fr> pub = q.public_inputs();
  q.wipe_secrets();
  for (const Fr* x : {&q.sender_id, &q.secret_key, &q.previous_sender_balance,
                      &q.previous_sender_random_value, &q.sender_tx_value}) {
    EXPECT_TRUE(x->is_zero());
  }
  for (const auto* v : {&q.shared_secrets, &q.tx_values, &q.tx_random_values}) {
    ASSERT_EQ(v->size(), 6u);
    for (const Fr& x : *v) EXPECT_TRUE(x.is_zero());
  }
  EXPECT_EQ(q.public_inputs(), pub);  // public values untouched
}

}  // namespace
}  // namespace enygma
