// The Solidity verifier of `enygma export-solidity --vk` (any verifying key, here of small random
// circuits with 0, 1 and 5 public inputs; evm_verifier_transfer.mjs covers the transfer circuit's
// 18 and 50): compiles with solc, deploys in an in-process EVM, accepts our proof, rejects
// changed inputs and proof elements (returning false, never reverting), reports the gas.
import fs from "node:fs";
import path from "node:path";
import { freshDir, main, parseArgs, requireModules, run } from "./lib.mjs";
import { Chain, compile, loadEvmModules, tamperedCalls } from "./evm.mjs";

const o = parseArgs();
requireModules(o.root, ["solc", "@ethereumjs/evm", "@ethereumjs/util"]);
const work = freshDir(o.work);
const mods = await loadEvmModules(o.root);

await main("evm_verifier_random", async (t) => {
  for (const [npub, seed] of [[0, 10], [1, 11], [5, 12]]) {
    const dir = path.join(work, `p${npub}`);
    fs.mkdirSync(dir);
    const r1cs = path.join(dir, "c.r1cs"), wtns = path.join(dir, "w.wtns");
    const pk = path.join(dir, "c.pk"), vk = path.join(dir, "c.vk");
    const ref = path.join(dir, "proof_ref.json"), sol = path.join(dir, "Verifier.sol");
    run(o.tool, ["random", "--seed", String(seed), "--public", String(npub), "--private", "20",
      "--constraints", "30", "--r1cs", r1cs, "--wtns", wtns]);
    run(o.tool, ["dev-setup", "--r1cs", r1cs, "--pk", pk, "--vk", vk]);
    run(o.tool, ["prove", "--r1cs", r1cs, "--wtns", wtns, "--pk", pk, "--reference", ref]);
    const contract = `RandomVerifier${npub}`;
    run(o.enygma, ["export-solidity", "--vk", vk, "--out", sol, "--contract", contract]);

    const compiled = compile(mods.solc, sol, contract);
    t.ok(compiled.bytecode.length > 0 && compiled.warnings.length === 0,
         `${npub} inputs: solc ${compiled.version} compiles ${contract} ` +
         `(${compiled.bytecode.length / 2} bytes, ${compiled.warnings.length} warnings)`);
    const chain = await Chain.create(mods);
    const deployed = await chain.deploy(compiled.bytecode);
    const proof = JSON.parse(fs.readFileSync(ref, "utf8"));
    const good = await chain.verify(compiled.selector, proof.pi_a, proof.pi_b, proof.pi_c,
                                    proof.public_signal);
    t.ok(good.ok, `${npub} inputs: verifyProof accepts our proof: ${good.gas} execution gas ` +
                  `(+21000 + ${good.calldataGas} calldata = ` +
                  `${21000 + good.calldataGas + good.gas} ` +
                  `per transaction); deployment ${deployed.gas} gas`);
    for (const [what, A, B, C, P] of tamperedCalls(proof)) {
      const r = await chain.verify(compiled.selector, A, B, C, P);
      t.ok(!r.ok && !r.reverted, `${npub} inputs: returns false (no revert) for ${what}`);
    }
    fs.writeFileSync(path.join(dir, "gas.json"), JSON.stringify({ public_inputs: npub,
      verify_execution_gas: good.gas, calldata_gas: good.calldataGas,
      deploy_gas: Number(deployed.gas) }) + "\n");
  }
});
