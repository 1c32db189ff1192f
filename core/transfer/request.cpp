#include "core/transfer/request.hpp"

namespace enygma {

Result<TransferRequest> parse_transfer_request(std::string_view json_text, unsigned k) {
  if (k < kMinK || k > kMaxK) return payment::unsupported_k(k);
  auto doc = payment::RequestJson::parse(json_text);
  if (!doc) return doc.error();
  TransferRequest req;
  if (Status st = payment::read_payment_fields(*doc, k, req); !st) return st.error();
  return req;
}

std::string transfer_request_to_json(const TransferRequest& req) {
  payment::RequestJsonWriter doc;
  payment::write_payment_fields(doc, req);
  return doc.dump();
}

}  // namespace enygma
