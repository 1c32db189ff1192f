#!/usr/bin/env bash
# Builds the third-party libraries of the WebAssembly target from Debian's source packages and
# installs them into PREFIX (lib/ and include/):
#   - libsodium 1.0.18 (`apt-get source libsodium`), static, minimal API, no assembly, compiled
#     by scripts/wasm-deps/libsodium/CMakeLists.txt (its configure's choices, without autotools;
#     scripts/check-wasm-sodium.sh compares the two builds);
#   - Google Benchmark 1.7.1 (`apt-get source benchmark`), for bench/ under Node.
# Both are compiled with -pthread (atomics + bulk memory): wasm-ld refuses to link objects
# without these features into the project's shared-memory (-pthread) module.
#
# Usage: scripts/build-wasm-deps.sh PREFIX [libsodium] [benchmark]   (no name: both)
# The module, the page and the tests need libsodium only; the benchmark programs need Google
# Benchmark too (`make wasm-deps` builds the first, `make wasm-bench-deps` the second).
# Cached: does nothing for a library that PREFIX holds from this same script, toolchain and
# emcc (its stamp: PREFIX/.enygma-wasm-<name>).
# Needs the deb-src entry and the packages of scripts/setup-deps.sh.
# Its time: docs/performance.md, "Build, test and CI times".
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 PREFIX [libsodium] [benchmark]" >&2
  exit 2
fi
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
shift
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(libsodium benchmark)
for name in "${wanted[@]}"; do
  case "$name" in
    libsodium | benchmark) ;;
    *) echo "$0: unknown library '$name' (libsodium, benchmark)" >&2; exit 2 ;;
  esac
done
jobs=${ENYGMA_JOBS:-$(nproc)}
say() { echo "build-wasm-deps: $*" >&2; }

# One build at a time per PREFIX (two `make` runs at once would delete each other's work).
exec 9>"$prefix/.lock"
flock 9

key="$(cd "$repo_root" && sha256sum scripts/build-wasm-deps.sh toolchains/emscripten.cmake \
         toolchains/emcc-compile scripts/wasm-deps/libsodium/CMakeLists.txt |
       cut -d' ' -f1 | tr '\n' ' ')$(emcc --version 2>/dev/null | sed -n 1p)"
library_of() {  # NAME: the file that shows it is installed
  case "$1" in
    libsodium) echo "$prefix/lib/libsodium.a" ;;
    benchmark) echo "$prefix/lib/libbenchmark.a" ;;
  esac
}
todo=()
for name in "${wanted[@]}"; do
  stamp="$prefix/.enygma-wasm-$name"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && [ -f "$(library_of "$name")" ]; then
    continue
  fi
  todo+=("$name")
done
[ ${#todo[@]} -gt 0 ] || exit 0

say "building ${todo[*]} for WebAssembly into $prefix"
work="$prefix/.src"
rm -rf "$work"
mkdir -p "$work"
cd "$work"

# Emscripten's link step (CMake's compiler checks too) runs its JS optimizer in Node, which
# needs Debian's acorn module (see toolchains/emscripten.cmake).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

fetch_source() {  # apt-get source PACKAGE, unpacked and patched, quietly
  if ! apt-get source -qq "$1" >"$work/apt-$1.log" 2>&1; then
    cat "$work/apt-$1.log" >&2
    say "apt-get source $1 failed: run scripts/setup-deps.sh (adds the deb-src entry)"
    exit 1
  fi
}

build_libsodium() {
  # Compiled by CMake from the files and definitions that the package's configure selects for
  # this host (scripts/wasm-deps/libsodium/CMakeLists.txt says which and why), without running
  # that configure. CFLAGS as configure has them: -O3 -pthread, no -DNDEBUG (no build type).
  cmake -S "$repo_root/scripts/wasm-deps/libsodium" -B "$work/libsodium-build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$repo_root/toolchains/emscripten.cmake" -DCMAKE_BUILD_TYPE= \
    -DCMAKE_C_FLAGS="-O3 -pthread" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DSODIUM_SOURCE_DIR="$(echo "$work"/libsodium-*/)"
  cmake --build "$work/libsodium-build" -j"$jobs"
  cmake --install "$work/libsodium-build"
}

build_benchmark() {
  local src
  src=$(echo "$work"/benchmark-*/)
  # GIT_VERSION: Debian's patch 0001 stops reading git tags; its rules pass the version.
  # The check results are given, not probed: each of its ~20 configure checks is a CMake
  # try_compile that re-runs the Emscripten platform file and emcc (~6 CPU-seconds each).
  # Warning flags are left off (a third-party library), the POSIX regex backend is chosen
  # (std::regex needs exceptions, which Emscripten builds without) and a steady clock exists.
  local no_flag=()
  for f in WALL WEXTRA WSHADOW WFLOAT_EQUAL WSUGGEST_OVERRIDE PEDANTIC PEDANTIC_ERRORS \
           WSHORTEN_64_TO_32 FSTRICT_ALIASING WNO_DEPRECATED_DECLARATIONS WSTRICT_ALIASING \
           WD654 WTHREAD_SAFETY COVERAGE WERROR WNO_DEPRECATED; do
    no_flag+=("-DHAVE_CXX_FLAG_$f=OFF")
  done
  cmake -S "$src" -B "$work/benchmark-build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$repo_root/toolchains/emscripten.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
    -DGIT_VERSION="$(basename "$src" | sed 's/^benchmark-//')" \
    -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_GTEST_TESTS=OFF \
    -DBENCHMARK_ENABLE_WERROR=OFF -DBENCHMARK_INSTALL_DOCS=OFF -DBENCHMARK_ENABLE_LTO=OFF \
    -DBUILD_SHARED_LIBS=OFF "${no_flag[@]}" -DCMAKE_HAVE_LIBC_PTHREAD=ON \
    -DHAVE_POSIX_REGEX=ON -DHAVE_STEADY_CLOCK=ON \
    -DCOMPILE_HAVE_STD_REGEX=OFF -DRUN_HAVE_STD_REGEX=1 \
    -DCOMPILE_HAVE_GNU_POSIX_REGEX=OFF -DRUN_HAVE_GNU_POSIX_REGEX=1
  cmake --build "$work/benchmark-build" -j"$jobs"
  cmake --install "$work/benchmark-build"
}

run_logged() {  # NAME FUNCTION: runs it with output to a log, prints the log on failure
  local t0=$SECONDS rc=0
  # Started in the background and waited for: a function run as an `if` or `||` operand
  # would run with set -e switched off and carry on past a failed step.
  ("$2") >"$work/$1.log" 2>&1 &
  wait $! || rc=$?
  if [ $rc -ne 0 ]; then
    tail -60 "$work/$1.log" >&2
    say "$1 failed; full log: $work/$1.log"
    return 1
  fi
  say "$1: $((SECONDS - t0)) s"
}
remove_installed() {  # NAME: what an earlier build of it installed into PREFIX
  rm -f "$prefix/.enygma-wasm-$1"
  case "$1" in
    libsodium) rm -rf "$prefix/lib/libsodium.a" "$prefix/include/sodium.h" \
                      "$prefix/include/sodium" ;;
    benchmark) rm -rf "$prefix"/lib/libbenchmark*.a "$prefix/include/benchmark" \
                      "$prefix/lib/cmake/benchmark" "$prefix/lib/pkgconfig/benchmark.pc" ;;
  esac
}

# Side by side when both are to be built: each has a serial configure step.
pids=()
for name in "${todo[@]}"; do
  remove_installed "$name"
  fetch_source "$name"
  run_logged "$name" "build_$name" &
  pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do
  wait "$pid" || rc=1
done
[ $rc -eq 0 ] || exit 1

for name in "${todo[@]}"; do
  [ -f "$(library_of "$name")" ] || { say "missing $(library_of "$name")"; exit 1; }
  echo "$key" >"$prefix/.enygma-wasm-$name"
done
cd "$prefix"
rm -rf "$work"
say "done"
