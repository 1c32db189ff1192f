// Compiling a verifier contract with solc (npm solc: the compiler as WebAssembly, offline) and
// running it in an in-process EVM (@ethereumjs/evm, BN254 precompiles 0x06-0x08 included).
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

export const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
export const Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;

export async function loadEvmModules(root) {
  const require = createRequire(path.join(root, "package.json"));
  const solc = require("solc");
  const evmMod = await import(require.resolve("@ethereumjs/evm"));
  const util = await import(require.resolve("@ethereumjs/util"));
  return { solc, evmMod, util };
}

// Returns {abi, bytecode (hex, no 0x), selector (hex)} of the contract's verifyProof.
export function compile(solc, file, contractName, evmVersion = "cancun") {
  const source = fs.readFileSync(file, "utf8");
  const input = {
    language: "Solidity",
    sources: { "Verifier.sol": { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion,
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.methodIdentifiers"] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors || []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const warnings = (out.errors || []).filter((e) => e.severity !== "error");
  const c = out.contracts["Verifier.sol"][contractName];
  if (!c) throw new Error(`contract ${contractName} not in the output`);
  const sig = Object.keys(c.evm.methodIdentifiers).find((s) => s.startsWith("verifyProof("));
  return {
    bytecode: c.evm.bytecode.object,
    selector: c.evm.methodIdentifiers[sig],
    signature: sig,
    warnings: warnings.map((w) => w.formattedMessage),
    version: solc.version(),
  };
}

export class Chain {
  static async create(mods) {
    const c = new Chain();
    c.mods = mods;
    c.evm = await mods.evmMod.createEVM();
    c.caller = mods.util.createAddressFromString("0x00000000000000000000000000000000000000ee");
    return c;
  }
  async deploy(bytecodeHex) {
    const r = await this.evm.runCall({
      caller: this.caller, data: this.mods.util.hexToBytes("0x" + bytecodeHex),
      gasLimit: 30_000_000n,
    });
    if (r.execResult.exceptionError) {
      throw new Error(`deploy failed: ${r.execResult.exceptionError.error}`);
    }
    this.address = r.createdAddress;
    return { address: r.createdAddress, gas: r.execResult.executionGasUsed };
  }
  // Calls verifyProof with gasLimit of execution gas (default 10M); returns {ok: bool (the
  // returned value), reverted, gas, calldataGas}.
  async verify(selector, pA, pB, pC, pub, gasLimit = 10_000_000n) {
    const words = [...pA, ...pB[0], ...pB[1], ...pC, ...pub].map((x) => BigInt(x));
    const hex = selector + words.map((w) => w.toString(16).padStart(64, "0")).join("");
    const data = this.mods.util.hexToBytes("0x" + hex);
    const r = await this.evm.runCall({
      caller: this.caller, to: this.address, data, gasLimit: BigInt(gasLimit),
    });
    let calldataGas = 0;
    for (const b of data) calldataGas += b === 0 ? 4 : 16;
    const ret = r.execResult.returnValue;
    const reverted = !!r.execResult.exceptionError;
    const ok = !reverted && ret.length === 32 && ret[31] === 1 &&
               ret.slice(0, 31).every((b) => b === 0);
    return { ok, reverted, gas: Number(r.execResult.executionGasUsed), calldataGas };
  }
}

// The variations of a valid proof that must all be rejected (those of its public inputs where it
// has some).
export function tamperedCalls(ref) {
  const A = ref.pi_a, B = ref.pi_b, C = ref.pi_c, P = ref.public_signal;
  const bump = (x, m) => ((BigInt(x) + 1n) % m).toString();
  const plusQ = (x, add) => (add ? (BigInt(x) + Q).toString() : x);
  const inputs = P.length === 0 ? [] : [
    ["a changed public input", A, B, C, [bump(P[0], R), ...P.slice(1)]],
    ["the last public input changed", A, B, C, [...P.slice(0, -1), bump(P[P.length - 1], R)]],
    ["a public input + r (same value mod r)", A, B, C,
     [(BigInt(P[0]) + R).toString(), ...P.slice(1)]],
  ];
  return [
    ...inputs,
    ["pi_a changed (x + 1)", [bump(A[0], Q), A[1]], B, C, P],
    ["pi_a negated", [A[0], ((Q - BigInt(A[1])) % Q).toString()], B, C, P],
    ["pi_b coordinates swapped (real part first)", A,
     [[B[0][1], B[0][0]], [B[1][1], B[1][0]]], C, P],
    ["pi_c changed (y + 1)", A, B, [C[0], bump(C[1], Q)], P],
    ["pi_c = pi_a", A, B, A, P],
    // each of the eight coordinates + q (the same value mod q: a malleable form, refused)
    ...[0, 1].map((i) => [`pi_a[${i}] + q`, A.map((x, j) => plusQ(x, i === j)), B, C, P]),
    ...[0, 1, 2, 3].map((i) => [`pi_b[${i >> 1}][${i & 1}] + q`, A,
      B.map((pair, j) => pair.map((x, t) => plusQ(x, 2 * j + t === i))), C, P]),
    ...[0, 1].map((i) => [`pi_c[${i}] + q`, A, B, C.map((x, j) => plusQ(x, i === j)), P]),
  ];
}
