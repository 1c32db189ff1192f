// The Solidity verifier of `enygma export-solidity --k K` for the transfer circuit at k = 2 and
// k = 6 (development keys; the contract is the same for ceremony keys): compiles with solc,
// deploys in an in-process EVM, accepts our proof of the shared vectors' request, rejects
// changed public inputs and proof elements; reports the gas of verifyProof.
import fs from "node:fs";
import path from "node:path";
import {
  freshDir, main, parseArgs, requireModules, run, transferDevKeys, transferProve,
} from "./lib.mjs";
import { Chain, compile, loadEvmModules, tamperedCalls } from "./evm.mjs";

const o = parseArgs();
requireModules(o.root, ["solc", "@ethereumjs/evm", "@ethereumjs/util"]);
const work = freshDir(o.work);
const mods = await loadEvmModules(o.root);

await main("evm_verifier_transfer", async (t) => {
  const gas = [];
  for (const k of [2, 6]) {
    const keys = path.join(work, "keys");
    transferDevKeys(o, k, keys);
    const sol = path.join(work, `VerifierK${k}.sol`);
    const exported = JSON.parse(run(o.enygma, ["export-solidity", "--k", String(k), "--keys",
      keys, "--out", sol]).stdout);
    const contract = exported.contract;
    t.ok(contract === `EnygmaTransferVerifierK${k}` && exported.public_inputs === 8 * k + 2,
         `k=${k}: enygma export-solidity writes ${contract} (${exported.public_inputs} inputs)`);
    const compiled = compile(mods.solc, sol, contract);
    t.ok(compiled.bytecode.length > 0 && compiled.warnings.length === 0,
         `k=${k}: solc ${compiled.version} compiles it without warnings ` +
         `(${compiled.bytecode.length / 2} bytes of init code)`);
    const chain = await Chain.create(mods);
    const deployed = await chain.deploy(compiled.bytecode);

    const request = path.join(o.shared, "vectors", `transfer-k${k}.json`);
    const ref = path.join(work, `response-k${k}.json`);
    const proof = transferProve(o, k, request, keys, ref);
    // The second call is the one measured: the first pays for the precompiles' first access
    // (EIP-2929), which a transaction never does (precompiles are always warm).
    await chain.verify(compiled.selector, proof.pi_a, proof.pi_b, proof.pi_c, proof.public_signal);
    const good = await chain.verify(compiled.selector, proof.pi_a, proof.pi_b, proof.pi_c,
                                    proof.public_signal);
    const txGas = 21000 + good.calldataGas + good.gas;
    t.ok(good.ok, `k=${k}: verifyProof accepts our proof: ${good.gas} execution gas, ` +
                  `${txGas} per transaction (21000 + ${good.calldataGas} calldata); ` +
                  `deployment ${deployed.gas} gas`);
    for (const [what, A, B, C, P] of tamperedCalls(proof)) {
      const r = await chain.verify(compiled.selector, A, B, C, P);
      // a refused point costs the pairing's own gas, not all the call was given
      t.ok(!r.ok && !r.reverted && r.gas < good.gas + 50000,
           `k=${k}: returns false (no revert) for ${what}, ${r.gas} gas`);
    }
    // Too little gas to finish: a revert, never a false for a valid proof (at every limit from
    // the ecMul/ecAdd steps to just short of the pairing's).
    for (const short of [5000n, 20000n, 100000n, BigInt(good.gas) - 150000n, BigInt(good.gas) - 30000n]) {
      const limit = BigInt(good.gas) - short;
      const r = await chain.verify(compiled.selector, proof.pi_a, proof.pi_b, proof.pi_c,
                                   proof.public_signal, limit);
      t.ok(r.reverted, `k=${k}: reverts with ${limit} gas (${good.gas} needed)`);
    }
    // The least gas with which the call does not revert answers true: no limit gives false for
    // a valid proof (a gas check's margin too small would leave such a window).
    let lo = 150000n, hi = BigInt(good.gas) + 50000n;  // lo reverts; hi does not
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      const r = await chain.verify(compiled.selector, proof.pi_a, proof.pi_b, proof.pi_c,
                                   proof.public_signal, mid);
      if (r.reverted) lo = mid; else hi = mid;
    }
    const least = await chain.verify(compiled.selector, proof.pi_a, proof.pi_b, proof.pi_c,
                                     proof.public_signal, hi);
    t.ok(least.ok, `k=${k}: with the least gas that does not revert, ${hi} ` +
                   `(${hi - BigInt(good.gas)} above the gas used), the answer is true`);
    gas.push({ k, public_inputs: 8 * k + 2, verify_execution_gas: good.gas,
               verify_transaction_gas: txGas, deploy_gas: Number(deployed.gas) });
  }
  fs.writeFileSync(path.join(work, "gas.json"), JSON.stringify(gas, null, 1) + "\n");
});
