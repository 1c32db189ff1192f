// snarkjs <-> enygma on the transfer circuit at k = 2 (the request of shared/vectors):
// - `enygma export-r1cs` and `enygma witness` files are read and accepted by the snarkjs CLI
//   (r1cs info, wtns check); an invalid request gets no witness;
// - a small ceremony over that .r1cs (cached test ptau, snarkjs groth16 setup, one zkey
//   contribution) gives a .zkey that `enygma import-zkey` turns into key files (checked against
//   the ceremony's verification_key.json); our proof with them verifies under snarkjs (library
//   and CLI) and under `enygma verify`, not with a changed public input; a zkey for another k
//   and a zkey without contribution are refused;
// - a proof with our own development keys verifies under snarkjs with our exported key.
import fs from "node:fs";
import path from "node:path";
import {
  ceremony, freshDir, loadSnarkjs, main, parseArgs, r1csPower, readJson, requireModules, run,
  snarkjsCli, snarkjsVerifies, tamperPublic, testPtau, toSnarkjsProof, transferDevKeys,
  transferProve,
} from "./lib.mjs";

const o = parseArgs();
requireModules(o.root, ["snarkjs"]);
const work = freshDir(o.work);
const s = await loadSnarkjs(o.root);
const k = 2;
const request = path.join(o.shared, "vectors", `transfer-k${k}.json`);
const badRequest = path.join(o.shared, "vectors", `transfer-k${k}-bad.json`);

await main("snarkjs_transfer", async (t) => {
  const r1cs = path.join(work, `transfer-k${k}.r1cs`);
  const wtns = path.join(work, `transfer-k${k}.wtns`);
  const info = JSON.parse(run(o.enygma, ["export-r1cs", "--k", String(k), "--out", r1cs]).stdout);
  const out = snarkjsCli(o.root, ["r1cs", "info", r1cs]).stdout;
  t.ok(out.includes(`# of Wires: ${info.wires}`) &&
       out.includes(`# of Constraints: ${info.constraints}`) &&
       out.includes(`# of Public Inputs: ${8 * k + 2}`) && out.includes("# of Outputs: 0"),
       `snarkjs r1cs info reads enygma export-r1cs --k ${k} (${info.constraints} constraints, ` +
       `${info.wires} wires)`);
  run(o.enygma, ["witness", "--k", String(k), "--input", request, "--out", wtns]);
  t.ok(snarkjsCli(o.root, ["wtns", "check", r1cs, wtns], { expectStatus: null }).status === 0,
       "snarkjs wtns check accepts enygma witness");
  const badWtns = path.join(work, "bad.wtns");
  const r = run(o.enygma, ["witness", "--k", String(k), "--input", badRequest, "--out", badWtns],
                { expectStatus: null });
  t.ok(r.status === 2 && !fs.existsSync(badWtns),
       `an invalid request gets no witness (exit 2: ${r.stderr.trim().slice(0, 80)})`);

  // the ceremony (phase 1 from a native test ptau: snarkjs's own takes many minutes at 2^14)
  const ptau = testPtau(o.tool, o.cache, r1csPower(r1cs));
  const c = await ceremony(s, ptau, r1cs, work, "interop transfer");
  const keys = path.join(work, "ceremony-keys");
  const imp = JSON.parse(run(o.enygma, ["import-zkey", "--k", String(k), "--zkey", c.zkey,
    "--out", keys, "--check-vk", c.vkFile]).stdout);
  t.ok(imp.contributions.length === 1 && imp.contributions[0].name === "interop transfer" &&
       !imp.insecure && fs.existsSync(imp.proving_key) && fs.existsSync(imp.verifying_key),
       "enygma import-zkey writes the ceremony's keys (and matches its verification_key.json)");
  const ref = path.join(work, "response.json");
  transferProve(o, k, request, keys, ref);
  const proofFile = path.join(work, "proof.json"), pubFile = path.join(work, "public.json");
  const { proof, pub } = toSnarkjsProof(o, ref, proofFile, pubFile);
  t.ok(await snarkjsVerifies(s, c.vk, pub, proof),
       "snarkjs groth16 verify accepts our proof with the ceremony's keys");
  t.ok(snarkjsCli(o.root, ["groth16", "verify", c.vkFile, pubFile, proofFile],
                  { expectStatus: null }).status === 0,
       "... also as the command line `snarkjs groth16 verify`");
  t.ok(!await snarkjsVerifies(s, c.vk, tamperPublic(pub), proof) &&
       !await snarkjsVerifies(s, c.vk, tamperPublic(pub, pub.length - 1), proof),
       "... and rejects it for a changed public input (first or last)");
  t.ok(run(o.enygma, ["verify", "--k", String(k), "--proof", ref, "--keys", keys],
           { expectStatus: null }).status === 0,
       "enygma verify accepts it with the imported verifying key");

  // refusals
  let rr = run(o.enygma, ["import-zkey", "--k", String(k + 1), "--zkey", c.zkey, "--out",
    path.join(work, "wrong")], { expectStatus: null });
  t.ok(rr.status === 1 && rr.stderr.includes("another circuit"),
       `a k=${k} zkey is refused for k=${k + 1}`);
  rr = run(o.enygma, ["import-zkey", "--k", String(k), "--zkey", c.zkey0, "--out",
    path.join(work, "wrong")], { expectStatus: null });
  t.ok(rr.status === 1 && rr.stderr.includes("no phase-2 contribution") &&
       !fs.existsSync(path.join(work, "wrong")),
       "a zkey without a contribution is refused");

  // our own development keys, verifying key exported for snarkjs
  const dev = path.join(work, "dev-keys");
  transferDevKeys(o, k, dev);
  const devVkFile = path.join(work, "dev_verification_key.json");
  run(o.enygma, ["export-vk", "--k", String(k), "--keys", dev, "--out", devVkFile]);
  const devVk = readJson(devVkFile);
  const devRef = path.join(work, "dev_response.json");
  transferProve(o, k, request, dev, devRef);
  const d = toSnarkjsProof(o, devRef, path.join(work, "dev_proof.json"),
                           path.join(work, "dev_public.json"));
  t.ok(await snarkjsVerifies(s, devVk, d.pub, d.proof),
       "snarkjs verifies a proof with our own keys and `enygma export-vk`'s key");
  t.ok(!await snarkjsVerifies(s, devVk, tamperPublic(d.pub), d.proof) &&
       !await snarkjsVerifies(s, c.vk, d.pub, d.proof),
       "... and rejects it for a changed public input or under the ceremony's key");
  rr = run(o.enygma, ["import-zkey", "--k", String(k), "--zkey", c.zkey, "--out",
    path.join(work, "wrong"), "--check-vk", devVkFile], { expectStatus: null });
  t.ok(rr.status === 1 && /is not the verifying key of .* \(its IC differs\)/.test(rr.stderr),
       "import-zkey --check-vk refuses a verification key that is not the zkey's");
});
