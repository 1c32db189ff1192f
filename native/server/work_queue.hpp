// Admission control for CPU work: a fixed set of worker threads (each with its own ThreadPool
// for the work's inner parallelism) and a bounded FIFO in front of them. A job is admitted only
// while running + waiting < workers + capacity; otherwise try_submit says no at once and the
// caller answers 503. Memory is therefore bounded by (workers + capacity) jobs.
#pragma once

#include <atomic>
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
  // pool: the worker's pool, or null for a job dropped unstarted because its `cancelled` flag
  // was set while it waited (it should only count itself). queue_wait: time between admission
  // and the start (or the drop) of the job.
  using Job = std::function<void(ThreadPool* pool, std::chrono::steady_clock::duration queue_wait)>;

  WorkQueue(unsigned workers, unsigned capacity, unsigned threads_per_worker);
  ~WorkQueue();  // finishes every admitted job, then joins
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // False when full or closed; the job is then dropped untouched. `cancelled` (if given) must
  // outlive the job (the job holds its owner): a waiting job whose flag is set no longer counts
  // and is dropped at the next admission check (a client gone does not hold a place).
  bool try_submit(Job job, const std::atomic<bool>* cancelled = nullptr);
  // Whether a job would be refused now (the same check, for a refusal before reading a body).
  bool full();
  // Refuse new jobs, let the workers finish every admitted one, join them.
  void close_and_join();

  size_t waiting() const;  // jobs waiting whose flag is not set
  size_t running() const;
  unsigned workers() const { return workers_count_; }
  unsigned capacity() const { return capacity_; }

 private:
  struct Entry {
    Job job;
    std::chrono::steady_clock::time_point admitted;
    const std::atomic<bool>* cancelled = nullptr;
    bool is_cancelled() const { return cancelled && cancelled->load(); }
  };
  void worker_loop(unsigned index);
  // Under mu_: moves the cancelled waiting jobs to `out`, then whether one more would fit.
  bool take_cancelled_and_check(std::vector<Entry>& out);
  // Without mu_: runs each dropped job with no pool, then releases it.
  static void drop(std::vector<Entry>& entries);

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
