#include "native/server/work_queue.hpp"

#include "core/parallel/dead_stack.hpp"

namespace enygma::server {

WorkQueue::WorkQueue(unsigned workers, unsigned capacity, unsigned threads_per_worker)
    : workers_count_(workers), capacity_(capacity) {
  for (unsigned i = 0; i < workers; ++i) {
    pools_.push_back(std::make_unique<ThreadPool>(threads_per_worker));
  }
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { worker_loop(i); });
}

WorkQueue::~WorkQueue() {
  close_and_join();
}

bool WorkQueue::try_submit(Job job) {
  {
    std::lock_guard lock(mu_);
    if (closed_ || waiting_.size() + running_ >= size_t{workers_count_} + capacity_) return false;
    waiting_.push_back(Entry{std::move(job), std::chrono::steady_clock::now()});
  }
  wake_.notify_one();
  return true;
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
  return waiting_.size();
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
      entry.job(pool, std::chrono::steady_clock::now() - entry.admitted);
    } catch (...) {
      // A job answers its own errors; one that escapes (bad_alloc) must not end the server.
      // The job's connection is then closed without an answer when the job is released.
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
