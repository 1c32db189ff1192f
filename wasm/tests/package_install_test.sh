#!/usr/bin/env bash
# The package as a wallet gets it: `npm pack` of the built folder, installed by its tarball into
# an empty project (offline: it has no dependencies), then resolved by name as Node resolves an
# ES module: the main entry and the worker's subpath resolve through `exports`, a file that is
# not exported does not, and every file of the built folder (but the .gz copies) is installed with
# the build's bytes: none left out of package.json's "files".
#   package_install_test.sh PACKAGE_DIR
set -euo pipefail
pkg=$1
if ! command -v npm >/dev/null; then
  echo "npm is missing (make setup installs it)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm pack "$pkg" --pack-destination "$work" --silent >/dev/null
mkdir "$work/app"
echo '{"name": "wallet", "private": true, "type": "module"}' >"$work/app/package.json"
(cd "$work/app" && npm install --offline --no-audit --no-fund --ignore-scripts "$work"/*.tgz >/dev/null)
installed="$work/app/node_modules/@enygma/prover"
cd "$work/app"
node --input-type=module -e '
const expect = (what, got, want) => {
  if (got !== want) { console.error(`${what}: ${got}, expected ${want}`); process.exit(1); }
};
const at = (p) => new URL(`node_modules/@enygma/prover/${p}`, `file://${process.cwd()}/`).href;
expect("@enygma/prover", import.meta.resolve("@enygma/prover"), at("index.mjs"));
expect("@enygma/prover/enygma_worker.js", import.meta.resolve("@enygma/prover/enygma_worker.js"),
       at("enygma_worker.js"));
let code = "resolved";
try { import.meta.resolve("@enygma/prover/enygma_abi.js"); } catch (e) { code = e.code; }
expect("@enygma/prover/enygma_abi.js (not exported)", code, "ERR_PACKAGE_PATH_NOT_EXPORTED");
'
# Every file of the built folder but the .gz copies (the server's, for browsers that take gzip).
files=$(cd "$pkg" && find . -maxdepth 1 -type f ! -name '*.gz' -printf '%f\n' | sort)
for f in $files; do
  cmp "$pkg/$f" "$installed/$f" || { echo "installed $f differs from the build's (or is missing)" >&2; exit 1; }
done
echo "package_install_test: @enygma/prover packed, installed and resolved by name ($(echo "$files" | wc -l) files)"
