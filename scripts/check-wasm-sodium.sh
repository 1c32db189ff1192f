#!/usr/bin/env bash
# Checks scripts/wasm-deps/libsodium/CMakeLists.txt against libsodium's own build: compiles
# Debian's libsodium source package for WebAssembly both with its autotools (configure with the
# options that CMakeLists.txt names, then make) and with that CMake project, and compares every
# object file. Exit 0 when both builds compile the same files to the same bytes; otherwise it
# names the files that differ or are missing. `make check-wasm-sodium` (most of its time is
# libsodium's configure). Run it after Debian's libsodium or Emscripten changes.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "check-wasm-sodium: $*" >&2; }
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
jobs=${ENYGMA_JOBS:-$(nproc)}

cd "$work"
if ! apt-get source -qq libsodium >"$work/apt.log" 2>&1; then
  cat "$work/apt.log" >&2
  say "apt-get source libsodium failed: run scripts/setup-deps.sh (adds the deb-src entry)"
  exit 1
fi
src=$(echo "$work"/libsodium-*/)
src=${src%/}
# Two copies: the autotools build writes into its source tree.
cp -a "$src" "$work/autotools"

say "autotools build (configure + make)"
(
  cd "$work/autotools"
  # autogen.sh would fetch config.guess/config.sub with curl (no network here); autoreconf
  # installs automake's copies, which know wasm32-unknown-emscripten. LDFLAGS ends in -O0:
  # configure links its probe programs, and emcc at -O3 would optimize each; the library's
  # objects are compiled with CFLAGS.
  DO_NOT_UPDATE_CONFIG_SCRIPTS=1 ./autogen.sh -s
  emconfigure ./configure CC=emcc --host=wasm32-unknown-emscripten --disable-asm --disable-ssp \
    --without-pthreads --enable-minimal --disable-shared --disable-pie \
    CFLAGS="-O3 -pthread" LDFLAGS="-pthread -O0"
  emmake make -j"$jobs"
) >"$work/autotools.log" 2>&1 ||
  { tail -40 "$work/autotools.log" >&2; say "autotools build failed"; exit 1; }

say "CMake build (scripts/wasm-deps/libsodium)"
(
  cmake -S "$repo_root/scripts/wasm-deps/libsodium" -B "$work/cmake-build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$repo_root/toolchains/emscripten.cmake" -DCMAKE_BUILD_TYPE= \
    -DCMAKE_C_FLAGS="-O3 -pthread" -DSODIUM_SOURCE_DIR="$src"
  cmake --build "$work/cmake-build" -j"$jobs"
) >"$work/cmake.log" 2>&1 ||
  { tail -40 "$work/cmake.log" >&2; say "CMake build failed"; exit 1; }

# libtool names an object dir/lib<name>_la-<file>.o; CMake names it <source path>.c.o.
total=0
same=0
bad=()
objects="$work/cmake-build/CMakeFiles/sodium.dir$src/src/libsodium"
while IFS= read -r obj; do
  rel=${obj#"$work/autotools/src/libsodium/"}
  file=$(basename "$rel" .o)
  file=${file#lib*_la-}
  source_rel="$(dirname "$rel")/$file.c"
  total=$((total + 1))
  if cmp -s "$obj" "$objects/$source_rel.o"; then
    same=$((same + 1))
  else
    bad+=("$source_rel")
  fi
done < <(find "$work/autotools/src/libsodium" -name '*.o' | sort)
cmake_total=$(find "$objects" -name '*.c.o' | wc -l)

say "$same of $total autotools objects identical in the CMake build ($cmake_total objects there)"
if [ ${#bad[@]} -gt 0 ] || [ "$cmake_total" -ne "$total" ] || [ "$total" -eq 0 ]; then
  for f in "${bad[@]}"; do say "differs or missing: $f"; done
  [ "$cmake_total" -eq "$total" ] ||
    say "the CMake build compiles $cmake_total files, autotools $total"
  exit 1
fi
