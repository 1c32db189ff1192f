// Fuzz target: the transfer request JSON (parse_transfer_request) and the rules R1..R16
// (validate_transfer, validate_transfer_all) on whatever parses.
// Invariants: parse_json reads the text as nlohmann::json::parse does (the same verdict and the
// same value, types included; a NUL byte, which ends nlohmann's input, is refused); a parsed
// request prints and re-parses to the same values; validate_transfer fails exactly when
// validate_transfer_all reports something, with the same first rule.
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "core/util/json_parse.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;

bool same(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  return a == b;
}

bool same_requests(const TransferRequest& a, const TransferRequest& b) {
  return a.k == b.k && a.sender_id == b.sender_id && a.secret_key == b.secret_key &&
         a.previous_sender_balance == b.previous_sender_balance &&
         a.previous_sender_random_value == b.previous_sender_random_value &&
         a.sender_tx_value == b.sender_tx_value && same(a.shared_secrets, b.shared_secrets) &&
         same(a.tx_values, b.tx_values) && same(a.tx_random_values, b.tx_random_values) &&
         same(a.public_inputs(), b.public_inputs());
}

void check_request(std::string_view text, unsigned k) {
  auto req = parse_transfer_request(text, k);
  if (!req) {
    FUZZ_CHECK(req.error().rule == "input" && !req.error().message.empty());
    return;
  }
  FUZZ_CHECK(req->k == k && req->public_inputs().size() == 8 * size_t(k) + 2);
  auto again = parse_transfer_request(transfer_request_to_json(*req), k);
  FUZZ_CHECK(again.ok() && same_requests(*req, *again));

  const Status first = validate_transfer(*req);
  const std::vector<Error> all = validate_transfer_all(*req);
  FUZZ_CHECK(first.ok() == all.empty());
  if (!first.ok()) FUZZ_CHECK(first.error().rule == all.front().rule);
  for (const Error& e : all) FUZZ_CHECK(!e.rule.empty() && !e.message.empty());
}

// The project's reader against nlohmann's (whose reading it promises): the dump tells 1 from 1.0
// and from -1 of another integer type no more than ==, so the types are compared as well.
void check_reader(std::string_view text) {
  const ParsedJson ours = parse_json(text);
  const nlohmann::json theirs = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (text.find('\0') != std::string_view::npos) {
    // nlohmann ends its input at a NUL byte (ignoring what follows); it is refused here, as Go's
    // encoding/json refuses it, wherever it stands.
    FUZZ_CHECK(ours.value.is_discarded());
    return;
  }
  FUZZ_CHECK(ours.value.is_discarded() == theirs.is_discarded());
  FUZZ_CHECK(ours.value.is_discarded() != ours.syntax_error.empty());
  if (theirs.is_discarded()) return;
  FUZZ_CHECK(ours.value == theirs && ours.value.type() == theirs.type() &&
             ours.value.dump() == theirs.dump());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = enygma::fuzz::as_text(data, size);
  check_reader(text);
  // The seeds are k = 2 and k = 6 requests; every other k takes the same code paths.
  check_request(text, 2);
  check_request(text, 6);
  return 0;
}
