// parse_json (core/util/json_parse.hpp): a reader that accepts what nlohmann's parse accepts,
// with the same values and error positions (checked against nlohmann on edge cases and mutated
// requests), plus the first member name given twice within one object, as a path. The per-family
// and per-format refusals are in registry_test and groth16_test; the memory bounds of deeply nested
// text in hardening_request_test.
#include "core/util/json_parse.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/test_rng.hpp"
#include "support/vectors.hpp"

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

// wipe_json_values zeroes every string's bytes and every number, at every depth, in place.
TEST(JsonParse, WipeZeroesStringsAndNumbersAtEveryDepth) {
  auto parsed = parse_json(
      R"({"s":"secret","u":12345678901234567890,"i":-42,"f":1.5,"a":[[7,"xy"],{"n":3}],"t":true})");
  ASSERT_FALSE(parsed.value.is_discarded());
  nlohmann::json& doc = parsed.value;
  const std::string* s = &doc["s"].get_ref<const std::string&>();
  const std::string* inner = &doc["a"][0][1].get_ref<const std::string&>();
  // (by address: the names are wiped too, so the members cannot be looked up after)
  const nlohmann::json *u = &doc["u"], *i = &doc["i"], *f = &doc["f"], *a00 = &doc["a"][0][0],
                       *n = &doc["a"][1]["n"], *t = &doc["t"];
  wipe_json_values(doc);
  EXPECT_EQ(*s, std::string(6, '\0'));
  EXPECT_EQ(*inner, std::string(2, '\0'));
  EXPECT_EQ(u->get<uint64_t>(), 0u);
  EXPECT_TRUE(u->is_number_unsigned());
  EXPECT_EQ(i->get<int64_t>(), 0);
  EXPECT_EQ(f->get<double>(), 0.0);
  EXPECT_EQ(a00->get<int64_t>(), 0);
  EXPECT_EQ(n->get<int64_t>(), 0);
  EXPECT_EQ(*t, true);  // literals hold nothing of a secret's
}

// Member names are wiped too (a value may stand in a name's place), and messages and paths show
// only names that look like field names.
TEST(JsonParse, NamesAreWipedAndShownOnlyWhereFieldLike) {
  const std::string sk = "1265432109876543210987654321";
  auto parsed = parse_json("{\"a\": {\"" + sk + "\": 1, \"" + sk + "\": 2}}");
  EXPECT_EQ(parsed.duplicate, "a.(a member name)");
  EXPECT_EQ(parsed.duplicate_message,
            "a.(a member name) is given twice (a member name must be unique within its object)");
  parsed = parse_json("{\"sk\": {\"" + sk + "x\": 1, \"" + sk + "X\": 2}}");
  EXPECT_EQ(parsed.duplicate_message,
            "sk.(a member name) is given twice, as \"(a member name)\" and \"(a member name)\" "
            "(names that differ only in case are one member to Go's encoding/json)");
  parsed = parse_json("{\"" + sk + "\": [1e400]}");
  EXPECT_EQ(parsed.bad_value_field, "(a member name)[0]");
  parsed = parse_json("{\"" + sk + "\": {\"b\": 1}}");
  ASSERT_FALSE(parsed.value.is_discarded());
  const std::string& name = parsed.value.begin().key();
  wipe_json_values(parsed.value);
  EXPECT_EQ(name, std::string(sk.size(), '\0'));
  for (const char* shown : {"secret_key", "keyPairsIn", "_x", "a-b", "Sender_ID2"}) {
    EXPECT_EQ(shown_member_name(shown), shown);
  }
  for (const char* hidden : {"", "0x12", "12", "a b", "a.b", "\"", "\xC5\xBF"}) {
    EXPECT_EQ(shown_member_name(hidden), "(a member name)") << hidden;
  }
  EXPECT_EQ(shown_member_name(std::string(65, 'a')), "(a member name)");
  EXPECT_EQ(shown_member_name(std::string(64, 'a')), std::string(64, 'a'));
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

// A number beyond a double's range is well formed but not a value nlohmann reads: the text is
// refused (as nlohmann refuses it), and the member or element holding it is named.
TEST(JsonParse, ANumberBeyondADoubleNamesItsMemberOrElement) {
  auto bad = [](const std::string& text) {
    ParsedJson p = parse_json(text);
    EXPECT_TRUE(p.value.is_discarded()) << text;
    EXPECT_EQ(p.bad_value, "a number beyond the range of a double") << text;
    return p.bad_value_field;
  };
  EXPECT_EQ(bad(R"({"amount": 1e309})"), "amount");
  EXPECT_EQ(bad(R"({"a": {"b": [1, 2, -2e400]}})"), "a.b[2]");
  EXPECT_EQ(bad(R"({"a": [[1], [ 1e999 ]]})"), "a[1][0]");
  EXPECT_EQ(bad("[\n  1e400]"), "[0]");
  EXPECT_EQ(bad("1e400"), "");
  EXPECT_EQ(bad(R"({"a": 1, 1e400: 2})"), "");  // a member name's place: no member is named
  EXPECT_EQ(bad(R"([1 1e400])"), "");           // after a value, not an element's place
  EXPECT_EQ(not_json_message("request", parse_json(R"({"vault": {"amount": 1e309}})")),
            "request is not valid JSON (line 1, column 26: vault.amount is a number beyond the "
            "range of a double)");
  EXPECT_EQ(not_json_message("request", parse_json("1e400")),
            "request is not valid JSON (line 1, column 5: it is a number beyond the range of a "
            "double)");
  // other texts that are not JSON have none
  ParsedJson p = parse_json(R"({"a": 1e30x})");
  EXPECT_EQ(p.bad_value, "");
  EXPECT_EQ(p.bad_value_field, "");
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

// ---- the same reading as nlohmann's ---------------------------------------------------------

// Equal values of equal types at every depth (nlohmann's == takes 1 and 1.0 as equal).
bool same(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_array()) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (!same(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto jt = b.find(it.key());
      if (jt == b.end() || !same(*it, *jt)) return false;
    }
    return true;
  }
  if (a.is_number_float()) {
    return a.get<double>() == b.get<double>() ||
           (std::isnan(a.get<double>()) && std::isnan(b.get<double>()));
  }
  return a == b;
}

// nlohmann's verdict on a text, and where its SAX parser stops on text that is not JSON, in
// parse_json's words.
struct NlohmannPosition : nlohmann::json::json_sax_t {
  size_t byte = 0;  // 1 + the offset of the last character read
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    byte = position;
    return false;
  }
};

std::string nlohmann_error_position(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return "it holds no JSON value";
  NlohmannPosition p;
  nlohmann::json::sax_parse(text.begin(), text.end(), &p);
  const size_t at = std::min(p.byte - 1, text.size());
  if (at >= text.size()) return "it ends before its JSON value does";
  const size_t line = size_t(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
  const size_t newline = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  const size_t column = newline == std::string::npos ? at + 1 : at - newline;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// One text read both ways; returns false (after a failed expectation) when they differ.
bool reads_as_nlohmann(const std::string& text) {
  const ParsedJson ours = parse_json(text);
  const nlohmann::json theirs = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (ours.value.is_discarded() != theirs.is_discarded()) {
    ADD_FAILURE() << "accepted by " << (theirs.is_discarded() ? "parse_json" : "nlohmann")
                  << " only: "
                  << nlohmann::json(text).dump(-1, ' ', true,
                                               nlohmann::json::error_handler_t::replace);
    return false;
  }
  if (theirs.is_discarded()) {
    const std::string where = nlohmann_error_position(text);
    EXPECT_EQ(ours.syntax_error, where)
        << nlohmann::json(text).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    return ours.syntax_error == where;
  }
  EXPECT_TRUE(same(ours.value, theirs)) << text;
  return same(ours.value, theirs);
}

// Texts at the edges of the grammar, each with every prefix (where a text ends early).
TEST(JsonParse, EdgeCasesReadAsNlohmannReadsThem) {
  const std::vector<std::string> texts = {
      R"({"a":[1,-0,0,0.5e-3,1E+2,-1.5E-2,1e400,-1e400,1e-400,123456789012345678901234567890]})",
      "[18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809]",
      R"(["\u00e9\uD83D\uDE00\n\t\"\\\/\b\f\r", "\u0000", "\uFFFF", "\uDBFF\uDFFF"])",
      "[\"\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xF0\x90\x80\x80\xF4\x8F\xBF\xBF\x7F"
      "\"]",
      "\xEF\xBB\xBF{\"a\": true}",
      "\xEF\xBB{}",
      "\xEF{}",
      "\xEF\xBB\xBE{}",
      "{}\xEF\xBB\xBF",
      " \t\r\n[ true , false , null ] \n",
      "[tru]",
      "[nulL]",
      "[falsy]",
      "{\"a\" 1}",
      "[01]",
      "[-]",
      "[-a]",
      "[1.]",
      "[1.e5]",
      "[1e]",
      "[1e+]",
      "[+1]",
      "[.5]",
      "[1.5.3]",
      "[0x10]",
      "[\"\\uD800\"]",
      "[\"\\uD800\\n\"]",
      "[\"\\uD800x\"]",
      "[\"\\uD800\\u0041\"]",
      "[\"\\uDC00\"]",
      "[\"\\u12G4\"]",
      "[\"\\x\"]",
      "[\"a\x01b\"]",
      "[\"a\x7f\"]",
      "[\"\xC0\x80\"]",
      "[\"\xC1\xBF\"]",
      "[\"\xE0\x9F\xBF\"]",
      "[\"\xED\xA0\x80\"]",
      "[\"\xF0\x8F\xBF\xBF\"]",
      "[\"\xF4\x90\x80\x80\"]",
      "[\"\xF5\x80\x80\x80\"]",
      "[\"\x80\"]",
      "[\"\xFF\"]",
      "[\"\xC2\"]",
      "[\"\xE1\x80\"]",
      std::string("[\"a\0b\"]", 7),
      std::string("[1,\0]", 5),
      "[1,]",
      "[,1]",
      "{,}",
      "{\"a\":1,}",
      "{\"a\":}",
      "{1:2}",
      "[1 2]",
      "{\"a\":1 \"b\":2}",
      "[[[[[]]]]]",
      "[[[[[]]]]",
      "[]]",
      "{}}",
      "{\"a\":{\"b\":[{}, []]}}",
      "1",
      "-1",
      "\"s\"",
      "true",
      "null",
      "1 2",
      "// c\n{}",
      "/* c */{}",
      "{\"a\":1}/",
      "[1e5, 1E5, 1e-5, -0.0, 0e0, 0E+0, 1.25e+308]",
      "{\"a\":1,\"a\":2}",
      "{\"\":\"\"}",
      "[\"\\u0041\\u00410\"]",
      "{\"a\":\n  1,\n  \"b\": x}",
      "\n\n  x",
      "[1,\n2,\n3,\n]",
  };
  int cases = 0;
  for (const std::string& text : texts) {
    for (size_t n = 0; n <= text.size(); ++n) {
      ++cases;
      if (!reads_as_nlohmann(text.substr(0, n))) break;
    }
  }
  EXPECT_GT(cases, 850);
  // The one difference: nlohmann ends its input at a NUL byte and ignores what follows; the
  // project's reader refuses it, as Go's encoding/json does.
  const std::string nul_then_junk("{\"a\": 1}\0{\"a\": 2}", 17);
  EXPECT_FALSE(nlohmann::json::parse(nul_then_junk, nullptr, false).is_discarded());
  EXPECT_EQ(parse_json(nul_then_junk).syntax_error, "line 1, column 9");
}

// The requests of the shared vectors with 1 to 3 random changes each (a byte replaced by one of
// the grammar's interesting bytes, inserted, deleted, or the text cut short): 6,000 texts.
TEST(JsonParse, MutatedRequestsReadAsNlohmannReadsThem) {
  static const char kBytes[] =
      "\"\\u/bfnrtDdC8Ff0{}[],: \n\t-+.eE19tnfa\x01\x1f\x7f\x80\xbf\xc0"
      "\xc2\xdf\xe0\xed\xef\xbb\xf0\xf4\xf5\xff";
  std::vector<std::string> bases;
  for (const char* name : {"transfer-k2.json", "withdraw-k2-bad.json", "joinsplit-1155.json",
                           "ownership-721.json", "deposit-k2.json"}) {
    bases.push_back(test::read_vector(name));
    ASSERT_FALSE(bases.back().empty()) << name;
  }
  test::TestRng rng(71);
  int accepted = 0, refused = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string text = bases[size_t(round) % bases.size()];
    const int edits = 1 + int(rng.next() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = size_t(rng.next() % text.size());
      const char byte = kBytes[rng.next() % (sizeof(kBytes) - 1)];
      switch (rng.next() % 4) {
        case 0:
          text[at] = byte;
          break;
        case 1:
          text.insert(at, 1, byte);
          break;
        case 2:
          text.erase(at, 1);
          break;
        default:
          if (e == 0) text.resize(at);
      }
    }
    if (!reads_as_nlohmann(text)) break;
    (nlohmann::json::accept(text) ? accepted : refused)++;
  }
  EXPECT_GT(accepted, 500);  // both verdicts are exercised
  EXPECT_GT(refused, 2000);
}

}  // namespace
}  // namespace enygma
