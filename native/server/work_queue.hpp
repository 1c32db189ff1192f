// Admission control for CPU work: a fixed set of worker threads (each with its own ThreadPool
// for the work's inner parallelism) and a bounded FIFO in front of them. A job is admitted only
// while running + waiting < workers + capacity; otherwise try_submit says no at once and the
// caller answers 503. Memory is therefore bounded by (workers + capacity) jobs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/parallel/thread_pool.hpp"

namespace enygma::server {

class WorkQueue {
 public:
  // queue_wait: time between admission and the start of the job.
  using Job = std::function<void(ThreadPool& pool, std::chrono::steady_clock::duration queue_wait)>;

  WorkQueue(unsigned workers, unsigned capacity, unsigned threads_per_worker);
  ~WorkQueue();  // finishes every admitted job, then joins
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // False when full or closed; the job is then dropped untouched.
  bool try_submit(Job job);
  // Refuse new jobs, let the workers finish every admitted one, join them.
  void close_and_join();

  size_t waiting() const;
  size_t running() const;
  unsigned workers() const { return workers_count_; }
  unsigned capacity() const { return capacity_; }

 private:
  struct Entry {
    Job job;
    std::chrono::steady_clock::time_point admitted;
  };
  void worker_loop(unsigned index);

  const unsigned workers_count_;
  const unsigned capacity_;
  std::vector<std::unique_ptr<ThreadPool>> pools_;
  std::vector<std::thread> threads_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Entry> waiting_;
  size_t running_ = 0;
  bool closed_ = false;
};

}  // namespace enygma::server
