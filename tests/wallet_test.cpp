// The wallet: it rebuilds the reference requests from their inputs, its requests are valid for
// every k and many seeds, it refuses inputs that cannot make a valid request, and the seed
// derivation is deterministic and covers the edges of R11.
#include "core/transfer/wallet.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/payment/relation.hpp"
#include "core/transfer/validate.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using test::read_vector;

TEST(Wallet, RebuildsTheReferenceRequests) {
  for (auto [name, k] : {std::pair{"transfer-k2.json", 2u}, {"transfer-k6.json", 6u}}) {
    const std::string text = read_vector(name);
    if (text.empty()) GTEST_SKIP() << name;
    auto req = parse_transfer_request(text, k);
    ASSERT_TRUE(req.ok());
    auto in = wallet_inputs_from_request(*req);
    ASSERT_TRUE(in.ok()) << in.error().message;
    EXPECT_EQ(in->sender_index, 0u);
    for (const Payee& p : in->payees) EXPECT_EQ(p.index, 1u);
    // Only the sender's secrets, the others' keys and shared secrets and the public context go
    // in; every derived value must come out as the reference has it.
    WalletInputs blank = *in;
    blank.shared_secrets[0] = Fr::zero();
    blank.public_keys[0] = Fr::zero();
    blank.previous_commits[0] = {Fr::zero(), Fr::zero()};
    auto rebuilt = make_transfer_checked(blank);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message;
    EXPECT_EQ(transfer_request_to_json(*rebuilt), text) << name;
  }
}

TEST(Wallet, RequestsAreValidForEveryKAndManySeeds) {
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    const uint64_t seeds = k <= 6 ? 12 : 4;
    for (uint64_t seed = 0; seed < seeds; ++seed) {
      WalletInputs in = wallet_inputs_from_seed(k, seed * 1000 + k);
      ASSERT_TRUE(check_wallet_inputs(in).ok());
      TransferRequest q = make_transfer(in);
      Status st = validate_transfer(q);
      ASSERT_TRUE(st.ok()) << "k " << k << " seed " << seed << ": " << st.error().message;
      EXPECT_EQ(sender_index(q), in.sender_index);
      for (const Payee& p : in.payees) EXPECT_EQ(q.tx_values[p.index], p.amount);
      EXPECT_EQ(q.public_inputs().size(), 8u * k + 2);
    }
  }
}

TEST(Wallet, SeedDerivationIsDeterministicAndWellFormed) {
  std::set<std::string> shapes;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    WalletInputs a = wallet_inputs_from_seed(5, seed), b = wallet_inputs_from_seed(5, seed);
    EXPECT_EQ(a.secret_key, b.secret_key);
    EXPECT_EQ(a.balance, b.balance);
    EXPECT_EQ(a.amount, b.amount);
    EXPECT_EQ(a.anonymity_set, b.anonymity_set);
    std::array<uint8_t, 32> bytes{};
    for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(seed >> (8 * i));
    EXPECT_EQ(wallet_inputs_from_seed(5, bytes).secret_key, a.secret_key);
    EXPECT_NE(wallet_inputs_from_seed(5, seed + 1).secret_key, a.secret_key);
    // R11's ranges, distinct ids, values below l where the relation reduces
    EXPECT_TRUE(relation::below_pow2(a.balance, 250));
    EXPECT_LE(cmp(a.amount.to_u256(), a.balance.to_u256()), 0);
    std::set<std::string> ids;
    for (const Fr& id : a.anonymity_set) ids.insert(id.to_decimal());
    EXPECT_EQ(ids.size(), 5u);
    ASSERT_EQ(a.payees.size(), 1u);
    EXPECT_NE(a.sender_index, a.payees[0].index);
    EXPECT_EQ(a.payees[0].amount, a.amount);
    EXPECT_EQ(relation::reduce_mod_l(a.secret_key), a.secret_key);
    for (const Fr& ss : a.shared_secrets) EXPECT_EQ(relation::reduce_mod_l(ss), ss);
    if (a.balance.is_zero()) shapes.insert("V = 0");
    if (a.amount.is_zero()) shapes.insert("v = 0");
    if (a.amount == a.balance && !a.balance.is_zero()) shapes.insert("v = V > 0");
    if (a.balance == relation::pow2(250) - Fr::one()) shapes.insert("V = 2^250 - 1");
    if (!a.amount.is_zero() && a.amount != a.balance) shapes.insert("0 < v < V");
  }
  EXPECT_EQ(shapes.size(), 5u);
}

TEST(Wallet, RefusesInputsThatCannotMakeAValidRequest) {
  using payment::WalletFault;
  const WalletInputs good = wallet_inputs_from_seed(4, uint64_t(9));
  ASSERT_TRUE(check_wallet_inputs(good).ok());
  ASSERT_FALSE(wallet_inputs_refusal(good).has_value());
  // The field named, and why as data (the CLI names its options from it): the fault, and the
  // entries it concerns.
  struct Case {
    const char* field;
    void (*edit)(WalletInputs&);
    WalletFault fault = WalletFault::kField;
    size_t at = 0, other = 0;
  };
  const Case cases[] = {
      {"k", [](WalletInputs& in) { in.k = 1; }},
      {"k", [](WalletInputs& in) { in.k = 17; }},
      {"anonymity_set", [](WalletInputs& in) { in.anonymity_set.pop_back(); }},
      {"shared_secrets", [](WalletInputs& in) { in.shared_secrets.push_back(Fr::one()); }},
      {"public_keys", [](WalletInputs& in) { in.public_keys.clear(); }},
      {"previous_commits", [](WalletInputs& in) { in.previous_commits.resize(2); }},
      {"sender_index", [](WalletInputs& in) { in.sender_index = 4; }},
      {"payees[0]", [](WalletInputs& in) { in.payees[0].index = 9; },
       WalletFault::kPayeeIndexNotBelowK},
      {"payees[0]", [](WalletInputs& in) { in.payees[0].index = in.sender_index; },
       WalletFault::kPayeeIsSender},
      {"payees[1]",
       [](WalletInputs& in) {
         in.payees.push_back({in.payees[0].index, Fr::zero()});
       },
       WalletFault::kPayeeIndexRepeated, 1, 0},
      {"payees[2]",
       [](WalletInputs& in) {
         in.payees.clear();
         in.sender_index = 0;
         in.payees.push_back({1, in.amount});
         in.payees.push_back({2, Fr::zero()});
         in.payees.push_back({2, Fr::zero()});
       },
       WalletFault::kPayeeIndexRepeated, 2, 1},
      {"payees[0]", [](WalletInputs& in) { in.payees[0].amount = relation::pow2(250); },
       WalletFault::kPayeeAmountTooLarge},
      {"payees", [](WalletInputs& in) { in.payees[0].amount += Fr::one(); },
       WalletFault::kPayeesSumDiffers},
      {"payees",
       [](WalletInputs& in) {
         in.payees.clear();
         in.amount = in.balance = Fr::one();
       },
       WalletFault::kPayeesSumDiffers},
      {"anonymity_set",
       [](WalletInputs& in) {
         in.anonymity_set[in.payees[0].index] = in.anonymity_set[in.sender_index];
       },
       WalletFault::kSenderIdRepeated, good.payees[0].index},
      {"balance", [](WalletInputs& in) { in.balance = relation::pow2(250); }},
      {"amount", [](WalletInputs& in) { in.amount = in.balance + Fr::one(); },
       WalletFault::kAmountOverBalance},
  };
  for (const Case& c : cases) {
    WalletInputs in = good;
    c.edit(in);
    Status st = check_wallet_inputs(in);
    ASSERT_FALSE(st.ok()) << c.field;
    EXPECT_EQ(st.error().field, c.field);
    EXPECT_EQ(st.error().rule, "wallet");
    EXPECT_FALSE(make_transfer_checked(in).ok());
    const auto refusal = wallet_inputs_refusal(in);
    ASSERT_TRUE(refusal.has_value()) << c.field;
    EXPECT_EQ(refusal->error.message, st.error().message);
    EXPECT_EQ(refusal->error.field, c.field);
    EXPECT_EQ(refusal->fault, c.fault) << st.error().message;
    EXPECT_EQ(refusal->at, c.at) << st.error().message;
    EXPECT_EQ(refusal->other, c.other) << st.error().message;
  }
  // An empty previous_commits means (0, 1) for everyone but the sender.
  WalletInputs in = good;
  in.previous_commits.clear();
  auto q = make_transfer_checked(in);
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(validate_transfer(*q).ok());
  EXPECT_EQ(q->previous_commits[in.payees[0].index], babyjubjub::identity());
}

TEST(Wallet, SplitsTheAmountAmongSeveralPayees) {
  // R15: the payees' parts add up to v; every other member receives 0.
  for (unsigned k = kMinK; k <= kMaxK; ++k) {
    for (unsigned n : {2u, 3u}) {
      for (uint64_t seed = 0; seed < 4; ++seed) {
        WalletInputs in = wallet_inputs_from_seed(k, seed + 100 * n, n);
        SCOPED_TRACE(testing::Message() << "k " << k << " payees " << n << " seed " << seed);
        ASSERT_EQ(in.payees.size(), std::min(n, k - 1));
        const TransferRequest q = make_transfer(in);
        Status st = validate_transfer(q);
        ASSERT_TRUE(st.ok()) << st.error().message;
        Fr total = Fr::zero();
        std::set<unsigned> paid;
        for (const Payee& p : in.payees) {
          EXPECT_EQ(q.tx_values[p.index], p.amount);
          total += p.amount;
          paid.insert(p.index);
        }
        EXPECT_EQ(total, q.sender_tx_value);
        for (unsigned i = 0; i < k; ++i) {
          if (i != in.sender_index && !paid.count(i)) {
            EXPECT_TRUE(q.tx_values[i].is_zero()) << i;
          }
        }
        // The request's wallet inputs rebuild it.
        auto back = wallet_inputs_from_request(q);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(transfer_request_to_json(make_transfer(*back)), transfer_request_to_json(q));
      }
    }
  }
}

TEST(Wallet, WipeSecrets) {
  WalletInputs in = wallet_inputs_from_seed(3, uint64_t(10));
  in.wipe_secrets();
  EXPECT_TRUE(in.secret_key.is_zero());
  EXPECT_TRUE(in.balance.is_zero());
  EXPECT_TRUE(in.balance_random.is_zero());
  EXPECT_TRUE(in.amount.is_zero());
  for (const Fr& ss : in.shared_secrets) EXPECT_TRUE(ss.is_zero());
  for (const Payee& p : in.payees) EXPECT_TRUE(p.amount.is_zero());
}

}  // namespace
}  // namespace enygma
