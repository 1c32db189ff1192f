// Import of snarkjs Groth16 .zkey files (the output of `snarkjs groth16 setup` and of each
// `snarkjs zkey contribute` / `zkey beacon` of a phase-2 ceremony) as our ProvingKey and
// VerifyingKey, for a circuit we know (its R1CS).
//
// The .zkey layout (iden3 container "zkey" version 1, core/r1cs/iden3_binfile.hpp):
//   1  protocol (u32): 1 = Groth16 (2 PLONK and 10 FFLONK are refused)
//   2  n8q | q | n8r | r | nVars | nPublic | domainSize (u32 each but q, r: 32 bytes LE) |
//      alpha1 | beta1 | beta2 | gamma2 | delta1 | delta2
//   3  IC: nPublic + 1 G1 points              [(beta A_j + alpha B_j + C_j)(tau) / gamma]
//   4  coefficients of A and B: count (u32), then (matrix u32, constraint u32, wire u32,
//      value 32 bytes) with value = c * R^2 mod r (so that a Montgomery product with a
//      standard-form witness value gives c * w in Montgomery form); the IC rows
//      A[nConstraints + s][s] = 1 come last
//   5  A:  nVars G1 points, 6  B1: nVars G1, 7  B2: nVars G2 (identity where a wire is absent)
//   8  C:  nVars - nPublic - 1 G1 points (private wires, over delta)
//   9  H:  domainSize G1 points, [L^(2n)_(2i+1)(tau) / delta]: see core/groth16/quotient.hpp
//   10 contributions: circuit hash (64 bytes, BLAKE2b-512 of the initial key) | count (u32) |
//      per contribution: deltaAfter G1 | g1_s G1 | g1_sx G1 | g2_spx G2 | transcript (64) |
//      type (u32: 0 contribution, 1 beacon) | parameter length (u32) | parameters
//      (1 name, 2 beacon iterations exponent, 3 beacon hash)
// Points are affine, coordinates 32 bytes LE in Montgomery form (x*2^256 mod q), G2 real part
// first, the identity as (0, 0): our in-memory AffinePoint form, so import is a decode.
// snarkjs's domain convention (nConstraints + nPublic + 1 rows, odd-coset H) is ours.
//
// What import checks: the header matches the circuit (wires, public inputs, a domain that holds
// its rows), the A and B coefficients equal our R1CS's (a .zkey made for another circuit is
// refused; C is not stored in a .zkey, so a circuit differing only in C shows up as proofs that
// fail to verify), every coordinate is reduced and every point on its curve, the verifying
// key's G2 points are in the subgroup, beta1/beta2 and delta1/delta2 are the same exponents
// (pairing checks), every wire's B1 and B2 are the same exponent (one random linear
// combination of all of them, two MSMs and a pairing check), and the last contribution's delta
// is the key's delta.
// What it does NOT check: the contribution chain back to the powers of tau (each
// contribution's proof of knowledge, the A/B/H/L/C queries against the ptau, which nothing in
// the zkey alone can vouch for: see import_zkey; B1 and B2 agree, not necessarily with the
// circuit). That is
// `snarkjs zkey verify circuit.r1cs pot.ptau circuit.zkey`, which the ceremony's coordinator
// and every participant should run; see README "Interoperability".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/groth16/keys.hpp"
#include "core/groth16/setup.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct ZkeyContribution {
  std::string name;  // may be empty
  bool beacon = false;
  uint32_t beacon_iterations_exp = 0;  // beacons only
  std::vector<uint8_t> beacon_hash;    // beacons only
};

struct ZkeyInfo {
  uint32_t num_vars = 0;
  uint32_t num_public = 0;
  uint32_t domain_size = 0;
  uint32_t num_coefficients = 0;  // entries of section 4
  std::array<uint8_t, 64> circuit_hash{};
  std::vector<ZkeyContribution> contributions;
};

// The header and contributions only (no circuit needed): for listings and messages.
Result<ZkeyInfo> read_zkey_info(std::span<const uint8_t> zkey);

struct ZkeyImportOptions {
  // A zkey straight out of `snarkjs groth16 setup` has delta = 1: anyone can forge proofs
  // with it. Refused unless this is set; the imported keys are then marked insecure_dev.
  bool allow_no_contributions = false;
};

struct ImportedZkey {
  Groth16Keys keys;  // circuit_digest = r1cs.digest(); insecure_dev as described above
  ZkeyInfo info;
};

// Errors have rule "zkey" and name the section ("coefficients", "H", ...).
Result<ImportedZkey> import_zkey(std::span<const uint8_t> zkey, const R1cs& r1cs, ThreadPool& pool,
                                 const ZkeyImportOptions& options = {});

// snarkjs's domain for a circuit: the smallest power of two of at least its rows (constraints
// + public inputs + 1); import_zkey refuses another.
uint64_t zkey_domain_size(const R1cs& r1cs);
// The most bytes a zkey of this circuit can hold (its sections at their sizes for r1cs, and up
// to 64 MiB of contribution records): a larger file is refused before it is read.
uint64_t zkey_size_bound(const R1cs& r1cs);

// The snarkjs way to print a 64-byte hash: 4 lines of 4 groups of 8 hex digits.
std::string format_zkey_hash(const std::array<uint8_t, 64>& hash);

}  // namespace enygma
