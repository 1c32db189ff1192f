#!/usr/bin/env bash
# Side-by-side Groth16 proving: snarkjs (Node.js) vs enygma (native), on the same .zkey and the
# same witness of the transfer circuit, for each k. Not a test (timings are asserted nowhere).
#
#   scripts/bench-vs-snarkjs.sh [--build DIR] [--k 2-6 | --k 2,6] [--runs N]
#
# For each k: `enygma export-r1cs`, the request (shared/vectors, else `enygma make-transfer`),
# `enygma witness`; a snarkjs ceremony (groth16 setup over a local powers of tau, one zkey
# contribution); `enygma import-zkey` (checked against the ceremony's verification key). The
# powers of tau (a prepared ptau of a KNOWN tau written by interop_tool: snarkjs's own
# `powersoftau prepare phase2` needs many minutes at 2^15; fine for timing, never for real keys)
# and each k's zkey are cached under .cache/bench-vs-snarkjs/ (kept while the .r1cs is
# unchanged). Then, both in-process with keys and witness in memory:
#   snarkjs   groth16.prove(zkey, wtns)   (tests/interop/bench_snarkjs_prove.mjs prove)
#   enygma    groth16_prove(pk, r1cs, w)  (interop_tool prove --runs)
# median of N runs after a warm-up each, plus the end-to-end time of one `snarkjs groth16 prove`
# and one `enygma prove` process (start, key loading, witness, proof). Every proof made (warm-ups
# and CLI runs included) is checked with snarkjs groth16 verify; the script stops otherwise.
# Needs: node + `npm ci` (snarkjs) and a native Release build with interop_tool (tests/interop).
# On a shared machine, run it alone and repeat: quote medians.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
ks="2-6"
runs=5
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --k) ks="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    # The comment block at the top, without its "# " (a line count would drift as it changes).
    -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

enygma="$build/bin/enygma"
tool=$(find "$build" -name interop_tool -type f -perm -u+x | head -1)
shared=$(cd "$root/../shared" 2>/dev/null && pwd || true)
snarkjs=(node "$root/node_modules/snarkjs/build/cli.cjs")
helper="$root/tests/interop/bench_snarkjs_prove.mjs"
[[ -x "$enygma" ]] || { echo "no $enygma: build it first (or pass --build DIR)" >&2; exit 2; }
[[ -x "$tool" ]] || { echo "no interop_tool under $build (tests/interop)" >&2; exit 2; }
[[ -f "$root/node_modules/snarkjs/package.json" ]] || { echo "run 'npm ci' first" >&2; exit 2; }

case "$ks" in
  *-*) list=$(seq "${ks%-*}" "${ks#*-}") ;;
  *) list=${ks//,/ } ;;
esac

cache="$root/.cache/bench-vs-snarkjs"
mkdir -p "$cache"
quiet() { "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; "$@" >&2 || true; exit 1; }; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
json_field() { node -e "process.stdout.write(String(JSON.parse(process.argv[1])[process.argv[2]]))" "$1" "$2"; }

printf "%-3s %8s %12s %12s %8s   %14s %14s\n" k constr "snarkjs ms" "enygma ms" ratio \
  "snarkjs CLI ms" "enygma CLI ms"
for k in $list; do
  d="$cache/k$k"
  mkdir -p "$d"
  info=$("$enygma" export-r1cs --k "$k" --out "$d/circuit.r1cs.new")
  if [[ -f "$d/circuit.r1cs" ]] && cmp -s "$d/circuit.r1cs" "$d/circuit.r1cs.new"; then
    rm "$d/circuit.r1cs.new"
  else
    mv "$d/circuit.r1cs.new" "$d/circuit.r1cs"
    rm -f "$d/circuit_final.zkey"
  fi
  request="$shared/vectors/transfer-k$k.json"
  if [[ ! -f "$request" ]]; then
    request="$d/request.json"
    quiet "$enygma" make-transfer --k "$k" --seed 7 --out "$request"
  fi
  quiet "$enygma" witness --k "$k" --input "$request" --out "$d/witness.wtns"

  if [[ ! -f "$d/circuit_final.zkey" ]]; then
    power=$(node -e '
      const b = require("fs").readFileSync(process.argv[1]);
      const rows = b.readUInt32LE(84) + b.readUInt32LE(64) + b.readUInt32LE(68) + 1;
      let p = 0; while ((1 << p) < rows) ++p; console.log(p);' "$d/circuit.r1cs")
    ptau="$cache/test_insecure_pot$power.ptau"
    [[ -f "$ptau" ]] || quiet "$tool" ptau --power "$power" --out "$ptau"
    echo "k=$k: making the zkey (snarkjs groth16 setup + zkey contribute, 2^$power)..." >&2
    quiet "${snarkjs[@]}" groth16 setup "$d/circuit.r1cs" "$ptau" "$d/circuit_0000.zkey"
    quiet "${snarkjs[@]}" zkey contribute "$d/circuit_0000.zkey" "$d/circuit_final.zkey.tmp" \
      --name=bench -e="bench entropy"
    quiet "${snarkjs[@]}" zkey export verificationkey "$d/circuit_final.zkey.tmp" "$d/vk.json"
    mv "$d/circuit_final.zkey.tmp" "$d/circuit_final.zkey"
    rm -f "$d/circuit_0000.zkey"
  fi
  quiet "$enygma" import-zkey --k "$k" --zkey "$d/circuit_final.zkey" --out "$d/keys" \
    --check-vk "$d/vk.json"

  # in-process medians; every proof verified
  s=$(node "$helper" prove "$root" "$d/circuit_final.zkey" "$d/witness.wtns" "$runs" "$d/vk.json")
  e=$("$tool" prove --r1cs "$d/circuit.r1cs" --wtns "$d/witness.wtns" \
        --pk "$d/keys/transfer-k$k.pk" --runs "$runs" --all-proofs "$d/enygma_proofs.json")
  quiet node "$helper" verify "$root" "$d/vk.json" "$d/enygma_proofs.json"

  # end to end, one process each
  t0=$(now_ms)
  quiet "${snarkjs[@]}" groth16 prove "$d/circuit_final.zkey" "$d/witness.wtns" \
    "$d/cli_proof.json" "$d/cli_public.json"
  t1=$(now_ms)
  quiet "$enygma" prove --k "$k" --input "$request" --keys "$d/keys" --out "$d/response.json"
  t2=$(now_ms)
  quiet "${snarkjs[@]}" groth16 verify "$d/vk.json" "$d/cli_public.json" "$d/cli_proof.json"
  quiet "$enygma" export-proof --proof "$d/response.json" --out-proof "$d/enygma_cli_proof.json" \
    --out-public "$d/enygma_cli_public.json"
  quiet "${snarkjs[@]}" groth16 verify "$d/vk.json" "$d/enygma_cli_public.json" \
    "$d/enygma_cli_proof.json"

  sm=$(json_field "$s" median_ms)
  em=$(json_field "$e" median_ms)
  ratio=$(node -e "console.log((${sm} / ${em}).toFixed(1))")
  printf "%-3s %8s %12.1f %12.1f %7sx   %14s %14s\n" "$k" "$(json_field "$info" constraints)" \
    "$sm" "$em" "$ratio" "$((t1 - t0))" "$((t2 - t1))"
done
echo "(medians of $runs in-process proofs after a warm-up; all $(( (runs + 2) * 2 )) proofs per k" \
     "verified by snarkjs; enygma threads: $(nproc), snarkjs: its default workers)"
