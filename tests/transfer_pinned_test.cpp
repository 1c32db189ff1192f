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
      "1706f2d0f379e85f7c6285e9c608dec1d5ea506cc859d1709d91e6d7429c4692",  // k = 2
      "60b8a86fc2f10c20eb74b577b47074178bef7a9b3c264facf20f311a53ebfc3d",  // k = 3
      "21ca720b868d749e4e265f088df42ac6f321dbd3ecfc8485fcf3e77996de33ab",  // k = 4
      "538dd810a4244f5afe24e6f89934ad1f7de13a3ccc06e6eb952bdc8af5840d10",  // k = 5
      "243c3478263a439cfa22274955e7d3933e4524071cbd449d39b255d9075a1db5",  // k = 6
      "fa0c8f210f5d9765e8b5d7b35b54ceb675adf44bc407f803f46cd3e97b4aae8a",  // k = 7
      "96d2edf7085c2fdb05ea936dacada860375a60aaff73440cbafc56e207c6e1d1",  // k = 8
      "7fa7a0213c1df3a460df5d5abb6d60ddbb8b18fe7b198149442f1c51978d0fe7",  // k = 9
      "524137ecb9aa85044c51c858395bec9375e1c313735d55d2ccbcac9e8fc01192",  // k = 10
      "4265cc51c55a70d5a39e9e8a6edf59ff4696d6ecb76a4e55fffa2607300665a1",  // k = 11
      "563c0b7360dcccd53ef791e5f1317debf0965f78e92ddea24ad32f2944950c6a",  // k = 12
      "7c83515b9811fa7762b7c8b34b1694b3d0765dceea82f6c0fba1d8d68f648bf4",  // k = 13
      "81e31bb3ad8a8404fe7c1d0f8dde74fc101071759f57e4d4f2507a2d8cd721b4",  // k = 14
      "505b59a0d73080544780b763c65f52bf5a757951a42cc8f4d7e72468b87e0325",  // k = 15
      "82bc0b88df4053c173365d7796b1d8d9d66974e0507ce0515a296886b5e042ad",  // k = 16
  };
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const auto d = transfer_r1cs(k).digest();
    EXPECT_EQ(hex(d.data(), d.size()), expected[k]) << "k=" << k;
  }
}

TEST(TransferPinned, Witnesses) {
  EXPECT_EQ(witness_digest(transfer_witness(test::load_request_vector("transfer-k2.json", 2))),
            "f77b39c2cc7b4a0a5d58f089ec9098b6dcba432bf39b43e329cf02ea1a012001");
  EXPECT_EQ(witness_digest(transfer_witness(test::load_request_vector("transfer-k6.json", 6))),
            "1162a11fd6160211546062ae791e1e0080831286055eccc18dac486c37e817e8");
  EXPECT_EQ(witness_digest(transfer_witness(make_transfer(wallet_inputs_from_seed(3, 31, 2)))),
            "bf8eb31f8735ac29660ace525364acfde404a378072d199abcb6d04dd49d882b");
  EXPECT_EQ(witness_digest(transfer_witness(make_transfer(wallet_inputs_from_seed(16, 5, 4)))),
            "810cbc63f14a4b98a370c452fbc5233ed053f5bce63905e042bc953a814e81cf");
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
       "e7b9fc14af216e727357848231f850a5815786605085ab765b8064e54b8a78be"
       "909e13e9e42fb906ced250393b729a95a32891e93f6899b81ba9f4ce28e52756"
       "0f19f26e3c52aa70998f32cc3489ff4d50e10c75d28ad28aad37d0e0565d59d1"
       "c3cb506b21a6a1e82c766329dc6e53e856f92e95e22feaa684206135f43968e9"},
      {DomainSizes::kAny,
       "d046f35f2cee515f331c614dec00a27b3cf6a5da40157f88dd54e50798655bc5"
       "accbbae3c4a4e888cedd6756d5a3114f1a765c44d8ffb6f97ed30fba6b361f0c"
       "14f46345a4ee0a3cff55b9535af7f6eb442d6ba33bf115cc5f44f059c04967ca"
       "94d8f77b0eadbb7f0a198aa5e50d15d220f5568d584c4e68ab4644865ce4eadd"}};
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
