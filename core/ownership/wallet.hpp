// What a wallet computes to build a valid ownership request ("What a wallet computes" in
// ../shared/docs/ownership-relation.md) from a 32-byte seed (deterministic): a random Merkle
// tree of depth 8 (append-only, the first leaves occupied by other notes) holding the owner's
// note Note(PK(sk), saltIn, uid) at a random index; a random uid (a hash, as
// primitives.UniqueId), recipient key, salts, payment commitment and tree number.
#pragma once

#include <array>
#include <cstdint>

#include "core/ownership/request.hpp"

namespace enygma {

OwnershipRequest ownership_request_from_seed(const std::array<uint8_t, 32>& seed);
// The same with the seed's 8 little-endian bytes followed by zeros.
OwnershipRequest ownership_request_from_seed(uint64_t seed);

}  // namespace enygma
