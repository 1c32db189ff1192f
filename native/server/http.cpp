#include "native/server/http.hpp"

#include <algorithm>
#include <atomic>

#include "core/util/error_json.hpp"

namespace enygma::server {

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

std::string_view target_path(std::string_view target) {
  // The absolute form (RFC 9112 3.2.2: a server must accept it): "http://host:port/p?q" is
  // "/p?q"; the authority (which may hold credentials) is neither checked nor kept.
  for (std::string_view scheme : {"http://", "https://"}) {
    if (equals_ignoring_case(target.substr(0, scheme.size()), scheme)) {
      target.remove_prefix(scheme.size());
      const size_t path = target.find_first_of("/?#");
      target = path == std::string_view::npos ? std::string_view() : target.substr(path);
      if (target.empty() || target[0] != '/') return "/";
      break;
    }
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

std::optional<std::string> json_shape_problem(std::string_view body, JsonShapeLimits limits) {
  // Entries of each open array, innermost last; depth is bounded by max_depth, so this is a
  // fixed array on the stack.
  constexpr unsigned kMaxTrackedDepth = 64;
  size_t entries[kMaxTrackedDepth] = {};
  bool is_array[kMaxTrackedDepth] = {};
  const unsigned max_depth = std::min(limits.max_depth, kMaxTrackedDepth - 1);
  unsigned depth = 0;
  size_t number_run = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '"') {
      const size_t start = ++i;
      while (i < body.size() && body[i] != '"') i += body[i] == '\\' ? 2 : 1;
      if (i - start > limits.max_string_bytes) {
        return "a JSON string is longer than " + std::to_string(limits.max_string_bytes) + " bytes";
      }
      number_run = 0;
      continue;
    }
    const bool number_char =
        (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    number_run = number_char ? number_run + 1 : 0;
    if (number_run > limits.max_number_chars) {
      return "a JSON number is longer than " + std::to_string(limits.max_number_chars) +
             " characters";
    }
    if (c == '[' || c == '{') {
      if (depth >= max_depth) {
        return "JSON nested deeper than " + std::to_string(max_depth) + " levels";
      }
      ++depth;
      is_array[depth] = c == '[';
      entries[depth] = 0;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == ',' && depth > 0 && is_array[depth]) {
      if (++entries[depth] >= limits.max_array_entries) {
        return "a JSON array has more than " + std::to_string(limits.max_array_entries) +
               " entries";
      }
    }
  }
  return std::nullopt;
}

bool accepts_gzip(std::string_view accept_encoding) {
  // Codings, each with an optional ";q=<weight>" (RFC 9110 12.5.3); an explicit "gzip" decides
  // over "*".
  std::optional<bool> gzip, any;
  any_list_item(accept_encoding, [&](std::string_view item) {
    std::string_view params;
    if (const size_t semi = item.find(';'); semi != std::string_view::npos) {
      params = trim_ows(item.substr(semi + 1));
      item = trim_ows(item.substr(0, semi));
    }
    bool refused = false;  // q=0, q=0.0, q=0.000
    if (params.size() >= 3 && (params[0] == 'q' || params[0] == 'Q') && params[1] == '=') {
      std::string_view q = trim_ows(params.substr(2));
      refused = !q.empty() && q[0] == '0' && q.find_first_not_of("0.", 0) == std::string_view::npos;
    }
    if (equals_ignoring_case(item, "gzip")) gzip = !refused;
    if (item == "*") any = !refused;
    return false;
  });
  return gzip.value_or(any.value_or(false));
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
