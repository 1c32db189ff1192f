// snarkjs <-> enygma on small random circuits (interop_tool writes them), fast enough to run a
// real snarkjs powers of tau too:
// - snarkjs reads our .r1cs (r1cs info) and .wtns (wtns check, which also rejects a wrong one);
// - a small ceremony (local ptau, groth16 setup, one zkey contribution) gives a .zkey that we
//   import; our proofs with it verify under snarkjs with the ceremony's verification key, and
//   not with a changed public input; snarkjs's own proofs verify under our verifier; our
//   export of the imported verifying key is snarkjs's;
// - a zkey finished with a random beacon imports; zkeys without a contribution or for another
//   circuit are refused;
// - proofs with our own (seeded development) keys verify under snarkjs with our exported key.
import fs from "node:fs";
import path from "node:path";
import {
  ceremony, freshDir, loadSnarkjs, main, parseArgs, preparedPtau, quietLogger, r1csPower,
  readJson, requireModules, run, snarkjsVerifies, tamperPublic,
} from "./lib.mjs";

const o = parseArgs();
requireModules(o.root, ["snarkjs"]);
const work = freshDir(o.work);
const tool = (args, opts) => run(o.tool, args, opts);
const s = await loadSnarkjs(o.root);

function sameVk(a, b) {
  const keys = ["nPublic", "vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2", "IC"];
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

// interop_tool prove: snarkjs's proof.json and public.json of our proof.
function ourProof(r1cs, wtns, pk, dir, tag) {
  const proof = path.join(dir, `${tag}_proof.json`), pub = path.join(dir, `${tag}_public.json`);
  tool(["prove", "--r1cs", r1cs, "--wtns", wtns, "--pk", pk, "--proof", proof, "--public", pub]);
  return { proof: readJson(proof), pub: readJson(pub) };
}

await main("snarkjs_random", async (t) => {
  const shapes = [
    { name: "a", seed: 1, public: 3, private: 24, constraints: 40 },
    { name: "b", seed: 2, public: 1, private: 10, constraints: 20 },
  ];
  const made = {};
  for (const sh of shapes) {
    const dir = path.join(work, sh.name);
    fs.mkdirSync(dir);
    const r1cs = path.join(dir, "circuit.r1cs");
    const wtns = path.join(dir, "witness.wtns");
    const info = JSON.parse(tool(["random", "--seed", String(sh.seed), "--public",
      String(sh.public), "--private", String(sh.private), "--constraints",
      String(sh.constraints), "--r1cs", r1cs, "--wtns", wtns]).stdout);

    // snarkjs reads our files
    const cir = await s.r1cs.info(r1cs, quietLogger);
    t.ok(cir.nVars === info.wires && cir.nConstraints === info.constraints &&
         cir.nPubInputs === sh.public && cir.nOutputs === 0,
         `${sh.name}: snarkjs r1cs info reads our .r1cs (${info.constraints} constraints)`);
    t.ok(await s.wtns.check(r1cs, wtns, quietLogger) === true,
         `${sh.name}: snarkjs wtns check accepts our .wtns`);
    const bad = path.join(dir, "bad.wtns");
    const bytes = fs.readFileSync(wtns);
    bytes[bytes.length - 32] ^= 1;  // last wire's value
    fs.writeFileSync(bad, bytes);
    t.ok(await s.wtns.check(r1cs, bad, quietLogger) === false,
         `${sh.name}: snarkjs wtns check rejects a changed witness`);

    // a ceremony and its zkey, imported
    const ptau = await preparedPtau(s, o.cache, Math.max(8, r1csPower(r1cs)));
    const c = await ceremony(s, ptau, r1cs, dir);
    const pk = path.join(dir, "imported.pk"), vk = path.join(dir, "imported.vk");
    const imp = JSON.parse(tool(["import", "--r1cs", r1cs, "--zkey", c.zkey, "--pk", pk,
      "--vk", vk]).stdout);
    t.ok(imp.contributions === 1 && imp.insecure === false,
         `${sh.name}: the ceremony's zkey imports (1 contribution)`);
    made[sh.name] = { dir, r1cs, wtns, c, pk, vk };

    // our proof with the ceremony's keys: snarkjs accepts it, and not with a changed input
    const ours = ourProof(r1cs, wtns, pk, dir, "our");
    t.ok(await snarkjsVerifies(s, c.vk, ours.pub, ours.proof),
         `${sh.name}: snarkjs groth16 verify accepts our proof with the imported key`);
    t.ok(!await snarkjsVerifies(s, c.vk, tamperPublic(ours.pub), ours.proof),
         `${sh.name}: ... and rejects it for a changed public input`);

    // snarkjs's proof verifies under our verifier with the imported key
    const sp = await s.groth16.prove(c.zkey, wtns, quietLogger);
    const sproof = path.join(dir, "snarkjs_proof.json"), spub = path.join(dir, "snarkjs_pub.json");
    fs.writeFileSync(sproof, JSON.stringify(sp.proof));
    fs.writeFileSync(spub, JSON.stringify(sp.publicSignals));
    t.ok(tool(["verify", "--vk", vk, "--proof", sproof, "--public", spub],
              { expectStatus: null }).status === 0,
         `${sh.name}: our verifier accepts snarkjs's proof`);
    fs.writeFileSync(spub, JSON.stringify(tamperPublic(sp.publicSignals)));
    t.ok(tool(["verify", "--vk", vk, "--proof", sproof, "--public", spub],
              { expectStatus: null }).status === 1,
         `${sh.name}: ... and rejects it for a changed public input`);

    // the imported verifying key, exported again, is the ceremony's
    const vkJson = path.join(dir, "our_vk.json");
    tool(["export-vk", "--vk", vk, "--out", vkJson]);
    t.ok(sameVk(readJson(vkJson), c.vk),
         `${sh.name}: our export of the imported key equals snarkjs's verification key`);
  }

  // a final random beacon (the last step of a production ceremony) imports too
  const b = made.b;
  const beacon = path.join(b.dir, "circuit_beacon.zkey");
  await s.zKey.beacon(b.c.zkey, beacon, "final beacon",
    "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", 10, quietLogger);
  const beaconVk = await s.zKey.exportVerificationKey(beacon, quietLogger);
  const bpk = path.join(b.dir, "beacon.pk"), bvk = path.join(b.dir, "beacon.vk");
  const bimp = JSON.parse(tool(["import", "--r1cs", b.r1cs, "--zkey", beacon, "--pk", bpk,
    "--vk", bvk]).stdout);
  const bp = ourProof(b.r1cs, b.wtns, bpk, b.dir, "beacon");
  t.ok(bimp.contributions === 2 && await snarkjsVerifies(s, beaconVk, bp.pub, bp.proof) &&
       !await snarkjsVerifies(s, b.c.vk, bp.pub, bp.proof),
       "a zkey finished with `snarkjs zkey beacon` imports (2 contributions) and proves " +
       "(under its key only)");

  // refusals
  const a = made.a;
  const x = ["--pk", path.join(work, "x.pk"), "--vk", path.join(work, "x.vk")];
  let r = tool(["import", "--r1cs", a.r1cs, "--zkey", b.c.zkey, ...x], { expectStatus: null });
  t.ok(r.status !== 0 && r.stderr.includes("another circuit"),
       "a zkey made for another circuit is refused");
  r = tool(["import", "--r1cs", a.r1cs, "--zkey", a.c.zkey0, ...x], { expectStatus: null });
  t.ok(r.status !== 0 && r.stderr.includes("no phase-2 contribution"),
       "a zkey without a contribution is refused");
  r = tool(["import", "--r1cs", a.r1cs, "--zkey", a.c.zkey0, ...x, "--allow-insecure"]);
  t.ok(JSON.parse(r.stdout).insecure === true, "... and imported as insecure when allowed");

  // our own development keys, verifying key exported for snarkjs
  const dir = path.join(work, "dev");
  fs.mkdirSync(dir);
  const pk = path.join(dir, "dev.pk"), vk = path.join(dir, "dev.vk");
  tool(["dev-setup", "--r1cs", a.r1cs, "--pk", pk, "--vk", vk]);
  const vkJson = path.join(dir, "verification_key.json");
  tool(["export-vk", "--vk", vk, "--out", vkJson]);
  const devVk = readJson(vkJson);
  const dp = ourProof(a.r1cs, a.wtns, pk, dir, "dev");
  t.ok(await snarkjsVerifies(s, devVk, dp.pub, dp.proof),
       "snarkjs verifies a proof made with our own keys and our exported verifying key");
  t.ok(!await snarkjsVerifies(s, devVk, tamperPublic(dp.pub, dp.pub.length - 1), dp.proof),
       "... and rejects it for a changed public input");
  t.ok(!await snarkjsVerifies(s, a.c.vk, dp.pub, dp.proof),
       "... and under another key (the ceremony's) it is rejected");
});
