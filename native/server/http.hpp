// HTTP types and response builders shared by the server's connection and route code.
// Requests carry secrets (a transfer request holds the sender's secret key), so every buffer a
// request passes through is wiped when freed (WipingAllocator).
#pragma once

#include <sodium.h>

// clang-format off
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/secure_vector.hpp"

namespace enygma::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// WipingAllocator: core/util/secure_vector.hpp (memory wiped with sodium_memzero when freed).
using RequestBody = http::basic_string_body<char, std::char_traits<char>, WipingAllocator<char>>;
using Request = http::request<RequestBody>;
// Beast's request parser (Boost 1.74) holds the head to its header limit but not a chunked
// body's trailer fields: they went into the request's fields unbounded, and a name or value over
// 64 KiB threw out of the read (through the server's threads). Here the trailer section is held
// to a limit of its own (the server gives the header limit); beyond it the parse fails with
// header_limit and trailers_too_large() says why.
class RequestParser : public http::request_parser<RequestBody> {
 public:
  void trailer_limit(size_t bytes) { trailer_limit_ = bytes; }
  bool trailers_too_large() const { return trailers_too_large_; }

 private:
  void on_field_impl(http::field name, beast::string_view name_string, beast::string_view value,
                     beast::error_code& ec) override {
    if (is_header_done()) {  // a trailer field: counted as its line would be ("name: value\r\n")
      trailer_bytes_ += name_string.size() + value.size() + 4;
      if (trailer_bytes_ > trailer_limit_) {
        trailers_too_large_ = true;
        ec = http::error::header_limit;
        return;
      }
    }
    get().insert(name, name_string, value);
  }

  size_t trailer_limit_ = 0, trailer_bytes_ = 0;
  bool trailers_too_large_ = false;
};
using ReadBuffer = beast::basic_flat_buffer<WipingAllocator<char>>;

using StringResponse = http::response<http::string_body>;
using FileResponse = http::response<http::file_body>;
// Bytes that live as long as the server (the keys): sent without a copy.
using SpanResponse = http::response<http::span_body<const char>>;

// Whether responses carry the cross-origin isolation headers (COOP, COEP): on by default;
// `enygma serve --no-isolation` turns them off, as on a host that cannot set them (the page
// then runs the module without threads). Set once at start-up, before any connection.
void set_cross_origin_isolation(bool on);
bool cross_origin_isolation();

// The time now as an HTTP-date ("Sun, 06 Dec 2026 19:30:00 GMT", RFC 9110 5.6.7), formatted
// once a second per thread.
const std::string& http_date_now();

// Set on every response: the page may use SharedArrayBuffer (WebAssembly threads) only when
// cross-origin isolated, and nothing here is meant to be embedded by other origins. Date: RFC
// 9110 6.6.1 (caches compute a response's age from it).
template <class Fields>
void set_common_headers(Fields& fields) {
  fields.set(http::field::server, "enygma");
  fields.set(http::field::date, http_date_now());
  if (cross_origin_isolation()) {
    fields.set("Cross-Origin-Opener-Policy", "same-origin");
    fields.set("Cross-Origin-Embedder-Policy", "require-corp");
  }
  fields.set("Cross-Origin-Resource-Policy", "same-origin");
  fields.set("X-Content-Type-Options", "nosniff");
}

// The Content-Security-Policy of the web demo's files (docs/server.md). The page holds a
// secret key: scripts, styles and images only from this origin, no inline script or style, no
// eval, no plugins, no <base>, no form posts, no framing; requests (the module, keys, the API)
// only to this origin. A dedicated worker is governed by the policy of its own script's
// response, so the same header on the package's scripts is the policy of the worker that hosts
// the module (where 'wasm-unsafe-eval' lets it compile the .wasm) and of its pthread workers.
inline constexpr const char* kWebContentSecurityPolicy =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";

// Set on the web demo's static files (after set_common_headers): the CSP above, and no Referer
// on the page's requests (nothing it asks for needs to know which page asked).
template <class Fields>
void set_web_headers(Fields& fields) {
  fields.set("Content-Security-Policy", kWebContentSecurityPolicy);
  fields.set("Referrer-Policy", "no-referrer");
}

// A JSON response; body must already be JSON text.
StringResponse json_response(http::status status, std::string body, unsigned version);
// {"error": message, "rule": rule, "field": field}
StringResponse error_response(http::status status, std::string_view message, std::string_view rule,
                              std::string_view field, unsigned version);

// A request's (decoded) path as an error message quotes it: on one line (control and non-ASCII
// bytes as \xNN) and cut at kShownPathBytes bytes with "…" (a 16 KiB path gives no 16 KiB body).
inline constexpr size_t kShownPathBytes = 200;
std::string shown_path(std::string_view path);
// 404 {"error": "no such resource: <shown_path>", "rule": "path", "field": "path"}: its message.
std::string no_such_resource(std::string_view path);

// What makes a parsed request header unfit to be read on (RFC 9110, RFC 9112): a
// Transfer-Encoding in an HTTP/1.0 request, or one whose codings are not exactly one final
// "chunked" (400 where that leaves the body's length unknown, 501 for a coding not
// implemented); a missing (HTTP/1.1) or repeated Host, or one that is not host[:port] (400); an
// expectation other than 100-continue (417); a target that is neither a path, nor the absolute
// form with a valid nonempty host, nor the "*" of OPTIONS (400). field: "transfer-encoding",
// "host", "expect" or "path". chunked: whether the parser reads the body as chunks (it must,
// for a Transfer-Encoding to pass). Obsolete line folding cannot be seen here (Beast joins the
// lines with a space): see has_obs_fold.
struct HeaderProblem {
  http::status status;
  std::string message, field;
};
std::optional<HeaderProblem> header_problem(const http::request_header<>& req, bool chunked);

// Whether a Host field value is uri-host [ ":" port ] (RFC 9110 7.2, RFC 3986 3.2.2): a
// reg-name (unreserved, pct-encoded and sub-delims characters; an IPv4 address is one), or an
// IP-literal in brackets (IPv6 or IPvFuture), then optionally ':' and digits. Empty is valid
// (RFC 9112 3.2: a target without an authority).
bool valid_host(std::string_view host);

// The length of the request head (request line, header fields and the empty line that ends
// them, "\r\n\r\n") at the start of bytes; 0 when its end is not there yet.
size_t request_head_length(std::string_view bytes);
// Whether a request head holds obsolete line folding (RFC 9112 5.2): a line that starts with a
// space or tab, continuing the one before it. Beast's parser takes it and joins the lines with a
// space, so it is seen only in the raw bytes.
bool has_obs_fold(std::string_view head);

// An LF at or after `from` in `bytes` without CR before it (HTTP's line end is CRLF; RFC 9112 2.2
// lets a server refuse the bare LF, which Beast's parser never sees as a line end).
bool has_bare_lf(std::string_view bytes, size_t from = 0);
// How many empty lines ("\r\n", at most max_lines) bytes start with: RFC 9112 2.2 lets a
// server ignore them before a request line.
size_t leading_empty_lines(std::string_view bytes, size_t max_lines);

// The field a parser error of Beast's names: "method", "path", "version", "content-length",
// "transfer-encoding", "header" (a field line) or "body" (chunks, a body cut short); empty for
// the others.
std::string_view parser_error_field(beast::error_code ec);

// The method and target of a request line read from the raw bytes ("GET /x HTTP/2.0\r\n"), for
// the access log where the parser did not read it (a version or size refusal): nullopt unless
// the line is complete and is a token, a target and a version of visible ASCII, one space apart.
struct RequestLine {
  std::string_view method, target;
};
std::optional<RequestLine> split_request_line(std::string_view bytes);

// The version at the end of a request's first line, from the raw bytes ("GET / HTTP/2.0\r\n"
// -> 20): Beast's parser refuses every version but 1.0 and 1.1 as malformed, and another major
// version is answered 505. nullopt when the line does not end so.
std::optional<unsigned> request_line_version(std::string_view request);

// The path part of a request target, undecoded: "/p" of the origin form "/p?q" and of the
// absolute form "http://host/p?q" ("/" when the latter has none).
std::string_view target_path(std::string_view target);
// target_path with "%xx" decoded; nullopt when the encoding is broken or decodes to a NUL.
std::optional<std::string> decode_target_path(std::string_view target);

// Limits of json_shape_problem: far above anything a transfer request or response needs (depth
// 3, arrays of at most 2k + ... entries, decimal numbers of at most 78 digits).
struct JsonShapeLimits {
  unsigned max_depth = 8;
  size_t max_array_entries = 1024;
  size_t max_string_bytes = 1024;
  size_t max_number_chars = 100;
};
// The first hostile shape of a request body (nesting too deep, an array with too many entries, a
// string or number too long): a message, and where it is as validation names a field
// ("sender_id", "public_keys", "keyPairsIn[0].publicKey"; "body" for the whole body).
struct JsonShapeProblem {
  std::string message, field;
};
// One pass, allocating only for the answer. Not a JSON validator: what passes is still parsed
// and checked by the backend.
std::optional<JsonShapeProblem> json_shape_problem(std::string_view body,
                                                   JsonShapeLimits limits = {});

// True when an If-None-Match header value names etag (or is "*").
bool etag_matches(std::string_view if_none_match, std::string_view etag);

// True when an Accept-Encoding header value accepts gzip ("gzip" or "*", with no q=0).
bool accepts_gzip(std::string_view accept_encoding);

// Whether the connection stays open after this request: HTTP/1.1 unless a `close` option, HTTP/1.0
// only with a `keep-alive` one, read from every Connection field line (RFC 9110 5.3: one list;
// Beast's keep_alive() reads the first line only).
bool request_keeps_alive(const http::request_header<>& req);
// The first content coding of a Content-Encoding header value other than "identity" (any case),
// or empty when there is none: the body is then as sent.
std::string_view body_coding(std::string_view content_encoding);

// Content type by file extension (.wasm -> application/wasm, .js -> text/javascript, ...).
const char* content_type_for(std::string_view path);

inline std::string_view to_sv(beast::string_view s) {
  return {s.data(), s.size()};
}

}  // namespace enygma::server
