// Ownership request parsing: the vector, the public signals the reference's handler computes
// (equal to ownership-721.public_signal.json), the Go struct's binding (every field required
// except merkleDepth, treeNumber and pubKeyOut.privateKey; keyPairIn.publicKey required although
// ignored), and every request the reference would crash on or reduce silently, refused with
// rule "input" naming the field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/ownership/request.hpp"
#include "core/ownership/wallet.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using nlohmann::ordered_json;

void expect_refused(const ordered_json& doc, const std::string& field) {
  auto r = parse_ownership_request(doc.dump());
  ASSERT_FALSE(r.ok()) << "accepted; expected an error naming " << field;
  EXPECT_EQ(r.error().rule, "input") << r.error().message;
  EXPECT_EQ(r.error().field, field) << r.error().message;
}

TEST(OwnershipRequest, ParsesTheVectorAndComputesItsPublicSignal) {
  auto r = parse_ownership_request(test::vector_json("ownership-721.json").dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const OwnershipRequest& q = *r;
  EXPECT_EQ(q.index, Fr::from_u64(2));
  EXPECT_EQ(q.salt_in, Fr::from_u64(5001));
  EXPECT_EQ(q.salt_out, Fr::from_u64(5002));
  EXPECT_EQ(q.revert_salt, Fr::from_u64(5003));
  EXPECT_EQ(q.tree_number, Fr::zero());
  // keyPairIn.publicKey of the vector is PK(sk); the parser derives it.
  EXPECT_EQ(q.public_key.to_decimal(),
            "82259899301112874992824827717379194892023197758349175977542045923795164573");
  const std::vector<Fr> pub = q.public_inputs();
  ASSERT_EQ(pub.size(), kOwnershipPublicInputs);
  EXPECT_EQ(test::decimals(pub),
            test::vector_json("ownership-721.public_signal.json").get<std::vector<std::string>>());
}

TEST(OwnershipRequest, OptionalAndIgnoredFields) {
  const ordered_json doc = test::vector_json("ownership-721.json");
  const std::vector<Fr> pub = parse_ownership_request(doc.dump())->public_inputs();
  ordered_json d = doc;
  d.erase("merkleDepth");
  d.erase("treeNumber");  // a Go int, default 0
  d["pubKeyOut"].erase("privateKey");
  d["keyPairIn"]["publicKey"] = "anything: ignored";
  auto r = parse_ownership_request(d.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->public_inputs(), pub);
  d["treeNumber"] = 77;
  EXPECT_EQ(parse_ownership_request(d.dump())->tree_number, Fr::from_u64(77));
  // Missing path elements are 0.
  ordered_json shortp = doc;
  shortp["merkleProof"]["elements"] = ordered_json::array();
  auto s = parse_ownership_request(shortp.dump());
  ASSERT_TRUE(s.ok());
  for (const Fr& e : s->path) EXPECT_EQ(e, Fr::zero());
}

// An optional member written in another case ("TreeNumber"), which Go's encoding/json would bind
// to the field, is refused naming the field, not read as a request without it (treeNumber 0
// in the proof where the relayer meant 5).
TEST(OwnershipRequest, AnOptionalFieldInAnotherCaseIsRefusedNotDefaulted) {
  const ordered_json doc = test::vector_json("ownership-721.json");
  ordered_json d = doc;
  d.erase("treeNumber");
  d["TreeNumber"] = 5;
  expect_refused(d, "treeNumber");
  EXPECT_NE(parse_ownership_request(d.dump()).error().message.find("\"TreeNumber\" is given"),
            std::string::npos);
  d = doc;
  d.erase("merkleDepth");
  d["MerkleDepth"] = 8;
  expect_refused(d, "merkleDepth");
  // merkleDepth is ignored, but Go's int bounds it: the reference answers 400 beyond
  d = doc;
  d["merkleDepth"] = uint64_t(1) << 63;
  expect_refused(d, "merkleDepth");
  d["merkleDepth"] = (uint64_t(1) << 63) - 1;
  EXPECT_TRUE(parse_ownership_request(d.dump()).ok());
  d["merkleDepth"] = -5;
  EXPECT_TRUE(parse_ownership_request(d.dump()).ok());
  d = doc;
  d["pubKeyOut"].erase("privateKey");
  d["pubKeyOut"]["PrivateKey"] = "1";
  expect_refused(d, "pubKeyOut.privateKey");
  d = doc;
  d["merkleProof"]["Elements"] = d["merkleProof"]["elements"];
  d["merkleProof"].erase("elements");
  expect_refused(d, "merkleProof.elements");
}

TEST(OwnershipRequest, MalformedRequestsNameTheField) {
  const ordered_json doc = test::vector_json("ownership-721.json");
  auto with = [&](auto edit) {
    ordered_json d = doc;
    edit(d);
    return d;
  };
  for (const char* text : {"", "{", "[]", "null", "{}"}) {
    auto r = parse_ownership_request(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().rule, "input");
  }
  for (const char* key : {"paymentCommitment", "uid", "saltIn", "saltOut", "revertSalt",
                          "keyPairIn", "pubKeyOut", "merkleProof", "merkleRoot"}) {
    expect_refused(with([&](auto& d) { d.erase(key); }), key);
  }
  for (const char* key :
       {"paymentCommitment", "uid", "saltIn", "saltOut", "revertSalt", "merkleRoot"}) {
    for (const char* bad : {test::kFrModulusDecimal, "-1", "0x1", "", "1.0"}) {
      expect_refused(with([&](auto& d) { d[key] = bad; }), key);
    }
  }
  // Required although ignored (Go's validator dives into the nested struct).
  expect_refused(with([](auto& d) { d["keyPairIn"].erase("publicKey"); }), "keyPairIn.publicKey");
  expect_refused(with([](auto& d) { d["keyPairIn"]["publicKey"] = ""; }), "keyPairIn.publicKey");
  expect_refused(with([](auto& d) { d["keyPairIn"]["privateKey"] = test::kFrModulusDecimal; }),
                 "keyPairIn.privateKey");
  expect_refused(with([](auto& d) { d["pubKeyOut"]["publicKey"] = test::kFrModulusDecimal; }),
                 "pubKeyOut.publicKey");
  expect_refused(with([](auto& d) { d["pubKeyOut"].erase("publicKey"); }), "pubKeyOut.publicKey");
  expect_refused(with([](auto& d) { d["merkleProof"].erase("indices"); }), "merkleProof.indices");
  expect_refused(with([](auto& d) { d["merkleProof"]["indices"] = test::kFrModulusDecimal; }),
                 "merkleProof.indices");
  expect_refused(with([](auto& d) { d["merkleProof"].erase("elements"); }), "merkleProof.elements");
  expect_refused(with([](auto& d) { d["merkleProof"]["elements"][3] = test::kFrModulusDecimal; }),
                 "merkleProof.elements[3]");
  expect_refused(with([](auto& d) { d["merkleProof"] = ordered_json::array(); }), "merkleProof");
  for (const ordered_json& bad : {ordered_json(-1), ordered_json(2.5), ordered_json("0"),
                                  ordered_json(9223372036854775808ull)}) {
    expect_refused(with([&](auto& d) { d["treeNumber"] = bad; }), "treeNumber");
  }
  expect_refused(with([](auto& d) { d["merkleDepth"] = "8"; }), "merkleDepth");
}

TEST(OwnershipRequest, WalletRequestsRoundTrip) {
  for (uint64_t seed = 0; seed < 4; ++seed) {
    const OwnershipRequest q = ownership_request_from_seed(seed);
    const std::string text = ownership_request_to_json(q);
    auto back = parse_ownership_request(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->public_inputs(), q.public_inputs());
    EXPECT_EQ(back->path, q.path);
    EXPECT_EQ(back->leaf, q.leaf);
    EXPECT_EQ(ownership_request_to_json(*back), text);
  }
}

}  // namespace
}  // namespace enygma
