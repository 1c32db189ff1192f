// Shared helpers of the interoperability script tests (tests/interop/*.mjs): command-line
// options from CMake, running enygma / interop_tool, snarkjs (in-process through its library
// API: the functions its CLI calls, without a Node start and a curve build per command), a
// cached local powers of tau, and a small assertion/reporting layer.
// Exit codes: 0 passed, 1 failed, 77 skipped (node_modules missing; a failure under
// ENYGMA_TESTS_REQUIRE_TOOLS=1).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

export const SKIP = 77;
export const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

export function parseArgs(argv = process.argv.slice(2)) {
  const o = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith("--") || i + 1 >= argv.length) {
      throw new Error(`bad argument ${argv[i]}`);
    }
    o[argv[i].slice(2)] = argv[i + 1];
  }
  for (const key of ["root", "work", "cache", "enygma", "tool"]) {
    if (!o[key]) throw new Error(`--${key} is required`);
  }
  return o;
}

// Skips (exit 77), or fails where ENYGMA_TESTS_REQUIRE_TOOLS=1 (`make test` sets it: a tool
// that setup installs being missing is a broken setup, not a reason to pass).
export function skip(why) {
  if (process.env.ENYGMA_TESTS_REQUIRE_TOOLS === "1") {
    console.log(`FAILED (ENYGMA_TESTS_REQUIRE_TOOLS=1, no skipping): ${why}`);
    process.exit(1);
  }
  console.log(`SKIPPED: ${why}`);
  process.exit(SKIP);
}

// The npm devDependencies (npm ci at the repository root) or skip.
export function requireModules(root, names) {
  for (const name of names) {
    if (!fs.existsSync(path.join(root, "node_modules", name, "package.json"))) {
      skip(`node_modules/${name} is missing: run 'npm ci' at the repository root`);
    }
  }
}

export function freshDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// Runs a program; returns {status, stdout, stderr, ms}. Throws when the status differs from
// expectStatus (null: any status).
export function run(program, args, { expectStatus = 0, cwd } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(program, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  const result = { status: r.status, stdout: r.stdout, stderr: r.stderr, ms };
  if (expectStatus !== null && r.status !== expectStatus) {
    throw new Error(
      `${path.basename(program)} ${args.join(" ")}: exit ${r.status}, expected ${expectStatus}\n` +
        `stdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`);
  }
  if (process.env.INTEROP_VERBOSE) {
    console.log(`  [${Math.round(ms)} ms] ${path.basename(program)} ${args[0]}`);
  }
  return result;
}

// The snarkjs CLI (one process per command), for the few checks that show the command line
// users type behaves as the library calls do.
export function snarkjsCli(root, args, options = {}) {
  const cli = path.join(root, "node_modules", "snarkjs", "build", "cli.cjs");
  return run(process.execPath, [cli, ...args], options);
}

// snarkjs's library (the same code its CLI runs), resolved from the repository root.
export async function loadSnarkjs(root) {
  const require = createRequire(path.join(root, "package.json"));
  const m = await import(require.resolve("snarkjs"));
  return m.groth16 ? m : m.default;
}

// wtns check logs its verdict through logger.warn unconditionally: a silent logger.
export const quietLogger = { debug() {}, info() {}, warn() {}, error() {} };

// Times an async step for the log.
export async function timed(what, fn) {
  const t0 = process.hrtime.bigint();
  const result = await fn();
  console.log(`     ${what}: ${Math.round(Number(process.hrtime.bigint() - t0) / 1e6)} ms`);
  return result;
}

// A prepared (phase-2 ready) powers of tau of 2^power, made by snarkjs with one contribution
// and cached: powersoftau new / contribute / prepare phase2. A test ptau only: its
// contributor's entropy is a fixed string.
export async function preparedPtau(s, cacheDir, power) {
  fs.mkdirSync(cacheDir, { recursive: true });
  const final = path.join(cacheDir, `pot${power}_final.ptau`);
  if (fs.existsSync(final)) return final;
  const tag = `${process.pid}.tmp`;
  const p0 = path.join(cacheDir, `pot${power}_0000.ptau.${tag}`);
  const p1 = path.join(cacheDir, `pot${power}_0001.ptau.${tag}`);
  const tmp = `${final}.${tag}`;
  const curve = await s.curves.getCurveFromName("bn128");
  await s.powersOfTau.newAccumulator(curve, power, p0, quietLogger);
  await s.powersOfTau.contribute(p0, p1, "interop test", "interop test entropy", quietLogger);
  await s.powersOfTau.preparePhase2(p1, tmp, quietLogger);
  fs.renameSync(tmp, final);
  fs.rmSync(p0, { force: true });
  fs.rmSync(p1, { force: true });
  return final;
}

// A prepared ptau of a KNOWN tau written natively by interop_tool (tests/interop/test_ptau.hpp;
// `snarkjs zkey verify` accepts zkeys made from it): about a second instead of the many
// minutes `snarkjs powersoftau prepare phase2` needs for 2^14 on two cores. Test keys only.
// Cached.
export function testPtau(tool, cacheDir, power) {
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `test_insecure_pot${power}.ptau`);
  if (!fs.existsSync(file)) run(tool, ["ptau", "--power", String(power), "--out", file]);
  return file;
}

// ceil(log2(constraints + public + 1)) as snarkjs's groth16 setup needs it, read from the
// .r1cs header.
export function r1csPower(file) {
  const b = fs.readFileSync(file);
  // container (12) + section header (12) + n8 (4) + prime (32): nWires at 60
  const nOutputs = b.readUInt32LE(64), nPub = b.readUInt32LE(68), nConstraints = b.readUInt32LE(84);
  const rows = nConstraints + nOutputs + nPub + 1;
  let power = 0;
  while ((1 << power) < rows) ++power;
  return power;
}

// A phase-2 ceremony on top of the ptau: groth16 setup, one contribution, the verification
// key (written as verification_key.json).
export async function ceremony(s, ptau, r1cs, dir, name = "interop test") {
  const zkey0 = path.join(dir, "circuit_0000.zkey");
  const zkey = path.join(dir, "circuit_final.zkey");
  const vkFile = path.join(dir, "verification_key.json");
  await timed("snarkjs groth16 setup", () => s.zKey.newZKey(r1cs, ptau, zkey0, quietLogger));
  await timed("snarkjs zkey contribute",
              () => s.zKey.contribute(zkey0, zkey, name, "interop entropy", quietLogger));
  const vk = await s.zKey.exportVerificationKey(zkey, quietLogger);
  fs.writeFileSync(vkFile, JSON.stringify(vk, null, 1));
  return { zkey0, zkey, vk, vkFile };
}

export const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));

// snarkjs groth16 verify (library): true/false.
export async function snarkjsVerifies(s, vk, pub, proof) {
  return await s.groth16.verify(vk, pub, proof, quietLogger);
}

// public signals with the first (or index-th) value changed: plus one, reduced mod r.
export function tamperPublic(pub, index = 0) {
  const out = [...pub];
  out[index] = ((BigInt(out[index]) + 1n) % R).toString();
  return out;
}

// Minimal test bookkeeping: each check prints one line, then "name: N passed, N failed".
export class Checks {
  constructor(name) {
    this.name = name;
    this.passed = 0;
    this.failed = 0;
  }
  ok(cond, what) {
    if (cond) {
      this.passed++;
      console.log(`ok   ${what}`);
    } else {
      this.failed++;
      console.log(`FAIL ${what}`);
    }
    return cond;
  }
  finish() {
    console.log(`${this.name}: ${this.passed} passed, ${this.failed} failed`);
    // exit explicitly: snarkjs keeps its curve's worker threads alive
    process.exit(this.failed === 0 && this.passed > 0 ? 0 : 1);
  }
}

// Runs main(), turning exceptions into a failure with the message.
export async function main(name, fn) {
  const checks = new Checks(name);
  const t0 = process.hrtime.bigint();
  try {
    await fn(checks);
  } catch (e) {
    checks.failed++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
  }
  console.log(`${name}: ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  checks.finish();
}

// ---- the transfer circuit through the enygma CLI -------------------------------------------

export const transferKeyName = (dir, k, ext) => path.join(dir, `transfer-k${k}.${ext}`);

// Seeded (insecure) development keys for k in dir.
export function transferDevKeys(o, k, dir) {
  fs.mkdirSync(dir, { recursive: true });
  run(o.enygma, ["setup", "--circuit", "transfer", "--k", String(k), "--out", dir,
    "--insecure-seed", "interop"]);
}

// The options naming a circuit of `enygma info`'s JSON: --circuit NAME [--k K].
export function circuitArgs(info) {
  const family = info.k === undefined ? info.circuit : info.circuit.replace(/-k\d+$/, "");
  return info.k === undefined ? ["--circuit", family] : ["--circuit", family, "--k", String(info.k)];
}

// A proof of request for k with DIR's keys, as the reference response JSON in outRef.
export function transferProve(o, k, request, keysDir, outRef) {
  run(o.enygma, ["prove", "--k", String(k), "--input", request, "--keys", keysDir,
    "--out", outRef]);
  return readJson(outRef);
}

// snarkjs's proof.json and public.json of a reference response (enygma export-proof).
export function toSnarkjsProof(o, ref, proofOut, publicOut) {
  run(o.enygma, ["export-proof", "--proof", ref, "--out-proof", proofOut,
    "--out-public", publicOut]);
  return { proof: readJson(proofOut), pub: readJson(publicOut) };
}
