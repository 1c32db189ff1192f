// The enygma command line end to end (native only): setup, prove, verify, exports, and the
// exit codes and JSON errors that scripts rely on.
#include <gtest/gtest.h>

#include <cstdlib>

#if !defined(__EMSCRIPTEN__)

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "core/field/cpu_features.hpp"
#include "core/groth16/constraint_shape.hpp"
#include "core/groth16/key_format.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/registry/registry.hpp"
#include "support/sanitizer.hpp"
#include "support/subprocess.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using test::run_enygma;
using test::RunResult;
using test::TempDir;

using test::vector_path;

// One set of seeded k=2 keys for the whole program.
const TempDir& keys() {
  static TempDir dir;
  static bool made = [] {
    auto r = run_enygma(
        {"setup", "--k", "2", "--out", dir.path().string(), "--insecure-seed", "cli-test"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("INSECURE"), std::string::npos);
    return true;
  }();
  (void)made;
  return dir;
}

// `enygma prove` of the k=2 reference request with the test keys, seeded with `seed`.
std::vector<std::string> seeded_prove_k2(const std::string& seed) {
  return {"prove",
          "--k",
          "2",
          "--keys",
          keys().path().string(),
          "--input",
          vector_path("transfer-k2.json"),
          "--test-seed",
          seed};
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The wait status of a shell script (run by /bin/sh, the way a user sets limits on a command)
// and its captured output.
struct ShellRun {
  RunResult result;
  int status = 0;
};
ShellRun run_shell(const std::string& script) {
  test::Child child("/bin/sh", {"-c", script}, {});
  ShellRun run;
  run.result = child.wait(std::chrono::seconds(60));
  run.status = child.wait_status();
  return run;
}

// The names in a folder, sorted.
std::vector<std::string> folder_names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Cli, ProvesAndVerifiesTheReferenceRequest) {
  TempDir tmp;
  auto r = run_enygma({"prove", "--k", "2", "--keys", keys().path().string(), "--input",
                       vector_path("transfer-k2.json"), "--out", tmp / "proof.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto proof = nlohmann::json::parse(test::read_all(tmp / "proof.json"));
  ASSERT_EQ(proof["public_signal"].size(), 18u);
  auto request = nlohmann::json::parse(test::read_all(vector_path("transfer-k2.json")));
  // documented order: hashed_shared_secrets first, message_tags last
  EXPECT_EQ(proof["public_signal"][0], request["hashed_shared_secrets"][0]);
  EXPECT_EQ(proof["public_signal"][17], request["message_tags"][1]);
  EXPECT_EQ(proof["pi_b"].size(), 2u);

  r = run_enygma(
      {"verify", "--k", "2", "--keys", keys().path().string(), "--proof", tmp / "proof.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"valid\":true}\n");

  proof["public_signal"][16] = "12347";  // another anonymity set member
  write(tmp / "tampered.json", proof.dump());
  r = run_enygma(
      {"verify", "--k", "2", "--keys", keys().path().string(), "--proof", tmp / "tampered.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\"valid\":false"), std::string::npos);
  // --help shows the two answers exactly as printed.
  const std::string verify_help = run_enygma({"verify", "--help"}).out;
  EXPECT_NE(verify_help.find("{\"valid\":true}"), std::string::npos) << verify_help;
  EXPECT_NE(verify_help.find("{\"valid\":false,\"reason\":"), std::string::npos) << verify_help;

  write(tmp / "malformed.json", "{\"pi_a\": [\"1\"]}");
  r = run_enygma(
      {"verify", "--k", "2", "--keys", keys().path().string(), "--proof", tmp / "malformed.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"field\":\"pi_a\""), std::string::npos) << r.err;
}

// "-" reads the request or the response from standard input; a text input over 16 MiB (a file
// or standard input) is refused naming it, before a file is read.
TEST(Cli, StandardInputAndTheTextInputBound) {
  TempDir tmp;
  const std::string keys_dir = keys().path().string();
  auto r = run_enygma(
      {"prove", "--k", "2", "--keys", keys_dir, "--input", "-", "--out", tmp / "proof.json"},
      std::chrono::seconds(300), vector_path("transfer-k2.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"verify", "--k", "2", "--keys", keys_dir, "--proof", "-"},
                 std::chrono::seconds(300), tmp / "proof.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"valid\":true}\n");
  r = run_enygma({"validate", "--k", "2", "--input", "-"}, std::chrono::seconds(300),
                 vector_path("transfer-k2-bad.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"rule\":\"R"), std::string::npos) << r.err;
  // A pipe by name (a shell's <(cmd)) and a character device are read as standard input is; a
  // folder is refused.
  const std::string fifo = tmp / "request.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream(fifo, std::ios::binary) << test::read_all(vector_path("transfer-k2.json"));
  });
  r = run_enygma({"validate", "--k", "2", "--input", fifo});
  writer.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"validate", "--k", "2", "--input", "/dev/null"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
  r = run_enygma({"validate", "--k", "2", "--input", tmp.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("is not a file or a pipe"), std::string::npos) << r.err;
  r = run_enygma({"witness", "--k", "2", "--input", "-", "--explain"}, std::chrono::seconds(300),
                 vector_path("transfer-k2.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"satisfied\":true}\n");

  const std::string big = tmp / "big.json";
  { std::ofstream(big) << std::string((size_t(16) << 20) + 1, ' '); }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"validate", "--k", "2", "--input", big},
        {"prove", "--k", "2", "--input", big},
        {"witness", "--k", "2", "--input", big, "--explain"},
        {"verify", "--k", "2", "--keys", keys_dir, "--proof", big}}) {
    r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 1) << args[0];
    EXPECT_NE(r.err.find(big + " is larger than 16 MiB"), std::string::npos) << r.err;
  }
  r = run_enygma({"validate", "--k", "2", "--input", "-"}, std::chrono::seconds(300), big);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("standard input is larger than 16 MiB"), std::string::npos) << r.err;
  // Just under the bound a file is read (and the request parser refuses it on its own terms).
  { std::ofstream(big, std::ios::trunc) << std::string(size_t(16) << 20, ' '); }
  r = run_enygma({"validate", "--k", "2", "--input", big});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("request is larger than"), std::string::npos) << r.err;
}

// enygma bench: every timing present and positive, the proofs it times verify (it exits 1
// otherwise), and a wrong key folder is an error, not a report.
TEST(Cli, BenchReportsEveryTiming) {
  auto r = run_enygma(
      {"bench", "--k", "2", "--keys", keys().path().string(), "--runs", "2", "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["k"], 2);
  EXPECT_EQ(j["runs"], 2);
  for (const char* key :
       {"key_load", "witness", "prove_total", "verify", "verify_pool", "verify_after_prove"}) {
    ASSERT_TRUE(j["median_ms"].contains(key)) << key;
    EXPECT_GT(j["median_ms"][key].get<double>(), 0.0) << key;
  }
  for (const char* key :
       {"constraints", "quotient", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_h"}) {
    EXPECT_GT(j["prove_stages_median_ms"][key].get<double>(), 0.0) << key;
  }
  EXPECT_GT(j["peak_rss_mib"].get<double>(), 1.0);

  TempDir empty;
  r = run_enygma({"bench", "--k", "2", "--keys", empty.path().string(), "--runs", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
}

// prove --timings: one JSON object on stderr with the one-shot path's steps, and the same proof
// on stdout as without it (under the same test seed).
TEST(Cli, ProveTimingsReportEveryStep) {
  std::vector<std::string> prove = seeded_prove_k2("timings");
  prove.insert(prove.end(), {"--threads", "2"});
  auto plain = run_enygma(prove);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  auto with = prove;
  with.push_back("--timings");
  auto timed = run_enygma(with);
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_EQ(timed.out, plain.out);
  const std::string last = timed.err.substr(timed.err.rfind('{'));
  auto j = nlohmann::json::parse(last);
  for (const char* step : {"start_up", "read_request", "witness", "read_keys", "verifying_key",
                           "proving_key", "constraints", "quotient", "msm_h", "output", "total"}) {
    ASSERT_TRUE(j.contains(step)) << step << " in " << last;
    EXPECT_GE(j[step].get<double>(), 0.0) << step;
  }
  // The keys carry their constraint shape: no R1CS is built, nor a verifier prepared.
  EXPECT_FALSE(j.contains("r1cs")) << last;
  EXPECT_FALSE(j.contains("verifier")) << last;
  EXPECT_GE(j["total"].get<double>(), j["witness"].get<double>());
  // Every step reported is one that --help names.
  const std::string help = run_enygma({"prove", "--help"}).out;
  for (const auto& [step, ms] : j.items()) {
    const std::regex word("(^|[^a-z0-9_])" + step + "([^a-z0-9_]|$)");
    EXPECT_TRUE(std::regex_search(help, word)) << step << " is not in --help";
  }
}

TEST(Cli, InvalidRequestsExitTwoWithTheRuleAsJson) {
  auto r = run_enygma({"prove", "--k", "2", "--keys", keys().path().string(), "--input",
                       vector_path("transfer-k2-bad.json")});
  EXPECT_EQ(r.exit_code, 2);
  auto err = nlohmann::json::parse(r.err);
  EXPECT_EQ(err["rule"], "R2");
  EXPECT_EQ(err["field"], "tx_values[0]");
  // rejected before any key is needed: no k=6 keys exist in this folder
  r = run_enygma({"prove", "--k", "6", "--keys", keys().path().string(), "--input",
                  vector_path("transfer-k6-bad.json")});
  EXPECT_EQ(r.exit_code, 2);
  err = nlohmann::json::parse(r.err);
  EXPECT_EQ(err["rule"], "input");
  EXPECT_EQ(err["field"], "hashed_shared_secrets[0]");
  // a k=2 request given as k=3
  r = run_enygma({"prove", "--k", "3", "--keys", keys().path().string(), "--input",
                  vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 2);
}

// validate --all reports every failing rule, in order, as a JSON array on standard error (its
// first the error validate alone reports); a request that does not parse is one error, in an
// array too. witness --explain names the first constraint the witness violates, in the gadget
// of the rule validate names first.
TEST(Cli, ValidateAllListsEveryFailingRuleAndExplainNamesTheConstraint) {
  TempDir tmp;
  const std::string bad = vector_path("transfer-k2-bad.json");
  auto r = run_enygma({"validate", "--k", "2", "--input", bad, "--all"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  const auto all = nlohmann::json::parse(r.err);
  ASSERT_TRUE(all.is_array()) << r.err;
  std::vector<std::pair<std::string, std::string>> rules;
  for (const auto& e : all) rules.emplace_back(e["rule"], e["field"]);
  EXPECT_EQ(rules, (std::vector<std::pair<std::string, std::string>>{
                       {"R2", "tx_values[0]"}, {"R9", "tx_values"}, {"R13", "tx_commits[0]"}}));
  EXPECT_EQ(all[0]["error"], "R2: tx_values[0] is not (l - sender_tx_value) mod l");
  r = run_enygma({"validate", "--k", "2", "--input", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(r.err), all[0]);
  write(tmp / "broken.json", "{");
  r = run_enygma({"validate", "--k", "2", "--input", tmp / "broken.json", "--all"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "[{\"error\":\"request is not valid JSON (it ends before its JSON value does)\","
            "\"rule\":\"input\",\"field\":\"\"}]\n");
  r = run_enygma({"validate", "--k", "2", "--input", vector_path("transfer-k2.json"), "--all"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"valid\":true}\n");

  r = run_enygma({"witness", "--k", "2", "--input", bad, "--explain"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "");
  const auto explained = nlohmann::json::parse(r.out);
  EXPECT_EQ(explained["satisfied"], false) << r.out;
  EXPECT_EQ(explained["first_violated"].get<std::string>().rfind("R2/", 0), 0u) << r.out;
}

// info --digest: the circuit's R1CS digest (what scripts/dev-keys.sh compares with the keys'),
// for one circuit (an object) and for several (an array, in the order named).
TEST(Cli, InfoDigestIsTheCircuitsDigest) {
  auto hex = [](const std::array<uint8_t, 32>& d) {
    std::string s;
    for (uint8_t b : d) {
      static const char digits[] = "0123456789abcdef";
      s += digits[b >> 4];
      s += digits[b & 15];
    }
    return s;
  };
  auto digest_of = [&](const char* id) { return hex(circuit_digest(*parse_circuit_id(id))); };
  auto r = run_enygma({"info", "--k", "2", "--digest"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto one = nlohmann::json::parse(r.out);
  EXPECT_EQ(one["circuit"], "transfer-k2");
  EXPECT_EQ(one["digest"], digest_of("transfer-k2"));
  r = run_enygma({"info", "--circuit", "deposit-k2,transfer-k3", "--digest"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto list = nlohmann::json::parse(r.out);
  ASSERT_TRUE(list.is_array()) << r.out;
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["circuit"], "deposit-k2");
  EXPECT_EQ(list[0]["digest"], digest_of("deposit-k2"));
  EXPECT_EQ(list[1]["circuit"], "transfer-k3");
  EXPECT_EQ(list[1]["digest"], digest_of("transfer-k3"));
  EXPECT_NE(list[0]["digest"], list[1]["digest"]);
  r = run_enygma({"info", "--k", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("digest")) << r.out;
}

// A missing required option: a usage error (exit 64) and one line naming the required options,
// in every command the same words: "enygma COMMAND: --a and --b are required (see --help)".
TEST(Cli, MissingRequiredOptionsAreUsageErrorsNamingThem) {
  for (const auto& [args, line] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"witness", "--k", "2"}, "enygma witness: --input and --out are required"},
           {{"witness", "--k", "2", "--explain"}, "enygma witness: --input is required"},
           {{"import-zkey", "--k", "2", "--out", "x"},
            "enygma import-zkey: --zkey and --out are required"},
           {{"export-r1cs", "--k", "2"}, "enygma export-r1cs: --out is required"},
           {{"prove", "--k", "2"}, "enygma prove: --input is required"},
           {{"validate", "--k", "6"}, "enygma validate: --input is required"},
           {{"verify", "--k", "2"}, "enygma verify: --proof is required"},
           {{"export-proof"},
            "enygma export-proof: --proof, --out-proof and --out-public are required"},
           {{"export-solidity", "--k", "2"},
            "enygma export-solidity: --out and one of --circuit/--k or --vk are required"},
           {{"make-transfer"}, "enygma make-transfer: --k is required"},
           {{"make-transfer", "--k", "3"},
            "enygma make-transfer: --secret-key is required (or give --seed)"},
           {{"make-request"},
            "enygma make-request: --k is required for the transfer circuit (2..16)"},
           {{"export-vk"}, "enygma export-vk: --k is required for the transfer circuit (2..16)"}}) {
    auto r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err, line + " (see --help)\n") << args[0];
    EXPECT_EQ(r.out, "") << args[0];
  }
}

// One exit-code scheme for every command (README.md, "Exit codes"): a usage error is 64, in
// every command alike, and never 1 or 2, which a script reads as a failure or a refused request.
// `enygma` alone is a usage error (its usage on stderr, nothing on stdout); `enygma help CMD` is
// CMD's own help.
TEST(Cli, HelpAndNoCommand) {
  auto r = run_enygma({});
  EXPECT_EQ(r.exit_code, 64);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("usage: enygma <command>"), std::string::npos) << r.err;
  r = run_enygma({"help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: enygma <command>"), std::string::npos) << r.out;
  r = run_enygma({"help", "prove"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, run_enygma({"prove", "--help"}).out);
  EXPECT_NE(r.out.find("usage: enygma prove"), std::string::npos) << r.out;
  r = run_enygma({"help", "no-such-command"});
  EXPECT_EQ(r.exit_code, 64);
  EXPECT_NE(r.err.find("unknown command 'no-such-command'"), std::string::npos) << r.err;
}

TEST(Cli, UsageErrorsExitSixtyFourInEveryCommand) {
  const auto commands = [] {
    std::vector<std::string> names;
    std::istringstream usage(run_enygma({"--help"}).out);
    std::string line;
    bool in_list = false;
    while (std::getline(usage, line)) {
      if (line == "commands:") in_list = true;
      if (!in_list || line.rfind("  ", 0) != 0) continue;
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
    return names;
  }();
  ASSERT_GE(commands.size(), 16u);
  for (const std::string& command : commands) {
    auto r = run_enygma({command, "--no-such-option", "1"});
    EXPECT_EQ(r.exit_code, 64) << command << ": " << r.err;
    // one line, naming the command, as every usage error
    EXPECT_EQ(r.err, "enygma " + command + ": unknown option --no-such-option (see --help)\n");
    // An option given twice is refused, not read as the last of the two.
    r = run_enygma({command, "--help", "--help"});
    EXPECT_EQ(r.exit_code, 0) << command;
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"prove", "--k", "2", "--k", "6", "--input", "x"},
        {"validate", "--circuit", "transfer", "--circuit", "deposit", "--input", "x"},
        {"version", "extra"},
        {"prove", "--k", "2", "--threads", "abc", "--input", "x"},
        {"witness", "--k", "2", "--input", "x", "--out", "y", "--explain"},
        {"export-proof", "--proof", "a", "--out-proof", "b", "--out-public", "c", "--format", "x"},
        {"export-solidity", "--k", "2", "--vk", "a.vk", "--out", "b.sol"},
        {"make-request", "--circuit", "joinsplit-enygma", "--count", "-1"},
        // a decimal seed with leading zeros (64 characters are hex digits, whatever they are)
        {"make-request", "--k", "2", "--seed", "05"},
        {"make-request", "--k", "2", "--seed", std::string(64, '0') + "5"},
        {"info", "--k", "17"},
        {"info", "--circuit", "transfer-k6", "--k", "2"},
        {"validate", "--circuit", "transfer-k6", "--k", "2", "--input", "x"},
        {"validate", "--k", "2", "--all", "--all", "--input", "x"},
        {"setup", "--k", "2", "--out", "unused", "--insecure-seed", ""},
        {"bench", "--runs", "0"}}) {
    auto r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << args[0] << " " << args.back() << ": " << r.err;
    // Whichever check refuses it (the parser, a command's own, a shared option's): one line
    // "enygma COMMAND: <message> (see --help)", plain text (JSON is a refused request's).
    const std::string head = "enygma " + args[0] + ": ", tail = " (see --help)\n";
    EXPECT_EQ(r.err.rfind(head, 0), 0u) << r.err;
    EXPECT_TRUE(r.err.size() > tail.size() &&
                r.err.compare(r.err.size() - tail.size(), tail.size(), tail) == 0)
        << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  }
  auto r = run_enygma({"prove", "--k", "2", "--k", "6", "--input", "x"});
  EXPECT_NE(r.err.find("--k is given twice"), std::string::npos) << r.err;
  r = run_enygma({"validate", "--k", "2", "--all", "--all", "--input", "x"});
  EXPECT_EQ(r.err, "enygma validate: --all is given twice (see --help)\n");
  r = run_enygma({"validate", "--circuit", "transfer-k6", "--k", "2", "--input", "x"});
  EXPECT_EQ(r.err,
            "enygma validate: --k cannot be combined with --circuit transfer-k6 (see --help)\n");
  // An empty value is a mistake, never a default or the root folder (`--keys ""` read
  // /transfer-k2.vk).
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"prove", "--k", "2", "--keys", "", "--input", "x"},
        {"verify", "--k", "2", "--keys=", "--proof", "x"},
        {"bench", "--k", "2", "--keys", ""}}) {
    r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("--keys needs a value, got an empty one"), std::string::npos) << r.err;
  }
  r = run_enygma({"export-proof", "--proof", "a", "--out-proof", "b", "--out-public", "c",
                  "--format", "reference"});
  EXPECT_NE(r.err.find("the only --format is snarkjs"), std::string::npos) << r.err;
  r = run_enygma({"export-solidity", "--k", "2", "--vk", "a.vk", "--out", "b.sol"});
  EXPECT_NE(r.err.find("give one or the other"), std::string::npos) << r.err;
  r = run_enygma({"prove", "--k", "2", "--threads", "abc", "--input", "x"});
  EXPECT_EQ(r.err,
            "enygma prove: --threads must be an integer in 0..1024, got 'abc' (see --help)\n");
  r = run_enygma({"info", "--bogus"});
  EXPECT_EQ(r.err, "enygma info: unknown option --bogus (see --help)\n");
  r = run_enygma({"export-vk", "--k", "2", "--format", "reference"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_EQ(r.err, "enygma export-vk: the only --format is snarkjs (see --help)\n");
  // The values of a wallet command that make no valid request: refused (2), not a usage error.
  r = run_enygma({"make-request", "--circuit", "joinsplit-enygma", "--count", "11"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // verify: a key that cannot be read is a failure (1) with the error as JSON, as in prove.
  r = run_enygma(
      {"verify", "--k", "2", "--keys", "/nonexistent", "--proof", vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["rule"], "key") << r.err;
}

// `enygma prove --help` describes each of its options on a line of its own, and ends with the
// exit codes (the help once lost --input and --out, with the exit codes among the options).
TEST(Cli, ProveHelpDescribesEveryOption) {
  auto r = run_enygma({"prove", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--circuit NAME", "--k K", "--input REQ.json", "--out RESP.json",
                             "--keys DIR", "--threads N", "--test-seed TEXT", "--timings"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + option), std::string::npos) << option;
  }
  EXPECT_LT(r.out.find("--timings "), r.out.find("\nExit codes: 0 proved"));
}

TEST(Cli, TestSeedMakesProofsReproducible) {
  std::vector<std::string> base = {"prove",
                                   "--k",
                                   "2",
                                   "--keys",
                                   keys().path().string(),
                                   "--input",
                                   vector_path("transfer-k2.json")};
  auto with = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_enygma(args);
  };
  auto a = with({"--test-seed", "alpha"}), b = with({"--test-seed", "alpha", "--threads", "2"});
  auto c = with({"--test-seed", "beta"}), d = with({}), e = with({});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  EXPECT_NE(d.out, e.out);  // real blinding differs every time
  EXPECT_NE(a.err.find("INSECURE"), std::string::npos);
}

// ENYGMA_DISABLE_KERNELS switches the x86-64 kernels (ADX multiplication, AVX-512 IFMA batch
// additions) off; `version` reports what is in use, and the proof does not depend on it.
TEST(Cli, KernelsCanBeSwitchedOffWithoutChangingTheProof) {
  auto run_with = [](const std::vector<std::string>& args, const std::string& env) {
    test::Child child(test::enygma_binary().string(), args,
                      env.empty() ? std::vector<std::string>{} : std::vector<std::string>{env});
    return child.wait();
  };
  const auto on = run_with({"version"}, "");
  ASSERT_EQ(on.exit_code, 0) << on.err;
  const auto kernels = nlohmann::json::parse(on.out).at("kernels");
  EXPECT_EQ(kernels.at("adx").get<bool>(), cpu_supports_adx());
  EXPECT_EQ(kernels.at("ifma").get<bool>(), cpu_supports_ifma());
  const auto off = run_with({"version"}, "ENYGMA_DISABLE_KERNELS=adx,ifma");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(nlohmann::json::parse(off.out).at("kernels"),
            nlohmann::json({{"adx", false}, {"ifma", false}}));
  const auto bad = run_with({"version"}, "ENYGMA_DISABLE_KERNELS=ifma,avx");
  EXPECT_EQ(bad.exit_code, 64);
  EXPECT_NE(bad.err.find("unknown kernel 'avx'"), std::string::npos) << bad.err;
  // A name with a control character is quoted on one line.
  const auto split = run_with({"version"}, "ENYGMA_DISABLE_KERNELS=x\ny");
  EXPECT_EQ(split.exit_code, 64);
  EXPECT_NE(split.err.find("unknown kernel 'x\\x0ay'"), std::string::npos) << split.err;
  EXPECT_EQ(split.err.find('\n'), split.err.size() - 1) << split.err;

  const std::vector<std::string> prove = seeded_prove_k2("k");
  const auto fast = run_with(prove, ""), portable = run_with(prove, "ENYGMA_DISABLE_KERNELS=all");
  ASSERT_EQ(fast.exit_code, 0) << fast.err;
  ASSERT_EQ(portable.exit_code, 0) << portable.err;
  EXPECT_EQ(fast.out, portable.out);
}

// `version` and `bench` name the CPU they ran on as the system names it (/proc/cpuinfo's first
// processor): the family and model with cpuid's extended values added (a Zen 5 is family 26, a
// Zen 4 family 25), the brand without its padding.
TEST(Cli, VersionAndBenchNameTheCpuAsTheSystemDoes) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  if (!cpuinfo) GTEST_SKIP() << "no /proc/cpuinfo";
  std::map<std::string, std::string> first;
  for (std::string line; std::getline(cpuinfo, line) && !line.empty();) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto trim = [](std::string t) {
      const size_t a = t.find_first_not_of(" \t"), b = t.find_last_not_of(" \t");
      return a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
    };
    first[trim(line.substr(0, colon))] = trim(line.substr(colon + 1));
  }
  if (!first.count("vendor_id")) GTEST_SKIP() << "not an x86 /proc/cpuinfo";
  const nlohmann::json expected = {{"vendor", first["vendor_id"]},
                                   {"family", std::stoul(first["cpu family"])},
                                   {"model", std::stoul(first["model"])},
                                   {"stepping", std::stoul(first["stepping"])},
                                   {"brand", first["model name"]}};
  const auto version = run_enygma({"version"});
  ASSERT_EQ(version.exit_code, 0) << version.err;
  EXPECT_EQ(nlohmann::json::parse(version.out).at("cpu"), expected) << version.out;
  const auto bench = run_enygma(
      {"bench", "--k", "2", "--keys", keys().path().string(), "--runs", "1", "--threads", "1"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_EQ(nlohmann::json::parse(bench.out).at("cpu"), expected) << bench.out;
}

TEST(Cli, MissingCorruptOrForeignKeysAreNamed) {
  TempDir empty;
  auto r = run_enygma({"prove", "--k", "2", "--keys", empty.path().string(), "--input",
                       vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("transfer-k2.vk"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("enygma setup"), std::string::npos) << r.err;
  // A key file given as --keys: told that --keys names a folder, not to write keys into the file.
  r = run_enygma({"prove", "--k", "2", "--keys", (keys() / "transfer-k2.pk"), "--input",
                  vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--keys names the folder of the key files"), std::string::npos) << r.err;

  TempDir bad;
  auto pk = test::read_all(keys() / "transfer-k2.pk");
  auto vk = test::read_all(keys() / "transfer-k2.vk");
  pk[pk.size() / 2] ^= 1;
  write(bad / "transfer-k2.pk", pk);
  write(bad / "transfer-k2.vk", vk);
  r = run_enygma({"prove", "--k", "2", "--keys", bad.path().string(), "--input",
                  vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("corrupt"), std::string::npos) << r.err;

  // Checked by their header before they are read whole: a large file named by mistake (sparse
  // here: 8 GiB of zeros) is refused at once, not read into memory first; a truncated key and a
  // verifying key larger than any are refused naming the file; so is a zkey that is not one.
  TempDir large;
  write(large / "transfer-k2.vk", vk);
  write(large / "transfer-k2.pk", "");
  std::filesystem::resize_file(large / "transfer-k2.pk", uintmax_t(8) << 30);
  const auto t0 = std::chrono::steady_clock::now();
  r = run_enygma({"prove", "--k", "2", "--keys", large.path().string(), "--input",
                  vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("transfer-k2.pk: not an enygma key file (bad magic bytes)"),
            std::string::npos)
      << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));  // not 8 GiB read
  write(large / "transfer-k2.pk", pk.substr(0, pk.size() - 5));
  r = run_enygma({"prove", "--k", "2", "--keys", large.path().string(), "--input",
                  vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(std::to_string(pk.size() - 136) + " body bytes, the file has " +
                       std::to_string(pk.size() - 141) + " (truncated?)"),
            std::string::npos)
      << r.err;
  std::filesystem::resize_file(large / "transfer-k2.vk", uintmax_t(2) << 20);
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"verify", "--proof", vector_path("transfer-k2.json")},
        std::vector<std::string>{"export-solidity", "--out", large / "out.sol"}}) {
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--k", "2", "--keys", large.path().string()});
    r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 1) << command[0];
    EXPECT_NE(r.err.find("transfer-k2.vk: 2097152 bytes is more than a verifying key file holds"),
              std::string::npos)
        << command[0] << ": " << r.err;
  }
  write(large / "big.zkey", "");
  std::filesystem::resize_file(large / "big.zkey", uintmax_t(8) << 30);
  r = run_enygma(
      {"import-zkey", "--k", "2", "--zkey", large / "big.zkey", "--out", large / "imported"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("big.zkey: not a snarkjs .zkey file"), std::string::npos) << r.err;
  write(large / "big.zkey", "zkey");  // a zkey's magic: refused by its size, not read first
  std::filesystem::resize_file(large / "big.zkey", uintmax_t(8) << 30);
  r = run_enygma(
      {"import-zkey", "--k", "2", "--zkey", large / "big.zkey", "--out", large / "imported"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("big.zkey: 8589934592 bytes is more than a zkey of transfer-k2 can hold ("),
            std::string::npos)
      << r.err;

  // A key whose constraint shape was edited and sealed again (its digest over the new bytes):
  // prove loads it without building the circuit to compare; the proof finds it, naming the file.
  {
    const std::string good = test::read_all(keys() / "transfer-k2.pk");
    ThreadPool pool{1};
    auto loaded = load_proving_key(
        std::span(reinterpret_cast<const uint8_t*>(good.data()), good.size()), "", pool);
    ASSERT_TRUE(loaded.ok() && loaded->shape)
        << (loaded.ok() ? "no shape" : loaded.error().message);
    auto shape = std::make_shared<ConstraintShape>(*loaded->shape);
    shape->c = shape->a;
    loaded->shape = shape;
    const std::vector<uint8_t> edited = serialize_proving_key(*loaded, "enygma-transfer-k2");
    TempDir dir;
    write(dir / "transfer-k2.pk", std::string(edited.begin(), edited.end()));
    write(dir / "transfer-k2.vk", vk);
    r = run_enygma({"prove", "--k", "2", "--keys", dir.path().string(), "--input",
                    vector_path("transfer-k2.json")});
    EXPECT_EQ(r.exit_code, 1);
    const std::string path = dir / "transfer-k2.pk";
    EXPECT_NE(r.err.find("\"error\":\"" + path +
                         ": the proving key's constraint shape does not match its circuit digest"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("\"field\":\"" + path + "\""), std::string::npos) << r.err;
  }

  // k=2 keys offered as k=3 keys
  TempDir foreign;
  write(foreign / "transfer-k3.vk", vk);
  r = run_enygma({"verify", "--k", "3", "--keys", foreign.path().string(), "--proof",
                  vector_path("transfer-k2.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("enygma-transfer-k2"), std::string::npos) << r.err;
}

// --out: through a symbolic link the file it names is replaced, not the link; a pipe or a device
// is written to, never replaced by a file; "-" is standard output (the summary then goes to
// standard error); a witness or a request (secret keys) is readable by its owner alone, also
// over an existing file of another mode. Output lost on a full standard output is exit 1.
TEST(Cli, OutputsGoWhereTheirPathLeads) {
  TempDir tmp;
  const std::string keys_dir = keys().path().string();
  write(tmp / "target.json", "original");
  ASSERT_EQ(symlink("target.json", (tmp / "link.json").c_str()), 0);
  auto r = run_enygma({"export-vk", "--k", "2", "--keys", keys_dir, "--out", tmp / "link.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat st;
  ASSERT_EQ(lstat((tmp / "link.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_NE(test::read_all(tmp / "target.json").find("vk_alpha_1"), std::string::npos);

  const std::string fifo = tmp / "out.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string piped;
  std::thread reader([&] { piped = test::read_all(fifo); });
  r = run_enygma({"export-vk", "--k", "2", "--keys", keys_dir, "--out", fifo});
  reader.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(piped.find("vk_alpha_1"), std::string::npos);
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  r = run_enygma({"export-r1cs", "--k", "2", "--out", "/dev/null"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));

  r = run_enygma({"export-r1cs", "--k", "2", "--out", "-"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 4), "r1cs");
  EXPECT_NE(r.err.find("\"out\":\"-\""), std::string::npos) << r.err;
  // A path to standard output is standard output too: the summary does not corrupt the output.
  r = run_enygma({"export-r1cs", "--k", "2", "--out", "/dev/stdout"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 4), "r1cs");
  EXPECT_EQ(r.out.find("\"out\":"), std::string::npos);
  EXPECT_NE(r.err.find("\"out\":\"/dev/stdout\""), std::string::npos) << r.err;

  write(tmp / "witness.wtns", "old");
  ASSERT_EQ(chmod((tmp / "witness.wtns").c_str(), 0644), 0);
  r = run_enygma({"witness", "--k", "2", "--input", vector_path("transfer-k2.json"), "--out",
                  tmp / "witness.wtns"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"make-request", "--k", "2", "--seed", "3", "--out", tmp / "request.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* secret : {"witness.wtns", "request.json"}) {
    ASSERT_EQ(stat((tmp / secret).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << secret;
  }

  for (const char* command : {"setup", "import-zkey"}) {
    r = run_enygma({command, "--k", "2", "--zkey", "x.zkey", "--out", ""});
    if (std::string(command) == "setup") r = run_enygma({command, "--k", "2", "--out", ""});
    EXPECT_EQ(r.exit_code, 64) << command << ": " << r.err;
    EXPECT_NE(r.err.find("--out needs a value, got an empty one"), std::string::npos) << r.err;
  }

  const auto lost = run_shell(test::enygma_binary().string() + " version > /dev/full").result;
  EXPECT_EQ(lost.exit_code, 1) << lost.err;
  EXPECT_NE(lost.err.find("cannot write standard output"), std::string::npos) << lost.err;
}

// Outputs through a path to this process's standard output, a dangling link, a file-size limit
// reached mid-write, a folder option naming a file, an option where a value should be.
TEST(Cli, OutputsKeepTheirPlaceAndLeaveNoTemporaryFile) {
  TempDir tmp;
  const std::string keys_dir = keys().path().string();
  const std::string enygma = test::enygma_binary().string();
  auto shell = [](const std::string& script) { return run_shell(script).result; };
  // --out /dev/stdout with standard output sent to a file: written where the shell sends it
  // (appended after the line before it), not a new file in its place
  const std::string log = tmp / "log.txt";
  auto r = shell("echo before > " + log + "; " + enygma + " export-vk --k 2 --keys " + keys_dir +
                 " --out /dev/stdout >> " + log + "; echo after >> " + log);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string logged = test::read_all(log);
  EXPECT_EQ(logged.rfind("before\n{", 0), 0u) << logged.substr(0, 40);
  EXPECT_NE(logged.find("vk_alpha_1"), std::string::npos);
  EXPECT_EQ(logged.substr(logged.size() - 6), "after\n");
  // export-proof's two outputs both on standard output (a pipe here), however written: refused
  write(tmp / "resp.json", "{}");
  for (const char* same : {"/dev/stdout", "/dev/fd/1"}) {
    r = run_enygma(
        {"export-proof", "--proof", tmp / "resp.json", "--out-proof", same, "--out-public", "-"});
    EXPECT_EQ(r.exit_code, 64) << same << ": " << r.err;
    EXPECT_NE(r.err.find("name the same file"), std::string::npos) << r.err;
  }
  // a dangling link: the file it names is created, the link kept
  std::filesystem::create_directory(tmp / "elsewhere");
  ASSERT_EQ(symlink("elsewhere/real.json", (tmp / "dangling.json").c_str()), 0);
  r = run_enygma({"make-request", "--k", "2", "--seed", "1", "--out", tmp / "dangling.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat st;
  ASSERT_EQ(lstat((tmp / "dangling.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  ASSERT_EQ(stat((tmp / "elsewhere/real.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // a file-size limit reached mid-write (SIGXFSZ ends the program): the witness's temporary
  // file is removed, not left with part of the witness
  std::filesystem::create_directory(tmp / "limited");
  r = shell("ulimit -f 8; exec " + enygma + " witness --k 2 --input " +
            vector_path("transfer-k2.json") + " --out " + (tmp / "limited/w.wtns"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(folder_names(tmp / "limited"), std::vector<std::string>{});
  // ... and a signal the caller ignores (`nohup` ignores SIGHUP) stays ignored: the write fails
  // (EFBIG), is reported, and its temporary file removed
  r = shell("trap '' XFSZ; ulimit -f 8; exec " + enygma + " witness --k 2 --input " +
            vector_path("transfer-k2.json") + " --out " + (tmp / "limited/w.wtns"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_EQ(folder_names(tmp / "limited"), std::vector<std::string>{});
  // and a write that succeeds leaves nothing but its file
  r = run_enygma({"witness", "--k", "2", "--input", vector_path("transfer-k2.json"), "--out",
                  tmp / "limited/w.wtns"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(folder_names(tmp / "limited"), std::vector<std::string>{"w.wtns"});
  // a name too long for the temporary file's suffix (NAME_MAX 255): a short temporary name in
  // the same folder, then the file under its own name, and nothing else left
  std::filesystem::create_directory(tmp / "long");
  const std::string long_name = std::string(250, 'n') + ".json";
  r = run_enygma({"make-request", "--k", "2", "--seed", "1", "--out", tmp / ("long/" + long_name)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"make-request", "--k", "2", "--seed", "1", "--out", tmp / "short.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_all(tmp / ("long/" + long_name)), test::read_all(tmp / "short.json"));
  EXPECT_EQ(folder_names(tmp / "long"), std::vector<std::string>{long_name});
  // setup's folder a file: refused before the keys are made
  write(tmp / "file", "x");
  r = run_enygma({"setup", "--k", "2", "--out", tmp / "file"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot use as a folder " + (tmp / "file") + ": Not a directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("INSECURE"), std::string::npos) << r.err;  // no key made
  // an option where a value should be
  r = run_enygma(
      {"witness", "--k", "2", "--input", vector_path("transfer-k2.json"), "--out", "--explain"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--out needs a value, got the option --explain (write --out=--explain"),
            std::string::npos)
      << r.err;
}

// Threads the system refuses (an address-space limit here; a container's pids limit elsewhere)
// are an error that says so, exit 1, not an abort (std::terminate from a pool's half-started
// threads).
TEST(Cli, ThreadsTheSystemRefusesAreAnErrorNotAnAbort) {
  if (ENYGMA_UNDER_SANITIZER) GTEST_SKIP() << "the sanitizers reserve more than the limit";
  for (const std::string& args :
       {std::string("serve --backend fake --port 0 --circuits transfer-k2 --max-inflight 64 "
                    "--prover-threads 64"),
        std::string("serve --backend fake --port 0 --circuits transfer-k2 --max-inflight 1 "
                    "--io-threads 256 --prover-threads 1")}) {
    const auto r = run_shell("ulimit -s 8192; ulimit -v 1000000; exec " +
                             test::enygma_binary().string() + " " + args)
                       .result;
    EXPECT_EQ(r.exit_code, 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find("the system refused a thread"), std::string::npos) << r.err;
  }
}

// The probes of the interop commands: a path that is not UTF-8 is written and reported (U+FFFD
// in the summary), not an abort after the file was written; seeded keys are insecure in their
// verifying key too, so export-solidity warns; its key errors name the file; export-proof's two
// outputs must be two files.
TEST(Cli, InteropCommandsReportPathsKeysAndOutputsHonestly) {
  TempDir tmp;
  const std::string odd = tmp / "r\xff.r1cs";  // Latin-1, not UTF-8
  auto r = run_enygma({"export-r1cs", "--k", "2", "--out", odd});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"out\":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\xEF\xBF\xBD"), std::string::npos) << r.out;  // U+FFFD
  EXPECT_EQ(test::read_all(odd).substr(0, 4), "r1cs");

  r = run_enygma(
      {"export-solidity", "--k", "2", "--keys", keys().path().string(), "--out", tmp / "v.sol"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"insecure_dev_key\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("WARNING"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a seeded setup or a zkey without contribution"), std::string::npos)
      << r.err;

  const std::string not_vk = keys() / "transfer-k2.pk";
  r = run_enygma({"export-solidity", "--vk", not_vk, "--out", tmp / "w.sol"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["field"], not_vk) << r.err;
  EXPECT_NE(r.err.find("transfer-k2.pk: a proving key; --vk takes a verifying key (.vk)"),
            std::string::npos)
      << r.err;
  // A proving key in a verifying key's place in a key folder is named as such too, not by its
  // size (more than a verifying key holds).
  const TempDir swapped;
  std::filesystem::copy_file(not_vk, swapped / "transfer-k2.vk");
  r = run_enygma(
      {"export-solidity", "--k", "2", "--keys", swapped.path().string(), "--out", tmp / "w.sol"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("transfer-k2.vk: a proving key, not a verifying key"), std::string::npos)
      << r.err;
  r = run_enygma({"export-solidity", "--k", "2", "--keys", keys().path().string(), "--license", "",
                  "--out", tmp / "x.sol"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  // --license takes an SPDX expression only; a refused one (or contract name) is quoted on one
  // line.
  for (const std::string license :
       {"MIT", "UNLICENSED", "GPL-3.0-or-later", "GPL-2.0+", "MIT OR Apache-2.0",
        "(MIT AND BSD-3-Clause) OR GPL-2.0-only WITH Classpath-exception-2.0",
        "LicenseRef-Rayls-1.0", "((MIT))"}) {
    r = run_enygma({"export-solidity", "--k", "2", "--keys", keys().path().string(), "--license",
                    license, "--out", tmp / "l.sol"});
    EXPECT_EQ(r.exit_code, 0) << license << ": " << r.err;
    const std::string first_line = "// SPDX-License-Identifier: " + license + "\n";
    EXPECT_EQ(test::read_all(tmp / "l.sol").substr(0, first_line.size()), first_line) << license;
  }
  for (const std::string license :
       {"(", ")", "MIT)", "(MIT", "MIT AND", "AND MIT", "MIT OR OR X", "MIT WITH", "MIT X",
        "MIT WITH X+", "+", "GPL+2.0", "() MIT", "(MIT) WITH X", "MIT;", "MIT\nX", "MIT/X"}) {
    r = run_enygma({"export-solidity", "--k", "2", "--keys", keys().path().string(), "--license",
                    license, "--out", tmp / "bad.sol"});
    EXPECT_EQ(r.exit_code, 64) << license << ": " << r.err;
    EXPECT_NE(r.err.find("--license must be an SPDX expression"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp / "bad.sol")) << license;
  }
  r = run_enygma({"export-solidity", "--k", "2", "--out", tmp / "bad.sol", "--contract", "Ab\nc"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("'Ab\\x0ac' is not a valid contract name"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;

  r = run_enygma({"prove", "--k", "2", "--keys", keys().path().string(), "--input",
                  vector_path("transfer-k2.json"), "--out", tmp / "resp.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // (link.json: a link to same.json, which does not exist yet)
  std::filesystem::create_symlink("same.json", tmp / "link.json");
  for (const auto& [proof_out, public_out] : std::vector<std::pair<std::string, std::string>>{
           {tmp / "same.json", tmp / "same.json"},
           {tmp / "same.json", tmp.path().string() + "/./same.json"},
           {tmp / "same.json", tmp / "link.json"},
           {"-", "-"}}) {
    r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", proof_out,
                    "--out-public", public_out});
    EXPECT_EQ(r.exit_code, 64) << proof_out << " " << public_out << ": " << r.err;
    EXPECT_NE(r.err.find("name the same file"), std::string::npos) << r.err;
  }
  r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", "-", "--out-public",
                  tmp / "public.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("pi_a"), std::string::npos) << r.out;
  // With the circuit named, a public_signal cut short is refused (snarkjs takes the missing
  // trailing inputs as 0 and would verify a statement whose last inputs are 0).
  auto response = nlohmann::json::parse(test::read_all(tmp / "resp.json"));
  response["public_signal"].erase(response["public_signal"].end() - 1);
  write(tmp / "short.json", response.dump());
  r = run_enygma({"export-proof", "--proof", tmp / "short.json", "--out-proof", tmp / "p.json",
                  "--out-public", tmp / "q.json", "--k", "2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["field"], "public_signal") << r.err;
  r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", tmp / "p.json",
                  "--out-public", tmp / "q.json", "--k", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // An output folder that is missing, or an output that is a folder: nothing written (no
  // proof.json without its public.json).
  r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", tmp / "p2.json",
                  "--out-public", tmp / "missing/q.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "p2.json"));
  r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", tmp / "p2.json",
                  "--out-public", tmp.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "p2.json"));
  // The same file named two ways before it exists (relative, and through ".")
  const std::string rel = "enygma-cli-test-" + std::to_string(getpid()) + ".json";
  r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", rel, "--out-public",
                  "./" + rel});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_FALSE(std::filesystem::exists(rel));
  std::filesystem::remove(rel);
  r = run_enygma({"import-zkey", "--k", "2", "--zkey", "-", "--out", tmp / "keys"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
}

// An output that cannot be written (a folder, a file in a missing folder) is refused before the
// work that makes it: here before the request is even read (which is bad too, exit 2 if read);
// a folder of key files is never "-".
TEST(Cli, OutputsThatCannotBeWrittenAreRefusedFirst) {
  TempDir tmp;
  for (const std::string& out : {tmp / "missing/r.json", tmp.path().string()}) {
    for (const char* command : {"prove", "witness"}) {
      std::vector<std::string> args = {
          command, "--k", "2", "--input", vector_path("transfer-k2-bad.json"), "--out", out};
      if (std::string(command) == "prove") args.insert(args.end(), {"--keys", keys() / ""});
      auto r = run_enygma(args);
      EXPECT_EQ(r.exit_code, 1) << command << " " << out << ": " << r.err;
      EXPECT_EQ(nlohmann::json::parse(r.err)["field"], out) << r.err;
    }
  }
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"setup", "--circuit", "ownership-721", "--insecure-seed", "x"},
        std::vector<std::string>{"import-zkey", "--k", "2", "--zkey", tmp / "any.zkey"}}) {
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--out", "-"});
    auto r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << command[0] << ": " << r.err;
    EXPECT_NE(r.err.find("--out names the folder of the key files"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists("-"));
}

// The options and the output places are checked before an input is read or the work done: a
// usage error exits 64 whatever the input (a proof that is missing, a pipe no one writes), and
// import-zkey refuses an --out it cannot fill, or a --check-vk file it cannot read, before the
// zkey is imported (here a zkey of another circuit: refused by the import, found after).
TEST(Cli, OptionsAndOutputPlacesAreCheckedFirst) {
  TempDir tmp;
  auto r = run_enygma({"export-proof", "--proof", "/nonexistent", "--k", "99", "--out-proof",
                       tmp / "a.json", "--out-public", tmp / "b.json"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--k"), std::string::npos) << r.err;
  const std::string fifo = tmp / "proof.fifo";  // no writer: read, it would block
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  r = run_enygma({"export-proof", "--proof", fifo, "--circuit", "nothing", "--out-proof",
                  tmp / "a.json", "--out-public", tmp / "b.json"},
                 std::chrono::seconds(20));
  EXPECT_EQ(r.exit_code, 64) << r.err;
  r = run_enygma({"export-proof", "--proof", fifo, "--out-proof", tmp / "a.json", "--out-public",
                  tmp / "missing/b.json"},
                 std::chrono::seconds(20));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["field"], tmp / "missing/b.json") << r.err;

  const std::string zkey =
      std::string(ENYGMA_SOURCE_DIR) + "/tests/interop/fixtures/circuit_final.zkey";
  write(tmp / "file", "x");
  r = run_enygma({"import-zkey", "--k", "2", "--zkey", zkey, "--out", tmp / "file"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot use as a folder " + tmp / "file"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["field"], tmp / "file") << r.err;
  r = run_enygma({"import-zkey", "--k", "2", "--zkey", zkey, "--out", tmp / "file/keys/"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot create a folder in " + tmp / "file"), std::string::npos) << r.err;
  std::filesystem::create_directories(tmp / "keys/transfer-k2.vk");
  r = run_enygma({"import-zkey", "--k", "2", "--zkey", zkey, "--out", tmp / "keys"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["field"], tmp / "keys/transfer-k2.vk") << r.err;
  r = run_enygma({"import-zkey", "--k", "2", "--zkey", zkey, "--out", tmp / "new/keys",
                  "--check-vk", tmp / "missing.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["field"], tmp / "missing.json") << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "new")) << "nothing made before the checks";
  // The zkey refused by the import: named by its file once, not "<path>: zkey: ...".
  r = run_enygma({"import-zkey", "--k", "2", "--zkey", zkey, "--out", tmp / "new/keys"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("circuit_final.zkey: the zkey was made for another circuit"),
            std::string::npos)
      << r.err;
}

// The CLI's words: a proof file that is no JSON object is named by its path (not the server's
// "the body"), import-zkey's --check-vk file as the file; --help shows outputs as printed.
TEST(Cli, ProofFilesAreNamedAndHelpShowsOutputsAsPrinted) {
  TempDir tmp;
  write(tmp / "empty.json", "");
  write(tmp / "array.json", "[]");
  for (const char* command : {"verify", "export-proof"}) {
    for (const auto& [file, says] : std::vector<std::pair<std::string, std::string>>{
             {tmp / "empty.json", tmp / "empty.json" + " is not valid JSON"},
             {tmp / "array.json", tmp / "array.json" + " must be a JSON object"}}) {
      std::vector<std::string> args = {command, "--k", "2", "--proof", file};
      if (std::string(command) == "verify") {
        args.insert(args.end(), {"--keys", keys().path().string()});
      } else {
        args.insert(args.end(), {"--out-proof", tmp / "p.json", "--out-public", tmp / "q.json"});
      }
      auto r = run_enygma(args);
      EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
      EXPECT_NE(r.err.find(says), std::string::npos) << command << ": " << r.err;
      EXPECT_EQ(r.err.find("the body"), std::string::npos) << command << ": " << r.err;
      EXPECT_EQ(nlohmann::json::parse(r.err)["field"], file) << command << ": " << r.err;
    }
  }
  auto r = run_enygma({"verify", "--k", "2", "--keys", keys().path().string(), "--proof", "-"},
                      std::chrono::seconds(60), "/dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("standard input is not valid JSON"), std::string::npos) << r.err;
  const std::string zkey =
      std::string(ENYGMA_SOURCE_DIR) + "/tests/interop/fixtures/circuit_final.zkey";
  for (const auto& [file, says] : std::vector<std::pair<std::string, std::string>>{
           {tmp / "empty.json", tmp / "empty.json" + ": the file is not valid JSON"},
           {tmp / "array.json", tmp / "array.json" + ": the file must be a JSON object"}}) {
    r = run_enygma(
        {"import-zkey", "--k", "2", "--zkey", zkey, "--out", tmp / "keys", "--check-vk", file});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("the body"), std::string::npos) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.err)["field"], "check-vk") << r.err;
  }
  const std::string help = run_enygma({"witness", "--help"}).out;
  EXPECT_NE(help.find("{\"satisfied\":true}"), std::string::npos) << help;
}

// A setup whose keys cannot both be written (here a folder in the proving key's place; a full
// disk alike) writes neither: the verifying key there stays the one it was.
TEST(Cli, SetupWritesBothKeysOrNeither) {
  TempDir tmp;
  const std::string dir = tmp / "keys";
  auto r =
      run_enygma({"setup", "--circuit", "ownership-721", "--out", dir, "--insecure-seed", "A"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string vk = dir + "/ownership-721.vk", pk = dir + "/ownership-721.pk";
  const std::string vk_a = test::read_all(vk);
  std::filesystem::remove(pk);
  std::filesystem::create_directory(pk);
  r = run_enygma({"setup", "--circuit", "ownership-721", "--out", dir, "--insecure-seed", "B"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("is a folder"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_all(vk), vk_a);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_FALSE(entry.path().filename().string().ends_with(".tmp")) << entry.path();
  }
}

// A circuit named twice (however k is written) is one circuit; help's output is checked as
// every command's (a full disk is exit 1, not 0).
TEST(Cli, RepeatedCircuitsOnceAndHelpToAFullDisk) {
  auto r = run_enygma({"info", "--circuit", "transfer-k6,transfer-k06"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t entries = 0;
  for (size_t at = r.out.find("\"circuit\""); at != std::string::npos;
       at = r.out.find("\"circuit\"", at + 1)) {
    ++entries;
  }
  EXPECT_EQ(entries, 1u) << r.out;
  const int status =
      std::system((test::enygma_binary().string() + " help > /dev/full 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
}

TEST(Cli, ExportsSnarkjsFormats) {
  TempDir tmp;
  auto r = run_enygma({"export-vk", "--k", "2", "--keys", keys().path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // development keys: said on stderr, as export-solidity says it
  EXPECT_NE(r.err.find("enygma export-vk: WARNING: this verifying key comes from insecure"),
            std::string::npos)
      << r.err;
  auto vk = nlohmann::json::parse(r.out);
  EXPECT_EQ(vk["protocol"], "groth16");
  EXPECT_EQ(vk["nPublic"], 18);
  EXPECT_EQ(vk["IC"].size(), 19u);
  r = run_enygma({"prove", "--k", "2", "--keys", keys().path().string(), "--input",
                  vector_path("transfer-k2.json"), "--out", tmp / "resp.json"});
  ASSERT_EQ(r.exit_code, 0);
  r = run_enygma({"export-proof", "--proof", tmp / "resp.json", "--out-proof", tmp / "proof.json",
                  "--out-public", tmp / "public.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto proof = nlohmann::json::parse(test::read_all(tmp / "proof.json"));
  EXPECT_EQ(proof["pi_a"][2], "1");
  EXPECT_EQ(nlohmann::json::parse(test::read_all(tmp / "public.json")).size(), 18u);
}

TEST(Cli, WalletRequestsValidateAndInfoReportsSizes) {
  TempDir tmp;
  auto r = run_enygma({"make-transfer", "--k", "3", "--seed", "5", "--out", tmp / "req.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"validate", "--k", "3", "--input", tmp / "req.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"info", "--k", "6"});
  ASSERT_EQ(r.exit_code, 0);
  auto info = nlohmann::json::parse(r.out);
  EXPECT_LE(info["constraints"].get<int>(), 32768 - 51);
  EXPECT_EQ(info["fft_domain"], 32768);
  EXPECT_EQ(info["public_inputs"], 50);
  r = run_enygma({"prove", "--k", "99"});
  EXPECT_EQ(r.exit_code, 64);
  r = run_enygma({"no-such-command"});
  EXPECT_EQ(r.exit_code, 64);
}

TEST(Cli, MakeTransferSplitsTheAmountAmongRecipients) {
  TempDir tmp;
  // From a seed, shared by three recipients.
  auto r = run_enygma(
      {"make-transfer", "--k", "5", "--seed", "8", "--split", "3", "--out", tmp / "split.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_enygma({"validate", "--k", "5", "--input", tmp / "split.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_enygma({"make-transfer", "--k", "3", "--seed", "8", "--split", "3"}).exit_code, 64);
  // Explicit values: positions 1 and 3 receive 30 and 12 of v = 42; the others 0.
  const std::vector<std::string> base = {"make-transfer",
                                         "--k",
                                         "4",
                                         "--secret-key",
                                         "77",
                                         "--balance",
                                         "0100",
                                         "--random",
                                         "5",
                                         "--sender-index",
                                         "2",
                                         "--anonymity-set",
                                         "11,12,13,14",
                                         "--block-number",
                                         "9"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_enygma(args);
  };
  r = with({"--recipients", "1:30,3:12", "--out", tmp / "explicit.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto made = nlohmann::json::parse(test::read_all(tmp / "explicit.json"));
  EXPECT_EQ(made["sender_tx_value"], "42");
  EXPECT_EQ(made["previous_sender_balance"], "100");  // "0100": a leading zero is accepted
  EXPECT_EQ(made["tx_values"][0], "0");
  EXPECT_EQ(made["tx_values"][1], "30");
  EXPECT_EQ(made["tx_values"][3], "12");
  r = run_enygma({"validate", "--k", "4", "--input", tmp / "explicit.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Refused: a recipient that is the sender, more than the balance, an inconsistent --amount.
  r = with({"--recipients", "2:1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--recipients entry 0 is the sender's position"), std::string::npos)
      << r.err;
  r = with({"--recipients", "1:100,3:1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(with({"--recipients", "1:30,3:12", "--amount", "41"}).exit_code, 64);
  EXPECT_EQ(with({"--recipients", "1:30", "--recipient-index", "1"}).exit_code, 64);
  EXPECT_EQ(with({"--recipients", "9:30"}).exit_code, 64);
  // An index that is not a number is named so (the parser's message), one beyond k as such.
  r = with({"--amount", "1", "--recipient-index", "abc"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--recipient-index must be an integer in 0..3, got 'abc'"),
            std::string::npos)
      << r.err;
  r = with({"--amount", "1", "--recipient-index", "4"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--recipient-index is not below k"), std::string::npos) << r.err;
  {
    auto args = base;
    const auto at = std::find(args.begin(), args.end(), "--sender-index") - args.begin();
    args[size_t(at) + 1] = "x1";
    args.insert(args.end(), {"--recipients", "1:30"});
    r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << r.err;
    EXPECT_NE(r.err.find("--sender-index must be an integer in 0..3, got 'x1'"), std::string::npos)
        << r.err;
    args[size_t(at) + 1] = "9";
    r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << r.err;
    EXPECT_NE(r.err.find("--sender-index is not below k"), std::string::npos) << r.err;
  }
  // Refusals name the option, never quote its text (a secret key, an amount).
  const std::string big(80, '9');  // above p
  for (const char* option : {"--secret-key", "--random"}) {
    auto args = base;
    const auto at = std::find(args.begin(), args.end(), option) - args.begin();
    args[size_t(at) + 1] = big;
    args.insert(args.end(), {"--recipients", "1:30"});
    r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 64) << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(big.substr(0, 20)), std::string::npos) << r.err;
  }
  r = with({"--recipients", "1:30,3:" + big});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_EQ(r.err.find(big.substr(0, 20)), std::string::npos) << r.err;
  r = with({"--recipients", "1:30,x987654:1"});
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("entry 1 is not POSITION:AMOUNT"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("987654"), std::string::npos) << r.err;
  r = with({"--recipients", "1:30,3:12", "--amount", "41"});
  EXPECT_EQ(r.err.find("41"), std::string::npos) << r.err;
  // A secret written with a space: its second half is a stray argument, named by its place,
  // never quoted.
  auto split = base;
  const auto key = std::find(split.begin(), split.end(), "--secret-key") - split.begin();
  split[size_t(key) + 1] = "1234567890";
  split.insert(split.begin() + key + 2, "98765432109876543210");
  r = run_enygma(split);
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("unexpected argument " + std::to_string(key + 2) +
                       " (not an option; it follows --secret-key's value: a value with spaces "
                       "must be quoted)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("9876543210"), std::string::npos) << r.err;
}

// The wallet commands' refusals (exit 2, rule "wallet") name the option the values came from,
// in the option's words (an entry of --recipients, a position), never the wallet library's
// inputs (payees[1], anonymity_set, recipients = 2), which the WebAssembly module's callers
// know by those names.
TEST(Cli, WalletRefusalsNameTheOptionGiven) {
  const std::string two_250 =
      "1809251394333065553493296640760748560207343510400633813116524750123642650624";
  const std::string below_2_250 =
      "1809251394333065553493296640760748560207343510400633813116524750123642650623";
  const std::string l =  // Baby Jubjub's subgroup order
      "2736030358979909402780800718157159386076813972158567259200215660948447373041";
  const std::string p_less_1 =
      "21888242871839275222246405745257275088548364400416034343698204186575808495616";
  auto transfer = [](unsigned k, std::vector<std::string> options) {
    std::map<std::string, std::string> values = {{"--secret-key", "77"},
                                                 {"--balance", "100"},
                                                 {"--random", "5"},
                                                 {"--sender-index", "0"},
                                                 {"--block-number", "9"}};
    std::string ids;
    for (unsigned i = 0; i < k; ++i) ids += (i ? "," : "") + std::to_string(11 + i);
    values["--anonymity-set"] = ids;
    for (size_t i = 0; i + 1 < options.size(); i += 2) values[options[i]] = options[i + 1];
    std::vector<std::string> args = {"make-transfer", "--k", std::to_string(k)};
    for (const auto& [option, value] : values) args.insert(args.end(), {option, value});
    return run_enygma(args);
  };
  std::string thirteen;  // 13 recipients of 2^250 - 1 each: together p or more
  for (unsigned i = 1; i <= 13; ++i) {
    thirteen += (i > 1 ? "," : "") + std::to_string(i) + ":" + below_2_250;
  }
  struct Case {
    RunResult result;
    std::string field, message;
  };
  const std::vector<Case> cases = {
      {transfer(3, {"--recipients", "1:5,1:6"}), "--recipients",
       "--recipients entry 1 repeats the position of entry 0"},
      {transfer(3, {"--recipients", "1:5,0:6"}), "--recipients",
       "--recipients entry 1 is the sender's position"},
      {transfer(3, {"--amount", "5", "--recipient-index", "0"}), "--recipient-index",
       "--recipient-index is --sender-index"},
      {transfer(3, {"--amount", "5", "--recipient-index", "1", "--anonymity-set", "11,22"}),
       "--anonymity-set", "--anonymity-set has 2 entries, expected 3"},
      {transfer(3, {"--amount", "5", "--recipient-index", "1", "--anonymity-set", "11,12,11"}),
       "--anonymity-set", "--anonymity-set entry 2 repeats the sender's id"},
      {transfer(3, {"--amount", "5", "--recipient-index", "1", "--shared-secrets", "1,2"}),
       "--shared-secrets", "--shared-secrets has 2 entries, expected 3"},
      {transfer(3, {"--amount", "5", "--recipient-index", "1", "--public-keys", "1,2,3,4"}),
       "--public-keys", "--public-keys has 4 entries, expected 3"},
      {transfer(3, {"--amount", "5", "--recipient-index", "1", "--random", l}), "--random",
       "--random is not below l (R16"},
      {transfer(3, {"--amount", "5", "--recipient-index", "1", "--balance", two_250}), "--balance",
       "--balance is not below 2^250 (R11)"},
      {transfer(3, {"--amount", "101", "--recipient-index", "1"}), "--amount",
       "--amount exceeds --balance (R11)"},
      {transfer(3, {"--recipients", "1:60,2:41"}), "--recipients",
       "--recipients amounts add up to more than --balance (R11)"},
      // p - 1 and 2 add up to 1 in the field, within the balance: the entry is refused
      {transfer(3, {"--recipients", "1:" + p_less_1 + ",2:2"}), "--recipients",
       "--recipients entry 0's amount is not below 2^250 (R15)"},
      {transfer(14, {"--recipients", thirteen, "--balance", below_2_250}), "--recipients",
       "--recipients amounts add up to p or more (R15)"},
      {run_enygma({"make-request", "--k", "2", "--count", "2"}), "--count",
       "--count (the recipients) = 2 is not in 1..k-1"},
      {run_enygma({"make-request", "--circuit", "withdraw", "--k", "2", "--count", "11"}),
       "--count", "--count (the notes) = 11 is not in 1..10"},
      {run_enygma({"make-request", "--circuit", "joinsplit-1155", "--count", "11"}), "--count",
       "--count (the inputs) = 11 is not in 1..10"},
      {run_enygma({"make-request", "--circuit", "deposit", "--k", "2", "--count", "2"}), "--count",
       "--count = 2: a deposit creates one note"},
      {run_enygma({"make-request", "--circuit", "ownership-721", "--count", "2"}), "--count",
       "--count = 2: an ownership proof is of one token"},
  };
  for (const Case& c : cases) {
    const RunResult& r = c.result;
    EXPECT_EQ(r.exit_code, 2) << c.message << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.message;
    nlohmann::json err;
    ASSERT_NO_THROW(err = nlohmann::json::parse(r.err)) << r.err;
    EXPECT_EQ(err["rule"], "wallet") << r.err;
    EXPECT_EQ(err["field"], c.field) << r.err;
    EXPECT_EQ(err["error"].get<std::string>().rfind(c.message, 0), 0u) << r.err;
    for (const char* internal : {"payees", "anonymity_set", "shared_secrets", "public_keys",
                                 "recipients =", "notes =", "inputs ="}) {
      EXPECT_EQ(r.err.find(internal), std::string::npos) << internal << ": " << r.err;
    }
  }
}

// An input that cannot be read is named with what failed, exit 1: a request, a proof or a
// --check-vk file whose read fails (/proc/self/mem: EIO at address 0), standard input that is a
// folder, a key whose file ends before the size it gives (a file of /sys: 4096 bytes whatever it
// holds), said as such, not with a stale errno ("Success").
TEST(Cli, InputsThatCannotBeReadAreNamed) {
  TempDir tmp;
  const std::string keys_dir = keys().path().string();
  const std::string mem = "/proc/self/mem";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"validate", "--k", "2", "--input", mem},
        {"witness", "--k", "2", "--input", mem, "--out", tmp / "w.wtns"},
        {"prove", "--k", "2", "--keys", keys_dir, "--input", mem, "--out", tmp / "p.json"},
        {"verify", "--k", "2", "--keys", keys_dir, "--proof", mem},
        {"export-proof", "--proof", mem, "--out-proof", tmp / "a.json", "--out-public",
         tmp / "b.json"},
        {"import-zkey", "--k", "2", "--zkey", tmp / "any.zkey", "--out", tmp / "keys", "--check-vk",
         mem}}) {
    auto r = run_enygma(args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err,
              "{\"error\":\"cannot read /proc/self/mem: Input/output error\",\"rule\":"
              "\"io\",\"field\":\"/proc/self/mem\"}\n")
        << args[0];
  }
  EXPECT_TRUE(folder_names(tmp.path().string()).empty());

  auto r = run_enygma({"validate", "--k", "2", "--input", "-"}, std::chrono::seconds(60),
                      tmp.path().string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err,
            "{\"error\":\"cannot read standard input: Is a directory\",\"rule\":\"io\","
            "\"field\":\"standard input\"}\n");

  const std::string sys_file = "/sys/devices/system/cpu/online";
  struct stat st;
  const std::string held = test::read_all(sys_file);
  if (stat(sys_file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      size_t(st.st_size) <= held.size()) {
    GTEST_SKIP() << sys_file << " is no file of /sys that holds less than its size";
  }
  r = run_enygma({"export-solidity", "--vk", sys_file, "--out", tmp / "v.sol"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(
      r.err.find("cannot read " + sys_file + ": it ends at byte " + std::to_string(held.size()) +
                 ", before the " + std::to_string(st.st_size) + " bytes its size says"),
      std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "v.sol"));
}

// A proving key that cannot be mapped (here larger than the address space the process may use:
// a sparse 16 GiB file whose header gives that size, under a 4 GiB limit) is named with the
// reason, exit 1, and no proof file is written.
TEST(Cli, AProvingKeyThatCannotBeMappedIsNamed) {
  if (ENYGMA_UNDER_SANITIZER) GTEST_SKIP() << "the sanitizers reserve more than the limit";
  TempDir tmp;
  const std::string dir = tmp / "keys";
  std::filesystem::create_directory(dir);
  std::filesystem::copy_file(keys() / "transfer-k2.vk", dir + "/transfer-k2.vk");
  const std::string pk = dir + "/transfer-k2.pk";
  std::string header = test::read_all(keys() / "transfer-k2.pk").substr(0, kKeyHeaderSize);
  const uint64_t size = uint64_t(16) << 30;
  const uint64_t body = size - kKeyHeaderSize;
  for (int i = 0; i < 8; ++i) header[96 + i] = char(body >> (8 * i));  // body_length, LE
  write(pk, header);
  ASSERT_EQ(truncate(pk.c_str(), off_t(size)), 0) << strerror(errno);
  const auto r = run_shell("ulimit -v 4194304; exec " + test::enygma_binary().string() +
                           " prove --k 2 --threads 1 --keys " + dir + " --input " +
                           vector_path("transfer-k2.json") + " --out " + (tmp / "p.json"));
  EXPECT_EQ(r.result.exit_code, 1) << r.result.err;
  EXPECT_NE(r.result.err.find("\"error\":\"cannot map " + pk + ": Cannot allocate memory"),
            std::string::npos)
      << r.result.err;
  EXPECT_NE(r.result.err.find("\"field\":\"" + pk + "\""), std::string::npos) << r.result.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "p.json"));
}

// An output to a device or stream that refuses it is exit 1 naming it: standard output on a full
// device, a full device by name, a socket (which cannot be opened).
TEST(Cli, OutputsThatADeviceRefusesAreErrors) {
  TempDir tmp;
  const std::string keys_dir = keys().path().string();
  const std::string enygma = test::enygma_binary().string();
  for (const std::string& command :
       {"export-vk --k 2 --keys " + keys_dir, std::string("export-r1cs --k 2")}) {
    auto r = run_shell(enygma + " " + command + " --out - > /dev/full");
    EXPECT_EQ(r.result.exit_code, 1) << command << ": " << r.result.err;
    EXPECT_NE(r.result.err.find("{\"error\":\"cannot write standard output: No space left on "
                                "device\",\"rule\":\"io\",\"field\":\"standard output\"}"),
              std::string::npos)
        << r.result.err;
    r = run_shell(enygma + " " + command + " --out /dev/full");
    EXPECT_EQ(r.result.exit_code, 1) << command << ": " << r.result.err;
    EXPECT_NE(r.result.err.find("{\"error\":\"cannot write /dev/full: No space left on device\","
                                "\"rule\":\"io\",\"field\":\"/dev/full\"}"),
              std::string::npos)
        << r.result.err;
  }
  struct stat st;
  ASSERT_EQ(stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // a socket's name: open() refuses it (ENXIO)
  const std::string sock = tmp / "out.sock";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.size(), sizeof addr.sun_path);
  memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  auto r = run_enygma({"export-vk", "--k", "2", "--keys", keys_dir, "--out", sock});
  close(fd);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("\"error\":\"cannot open " + sock + ": No such device or address\""),
            std::string::npos)
      << r.err;
  ASSERT_EQ(lstat(sock.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
}

// A file-size limit reached while the temporary files are written: with SIGXFSZ at its default
// the program dies of it and its handler removes every temporary file; with SIGXFSZ ignored the
// write fails (EFBIG), exit 1 naming the output. Either way the files already there keep their
// contents, and nothing else is left: here export-proof's pair, its proof.json whole in its
// temporary file before public.json's write fails (the limit, 2 blocks: 1 KiB for sh's 512-byte
// blocks, 2 KiB for 1024-byte ones, lies between the two files' sizes).
TEST(Cli, AFileSizeLimitKeepsThePreviousFiles) {
  TempDir tmp;
  auto r = run_enygma({"prove", "--k", "2", "--keys", keys().path().string(), "--input",
                       vector_path("transfer-k2.json"), "--out", tmp / "resp.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto response = nlohmann::json::parse(test::read_all(tmp / "resp.json"));
  const auto signals = response["public_signal"];
  for (int i = 0; i < 3; ++i) {
    for (const auto& v : signals) response["public_signal"].push_back(v);
  }
  write(tmp / "long.json", response.dump());
  const std::string dir = tmp / "out";
  std::filesystem::create_directory(dir);
  const std::string proof = dir + "/proof.json", pub = dir + "/public.json";
  const std::string export_proof = "exec " + test::enygma_binary().string() +
                                   " export-proof --proof " + (tmp / "long.json") +
                                   " --out-proof " + proof + " --out-public " + pub;
  // the sizes the limit lies between
  r = run_enygma({"export-proof", "--proof", tmp / "long.json", "--out-proof", tmp / "p.json",
                  "--out-public", tmp / "q.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_LT(test::read_all(tmp / "p.json").size(), 1024u);
  ASSERT_GT(test::read_all(tmp / "q.json").size(), 2048u);
  write(proof, "old proof");
  write(pub, "old public");
  const std::vector<std::string> before = {"proof.json", "public.json"};

  auto killed = run_shell("ulimit -f 2; " + export_proof);
  EXPECT_TRUE(WIFSIGNALED(killed.status) && WTERMSIG(killed.status) == SIGXFSZ)
      << killed.status << ": " << killed.result.err;
  EXPECT_EQ(folder_names(dir), before);
  EXPECT_EQ(test::read_all(proof), "old proof");
  EXPECT_EQ(test::read_all(pub), "old public");

  auto refused = run_shell("trap '' XFSZ; ulimit -f 2; " + export_proof);
  EXPECT_EQ(refused.result.exit_code, 1) << refused.result.err;
  EXPECT_EQ(refused.result.err, "{\"error\":\"cannot write " + pub +
                                    ": File too large\",\"rule\":\"io\",\"field\":\"" + pub +
                                    "\"}\n");
  EXPECT_EQ(folder_names(dir), before);
  EXPECT_EQ(test::read_all(proof), "old proof");
  EXPECT_EQ(test::read_all(pub), "old public");
}

// Output folders that cannot be used or made are named with the reason, before any work: a path
// through links that loop, a name too long, a folder under a file.
TEST(Cli, OutputFoldersThatCannotBeMadeAreNamed) {
  TempDir tmp;
  const std::string loop = tmp / "loop";
  ASSERT_EQ(symlink("loop", loop.c_str()), 0);
  const std::string zkey =
      std::string(ENYGMA_SOURCE_DIR) + "/tests/interop/fixtures/circuit_final.zkey";
  const std::string too_long = tmp / std::string(300, 'x');
  for (const auto& [dir, says] : std::vector<std::pair<std::string, std::string>>{
           {loop + "/keys", "Too many levels of symbolic links"},
           {too_long, "File name too long"}}) {
    auto r = run_enygma({"import-zkey", "--k", "2", "--zkey", zkey, "--out", dir});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("\"error\":\"cannot use as a folder " + dir + ": " + says + "\""),
              std::string::npos)
        << r.err;
  }
  // setup makes its folder (mkdir -p): one under a file, or links that loop, cannot be
  write(tmp / "file", "x");
  for (const auto& [dir, says] : std::vector<std::pair<std::string, std::string>>{
           {tmp / "file/sub", "Not a directory"}, {loop, "Too many levels of symbolic links"}}) {
    auto r =
        run_enygma({"setup", "--circuit", "ownership-721", "--out", dir, "--insecure-seed", "x"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err, "{\"error\":\"cannot create folder " + dir + ": " + says +
                         "\",\"rule\":\"io\",\"field\":\"" + dir + "\"}\n");
  }
  EXPECT_EQ(folder_names(tmp.path().string()), (std::vector<std::string>{"file", "loop"}));
  EXPECT_EQ(test::read_all(tmp / "file"), "x");
}

// An output through a chain of links creates the file the last one names, the links kept; links
// that loop name no file: refused, the link kept, not replaced by the output (as a shell's `>`
// refuses them), also where two outputs are compared first (export-proof) or the output is
// checked before the work (prove).
TEST(Cli, OutputLinkChainsAndLoops) {
  TempDir tmp;
  const std::string keys_dir = keys().path().string();
  ASSERT_EQ(symlink("c1", (tmp / "c0").c_str()), 0);
  ASSERT_EQ(symlink("c2", (tmp / "c1").c_str()), 0);
  auto r = run_enygma({"export-vk", "--k", "2", "--keys", keys_dir, "--out", tmp / "c0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(test::read_all(tmp / "c2").find("vk_alpha_1"), std::string::npos);
  struct stat st;
  for (const char* link : {"c0", "c1"}) {
    ASSERT_EQ(lstat((tmp / link).c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << link;
  }

  ASSERT_EQ(symlink("a", (tmp / "b").c_str()), 0);
  ASSERT_EQ(symlink("b", (tmp / "a").c_str()), 0);
  ASSERT_EQ(symlink("self", (tmp / "self").c_str()), 0);
  for (const std::string& out : {tmp / "a", tmp / "self"}) {
    const std::string refused = "{\"error\":\"cannot write " + out +
                                ": Too many levels of symbolic links\",\"rule\":\"io\","
                                "\"field\":\"" +
                                out + "\"}\n";
    r = run_enygma({"export-vk", "--k", "2", "--keys", keys_dir, "--out", out});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_TRUE(r.err.ends_with(refused)) << r.err;  // (after the insecure key's warning)
    r = run_enygma({"export-proof", "--proof", vector_path("transfer-k2.json"), "--out-proof", out,
                    "--out-public", tmp / "public.json"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err, refused);
    r = run_enygma({"prove", "--k", "2", "--keys", keys_dir, "--input",
                    vector_path("transfer-k2-bad.json"), "--out", out});
    EXPECT_EQ(r.exit_code, 1) << r.err;  // (the request, bad, is not read: exit 2 if it were)
    EXPECT_EQ(r.err, refused);
  }
  for (const char* link : {"a", "b", "self"}) {
    ASSERT_EQ(lstat((tmp / link).c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << link;
  }
  EXPECT_EQ(folder_names(tmp.path().string()),
            (std::vector<std::string>{"a", "b", "c0", "c1", "c2", "self"}));
}

// A relative output where the working folder was removed is an error naming the output, not
// taken for the system refusing a thread.
TEST(Cli, ARemovedWorkingFolderIsAnOutputError) {
  TempDir tmp;
  const std::string gone = tmp / "gone";
  std::filesystem::create_directory(gone);
  const std::string enygma = test::enygma_binary().string();
  for (const auto& [command, out] : std::vector<std::pair<std::string, std::string>>{
           {" export-proof --proof " + vector_path("transfer-k2.json") +
                " --out-proof a.json --out-public b.json",
            "a.json"},
           {" prove --k 2 --keys " + keys().path().string() + " --input " +
                vector_path("transfer-k2-bad.json") + " --out p.json",
            "p.json"}}) {
    std::filesystem::create_directories(gone);
    const auto r = run_shell("cd " + gone + " && rmdir " + gone + " && exec " + enygma + command);
    EXPECT_EQ(r.result.exit_code, 1) << r.result.err;
    EXPECT_EQ(r.result.err, "{\"error\":\"cannot write " + out +
                                ": No such file or directory\",\"rule\":\"io\",\"field\":\"" + out +
                                "\"}\n");
  }
}

// Memory the system refuses is an error that says so, exit 1, not an abort. The address-space
// limit is raised step by step from the least at which the program starts (`enygma version`
// runs; below it the C library or the kernel's exec fails, even by a signal) until an
// allocation of the proof's command is refused (about 10 MiB here: where depends on the build
// and the C library, so no fixed limit is assumed); no step may end the program by a signal,
// and the proof (which needs more) must not be reached first.
TEST(Cli, OutOfMemoryIsAnErrorNotAnAbort) {
  if (ENYGMA_UNDER_SANITIZER) GTEST_SKIP() << "the sanitizers reserve more than the limit";
  TempDir tmp;
  const std::string enygma = test::enygma_binary().string();
  const auto limited = [](int kib, const std::string& command) {
    return run_shell("ulimit -v " + std::to_string(kib) + "; exec " + command);
  };
  int start_kib = 4096;
  while (start_kib <= 256 * 1024 && limited(start_kib, enygma + " version").result.exit_code != 0) {
    start_kib += 256;
  }
  ASSERT_LE(start_kib, 256 * 1024) << "enygma version does not start under 256 MiB";
  const std::string prove = enygma + " prove --k 2 --keys " + keys().path().string() +
                            " --threads 1 --input " + vector_path("transfer-k2.json") + " --out " +
                            (tmp / "p.json");
  bool refused = false;
  for (int kib = start_kib; kib <= 256 * 1024 && !refused; kib += 256) {
    const auto r = limited(kib, prove);
    ASSERT_FALSE(WIFSIGNALED(r.status))
        << kib << " KiB: signal " << WTERMSIG(r.status) << ": " << r.result.err;
    ASSERT_NE(r.result.exit_code, 0) << kib << " KiB: proved without running out of memory";
    // (a refused map of the key is a JSON error; the handlers' messages are plain text)
    refused = r.result.err.rfind("enygma prove: ", 0) == 0;
    if (refused) {
      EXPECT_EQ(r.result.exit_code, 1) << r.result.err;
      EXPECT_EQ(r.result.err, "enygma prove: out of memory\n") << kib << " KiB";
      EXPECT_TRUE(r.result.out.empty()) << r.result.out;
    }
  }
  EXPECT_TRUE(refused);
  EXPECT_TRUE(folder_names(tmp.path().string()).empty());
}

}  // namespace
}  // namespace enygma

#endif
