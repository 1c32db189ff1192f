// parse_json (core/util/json_parse.hpp): nlohmann's parse plus the first member name given twice
// within one object, as a path. The per-family and per-format refusals are in registry_test and
// groth16_test; the memory bounds of deeply nested text in hardening_request_test.
#include "core/util/json_parse.hpp"

#include <gtest/gtest.h>

#include <string>

namespace enygma {
namespace {

std::string duplicate_in(const std::string& text) {
  ParsedJson p = parse_json(text);
  EXPECT_FALSE(p.value.is_discarded()) << text;
  return p.duplicate;
}

TEST(JsonParse, NamesTheFirstMemberGivenTwiceByItsPath) {
  EXPECT_EQ(duplicate_in(R"({"a": 1, "a": 2})"), "a");
  EXPECT_EQ(duplicate_in(R"({"a": 1, "b": 1, "b": 2, "a": 3})"), "b");
  EXPECT_EQ(duplicate_in(R"({"x": [1, {"y": {"z": 1, "z": 2}}]})"), "x[1].y.z");
  EXPECT_EQ(duplicate_in(R"({"x": [[], [0, [{"q": 1}, {"r": 1, "r": 1}]]]})"), "x[1][1][1].r");
  EXPECT_EQ(duplicate_in(R"([{"a": 1}, {"b": 1, "b": {}}])"), "[1].b");
  EXPECT_EQ(duplicate_in(R"({"a": {"b": 1}, "c": 1, "a": 2})"), "a");
  // The same value twice is no better: the text still says two things.
  EXPECT_EQ(duplicate_in(R"({"a": "1", "a": "1"})"), "a");
}

TEST(JsonParse, TheSameNameInDifferentObjectsIsFine) {
  EXPECT_EQ(duplicate_in(R"({"a": {"a": 1, "b": {"a": 2}}, "b": [{"a": 1}, {"a": 2}]})"), "");
  EXPECT_EQ(duplicate_in(R"({"o": {"k": 1}, "p": {"k": 1}, "q": [{"k": 1, "j": 2}]})"), "");
  EXPECT_EQ(duplicate_in(R"({"a": 1, "a ": 2, " a": 3, "a_": 4})"), "");  // other names
  EXPECT_EQ(duplicate_in("[]"), "");
  EXPECT_EQ(duplicate_in("7"), "");
  const ParsedJson p = parse_json(R"({"a": [1, 2, {"b": "c"}], "d": null})");
  EXPECT_EQ(p.value["a"][2]["b"], "c");
  EXPECT_TRUE(p.value["d"].is_null());
}

TEST(JsonParse, ManyMembersAndDeepNesting) {
  // Many names in one object: each checked against the others (a hash set, not a scan).
  std::string many = "{";
  for (int i = 0; i < 50000; ++i) many += "\"m" + std::to_string(i) + "\": 0, ";
  EXPECT_EQ(duplicate_in(many + "\"last\": 0}"), "");
  EXPECT_EQ(duplicate_in(many + "\"m49999\": 1}"), "m49999");
  // A name repeated at every depth of a nest of objects, each time once.
  std::string nest;
  for (int i = 0; i < 10000; ++i) nest += "{\"a\": 1, \"n\": ";
  nest += "0" + std::string(10000, '}');
  EXPECT_EQ(duplicate_in(nest), "");
}

TEST(JsonParse, TextThatIsNotJsonIsDiscarded) {
  for (const char* bad : {"", "{", "{\"a\": 1, \"a\": }", "[1,]", "{\"a\" 1}", "nul"}) {
    EXPECT_TRUE(parse_json(bad).value.is_discarded()) << bad;
  }
}

// Text that is not JSON is told where it goes wrong, by line and column, without a quote of it
// (a request's text holds its secret key).
TEST(JsonParse, TextThatIsNotJsonIsPlacedByLineAndColumn) {
  auto where = [](const std::string& text) {
    ParsedJson p = parse_json(text);
    EXPECT_TRUE(p.value.is_discarded()) << text;
    return p.syntax_error;
  };
  // The column is where the token that cannot be there ends.
  EXPECT_EQ(where(R"({"a": 1 "b": 2})"), "line 1, column 11");
  EXPECT_EQ(where("{\n  \"a\": 1,\n  \"b\": x\n}"), "line 3, column 8");
  EXPECT_EQ(where("x"), "line 1, column 1");
  EXPECT_EQ(where(R"({"secret": "12345)"), "it ends before its JSON value does");
  EXPECT_EQ(where("{"), "it ends before its JSON value does");
  EXPECT_EQ(where(""), "it holds no JSON value");
  EXPECT_EQ(where(" \n\t"), "it holds no JSON value");
  EXPECT_EQ(where(R"({"a": 1} x)"), "line 1, column 10");
  EXPECT_EQ(where(R"({"secret": "12345"x})").find("12345"), std::string::npos);
  EXPECT_EQ(not_json_message("request", parse_json("[1,]")),
            "request is not valid JSON (line 1, column 4)");
  EXPECT_EQ(parse_json("{}").syntax_error, "");
}

TEST(JsonParse, TheMessageSaysWhichNamesCollide) {
  ParsedJson p = parse_json(R"({"x": [{"y": 1, "y": 2}]})");
  EXPECT_EQ(p.duplicate_message,
            "x[0].y is given twice (a member name must be unique within its object)");
  p = parse_json(R"({"sender_id": "1", "Sender_ID": "2"})");
  EXPECT_EQ(p.duplicate, "sender_id");  // named as it first came
  EXPECT_EQ(p.duplicate_message,
            "sender_id is given twice, as \"sender_id\" and \"Sender_ID\" (names that differ "
            "only in case are one member to Go's encoding/json)");
  EXPECT_TRUE(parse_json(R"({"a": 1})").duplicate_message.empty());
}

// Names that Go's encoding/json binds to one field (bytes.EqualFold against an ASCII name) are
// one member: ASCII case, and the long s and the Kelvin sign, which fold to 's' and 'k'.
TEST(JsonParse, NamesThatDifferOnlyInCaseAreOneMember) {
  EXPECT_EQ(duplicate_in(R"({"secret_key": "1", "SECRET_KEY": "2"})"), "secret_key");
  EXPECT_EQ(duplicate_in(R"({"pi_a": [], "Pi_A": []})"), "pi_a");
  EXPECT_EQ(duplicate_in("{\"sender_id\": \"1\", \"\xC5\xBF"
                         "ender_id\": \"2\"}"),
            "sender_id");
  EXPECT_EQ(duplicate_in("{\"tokenId\": \"1\", \"to\xE2\x84\xAA"
                         "enId\": \"2\"}"),
            "tokenId");
  EXPECT_EQ(duplicate_in(R"({"o": [{"valuesIn": 1, "VALUESIN": 2}]})"), "o[0].valuesIn");
  // Other non-ASCII letters fold among themselves only: never onto an ASCII field's name.
  EXPECT_EQ(duplicate_in("{\"e\": 1, \"\xC3\xA9\": 2, \"\xC3\x89\": 3}"), "");
  EXPECT_EQ(fold_member_name("Erc1155TokenId"), "erc1155tokenid");
  EXPECT_EQ(fold_member_name("\xC5\xBF\xE2\x84\xAA_Z\xC3\x89"), "sk_z\xC3\x89");
  EXPECT_EQ(fold_member_name(""), "");
  EXPECT_EQ(fold_member_name("\xC5"), "\xC5");  // a truncated sequence stays as it is
}

}  // namespace
}  // namespace enygma
