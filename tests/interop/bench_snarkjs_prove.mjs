// Helper of scripts/bench-vs-snarkjs.sh (not a test):
//
//   node bench_snarkjs_prove.mjs prove ROOT ZKEY WTNS RUNS VK.json
//     Times snarkjs's Groth16 prover in-process (zkey and witness already in memory, as a
//     server would hold them): one warm-up, then RUNS proofs. Every proof, warm-up included, is
//     checked with snarkjs groth16 verify against VK.json. Prints
//     {"runs", "median_ms", "min_ms", "verified"}.
//
//   node bench_snarkjs_prove.mjs verify ROOT VK.json PROOFS.json
//     PROOFS.json: [{"proof": snarkjs proof.json, "public": public.json}, ...] (interop_tool
//     prove --all-proofs). Prints {"verified": N} when snarkjs accepts every one; exit 1 (and
//     the index) otherwise.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [mode, root, ...rest] = process.argv.slice(2);
const require = createRequire(path.join(root, "package.json"));
const m = await import(require.resolve("snarkjs"));
const snarkjs = m.groth16 ? m : m.default;
const readJson = (f) => JSON.parse(fs.readFileSync(f, "utf8"));

async function verifyOrExit(vk, pub, proof, what) {
  if (!await snarkjs.groth16.verify(vk, pub, proof)) {
    console.error(`snarkjs groth16 verify rejected ${what}`);
    process.exit(1);
  }
}

if (mode === "prove") {
  const [zkeyFile, wtnsFile, runsText, vkFile] = rest;
  const zkey = { type: "mem", data: new Uint8Array(fs.readFileSync(zkeyFile)) };
  const wtns = { type: "mem", data: new Uint8Array(fs.readFileSync(wtnsFile)) };
  const vk = readJson(vkFile);
  const runs = Number(runsText);
  const proofs = [await snarkjs.groth16.prove(zkey, wtns)];  // warm-up (curve, workers)
  const ms = [];
  for (let i = 0; i < runs; ++i) {
    const t0 = process.hrtime.bigint();
    proofs.push(await snarkjs.groth16.prove(zkey, wtns));
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  for (const [i, p] of proofs.entries()) {
    await verifyOrExit(vk, p.publicSignals, p.proof, `snarkjs's proof ${i}`);
  }
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({ runs, median_ms: ms[Math.floor(ms.length / 2)], min_ms: ms[0],
                               verified: proofs.length }));
} else if (mode === "verify") {
  const [vkFile, proofsFile] = rest;
  const vk = readJson(vkFile);
  const proofs = readJson(proofsFile);
  for (const [i, p] of proofs.entries()) await verifyOrExit(vk, p.public, p.proof, `proof ${i}`);
  console.log(JSON.stringify({ verified: proofs.length }));
} else {
  console.error("usage: bench_snarkjs_prove.mjs prove|verify ROOT ...");
  process.exit(2);
}
process.exit(0);  // snarkjs keeps its curve's worker threads alive
