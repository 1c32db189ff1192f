// The dead part of threads' stacks zeroed: below the current frame, where the locals of finished
// calls (a secret key, witness values, a proof's blinding) stay until the stack grows over them
// again. For long-lived threads that saw secrets (the server's workers and their pools, after
// each job). Heap buffers are wiped by their owners (core/util/secure_vector.hpp).
#pragma once

#include <cstddef>

#include "core/parallel/thread_pool.hpp"

namespace enygma {

// Deeper than any call of the prover goes (the tests search the whole stack after a proof).
constexpr size_t kDeadStackDepth = size_t(256) << 10;

// The calling thread's stack, `depth` bytes below this call.
void zero_dead_stack(size_t depth = kDeadStackDepth);

// zero_dead_stack on every thread of the pool, the caller's included (not from inside a job).
void zero_dead_stacks(ThreadPool& pool, size_t depth = kDeadStackDepth);

}  // namespace enygma
