// A small fixed-size thread pool with parallel_for: the only source of parallelism in core/.
// Natively its workers are std::threads; under Emscripten with -pthread they are Web Workers
// taken from the PTHREAD_POOL_SIZE pool (create the pool before the page needs it).
//
// Semantics:
// - parallel_for(n, f) calls f(begin, end) on disjoint chunks covering [0, n) and returns when
//   all have finished. The calling thread works too, so a pool of size 1 has no worker threads
//   and runs everything inline.
// - One job runs at a time per pool; concurrent callers from different threads are serialised.
// - A parallel_for issued from inside a running job (nested) runs inline on the calling thread.
// - If f throws, the first exception is rethrown in the caller after the job has drained.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace enygma {

class ThreadPool {
 public:
  // threads >= 1 is the total parallelism including the caller; 0 means hardware concurrency.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return size_; }

  // f(begin, end) over [0, n) in chunks of at least min_chunk items.
  void parallel_for(size_t n, const std::function<void(size_t, size_t)>& f, size_t min_chunk = 1);

  // f(i) for each task i in [0, tasks), one task per call (use when tasks are coarse).
  void run_tasks(size_t tasks, const std::function<void(size_t)>& f);

  // f() once on every thread of the pool, the caller's included (not from inside a job): one
  // task each, every task waiting until all have started, so that no thread takes two.
  void run_on_every_thread(const std::function<void()>& f);

  static unsigned hardware_threads();

 private:
  void worker_loop();
  void stop_and_join();
  void run_job(size_t chunks, const std::function<void(size_t)>& chunk_fn);

  unsigned size_;
  std::vector<std::thread> workers_;
  std::mutex submit_mu_;  // serialises jobs

  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable done_cv_;
  const std::function<void(size_t)>* job_ = nullptr;
  size_t job_chunks_ = 0;
  std::atomic<size_t> next_chunk_{0};
  std::atomic<size_t> active_workers_{0};
  std::atomic<uint64_t> generation_{0};
  bool stop_ = false;
  std::exception_ptr error_;
};

// A pool of size 1 that never starts a thread, for callers that want sequential execution.
ThreadPool& sequential_pool();

}  // namespace enygma
