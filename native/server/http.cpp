#include "native/server/http.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>

#include "core/util/error_json.hpp"
#include "core/util/json_parse.hpp"
#include "native/common/options.hpp"

namespace enygma::server {

const std::string& http_date_now() {
  thread_local std::time_t second = -1;
  thread_local std::string text;
  const std::time_t now = std::time(nullptr);
  if (now != second) {
    static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[40];
    snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday], tm.tm_mday,
             kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    text = buf;
    second = now;
  }
  return text;
}

namespace {
std::atomic<bool> g_isolation{true};

// Without the optional white space (spaces, tabs) around it.
std::string_view trim_ows(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// True when `text` equals `lower` (lower-case ASCII) ignoring ASCII case.
bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  return text.size() == lower.size() &&
         std::equal(text.begin(), text.end(), lower.begin(), [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
         });
}

// Calls fn with each item of a comma-separated header value, trimmed, until fn returns true;
// true when it did.
template <class Fn>
bool any_list_item(std::string_view value, Fn&& fn) {
  size_t pos = 0;
  while (pos < value.size()) {
    size_t comma = value.find(',', pos);
    if (comma == std::string_view::npos) comma = value.size();
    if (fn(trim_ows(value.substr(pos, comma - pos)))) return true;
    pos = comma + 1;
  }
  return false;
}

// The length of the absolute form's scheme ("http://", "https://", any case) that target starts
// with; 0 when it does not.
size_t scheme_length(std::string_view target) {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (equals_ignoring_case(target.substr(0, scheme.size()), scheme)) return scheme.size();
  }
  return 0;
}
bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// RFC 3986 2.3, 2.2: unreserved and sub-delims.
bool is_unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}
bool is_sub_delim(char c) {
  return std::string_view("!$&'()*+,;=").find(c) != std::string_view::npos;
}

// Whether text is made of unreserved, sub-delims, pct-encoded and the characters of `extra`.
bool uri_chars(std::string_view text, std::string_view extra = {}) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size() || !is_hex(text[i + 1]) || !is_hex(text[i + 2])) return false;
      i += 2;
    } else if (!is_unreserved(c) && !is_sub_delim(c) && extra.find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

// RFC 3986 3.2.2: IP-literal = "[" ( IPv6address / IPvFuture ) "]", given without brackets.
bool valid_ip_literal(std::string_view inside) {
  if (!inside.empty() && (inside[0] == 'v' || inside[0] == 'V')) {
    // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    const size_t dot = inside.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == inside.size()) return false;
    for (char c : inside.substr(1, dot - 1)) {
      if (!is_hex(c)) return false;
    }
    for (char c : inside.substr(dot + 1)) {
      if (!is_unreserved(c) && !is_sub_delim(c) && c != ':') return false;
    }
    return true;
  }
  // No zone identifier (a '%' there would be RFC 6874's, which HTTP does not use).
  if (inside.empty() || inside.find_first_not_of("0123456789abcdefABCDEF:.") != inside.npos) {
    return false;
  }
  boost::system::error_code ec;
  asio::ip::make_address_v6(std::string(inside), ec);
  return !ec;
}

// The host of an authority's host[:port] part, when valid (valid_host); nullopt otherwise.
std::optional<std::string_view> host_part(std::string_view authority) {
  std::string_view host = authority, port;
  if (!authority.empty() && authority[0] == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos || !valid_ip_literal(authority.substr(1, close - 1))) {
      return std::nullopt;
    }
    host = authority.substr(0, close + 1);
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && rest[0] != ':') return std::nullopt;
    port = rest.substr(rest.empty() ? 0 : 1);
  } else {
    // A reg-name holds no ':', so the first one starts the port.
    if (const size_t colon = authority.find(':'); colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
    if (!uri_chars(host)) return std::nullopt;
  }
  if (port.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  return host;
}

}  // namespace

void set_cross_origin_isolation(bool on) {
  g_isolation.store(on);
}
bool cross_origin_isolation() {
  return g_isolation.load(std::memory_order_relaxed);
}

StringResponse json_response(http::status status, std::string body, unsigned version) {
  StringResponse res{status, version};
  set_common_headers(res);
  res.set(http::field::content_type, "application/json; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

StringResponse error_response(http::status status, std::string_view message, std::string_view rule,
                              std::string_view field, unsigned version) {
  return json_response(status, error_json(message, rule, field), version);
}

std::string shown_path(std::string_view path) {
  return native::shown_on_one_line(path, kShownPathBytes);
}

std::string no_such_resource(std::string_view path) {
  return "no such resource: " + shown_path(path);
}

std::optional<unsigned> request_line_version(std::string_view request) {
  std::string_view line = request.substr(0, request.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() < 9 || line[line.size() - 9] != ' ') return std::nullopt;
  const std::string_view v = line.substr(line.size() - 8);  // HTTP/d.d
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (v.substr(0, 5) != "HTTP/" || !digit(v[5]) || v[6] != '.' || !digit(v[7])) {
    return std::nullopt;
  }
  return unsigned(v[5] - '0') * 10 + unsigned(v[7] - '0');
}

bool valid_host(std::string_view host) {
  return host_part(host).has_value();
}

size_t request_head_length(std::string_view bytes) {
  // A head without fields ends in the request line's "\r\n" and the empty line's.
  const size_t end = bytes.find("\r\n\r\n");
  return end == std::string_view::npos ? 0 : end + 4;
}

bool has_bare_lf(std::string_view bytes, size_t from) {
  for (size_t at = bytes.find('\n', from); at != std::string_view::npos;
       at = bytes.find('\n', at + 1)) {
    if (at == 0 || bytes[at - 1] != '\r') return true;
  }
  return false;
}

bool has_obs_fold(std::string_view head) {
  // Every line end but the last two (the last field line's and the empty line's) is followed
  // by the next line of the head; none may start with white space.
  for (size_t at = head.find("\r\n"); at != std::string_view::npos && at + 2 < head.size();
       at = head.find("\r\n", at + 2)) {
    if (head[at + 2] == ' ' || head[at + 2] == '\t') return true;
  }
  return false;
}

size_t leading_empty_lines(std::string_view bytes, size_t max_lines) {
  size_t lines = 0;
  while (lines < max_lines && bytes.substr(2 * lines, 2) == "\r\n") ++lines;
  return lines;
}

std::string_view parser_error_field(beast::error_code ec) {
  if (ec.category() != http::make_error_code(http::error::bad_method).category()) return "";
  switch (static_cast<http::error>(ec.value())) {
    case http::error::bad_method:
      return "method";
    case http::error::bad_target:
      return "path";
    case http::error::bad_version:
      return "version";
    case http::error::bad_content_length:
      return "content-length";
    case http::error::bad_transfer_encoding:
      return "transfer-encoding";
    case http::error::bad_field:
    case http::error::bad_value:
    case http::error::bad_line_ending:
    case http::error::bad_obs_fold:
    case http::error::header_limit:
      return "header";
    case http::error::bad_chunk:
    case http::error::bad_chunk_extension:
    case http::error::partial_message:
    case http::error::short_read:
    case http::error::body_limit:
    case http::error::unexpected_body:
      return "body";
    default:
      return "";
  }
}

std::optional<RequestLine> split_request_line(std::string_view bytes) {
  const size_t end = bytes.find("\r\n");
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view line = bytes.substr(0, end);
  const size_t first = line.find(' '), last = line.rfind(' ');
  if (first == std::string_view::npos || first == 0 || last == first || last + 1 == line.size()) {
    return std::nullopt;
  }
  const std::string_view method = line.substr(0, first);
  const std::string_view target = line.substr(first + 1, last - first - 1);
  for (char c : line.substr(0, first)) {  // RFC 9110 5.6.2: a token
    if (!is_unreserved(c) && std::string_view("!#$%&'*+^`|").find(c) == std::string_view::npos) {
      return std::nullopt;
    }
  }
  for (char c : line.substr(first + 1)) {
    if (c != ' ' && (c <= 0x20 || c >= 0x7f)) return std::nullopt;
  }
  if (target.empty() || target.find(' ') != std::string_view::npos ||
      line.substr(last + 1, 5) != "HTTP/") {
    return std::nullopt;
  }
  return RequestLine{method, target};
}

std::optional<HeaderProblem> header_problem(const http::request_header<>& req, bool chunked) {
  const unsigned version = req.version();
  // RFC 9112 6.1, 6.3: a body is read as chunks, or by its Content-Length; anything else would
  // leave its end unknown, and what follows it could be read as another request.
  if (req.count(http::field::transfer_encoding) > 0) {
    if (version < 11) {
      return HeaderProblem{http::status::bad_request,
                           "Transfer-Encoding is not allowed in an HTTP/1.0 request",
                           "transfer-encoding"};
    }
    std::string_view last, other;  // over every Transfer-Encoding line, in order
    size_t chunked_codings = 0;
    auto [line, end] = req.equal_range(http::field::transfer_encoding);
    for (; line != end; ++line) {
      any_list_item(to_sv(line->value()), [&](std::string_view coding) {
        if (coding.empty()) return false;
        last = coding;
        if (equals_ignoring_case(coding, "chunked")) {
          ++chunked_codings;
        } else if (other.empty()) {
          other = coding;
        }
        return false;
      });
    }
    if (!equals_ignoring_case(last, "chunked") || chunked_codings != 1 || !chunked) {
      return HeaderProblem{http::status::bad_request,
                           "the request body's length cannot be known: its Transfer-Encoding "
                           "must end with chunked, applied once",
                           "transfer-encoding"};
    }
    if (!other.empty()) {
      return HeaderProblem{http::status::not_implemented,
                           "transfer coding '" + std::string(other.substr(0, 64)) +
                               "' is not implemented: send the body chunked or with a "
                               "Content-Length",
                           "transfer-encoding"};
    }
  }
  // RFC 9112 3.2.
  if (const size_t hosts = req.count(http::field::host);
      hosts > 1 || (hosts == 0 && version > 10)) {
    return HeaderProblem{http::status::bad_request,
                         hosts > 1 ? "a request has one Host header, not several"
                                   : "an HTTP/1.1 request needs a Host header",
                         "host"};
  }
  if (req.count(http::field::host) == 1 && !valid_host(to_sv(req[http::field::host]))) {
    return HeaderProblem{http::status::bad_request,
                         "the Host header is not a valid host[:port] (RFC 9110 7.2)", "host"};
  }
  // RFC 9110 10.1.1.
  auto [expect, expect_end] = req.equal_range(http::field::expect);
  for (; expect != expect_end; ++expect) {
    if (any_list_item(to_sv(expect->value()), [](std::string_view e) {
          return !e.empty() && !equals_ignoring_case(e, "100-continue");
        })) {
      return HeaderProblem{http::status::expectation_failed,
                           "the only expectation met here is 100-continue", "expect"};
    }
  }
  // RFC 9112 3.2: the origin form, the absolute form, and the asterisk form of OPTIONS.
  const std::string_view target = to_sv(req.target());
  const size_t scheme = scheme_length(target);
  if (target.substr(0, 1) != "/" && scheme == 0 &&
      !(target == "*" && req.method() == http::verb::options)) {
    return HeaderProblem{http::status::bad_request,
                         "the request target must be a path (/...) or an absolute URL", "path"};
  }
  if (scheme > 0) {
    // RFC 9110 4.2.1: an http(s) URL with an empty host is invalid. authority = [ userinfo "@" ]
    // host [ ":" port ].
    std::string_view authority = target.substr(scheme);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    std::string_view userinfo;
    if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
      userinfo = authority.substr(0, at);
      authority.remove_prefix(at + 1);
    }
    const auto host = host_part(authority);
    if (!host || host->empty() || !uri_chars(userinfo, ":")) {
      return HeaderProblem{http::status::bad_request,
                           host && host->empty()
                               ? "the request target's URL has no host (RFC 9110 4.2.1)"
                               : "the request target's URL has an invalid authority",
                           "path"};
    }
  }
  return std::nullopt;
}

std::string_view target_path(std::string_view target) {
  // The absolute form (RFC 9112 3.2.2: a server must accept it): "http://host:port/p?q" is
  // "/p?q"; the authority (which may hold credentials) is neither checked nor kept.
  if (const size_t scheme = scheme_length(target)) {
    target.remove_prefix(scheme);
    const size_t path = target.find_first_of("/?#");
    target = path == std::string_view::npos ? std::string_view() : target.substr(path);
    if (target.empty() || target[0] != '/') return "/";
  }
  return target.substr(0, target.find_first_of("?#"));
}

std::optional<std::string> decode_target_path(std::string_view target) {
  target = target_path(target);
  std::string out;
  out.reserve(target.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < target.size(); ++i) {
    char c = target[i];
    if (c == '%') {
      if (i + 2 >= target.size()) return std::nullopt;
      const int hi = hex(target[i + 1]), lo = hex(target[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') return std::nullopt;
    out.push_back(c);
  }
  return out;
}

std::optional<JsonShapeProblem> json_shape_problem(std::string_view body, JsonShapeLimits limits) {
  // Per open container, innermost last (depth is bounded by max_depth, so these are fixed arrays
  // on the stack): whether it is an array, its entries so far, and, in an object, the name of
  // its current member (known only when a colon follows it: in malformed text a value may stand
  // where a name should, and a value may be a secret key) and whether a name comes next.
  constexpr unsigned kMaxTrackedDepth = 64;
  size_t entries[kMaxTrackedDepth] = {};
  bool is_array[kMaxTrackedDepth] = {};
  std::string_view name[kMaxTrackedDepth] = {};
  bool name_known[kMaxTrackedDepth] = {};
  bool name_next[kMaxTrackedDepth] = {};
  const unsigned max_depth = std::min(limits.max_depth, kMaxTrackedDepth - 1);
  unsigned depth = 0;
  size_t number_run = 0;
  // The problem at the value that the containers 1..at lead to: "a.b[2].c", or "body" (also
  // where a member's name on the way is not known).
  auto problem = [&](std::string message, unsigned at) {
    std::string field;
    for (unsigned d = 1; d <= at; ++d) {
      if (is_array[d]) {
        field.append("[").append(std::to_string(entries[d])).append("]");
      } else if (!name_known[d]) {
        field.clear();
        break;
      } else {
        field.append(field.empty() ? "" : ".").append(shown_member_name(name[d]));
      }
    }
    return JsonShapeProblem{std::move(message), field.empty() ? "body" : field};
  };
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '"') {
      const size_t start = ++i;
      while (i < body.size() && body[i] != '"') i += body[i] == '\\' ? 2 : 1;
      const bool is_name = depth > 0 && name_next[depth];
      if (i - start > limits.max_string_bytes) {
        return problem(
            "a JSON string is longer than " + std::to_string(limits.max_string_bytes) + " bytes",
            is_name ? depth - 1 : depth);
      }
      if (is_name) {
        const size_t after = body.find_first_not_of(" \t\r\n", i + 1);
        name_known[depth] = after != std::string_view::npos && body[after] == ':';
        name[depth] = name_known[depth] ? body.substr(start, i - start) : std::string_view();
        name_next[depth] = false;
      }
      number_run = 0;
      continue;
    }
    const bool number_char =
        (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    number_run = number_char ? number_run + 1 : 0;
    if (number_run > limits.max_number_chars) {
      return problem(
          "a JSON number is longer than " + std::to_string(limits.max_number_chars) + " characters",
          depth);
    }
    if (c == '[' || c == '{') {
      if (depth >= max_depth) {
        return problem("JSON nested deeper than " + std::to_string(max_depth) + " levels", depth);
      }
      ++depth;
      is_array[depth] = c == '[';
      entries[depth] = 0;
      name[depth] = {};
      name_known[depth] = false;
      name_next[depth] = c == '{';
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == ',' && depth > 0) {
      if (!is_array[depth]) {
        name_next[depth] = true;
      } else if (++entries[depth] >= limits.max_array_entries) {
        return problem(
            "a JSON array has more than " + std::to_string(limits.max_array_entries) + " entries",
            depth - 1);
      }
    }
  }
  return std::nullopt;
}

bool accepts_gzip(std::string_view accept_encoding) {
  // Codings, each with optional ";name=value" parameters, among them the weight "q" (RFC 9110
  // 12.5.3; wherever it stands among them); an explicit "gzip" decides over "*".
  std::optional<bool> gzip, any;
  any_list_item(accept_encoding, [&](std::string_view item) {
    std::string_view params;
    if (const size_t semi = item.find(';'); semi != std::string_view::npos) {
      params = item.substr(semi + 1);
      item = trim_ows(item.substr(0, semi));
    }
    bool refused = false;  // q=0, q=0.0, q=0.000
    while (!params.empty()) {
      const size_t semi = params.find(';');
      const std::string_view param = trim_ows(params.substr(0, semi));
      params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
      if (param.size() >= 3 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        const std::string_view q = trim_ows(param.substr(2));
        refused = !q.empty() && q[0] == '0' && q.find_first_not_of("0.") == std::string_view::npos;
      }
    }
    if (equals_ignoring_case(item, "gzip")) gzip = !refused;
    if (item == "*") any = !refused;
    return false;
  });
  return gzip.value_or(any.value_or(false));
}

bool request_keeps_alive(const http::request_header<>& req) {
  bool close = false, keep_alive = false;
  auto [line, end] = req.equal_range(http::field::connection);
  for (; line != end; ++line) {
    any_list_item(to_sv(line->value()), [&](std::string_view option) {
      close = close || equals_ignoring_case(option, "close");
      keep_alive = keep_alive || equals_ignoring_case(option, "keep-alive");
      return false;
    });
  }
  if (close) return false;
  return req.version() >= 11 || keep_alive;
}

std::string_view body_coding(std::string_view content_encoding) {
  std::string_view found;
  any_list_item(content_encoding, [&](std::string_view item) {
    if (item.empty() || equals_ignoring_case(item, "identity")) return false;
    found = item;
    return true;
  });
  return found;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  // Entity tags, possibly weak (W/"..."); weak comparison applies.
  if (etag.substr(0, 2) == "W/") etag.remove_prefix(2);
  return any_list_item(if_none_match, [&](std::string_view item) {
    if (item == "*") return true;
    if (item.substr(0, 2) == "W/") item.remove_prefix(2);
    return item == etag;
  });
}

const char* content_type_for(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return "application/octet-stream";
  }
  const std::string_view ext = path.substr(dot + 1);
  struct Type {
    std::string_view ext;
    const char* type;
  };
  static constexpr Type kTypes[] = {
      {"html", "text/html; charset=utf-8"},
      {"htm", "text/html; charset=utf-8"},
      {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},
      {"json", "application/json"},
      {"map", "application/json"},
      {"wasm", "application/wasm"},
      {"txt", "text/plain; charset=utf-8"},
      {"svg", "image/svg+xml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},
      {"ico", "image/x-icon"},
      {"webp", "image/webp"},
      {"woff", "font/woff"},
      {"woff2", "font/woff2"},
      {"webmanifest", "application/manifest+json"},
      {"pk", "application/octet-stream"},
      {"vk", "application/octet-stream"},
  };
  for (const auto& t : kTypes) {
    if (equals_ignoring_case(ext, t.ext)) return t.type;
  }
  return "application/octet-stream";
}

}  // namespace enygma::server
