#include "native/server/routes.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <nlohmann/json.hpp>

namespace enygma::server {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kProvePrefix = "/generateProofTransfer-";
constexpr std::string_view kVerifyPrefix = "/verifyProofTransfer-";

// "6" -> 6; anything but 1..3 plain digits without a leading zero -> 0.
unsigned parse_k_suffix(std::string_view s) {
  if (s.empty() || s.size() > 3 || s[0] == '0') return 0;
  unsigned k = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return 0;
    k = k * 10 + static_cast<unsigned>(c - '0');
  }
  return k;
}

std::string quoted_etag(std::string_view tag) {
  return "\"" + std::string(tag) + "\"";
}

template <class Response>
void set_cache_headers(Response& res, const std::string& etag) {
  res.set(http::field::etag, etag);
  // Stored, but revalidated on every use: a redeploy with new keys or a new build is seen at
  // once, and an unchanged file costs a 304.
  res.set(http::field::cache_control, "no-cache");
}

StringResponse not_modified(const std::string& etag, unsigned version) {
  StringResponse res{http::status::not_modified, version};
  set_common_headers(res);
  set_cache_headers(res, etag);
  return res;
}

}  // namespace

Route classify_route(std::string_view path) {
  static constexpr const char* kPost = "POST";
  static constexpr const char* kGet = "GET, HEAD";
  if (path.substr(0, kProvePrefix.size()) == kProvePrefix) {
    return {RouteKind::kProve, parse_k_suffix(path.substr(kProvePrefix.size())),
            "generateProofTransfer", kPost};
  }
  if (path.substr(0, kVerifyPrefix.size()) == kVerifyPrefix) {
    return {RouteKind::kVerify, parse_k_suffix(path.substr(kVerifyPrefix.size())),
            "verifyProofTransfer", kPost};
  }
  if (path == "/healthcheck") return {RouteKind::kHealth, 0, "healthcheck", kGet};
  if (path == "/readyz") return {RouteKind::kReady, 0, "readyz", kGet};
  if (path == "/metrics") return {RouteKind::kMetrics, 0, "metrics", kGet};
  if (path == "/keys/manifest.json") return {RouteKind::kKeysManifest, 0, "keys", kGet};
  if (path.substr(0, 6) == "/keys/") return {RouteKind::kKeyFile, 0, "keys", kGet};
  return {RouteKind::kStatic, 0, "static", kGet};
}

bool method_allowed(const Route& route, http::verb method) {
  if (route.kind == RouteKind::kProve || route.kind == RouteKind::kVerify) {
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
  return error_response(http::status::not_found, "no such resource: " + std::string(path), "path",
                        "path", version);
}

KeyFiles::KeyFiles(const std::vector<CircuitKeys>& circuits) {
  nlohmann::ordered_json manifest;
  manifest["format"] = "enygma-groth16-bn254-compressed";
  manifest["digest"] = "blake2b-256";
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& c : circuits) {
    nlohmann::ordered_json entry;
    entry["k"] = c.k;
    entry["circuit"] = c.circuit_name;
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
  root_ = fs::canonical(root, ec);
  if (ec || !fs::is_directory(root_, ec)) root_.clear();
}

std::optional<fs::path> StaticFiles::resolve(std::string_view path) const {
  if (root_.empty() || path.empty() || path[0] != '/') return std::nullopt;
  fs::path candidate = root_;
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
  std::error_code ec;
  if (fs::is_directory(candidate, ec)) candidate /= "index.html";
  fs::path real = fs::canonical(candidate, ec);
  if (ec) return std::nullopt;
  // A symlink may point anywhere: what is served must still lie under the root.
  auto [root_end, real_it] = std::mismatch(root_.begin(), root_.end(), real.begin(), real.end());
  if (root_end != root_.end()) return std::nullopt;
  if (!fs::is_regular_file(real, ec)) return std::nullopt;
  return real;
}

AnyResponse StaticFiles::serve(std::string_view path, std::string_view if_none_match,
                               unsigned version) const {
  auto file = resolve(path);
  if (!file) return not_found_response(path, version);
  struct stat st {};
  if (stat(file->c_str(), &st) != 0) return not_found_response(path, version);
  char tag[64];
  snprintf(tag, sizeof tag, "\"%llx-%llx\"", static_cast<unsigned long long>(st.st_size),
           static_cast<unsigned long long>(st.st_mtim.tv_sec) * 1000000000ull +
               static_cast<unsigned long long>(st.st_mtim.tv_nsec));
  const std::string etag = tag;
  if (etag_matches(if_none_match, etag)) return not_modified(etag, version);
  http::file_body::value_type body;
  beast::error_code ec;
  body.open(file->c_str(), beast::file_mode::scan, ec);
  if (ec) return not_found_response(path, version);
  FileResponse res{http::status::ok, version};
  set_common_headers(res);
  set_cache_headers(res, etag);
  res.set(http::field::content_type, content_type_for(file->native()));
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

}  // namespace enygma::server
