// Parsing the JSON a client sends (requests, proofs, verifying keys) into nlohmann::json with
// one check nlohmann leaves out: a member name given twice in one object. RFC 8259 leaves the
// meaning of such text to the reader (nlohmann and Go's encoding/json keep the last value,
// other readers the first), so a relayer and this prover could read two different requests in
// the same bytes. Every caller refuses it, naming the member.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace enygma {

struct ParsedJson {
  nlohmann::json value;   // discarded (value.is_discarded()) when the text is not JSON
  std::string duplicate;  // the first member named twice, as a path ("keyPairsIn[0].publicKey"),
                          // or empty
};

// Never throws for bad text (nlohmann is told not to); std::bad_alloc passes through.
ParsedJson parse_json(std::string_view text);

// "<path> is given twice (a member name must be unique within its object)".
std::string duplicate_member_message(const std::string& path);

}  // namespace enygma
