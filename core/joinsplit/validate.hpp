// Rules J1..J10 of ../shared/docs/joinsplit-relation.md, and this project's J11 (no input with
// an amount publishes the dummies' nullifier Z; docs/circuits.md), evaluated natively on a
// parsed request, for every one of the ten slots (the dummies included): the oracle the circuit
// is tested against. A request is valid exactly when every rule holds.
//
// Order: J1, ..., J11. validate_joinsplit reports the first failing rule; validate_joinsplit_all
// every failing rule once (its first offending field). J10 (nftCommitment and the tree numbers
// enter a constraint) is a property of the circuit, which no request can break: it never fails
// here (see joinsplit_circuit.cpp and the Groth16 binding test).
//
// Error format: message "Jn: <field> ...", rule "Jn", field e.g. "merkleRoots[0]". Fields are
// the request's keys, or the public signal's names for computed values ("nullifiers[3]",
// "commitmentsOut[1]", "revertCommitment"), or, for the relation's intermediate values,
// "keyPairsIn[i].publicKey" (pk_i, J2) and "leaves[i]" (leaf_i, J4).
#pragma once

#include <vector>

#include "core/joinsplit/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

inline constexpr int kJoinSplitRules = 11;

Status validate_joinsplit(const JoinSplitRequest& req);
std::vector<Error> validate_joinsplit_all(const JoinSplitRequest& req);

// The rule numbers of errors ("J5" -> 5; "O4" -> 4; 0 for anything else, e.g. "input").
std::vector<int> dvp_failed_rules(const std::vector<Error>& errors);

}  // namespace enygma
