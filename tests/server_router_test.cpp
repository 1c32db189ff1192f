// The server's decisions, in-process (no socket, no thread): routing from the registry's table,
// refusals, the jobs of the prove and verify routes and how their results become HTTP answers
// (with and without --reference-status-codes), the configuration parser, and the README's
// endpoint table against the route table.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "native/common/options.hpp"
#include "native/server/backend.hpp"
#include "native/server/config.hpp"
#include "native/server/http.hpp"
#include "native/server/metrics.hpp"
#include "native/server/router.hpp"
#include "native/server/runtime.hpp"

namespace enygma::server {
namespace {

std::vector<CircuitId> some_circuits() {
  std::vector<CircuitId> out = {*find_circuit("transfer", 2), *find_circuit("transfer", 3)};
  // One circuit of every other family: families with k at 2, the others as they are.
  for (const CircuitFamily* f : circuit_families()) {
    if (f->name != "transfer") out.push_back(*find_circuit(f->name, f->has_k() ? 2 : 0));
  }
  return out;
}

struct RouterFixture {
  std::unique_ptr<ProofBackend> backend = make_fake_backend(some_circuits(), 1);
  Router router{*backend, false};
  Router reference{*backend, true};
};

TEST(ServerRouter, ClassifiesEveryServedRouteFromTheRegistry) {
  RouterFixture f;
  for (const CircuitId& id : some_circuits()) {
    Route prove = f.router.classify(id.prove_route());
    EXPECT_EQ(prove.kind, RouteKind::kProve) << id.str();
    EXPECT_EQ(prove.circuit, id);
    EXPECT_EQ(prove.allow, std::string("POST"));
    Route verify = f.router.classify(id.verify_route());
    EXPECT_EQ(verify.kind, RouteKind::kVerify) << id.str();
    EXPECT_EQ(verify.circuit, id);
    EXPECT_FALSE(f.router.check(prove, "POST").has_value());
    // Metrics labels name the route, never a raw path or a k.
    EXPECT_EQ(prove.endpoint.find('/'), std::string::npos) << prove.endpoint;
  }
  EXPECT_EQ(f.router.classify("/generateProofTransfer-2").endpoint, "generateProofTransfer");
  EXPECT_EQ(f.router.classify("/healthcheck").kind, RouteKind::kHealth);
  EXPECT_EQ(f.router.classify("/readyz").kind, RouteKind::kReady);
  EXPECT_EQ(f.router.classify("/metrics").kind, RouteKind::kMetrics);
  EXPECT_EQ(f.router.classify("/keys/manifest.json").kind, RouteKind::kKeysManifest);
  EXPECT_EQ(f.router.classify("/keys/transfer-k2.pk").kind, RouteKind::kKeyFile);
  EXPECT_EQ(f.router.classify("/index.html").kind, RouteKind::kStatic);
}

// Cross-origin browser callers are not supported (server.md): a preflight OPTIONS to a route is
// 405 like any method the route does not take, with no CORS header to let the call through.
TEST(ServerRouter, APreflightIsNotAllowed) {
  RouterFixture f;
  const Route prove = f.router.classify("/generateProofTransfer-2");
  auto refusal = f.router.check(prove, "OPTIONS");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->status, http::status::method_not_allowed);
  StringResponse res = f.router.refuse(*refusal, 11);
  EXPECT_EQ(res.find("access-control-allow-origin"), res.end());
}

TEST(ServerRouter, UnservedCircuitsAndWrongMethodsAreRefused) {
  RouterFixture f;
  for (const char* path :
       {"/generateProofTransfer-7", "/generateProofTransfer-0", "/verifyProofTransfer-1",
        "/generateProofTransfer-123456789012345678901"}) {
    Route r = f.router.classify(path);
    ASSERT_EQ(r.kind, RouteKind::kNotServed) << path;
    auto refusal = f.router.check(r, "POST");
    ASSERT_TRUE(refusal.has_value()) << path;
    EXPECT_EQ(refusal->status, http::status::not_found);
    EXPECT_EQ(refusal->rule, "k");
    EXPECT_NE(refusal->message.find("this server serves transfer k = 2,3"), std::string::npos)
        << refusal->message;
    // It names nothing here, whatever the method: 404, not 405 "use POST".
    for (const char* method : {"GET", "HEAD", "PUT"}) {
      auto other = f.router.check(r, method);
      ASSERT_TRUE(other.has_value()) << path << " " << method;
      EXPECT_EQ(other->status, http::status::not_found) << path << " " << method;
      EXPECT_EQ(other->rule, "k") << path << " " << method;
    }
  }
  // Only a canonical decimal k makes a k route: anything else is no route at all.
  for (const char* path :
       {"/generateProofTransfer-abc", "/generateProofTransfer-", "/generateProofTransfer-2/",
        "/generateProofTransfer-02", "/generateProofTransfer-2x", "/generateProofTransfer--1",
        "/verifyProofTransfer-+2", "/generateProofTransfer- 2"}) {
    EXPECT_EQ(f.router.classify(path).kind, RouteKind::kStatic) << path;
  }
  auto wrong = f.router.check(f.router.classify("/generateProofTransfer-2"), "GET");
  ASSERT_TRUE(wrong.has_value());
  EXPECT_EQ(wrong->status, http::status::method_not_allowed);
  EXPECT_EQ(wrong->rule, "method");
  EXPECT_EQ(wrong->message, "method GET is not allowed here; use POST");
  auto post_health = f.router.check(f.router.classify("/healthcheck"), "POST");
  ASSERT_TRUE(post_health.has_value());
  EXPECT_EQ(post_health->status, http::status::method_not_allowed);
  // A path that names nothing is 404 whatever the method; 405 only where it names something.
  const Route file = f.router.classify("/no/such/file");
  auto missing = f.router.check(file, "POST", "/no/such/file", false);
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->status, http::status::not_found);
  EXPECT_EQ(missing->rule, "path");
  EXPECT_EQ(f.router.check(file, "PUT", "/app.js", true)->status, http::status::method_not_allowed);
  EXPECT_FALSE(f.router.check(file, "GET", "/no/such/file", false).has_value());
  // A method this server does not implement at all: 501, named as sent, wherever.
  for (const char* method : {"BREW", "get", "Post", "PROPFIND-X"}) {
    for (const Route& route :
         {file, f.router.classify("/healthcheck"), f.router.classify("/generateProofTransfer-2")}) {
      auto r = f.router.check(route, method, "/x", false);
      ASSERT_TRUE(r.has_value()) << method;
      EXPECT_EQ(r->status, http::status::not_implemented) << method;
      EXPECT_EQ(r->message.rfind(std::string("method ") + method + " ", 0), 0u) << r->message;
    }
  }
}

// A 404 quotes the path it could not find on one line and at most 200 bytes of it: a 16 KiB path
// does not come back in a 16 KiB body.
TEST(ServerRouter, NotFoundQuotesAShortenedPath) {
  EXPECT_EQ(no_such_resource("/nope.js"), "no such resource: /nope.js");
  EXPECT_EQ(shown_path("/a\nb\xc3\xa9"), "/a\\x0ab\\xc3\\xa9");
  const std::string exact = "/" + std::string(kShownPathBytes - 1, 'x');
  EXPECT_EQ(shown_path(exact), exact);
  const std::string long_path = "/" + std::string(16 * 1024, 'x');
  const std::string shown = shown_path(long_path);
  EXPECT_EQ(shown, long_path.substr(0, kShownPathBytes) + "\u2026");
  RouterFixture f;
  const Route route = f.router.classify(long_path);
  auto refusal = f.router.check(route, "POST", long_path, false);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->status, http::status::not_found);
  EXPECT_EQ(refusal->message, "no such resource: " + shown);
  StringResponse res = not_found_response(long_path, 11);
  EXPECT_LT(res.body().size(), 400u) << res.body();
  EXPECT_NE(res.body().find("\u2026"), std::string::npos) << res.body();
}

TEST(ServerRouter, JobsAndTheirAnswers) {
  RouterFixture f;
  const Route prove = f.router.classify("/generateProofTransfer-2");
  const Route verify = f.router.classify("/verifyProofTransfer-2");
  auto proof = f.router.work(prove, R"({"sender_id":"1"})", sequential_pool(), nullptr);
  ASSERT_TRUE(proof.ok()) << proof.error().message;
  StringResponse ok = f.router.answer(proof, 11);
  EXPECT_EQ(ok.result(), http::status::ok);
  EXPECT_EQ(std::string(to_sv(ok[http::field::content_type])).rfind("application/json", 0), 0u);
  // The proof verifies; anything else well formed does not; a malformed one is the caller's.
  EXPECT_EQ(*f.router.work(verify, *proof, sequential_pool(), nullptr), R"({"valid":true})");
  std::string other = *proof;
  other[other.find('1')] = '9';
  EXPECT_EQ(*f.router.work(verify, other, sequential_pool(), nullptr), R"({"valid":false})");
  auto malformed = f.router.work(verify, "[]", sequential_pool(), nullptr);
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(f.router.answer(malformed, 11).result(), http::status::bad_request);
  // A request's fault: 400 naming the rule and field; with --reference-status-codes, 500 and the
  // reference's {"error"} body.
  Result<std::string> rule_error =
      make_error("R15: tx_values[2] is not ...", "R15", "tx_values[2]");
  StringResponse ours = f.router.answer(rule_error, 11);
  EXPECT_EQ(ours.result(), http::status::bad_request);
  auto body = nlohmann::json::parse(ours.body());
  EXPECT_EQ(body["rule"], "R15");
  EXPECT_EQ(body["field"], "tx_values[2]");
  StringResponse theirs = f.reference.answer(rule_error, 11);
  EXPECT_EQ(theirs.result(), http::status::internal_server_error);
  auto ref = nlohmann::json::parse(theirs.body());
  EXPECT_EQ(ref.size(), 1u);
  EXPECT_EQ(ref["error"], "R15: tx_values[2] is not ...");
  for (const char* rule : {"input", "W3", "J10", "O4", "R9d", "proof"}) {
    Result<std::string> e = make_error("x", rule, "f");
    EXPECT_EQ(f.router.answer(e, 11).result(), http::status::bad_request) << rule;
    EXPECT_EQ(f.reference.answer(e, 11).result(), http::status::internal_server_error) << rule;
  }
  // A server fault is 500 either way, with the error object.
  Result<std::string> fault = make_error("no proving key", "key", "");
  EXPECT_EQ(f.router.answer(fault, 11).result(), http::status::internal_server_error);
  EXPECT_EQ(nlohmann::json::parse(f.router.answer(fault, 11).body())["rule"], "key");
  // Refusals: a 400 becomes the reference's 500; the protocol's own answers stay.
  Refusal bad_body{http::status::bad_request, "too deep", "input", "body"};
  EXPECT_EQ(f.router.refuse(bad_body, 11).result(), http::status::bad_request);
  EXPECT_EQ(f.reference.refuse(bad_body, 11).result(), http::status::internal_server_error);
  Refusal missing{http::status::not_found, "no", "k", "k"};
  EXPECT_EQ(f.reference.refuse(missing, 11).result(), http::status::not_found);
}

TEST(ServerRouter, ReadmeListsEveryRoute) {
  std::ifstream in(std::string(ENYGMA_SOURCE_DIR).append("/README.md"));
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  ASSERT_FALSE(readme.empty());
  for (const RouteRow& row : route_rows()) {
    EXPECT_NE(readme.find(row.path), std::string::npos) << row.path << " is not in README.md";
  }
}

ConfigParse parse(std::vector<std::string> args,
                  std::vector<std::pair<const char*, const char*>> env = {}) {
  static std::vector<std::pair<const char*, const char*>> current;
  current = std::move(env);
  std::vector<char*> argv;
  args.insert(args.begin(), "serve");
  for (auto& a : args) argv.push_back(a.data());
  return parse_server_config(int(argv.size()), argv.data(), [](const char* name) -> const char* {
    for (auto& [k, v] : current) {
      if (std::string(k) == name) return v;
    }
    return nullptr;
  });
}

TEST(ServerConfigParse, CircuitsKAndFlags) {
  ConfigParse p = parse({});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->circuits, default_circuits());
  p = parse({"--circuits", "transfer", "--k", "2,4"});
  ASSERT_TRUE(p.config.has_value());
  ASSERT_EQ(p.config->circuits.size(), 2u);
  EXPECT_EQ(p.config->circuits[1].str(), "transfer-k4");
  // A flag wins over the environment.
  p = parse({"--k", "3"}, {{"ENYGMA_K", "2"},
                           {"ENYGMA_CIRCUITS", "transfer"},
                           {"ENYGMA_REFERENCE_STATUS_CODES", "on"}});
  ASSERT_TRUE(p.config.has_value());
  ASSERT_EQ(p.config->circuits.size(), 1u);
  EXPECT_EQ(p.config->circuits[0].str(), "transfer-k3");
  EXPECT_TRUE(p.config->reference_status_codes);
  // The boolean options alone are on (as --no-isolation is a flag); a value still works.
  for (std::vector<std::string> on :
       std::vector<std::vector<std::string>>{{"--reference-status-codes"},
                                             {"--reference-status-codes", "--k", "2"},
                                             {"--k", "2", "--reference-status-codes"},
                                             {"--reference-status-codes", "on"},
                                             {"--reference-status-codes=yes"}}) {
    p = parse(on);
    ASSERT_TRUE(p.config.has_value()) << on[0];
    EXPECT_TRUE(p.config->reference_status_codes) << on[0];
  }
  p = parse({"--reference-status-codes", "off", "--isolation", "--access-log"},
            {{"ENYGMA_ISOLATION", "off"}, {"ENYGMA_ACCESS_LOG", "off"}});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_FALSE(p.config->reference_status_codes);
  EXPECT_TRUE(p.config->isolation);
  EXPECT_TRUE(p.config->access_log);
  p = parse({"--circuits", "transfer-k6", "--reference-status-codes=off"});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->circuits.size(), 1u);
  EXPECT_FALSE(p.config->reference_status_codes);
  EXPECT_NE(p.config->to_json().find("\"circuits\":[\"transfer-k6\"]"), std::string::npos);
  for (const char* address : {"0.0.0.0", "127.0.0.1", "::", "::1", "fe80::1"}) {
    p = parse({"--bind", address});
    ASSERT_TRUE(p.config.has_value()) << address;
    EXPECT_EQ(p.config->bind, address);
  }
  // The listening line's URL: an IPv6 address in brackets.
  EXPECT_EQ(listen_url("127.0.0.1", 3003), "http://127.0.0.1:3003/");
  EXPECT_EQ(listen_url("::1", 3003), "http://[::1]:3003/");
  // Refused: unknown circuits, k out of every range, bad values, unknown flags.
  for (std::vector<std::string> bad :
       std::vector<std::vector<std::string>>{{"--circuits", "nope"},
                                             {"--circuits", "transfer", "--k", "40"},
                                             {"--k", "1"},
                                             {"--reference-status-codes", "maybe"},
                                             {"--no-such-flag", "1"},
                                             {"--port"},
                                             {"--bind", "999.1.1.1"},
                                             {"--bind", "localhost"},
                                             {"--bind", ""},
                                             {"stray"},
                                             {"--no-isolation", "--isolation", "on"},
                                             {"--web", "/nonexistent-enygma-folder"},
                                             {"--circuits", "transfer-k6", "--k", "2"}}) {
    testing::internal::CaptureStderr();
    ConfigParse r = parse(bad);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_FALSE(r.config.has_value()) << bad[0];
    EXPECT_EQ(r.exit_code, enygma::native::kExitUsage) << bad[0];
    // One line in the CLI's form, whichever check refused it (the option parser, serve's own).
    const std::string head = "enygma serve: ", tail = " (see --help)\n";
    EXPECT_EQ(err.rfind(head, 0), 0u) << err;
    EXPECT_TRUE(err.size() > tail.size() &&
                err.compare(err.size() - tail.size(), tail.size(), tail) == 0)
        << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << err;
  }
}

// parse() with stderr captured: the refusal's exit code and message.
std::pair<int, std::string> refusal(std::vector<std::string> args,
                                    std::vector<std::pair<const char*, const char*>> env = {}) {
  testing::internal::CaptureStderr();
  ConfigParse p = parse(std::move(args), std::move(env));
  const std::string err = testing::internal::GetCapturedStderr();
  return {p.config ? 0 : p.exit_code, err};
}

// A variable's bad value is a usage error in the same form as a flag's.
TEST(ServerConfigParse, BadVariableValueIsAUsageError) {
  auto [code, err] = refusal({}, {{"ENYGMA_PORT", "x"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_EQ(err.rfind("enygma serve: invalid ENYGMA_PORT=x: expected ", 0), 0u) << err;
  EXPECT_EQ(err.find(" (see --help)\n"), err.size() - 14) << err;
}

// A circuit id names its k: --k (or ENYGMA_K) with ids only is refused, as the CLI's --circuit
// refuses it, naming what gave each; with a family named, --k applies to it.
TEST(ServerConfigParse, KWithCircuitIdsOnlyIsRefused) {
  auto [code, err] = refusal({"--circuits", "transfer-k6", "--k", "2"});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("--k cannot be combined with --circuits transfer-k6"), std::string::npos)
      << err;
  std::tie(code, err) = refusal({"--circuits", "transfer-k6,deposit-k2"}, {{"ENYGMA_K", "2"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("ENYGMA_K cannot be combined with --circuits transfer-k6,deposit-k2"),
            std::string::npos)
      << err;
  // A family without k beside the ids leaves --k as little to choose: the same refusal, not
  // "--k = 2 is not served".
  std::tie(code, err) = refusal({"--circuits", "transfer-k6,ownership-721", "--k", "2"});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("--k cannot be combined with --circuits transfer-k6,ownership-721: a "
                     "circuit id names its own k"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("not served"), std::string::npos) << err;
  std::tie(code, err) = refusal({}, {{"ENYGMA_K", "3"}, {"ENYGMA_CIRCUITS", "transfer-k6"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("ENYGMA_K cannot be combined with ENYGMA_CIRCUITS=transfer-k6"),
            std::string::npos)
      << err;
  ConfigParse p = parse({"--circuits", "transfer,deposit-k6", "--k", "2"});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->circuits.size(), 2u);
  p = parse({"--circuits", "transfer-k6"});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->circuits.size(), 1u);
}

TEST(ServerConfigParse, BooleansInAnyCase) {
  for (const char* on : {"ON", "On", "TRUE", "Yes", "1", "on"}) {
    ConfigParse p = parse({"--reference-status-codes", on});
    ASSERT_TRUE(p.config.has_value()) << on;
    EXPECT_TRUE(p.config->reference_status_codes) << on;
    p = parse({}, {{"ENYGMA_REFERENCE_STATUS_CODES", on}});
    ASSERT_TRUE(p.config.has_value()) << on;
    EXPECT_TRUE(p.config->reference_status_codes) << on;
  }
  for (const char* off : {"OFF", "False", "NO", "0"}) {
    ConfigParse p = parse({"--access-log", off});
    ASSERT_TRUE(p.config.has_value()) << off;
    EXPECT_FALSE(p.config->access_log) << off;
  }
  EXPECT_EQ(refusal({"--access-log", "ONN"}).first, enygma::native::kExitUsage);
  // A word after a boolean option is its value, refused by name (not "unexpected argument").
  auto [code, err] = refusal({"--access-log", "maybe"});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("invalid value 'maybe' for --access-log: expected on/off"), std::string::npos)
      << err;
  // a value or a variable quoted on one line (a newline in it would split the message)
  err = refusal({"--access-log", "on\noff"}).second;
  EXPECT_NE(err.find("invalid value 'on\\x0aoff' for --access-log"), std::string::npos) << err;
  err = refusal({}, {{"ENYGMA_ACCESS_LOG", "on\noff"}}).second;
  EXPECT_NE(err.find("invalid ENYGMA_ACCESS_LOG=on\\x0aoff: expected"), std::string::npos) << err;
}

// A flag wins over its variable, which is then not read: a stale or wrong ENYGMA_PORT does not
// stop `--port 8080`; alone it is refused, naming the variable.
TEST(ServerConfigParse, AFlagGivenLeavesItsVariableUnread) {
  ConfigParse p =
      parse({"--port", "8080", "--no-isolation", "--keys", "k"},
            {{"ENYGMA_PORT", "eighty"}, {"ENYGMA_ISOLATION", "maybe"}, {"ENYGMA_KEYS", ""}});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->port, 8080);
  EXPECT_FALSE(p.config->isolation);
  EXPECT_EQ(p.config->keys_dir, "k");
  auto [code, err] = refusal({}, {{"ENYGMA_PORT", "eighty"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("invalid ENYGMA_PORT=eighty"), std::string::npos) << err;
  std::tie(code, err) = refusal({"--port", "8080"}, {{"ENYGMA_ISOLATION", "maybe"}});
  EXPECT_NE(err.find("invalid ENYGMA_ISOLATION=maybe"), std::string::npos) << err;
}

// ENYGMA_* variables that nothing reads (a misspelled option's, ENYGMA_QUEU) are reported by
// name (serve warns about each); the options' own and those the program, the scripts, the tests
// and the e2e runs read are not.
TEST(ServerConfigParse, UnknownEnygmaVariablesAreFound) {
  const char* const env[] = {"ENYGMA_QUEU=3",
                             "ENYGMA_QUEUE=3",
                             "PATH=/usr/bin",
                             "ENYGMA_MAX_BODY=1MiB",
                             "ENYGMA_DISABLE_KERNELS=adx",
                             "ENYGMA_LB_SERVER_MAXCONN=5",
                             "ENYGMA_TESTS_REQUIRE_TOOLS=1",
                             "ENYGMA_E2E_URL=http://127.0.0.1:1/",
                             "ENYGMA_=x",
                             "ENYGMA_KEY=secret=value",
                             "XENYGMA_PORT=1",
                             "ENYGMA_NO_VALUE",
                             nullptr};
  EXPECT_EQ(unknown_enygma_variables(env),
            (std::vector<std::string>{"ENYGMA_QUEU", "ENYGMA_", "ENYGMA_KEY", "ENYGMA_NO_VALUE"}));
  const char* const none[] = {"HOME=/root", nullptr};
  EXPECT_TRUE(unknown_enygma_variables(none).empty());
  EXPECT_TRUE(unknown_enygma_variables(nullptr).empty());
}

// Every ENYGMA_* variable the project's own files read from the environment (the program, the
// scripts, the Makefile, CI, the tests, e2e and the module's benchmarks) is known to serve, so
// that none of them, exported beside a server (CI exports ENYGMA_TIMES), is warned about.
TEST(ServerConfigParse, EveryVariableTheProjectReadsIsKnown) {
  namespace fs = std::filesystem;
  const fs::path root = ENYGMA_SOURCE_DIR;
  // Reads: a shell or make expansion ($X, ${X...}, $(X)), process.env.X / ["X"], getenv("X"),
  // os.environ / os.getenv, CMake's $ENV{X}. Not a CMake variable (${X} in CMake files: the
  // build's options, never the environment).
  static const std::string_view kShellReads[] = {"$", "${", "$("};
  static const std::string_view kOtherReads[] = {
      "process.env.", "process.env['", "process.env[\"", "getenv(\"",     "getenv('",
      "environ[\"",   "environ['",     "environ.get(\"", "environ.get('", "$ENV{"};
  std::set<std::string> names;
  std::vector<std::string> files_read;
  auto scan = [&](const fs::path& file) {
    const std::string name = file.filename().string();
    const bool cmake =
        name == "CMakeLists.txt" || file.extension() == ".cmake" || name == "CMakePresets.json";
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (size_t at = s.find("ENYGMA_"); at != std::string::npos; at = s.find("ENYGMA_", at + 1)) {
      const std::string_view before = std::string_view(s).substr(0, at);
      bool read = false;
      for (std::string_view prefix : kOtherReads) read = read || before.ends_with(prefix);
      for (std::string_view prefix : kShellReads) {
        read = read || (!cmake && before.ends_with(prefix));
      }
      if (!read) continue;
      size_t end = at;
      while (end < s.size() &&
             (std::isupper(static_cast<unsigned char>(s[end])) ||
              std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '_')) {
        ++end;
      }
      names.insert(s.substr(at, end - at));
    }
    files_read.push_back(file.string());
  };
  for (const char* top : {"Makefile", ".ci/run", "CMakeLists.txt"}) scan(root / top);
  for (const char* dir : {"scripts", "native", "core", "wasm", "web", "e2e", "tests", "deploy",
                          "cmake", "toolchains"}) {
    if (!fs::is_directory(root / dir)) continue;
    for (auto it = fs::recursive_directory_iterator(root / dir); it != fs::end(it); ++it) {
      const std::string leaf = it->path().filename().string();
      if (it->is_directory() && (leaf == "node_modules" || leaf == "artifacts" ||
                                 leaf == "fixtures" || leaf.rfind("test-results", 0) == 0)) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && it->file_size() < 1'000'000) scan(it->path());
    }
  }
  ASSERT_GT(files_read.size(), 100u);
  // the scan finds what it must: an option's variable, a script's, the benchmarks'
  for (const char* read :
       {"ENYGMA_DISABLE_KERNELS", "ENYGMA_LB_BIND", "ENYGMA_BENCH_RUNS", "ENYGMA_TIMES"}) {
    EXPECT_EQ(names.count(read), 1u) << read;
  }
  std::vector<std::string> env_text;
  for (const std::string& n : names) env_text.push_back(n + "=1");
  std::vector<const char*> env;
  for (const std::string& e : env_text) env.push_back(e.c_str());
  env.push_back(nullptr);
  EXPECT_EQ(unknown_enygma_variables(env.data()), std::vector<std::string>{})
      << "read by the project but warned about by serve";
}

// An empty value is refused by name (`--keys ""` is not the root folder), but --web's, which
// means no demo.
TEST(ServerConfigParse, EmptyValuesAreRefusedButWebs) {
  for (const char* flag : {"--keys", "--circuits", "--port", "--max-body"}) {
    auto [code, err] = refusal({flag, ""});
    EXPECT_EQ(code, enygma::native::kExitUsage) << flag;
    EXPECT_NE(err.find(std::string(flag) + " needs a value, got an empty one"), std::string::npos)
        << err;
  }
  ConfigParse p = parse({"--web", ""});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_TRUE(p.config->web_dir.empty());
}

// --max-body is at most 16 MiB (a connection's read buffer holds a whole body): beyond, the
// start is refused naming the flag or the variable and the maximum, not only for its unit.
TEST(ServerConfigParse, MaxBodyHasAMaximum) {
  for (const char* too_big : {"99999999999", "16777217", "17MiB", "1048576k"}) {
    auto [code, err] = refusal({"--max-body", too_big});
    EXPECT_EQ(code, enygma::native::kExitUsage) << too_big;
    EXPECT_NE(err.find(std::string("invalid value '") + too_big + "' for --max-body: expected a " +
                       "size above 0 and at most 16MiB"),
              std::string::npos)
        << err;
    std::tie(code, err) = refusal({}, {{"ENYGMA_MAX_BODY", too_big}});
    EXPECT_EQ(code, enygma::native::kExitUsage) << too_big;
    EXPECT_NE(err.find(std::string("invalid ENYGMA_MAX_BODY=") + too_big +
                       ": expected a size above 0 and at most 16MiB"),
              std::string::npos)
        << err;
  }
  for (const char* fits : {"16MiB", "16777216", "16384k", "1"}) {
    ConfigParse p = parse({"--max-body", fits});
    ASSERT_TRUE(p.config.has_value()) << fits;
    EXPECT_LE(p.config->max_body, kMaxBodyLimit) << fits;
  }
  EXPECT_EQ(parse({"--max-body", "16MiB"}).config->max_body, size_t(16) << 20);
}

// --no-isolation is --isolation off: the two together are refused, whatever the value.
TEST(ServerConfigParse, NoIsolationWithIsolationIsRefused) {
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--no-isolation", "--isolation", "on"},
                                             {"--isolation", "--no-isolation"},
                                             {"--no-isolation", "--isolation=off"}}) {
    auto [code, err] = refusal(args);
    EXPECT_EQ(code, enygma::native::kExitUsage) << args[0] << " " << args[1];
    EXPECT_NE(err.find("--no-isolation and --isolation"), std::string::npos) << err;
  }
  ConfigParse p = parse({"--no-isolation"}, {{"ENYGMA_ISOLATION", "on"}});  // a flag wins
  ASSERT_TRUE(p.config.has_value());
  EXPECT_FALSE(p.config->isolation);
}

// A flag followed by a word: the word is named as a value the flag does not take, not by its
// position on the command line.
TEST(ServerConfigParse, AValueAfterAFlagIsNamed) {
  auto [code, err] = refusal({"--backend", "fake", "--no-isolation", "off"});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("unexpected argument 'off' after --no-isolation (a flag, it takes no value)"),
            std::string::npos)
      << err;
}

// --web names the built demo: a folder with an index.html, or none / "" (off); anything else
// stops start-up instead of answering 404 to every page.
TEST(ServerConfigParse, WebIsTheBuiltDemoOrNone) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("enygma-web-test-" + std::to_string(getpid()));
  fs::create_directories(dir / "demo");
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "demo" / "index.html") << "demo";
  std::ofstream(dir / "file.txt") << "x";
  const std::pair<fs::path, const char*> bad[] = {{dir / "nonexistent", "no such folder"},
                                                  {dir / "file.txt", "not a folder"},
                                                  {dir / "empty", "the folder has no index.html"}};
  for (const auto& [path, why] : bad) {
    auto [code, err] = refusal({"--web", path.string()});
    EXPECT_EQ(code, enygma::native::kExitUsage) << path;
    EXPECT_NE(err.find("--web " + path.string() + ": " + why), std::string::npos) << err;
    std::tie(code, err) = refusal({}, {{"ENYGMA_WEB", path.c_str()}});
    EXPECT_EQ(code, enygma::native::kExitUsage) << path;
    EXPECT_NE(err.find("ENYGMA_WEB=" + path.string() + ": " + why), std::string::npos) << err;
  }
  for (const char* off : {"none", ""}) {
    ConfigParse p = parse({"--web", off});
    ASSERT_TRUE(p.config.has_value()) << off;
    EXPECT_EQ(p.config->web_dir, "");
  }
  ConfigParse p = parse({"--web", (dir / "demo").string()});
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->web_dir, (dir / "demo").string());
  p = parse({});  // the default: the first folder found with an index.html, or none
  ASSERT_TRUE(p.config.has_value());
  EXPECT_EQ(p.config->web_dir, default_web_dir());
  fs::remove_all(dir);
}

// A value refused says what is accepted, in the same words from the flag and the environment;
// what ENYGMA_K or ENYGMA_CIRCUITS caused names them.
TEST(ServerConfigParse, ErrorsSayWhatIsAcceptedAndWhereTheValueCameFrom) {
  auto [code, err] = refusal({}, {{"ENYGMA_MAX_BODY", "1GiB"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("invalid ENYGMA_MAX_BODY=1GiB: expected a size"), std::string::npos) << err;
  EXPECT_NE(err.find("64KiB"), std::string::npos) << err;
  auto [flag_code, flag_err] = refusal({"--max-body", "1GiB"});
  EXPECT_EQ(flag_code, enygma::native::kExitUsage);
  EXPECT_NE(flag_err.find("'1GiB' for --max-body: expected a size"), std::string::npos) << flag_err;
  EXPECT_EQ(err.substr(err.find("expected")), flag_err.substr(flag_err.find("expected")));
  std::tie(code, err) = refusal({}, {{"ENYGMA_PORT", "70000"}});
  EXPECT_NE(err.find("expected an integer in 0..65535"), std::string::npos) << err;
  std::tie(code, err) = refusal({}, {{"ENYGMA_HEADER_TIMEOUT", "soon"}});
  EXPECT_NE(err.find("expected a duration"), std::string::npos) << err;
  std::tie(code, err) = refusal({}, {{"ENYGMA_K", "1"}});
  EXPECT_NE(err.find("invalid ENYGMA_K=1: expected anonymity-set sizes in 2..16"),
            std::string::npos)
      << err;
  // The registry's k range (as --help says), not the parser's: 1-3 and 2,40 are out of it.
  std::tie(code, err) = refusal({"--k", "1-3"});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("invalid value '1-3' for --k: expected anonymity-set sizes in 2..16"),
            std::string::npos)
      << err;
  std::tie(code, err) = refusal({"--circuits", "transfer"}, {{"ENYGMA_K", "2,40"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("invalid ENYGMA_K=2,40: expected anonymity-set sizes in 2..16"),
            std::string::npos)
      << err;
  // k 2 is within --k's range but served by no family named.
  std::tie(code, err) = refusal({"--circuits", "ownership-721"}, {{"ENYGMA_K", "2"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_EQ(err.find("--k"), std::string::npos) << err;
  EXPECT_NE(err.find("ENYGMA_K = 2 is not served by the circuits chosen"), std::string::npos)
      << err;
  std::tie(code, err) = refusal({}, {{"ENYGMA_CIRCUITS", "nope"}});
  EXPECT_EQ(code, enygma::native::kExitUsage);
  EXPECT_NE(err.find("ENYGMA_CIRCUITS"), std::string::npos) << err;
  EXPECT_EQ(err.find("--circuits"), std::string::npos) << err;
}

// enygma_rejected_total counts the connection limit's 503s too, and says so.
TEST(ServerMetrics, RejectedTotalSaysWhatItCounts) {
  Metrics metrics({});
  const std::string text = metrics.render({});
  const size_t help = text.find("# HELP enygma_rejected_total ");
  ASSERT_NE(help, std::string::npos);
  const std::string line = text.substr(help, text.find('\n', help) - help);
  EXPECT_NE(line.find("full queue"), std::string::npos) << line;
  EXPECT_NE(line.find("too many open connections"), std::string::npos) << line;
}

}  // namespace
}  // namespace enygma::server

TEST(HttpHeaders, AcceptsGzip) {
  using enygma::server::accepts_gzip;
  for (const char* yes : {"gzip", "gzip, deflate, br", "br;q=1.0, GZIP;q=0.5", "*", " gzip ;q=1",
                          "deflate, *;q=0.1", "gzip;q=0.001", "gzip;level=9;q=0.5"}) {
    EXPECT_TRUE(accepts_gzip(yes)) << yes;
  }
  for (const char* no :
       {"", "identity", "br, deflate", "gzip;q=0", "gzip; q=0.000", "*;q=0", "gzip;q=0, *",
        "x-gzipped", "gzipx", "gzip;level=9;q=0", "gzip; x=1 ; Q=0.0", "*;a=b;q=0"}) {
    EXPECT_FALSE(accepts_gzip(no)) << no;
  }
}

TEST(HttpHeaders, BodyCoding) {
  using enygma::server::body_coding;
  for (const char* none : {"", "identity", "IDENTITY", " identity ", "identity, identity"}) {
    EXPECT_EQ(body_coding(none), "") << none;
  }
  EXPECT_EQ(body_coding("gzip"), "gzip");
  EXPECT_EQ(body_coding("identity, br"), "br");
  EXPECT_EQ(body_coding(" deflate , gzip"), "deflate");
  EXPECT_EQ(body_coding("identityx"), "identityx");
}

TEST(HttpJsonShape, ProblemsNameTheirPlace) {
  using enygma::server::json_shape_problem;
  using enygma::server::JsonShapeLimits;
  const JsonShapeLimits small{4, 3, 12, 5};  // depth, array entries, string bytes, number chars
  const std::pair<std::string, std::string> cases[] = {
      {R"({"sender_id": "12345678901234"})", "sender_id"},
      {R"({"a": "1", "public_keys": [1, 2, 3, 4]})", "public_keys"},
      {R"({"a": [1, {"b": 1234567}]})", "a[1].b"},
      {R"({"keyPairsIn": [{"x": 1}, {"publicKey": "abcdefghijklmn"}]})", "keyPairsIn[1].publicKey"},
      {R"({"a": {"b": [[[1]]]}})", "a.b[0][0]"},
      {R"({"a": [1], "b": {"c": [[], "xxxxxxxxxxxxxxx"]}})", "b.c[1]"},
      {R"({"a-name-over-twelve": 1})", "body"},
      {R"({"a": {"a-name-over-twelve": 1}})", "a"},
      {R"("abcdefghijklmnop")", "body"},
      {"[1, 2, 3, 4]", "body"},
      {"1234567", "body"},
      // A string where a name should be but without a colon after it is no name: malformed
      // text may put a value (a secret key) there.
      {R"({"secret_key","98765432101" 1234567})", "body"},
      {R"({"secret_key" "98765432101", "b": 1234567})", "b"},
      {R"({"a": {"98765432101", [[[[1]]]]}})", "body"},
      {R"({"a" : [1, {"b"  :1234567}]})", "a[1].b"},
  };
  for (const auto& [body, field] : cases) {
    auto problem = json_shape_problem(body, small);
    ASSERT_TRUE(problem.has_value()) << body;
    EXPECT_EQ(problem->field, field) << body << ": " << problem->message;
  }
  EXPECT_FALSE(json_shape_problem(R"({"a": [1, 2], "b": {"c": "x\"y"}})", small).has_value());
}

TEST(HttpHeaders, HeaderProblems) {
  namespace http = boost::beast::http;
  using enygma::server::header_problem;
  struct Case {
    std::vector<std::pair<std::string, std::string>> fields;
    unsigned version;
    bool chunked;
    int status;  // 0: none
    const char* field;
  };
  const Case cases[] = {
      {{{"Host", "x"}}, 11, false, 0, ""},
      {{}, 10, false, 0, ""},
      {{}, 11, false, 400, "host"},
      {{{"Host", "x"}, {"Host", "x"}}, 10, false, 400, "host"},
      {{{"Host", "x"}, {"Transfer-Encoding", "chunked"}}, 11, true, 0, ""},
      {{{"Host", "x"}, {"Transfer-Encoding", " CHUNKED "}}, 11, true, 0, ""},
      {{{"Host", "x"}, {"Transfer-Encoding", "chunked"}}, 10, true, 400, "transfer-encoding"},
      {{{"Host", "x"}, {"Transfer-Encoding", "gzip"}}, 11, false, 400, "transfer-encoding"},
      {{{"Host", "x"}, {"Transfer-Encoding", "chunked, chunked"}},
       11,
       false,
       400,
       "transfer-encoding"},
      {{{"Host", "x"}, {"Transfer-Encoding", "chunked, identity"}},
       11,
       false,
       400,
       "transfer-encoding"},
      {{{"Host", "x"}, {"Transfer-Encoding", ""}}, 11, false, 400, "transfer-encoding"},
      {{{"Host", "x"}, {"Transfer-Encoding", "gzip, chunked"}}, 11, true, 501, "transfer-encoding"},
      {{{"Host", "x"}, {"Transfer-Encoding", "gzip"}, {"Transfer-Encoding", "chunked"}},
       11,
       true,
       501,
       "transfer-encoding"},
      {{{"Host", "x"}, {"Expect", "100-Continue"}}, 11, false, 0, ""},
      {{{"Host", "x"}, {"Expect", "100-continue, foo"}}, 11, false, 417, "expect"},
      {{{"Host", "x"}, {"Expect", "foo"}}, 10, false, 417, "expect"},
      // RFC 9112 3.2: Host is uri-host [":" port]; empty is allowed.
      {{{"Host", ""}}, 11, false, 0, ""},
      {{{"Host", "a,b"}}, 11, false, 0, ""},
      {{{"Host", "example.com:3003"}}, 11, false, 0, ""},
      {{{"Host", "127.0.0.1"}}, 11, false, 0, ""},
      {{{"Host", "[::1]:3003"}}, 11, false, 0, ""},
      {{{"Host", "[v1.fe80::a+en1]"}}, 11, false, 0, ""},
      {{{"Host", "x:"}}, 11, false, 0, ""},
      {{{"Host", "ex%41mple_~!$&'()*+;="}}, 10, false, 0, ""},
      {{{"Host", "a b"}}, 11, false, 400, "host"},
      {{{"Host", "a/b"}}, 11, false, 400, "host"},
      {{{"Host", "a@b"}}, 11, false, 400, "host"},
      {{{"Host", "a:b"}}, 11, false, 400, "host"},
      {{{"Host", "a:1:2"}}, 11, false, 400, "host"},
      {{{"Host", "%zz"}}, 11, false, 400, "host"},
      {{{"Host", "a%4"}}, 11, false, 400, "host"},
      {{{"Host", "[::1"}}, 11, false, 400, "host"},
      {{{"Host", "[zz::1]"}}, 11, false, 400, "host"},
      {{{"Host", "[fe80::1%25en1]"}}, 11, false, 400, "host"},
      {{{"Host", "[::1]x"}}, 11, false, 400, "host"},
      {{{"Host", "a\"b"}}, 10, false, 400, "host"},
  };
  for (const Case& c : cases) {
    http::request_header<> req;
    req.method(http::verb::get);
    req.target("/healthcheck");
    req.version(c.version);
    std::string text;
    for (const auto& [name, value] : c.fields) {
      req.insert(name, value);
      text += name + ": " + value + "; ";
    }
    auto problem = header_problem(req, c.chunked);
    if (c.status == 0) {
      EXPECT_FALSE(problem.has_value()) << text << c.version << " " << problem->message;
      continue;
    }
    ASSERT_TRUE(problem.has_value()) << text << c.version;
    EXPECT_EQ(static_cast<int>(problem->status), c.status) << text << c.version;
    EXPECT_EQ(problem->field, c.field) << text << c.version;
  }
  using enygma::server::request_line_version;
  EXPECT_EQ(request_line_version("GET / HTTP/2.0\r\nHost: x\r\n"), 20u);
  EXPECT_EQ(request_line_version("GET /x HTTP/3.0"), 30u);
  EXPECT_EQ(request_line_version("PRI * HTTP/2.0\r\n\r\nSM"), 20u);
  EXPECT_EQ(request_line_version("GET / HTTP/1.2\r\n"), 12u);
  for (const char* bad :
       {"", "GET / HTTP/x.y\r\n", "GET /HTTP/2.0\r\n", "HTTP/2.0", "GET / http/2.0"}) {
    EXPECT_FALSE(request_line_version(bad).has_value()) << bad;
  }
  // The request target's forms (RFC 9112 3.2).
  for (const auto& [method, target, ok] : {std::tuple{http::verb::get, "/", true},
                                           {http::verb::get, "http://h/x", true},
                                           {http::verb::post, "HTTPS://h", true},
                                           {http::verb::options, "*", true},
                                           {http::verb::get, "*", false},
                                           {http::verb::get, "x/y", false},
                                           {http::verb::connect, "host:443", false},
                                           {http::verb::get, "httpx://h/", false},
                                           // RFC 9110 4.2.1: no empty host; a valid authority
                                           {http::verb::get, "http:///healthcheck", false},
                                           {http::verb::get, "http://", false},
                                           {http::verb::get, "http://user@/x", false},
                                           {http::verb::get, "http://:3003/x", false},
                                           {http::verb::get, "http://a,b/x", true},
                                           {http::verb::get, "http://u:p@h:1/x", true},
                                           {http::verb::get, "http://[::1]:3003/x", true},
                                           {http::verb::get, "http://h:x/", false},
                                           {http::verb::get, "http://u{@h/", false}}) {
    http::request_header<> req;
    req.method(method);
    req.target(target);
    req.set(http::field::host, "x");
    auto problem = header_problem(req, false);
    EXPECT_EQ(problem.has_value(), !ok) << target;
    if (problem) {
      EXPECT_EQ(problem->field, "path") << target;
    }
  }
}

TEST(HttpTarget, OriginAndAbsoluteFormsGiveTheDecodedPath) {
  using enygma::server::decode_target_path;
  const std::pair<const char*, const char*> cases[] = {
      {"/healthcheck", "/healthcheck"},
      {"/app.js?v=3", "/app.js"},
      {"/a%20b#frag", "/a b"},
      {"http://127.0.0.1:3003/healthcheck", "/healthcheck"},
      {"HTTP://Example.com/generateProofTransfer-2?x=1", "/generateProofTransfer-2"},
      {"https://host/keys/manifest.json", "/keys/manifest.json"},
      {"http://host", "/"},
      {"http://host?x=1", "/"},
      {"http://host/%2e%2e/outside.txt", "/../outside.txt"},  // the static files refuse it
      {"httpx://host/p", "httpx://host/p"},                   // not a scheme served: no path
  };
  for (const auto& [target, path] : cases) {
    auto decoded = decode_target_path(target);
    ASSERT_TRUE(decoded.has_value()) << target;
    EXPECT_EQ(*decoded, path) << target;
  }
  for (const char* bad : {"/%zz", "/%00", "http://host/%0", "http://host/a%00b"}) {
    EXPECT_FALSE(decode_target_path(bad).has_value()) << bad;
  }
  // What the access log records: no query, no authority (which may hold credentials).
  using enygma::server::target_path;
  EXPECT_EQ(target_path("http://user:secret@host:1/a%20b?q=1"), "/a%20b");
  EXPECT_EQ(target_path("/x?secret=1#f"), "/x");
  EXPECT_EQ(target_path("https://user:secret@host#frag"), "/");
}

// Obsolete line folding is seen in the raw head (Beast's parser joins the lines with a space);
// empty lines before a request line are counted; the request line is split for the log.
TEST(HttpHead, FoldsEmptyLinesAndTheRequestLine) {
  using namespace enygma::server;
  EXPECT_EQ(request_head_length("GET / HTTP/1.1\r\nHost: x\r\n\r\nbody"), 27u);
  EXPECT_EQ(request_head_length("GET / HTTP/1.1\r\n\r\n"), 18u);
  EXPECT_EQ(request_head_length("GET / HTTP/1.1\r\nHost: x\r\n"), 0u);
  // a bare LF (not after CR), from a given offset on
  EXPECT_TRUE(has_bare_lf("GET / HTTP/1.1\nHost: x\n\n"));
  EXPECT_TRUE(has_bare_lf("\n"));
  EXPECT_FALSE(has_bare_lf("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_FALSE(has_bare_lf("GET / HTTP/1.1\r\n", 15));  // its LF's CR is before the offset
  EXPECT_TRUE(has_bare_lf("GET / HTTP/1.1\r\nHost: x\n", 16));
  for (const char* folded : {"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n",
                             "POST / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\t2\r\n\r\n",
                             "POST / HTTP/1.1\r\nX-Pad: a\r\n Transfer-Encoding: chunked\r\n\r\n",
                             "GET / HTTP/1.1\r\n Host: x\r\n\r\n"}) {
    EXPECT_TRUE(has_obs_fold(folded)) << folded;
  }
  EXPECT_FALSE(has_obs_fold("GET / HTTP/1.1\r\nHost: x\r\nX-A: a b\t\r\n\r\n"));
  EXPECT_FALSE(has_obs_fold("GET / HTTP/1.1\r\n\r\n"));
  EXPECT_EQ(leading_empty_lines("\r\n\r\nGET", 8), 2u);
  EXPECT_EQ(leading_empty_lines("\r\n\r\n\r\n", 2), 2u);
  EXPECT_EQ(leading_empty_lines("\r", 8), 0u);
  EXPECT_EQ(leading_empty_lines("GET / HTTP/1.1\r\n", 8), 0u);
  auto line = split_request_line("GET /x?q=1 HTTP/2.0\r\nHost: x\r\n");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->method, "GET");
  EXPECT_EQ(line->target, "/x?q=1");
  for (const char* bad : {"GET /x HTTP/2.0", "THIS IS NOT HTTP\r\n", "G@T / HTTP/1.1\r\n",
                          "GET  HTTP/1.1\r\n", "GET /\x01 HTTP/1.1\r\n", "GET /x FTP/1.0\r\n"}) {
    EXPECT_FALSE(split_request_line(bad).has_value()) << bad;
  }
  namespace http = boost::beast::http;
  const std::pair<http::error, const char*> fields[] = {
      {http::error::bad_method, "method"},
      {http::error::bad_target, "path"},
      {http::error::bad_version, "version"},
      {http::error::bad_content_length, "content-length"},
      {http::error::bad_transfer_encoding, "transfer-encoding"},
      {http::error::bad_field, "header"},
      {http::error::bad_value, "header"},
      {http::error::bad_chunk, "body"},
  };
  for (const auto& [error, field] : fields) {
    EXPECT_EQ(parser_error_field(http::make_error_code(error)), field) << field;
  }
  EXPECT_EQ(parser_error_field(boost::asio::error::eof), "");
}
