// Server metrics, rendered in the Prometheus text exposition format (version 0.0.4).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/registry/registry.hpp"

namespace enygma::server {

// A histogram with fixed upper bounds (seconds); observe() is lock-free.
class Histogram {
 public:
  static constexpr std::array<double, 14> kBounds = {0.005, 0.01, 0.025, 0.05, 0.1,  0.25, 0.5,
                                                     1.0,   2.5,  5.0,   10.0, 30.0, 60.0, 120.0};
  void observe(double seconds);
  // Appends the _bucket/_sum/_count lines of `name` with `labels` ("circuit=\"transfer\",k=\"6\"").
  void render(std::string& out, const std::string& name, const std::string& labels) const;

 private:
  std::array<std::atomic<uint64_t>, kBounds.size() + 1> buckets_{};  // last one: +Inf only
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_micros_{0};
};

class Metrics {
 public:
  explicit Metrics(const std::vector<CircuitId>& circuits);

  // endpoint: a route name ("generateProofTransfer", "healthcheck", "keys", "static"),
  // "options" (OPTIONS *), "not_found" (a 404 for a path that names nothing) or "unknown" (no
  // path was read: a malformed request line, a connection refused before its request), never a
  // raw path, so the number of series stays bounded.
  void count_request(const std::string& endpoint, int status);
  // Per circuit: labels circuit="<family>" and, for a family with k, k="<k>".
  void observe_proof(const CircuitId& id, double seconds);
  void observe_queue_wait(const CircuitId& id, double seconds);
  void observe_verify(const CircuitId& id, double seconds);
  void set_key_load_seconds(const CircuitId& id, double seconds);
  void count_rejected() { rejected_.fetch_add(1); }
  void count_cancelled() { cancelled_.fetch_add(1); }
  void count_failed() { failed_.fetch_add(1); }

  // Gauges read at render time.
  struct Gauges {
    size_t queue_depth = 0;
    size_t proofs_in_flight = 0;
    size_t verify_queue_depth = 0;
    size_t verifies_in_flight = 0;
    size_t open_connections = 0;
    bool ready = false;
  };
  std::string render(const Gauges& gauges) const;

 private:
  struct PerCircuit {
    std::string labels;
    Histogram proof, queue_wait, verify;
    double key_load_seconds = 0;
  };
  PerCircuit* find(const CircuitId& id) const;
  std::map<std::string, std::unique_ptr<PerCircuit>> per_circuit_;  // fixed after construction
  mutable std::mutex requests_mu_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::atomic<uint64_t> rejected_{0}, cancelled_{0}, failed_{0};
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Resident set size of this process in bytes (/proc/self/statm), 0 if unknown.
uint64_t process_rss_bytes();

}  // namespace enygma::server
