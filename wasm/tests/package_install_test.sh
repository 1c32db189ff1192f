#!/usr/bin/env bash
# The package as a wallet gets it: `npm pack` of the built folder, installed by its tarball into
# an empty project (offline: it has no dependencies), then resolved by name as Node resolves an
# ES module: the main entry and the worker's subpath resolve through `exports`, a file that is
# not exported does not, and every file of the built folder (but the .gz copies) is installed with
# the build's bytes: none left out of package.json's "files". Then as a TypeScript wallet gets it:
# docs/browser.md's usage example, importing '@enygma/prover' as written, type-checks against the
# installed declarations (tsc --strict, Node's resolution of "exports"), and misuses do not.
#   package_install_test.sh PACKAGE_DIR BROWSER_MD TSC
set -euo pipefail
pkg=$1
browser_md=$2
tsc=$3
if [[ ! -x "$tsc" ]]; then
  echo "$tsc is missing: the npm devDependencies are (make setup installs them)" >&2
  exit 1
fi
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

# The usage example: the first code block after "### Usage".
awk '/^### Usage/ { usage = 1 } usage && /^```/ { if (inside) exit; inside = 1; next } inside' \
  "$browser_md" >usage.ts
grep -q "from '@enygma/prover'" usage.ts || { echo "no usage example importing @enygma/prover in $browser_md" >&2; exit 1; }
check_types() {
  "$tsc" --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext \
    --lib es2022,dom "$@"
}
if ! check_types usage.ts; then
  echo "docs/browser.md's usage example does not type-check against the package's declarations" >&2
  exit 1
fi
# Misuses the declarations must refuse (so that they are not 'any'): each alone, with its error.
misuse() {
  printf "import { Enygma } from '@enygma/prover';\nconst enygma = await Enygma.create();\n%s\n" "$2" >misuse.ts
  if out=$(check_types misuse.ts); then
    echo "type-checked, yet a misuse ($1): $2" >&2
    exit 1
  fi
  grep -q "$3" <<<"$out" || { echo "misuse ($1): expected $3, got: $out" >&2; exit 1; }
}
misuse "an unknown option" "await Enygma.create({ thread: 2 });" TS2561
misuse "a stage callback that is not a function" "enygma.prove('transfer-k6', '{}', { onStage: 5 });" TS2322
misuse "the proof's response taken as an object" "const n: number = (await enygma.prove(6, '{}')).response;" TS2322
misuse "verify's result without its valid" "const { ok } = await enygma.verify(6, '{}');" TS2339
echo "package_install_test: @enygma/prover packed, installed and resolved by name ($(echo "$files" | wc -l) files); the usage example type-checks, misuses do not"
