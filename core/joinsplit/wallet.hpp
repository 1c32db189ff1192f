// What a wallet computes to build a valid join-split request, from a 32-byte seed
// (deterministic: the same seed gives the same request on every target), for make-request,
// the tests and the demo.
//
// The request spends `inputs` real input slots (0..10; slots inputs..9 are the padding dummies)
// from one or two random Merkle trees of depth 8 (append-only: the first leaves occupied by
// random other notes), the inputs' notes at distinct random indices (so the nullifiers differ,
// J9, even under one spend key across trees). Some seeds use one spend key for every input (as
// the relayer does), others one key per input. Among the real slots after the first, a seed may
// put a zero-amount entry: either a dummy (all zero, as the padding) or a genuine zero-value
// note in the tree. Amounts are below 10^36 and add up to at most 2 * (10^36 - 1), split over
// the two outputs; a few seeds give the edges (amounts of 10^36 - 1, everything to one output).
#pragma once

#include <array>
#include <cstdint>

#include "core/joinsplit/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

// The request for (format, seed, inputs); aborts when inputs > 10 (a programming error: the
// family's make_request checks it).
JoinSplitRequest joinsplit_request_from_seed(NoteFormat format, const std::array<uint8_t, 32>& seed,
                                             unsigned inputs);
// The same with the seed's 8 little-endian bytes followed by zeros.
JoinSplitRequest joinsplit_request_from_seed(NoteFormat format, uint64_t seed, unsigned inputs);

}  // namespace enygma
