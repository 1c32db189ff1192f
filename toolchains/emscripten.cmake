# WebAssembly toolchain: Debian's Emscripten 3.1.6 (clang 14, wasm32), multi-threaded.
#
#   cmake -S . -B build-wasm -DCMAKE_TOOLCHAIN_FILE=toolchains/emscripten.cmake \
#         -DENYGMA_WASM_DEPS=<prefix from scripts/build-wasm-deps.sh>
#
# Wraps Debian's platform file and adds what every target of this project needs:
# - -pthread on every C and C++ compile and link: the module runs the thread pool on Web
#   Workers over a shared memory. Every object linked in (libsodium, Google Benchmark,
#   GoogleTest too) must be built with it (atomics + bulk-memory), or wasm-ld refuses to link
#   a shared memory.
# - Release is CMake's default for Clang, -O3 -DNDEBUG; CMake passes the same flags to the
#   link step, where emcc then runs binaryen's wasm-opt -O3.
# - Tests and benchmarks run under Node through CMAKE_CROSSCOMPILING_EMULATOR (CTest uses it
#   for add_test). Emscripten 3.1.6 output loads its .wasm with fetch() when a global fetch
#   exists, which Node >= 18 has and which cannot read file paths: --no-experimental-fetch
#   hides it, so the output reads the file with fs. Wasm threads and bulk memory need no
#   flag in Node >= 16.
# - Configure checks (try_compile) build a static library instead of a program: nothing can
#   run anyway when cross-compiling, and each emcc link costs seconds, which adds up over the
#   dozens of checks that GoogleTest, Google Benchmark and find_package(Threads) make.
# - Compile-only commands skip emcc's ~0.8 CPU-second Python start-up and run clang directly
#   with the flags `emcc --cflags -pthread` prints (toolchains/emcc-compile), once a sample
#   compiled both ways gives the same object file. -DENYGMA_EMCC_DIRECT=OFF turns this off.
# - Linking runs Emscripten's JS optimizer in Node, which needs the 'acorn' module from
#   Debian's node-acorn in /usr/share/nodejs. Debian's own nodejs searches there; other Node
#   builds (NodeSource's) do not, hence NODE_PATH on every link step.

if(NOT DEFINED ENYGMA_EMSCRIPTEN_ROOT)
  if(DEFINED ENV{EMSCRIPTEN} AND EXISTS "$ENV{EMSCRIPTEN}/cmake/Modules/Platform/Emscripten.cmake")
    set(ENYGMA_EMSCRIPTEN_ROOT "$ENV{EMSCRIPTEN}")
  else()
    set(ENYGMA_EMSCRIPTEN_ROOT /usr/share/emscripten)
  endif()
endif()
set(ENYGMA_NODE_MODULES /usr/share/nodejs)

# The emulator must be defined before the platform file, which otherwise sets plain `node`.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(ENYGMA_NODE NAMES node nodejs REQUIRED)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${ENYGMA_NODE};--no-experimental-fetch" CACHE STRING
      "Runs WebAssembly test and benchmark programs")
endif()

include("${ENYGMA_EMSCRIPTEN_ROOT}/cmake/Modules/Platform/Emscripten.cmake")

set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_FLAGS_INIT "-pthread")
set(CMAKE_CXX_FLAGS_INIT "-pthread")
# -Wno-pthreads-mem-growth: emcc warns on every link that JS reading a growable shared heap is
# slower; our JS glue is small and the heap must grow (proving keys, MSM buffers).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-pthread -Wno-pthreads-mem-growth")

set(_enygma_node_path "${ENYGMA_NODE_MODULES}")
if(DEFINED ENV{NODE_PATH} AND NOT "$ENV{NODE_PATH}" STREQUAL "")
  string(APPEND _enygma_node_path ":$ENV{NODE_PATH}")
endif()
set(CMAKE_C_LINKER_LAUNCHER "env;NODE_PATH=${_enygma_node_path}")
set(CMAKE_CXX_LINKER_LAUNCHER "env;NODE_PATH=${_enygma_node_path}")

# ---- compile-only commands straight to clang (see toolchains/emcc-compile) ----------------
option(ENYGMA_EMCC_DIRECT "Run clang directly for compile-only commands" ON)
if(ENYGMA_EMCC_DIRECT AND NOT CMAKE_IN_TRY_COMPILE)
  if(NOT DEFINED ENYGMA_EMCC_DIRECT_LAUNCHER_CXX)
    set(_dir "${CMAKE_BINARY_DIR}/CMakeFiles/enygma-emcc-direct")
    file(MAKE_DIRECTORY "${_dir}")
    # The clang that emcc runs, from its verbose output, and the flags it adds.
    execute_process(COMMAND em++ -v -E -pthread -x c++ /dev/null
                    OUTPUT_QUIET ERROR_VARIABLE _verbose RESULT_VARIABLE _rc1)
    execute_process(COMMAND em++ --cflags -pthread
                    OUTPUT_VARIABLE _cflags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc2)
    string(REGEX MATCH "\"([^\"]*clang\\+\\+[^\"]*)\"" _m "${_verbose}")
    set(_clangxx "${CMAKE_MATCH_1}")
    string(REPLACE "clang++" "clang" _clang "${_clangxx}")
    set(_ok FALSE)
    if(_rc1 EQUAL 0 AND _rc2 EQUAL 0 AND EXISTS "${_clangxx}" AND EXISTS "${_clang}")
      separate_arguments(_cflags UNIX_COMMAND "${_cflags}")
      file(WRITE "${_dir}/sample.cpp"
           "#include <atomic>\n#include <vector>\nstd::atomic<int> n;\n"
           "int f(std::vector<int>& v) { static int once = int(v.size()); return ++n + once; }\n")
      set(_args -O2 -pthread -std=c++20 -c "${_dir}/sample.cpp")
      execute_process(COMMAND em++ ${_args} -o "${_dir}/by-emcc.o" RESULT_VARIABLE _rc3)
      execute_process(COMMAND "${_clangxx}" ${_cflags} ${_args} -o "${_dir}/by-clang.o"
                      RESULT_VARIABLE _rc4)
      if(_rc3 EQUAL 0 AND _rc4 EQUAL 0)
        file(SHA256 "${_dir}/by-emcc.o" _h1)
        file(SHA256 "${_dir}/by-clang.o" _h2)
        if(_h1 STREQUAL _h2)
          set(_ok TRUE)
        endif()
      endif()
    endif()
    if(_ok)
      set(_launcher "${CMAKE_CURRENT_LIST_DIR}/emcc-compile")
      set(ENYGMA_EMCC_DIRECT_LAUNCHER_C "${_launcher};${_clang};${_cflags};--" CACHE INTERNAL "")
      set(ENYGMA_EMCC_DIRECT_LAUNCHER_CXX "${_launcher};${_clangxx};${_cflags};--" CACHE INTERNAL "")
      message(STATUS "Compile-only commands run ${_clangxx} directly")
    else()
      set(ENYGMA_EMCC_DIRECT_LAUNCHER_C "" CACHE INTERNAL "")
      set(ENYGMA_EMCC_DIRECT_LAUNCHER_CXX "" CACHE INTERNAL "")
      message(STATUS "Compile-only commands run through emcc (direct clang gave another object)")
    endif()
  endif()
  if(ENYGMA_EMCC_DIRECT_LAUNCHER_CXX)
    set(CMAKE_C_COMPILER_LAUNCHER "${ENYGMA_EMCC_DIRECT_LAUNCHER_C}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${ENYGMA_EMCC_DIRECT_LAUNCHER_CXX}")
  endif()
endif()
