// Withdraw request parsing: the Go struct's JSON keys (`hashes`, `sk_deposits`, `v_per_deposit`,
// `saltsIn`, 10 entries each, and `address` as a decimal string), the public inputs in the
// documented order, the printed JSON in the struct's field order, and every kind of malformed
// input named by its field.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "core/withdraw/request.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using json = nlohmann::ordered_json;

json withdraw_k2_json() {
  return json::parse(test::read_vector("withdraw-k2.json"));
}

Error withdraw_parse_error(const json& doc, unsigned k = 2) {
  auto r = parse_withdraw_request(doc.dump(), k);
  EXPECT_FALSE(r.ok()) << doc.dump();
  return r.ok() ? Error{} : r.error();
}

TEST(WithdrawRequest, ParsesTheVectorsNoteFields) {
  const json doc = withdraw_k2_json();
  auto r = parse_withdraw_request(doc.dump(), 2);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->hashes.size(), kNoteSlots);
  EXPECT_EQ(r->hashes[0].to_decimal(), doc["hashes"][0].get<std::string>());
  EXPECT_EQ(r->v_per_deposit[0], Fr::from_u64(50));
  EXPECT_EQ(r->salts_in[0], Fr::from_u64(777));
  EXPECT_EQ(r->address.to_decimal(), "757845594444596748639157641267684890222173463343");
  for (unsigned d = 1; d < kNoteSlots; ++d) {
    EXPECT_TRUE(r->hashes[d].is_zero() && r->sk_deposits[d].is_zero() &&
                r->v_per_deposit[d].is_zero() && r->salts_in[d].is_zero());
  }
  auto r6 = parse_withdraw_request(test::read_vector("withdraw-k6.json"), 6);
  ASSERT_TRUE(r6.ok()) << r6.error().message;
}

TEST(WithdrawRequest, PublicInputsAreThePaymentInputsThenTheHashes) {
  auto r = parse_withdraw_request(test::read_vector("withdraw-k6.json"), 6);
  ASSERT_TRUE(r.ok());
  const std::vector<Fr> pub = r->public_inputs();
  ASSERT_EQ(pub.size(), 8u * 6 + 12);
  const std::vector<Fr> payment = r->payment_public_inputs();
  EXPECT_TRUE(std::equal(payment.begin(), payment.end(), pub.begin()));
  EXPECT_TRUE(std::equal(r->hashes.begin(), r->hashes.end(), pub.begin() + 8 * 6 + 2));
}

TEST(WithdrawRequest, PrintsTheStructsFieldOrderAndRoundTrips) {
  const json doc = withdraw_k2_json();
  auto r = parse_withdraw_request(doc.dump(), 2);
  ASSERT_TRUE(r.ok());
  const json printed = json::parse(withdraw_request_to_json(*r));
  EXPECT_EQ(printed, doc);  // same keys, same order, same strings (the vector is canonical)
  auto again = parse_withdraw_request(printed.dump(), 2);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->public_inputs(), r->public_inputs());
}

TEST(WithdrawRequest, EveryNoteFieldIsRequiredAndNamed) {
  for (const char* key : {"hashes", "sk_deposits", "v_per_deposit", "saltsIn", "address"}) {
    json doc = withdraw_k2_json();
    doc.erase(key);
    const Error e = withdraw_parse_error(doc);
    EXPECT_EQ(e.rule, "input");
    EXPECT_EQ(e.field, key);
    EXPECT_EQ(e.message, std::string("missing field ") + key);
  }
  json renamed = withdraw_k2_json();
  renamed["salts_in"] = renamed["saltsIn"];
  renamed.erase("saltsIn");
  EXPECT_EQ(withdraw_parse_error(renamed).field, "saltsIn");
}

TEST(WithdrawRequest, NoteArraysHaveTenEntriesPaddedOnlyWithUnusedSlots) {
  // The Go arrays are [10]: the reference drops extra entries (the relayer pads the four lists
  // with "0" to its NUMBER_OF_JS_PARAMS_IN, which may be above 10) and panics on missing ones.
  // Here entries past 10 are taken as unused slots when each is 0, and left out; any other, and
  // a missing one, is refused naming the array.
  const auto plain = parse_withdraw_request(withdraw_k2_json().dump(), 2);
  ASSERT_TRUE(plain.ok());
  json padded = withdraw_k2_json();
  for (const char* key : {"hashes", "sk_deposits", "v_per_deposit", "saltsIn"}) {
    for (int i = 0; i < 6; ++i) padded[key].push_back(i % 2 ? "0" : "000");
  }
  const auto read = parse_withdraw_request(padded.dump(), 2);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->public_inputs(), plain->public_inputs());
  EXPECT_EQ(read->sk_deposits, plain->sk_deposits);
  EXPECT_EQ(read->v_per_deposit, plain->v_per_deposit);
  EXPECT_EQ(read->salts_in, plain->salts_in);
  for (const char* key : {"hashes", "sk_deposits", "v_per_deposit", "saltsIn"}) {
    json more = withdraw_k2_json();
    more[key].push_back("0");
    more[key].push_back("5");
    const Error e = withdraw_parse_error(more);
    EXPECT_EQ(e.message, std::string(key) + "[11] is not 0: " + key +
                             " has 12 entries, and those past 10 may only pad it with unused "
                             "slots (\"0\")");
    EXPECT_EQ(e.field, std::string(key) + "[11]");
    EXPECT_EQ(e.rule, "input");
    json both = more;  // a bad entry among the ten is named first
    both[key][3] = "x";
    EXPECT_EQ(withdraw_parse_error(both).field, std::string(key) + "[3]");
    json number = withdraw_k2_json();
    number[key].push_back(0);
    EXPECT_EQ(withdraw_parse_error(number).message,
              std::string(key) + "[10] must be a decimal string, not a JSON number");
    json fewer = withdraw_k2_json();
    fewer[key].erase(fewer[key].size() - 1);
    EXPECT_EQ(withdraw_parse_error(fewer).message,
              std::string(key) + " has 9 entries, expected 10");
    json entry = withdraw_k2_json();
    entry[key][3] = "";
    EXPECT_EQ(withdraw_parse_error(entry).field, std::string(key) + "[3]");
  }
  json not_array = withdraw_k2_json();
  not_array["hashes"] = "0";
  EXPECT_EQ(withdraw_parse_error(not_array).message, "hashes must be an array, not a JSON string");
}

TEST(WithdrawRequest, AddressIsADecimalFieldElement) {
  for (const char* bad : {"0x84bfdc6fc4c3a0b7a0e4c3cf5e1b7fb8a1d02c2f", "+1", "1.0"}) {
    json doc = withdraw_k2_json();
    doc["address"] = bad;
    EXPECT_EQ(withdraw_parse_error(doc).field, "address") << bad;
  }
  EXPECT_EQ(parse_withdraw_request(withdraw_k2_json().dump(), 1).error().field, "k");
}

}  // namespace
}  // namespace enygma
