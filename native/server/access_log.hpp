// Access log: one JSON object per line on stdout, per answered request. Request bodies, query
// strings and header values are never logged (a transfer request holds a secret key).
//
// The lines are written by a thread of their own from a bounded queue: a reader of stdout that
// stalls (a full pipe, a stuck log shipper) never holds a network thread, the drain or the
// server's answers. Past --access-log-queue bytes waiting, access lines are
// dropped and counted (dropped_access_lines, the metric enygma_access_log_dropped_total);
// lifecycle events are queued whatever the size. Before the process ends, flush waits (up to a
// limit) for what is queued, so that "stopped" is on stdout wherever stdout is read.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace enygma::server {

struct AccessRecord {
  uint64_t connection = 0;
  std::string method;  // empty when the request line never arrived (timeouts)
  std::string path;    // without the query string
  int status = 0;      // 499: the client went away before its answer
  uint64_t bytes = 0;  // response body bytes written (499: those the kernel took before the end)
  double duration_ms = 0;
  std::string circuit;  // "transfer-k6"; empty: not a proof or verify request
  std::optional<double> queue_wait_ms;
  std::optional<double> work_ms;  // proving or verifying time
};

class AccessLog {
 public:
  // queue_bytes: the access lines held while stdout's reader stalls (--access-log-queue).
  AccessLog(bool enabled, size_t queue_bytes);
  void write(const AccessRecord& record);
  // A lifecycle event line ({"event": ..., plus fields}) on stdout, queued (never dropped).
  static void event(const std::string& json_line);
  // Until every line queued so far is written, or `limit` has passed (before the process ends).
  static void flush(std::chrono::milliseconds limit = std::chrono::seconds(1));
  // Access lines dropped because stdout did not take them.
  static uint64_t dropped_access_lines();

 private:
  bool enabled_;
};

// Current UTC time as "2025-01-31T12:34:56.789Z".
std::string utc_timestamp();

}  // namespace enygma::server
