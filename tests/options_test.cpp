// The native commands' option parsing: every message is one line naming the option, whatever
// the value given (a newline or a terminal's escape sequence in it is shown as \xNN).
#include "native/common/options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace enygma::native {
namespace {

Args parsed(std::vector<std::string> words, bool expect_ok = true) {
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  Args args;
  EXPECT_EQ(args.parse(static_cast<int>(argv.size()), argv.data(), {"threads", "keys", "k"}),
            expect_ok);
  return args;
}

TEST(Options, AnIntegerOutOfRangeIsQuotedOnOneLine) {
  Args args = parsed({"enygma", "--threads", "2\nX\x1b[2J"});
  auto threads = args.get_uint("threads", 1, 1, 64);
  ASSERT_FALSE(threads.ok());
  EXPECT_EQ(threads.error().message,
            "--threads must be an integer in 1..64, got '2\\x0aX\\x1b[2J'");
  EXPECT_EQ(threads.error().field, "threads");
  EXPECT_EQ(*parsed({"enygma", "--threads=7"}).get_uint("threads", 1, 1, 64), 7u);
}

TEST(Options, UnknownOptionsAndForgottenValuesAreQuotedOnOneLine) {
  EXPECT_EQ(parsed({"enygma", "--thr\neads", "2"}, false).error(), "unknown option --thr\\x0aeads");
  EXPECT_EQ(parsed({"enygma", "--keys", "--x\ny"}, false).error(),
            "--keys needs a value, got the option --x\\x0ay (write --keys=--x\\x0ay for a value "
            "that starts with --)");
}

// A word after a flag (an option that takes no value) is named with the flag, as a value it does
// not take, quoted on one line and cut beyond 32 bytes; a word after an option's value is a
// stray half of that value (a secret written with a space), named by its place only.
TEST(Options, AWordAfterAFlagIsNamedAsAValueItDoesNotTake) {
  auto with_flag = [](std::vector<std::string> words) {
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    Args args;
    EXPECT_FALSE(args.parse(static_cast<int>(argv.size()), argv.data(), {"keys"}, {"digest"}));
    return args.error();
  };
  EXPECT_EQ(with_flag({"enygma", "--keys", "k", "--digest", "off"}),
            "unexpected argument 'off' after --digest (a flag, it takes no value)");
  EXPECT_EQ(with_flag({"enygma", "--digest", "o\nff"}),
            "unexpected argument 'o\\x0aff' after --digest (a flag, it takes no value)");
  EXPECT_EQ(with_flag({"enygma", "--digest", std::string(40, 'y')}),
            "unexpected argument '" + std::string(32, 'y') +
                "\u2026' after --digest (a flag, it takes no value)");
  EXPECT_EQ(with_flag({"enygma", "--digest", "--keys", "k", "secret"}),
            "unexpected argument 4 (not an option; it follows --keys's value: a value with spaces "
            "must be quoted)");
  EXPECT_EQ(with_flag({"enygma", "word"}),
            "unexpected argument 1 (not an option: options start with --)");
}

TEST(Options, AKOutOfRangeIsQuotedOnOneLine) {
  Args args = parsed({"enygma", "--k", "2\n9"});
  auto circuit = circuit_option(args);
  ASSERT_FALSE(circuit.ok());
  EXPECT_EQ(circuit.error().message.find('\n'), std::string::npos) << circuit.error().message;
  EXPECT_NE(circuit.error().message.find("got '2\\x0a9'"), std::string::npos)
      << circuit.error().message;
}

// --k's values are the registry's anonymity-set sizes, and its errors say so.
TEST(Options, KBoundsAreTheRegistrysAndTheirErrorSaysThem) {
  EXPECT_EQ(k_bounds(), (std::pair<unsigned, unsigned>{2, 16}));
  EXPECT_EQ(k_bounds_text(), "2..16");
  auto circuits = resolve_circuits("transfer", std::string("1-3"), "circuit");
  ASSERT_FALSE(circuits.ok());
  EXPECT_EQ(circuits.error().message,
            "--k must list anonymity-set sizes in 2..16 such as 4, 2-6 or 2,3,6, got '1-3'");
  EXPECT_FALSE(resolve_circuits("transfer", std::string("2,17"), "circuit").ok());
  EXPECT_TRUE(resolve_circuits("transfer", std::string("16"), "circuit").ok());
  // --k has nothing to choose where only ids (and families without k) are named.
  EXPECT_TRUE(names_circuit_ids_only("transfer-k6"));
  EXPECT_TRUE(names_circuit_ids_only("transfer-k6,ownership-721"));
  EXPECT_FALSE(names_circuit_ids_only("ownership-721"));
  EXPECT_FALSE(names_circuit_ids_only("transfer-k6,transfer"));
  EXPECT_FALSE(names_circuit_ids_only("transfer-k6,all"));
  EXPECT_FALSE(names_circuit_ids_only("transfer-k6,nope"));
}

TEST(Options, ShownOnOneLineKeepsPrintableAsciiAndEscapesTheRest) {
  EXPECT_EQ(shown_on_one_line("k=6, ok"), "k=6, ok");
  EXPECT_EQ(shown_on_one_line(std::string("a\0b\t\x7f\xc3\xa9", 7)), "a\\x00b\\x09\\x7f\\xc3\\xa9");
}

}  // namespace
}  // namespace enygma::native
