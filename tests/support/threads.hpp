// Thread counts for tests of parallel code.
#pragma once

namespace enygma::test {

// The most threads a test may start. WebAssembly runs threads on a fixed pool of 4 Web Workers
// (PTHREAD_POOL_SIZE): a test may not have more than 4 threads alive at once there, or a blocked
// main thread waits for a worker that can never start.
#if defined(__EMSCRIPTEN__)
constexpr unsigned kManyThreads = 4;
#else
constexpr unsigned kManyThreads = 8;
#endif

}  // namespace enygma::test
