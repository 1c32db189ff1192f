// The ERC-721 ownership circuit family (../shared/docs/ownership-relation.md, O1..O7) as the
// registry sees it: POST /ownership-721, /verifyProof/ownership-721, no k; make_request's
// count is unused (0 expected; any value is accepted and ignored).
#pragma once

#include "core/circuit/circuit_family.hpp"

namespace enygma {

const CircuitFamily& ownership_721_family();

}  // namespace enygma
