// Join-split request parsing (both routes): the vectors, the public signals the reference's
// handler computes (equal to <name>.public_signal.json), the Go structs' quirks (optional ERC-20
// input arrays, the case-insensitive erc1155TokenId, treeNumbers padded from their own length,
// ignored publicKey and merkleDepth, missing path elements as 0), and every request the
// reference would crash on or reduce silently, refused with rule "input" naming the field (inputs
// adding up to p or more: by J1, naming the amount of 10^36 or more that such a sum needs).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/dvp/relation.hpp"
#include "core/joinsplit/request.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/joinsplit/wallet.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using nlohmann::ordered_json;
using test::read_vector;

const char* kZ = "14744269619966411208579211824598458697587494354926760081771325075741142829156";

Result<JoinSplitRequest> parse(const ordered_json& doc, NoteFormat f) {
  return parse_joinsplit_request(doc.dump(), f);
}

// The parse must fail with rule "input" naming `field`.
void expect_refused(const ordered_json& doc, NoteFormat f, const std::string& field) {
  auto r = parse(doc, f);
  ASSERT_FALSE(r.ok()) << "accepted; expected an error naming " << field;
  EXPECT_EQ(r.error().rule, "input") << r.error().message;
  EXPECT_EQ(r.error().field, field) << r.error().message;
  EXPECT_EQ(r.error().message.rfind(field, 0) == 0 ||
                r.error().message.rfind("missing field " + field, 0) == 0,
            true)
      << r.error().message;
}

// treeNumbers as Go's encoding/json reads them into an int: -0 is 0; an integer above 2^64 - 1
// (which nlohmann reads as a double) is refused as too large, not as a fraction.
TEST(JoinSplitRequest, TreeNumbersMinusZeroIsZeroAndTooLargeIsSaidSo) {
  std::string text = test::vector_json("joinsplit-enygma.json").dump();
  const size_t at = text.find("\"treeNumbers\":[");
  ASSERT_NE(at, std::string::npos);
  const size_t end = text.find(']', at);
  auto with_tree_numbers = [&](const std::string& list) {
    return text.substr(0, at) + "\"treeNumbers\":[" + list + text.substr(end);
  };
  auto zero = parse_joinsplit_request(with_tree_numbers("-0"), NoteFormat::kErc20);
  ASSERT_TRUE(zero.ok()) << zero.error().message;
  EXPECT_TRUE(zero->tree_numbers[0].is_zero());
  auto big = parse_joinsplit_request(with_tree_numbers("18446744073709551616"), NoteFormat::kErc20);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().field, "treeNumbers[0]");
  EXPECT_NE(big.error().message.find("above 2^64 - 1"), std::string::npos) << big.error().message;
  auto negative = parse_joinsplit_request(with_tree_numbers("-1"), NoteFormat::kErc20);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().message, "treeNumbers[0] is negative");
}

TEST(JoinSplitRequest, ParsesTheErc20Vector) {
  auto r = parse(test::vector_json("joinsplit-enygma.json"), NoteFormat::kErc20);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const JoinSplitRequest& q = *r;
  EXPECT_EQ(q.n, 1u);
  EXPECT_EQ(q.values_in[0], Fr::from_u64(110));
  EXPECT_EQ(q.values_out[0], Fr::from_u64(100));
  EXPECT_EQ(q.values_out[1], Fr::from_u64(10));
  EXPECT_EQ(q.indices[0], Fr::from_u64(2));
  EXPECT_EQ(q.salts_in[0], Fr::from_u64(1001));
  EXPECT_EQ(q.salts_out[1], Fr::from_u64(2002));
  EXPECT_EQ(q.revert_salt, Fr::from_u64(3001));
  // "0x22e5...81bD" as a big-endian integer (joinsplit-relation.md, "Numbers").
  EXPECT_EQ(q.token.to_decimal(), "199213985795714995297001884428921580810666344893");
  EXPECT_EQ(q.token_id, Fr::zero());
  // keyPairsIn[0].publicKey of the vector is PK(sk) (the parser derives it, ignoring the field).
  EXPECT_EQ(q.input_keys[0].to_decimal(),
            "1533925379893843268369636355724977827580873015240282908386183223696786491972");
  // The dummy slots.
  for (unsigned i = 1; i < kJoinSplitInputs; ++i) {
    EXPECT_EQ(q.values_in[i], Fr::zero());
    EXPECT_EQ(q.secret_keys[i], Fr::zero());
    EXPECT_EQ(q.merkle_roots[i], Fr::zero());
    EXPECT_EQ(q.nullifiers[i].to_decimal(), kZ);
    EXPECT_EQ(q.tree_numbers[i], Fr::zero());
  }
  EXPECT_EQ(dvp::dummy_nullifier().to_decimal(), kZ);
}

TEST(JoinSplitRequest, PublicSignalsEqualTheVectorFiles) {
  for (auto [name, f] : {std::pair{"joinsplit-enygma", NoteFormat::kErc20},
                         std::pair{"joinsplit-1155", NoteFormat::kErc1155}}) {
    SCOPED_TRACE(name);
    auto r = parse(test::vector_json((std::string(name) + ".json").c_str()), f);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const std::vector<Fr> pub = r->public_inputs();
    ASSERT_EQ(pub.size(), kJoinSplitPublicInputs);
    EXPECT_EQ(pub.size(), 34u);
    const ordered_json expected =
        test::vector_json((std::string(name) + ".public_signal.json").c_str());
    EXPECT_EQ(test::decimals(pub), expected.get<std::vector<std::string>>());
  }
}

TEST(JoinSplitRequest, Erc1155FieldsAndTheCaseInsensitiveTokenId) {
  ordered_json doc = test::vector_json("joinsplit-1155.json");
  auto r = parse(doc, NoteFormat::kErc1155);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->token_id, Fr::one());
  const std::vector<Fr> pub = r->public_inputs();
  // Go's encoding/json matches the untagged field Erc1155TokenId ignoring case (bytes.EqualFold:
  // the Kelvin sign U+212A is a k there).
  for (const char* key : {"Erc1155TokenId", "ERC1155TOKENID", "erc1155tokenid",
                          "erc1155To\xE2\x84\xAA"
                          "enId"}) {
    ordered_json d = doc;
    d.erase("erc1155TokenId");
    d[key] = "1";
    auto r2 = parse(d, NoteFormat::kErc1155);
    ASSERT_TRUE(r2.ok()) << key << ": " << r2.error().message;
    EXPECT_EQ(r2->public_inputs(), pub) << key;
  }
  // Two spellings at once: which one Go keeps depends on their order; refused.
  ordered_json twice = doc;
  twice["Erc1155TokenId"] = "2";
  expect_refused(twice, NoteFormat::kErc1155, "erc1155TokenId");
  ordered_json missing = doc;
  missing.erase("erc1155TokenId");
  expect_refused(missing, NoteFormat::kErc1155, "erc1155TokenId");
  ordered_json big = doc;
  big["erc1155TokenId"] = test::kFrModulusDecimal;
  expect_refused(big, NoteFormat::kErc1155, "erc1155TokenId");
  // The ERC-20 route has no token id, and the address keys differ.
  expect_refused(doc, NoteFormat::kErc20, "erc20Address");
  expect_refused(test::vector_json("joinsplit-enygma.json"), NoteFormat::kErc1155,
                 "erc1155Address");
}

TEST(JoinSplitRequest, AddressesAreHexWithAnOptionalLowerCase0x) {
  ordered_json doc = test::vector_json("joinsplit-enygma.json");
  const std::string hex = "22e5106744E618eF9ddD3E0a7a51b09f784581bD";
  const char* expected = "199213985795714995297001884428921580810666344893";
  for (const std::string& a : {"0x" + hex, hex, "0x" + std::string("0000") + hex,
                               std::string("0x22E5106744E618EF9DDD3E0A7A51B09F784581BD"),
                               std::string("0x22e5106744e618ef9ddd3e0a7a51b09f784581bd")}) {
    doc["erc20Address"] = a;
    auto r = parse(doc, NoteFormat::kErc20);
    ASSERT_TRUE(r.ok()) << a << ": " << r.error().message;
    EXPECT_EQ(r->token.to_decimal(), expected) << a;
  }
  doc["erc20Address"] = "0x1";
  EXPECT_EQ(parse(doc, NoteFormat::kErc20)->token, Fr::one());
  // "0X" is not stripped by the reference (it then fails to parse): refused, as every other
  // malformed address, one of p or more, and a non-string.
  for (const ordered_json& bad :
       {ordered_json("0X" + hex), ordered_json("0x"), ordered_json(""), ordered_json("0xzz"),
        ordered_json("-0x1"), ordered_json("+1"), ordered_json("0x 1"), ordered_json("0x0x1"),
        ordered_json("0x" + std::string(64, 'f')), ordered_json("0x" + std::string(70, '1')),
        ordered_json(12345), ordered_json::array()}) {
    doc["erc20Address"] = bad;
    expect_refused(doc, NoteFormat::kErc20, "erc20Address");
  }
  // p - 1 is the largest address accepted.
  doc["erc20Address"] = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000";
  EXPECT_TRUE(parse(doc, NoteFormat::kErc20).ok());
  doc["erc20Address"] = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
  expect_refused(doc, NoteFormat::kErc20, "erc20Address");
}

TEST(JoinSplitRequest, Erc20InputArraysAreOptionalErc1155OnesRequired) {
  // A "0 enygma swap": no inputs, outputs of 0.
  ordered_json doc = test::vector_json("joinsplit-enygma.json");
  for (const char* key :
       {"valuesIn", "keyPairsIn", "merkleProofs", "merkleRoots", "treeNumbers", "saltsIn"}) {
    doc.erase(key);
  }
  doc["valuesOut"] = {"0", "0"};
  auto r = parse(doc, NoteFormat::kErc20);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->n, 0u);
  for (unsigned i = 0; i < kJoinSplitInputs; ++i) EXPECT_EQ(r->nullifiers[i].to_decimal(), kZ);
  // null binds as an absent optional array.
  doc["valuesIn"] = nullptr;
  EXPECT_TRUE(parse(doc, NoteFormat::kErc20).ok());
  doc.erase("valuesIn");

  ordered_json d1155 = doc;
  d1155.erase("erc20Address");
  d1155["erc1155Address"] = "0x2dA195457f1CFDA0e69527c2A3C16c34326839F6";
  d1155["erc1155TokenId"] = "1";
  for (const char* key : {"valuesIn", "keyPairsIn", "merkleProofs", "merkleRoots", "treeNumbers"}) {
    expect_refused(d1155, NoteFormat::kErc1155, key);
    d1155[key] = ordered_json::array();  // an empty array passes the binding
  }
  auto r1155 = parse(d1155, NoteFormat::kErc1155);
  ASSERT_TRUE(r1155.ok()) << r1155.error().message;
  EXPECT_EQ(r1155->n, 0u);
}

// The ERC-20 request's optional members written in another case, which Go's encoding/json would
// bind: refused naming the field, not read as a request without them (a zero-input join-split,
// tree numbers 0, a path of zeros).
TEST(JoinSplitRequest, OptionalFieldsInAnotherCaseAreRefusedNotDefaulted) {
  const ordered_json doc = test::vector_json("joinsplit-enygma.json");
  for (const char* key :
       {"valuesIn", "keyPairsIn", "merkleProofs", "merkleRoots", "treeNumbers", "saltsIn"}) {
    ordered_json d = doc;
    std::string other = key;
    other[0] = char(std::toupper(static_cast<unsigned char>(other[0])));
    d[other] = d[key];
    d.erase(key);
    expect_refused(d, NoteFormat::kErc20, key);
  }
  ordered_json d = doc;
  d["merkleProofs"][0]["Elements"] = d["merkleProofs"][0]["elements"];
  d["merkleProofs"][0].erase("elements");
  expect_refused(d, NoteFormat::kErc20, "merkleProofs[0].elements");
  d = doc;
  d["keyPairsIn"][0]["PublicKey"] = "";
  d["keyPairsIn"][0].erase("publicKey");
  expect_refused(d, NoteFormat::kErc20, "keyPairsIn[0].publicKey");
}

TEST(JoinSplitRequest, TreeNumbersArePaddedFromTheirOwnLength) {
  ordered_json doc = test::vector_json("joinsplit-enygma.json");
  doc["treeNumbers"] = {5, 7, 9223372036854775807ull};
  auto r = parse(doc, NoteFormat::kErc20);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->tree_numbers[0], Fr::from_u64(5));
  EXPECT_EQ(r->tree_numbers[1], Fr::from_u64(7));
  EXPECT_EQ(r->tree_numbers[2].to_decimal(), "9223372036854775807");
  for (unsigned i = 3; i < kJoinSplitInputs; ++i) EXPECT_EQ(r->tree_numbers[i], Fr::zero());
  // Printed back up to the last non-zero one.
  auto again = parse_joinsplit_request(joinsplit_request_to_json(*r), NoteFormat::kErc20);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->public_inputs(), r->public_inputs());
}

TEST(JoinSplitRequest, IgnoredFieldsAndShortPaths) {
  ordered_json doc = test::vector_json("joinsplit-enygma.json");
  const std::vector<Fr> pub = parse(doc, NoteFormat::kErc20)->public_inputs();
  ordered_json d = doc;
  d["keyPairsIn"][0]["publicKey"] = "not a number: ignored";
  d["pubKeysOut"][0]["privateKey"] = "ignored too";
  d["merkleDepth"] = 31;
  d["unknownField"] = {1, 2, 3};
  auto r = parse(d, NoteFormat::kErc20);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->public_inputs(), pub);
  d.erase("merkleDepth");
  d["keyPairsIn"][0].erase("publicKey");
  EXPECT_TRUE(parse(d, NoteFormat::kErc20).ok());
  // Missing path elements are 0; extra ones are dropped (still canonical).
  ordered_json shortp = doc;
  shortp["merkleProofs"][0]["elements"] = {"1", "2"};
  auto s = parse(shortp, NoteFormat::kErc20);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->paths[0][1], Fr::from_u64(2));
  EXPECT_EQ(s->paths[0][2], Fr::zero());
  shortp["merkleProofs"][0].erase("elements");
  EXPECT_TRUE(parse(shortp, NoteFormat::kErc20).ok());
  ordered_json longp = doc;
  for (int i = 0; i < 3; ++i) longp["merkleProofs"][0]["elements"].push_back("12345");
  auto l = parse(longp, NoteFormat::kErc20);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->public_inputs(), pub);
  // Leading zeros denote the same number (the public signal is canonical).
  ordered_json zeros = doc;
  zeros["nftCommitment"] = "000" + doc["nftCommitment"].get<std::string>();
  EXPECT_EQ(parse(zeros, NoteFormat::kErc20)->public_inputs(), pub);
}

// Everything the reference answers with 500 and an empty body (a panic), or reduces silently,
// is an "input" error naming the field.
TEST(JoinSplitRequest, MalformedRequestsNameTheField) {
  const ordered_json doc = test::vector_json("joinsplit-enygma.json");
  const NoteFormat f = NoteFormat::kErc20;
  auto with = [&](auto edit) {
    ordered_json d = doc;
    edit(d);
    return d;
  };
  for (const char* text : {"", "{", "[]", "null", "12", "\"x\""}) {
    auto r = parse_joinsplit_request(text, f);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().rule, "input");
  }
  {  // a number no double holds: not JSON nlohmann reads, the member named
    auto r = parse_joinsplit_request(R"({"valuesIn": ["1", 1e309]})", f);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "valuesIn[1]");
    EXPECT_NE(r.error().message.find("valuesIn[1] is a number beyond the range of a double"),
              std::string::npos)
        << r.error().message;
  }
  expect_refused(with([](auto& d) { d.erase("nftCommitment"); }), f, "nftCommitment");
  expect_refused(with([](auto& d) { d["nftCommitment"] = test::kFrModulusDecimal; }), f,
                 "nftCommitment");
  expect_refused(with([](auto& d) { d["nftCommitment"] = 5; }), f, "nftCommitment");
  for (const char* bad :
       {"-1", "+1", "0x10", "1.5", " 1", "1 ", "", "1e3", test::kFrModulusDecimal}) {
    expect_refused(with([&](auto& d) { d["valuesIn"][0] = bad; }), f, "valuesIn[0]");
  }
  expect_refused(with([](auto& d) { d["valuesIn"] = "110"; }), f, "valuesIn");
  expect_refused(with([](auto& d) { d["valuesOut"] = {"110"}; }), f, "valuesOut");
  expect_refused(with([](auto& d) { d["valuesOut"][1] = test::kFrModulusDecimal; }), f,
                 "valuesOut[1]");
  expect_refused(with([](auto& d) { d["keyPairsIn"] = ordered_json::array(); }), f, "keyPairsIn");
  expect_refused(with([](auto& d) { d["keyPairsIn"][0].erase("privateKey"); }), f,
                 "keyPairsIn[0].privateKey");
  expect_refused(with([](auto& d) { d["keyPairsIn"][0]["privateKey"] = test::kFrModulusDecimal; }),
                 f, "keyPairsIn[0].privateKey");
  expect_refused(with([](auto& d) { d["keyPairsIn"][0]["publicKey"] = 1; }), f,
                 "keyPairsIn[0].publicKey");
  expect_refused(with([](auto& d) { d["keyPairsIn"][0] = "x"; }), f, "keyPairsIn[0]");
  expect_refused(with([](auto& d) { d["pubKeysOut"][1]["publicKey"] = test::kFrModulusDecimal; }),
                 f, "pubKeysOut[1].publicKey");
  expect_refused(with([](auto& d) { d["pubKeysOut"].erase(1); }), f, "pubKeysOut");
  expect_refused(with([](auto& d) { d["merkleDepth"] = "8"; }), f, "merkleDepth");
  expect_refused(with([](auto& d) { d["merkleDepth"] = 8.5; }), f, "merkleDepth");
  expect_refused(with([](auto& d) { d["merkleProofs"][0].erase("indices"); }), f,
                 "merkleProofs[0].indices");
  expect_refused(with([](auto& d) { d["merkleProofs"][0]["indices"] = test::kFrModulusDecimal; }),
                 f, "merkleProofs[0].indices");
  expect_refused(
      with([](auto& d) { d["merkleProofs"][0]["elements"][4] = test::kFrModulusDecimal; }), f,
      "merkleProofs[0].elements[4]");
  expect_refused(with([](auto& d) { d["merkleProofs"][0]["elements"].push_back("x"); }), f,
                 "merkleProofs[0].elements[8]");
  expect_refused(with([](auto& d) { d["merkleProofs"][0]["elements"] = "0"; }), f,
                 "merkleProofs[0].elements");
  expect_refused(with([](auto& d) { d["merkleRoots"][0] = test::kFrModulusDecimal; }), f,
                 "merkleRoots[0]");
  expect_refused(with([](auto& d) { d["merkleRoots"].push_back("1"); }), f, "merkleRoots");
  expect_refused(with([](auto& d) { d["treeNumbers"] = ordered_json::array(); }), f, "treeNumbers");
  expect_refused(with([](auto& d) { d["treeNumbers"] = std::vector<int>(11, 0); }), f,
                 "treeNumbers");
  for (const ordered_json& bad :
       {ordered_json(-1), ordered_json(1.5), ordered_json(1e3), ordered_json("0"),
        ordered_json(9223372036854775808ull), ordered_json(nullptr)}) {
    expect_refused(with([&](auto& d) { d["treeNumbers"][0] = bad; }), f, "treeNumbers[0]");
  }
  expect_refused(with([](auto& d) { d.erase("erc20Address"); }), f, "erc20Address");
  expect_refused(with([](auto& d) { d["saltsIn"] = ordered_json::array(); }), f, "saltsIn");
  expect_refused(with([](auto& d) { d.erase("saltsIn"); }), f, "saltsIn");
  expect_refused(with([](auto& d) { d["saltsIn"][0] = test::kFrModulusDecimal; }), f, "saltsIn[0]");
  expect_refused(with([](auto& d) { d["saltsIn"].push_back("x"); }), f, "saltsIn[1]");
  expect_refused(with([](auto& d) { d["saltsOut"].push_back("1"); }), f, "saltsOut");
  expect_refused(with([](auto& d) { d["saltsOut"][0] = test::kFrModulusDecimal; }), f,
                 "saltsOut[0]");
  expect_refused(with([](auto& d) { d.erase("revertSalt"); }), f, "revertSalt");
  expect_refused(with([](auto& d) { d["revertSalt"] = nullptr; }), f, "revertSalt");
  // More than 10 inputs (the reference drops the extras from the witness but counts them).
  expect_refused(with([](auto& d) { d["valuesIn"] = std::vector<std::string>(11, "0"); }), f,
                 "valuesIn");
  // Extra saltsIn entries are allowed (the reference reads the first n).
  EXPECT_TRUE(parse(with([](auto& d) { d["saltsIn"].push_back("7"); }), f).ok());
}

TEST(JoinSplitRequest, InputsAddingUpToPOrMoreParseAndBreakJ1) {
  // The reference hashes sum(valuesIn) natively for the revert commitment and crashes when the
  // sum is p or more, although each amount is below p. Such a sum needs an amount of 10^36 or
  // more: the request parses, and J1 refuses it naming that amount.
  const JoinSplitRequest q = joinsplit_request_from_seed(NoteFormat::kErc20, 3, 2);
  ordered_json d = ordered_json::parse(joinsplit_request_to_json(q));
  d["valuesIn"][0] =
      "21888242871839275222246405745257275088548364400416034343698204186575808495616";
  d["valuesIn"][1] = "1";
  auto r = parse(d, NoteFormat::kErc20);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Status st = validate_joinsplit(*r);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "J1");
  EXPECT_EQ(st.error().field, "valuesIn[0]");
}

TEST(JoinSplitRequest, WalletRequestsRoundTrip) {
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    for (unsigned n : {0u, 1u, 4u, 10u}) {
      const JoinSplitRequest q = joinsplit_request_from_seed(f, 100 + n, n);
      const std::string text = joinsplit_request_to_json(q);
      auto back = parse_joinsplit_request(text, f);
      ASSERT_TRUE(back.ok()) << back.error().message;
      EXPECT_EQ(back->n, n);
      EXPECT_EQ(back->public_inputs(), q.public_inputs());
      EXPECT_EQ(back->values_in, q.values_in);
      EXPECT_EQ(back->secret_keys, q.secret_keys);
      EXPECT_EQ(back->paths, q.paths);
      EXPECT_EQ(back->leaves, q.leaves);
      EXPECT_EQ(joinsplit_request_to_json(*back), text);
    }
  }
}

}  // namespace
}  // namespace enygma
