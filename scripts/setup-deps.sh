#!/usr/bin/env bash
# Installs what the build and the tests need on a Debian 12 (bookworm) machine, as root:
#   1. the Debian packages below (apt-get runs only when one is missing),
#   2. a deb-src entry, so scripts/build-wasm-deps.sh can `apt-get source` libsodium and
#      Google Benchmark (built for WebAssembly from Debian's sources),
#   3. the npm devDependencies of package.json (only when node_modules is older than
#      package.json / package-lock.json).
# Idempotent and fast (well under a second) when nothing changed; `make` calls it every time.
# Never runs `playwright install`: the browser tests use Debian's chromium.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

# Everything both targets and every test need. emscripten is Debian's 3.1.6 (clang 14);
# clang-14 + libclang-rt-14-dev build the libFuzzer targets; clang-format-14 checks the formatting
# (test `format`); haproxy (and curl) the cluster tests; valgrind the test constant_time_valgrind;
# autoconf, automake and libtool build libsodium's own way for `make check-wasm-sodium` (the
# WebAssembly build does without them).
packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates python3
  libsodium-dev nlohmann-json3-dev libboost-dev libgmp-dev valgrind
  libgtest-dev googletest libbenchmark-dev
  emscripten nodejs npm chromium
  autoconf automake libtool
  clang-14 libclang-rt-14-dev clang-format-14 haproxy curl
)

say() { echo "setup-deps: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root to run: $*"; exit 1
  fi
}

# A package counts as present when dpkg has it installed (one dpkg-query for all: fast). nodejs
# and npm also count as present when the command exists, e.g. NodeSource's nodejs, which
# bundles npm and conflicts with Debian's npm package (installing that would remove Node).
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null |
            awk '$2 == "ii" { print $1 }' || true)
is_present() {
  case "$1" in
    nodejs) command -v node >/dev/null && return 0 ;;
    npm) command -v npm >/dev/null && return 0 ;;
  esac
  grep -qxF "$1" <<<"$installed"
}

# deb-src entries mirroring the existing deb entries (same URIs, suites, components, keys), in
# a file of our own; nothing is added when any deb-src entry exists already.
have_deb_src() {
  grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
}
add_deb_src() {
  have_deb_src && return 1
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    # deb822: copy each stanza whose Types has "deb", with Types: deb-src.
    awk 'BEGIN { RS = ""; ORS = "\n\n" }
         /(^|\n)Types:[^\n]*(^|[[:space:]])deb([[:space:]]|$)/ {
           sub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print }' \
      /etc/apt/sources.list.d/debian.sources \
      | as_root tee /etc/apt/sources.list.d/enygma-deb-src.sources >/dev/null
    say "added deb-src entries in /etc/apt/sources.list.d/enygma-deb-src.sources"
  elif grep -qsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
    sed -nE 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list \
      | as_root tee /etc/apt/sources.list.d/enygma-deb-src.list >/dev/null
    say "added deb-src entries in /etc/apt/sources.list.d/enygma-deb-src.list"
  else
    say "warning: no apt source found to mirror as deb-src; apt-get source will fail"
    return 1
  fi
  return 0
}

missing=()
for p in "${packages[@]}"; do is_present "$p" || missing+=("$p"); done

need_update=0
add_deb_src && need_update=1
# Source indexes never downloaded (fresh machine, or the entry was added by hand).
compgen -G '/var/lib/apt/lists/*_Sources*' >/dev/null || need_update=1
[ ${#missing[@]} -gt 0 ] && need_update=1

# apt waits for another apt or dpkg (a boot's unattended upgrades) instead of failing at once.
apt_get() { as_root apt-get -o DPkg::Lock::Timeout=600 "$@"; }
if [ ${#missing[@]} -gt 0 ] && [ -n "$(dpkg --audit 2>/dev/null)" ]; then
  # An install that was interrupted (Ctrl-C, a killed CI job) leaves dpkg half done, and apt
  # refuses to install anything until it is finished.
  # (dpkg does not wait for its lock: retried for up to 10 minutes, as apt waits below.)
  say "finishing an interrupted dpkg run (dpkg --configure -a)"
  for try in $(seq 1 120); do
    as_root dpkg --configure -a && break
    [ "$try" -lt 120 ] || exit 1
    sleep 5
  done
fi
if [ $need_update -eq 1 ]; then
  say "apt-get update"
  apt_get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The npm packages (the browser and interop tests: Playwright, @ethereumjs) need Node.js 20 or
# later; Debian 12's own nodejs is 18. Without it they are not installed, and the tests that
# use them fail saying so (the build and `make run` do not need them).
. "$repo_root/scripts/node-major.sh"
if [ "$node_major" -lt 20 ]; then
  say "WARNING: the npm packages of the tests need Node.js 20 or later; this machine's node is" \
      "$(node --version 2>/dev/null || echo 'missing'): they are not installed, and make test" \
      "will fail (install a nodejs package of version 20 or later)"
  exit 0
fi

# npm devDependencies of the repository (Playwright, snarkjs, solc, ... for e2e/interop tests).
cd "$repo_root"
if [ ! -f package.json ]; then
  printf '{\n  "name": "enygma-prover",\n  "private": true,\n  "devDependencies": {}\n}\n' \
    > package.json
fi
stamp=node_modules/.enygma-installed
# Only when package.json lists a dependency at all (a quick look, no Node start-up).
if grep -qzE '"(dev)?[dD]ependencies"[[:space:]]*:[[:space:]]*\{[[:space:]]*"' package.json; then
  if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] ||
     { [ -f package-lock.json ] && [ package-lock.json -nt "$stamp" ]; }; then
    # Playwright must not download browsers: Debian's chromium is used.
    export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
    if [ -f package-lock.json ]; then
      # Exactly the committed lock file's versions: npm ci, tried twice (a registry's passing
      # failure), never npm install, which would resolve the ranges again and rewrite the lock.
      say "npm ci"
      if ! npm ci --no-audit --no-fund && ! { sleep 5; npm ci --no-audit --no-fund; }; then
        say "npm ci failed: if package.json changed, run 'npm install' and commit" \
            "package-lock.json with it"
        exit 1
      fi
    else
      say "npm install (writes package-lock.json)"
      npm install --no-audit --no-fund
    fi
    touch "$stamp"
  fi
fi
exit 0
