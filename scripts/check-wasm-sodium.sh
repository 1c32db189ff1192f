#!/usr/bin/env bash
# Checks the WebAssembly libsodium that scripts/build-wasm-deps.sh builds (with
# scripts/wasm-deps/libsodium/CMakeLists.txt) against libsodium's own build: builds it with that
# script into a temporary folder, builds Debian's libsodium source package with its autotools
# (configure with the options that CMakeLists.txt names, then make), and compares every object
# of the two static libraries. Exit 0 when both hold the same objects with the same bytes;
# otherwise it names the objects that differ or are missing. `make check-wasm-sodium` (most of
# its time is libsodium's configure). Run it after Debian's libsodium or Emscripten changes.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "check-wasm-sodium: $*" >&2; }
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
jobs=${ENYGMA_JOBS:-$(nproc)}

say "the project's build (scripts/build-wasm-deps.sh)"
"$repo_root/scripts/build-wasm-deps.sh" "$work/prefix" libsodium

say "autotools build (configure + make)"
cd "$work"
if ! apt-get source -qq libsodium >"$work/apt.log" 2>&1; then
  cat "$work/apt.log" >&2
  say "apt-get source libsodium failed: run scripts/setup-deps.sh (adds the deb-src entry)"
  exit 1
fi
(
  cd "$work"/libsodium-*/
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

# The two libraries' objects, each in a folder of its own. libtool names an object
# lib<name>_la-<file>.o, CMake <file>.c.o (no two of libsodium's sources share a file name).
mkdir "$work/ours" "$work/theirs"
(cd "$work/ours" && emar x "$work/prefix/lib/libsodium.a")
(cd "$work/theirs" && emar x "$(echo "$work"/libsodium-*/src/libsodium/.libs/libsodium.a)")
total=0
same=0
bad=()
for obj in "$work/theirs"/*.o; do
  file=$(basename "$obj" .o)
  file=${file#lib*_la-}
  total=$((total + 1))
  if cmp -s "$obj" "$work/ours/$file.c.o"; then
    same=$((same + 1))
  else
    bad+=("$file.c")
  fi
done
ours_total=$(find "$work/ours" -name '*.o' | wc -l)

say "$same of $total autotools objects identical in the project's library ($ours_total objects there)"
if [ ${#bad[@]} -gt 0 ] || [ "$ours_total" -ne "$total" ] || [ "$total" -eq 0 ]; then
  for f in "${bad[@]}"; do say "differs or missing: $f"; done
  [ "$ours_total" -eq "$total" ] ||
    say "the project's library holds $ours_total objects, the autotools one $total"
  exit 1
fi
