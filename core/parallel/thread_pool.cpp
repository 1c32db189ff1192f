#include "core/parallel/thread_pool.hpp"

#include <algorithm>
#include <chrono>

namespace enygma {

namespace {
// The pool whose job the current thread is executing (nested calls run inline).
thread_local const ThreadPool* tl_current_pool = nullptr;

// Before blocking on a condition variable, a worker waiting for the next job and a caller
// waiting for the workers poll for up to 250 us, yielding the CPU between polls. Measured on
// the 2-vCPU development VM: a thread woken from a futex while its waker computes is queued on
// the waker's CPU and starts only when the waker blocks or yields (~500 us late, against ~6 us
// when the waker waits), so a job that follows another within the window finds its worker
// awake; and since the poll yields, a thread queued behind the poller runs at once instead of
// waiting out the window. groth16_bench BM_Verify/2 back to back: 939-1,047 us without it.
constexpr auto kPollWindow = std::chrono::microseconds(250);

template <class Ready>
void poll_briefly(const Ready& ready) {
  const auto deadline = std::chrono::steady_clock::now() + kPollWindow;
  while (!ready() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
}
}  // namespace

unsigned ThreadPool::hardware_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

ThreadPool::ThreadPool(unsigned threads) : size_(threads == 0 ? hardware_threads() : threads) {
  try {
    workers_.reserve(size_ - 1);
    for (unsigned i = 1; i < size_; ++i) workers_.emplace_back([this] { worker_loop(); });
  } catch (...) {
    // A thread the system refused (std::system_error): the ones started are stopped and joined,
    // so the caller gets the exception instead of std::terminate from a joinable thread.
    stop_and_join();
    throw;
  }
}

ThreadPool::~ThreadPool() {
  stop_and_join();
}

void ThreadPool::stop_and_join() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    poll_briefly([&] { return generation_.load(std::memory_order_acquire) != seen; });
    std::unique_lock<std::mutex> lk(mu_);
    wake_.wait(lk, [&] { return stop_ || generation_.load(std::memory_order_relaxed) != seen; });
    if (stop_) return;
    seen = generation_.load(std::memory_order_relaxed);
    const std::function<void(size_t)>* job = job_;
    const size_t chunks = job_chunks_;
    lk.unlock();

    tl_current_pool = this;
    for (;;) {
      size_t c = next_chunk_.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) break;
      try {
        (*job)(c);
      } catch (...) {
        std::lock_guard<std::mutex> g(mu_);
        if (!error_) error_ = std::current_exception();
      }
    }
    tl_current_pool = nullptr;

    lk.lock();
    if (--active_workers_ == 0) done_cv_.notify_all();
  }
}

void ThreadPool::run_job(size_t chunks, const std::function<void(size_t)>& chunk_fn) {
  if (chunks == 0) return;
  if (chunks == 1 || workers_.empty() || tl_current_pool == this) {
    for (size_t c = 0; c < chunks; ++c) chunk_fn(c);
    return;
  }
  std::lock_guard<std::mutex> submit(submit_mu_);
  {
    std::lock_guard<std::mutex> lk(mu_);
    job_ = &chunk_fn;
    job_chunks_ = chunks;
    next_chunk_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    active_workers_.store(workers_.size(), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();

  const ThreadPool* outer = tl_current_pool;
  tl_current_pool = this;
  std::exception_ptr caller_error;
  for (;;) {
    size_t c = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (c >= chunks) break;
    try {
      chunk_fn(c);
    } catch (...) {
      if (!caller_error) caller_error = std::current_exception();
    }
  }
  tl_current_pool = outer;

  std::exception_ptr err;
  poll_briefly([&] { return active_workers_.load(std::memory_order_acquire) == 0; });
  {
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return active_workers_.load(std::memory_order_relaxed) == 0; });
    job_ = nullptr;
    err = caller_error ? caller_error : error_;
    error_ = nullptr;
  }
  if (err) std::rethrow_exception(err);
}

void ThreadPool::parallel_for(size_t n, const std::function<void(size_t, size_t)>& f,
                              size_t min_chunk) {
  if (n == 0) return;
  min_chunk = std::max<size_t>(min_chunk, 1);
  size_t chunks = std::min<size_t>((n + min_chunk - 1) / min_chunk, size_t(size_) * 4);
  if (chunks <= 1 || workers_.empty() || tl_current_pool == this) {
    f(0, n);
    return;
  }
  run_job(chunks, [&](size_t c) { f(n * c / chunks, n * (c + 1) / chunks); });
}

void ThreadPool::run_on_every_thread(const std::function<void()>& f) {
  const size_t threads = size_;
  std::atomic<size_t> started{0};
  run_tasks(threads, [&](size_t) {
    started.fetch_add(1);
    while (started.load() < threads) std::this_thread::yield();
    f();
  });
}

void ThreadPool::run_tasks(size_t tasks, const std::function<void(size_t)>& f) {
  run_job(tasks, f);
}

ThreadPool& sequential_pool() {
  static ThreadPool pool(1);
  return pool;
}

}  // namespace enygma
