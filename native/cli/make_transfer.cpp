// enygma make-transfer: build a valid transfer request (the wallet's side of
// ../shared/docs/transfer-relation.md), from a seed or from explicit values, as the reference
// request JSON.
#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/primitives/babyjubjub.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/wallet.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/options.hpp"

namespace enygma::cli {
namespace {

const char kMakeTransferHelp[] =
    "usage: enygma make-transfer --k K --seed S [--split N] [--out FILE]\n"
    "       enygma make-transfer --k K --secret-key SK --balance V --random R\n"
    "                            (--amount v --recipient-index I | --recipients I:a,I:a,..)\n"
    "                            --sender-index J --anonymity-set a0,a1,..\n"
    "                            --block-number B [--shared-secrets s0,s1,..]\n"
    "                            [--public-keys p0,p1,..] [--out FILE]\n"
    "\n"
    "Builds a transfer request that satisfies R1..R16 and prints it as the reference JSON\n"
    "(POST /generateProofTransfer-{k}). For tests and demos: values on the command line are\n"
    "visible to other local users (ps) and kept in shell history.\n"
    "\n"
    "  --k K               anonymity-set size, 2..16\n"
    "  --seed S            derive every value from S (a decimal 64-bit integer without\n"
    "                      leading zeros, or 64 hex digits for a 32-byte seed): for tests\n"
    "                      and demos\n"
    "  --split N           with --seed: v is shared by N recipients (1..k-1; default 1)\n"
    "  --secret-key SK     the sender's secret key\n"
    "  --balance V         the committed previous balance (V < 2^250)\n"
    "  --random R          the blinding of the previous commitment Pedersen(V, R) (R < l)\n"
    "  --amount v          the amount sent (v <= V), all of it to --recipient-index\n"
    "  --recipient-index I the recipient's position (I != J)\n"
    "  --recipients I:a,.. several recipients: position I receives a; v is their sum and\n"
    "                      every other member receives 0 (R15)\n"
    "  --sender-index J    the sender's position in the anonymity set\n"
    "  --anonymity-set ..  k comma-separated ids; entry J is the sender's id\n"
    "  --block-number B    the block number\n"
    "  --shared-secrets .. k comma-separated shared secrets (entry J is ignored: derived);\n"
    "                      random values below l when omitted\n"
    "  --public-keys ..    k comma-separated public keys (entry J is ignored: derived);\n"
    "                      random values below l when omitted\n"
    "  --out FILE          write the JSON to FILE instead of standard output\n"
    "\n"
    "All numbers are decimal. Exit status: 0 written, 2 the values cannot make a valid request\n"
    "({\"error\", \"rule\", \"field\"} on standard error), 1 FILE cannot be written, 64 a usage\n"
    "error.\n";

Error usage(const std::string& field, const std::string& what) {
  return make_error("--" + field + " " + what, "usage", field);
}

Result<Fr> field_value(const std::string& option, std::string_view text) {
  auto f = Fr::from_decimal(text);
  // The text is not quoted: it may be a secret key or a blinding value.
  if (!f) return usage(option, "is not a canonical field element (a decimal below p)");
  return *f;
}

// (views of the option's text, and room for every value: no copy of a secret freed unwiped)
Result<std::vector<Fr>> field_list(const std::string& option, std::string_view text) {
  std::vector<Fr> out;
  out.reserve(size_t(std::count(text.begin(), text.end(), ',')) + 1);
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    auto f = field_value(option, text.substr(start, comma - start));
    if (!f) return f.error();
    out.push_back(*f);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// A random value below l (for the other participants' values the user did not give).
Fr random_mod_l() {
  uint8_t b[64];
  randombytes_buf(b, sizeof(b));
  Fr f = *Fr::from_canonical(BjjScalar::from_wide_le_bytes(b).to_u256());
  sodium_memzero(b, sizeof(b));
  return f;
}

// "I:a,I:a,...": positions and amounts.
Result<SecureVector<Payee>> payee_list(std::string_view text, unsigned k) {
  SecureVector<Payee> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma - start);
    const size_t colon = item.find(':');
    auto index =
        colon == std::string::npos ? std::nullopt : u256_from_decimal(item.substr(0, colon));
    if (!index || index->w[1] | index->w[2] | index->w[3] || index->w[0] >= k) {
      return usage("recipients", "entry " + std::to_string(out.size()) +
                                     " is not POSITION:AMOUNT with a position below k");
    }
    auto amount = field_value("recipients", item.substr(colon + 1));
    if (!amount) return amount.error();
    out.push_back({unsigned(index->w[0]), *amount});
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// A position in the anonymity set: a number (else the parser's message) below k.
Result<unsigned long> index_option(const Args& args, const char* option, unsigned k) {
  auto i = args.get_uint(option, 0, 0, k - 1);
  if (i) return i;
  if (!native::parse_unsigned(*args.get(option), ~0ul)) return i.error();
  return usage(option, "is not below k");
}

Result<WalletInputs> explicit_inputs(const Args& args, unsigned k) {
  static const char* kRequired[] = {"secret-key",   "balance",       "random",
                                    "sender-index", "anonymity-set", "block-number"};
  for (const char* name : kRequired) {
    if (!args.has(name)) return usage(name, "is required (or give --seed)");
  }
  const bool several = args.has("recipients");
  if (several && args.has("recipient-index")) {
    return usage("recipient-index", "cannot be combined with --recipients");
  }
  if (!several) {
    for (const char* name : {"amount", "recipient-index"}) {
      if (!args.has(name)) return usage(name, "is required (or give --recipients or --seed)");
    }
  }
  WalletInputs in;
  in.k = k;
  struct Scalar {
    const char* option;
    Fr* out;
  } scalars[] = {{"secret-key", &in.secret_key},
                 {"balance", &in.balance},
                 {"random", &in.balance_random},
                 {"block-number", &in.block_number}};
  for (const Scalar& s : scalars) {
    auto f = field_value(s.option, *args.value(s.option));
    if (!f) return f.error();
    *s.out = *f;
  }
  auto j = index_option(args, "sender-index", k);
  if (!j) return j.error();
  in.sender_index = unsigned(*j);
  if (several) {
    auto payees = payee_list(*args.value("recipients"), k);
    if (!payees) return payees.error();
    in.payees = std::move(*payees);
    // v is what the recipients receive together (at most 15 amounts below 2^250 each, or the
    // wallet check names the one that is not).
    in.amount = Fr::zero();
    for (const Payee& p : in.payees) in.amount += p.amount;
    if (const std::string* v = args.value("amount")) {
      auto f = field_value("amount", *v);
      if (!f) return f.error();
      if (*f != in.amount) return usage("amount", "is not the sum of --recipients' amounts");
    }
  } else {
    auto v = field_value("amount", *args.value("amount"));
    if (!v) return v.error();
    in.amount = *v;
    auto r = index_option(args, "recipient-index", k);
    if (!r) return r.error();
    if (!in.amount.is_zero()) in.payees.push_back({unsigned(*r), in.amount});
  }
  auto ids = field_list("anonymity-set", *args.get("anonymity-set"));
  if (!ids) return ids.error();
  in.anonymity_set = std::move(*ids);
  for (auto [option, out] : {std::pair{"shared-secrets", &in.shared_secrets},
                             std::pair{"public-keys", &in.public_keys}}) {
    if (const std::string* text = args.value(option)) {
      auto list = field_list(option, *text);
      if (!list) return list.error();
      *out = std::move(*list);
    } else {
      out->resize(k);
      for (Fr& x : *out) x = random_mod_l();
    }
  }
  return in;
}

// The wallet's refusals (core/transfer/wallet.cpp, core/payment/wallet.cpp; rule "wallet") name
// its inputs as the library's and the WebAssembly module's callers know them (payees[1],
// anonymity_set); here they name the option that gave the value, in its words (an entry of
// --recipients, a position), from the refusal's fault and entries, the rule kept. `several`:
// the payees came from --recipients, not from --amount and --recipient-index.
Error naming_wallet_options(const payment::WalletRefusal& refusal, bool several) {
  using payment::WalletFault;
  auto refused = [](const std::string& option, const std::string& why) {
    return make_error(option + " " + why, "wallet", option);
  };
  const std::string entry = "entry " + std::to_string(refusal.at);
  switch (refusal.fault) {
    case WalletFault::kSenderIdRepeated:
      return refused("--anonymity-set",
                     entry + " repeats the sender's id (the entry at --sender-index)");
    case WalletFault::kAmountOverBalance:  // v <= V (R11)
      if (several) return refused("--recipients", "amounts add up to more than --balance (R11)");
      return refused("--amount", "exceeds --balance (R11)");
    case WalletFault::kPayeesSumDiffers:
      // v is their sum in the field: unequal as integers only when that sum wrapped past p
      return refused("--recipients", "amounts add up to p or more (R15)");
    case WalletFault::kPayeeIsSender:
      if (several) return refused("--recipients", entry + " is the sender's position");
      return refused("--recipient-index", "is --sender-index");
    case WalletFault::kPayeeIndexNotBelowK:
      if (several) return refused("--recipients", entry + "'s position is not below k");
      return refused("--recipient-index", "is not below k");
    case WalletFault::kPayeeIndexRepeated:  // several only: one payee repeats none
      return refused("--recipients",
                     entry + " repeats the position of entry " + std::to_string(refusal.other));
    case WalletFault::kPayeeAmountTooLarge:
      if (several) return refused("--recipients", entry + "'s amount is not below 2^250 (R15)");
      return refused("--amount", "is not below 2^250 (R15)");
    case WalletFault::kField:
      break;
  }
  // The inputs named after their option (k, sender_index, random, balance, the lists' sizes),
  // the wallet's words after its field's name kept ("<field> <what>", payment::wallet_error).
  static const std::pair<const char*, const char*> kOptionOf[] = {
      {"k", "--k"},
      {"sender_index", "--sender-index"},
      {"random", "--random"},
      {"balance", "--balance"},
      {"anonymity_set", "--anonymity-set"},
      {"shared_secrets", "--shared-secrets"},
      {"public_keys", "--public-keys"}};
  const Error& e = refusal.error;
  for (const auto& [name, option] : kOptionOf) {
    if (e.field == name && e.message.rfind(e.field + " ", 0) == 0) {
      return refused(option, e.message.substr(e.field.size() + 1));
    }
  }
  return e;
}

Result<WalletInputs> inputs_from_args(const Args& args, unsigned k) {
  const std::string* seed_text = args.value("seed");
  if (!seed_text) {
    if (args.has("split")) return usage("split", "needs --seed");
    return explicit_inputs(args, k);
  }
  for (const char* other :
       {"secret-key", "balance", "random", "amount", "sender-index", "recipient-index",
        "recipients", "anonymity-set", "block-number", "shared-secrets", "public-keys"}) {
    if (args.has(other)) return usage(other, "cannot be combined with --seed");
  }
  auto split = args.get_uint("split", 1, 1, k - 1);
  if (!split) return usage("split", "must be a number of recipients in 1..k-1");
  auto seed = parse_seed(*seed_text);
  if (!seed) return seed.error();
  WalletInputs in = wallet_inputs_from_seed(k, *seed, unsigned(*split));
  sodium_memzero(seed->data(), seed->size());
  return in;
}

int run_make_transfer(int argc, char** argv) {
  Args args;
  if (!args.parse(argc, argv,
                  {"k", "seed", "split", "secret-key", "balance", "random", "amount",
                   "sender-index", "recipient-index", "recipients", "anonymity-set", "block-number",
                   "shared-secrets", "public-keys", "out"},
                  {}, "enygma make-transfer")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(kMakeTransferHelp, stdout);
    return 0;
  }
  if (!args.get("k")) return fail(usage("k", "is required"));
  auto k = args.get_uint("k", 0, kMinK, kMaxK);
  if (!k) return fail(k.error());

  Result<WalletInputs> in = inputs_from_args(args, unsigned(*k));
  if (!in) return fail(in.error());
  if (auto refusal = wallet_inputs_refusal(*in)) {
    return fail(naming_wallet_options(*refusal, args.get("recipients").has_value()));
  }
  TransferRequest request = make_transfer(*in);
  std::string json = transfer_request_to_json(request);
  std::string text = request_text_line(json);
  return write_request_text(args, text);
}

Registration register_make_transfer{{"make-transfer",
                                     "build a valid transfer request (JSON) from a seed or values",
                                     &run_make_transfer}};

}  // namespace
}  // namespace enygma::cli
