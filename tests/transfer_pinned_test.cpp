// The transfer circuit pinned byte for byte: the R1CS digest for every k = 2..16, the witness of
// the reference requests and of wallet requests, and a proof under fixed setup and blinding
// seeds. Recorded before the transfer circuit was moved onto the shared payment gadgets
// (core/payment): a refactoring of those gadgets must leave all of them unchanged, because
// keys made for transfer-k<k> (and the proofs the browser compares with the CLI under
// --test-seed) depend on every byte. Update only with a deliberate change of the circuit.
#include <gtest/gtest.h>
#include <sodium.h>

#include <string>
#include <utility>

#include "core/groth16/proof_format.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/wallet.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

std::string hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

// BLAKE2b-256 of the canonical little-endian words of every witness value.
std::string witness_digest(const std::vector<Fr>& w) {
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 32);
  for (const Fr& x : w) {
    const U256 v = x.to_u256();
    crypto_generichash_update(&st, reinterpret_cast<const uint8_t*>(v.w), sizeof v.w);
  }
  uint8_t out[32];
  crypto_generichash_final(&st, out, 32);
  return hex(out, 32);
}

TEST(TransferPinned, R1csDigestsForEveryK) {
  const char* expected[kMaxK + 1] = {
      "",
      "",                                                                  // no k = 0, 1
      "f9cc280fc902ef64d5bd99d771d9589cd1ec5aa96bb7c2cad16e72e83118653d",  // k = 2
      "9bb9031f09c33d5a0a894c5e093c2231a77a12f121ce7923c4ce4fe594b45079",  // k = 3
      "47a16866f660ac788c32cb1fa73dd07d908e5a1ba4a2f6e8bdbb84deda9e78d0",  // k = 4
      "96d218688df1f3e41d63b5f496f474b7c9a20edf8942c051b7433b4cdf7365cf",  // k = 5
      "a896b98e912432172d53ecc6646e0f01135654dff90331be6a1202c55999086c",  // k = 6
      "90f3c6ec89b7cf6012961823026fbc2692ce98e7718f09813652b27d2eb8ea92",  // k = 7
      "530226e7e887a5e30f3575378b9bdfb183c71788d833c97f20a67e39e23f29f0",  // k = 8
      "0722ac38c295e7abad6d8049df6ae60ac23842d6c95c3f0be6f7f423b6c301dd",  // k = 9
      "12c7a6c8a2b6c9a7507e2bdc55a65d10a5359dd9ceaf6562f5540dd230c62913",  // k = 10
      "2c247723b4ecf2eb712fb91e3f800c9af41c09902b4db9d2a07fd6e09d2a9a00",  // k = 11
      "457c9aa7e4452de2cb4b2af2d02af4aa9d3ad0ad8bc58cb0aa8df73d11e831f0",  // k = 12
      "6375208a757cd789feeeb0aa3a5e476be6745baf85640602cc7431981815d974",  // k = 13
      "aba1da0b2e5d92dd1cd07a89000bedf034744b61e64d83cb8445dd0891a14eae",  // k = 14
      "c990fb9652854d31bcac0ba621801bdf0b1a6726f65326672a98176a02da8ff7",  // k = 15
      "49c03574aa58f9271af3097262db10f115177ce67129a3fddd8203a6e388ce81",  // k = 16
  };
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const auto d = transfer_r1cs(k).digest();
    EXPECT_EQ(hex(d.data(), d.size()), expected[k]) << "k=" << k;
  }
}

TEST(TransferPinned, Witnesses) {
  EXPECT_EQ(witness_digest(transfer_witness(test::load_request_vector("transfer-k2.json", 2))),
            "a075bd25e7a7612a79782bb59df91ff915f99192080a4254c407dc25aff3736f");
  EXPECT_EQ(witness_digest(transfer_witness(test::load_request_vector("transfer-k6.json", 6))),
            "2a5b734d179464506f61c47650379454246a6feadd2d61a7abd80d892891060b");
  EXPECT_EQ(witness_digest(transfer_witness(make_transfer(wallet_inputs_from_seed(3, 31, 2)))),
            "10a49404113c84a171dac5e6227df02f6c9303109e715c83f7b936029983e468");
  EXPECT_EQ(witness_digest(transfer_witness(make_transfer(wallet_inputs_from_seed(16, 5, 4)))),
            "bdcb01c723a6fc720563209339b8a63d256c8866de34670712cfd913cdcf3567");
}

// The proof under fixed setup and blinding seeds, with keys on the power-of-two domain (snarkjs's;
// this value was pinned before the domains of size 3 * 2^k) and on this project's (transfer-k2:
// 3 * 2^12 rows), each the same from the R1CS and from the key's constraint shape, on one thread
// and two, and each a proof that verifies.
TEST(TransferPinned, ProofUnderTestSeeds) {
  const uint8_t setup_seed[] = {'p', 'i', 'n', 's', 'e', 't', 'u', 'p'};
  const uint8_t prove_seed[] = {'p', 'i', 'n', 'p', 'r', 'o', 'v', 'e'};
  const R1cs& r1cs = transfer_r1cs(2);
  std::vector<Fr> w = transfer_witness(test::load_request_vector("transfer-k2.json", 2));
  ProveOptions options;
  options.insecure_test_seed = prove_seed;
  const std::pair<DomainSizes, const char*> cases[] = {
      {DomainSizes::kPowerOfTwo,
       "e0b16220de5738fd3ddb7841cc3c33ee07a2d07597e67c9fbc8ff914be3ee1d1"
       "deca15e6c4c7774aa985423c113ee2dce460613f4ad7ffae15974ca5f035976c"
       "2df0a4e63b22afa1f32012db21aa71267265891cae5e47cefc0a4606ef7b2151"
       "d620145f5eb00cb593660fcba7e29de7939c551d4fc2dc52cc23732fc84ae0a9"},
      {DomainSizes::kAny,
       "a3c0219eca60e45f91e7097ef50875ae0802e7c5825936d340a20ac6a2551737"
       "ec854fa67a5559dcc7343e7d6e9ede9e550d93f3e39cec5767e0f0315790fd13"
       "0eeabf76cec0fea758bf16fcb86f98f437cc62475b67e51399408e61c4194a7b"
       "eaa3339b56dac1156dd1ced1d851cc246878b73123b67c797bea5f5ec21dd03c"}};
  for (const auto& [sizes, pinned] : cases) {
    const Groth16Keys keys =
        groth16_setup_insecure_from_seed(r1cs, setup_seed, sequential_pool(), sizes);
    EXPECT_EQ(keys.pk.domain_size, sizes == DomainSizes::kAny ? 3u << 12 : 1u << 14);
    auto proof = groth16_prove(keys.pk, r1cs, w, sequential_pool(), options);
    ASSERT_TRUE(proof.ok()) << proof.error().message;
    const auto bytes = proof_to_bytes(*proof);
    EXPECT_EQ(hex(bytes.data(), bytes.size()), pinned);
    const std::vector<Fr> pub(w.begin() + 1, w.begin() + 1 + r1cs.num_public);
    EXPECT_TRUE(groth16_verify(prepare_verifying_key(keys.vk), *proof, pub).ok());
    ASSERT_TRUE(keys.pk.shape);
    ThreadPool two(2);
    for (ThreadPool* pool : {&sequential_pool(), &two}) {
      auto from_shape = groth16_prove(keys.pk, *keys.pk.shape, w, *pool, options);
      ASSERT_TRUE(from_shape.ok()) << from_shape.error().message;
      const auto b = proof_to_bytes(*from_shape);
      EXPECT_EQ(hex(b.data(), b.size()), pinned) << pool->size();
    }
  }
}

}  // namespace
}  // namespace enygma
