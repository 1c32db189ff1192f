// Rules O1..O7 of ../shared/docs/ownership-relation.md evaluated natively on a parsed request:
// the oracle the circuit is tested against. O4 in its project form (the root is checked for
// every uid, 0 included). O7 (paymentCommitment and treeNumber enter a constraint) is a
// property of the circuit that no request can break: it never fails here.
//
// Error format: message "On: <field> ...", rule "On", field e.g. "merkleRoot"; computed public
// values by their public-signal names ("nullifier", "commitmentOut", "revertCommitment"), the
// intermediate values as "keyPairIn.publicKey" (pk, O1) and "leaf" (O3).
#pragma once

#include <vector>

#include "core/ownership/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

inline constexpr int kOwnershipRules = 7;

Status validate_ownership(const OwnershipRequest& req);
std::vector<Error> validate_ownership_all(const OwnershipRequest& req);

}  // namespace enygma
