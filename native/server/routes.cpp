#include "native/server/routes.hpp"

#include <sodium.h>
#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "native/common/file_io.hpp"

namespace enygma::server {

namespace fs = std::filesystem;

namespace {

// A family's route pattern split at "{k}": /generateProofTransfer-{k} -> prefix
// "/generateProofTransfer-", suffix "". A family without k has the whole route as prefix.
struct Pattern {
  std::string_view prefix, suffix;
};
Pattern split_route(std::string_view route) {
  const size_t at = route.find("{k}");
  if (at == std::string_view::npos) return {route, {}};
  return {route.substr(0, at), route.substr(at + 3)};
}

// Whether path is the route with some k: a canonical decimal (digits, no leading zero; any
// size: an absurd k is a k this server does not serve).
bool matches(std::string_view path, std::string_view route) {
  const Pattern p = split_route(route);
  if (p.suffix.empty() && route.find("{k}") == std::string_view::npos) return path == p.prefix;
  if (path.size() <= p.prefix.size() + p.suffix.size() ||
      path.substr(0, p.prefix.size()) != p.prefix ||
      path.substr(path.size() - p.suffix.size()) != p.suffix) {
    return false;
  }
  const std::string_view k =
      path.substr(p.prefix.size(), path.size() - p.prefix.size() - p.suffix.size());
  return k.find_first_not_of("0123456789") == std::string_view::npos &&
         (k[0] != '0' || k.size() == 1);
}

std::string quoted_etag(std::string_view tag) {
  return "\"" + std::string(tag) + "\"";
}

template <class Response>
void set_cache_headers(Response& res, const std::string& etag, bool versioned = false) {
  res.set(http::field::etag, etag);
  // Stored, but revalidated on every use: a redeploy with new keys or a new build is seen at
  // once, and an unchanged file costs a 304. A versioned URL (a static file asked for with a
  // `v` query, which the package sets to its build's digest) names one build's file: kept
  // without revalidation, a new build being asked for under another URL.
  res.set(http::field::cache_control,
          versioned ? "public, max-age=31536000, immutable" : "no-cache");
}

StringResponse not_modified(const std::string& etag, unsigned version, bool versioned = false) {
  StringResponse res{http::status::not_modified, version};
  set_common_headers(res);
  set_cache_headers(res, etag, versioned);
  return res;
}

}  // namespace

// The metrics label of a route pattern: without the leading '/' and the k ("-{k}").
static std::string endpoint_name(std::string_view route) {
  std::string name(route.substr(route.empty() || route[0] != '/' ? 0 : 1));
  for (std::string_view k : {"-{k}", "{k}"}) {
    if (const size_t at = name.find(k); at != std::string::npos) name.erase(at, k.size());
  }
  return name;
}

RouteTable::RouteTable(const std::vector<CircuitId>& served) : served_(served) {
  for (const CircuitId& id : served) {
    exact_[id.prove_route()] =
        Route{RouteKind::kProve, id, endpoint_name(id.family->prove_route), "POST"};
    exact_[id.verify_route()] =
        Route{RouteKind::kVerify, id, endpoint_name(id.family->verify_route), "POST"};
  }
}

Route RouteTable::classify(std::string_view path) const {
  static constexpr const char* kPost = "POST";
  static constexpr const char* kGet = "GET, HEAD";
  if (auto it = exact_.find(path); it != exact_.end()) return it->second;
  for (const CircuitFamily* f : circuit_families()) {
    for (std::string_view route : {f->prove_route, f->verify_route}) {
      if (matches(path, route)) {
        return Route{RouteKind::kNotServed, CircuitId{f, 0}, endpoint_name(route), kPost};
      }
    }
  }
  if (path == "/healthcheck") return {RouteKind::kHealth, {}, "healthcheck", kGet};
  if (path == "/readyz") return {RouteKind::kReady, {}, "readyz", kGet};
  if (path == "/metrics") return {RouteKind::kMetrics, {}, "metrics", kGet};
  if (path == "/keys/manifest.json") return {RouteKind::kKeysManifest, {}, "keys", kGet};
  if (path.substr(0, 6) == "/keys/") return {RouteKind::kKeyFile, {}, "keys", kGet};
  return {RouteKind::kStatic, {}, "static", kGet};
}

std::string RouteTable::not_served_reason(const Route& route) const {
  const CircuitFamily* f = route.circuit.family;
  std::string ks;
  bool any = false;
  for (const CircuitId& id : served_) {
    if (id.family != f) continue;
    any = true;
    if (f->has_k()) ks += (ks.empty() ? "" : ",") + std::to_string(id.k);
  }
  std::string out = "this server serves ";
  if (!any) return out + "no " + std::string(f->name) + " circuit";
  return out + std::string(f->name) + " k = " + ks;
}

std::vector<RouteRow> route_rows() {
  std::vector<RouteRow> rows;
  for (const CircuitFamily* f : circuit_families()) {
    rows.push_back(
        {"POST", std::string(f->prove_route),
         std::string(f->name) + " proof: request JSON -> {pi_a, pi_b, pi_c, public_signal}"});
    rows.push_back({"POST", std::string(f->verify_route),
                    std::string(f->name) + " verification: response JSON -> {\"valid\": ...}"});
  }
  rows.push_back({"GET", "/healthcheck", "the reference's health answer"});
  rows.push_back({"GET", "/readyz", "200 while serving (the port closes at SIGTERM)"});
  rows.push_back({"GET", "/metrics", "Prometheus metrics"});
  rows.push_back({"GET", "/keys/manifest.json", "the served circuits' keys for the browser"});
  rows.push_back({"GET", "/keys/<circuit>.pk", "a compressed key file (.pk, .vk)"});
  rows.push_back({"GET", "/", "the web demo (--web)"});
  return rows;
}

bool method_allowed(const Route& route, http::verb method) {
  if (route.kind == RouteKind::kProve || route.kind == RouteKind::kVerify ||
      route.kind == RouteKind::kNotServed) {
    return method == http::verb::post;
  }
  return method == http::verb::get || method == http::verb::head;
}

StringResponse healthcheck_response(unsigned version) {
  // Byte for byte what the reference (gin, map keys sorted) answers.
  return json_response(http::status::ok, R"({"message":"Server is healthy","status":"ok"})",
                       version);
}

StringResponse readyz_response(bool ready, unsigned version) {
  return ready ? json_response(http::status::ok, R"({"status":"ready"})", version)
               : json_response(http::status::service_unavailable, R"({"status":"draining"})",
                               version);
}

StringResponse not_found_response(std::string_view path, unsigned version) {
  return error_response(http::status::not_found, no_such_resource(path), "path", "path", version);
}

KeyFiles::KeyFiles(const std::vector<CircuitKeys>& circuits) {
  nlohmann::ordered_json manifest;
  manifest["format"] = "enygma-groth16-bn254-compressed";
  manifest["digest"] = "blake2b-256";
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& c : circuits) {
    nlohmann::ordered_json entry;
    entry["id"] = c.circuit.str();
    entry["family"] = c.circuit.family->name;
    if (c.circuit.family->has_k()) entry["k"] = c.circuit.k;
    entry["circuit"] = c.circuit_name;
    entry["prove_route"] = c.circuit.prove_route();
    entry["verify_route"] = c.circuit.verify_route();
    entry["insecure_dev_keys"] = c.insecure_dev_keys;
    for (const KeyAsset* asset : {&c.proving_key, &c.verifying_key}) {
      nlohmann::ordered_json file;
      file["url"] = "/keys/" + asset->file_name;
      file["bytes"] = asset->bytes.size();
      file["blake2b"] = asset->blake2b_hex;
      entry[asset == &c.proving_key ? "proving_key" : "verifying_key"] = file;
      files_[asset->file_name] = asset;
    }
    list.push_back(entry);
  }
  manifest["circuits"] = list;
  manifest_ = manifest.dump();
  manifest_etag_ = quoted_etag(
      blake2b_hex(reinterpret_cast<const uint8_t*>(manifest_.data()), manifest_.size()));
}

bool KeyFiles::has(std::string_view path) const {
  return path == "/keys/manifest.json" ||
         (path.substr(0, 6) == "/keys/" && files_.count(path.substr(6)) > 0);
}

AnyResponse KeyFiles::serve(std::string_view path, std::string_view if_none_match,
                            unsigned version) const {
  if (path == "/keys/manifest.json") {
    if (etag_matches(if_none_match, manifest_etag_)) return not_modified(manifest_etag_, version);
    StringResponse res = json_response(http::status::ok, manifest_, version);
    set_cache_headers(res, manifest_etag_);
    return res;
  }
  auto it = files_.find(path.substr(6));
  if (it == files_.end()) return not_found_response(path, version);
  const KeyAsset& asset = *it->second;
  const std::string etag = quoted_etag(asset.blake2b_hex);
  if (etag_matches(if_none_match, etag)) return not_modified(etag, version);
  SpanResponse res{http::status::ok, version};
  set_common_headers(res);
  set_cache_headers(res, etag);
  res.set(http::field::content_type, "application/octet-stream");
  res.body() = http::span_body<const char>::value_type(
      reinterpret_cast<const char*>(asset.bytes.data()), asset.bytes.size());
  res.prepare_payload();
  return res;
}

StaticFiles::StaticFiles(const std::string& root) {
  if (root.empty()) return;
  std::error_code ec;
  root_ = fs::absolute(root, ec).lexically_normal();
  if (ec || !fs::is_directory(root_, ec)) root_.clear();
}

std::optional<fs::path> StaticFiles::resolve(std::string_view path) const {
  if (root_.empty() || path.empty() || path[0] != '/') return std::nullopt;
  std::error_code ec;
  const fs::path root = fs::canonical(root_, ec);  // where a link given as the root points now
  if (ec) return std::nullopt;
  fs::path candidate = root;
  size_t pos = 1;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view segment = path.substr(pos, slash - pos);
    pos = slash + 1;
    if (segment.empty()) continue;
    // ".", "..", and hidden files (.git, .env) are never served; nor Windows separators.
    if (segment[0] == '.' || segment.find('\\') != std::string_view::npos) return std::nullopt;
    candidate /= std::string(segment);
  }
  if (fs::is_directory(candidate, ec)) candidate /= "index.html";
  fs::path real = fs::canonical(candidate, ec);
  if (ec) return std::nullopt;
  // A symlink may point anywhere: what is served must still lie under the root.
  auto [root_end, real_it] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
  if (root_end != root.end()) return std::nullopt;
  if (!fs::is_regular_file(real, ec)) return std::nullopt;
  return real;
}

namespace {

// A file's modification time in nanoseconds.
int64_t mtime_ns(const struct stat& st) {
  return int64_t(st.st_mtim.tv_sec) * 1000000000 + int64_t(st.st_mtim.tv_nsec);
}

// A static file's validator: its size and modification time (a rebuild changes it).
std::string file_etag(const struct stat& st, std::string_view suffix) {
  char tag[80];
  snprintf(tag, sizeof tag, "\"%llx-%llx%.*s\"", static_cast<unsigned long long>(st.st_size),
           static_cast<unsigned long long>(mtime_ns(st)), static_cast<int>(suffix.size()),
           suffix.data());
  return tag;
}

// A gzip form (a) is current for its file (b) when its modification time is b's or later, or
// earlier by at most kGzipMtimeSlack seconds: a copy
// of the built folder that did not keep its times (`cp -r`) writes a file's gzip form a little
// before or after it, and an edit of the file by hand comes later than that.
constexpr int64_t kGzipMtimeSlack = 2;
bool gzip_form_current(const struct stat& a, const struct stat& b) {
  return mtime_ns(a) >= mtime_ns(b) - kGzipMtimeSlack * 1000000000;
}

}  // namespace

std::string_view version_query(std::string_view target) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return {};
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view param = query.substr(0, amp);
    if (param.size() > 2 && param.substr(0, 2) == "v=") return param.substr(2);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return {};
}

namespace {

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  char hex[2 * sizeof digest + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

// What a file's versions are computed from, cached while the file is unchanged (same size and
// modification time): its own version and, for an index.mjs, the PACKAGE_VERSION in it.
struct VersionCacheEntry {
  off_t size = -1;
  int64_t mtime_ns = -1;
  std::string own;
  std::string package;  // index.mjs only; empty when it has none
};

// Whether `v` is `file`'s own version, or with `package` the PACKAGE_VERSION in it (an
// index.mjs's); false for a file that is not a readable regular file.
bool has_version(const fs::path& file, std::string_view v, bool package) {
  static std::mutex mu;
  static std::map<std::string, VersionCacheEntry> cache;
  struct stat st {};
  if (stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const auto matches = [&](const VersionCacheEntry& e) {
    const std::string& version = package ? e.package : e.own;
    return !version.empty() && version == v;
  };
  {
    std::lock_guard lock(mu);
    auto it = cache.find(file.native());
    if (it != cache.end() && it->second.size == st.st_size && it->second.mtime_ns == mtime_ns(st)) {
      return matches(it->second);
    }
  }
  auto read = native::read_file(file.native());
  if (!read) return false;
  const std::string_view bytes(reinterpret_cast<const char*>(read->data()), read->size());
  VersionCacheEntry entry;
  entry.size = st.st_size;
  entry.mtime_ns = mtime_ns(st);
  entry.own = sha256_hex(sha256_hex(bytes) + "\n").substr(0, 16);
  if (file.filename() == "index.mjs") {
    static constexpr std::string_view kMarker = "const PACKAGE_VERSION = '";
    const size_t at = bytes.find(kMarker);
    if (at != std::string_view::npos) {
      const size_t from = at + kMarker.size(), end = bytes.find('\'', from);
      if (end != std::string_view::npos && end - from == 16) entry.package = bytes.substr(from, 16);
    }
  }
  const bool answer = matches(entry);
  std::lock_guard lock(mu);
  if (cache.size() > 4096) cache.clear();  // a web folder has tens of files: never in practice
  cache[file.native()] = std::move(entry);
  return answer;
}

}  // namespace

bool StaticFiles::is_current_version(const fs::path& file, std::string_view v) const {
  if (v.size() != 16) return false;
  return has_version(file, v, /*package=*/false) ||
         has_version(file.parent_path() / "index.mjs", v, /*package=*/true);
}

AnyResponse StaticFiles::serve(std::string_view path, std::string_view if_none_match,
                               std::string_view accept_encoding, unsigned version,
                               std::string_view query_version) const {
  auto file = resolve(path);
  if (!file) return not_found_response(path, version);
  const bool versioned = !query_version.empty() && is_current_version(*file, query_version);
  struct stat st {};
  if (stat(file->c_str(), &st) != 0) return not_found_response(path, version);
  // The gzip form: a regular file beside it (not a link: resolve() checks only the file asked
  // for), as new as the file or newer (a stale one is never sent).
  fs::path sent = *file;
  bool gzip = false;
  if (accepts_gzip(accept_encoding)) {
    const fs::path gz = file->native() + ".gz";
    struct stat gz_st {};
    if (lstat(gz.c_str(), &gz_st) == 0 && S_ISREG(gz_st.st_mode) && gzip_form_current(gz_st, st)) {
      sent = gz;
      st = gz_st;
      gzip = true;
    }
  }
  const std::string etag = file_etag(st, gzip ? "-gzip" : "");
  auto vary = [](auto& res) { res.set(http::field::vary, "Accept-Encoding"); };
  if (etag_matches(if_none_match, etag)) {
    StringResponse res = not_modified(etag, version, versioned);
    set_web_headers(res);
    vary(res);
    return res;
  }
  http::file_body::value_type body;
  beast::error_code ec;
  body.open(sent.c_str(), beast::file_mode::scan, ec);
  if (ec) return not_found_response(path, version);
  FileResponse res{http::status::ok, version};
  set_common_headers(res);
  set_web_headers(res);
  set_cache_headers(res, etag, versioned);
  vary(res);
  res.set(http::field::content_type, content_type_for(file->native()));
  if (gzip) res.set(http::field::content_encoding, "gzip");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

}  // namespace enygma::server
