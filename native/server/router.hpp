// What the server answers, decided apart from the connection I/O (server/session.cpp reads and
// writes sockets, the router decides): which route a path is, whether it may be served, what a
// proof or verification job does, and how its result becomes an HTTP answer. Testable
// in-process (tests/server_router_test.cpp) without a socket or a thread.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <string_view>

#include "core/parallel/thread_pool.hpp"
#include "core/util/result.hpp"
#include "native/server/backend.hpp"
#include "native/server/http.hpp"
#include "native/server/routes.hpp"

namespace enygma::server {

// An answer that refuses: status and the error object.
struct Refusal {
  http::status status;
  std::string message, rule, field;
};

class Router {
 public:
  Router(const ProofBackend& backend, bool reference_status_codes);

  Route classify(std::string_view path) const { return table_.classify(path); }

  // After the header: a refusal, or nullopt to go on. In order: 501 for a method this server
  // does not implement at all (named as sent), 404 for a path that names nothing, 405 for a
  // method not allowed where it names something, 404 for a circuit not served. method: as sent;
  // path: decoded; exists: whether a file route (kStatic, kKeyFile) names a file (the caller
  // needs to look only where the method is not allowed).
  std::optional<Refusal> check(const Route& route, std::string_view method,
                               std::string_view path = {}, bool exists = true) const;

  // The job of a kProve / kVerify route, run on a worker thread: the reference response JSON,
  // {"valid":true} or {"valid":false}, or an Error (classified by core/util/error_kind.hpp).
  Result<std::string> work(const Route& route, std::string_view body, ThreadPool& pool,
                           const std::atomic<bool>* cancel) const;

  // The HTTP answer of a job's result. A request's fault is 400 {"error","rule","field"}, or,
  // with reference_status_codes, 500 {"error": message} as the reference answers; a server
  // fault 500; a cancelled job 499-like (never sent: the client left).
  StringResponse answer(const Result<std::string>& result, unsigned version) const;
  // The answer of a refusal (Refusal, or a body the shape check refused), with the same
  // reference_status_codes mapping for the request's faults (400 only: a refusal's other
  // statuses are the protocol's own answers and stay).
  StringResponse refuse(const Refusal& refusal, unsigned version) const;

  const RouteTable& table() const { return table_; }

 private:
  const ProofBackend& backend_;
  RouteTable table_;
  bool reference_status_codes_;
};

}  // namespace enygma::server
