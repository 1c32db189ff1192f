// Fuzz target: the server's reading of a request's bytes before any backend sees them. The bytes
// as a request head (Session's raw checks: the head's end, folding, empty lines, the request
// line; then Beast's parser, header_problem, target_path, decode_target_path and
// request_line_version) and as a body (json_shape_problem).
// Invariants: a shape problem names a place and says what; a body without one is at most as deep
// as the limit; a decoded path has no NUL and starts where the target's path does; a version read
// from the request line is two digits.
#include <cstdint>
#include <string>

#include "native/server/http.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;
using namespace enygma::server;

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
