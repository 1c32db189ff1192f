#include "native/server/router.hpp"

#include <nlohmann/json.hpp>

#include "core/util/error_kind.hpp"

namespace enygma::server {

namespace {

// The reference's refusal: 500 with {"error": message} (gin's JSON of a map: one key).
StringResponse reference_error(std::string_view message, unsigned version) {
  nlohmann::json j;
  j["error"] = std::string(message);
  return json_response(http::status::internal_server_error, j.dump(), version);
}

}  // namespace

Router::Router(const ProofBackend& backend, bool reference_status_codes)
    : backend_(backend),
      table_(backend.served()),
      reference_status_codes_(reference_status_codes) {}

std::optional<Refusal> Router::check(const Route& route, std::string_view method,
                                     std::string_view path, bool exists) const {
  const http::verb verb = http::string_to_verb({method.data(), method.size()});
  if (verb == http::verb::unknown) {  // RFC 9110 9.1
    return Refusal{http::status::not_implemented,
                   "method " + std::string(method.substr(0, 64)) +
                       " is not implemented by this server (GET, HEAD, POST)",
                   "method", "method"};
  }
  // A circuit not served here names nothing: 404 whatever the method, as for a path.
  if (route.kind == RouteKind::kNotServed) {
    const bool has_k = route.circuit.family->has_k();
    return Refusal{http::status::not_found,
                   std::string(has_k ? "no circuit for this k here; " : "no such circuit here; ") +
                       table_.not_served_reason(route),
                   has_k ? "k" : "circuit", has_k ? "k" : "circuit"};
  }
  if (!method_allowed(route, verb)) {
    if (!exists) {
      return Refusal{http::status::not_found, no_such_resource(path), "path", "path"};
    }
    return Refusal{http::status::method_not_allowed,
                   "method " + std::string(method) + " is not allowed here; use " + route.allow,
                   "method", "method"};
  }
  return std::nullopt;
}

Result<std::string> Router::work(const Route& route, std::string_view body, ThreadPool& pool,
                                 const std::atomic<bool>* cancel) const {
  if (route.kind == RouteKind::kProve) return backend_.prove(route.circuit, body, pool, cancel);
  Status status = backend_.verify(route.circuit, body);
  if (status.ok()) return std::string(R"({"valid":true})");
  if (status.error().rule == "invalid") return std::string(R"({"valid":false})");
  return status.error();
}

StringResponse Router::answer(const Result<std::string>& result, unsigned version) const {
  if (result.ok()) return json_response(http::status::ok, result.value(), version);
  const Error& e = result.error();
  if (classify_error(e) == ErrorKind::kRequest) {
    if (reference_status_codes_) return reference_error(e.message, version);
    return error_response(http::status::bad_request, e.message, e.rule, e.field, version);
  }
  return error_response(http::status::internal_server_error, e.message, e.rule, e.field, version);
}

StringResponse Router::refuse(const Refusal& r, unsigned version) const {
  // Only what the reference itself answers with 400/500 changes; the protocol's own answers
  // (404, 405, 413, 415, 501, 503) are kept.
  if (reference_status_codes_ && r.status == http::status::bad_request) {
    return reference_error(r.message, version);
  }
  return error_response(r.status, r.message, r.rule, r.field, version);
}

}  // namespace enygma::server
