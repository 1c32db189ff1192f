// Deposit request parsing: the Go struct's JSON keys (`hash`, `pk`, `address` as a decimal
// string, `saltOut`), the public inputs in the documented order, the printed JSON in the
// struct's field order, and every kind of malformed input named by its field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/deposit/request.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using json = nlohmann::ordered_json;

json deposit_k2_json() {
  return json::parse(test::read_vector("deposit-k2.json"));
}

Error deposit_parse_error(const json& doc, unsigned k = 2) {
  auto r = parse_deposit_request(doc.dump(), k);
  EXPECT_FALSE(r.ok()) << doc.dump();
  return r.ok() ? Error{} : r.error();
}

TEST(DepositRequest, ParsesTheVectorsNoteFields) {
  const json doc = deposit_k2_json();
  auto r = parse_deposit_request(doc.dump(), 2);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->hash.to_decimal(), doc["hash"].get<std::string>());
  EXPECT_EQ(r->note_public_key.to_decimal(), doc["pk"].get<std::string>());
  EXPECT_EQ(r->address.to_decimal(), "751395322839084753071581449311611820091830988144");
  EXPECT_EQ(r->salt_out, Fr::from_u64(4242));
  EXPECT_EQ(r->sender_tx_value, Fr::from_u64(50));
  auto r6 = parse_deposit_request(test::read_vector("deposit-k6.json"), 6);
  ASSERT_TRUE(r6.ok()) << r6.error().message;
  EXPECT_EQ(r6->salt_out, Fr::from_u64(424242));
}

TEST(DepositRequest, PublicInputsAreThePaymentInputsThenTheHash) {
  auto r = parse_deposit_request(test::read_vector("deposit-k6.json"), 6);
  ASSERT_TRUE(r.ok());
  const std::vector<Fr> pub = r->public_inputs();
  ASSERT_EQ(pub.size(), 8u * 6 + 3);
  const std::vector<Fr> payment = r->payment_public_inputs();
  EXPECT_TRUE(std::equal(payment.begin(), payment.end(), pub.begin()));
  EXPECT_EQ(pub.back(), r->hash);
}

TEST(DepositRequest, PrintsTheStructsFieldOrderAndRoundTrips) {
  const json doc = deposit_k2_json();
  auto r = parse_deposit_request(doc.dump(), 2);
  ASSERT_TRUE(r.ok());
  const json printed = json::parse(deposit_request_to_json(*r));
  EXPECT_EQ(printed, doc);  // same keys, same order, same strings (the vector is canonical)
  auto again = parse_deposit_request(printed.dump(), 2);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->public_inputs(), r->public_inputs());
}

TEST(DepositRequest, EveryNoteFieldIsRequiredAndNamed) {
  for (const char* key : {"hash", "pk", "address", "saltOut"}) {
    json doc = deposit_k2_json();
    doc.erase(key);
    const Error e = deposit_parse_error(doc);
    EXPECT_EQ(e.rule, "input");
    EXPECT_EQ(e.field, key);
    EXPECT_EQ(e.message, std::string("missing field ") + key);
  }
  // The Go struct's key is camelCase: salt_out is not it.
  json renamed = deposit_k2_json();
  renamed["salt_out"] = renamed["saltOut"];
  renamed.erase("saltOut");
  EXPECT_EQ(deposit_parse_error(renamed).field, "saltOut");
}

TEST(DepositRequest, AddressIsADecimalFieldElement) {
  for (const char* bad :
       {"0x839d4c8f5b8a9b47e7b1ea2ba88ed36f34ba5ef0", "-1", "", " 1", "1e3",
        // p itself: not canonical
        "21888242871839275222246405745257275088548364400416034343698204186575808495617"}) {
    json doc = deposit_k2_json();
    doc["address"] = bad;
    const Error e = deposit_parse_error(doc);
    EXPECT_EQ(e.field, "address") << bad;
    EXPECT_EQ(e.message, "address is not a canonical field element (a decimal string below p)");
  }
  json number = deposit_k2_json();
  number["hash"] = 5;
  EXPECT_EQ(deposit_parse_error(number).message,
            "hash must be a decimal string, not a JSON number");
  json leading = deposit_k2_json();
  leading["saltOut"] = "0004242";  // leading zeros denote the same number
  auto r = parse_deposit_request(leading.dump(), 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->salt_out, Fr::from_u64(4242));
}

TEST(DepositRequest, TransferFieldsAreCheckedAsForATransfer) {
  json doc = deposit_k2_json();
  doc["tx_values"].push_back("0");
  EXPECT_EQ(deposit_parse_error(doc).message, "tx_values has 3 entries, expected 2");
  json pair = deposit_k2_json();
  pair["tx_commits"][1] = json::array({"1"});
  EXPECT_EQ(deposit_parse_error(pair).field, "tx_commits[1]");
  EXPECT_EQ(parse_deposit_request(deposit_k2_json().dump(), 17).error().field, "k");
  EXPECT_EQ(parse_deposit_request("[]", 2).error().rule, "input");
  EXPECT_EQ(parse_deposit_request("{", 2).error().message,
            "request is not valid JSON (it ends before its JSON value does)");
  // a number no double holds: not JSON nlohmann reads, the member named
  EXPECT_EQ(parse_deposit_request(R"({"tx_values": ["0", -1e309]})", 2).error().field,
            "tx_values[1]");
}

}  // namespace
}  // namespace enygma
