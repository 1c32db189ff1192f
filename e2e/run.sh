#!/usr/bin/env bash
# The browser tests (`make test-e2e`): Playwright + Debian's chromium against the real server.
#   e2e/run.sh            the tests (e2e/demo.spec.ts)
#   e2e/run.sh --bench    the browser benchmarks instead (e2e/bench.spec.ts; prints JSON and
#                         writes e2e/artifacts/bench.json)
#   e2e/run.sh --bench-snarkjs   snarkjs vs our WebAssembly prover in the same page, same zkey and
#                         witness (e2e/bench-snarkjs.spec.ts; needs scripts/bench-vs-snarkjs.sh's
#                         cache; writes e2e/artifacts/bench-snarkjs.json)
# Other arguments go to `playwright test`. Paths: ENYGMA_BIN, ENYGMA_WEB, ENYGMA_E2E_KEYS
# (see e2e/global-setup.ts). Never runs `playwright install`: no browser is downloaded.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
project=e2e
args=()
for a in "$@"; do
  case "$a" in
    --bench) project=bench ;;
    --bench-snarkjs) project=bench-snarkjs ;;
    *) args+=("$a") ;;
  esac
done
. scripts/node-major.sh
if [ "$node_major" -lt 20 ]; then
  echo "e2e: Playwright needs Node.js 20 or later; this machine's node is $(node --version 2>/dev/null || echo 'missing')" >&2
  exit 1
fi
if [ ! -x node_modules/.bin/playwright ]; then
  echo "e2e: @playwright/test is not installed (scripts/setup-deps.sh installs package.json's devDependencies)" >&2
  exit 1
fi
exec node_modules/.bin/playwright test -c e2e/playwright.config.ts --project "$project" "${args[@]}"
