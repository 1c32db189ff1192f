// The server's URL space and the answers that need no prover: which route a path is, the
// health/readiness answers, the key manifest and key files for the browser, static files.
//
// URL scheme (every answer carries Cross-Origin-Opener-Policy: same-origin,
// Cross-Origin-Embedder-Policy: require-corp, Cross-Origin-Resource-Policy: same-origin):
//   POST <prove route> of each circuit served, from the registry (core/registry): the
//        reference's routes, e.g. /generateProofTransfer-{k}, /generateProofDeposit-{k},
//        /join-split-enygma, /ownership-721: request JSON -> {"pi_a","pi_b","pi_c",
//        "public_signal"}. A route of a registered family that this server does not serve (an
//        unserved k or circuit) answers 404 naming what it serves.
//   POST <verify route> of each circuit, e.g. /verifyProofTransfer-{k},
//        /verifyProof/join-split-enygma: a response JSON -> {"valid": true|false}
//   GET  /healthcheck                 {"message":"Server is healthy","status":"ok"} (reference)
//   GET  /readyz                      200 {"status":"ready"}. The port opens only once every
//                                     key is loaded and closes at SIGTERM (probes then get
//                                     connection refused); 503 {"status":"draining"} only to a
//                                     request that races the signal.
//   GET  /metrics                     Prometheus text format 0.0.4
//   GET  /keys/manifest.json          {"format":"enygma-groth16-bn254-compressed",
//                                      "digest":"blake2b-256","circuits":[{"id","family","k",
//                                      "circuit","insecure_dev_keys","prove_route",
//                                      "verify_route","proving_key":{"url","bytes","blake2b"},
//                                      "verifying_key":{...}}, ...]}
//   GET  /keys/<circuit>.pk | .vk     a circuit's keys, compressed points (the key-file format
//                                     of core/groth16/key_format.hpp, header flag bit 1 set;
//                                     application/octet-stream)
//   GET  /<anything else>             static files of --web (index.html for folders;
//                                     .wasm application/wasm, .js/.mjs text/javascript;
//                                     "<file>.gz" instead where the client takes gzip)
// A path that names nothing (no route, no file) is 404 for every method; 405 (with Allow) is
// for a method not allowed where the path names something.
// Key files, the manifest and static files carry an ETag (keys: "\"<blake2b hex>\"") and
// Cache-Control: no-cache: browsers store them and revalidate (If-None-Match -> 304), so a
// redeploy with new keys is seen at once and an unchanged key costs no download. A static file
// asked for with a `v` query (the package's files but index.mjs, which carries the build's
// digest and asks for them so) gets "public, max-age=31536000, immutable" instead: a cached
// page load then makes no request for them. The browser
// (wasm/enygma_worker.js) reads the manifest, downloads the files by their "url" (relative to
// the manifest) and checks size and BLAKE2b-256 against it.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/registry/registry.hpp"
#include "native/server/backend.hpp"
#include "native/server/http.hpp"

namespace enygma::server {

enum class RouteKind {
  kProve,         // POST a circuit's prove route
  kVerify,        // POST a circuit's verify route
  kNotServed,     // a registered family's route for a circuit this server does not serve
  kHealth,        // GET /healthcheck
  kReady,         // GET /readyz
  kMetrics,       // GET /metrics
  kKeysManifest,  // GET /keys/manifest.json
  kKeyFile,       // GET /keys/<circuit>.pk|vk
  kStatic,        // GET anything else, from --web
};

struct Route {
  RouteKind kind = RouteKind::kStatic;
  CircuitId circuit;                 // kProve/kVerify; kNotServed: the family (k 0)
  std::string endpoint = "unknown";  // metrics label: the route's name ("generateProofTransfer",
                                     // "join-split-enygma"), never a raw path
  const char* allow = "GET, HEAD";   // the methods this route answers
};

// One row of the route table: what the server answers, for the documents and the tests.
struct RouteRow {
  std::string method;       // "POST", "GET"
  std::string path;         // "/generateProofTransfer-{k}", "/healthcheck"
  std::string description;  // one line
};

// The routes of the circuits served, and the fixed ones. Built once at start-up.
class RouteTable {
 public:
  explicit RouteTable(const std::vector<CircuitId>& served);
  // path: decoded, without query string.
  Route classify(std::string_view path) const;
  // Why a kNotServed route is not served: "this server serves transfer k = 2,3,6".
  std::string not_served_reason(const Route& route) const;

 private:
  std::map<std::string, Route, std::less<>> exact_;  // served prove and verify paths
  std::vector<CircuitId> served_;
};

// Every route, with {k} patterns, for all registered families (the README's table and a test
// that checks it).
std::vector<RouteRow> route_rows();

bool method_allowed(const Route& route, http::verb method);

using AnyResponse = std::variant<StringResponse, FileResponse, SpanResponse>;

// The reference service's healthcheck answer (gin's JSON of {"status", "message"}).
StringResponse healthcheck_response(unsigned version);
StringResponse readyz_response(bool ready, unsigned version);

// /keys/manifest.json and /keys/<file>: the compressed keys of every served k, with
// BLAKE2b-256 digests, ETags and revalidation (If-None-Match -> 304).
class KeyFiles {
 public:
  explicit KeyFiles(const std::vector<CircuitKeys>& circuits);
  // path is "/keys/..." (kKeysManifest or kKeyFile)
  AnyResponse serve(std::string_view path, std::string_view if_none_match, unsigned version) const;
  // Whether path ("/keys/...") names the manifest or a key file.
  bool has(std::string_view path) const;
  const std::string& manifest() const { return manifest_; }

 private:
  std::string manifest_, manifest_etag_;
  std::map<std::string, const KeyAsset*, std::less<>> files_;  // by file name
};

// Static files under one folder: index.html for directories, no escape from the folder
// (".." segments, hidden segments, symlinks leading outside are all refused: 404).
class StaticFiles {
 public:
  explicit StaticFiles(const std::string& root);  // empty: nothing is served
  bool enabled() const { return !root_.empty(); }
  // nullopt: not a file under the root.
  std::optional<std::filesystem::path> resolve(std::string_view path) const;
  // A file's gzip form, "<file>.gz" beside it (the build makes them for the module and its
  // scripts), is sent instead (Content-Encoding: gzip) to a client whose Accept-Encoding takes
  // gzip, when it is at least as new as the file (or older by at most 2 s: a copy of the
  // folder that did not keep the build's times); every answer says Vary: Accept-Encoding.
  // query_version: the target's `v` (version_query); when it names this file's build (see
  // is_current_version), the answer may be kept without revalidation (immutable).
  AnyResponse serve(std::string_view path, std::string_view if_none_match,
                    std::string_view accept_encoding, unsigned version,
                    std::string_view query_version = {}) const;
  // Whether `v` names the build of `file` as it is on disk now: the version stamped for it alone
  // (the first 16 hex digits of SHA-256 over its SHA-256 in hex and a newline, as
  // wasm/stamp_versions.cmake computes it: index.html's references), or the PACKAGE_VERSION
  // stamped into the index.mjs beside it (the package's files, asked for by that version).
  // Another value (an old or a newer build's, during a rolling deploy behind one address) is
  // not: such an answer is revalidated, never cached for a year under a URL it does not match.
  bool is_current_version(const std::filesystem::path& file, std::string_view v) const;

 private:
  // Absolute, as given: resolved again for each request, so that a root that is a link to a
  // release folder serves the release it points to now (a deploy that swaps the link).
  std::filesystem::path root_;
};

StringResponse not_found_response(std::string_view path, unsigned version);

// A request target's nonempty `v` parameter ("/enygma/x.js?v=1a2b" -> "1a2b"), else empty: the
// package's versioned URLs (wasm/enygma.js), answered with a year-long immutable Cache-Control
// where the version is the file's (StaticFiles::is_current_version).
std::string_view version_query(std::string_view target);

}  // namespace enygma::server
