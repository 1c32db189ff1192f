#include "native/server/access_log.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <deque>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/util/json_parse.hpp"
#include "native/common/file_io.hpp"
#include "native/server/config.hpp"

namespace enygma::server {

namespace {

// The queue of lines for stdout and the thread that writes them (write(2) on fd 1, not stdio:
// nothing of the log is held in a FILE buffer). Never destroyed: a writer blocked on a stalled
// stdout must not hold the process's exit.
class LineWriter {
 public:
  static LineWriter& get() {
    static LineWriter* writer = new LineWriter;
    return *writer;
  }
  void push(std::string line, bool droppable) {
    std::unique_lock lock(mu_);
    if (droppable && queued_bytes_ + line.size() + 1 > limit_) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    queued_bytes_ += line.size() + 1;  // with its newline
    lines_.push_back(std::move(line));
    ++pushed_;
    if (!started_) {
      started_ = true;
      std::thread([this] { run(); }).detach();
    }
    wake_.notify_one();
  }
  // Until every line pushed so far is written, or `limit` has passed.
  void wait_written(std::chrono::milliseconds limit) {
    std::unique_lock lock(mu_);
    const uint64_t target = pushed_;
    written_cv_.wait_for(lock, limit, [&] { return written_ >= target; });
  }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  void set_limit(size_t bytes) {
    std::lock_guard lock(mu_);
    limit_ = bytes;
  }

 private:
  void run() {
    std::unique_lock lock(mu_);
    for (;;) {
      wake_.wait(lock, [&] { return !lines_.empty(); });
      std::deque<std::string> batch;
      batch.swap(lines_);
      lock.unlock();
      std::string text;
      for (auto& line : batch) (text += line) += '\n';
      // stdout closed: the lines are lost, as a closed log would lose them
      (void)native::write_all(STDOUT_FILENO, text.data(), text.size());
      lock.lock();
      queued_bytes_ -= text.size();
      written_ += batch.size();
      written_cv_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable wake_, written_cv_;
  std::deque<std::string> lines_;
  size_t queued_bytes_ = 0;
  size_t limit_ = kDefaultAccessLogQueue;  // until a server sets its own
  uint64_t pushed_ = 0, written_ = 0;
  bool started_ = false;
  std::atomic<uint64_t> dropped_{0};
};

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

AccessLog::AccessLog(bool enabled, size_t queue_bytes) : enabled_(enabled) {
  LineWriter::get().set_limit(queue_bytes);
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
  LineWriter::get().push(json_text(j), /*droppable=*/true);
}

void AccessLog::event(const std::string& json_line) {
  fflush(stdout);  // anything printed before through stdio comes first
  LineWriter::get().push(json_line, /*droppable=*/false);
}

void AccessLog::flush(std::chrono::milliseconds limit) {
  LineWriter::get().wait_written(limit);
}

uint64_t AccessLog::dropped_access_lines() {
  return LineWriter::get().dropped();
}

}  // namespace enygma::server
