// Thread counts for tests of parallel code.
#pragma once

namespace enygma::test {

// The most threads one pool of a test may have. WebAssembly runs threads on a fixed pool of 8 Web
// Workers (PTHREAD_POOL_SIZE in tests/CMakeLists.txt): a test may not have more than 8 threads
// alive at once there, counting every pool it holds (a ThreadPool(n) starts n - 1), or a blocked
// main thread waits for a worker that can never start.
#if defined(__EMSCRIPTEN__)
constexpr unsigned kManyThreads = 4;
#else
constexpr unsigned kManyThreads = 8;
#endif

}  // namespace enygma::test
