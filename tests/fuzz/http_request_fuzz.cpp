// Fuzz target: the server's reading of a request's bytes before any backend sees them. The bytes
// as a request head (Session's raw checks: the head's end, bare LFs, folding, empty lines, the
// request line; then Beast's parser, header_problem, target_path, decode_target_path and
// request_line_version; then what the session and the routes read of a parsed head: the route
// of the decoded path (RouteTable::classify), the static file it names (StaticFiles::resolve,
// over a fixture folder with a hidden file, a link out of it and a sibling folder whose name
// extends the root's), the target's `v` query, Connection, Content-Encoding, Accept-Encoding and
// If-None-Match) and as a body (json_shape_problem).
// Invariants: a shape problem names a place and says what; a body without one is at most as deep
// as the limit; a decoded path has no NUL and is no longer than the target's path; a version
// read from the request line is two digits; a resolved static file is a regular file under the
// root, reached through no hidden segment, never the file outside it; a path shown in an error
// is one line of printable ASCII; the header values' readings agree with what they were read
// from (gzip taken only where "gzip" or "*" is listed, an ETag matched only where it or "*" is
// listed, a body coding and a `v` value are pieces of their header and target).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "native/server/http.hpp"
#include "native/server/routes.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;
using namespace enygma::server;
namespace fs = std::filesystem;

// A web root for StaticFiles, made once per process under the temporary folder:
//   <dir>/web/index.html, <dir>/web/app.js, <dir>/web/sub/index.html, <dir>/web/.env,
//   <dir>/web/out -> ../secret (a link out of the root), <dir>/secret/key,
//   <dir>/web/side -> ../web2, <dir>/web2/x.js (a link to a sibling whose path starts with the
//   root's: outside it all the same).
struct WebFixture {
  fs::path dir, web, secret;
  StaticFiles files{""};
};

const WebFixture& web_fixture() {
  static const WebFixture fixture = [] {
    WebFixture f;
    std::string tmpl = (fs::temp_directory_path() / "enygma-fuzz-web-XXXXXX").string();
    FUZZ_CHECK(mkdtemp(tmpl.data()) != nullptr);
    f.dir = fs::canonical(tmpl);
    f.web = f.dir / "web";
    f.secret = f.dir / "secret" / "key";
    fs::create_directories(f.web / "sub");
    fs::create_directories(f.dir / "secret");
    fs::create_directories(f.dir / "web2");
    for (const fs::path& file : {f.web / "index.html", f.web / "app.js", f.web / "sub/index.html",
                                 f.web / ".env", f.secret, f.dir / "web2/x.js"}) {
      std::ofstream(file) << "x\n";
    }
    fs::create_directory_symlink("../secret", f.web / "out");
    fs::create_directory_symlink("../web2", f.web / "side");
    f.files = StaticFiles(f.web.string());
    FUZZ_CHECK(f.files.enabled() && f.files.resolve("/app.js").has_value());
    // Removed at exit (the replay runner; libFuzzer at -max_total_time or -runs). A crash or
    // libFuzzer's graceful exit (SIGUSR1, _Exit) leaves it: scripts/fuzz.sh points TMPDIR into
    // the target's work folder, emptied before each run. It holds nothing of the input.
    static const std::string to_remove = f.dir.string();
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(to_remove, ec);
    });
    return f;
  }();
  return fixture;
}

bool contains_ignoring_case(std::string_view hay, std::string_view needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         }) != hay.end();
}

bool within(std::string_view part, std::string_view whole) {
  return part.empty() ||
         (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

void check_shown(std::string_view text) {
  const std::string shown = shown_path(text);
  const std::string_view ellipsis = "\u2026";
  std::string_view body = shown;
  if (body.ends_with(ellipsis)) body.remove_suffix(ellipsis.size());
  for (char c : body) FUZZ_CHECK(c >= 0x20 && c < 0x7f);
  FUZZ_CHECK(body.size() <= 4 * kShownPathBytes);
}

// What the session and the routes read of a parsed head.
void check_parsed_head(const http::request_header<>& req, std::string_view target) {
  if (auto decoded = decode_target_path(target)) {
    // A server of transfer k = 2: only its two paths are its routes.
    static const RouteTable table = [] {
      auto id = find_circuit("transfer", 2);
      FUZZ_CHECK(id.ok());
      return RouteTable({*id});
    }();
    const Route route = table.classify(*decoded);
    if (route.kind == RouteKind::kProve || route.kind == RouteKind::kVerify) {
      FUZZ_CHECK(*decoded == "/generateProofTransfer-2" || *decoded == "/verifyProofTransfer-2");
    }
    check_shown(*decoded);
    const WebFixture& web = web_fixture();
    if (auto file = web.files.resolve(*decoded)) {
      FUZZ_CHECK(fs::is_regular_file(*file));
      const fs::path relative = file->lexically_relative(web.web);
      FUZZ_CHECK(!relative.empty() && *relative.begin() != "..");
      for (const fs::path& segment : relative) FUZZ_CHECK(segment.string()[0] != '.');
      FUZZ_CHECK(*file != web.secret);
    }
  }
  check_shown(target);
  const std::string_view v = version_query(target);
  FUZZ_CHECK(within(v, target) && v.find('&') == std::string_view::npos);

  (void)request_keeps_alive(req);
  const std::string_view content_encoding = to_sv(req[http::field::content_encoding]);
  const std::string_view coding = body_coding(content_encoding);
  FUZZ_CHECK(within(coding, content_encoding));
  if (!coding.empty()) FUZZ_CHECK(coding.find(',') == std::string_view::npos);

  const std::string_view accept = to_sv(req[http::field::accept_encoding]);
  if (accepts_gzip(accept)) {
    FUZZ_CHECK(contains_ignoring_case(accept, "gzip") || accept.find('*') != std::string::npos);
  }
  const std::string_view if_none_match = to_sv(req[http::field::if_none_match]);
  const std::string_view etag = "\"1a-2b\"";
  if (etag_matches(if_none_match, etag)) {
    FUZZ_CHECK(if_none_match.find(etag) != std::string_view::npos ||
               if_none_match.find('*') != std::string_view::npos);
  }
}

void check_head(std::string_view bytes) {
  if (auto version = request_line_version(bytes)) FUZZ_CHECK(*version <= 99);
  // Session's raw reading of the head before the parser: its end, folding, empty lines, the
  // request line for the log.
  const size_t head = request_head_length(bytes);
  FUZZ_CHECK(head <= bytes.size());
  if (head > 0) {
    FUZZ_CHECK(bytes.substr(0, head).ends_with("\n"));
    (void)has_obs_fold(bytes.substr(0, head));
  }
  FUZZ_CHECK(2 * leading_empty_lines(bytes, 8) <= bytes.size());
  FUZZ_CHECK(leading_empty_lines(bytes, 8) <= 8);
  {
    // has_bare_lf: some '\n' at or after `from` not preceded by '\r'.
    const size_t from = bytes.size() / 2;
    bool bare = false;
    for (size_t i = from; i < bytes.size(); ++i) {
      bare = bare || (bytes[i] == '\n' && (i == 0 || bytes[i - 1] != '\r'));
    }
    FUZZ_CHECK(has_bare_lf(bytes, from) == bare);
  }
  if (auto line = split_request_line(bytes)) {
    FUZZ_CHECK(line->method.data() >= bytes.data() &&
               line->target.data() + line->target.size() <= bytes.data() + bytes.size());
  }
  (void)valid_host(bytes.substr(0, 300));
  http::request_parser<http::empty_body> parser;
  parser.header_limit(16 * 1024);
  parser.eager(false);
  beast::error_code ec;
  parser.put(asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec) (void)parser_error_field(ec);
  if (ec || !parser.is_header_done()) return;
  const auto& req = parser.get();
  const auto problem = header_problem(req, parser.chunked());
  if (problem) {
    FUZZ_CHECK(!problem->message.empty() && !problem->field.empty());
    FUZZ_CHECK(int(problem->status) >= 400 && int(problem->status) < 600);
  }
  const std::string_view target(req.target().data(), req.target().size());
  const std::string_view path = target_path(target);
  FUZZ_CHECK(path.find_first_of("?#") == std::string_view::npos);
  if (auto decoded = decode_target_path(target)) {
    FUZZ_CHECK(decoded->find('\0') == std::string::npos);
    FUZZ_CHECK(decoded->size() <= path.size());
  }
  check_parsed_head(req, target);
}

void check_body(std::string_view body) {
  const JsonShapeLimits limits;
  const auto problem = json_shape_problem(body, limits);
  if (problem) {
    FUZZ_CHECK(!problem->message.empty() && !problem->field.empty());
    return;
  }
  // Without a problem, no container opens deeper than the limit (strings skipped as it does).
  unsigned depth = 0, deepest = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '"') {
      for (++i; i < body.size() && body[i] != '"';) i += body[i] == '\\' ? 2 : 1;
    } else if (body[i] == '[' || body[i] == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((body[i] == ']' || body[i] == '}') && depth > 0) {
      --depth;
    }
  }
  FUZZ_CHECK(deepest <= limits.max_depth);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = fuzz::as_text(data, size);
  check_head(bytes);
  check_body(bytes);
  return 0;
}
