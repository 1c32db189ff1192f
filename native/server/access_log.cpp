#include "native/server/access_log.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "core/util/json_parse.hpp"

namespace enygma::server {

namespace {

std::mutex& stdout_mutex() {
  static std::mutex mu;
  return mu;
}

double round3(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

}  // namespace

std::string utc_timestamp() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
           tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

void AccessLog::write(const AccessRecord& r) {
  if (!enabled_) return;
  nlohmann::ordered_json j;
  j["time"] = utc_timestamp();
  j["conn"] = r.connection;
  j["method"] = r.method;
  j["path"] = r.path.size() > 256 ? r.path.substr(0, 256) + "..." : r.path;
  j["status"] = r.status;
  j["bytes"] = r.bytes;
  j["duration_ms"] = round3(r.duration_ms);
  if (!r.circuit.empty()) j["circuit"] = r.circuit;
  if (r.queue_wait_ms) j["queue_wait_ms"] = round3(*r.queue_wait_ms);
  if (r.work_ms) j["work_ms"] = round3(*r.work_ms);
  const std::string line = json_text(j);
  std::lock_guard lock(stdout_mutex());
  fwrite(line.data(), 1, line.size(), stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

void AccessLog::event(const std::string& json_line) {
  std::lock_guard lock(stdout_mutex());
  fwrite(json_line.data(), 1, json_line.size(), stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

}  // namespace enygma::server
