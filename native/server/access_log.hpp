// Access log: one JSON object per line on stdout, per answered request. Request bodies, query
// strings and header values are never logged (a transfer request holds a secret key).
#pragma once

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
  uint64_t bytes = 0;  // response body bytes
  double duration_ms = 0;
  std::string circuit;  // "transfer-k6"; empty: not a proof or verify request
  std::optional<double> queue_wait_ms;
  std::optional<double> work_ms;  // proving or verifying time
};

class AccessLog {
 public:
  explicit AccessLog(bool enabled) : enabled_(enabled) {}
  void write(const AccessRecord& record);
  // A lifecycle event line ({"event": ..., plus fields}) on stdout, flushed.
  static void event(const std::string& json_line);

 private:
  bool enabled_;
};

// Current UTC time as "2025-01-31T12:34:56.789Z".
std::string utc_timestamp();

}  // namespace enygma::server
