# Native release toolchain: g++ (Debian 12: g++ 12), optimized for speed, portable to ANY x86-64.
#
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=toolchains/native-release.cmake
#
# - No -march=native (nor any -m<isa> flag): the binary must run on every x86-64 CPU. The
#   field multiplication picks its MULX/ADCX/ADOX kernel at run time when the CPU has
#   BMI2 + ADX (core/field/cpu_features.hpp), so the fast path needs no build flag.
# - -O3 -DNDEBUG for Release (CMAKE_BUILD_TYPE defaults to Release in CMakeLists.txt).
# - -fno-plt: calls into shared libraries (libsodium, libstdc++) go through the GOT directly
#   instead of a PLT stub; a small, free saving with no portability cost.
# Debug/sanitizer configurations do not use this file (see Makefile: test-sanitize).

set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)

# CMake's GNU module appends its defaults to these (" -O3 -DNDEBUG" for Release), so only the
# additions are listed here.
set(CMAKE_C_FLAGS_RELEASE_INIT "-fno-plt")
set(CMAKE_CXX_FLAGS_RELEASE_INIT "-fno-plt")
set(CMAKE_C_FLAGS_RELWITHDEBINFO_INIT "-fno-plt")
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO_INIT "-fno-plt")
