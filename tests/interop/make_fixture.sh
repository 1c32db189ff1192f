#!/usr/bin/env bash
# Regenerates tests/interop/fixtures/: a tiny random circuit and a real snarkjs ceremony over it,
# read by tests/zkey_import_test.cpp (which runs without node, in native builds).
#   tests/interop/make_fixture.sh BUILD_DIR
# BUILD_DIR holds interop_tool (built by tests/interop/CMakeLists.txt). Needs node and `npm ci`.
# The files are test data (the "witness" is a random circuit's): regenerating them changes the
# bytes, not what the test checks.
set -euo pipefail
build=${1:?usage: make_fixture.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
tool=$(find "$build" -name interop_tool -type f -perm -u+x | head -1)
snarkjs="node $root/node_modules/snarkjs/build/cli.cjs"
out="$root/tests/interop/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$tool" random --seed 5 --public 2 --private 6 --constraints 8 \
  --r1cs "$tmp/circuit.r1cs" --wtns "$tmp/witness.wtns"
$snarkjs powersoftau new bn128 6 "$tmp/pot0.ptau"
$snarkjs powersoftau contribute "$tmp/pot0.ptau" "$tmp/pot1.ptau" --name=fixture -e=fixture
$snarkjs powersoftau prepare phase2 "$tmp/pot1.ptau" "$tmp/pot.ptau"
$snarkjs groth16 setup "$tmp/circuit.r1cs" "$tmp/pot.ptau" "$tmp/circuit_0000.zkey"
$snarkjs zkey contribute "$tmp/circuit_0000.zkey" "$tmp/circuit_final.zkey" \
  --name="interop fixture" -e="interop fixture entropy"
$snarkjs zkey verify "$tmp/circuit.r1cs" "$tmp/pot.ptau" "$tmp/circuit_final.zkey"
$snarkjs zkey export verificationkey "$tmp/circuit_final.zkey" "$tmp/verification_key.json"
$snarkjs groth16 prove "$tmp/circuit_final.zkey" "$tmp/witness.wtns" "$tmp/proof.json" \
  "$tmp/public.json"
$snarkjs groth16 verify "$tmp/verification_key.json" "$tmp/public.json" "$tmp/proof.json"

mkdir -p "$out"
for f in circuit.r1cs witness.wtns circuit_final.zkey verification_key.json proof.json \
         public.json; do
  cp "$tmp/$f" "$out/$f"
done
ls -l "$out"
