#include "core/transfer/request.hpp"

namespace enygma {

Result<TransferRequest> parse_transfer_request(std::string_view json_text, unsigned k) {
  // Only the payment fields.
  return payment::parse_request<TransferRequest>(
      json_text, k, [](const payment::RequestJson&, TransferRequest&) { return ok_status(); });
}

std::string transfer_request_to_json(const TransferRequest& req) {
  payment::RequestJsonWriter doc;
  payment::write_payment_fields(doc, req);
  return doc.dump();
}

}  // namespace enygma
