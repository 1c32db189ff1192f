#include "native/server/work_queue.hpp"

#include <algorithm>

#include "core/parallel/dead_stack.hpp"

namespace enygma::server {

WorkQueue::WorkQueue(unsigned workers, unsigned capacity, unsigned threads_per_worker)
    : workers_count_(workers), capacity_(capacity) {
  for (unsigned i = 0; i < workers; ++i) {
    pools_.push_back(std::make_unique<ThreadPool>(threads_per_worker));
  }
  try {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { worker_loop(i); });
  } catch (...) {
    close_and_join();  // the workers started; then the system's refusal reaches the caller
    throw;
  }
}

WorkQueue::~WorkQueue() {
  close_and_join();
}

bool WorkQueue::take_cancelled_and_check(std::vector<Entry>& out) {
  // One pass (the queue may be long): the kept entries slide forward in order.
  size_t kept = 0;
  for (size_t i = 0; i < waiting_.size(); ++i) {
    if (waiting_[i].is_cancelled()) {
      out.push_back(std::move(waiting_[i]));
    } else if (kept++ != i) {
      waiting_[kept - 1] = std::move(waiting_[i]);
    }
  }
  waiting_.resize(kept);
  return !closed_ && waiting_.size() + running_ < size_t{workers_count_} + capacity_;
}

void WorkQueue::drop(std::vector<Entry>& entries) {
  for (Entry& entry : entries) {
    try {
      entry.job(nullptr, std::chrono::steady_clock::now() - entry.admitted);
    } catch (...) {
      // Counting itself cannot fail in a way that matters here.
    }
    entry.job = nullptr;
  }
}

bool WorkQueue::try_submit(Job job, const std::atomic<bool>* cancelled) {
  std::vector<Entry> dropped;
  bool admitted = false;
  {
    std::lock_guard lock(mu_);
    if (take_cancelled_and_check(dropped)) {
      waiting_.push_back(Entry{std::move(job), std::chrono::steady_clock::now(), cancelled});
      admitted = true;
    }
  }
  if (admitted) wake_.notify_one();
  drop(dropped);
  return admitted;
}

bool WorkQueue::full() {
  std::vector<Entry> dropped;
  bool fits = false;
  {
    std::lock_guard lock(mu_);
    fits = take_cancelled_and_check(dropped);
  }
  drop(dropped);
  return !fits;
}

void WorkQueue::close_and_join() {
  {
    std::lock_guard lock(mu_);
    closed_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

size_t WorkQueue::waiting() const {
  std::lock_guard lock(mu_);
  return size_t(std::count_if(waiting_.begin(), waiting_.end(),
                              [](const Entry& e) { return !e.is_cancelled(); }));
}

size_t WorkQueue::running() const {
  std::lock_guard lock(mu_);
  return running_;
}

void WorkQueue::worker_loop(unsigned index) {
  ThreadPool& pool = *pools_[index];
  std::unique_lock lock(mu_);
  for (;;) {
    // Closing stops admission only: the queue is emptied before the workers leave.
    wake_.wait(lock, [&] { return closed_ || !waiting_.empty(); });
    if (waiting_.empty()) return;
    Entry entry = std::move(waiting_.front());
    waiting_.pop_front();
    ++running_;
    lock.unlock();
    try {
      entry.job(entry.is_cancelled() ? nullptr : &pool,
                std::chrono::steady_clock::now() - entry.admitted);
    } catch (...) {
      // A job answers its own errors (the server's catches what its work throws); whatever
      // still escapes must not end the server.
    }
    entry.job = nullptr;  // release what the job holds (its connection) outside the lock
    // The job saw a request's secrets: its frames' locals stay on the stacks of this thread and
    // of its pool until overwritten.
    zero_dead_stacks(pool);
    lock.lock();
    --running_;
  }
}

}  // namespace enygma::server
