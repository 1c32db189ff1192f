// Access log: one JSON object per line on stdout, per answered request. Request bodies, query
// strings and header values are never logged (a transfer request holds a secret key).
//
// The lines are written by a thread of their own from a bounded queue: a reader of stdout that
// stalls (a full pipe, a stuck log shipper) never holds a network thread, the drain or the
// server's answers. Past kMaxQueuedLogBytes waiting (--access-log-queue), access lines are
// dropped and counted
// (dropped_access_lines, the metric enygma_access_log_dropped_total); lifecycle events are
// queued whatever the size, and each waits up to a second for the lines before it to be
// written, so that "stopped" is on stdout before the process ends wherever stdout is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace enygma::server {

inline constexpr size_t kMaxQueuedLogBytes = size_t(4) << 20;

struct AccessRecord {
  uint64_t connection = 0;
  std::string method;  // empty when the request line never arrived (timeouts)
  std::string path;    // without the query string
  int status = 0;      // 499: the client went away before its answer
  uint64_t bytes = 0;  // response body bytes
  double duration_ms = 0;
  std::string circuit;  // "transfer-k6"; empty: not a proof or verify request
  std::optional<double> queue_wait_ms;
  std::optional<double> work_ms;  // proving or verifying time
};

class AccessLog {
 public:
  // queue_bytes: the access lines held while stdout's reader stalls (--access-log-queue).
  AccessLog(bool enabled, size_t queue_bytes = kMaxQueuedLogBytes);
  void write(const AccessRecord& record);
  // A lifecycle event line ({"event": ..., plus fields}) on stdout: queued, then waited for up
  // to a second.
  static void event(const std::string& json_line);
  // Access lines dropped because stdout did not take them.
  static uint64_t dropped_access_lines();

 private:
  bool enabled_;
};

// Current UTC time as "2025-01-31T12:34:56.789Z".
std::string utc_timestamp();

}  // namespace enygma::server
