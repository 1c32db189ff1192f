// error_json: the {"error", "rule", "field"} object of the CLI, the server and the WebAssembly API.
#include "core/util/error_json.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace enygma {
namespace {

TEST(ErrorJson, HasTheThreeFieldsInOrder) {
  const std::string s =
      error_json(make_error("R13: tx_commits[2] is wrong", "R13", "tx_commits[2]"));
  EXPECT_EQ(s, R"({"error":"R13: tx_commits[2] is wrong","rule":"R13","field":"tx_commits[2]"})");
}

TEST(ErrorJson, EscapesQuotesAndControlCharacters) {
  const auto j = nlohmann::json::parse(error_json("say \"hi\"\n\x01", "input", "a\\b"));
  EXPECT_EQ(j["error"], "say \"hi\"\n\x01");
  EXPECT_EQ(j["field"], "a\\b");
}

// A message may quote a client's bytes: invalid UTF-8 must give valid JSON, not an exception.
TEST(ErrorJson, InvalidUtf8IsReplacedNotThrown) {
  const std::string bad = "field \xff\xfe\xc3 end";
  std::string s;
  ASSERT_NO_THROW(s = error_json(bad, "input", std::string("k\xc0")));
  const auto j = nlohmann::json::parse(s);
  EXPECT_EQ(j["error"], "field \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD end");  // U+FFFD each
  EXPECT_EQ(j["rule"], "input");
}

}  // namespace
}  // namespace enygma
