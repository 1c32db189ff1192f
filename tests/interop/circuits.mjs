// Every circuit besides transfer (which snarkjs_transfer.mjs and evm_verifier_transfer.mjs cover
// in depth), discovered from `enygma info --circuit all --k 2`: deposit, withdraw, join-split,
// ownership, and whatever is registered next.
// - `enygma export-r1cs` is read by `snarkjs r1cs info`, and the witness of a wallet request
//   (`enygma make-request`) passes `snarkjs wtns check`;
// - a proof with development keys verifies under snarkjs with `enygma export-vk`'s key, not
//   with a changed public input;
// - the Solidity verifier of `enygma export-solidity` compiles, deploys in an in-process EVM,
//   accepts that proof and returns false for changed public inputs and proof elements;
// - for the smallest of them, a snarkjs ceremony gives a .zkey that `enygma import-zkey` turns
//   into key files whose proofs snarkjs verifies with the ceremony's key (snarkjs's setup is
//   most of this test's time; it grows with the constraint system's coefficients, ~20-25 s for
//   each of the small circuits here).
// `--shard i/n` (optional) takes every n-th circuit in order of size, from the i-th (0-based),
// so that CTest runs the shards side by side; the ceremony is in the shard of the smallest.
import fs from "node:fs";
import path from "node:path";
import {
  ceremony, circuitArgs, freshDir, loadSnarkjs, main, parseArgs, r1csPower, readJson,
  requireModules, run, snarkjsCli, snarkjsVerifies, tamperPublic, testPtau, toSnarkjsProof,
} from "./lib.mjs";
import { Chain, compile, loadEvmModules, tamperedCalls } from "./evm.mjs";

const o = parseArgs();
requireModules(o.root, ["snarkjs", "solc", "@ethereumjs/evm", "@ethereumjs/util"]);
const work = freshDir(o.work);
const s = await loadSnarkjs(o.root);
const mods = await loadEvmModules(o.root);

await main("interop_circuits", async (t) => {
  const listed = JSON.parse(run(o.enygma, ["info", "--circuit", "all", "--k", "2"]).stdout);
  const withoutK = [].concat(JSON.parse(run(o.enygma, ["info", "--circuit", "all"]).stdout))
    .filter((c) => c.k === undefined);
  const all = [...[].concat(listed), ...withoutK]
    .filter((c) => !c.circuit.startsWith("transfer"))
    .sort((a, b) => a.constraints - b.constraints);
  const [shard, shards] = (o.shard ?? "0/1").split("/").map(Number);
  if (!(shards >= 1 && shard >= 0 && shard < shards)) throw new Error(`bad --shard ${o.shard}`);
  const circuits = all.filter((c, i) => i % shards === shard);
  t.ok(all.length >= 5 && circuits.length >= 1,
       `circuits: ${all.map((c) => c.circuit).join(", ")}; ` +
       `shard ${shard}/${shards}: ${circuits.map((c) => c.circuit).join(", ")}`);
  const ceremonyId = all[0].circuit;
  for (const info of circuits) {
    const id = info.circuit;
    const args = circuitArgs(info);
    const dir = path.join(work, id);
    fs.mkdirSync(dir, { recursive: true });

    // The constraint system and a witness, read by snarkjs.
    const r1cs = path.join(dir, `${id}.r1cs`);
    run(o.enygma, ["export-r1cs", ...args, "--out", r1cs]);
    const out = snarkjsCli(o.root, ["r1cs", "info", r1cs]).stdout;
    t.ok(out.includes(`# of Constraints: ${info.constraints}`) &&
         out.includes(`# of Public Inputs: ${info.public_inputs}`),
         `${id}: snarkjs r1cs info reads enygma export-r1cs (${info.constraints} constraints)`);
    const request = path.join(dir, "request.json");
    run(o.enygma, ["make-request", ...args, "--seed", "7", "--out", request]);
    const wtns = path.join(dir, `${id}.wtns`);
    run(o.enygma, ["witness", ...args, "--input", request, "--out", wtns]);
    t.ok(snarkjsCli(o.root, ["wtns", "check", r1cs, wtns], { expectStatus: null }).status === 0,
         `${id}: snarkjs wtns check accepts enygma's witness of a wallet request`);

    // Development keys: our proof verifies under snarkjs with our exported key.
    const keys = path.join(dir, "keys");
    run(o.enygma, ["setup", ...args, "--out", keys, "--insecure-seed", "interop"]);
    const vkFile = path.join(dir, "verification_key.json");
    run(o.enygma, ["export-vk", ...args, "--keys", keys, "--out", vkFile]);
    const ref = path.join(dir, "response.json");
    run(o.enygma, ["prove", ...args, "--input", request, "--keys", keys, "--out", ref]);
    const { proof, pub } = toSnarkjsProof(o, ref, path.join(dir, "proof.json"),
                                          path.join(dir, "public.json"));
    const vk = readJson(vkFile);
    t.ok(await snarkjsVerifies(s, vk, pub, proof), `${id}: snarkjs verifies our proof`);
    t.ok(!await snarkjsVerifies(s, vk, tamperPublic(pub), proof) &&
         !await snarkjsVerifies(s, vk, tamperPublic(pub, pub.length - 1), proof),
         `${id}: ... and rejects it for a changed public input (first or last)`);

    // The Solidity verifier on the EVM.
    const sol = path.join(dir, "Verifier.sol");
    const exported = JSON.parse(run(o.enygma, ["export-solidity", ...args, "--keys", keys,
      "--out", sol]).stdout);
    const compiled = compile(mods.solc, sol, exported.contract);
    t.ok(compiled.bytecode.length > 0 && compiled.warnings.length === 0 &&
         exported.public_inputs === info.public_inputs,
         `${id}: solc compiles ${exported.contract} (${exported.public_inputs} inputs)`);
    const chain = await Chain.create(mods);
    await chain.deploy(compiled.bytecode);
    const response = readJson(ref);
    const good = await chain.verify(compiled.selector, response.pi_a, response.pi_b,
                                    response.pi_c, response.public_signal);
    t.ok(good.ok, `${id}: the contract accepts our proof (${good.gas} execution gas)`);
    let allFalse = true;
    for (const [, A, B, C, P] of tamperedCalls(response)) {
      const r = await chain.verify(compiled.selector, A, B, C, P);
      allFalse = allFalse && !r.ok && !r.reverted;
    }
    t.ok(allFalse, `${id}: ... and returns false (no revert) for every changed input`);

    // One ceremony, on the smallest circuit: import-zkey per circuit name.
    if (id === ceremonyId) {
      const ptau = testPtau(o.tool, o.cache, r1csPower(r1cs));
      const c = await ceremony(s, ptau, r1cs, dir, `interop ${id}`);
      const imported = path.join(dir, "ceremony-keys");
      const imp = JSON.parse(run(o.enygma, ["import-zkey", ...args, "--zkey", c.zkey, "--out",
        imported, "--check-vk", c.vkFile]).stdout);
      t.ok(imp.circuit === id && fs.existsSync(imp.proving_key),
           `${id}: enygma import-zkey writes the ceremony's keys`);
      const cref = path.join(dir, "ceremony-response.json");
      run(o.enygma, ["prove", ...args, "--input", request, "--keys", imported, "--out", cref]);
      const cp = toSnarkjsProof(o, cref, path.join(dir, "c_proof.json"),
                                path.join(dir, "c_public.json"));
      t.ok(await snarkjsVerifies(s, c.vk, cp.pub, cp.proof),
           `${id}: snarkjs verifies a proof made with the imported ceremony keys`);
      const wrong = run(o.enygma, ["import-zkey", "--circuit", "transfer", "--k", "2", "--zkey",
        c.zkey, "--out", path.join(dir, "wrong")], { expectStatus: null });
      t.ok(wrong.status === 1 && wrong.stderr.includes("another circuit"),
           `${id}: its zkey is refused for the transfer circuit`);
    }
  }
});
