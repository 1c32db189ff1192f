#include "core/parallel/dead_stack.hpp"

#include <sodium.h>

namespace enygma {

__attribute__((noinline)) void zero_dead_stack(size_t depth) {
  void* below = __builtin_alloca(depth);
  sodium_memzero(below, depth);
  asm volatile("" : : "r"(below) : "memory");  // the buffer is used: the call is not dropped
}

void zero_dead_stacks(ThreadPool& pool, size_t depth) {
  pool.run_on_every_thread([depth] { zero_dead_stack(depth); });
  zero_dead_stack(depth);  // the caller's, below run_on_every_thread's frames too
}

}  // namespace enygma
