#include "core/groth16/solidity_verifier.hpp"

#include <cctype>
#include <cstdio>
#include <set>
#include <vector>

#include "core/field/fr.hpp"
#include "core/groth16/key_format.hpp"

namespace enygma {

namespace {

std::string hex32(const std::array<uint8_t, 32>& bytes) {
  std::string s = "0x";
  char b[3];
  for (uint8_t x : bytes) {
    snprintf(b, sizeof b, "%02x", x);
    s += b;
  }
  return s;
}

class Source {
 public:
  Source& line(const std::string& text = {}) {
    text_ += text;
    text_ += '\n';
    return *this;
  }
  void constant(const std::string& name, const Fp& value) {
    line("    uint256 internal constant " + name + " = " + value.to_decimal() + ";");
  }
  void g1(const std::string& name, const G1Affine& p) {
    constant(name + "_X", p.x);
    constant(name + "_Y", p.y);
  }
  // EIP-197 order: imaginary part first.
  void g2(const std::string& name, const G2Affine& p) {
    constant(name + "_X_IM", p.x.c1);
    constant(name + "_X_RE", p.x.c0);
    constant(name + "_Y_IM", p.y.c1);
    constant(name + "_Y_RE", p.y.c0);
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

}  // namespace

namespace {

// Solidity's elementary type names, keywords all: uint / int with no size or 8..256 in steps of
// 8, bytes and bytes1..bytes32, fixed / ufixed alone or MxN (M as for int, N in 0..80).
bool is_elementary_type(std::string_view name) {
  auto number = [](std::string_view digits, unsigned& value) {
    if (digits.empty() || digits.size() > 3 || digits[0] == '0') return false;
    value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      value = value * 10 + unsigned(c - '0');
    }
    return true;
  };
  auto bits = [&](std::string_view digits) {
    unsigned m = 0;
    return number(digits, m) && m % 8 == 0 && m >= 8 && m <= 256;
  };
  for (std::string_view stem : {"uint", "int"}) {
    if (name.substr(0, stem.size()) == stem) {
      const std::string_view rest = name.substr(stem.size());
      if (rest.empty() || bits(rest)) return true;
    }
  }
  if (name == "bytes") return true;
  if (name.substr(0, 5) == "bytes") {
    unsigned size = 0;
    if (number(name.substr(5), size) && size >= 1 && size <= 32) return true;
  }
  for (std::string_view stem : {"ufixed", "fixed"}) {
    if (name.substr(0, stem.size()) != stem) continue;
    const std::string_view rest = name.substr(stem.size());
    if (rest.empty()) return true;
    const size_t x = rest.find('x');
    unsigned n = 0;
    if (x != std::string_view::npos && bits(rest.substr(0, x)) &&
        (rest.substr(x + 1) == "0" || (number(rest.substr(x + 1), n) && n <= 80))) {
      return true;
    }
  }
  return false;
}

// ALPHA_X, BETA_X_IM, IC12_Y...: the key's constants in the contract.
bool is_key_constant(std::string_view name) {
  std::string_view point;
  for (std::string_view p : {"ALPHA_", "BETA_", "GAMMA_", "DELTA_"}) {
    if (name.substr(0, p.size()) == p) point = p;
  }
  if (point.empty() && name.substr(0, 2) == "IC") {
    const size_t digits = name.find_first_not_of("0123456789", 2);
    if (digits > 2 && digits != std::string_view::npos && name[digits] == '_') {
      point = name.substr(0, digits + 1);
    }
  }
  if (point.empty()) return false;
  const std::string_view rest = name.substr(point.size());
  return rest == "X" || rest == "Y" || rest == "X_IM" || rest == "X_RE" || rest == "Y_IM" ||
         rest == "Y_RE";
}

}  // namespace

bool is_spdx_expression(std::string_view text) {
  // Tokens: "(", ")" and words of [A-Za-z0-9.+-]; spaces between them.
  std::vector<std::string_view> tokens;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ' ') {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens.push_back(text.substr(i++, 1));
    } else {
      const size_t start = i;
      while (i < text.size() && (isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.' ||
                                 text[i] == '-' || text[i] == '+')) {
        ++i;
      }
      if (i == start) return false;  // a character no expression holds
      tokens.push_back(text.substr(start, i - start));
    }
  }
  const auto is_operator = [](std::string_view t) {
    return t == "AND" || t == "OR" || t == "WITH";
  };
  // An id: [A-Za-z0-9.-]+, '+' only at its end (or_later) and only where allowed.
  const auto is_id = [&](std::string_view t, bool or_later) {
    if (t.empty() || t == "(" || t == ")" || is_operator(t)) return false;
    if (or_later && t.back() == '+') t.remove_suffix(1);
    return !t.empty() && t.find('+') == std::string_view::npos;
  };
  // expression := term ((AND | OR) term)*; term := "(" expression ")" | id [WITH exception-id].
  // Parentheses are counted, not recursed into (no depth limit to guard).
  size_t at = 0, depth = 0;
  for (;;) {
    while (at < tokens.size() && tokens[at] == "(") ++at, ++depth;
    if (at >= tokens.size() || !is_id(tokens[at], true)) return false;
    ++at;
    if (at < tokens.size() && tokens[at] == "WITH") {
      if (++at >= tokens.size() || !is_id(tokens[at], false)) return false;
      ++at;
    }
    while (at < tokens.size() && tokens[at] == ")") {
      if (depth == 0) return false;
      ++at, --depth;
    }
    if (at == tokens.size()) return depth == 0;
    if (tokens[at] != "AND" && tokens[at] != "OR") return false;
    ++at;
  }
}

bool is_usable_contract_name(std::string_view name) {
  // Solidity's keywords and reserved words, its units and the names the contract itself
  // declares (members, parameters, locals, assembly variables and the assembly built-ins used):
  // a contract named like one of them does not compile or compiles with a shadowing warning.
  static const std::set<std::string_view> kTaken = {
      // keywords
      "abstract", "address", "anonymous", "as", "assembly", "bool", "break", "calldata", "catch",
      "constant", "constructor", "continue", "contract", "delete", "do", "else", "emit", "enum",
      "event", "external", "fallback", "false", "for", "function", "hex", "if", "immutable",
      "import", "indexed", "interface", "internal", "is", "library", "mapping", "memory",
      "modifier", "new", "override", "payable", "pragma", "private", "public", "pure", "receive",
      "return", "returns", "storage", "string", "struct", "this", "super", "true", "try", "type",
      "unchecked", "unicode", "using", "view", "virtual", "while", "transient", "error", "revert",
      "throw", "leave", "_",
      // built-ins (a contract named so shadows them)
      "msg", "block", "tx", "abi", "assert", "require", "keccak256", "sha256", "ripemd160",
      "ecrecover", "addmod", "mulmod", "gasleft", "blockhash", "blobhash", "selfdestruct", "now",
      "sha3", "suicide",
      // reserved for future use
      "after", "alias", "apply", "auto", "byte", "case", "copyof", "default", "define", "final",
      "implements", "in", "inline", "let", "macro", "match", "mutable", "null", "of", "partial",
      "promise", "reference", "relocatable", "sealed", "sizeof", "static", "supports", "switch",
      "typedef", "typeof", "var",
      // units
      "wei", "gwei", "ether", "seconds", "minutes", "hours", "days", "weeks", "years",
      // the contract's own names
      "R", "Q", "NUM_PUBLIC_INPUTS", "CIRCUIT_DIGEST", "verifyProof", "publicCombination", "mulAdd",
      "pA", "pB", "pC", "pubSignals", "ok", "x", "y", "i", "s", "k", "px", "py", "input", "product",
      "success", "buf", "mload", "mstore", "staticcall", "gas", "add", "and", "PAIRING_GAS",
      "iszero", "revert"};
  if (name.empty() || name.size() > 64 || kTaken.count(name) || is_elementary_type(name) ||
      is_key_constant(name)) {
    return false;
  }
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$';
    bool digit = c >= '0' && c <= '9';
    if (!(alpha || (i > 0 && digit))) return false;
  }
  return true;
}

std::string solidity_verifier_source(const VerifyingKey& vk,
                                     const SolidityVerifierOptions& options) {
  const std::string n = std::to_string(vk.num_public);
  // (a name that could be more than a name in the source: not printed)
  const std::string circuit =
      options.circuit_name.empty() || !is_key_circuit_name(options.circuit_name)
          ? "a Groth16 circuit"
          : options.circuit_name;
  Source s;
  s.line("// SPDX-License-Identifier: " + options.license);
  s.line("// Generated by `enygma export-solidity` for " + circuit + ".");
  s.line("// Circuit digest " + hex32(vk.circuit_digest) + ".");
  s.line("// Regenerate it from the verifying key rather than editing it.");
  s.line("pragma solidity >=0.8.13 <0.9.0;");
  s.line();
  s.line("/// @title Groth16 verifier (BN254) for " + circuit);
  s.line("/// @notice verifyProof returns true exactly when (pA, pB, pC) is a valid proof for the");
  s.line("///         " + n + " public inputs. The arguments are the reference proof JSON:");
  s.line("///         pA = pi_a = [x, y], pB = pi_b = [[x.im, x.re], [y.im, y.re]] (imaginary");
  s.line("///         part first, the EIP-197 order), pC = pi_c = [x, y], pubSignals =");
  s.line("///         public_signal in the order of the statement.");
  s.line("/// @dev Checks e(-A, B) * e(alpha, beta) * e(vk_x, gamma) * e(C, delta) == 1 with");
  s.line(
      "///      vk_x = IC0 + sum_i pubSignals[i] * IC(i+1), using the precompiles ecAdd (0x06),");
  s.line("///      ecMul (0x07) and ecPairing (0x08). Never reverts on bad input: a public input");
  s.line("///      >= R, a coordinate >= Q or a point the precompiles refuse gives false. The");
  s.line("///      pairing, the one precompile that sees the proof's points, is given the gas");
  s.line(
      "///      EIP-1108 prices it at (45,000 + 34,000 per pair) and no more, so a refused point");
  s.line("///      costs about what a valid proof does; a call with too little gas left to finish");
  s.line("///      reverts instead of answering false.");
  s.line("contract " + options.contract_name + " {");
  s.line("    /// The scalar field: every public input must be below R.");
  s.line("    uint256 internal constant R = " + to_decimal(Fr::kModulus) + ";");
  s.line("    /// The base field of the curve.");
  s.line("    uint256 internal constant Q = " + to_decimal(Fp::kModulus) + ";");
  s.line("    /// The pairing precompile's gas for the four pairs (EIP-1108).");
  s.line("    uint256 internal constant PAIRING_GAS = 181000;");
  s.line();
  s.line("    uint256 public constant NUM_PUBLIC_INPUTS = " + n + ";");
  s.line("    bytes32 public constant CIRCUIT_DIGEST = " + hex32(vk.circuit_digest) + ";");
  s.line();
  s.line("    // Verifying key; G2 coordinates as (x.im, x.re, y.im, y.re).");
  s.g1("ALPHA", vk.alpha1);
  s.g2("BETA", vk.beta2);
  s.g2("GAMMA", vk.gamma2);
  s.g2("DELTA", vk.delta2);
  s.line("    // IC0 + sum_i input_i * IC(i+1) is the public inputs' part of the statement.");
  for (size_t i = 0; i < vk.ic.size(); ++i) s.g1("IC" + std::to_string(i), vk.ic[i]);
  s.line();
  s.line("    function verifyProof(");
  s.line("        uint256[2] calldata pA,");
  s.line("        uint256[2][2] calldata pB,");
  // Solidity has no zero-length arrays: a key without public inputs takes none.
  const bool inputs = vk.num_public > 0;
  s.line(inputs ? "        uint256[2] calldata pC," : "        uint256[2] calldata pC");
  if (inputs) s.line("        uint256[" + n + "] calldata pubSignals");
  s.line("    ) external view returns (bool) {");
  s.line("        if (pA[0] >= Q || pA[1] >= Q || pC[0] >= Q || pC[1] >= Q) return false;");
  s.line(
      "        if (pB[0][0] >= Q || pB[0][1] >= Q || pB[1][0] >= Q || pB[1][1] >= Q) return "
      "false;");
  if (inputs) {
    s.line("        for (uint256 i = 0; i < " + n + "; ++i) {");
    s.line("            if (pubSignals[i] >= R) return false;");
    s.line("        }");
  }
  s.line(std::string("        (uint256 x, uint256 y) = publicCombination(") +
         (inputs ? "pubSignals" : "") + ");");
  s.line();
  s.line("        // Four pairs (G1 x, G1 y, G2 x.im, x.re, y.im, y.re) for ecPairing.");
  s.line("        uint256[24] memory input;");
  s.line("        input[0] = pA[0];");
  s.line("        input[1] = (Q - pA[1]) % Q; // -A; the identity (0, 0) stays itself");
  s.line("        input[2] = pB[0][0];");
  s.line("        input[3] = pB[0][1];");
  s.line("        input[4] = pB[1][0];");
  s.line("        input[5] = pB[1][1];");
  s.line("        input[6] = ALPHA_X;");
  s.line("        input[7] = ALPHA_Y;");
  s.line("        input[8] = BETA_X_IM;");
  s.line("        input[9] = BETA_X_RE;");
  s.line("        input[10] = BETA_Y_IM;");
  s.line("        input[11] = BETA_Y_RE;");
  s.line("        input[12] = x;");
  s.line("        input[13] = y;");
  s.line("        input[14] = GAMMA_X_IM;");
  s.line("        input[15] = GAMMA_X_RE;");
  s.line("        input[16] = GAMMA_Y_IM;");
  s.line("        input[17] = GAMMA_Y_RE;");
  s.line("        input[18] = pC[0];");
  s.line("        input[19] = pC[1];");
  s.line("        input[20] = DELTA_X_IM;");
  s.line("        input[21] = DELTA_X_RE;");
  s.line("        input[22] = DELTA_Y_IM;");
  s.line("        input[23] = DELTA_Y_RE;");
  s.line("        uint256[1] memory product;");
  s.line("        bool success;");
  s.line("        // Enough gas for the pairing's own (a call passes on at most 63/64 of what is");
  s.line("        // left): with it, a failure is the precompile refusing a point of the proof.");
  s.line("        if (gasleft() < PAIRING_GAS + PAIRING_GAS / 63 + 5000) revert();");
  s.line("        assembly (\"memory-safe\") {");
  s.line("            success := staticcall(PAIRING_GAS, 0x08, input, 0x300, product, 0x20)");
  s.line("        }");
  s.line("        return success && product[0] == 1;");
  s.line("    }");
  s.line();
  s.line("    /// IC0 + sum_i s[i] * IC(i+1) (valid points and scalars below R: the precompiles");
  s.line("    /// refuse none of them, and a failure is a lack of gas, which reverts).");
  s.line(inputs ? "    function publicCombination(uint256[" + n +
                      "] calldata s) private view returns (uint256 x, uint256 y) {"
                : "    function publicCombination() private pure returns (uint256 x, uint256 y) {");
  s.line("        x = IC0_X;");
  s.line("        y = IC0_Y;");
  for (uint32_t i = 0; i < vk.num_public; ++i) {
    const std::string p = "IC" + std::to_string(i + 1);
    s.line("        (x, y) = mulAdd(x, y, " + p + "_X, " + p + "_Y, s[" + std::to_string(i) +
           "]);");
  }
  s.line("    }");
  if (inputs) {  // (no products without inputs)
    s.line();
    s.line("    /// (x, y) + k * (px, py) with ecMul and ecAdd, skipped for k = 0; reverts when a");
    s.line("    /// precompile fails (out of gas: its inputs are valid).");
    s.line("    function mulAdd(uint256 x, uint256 y, uint256 px, uint256 py, uint256 k)");
    s.line("        private view returns (uint256, uint256)");
    s.line("    {");
    s.line("        if (k == 0) return (x, y);");
    s.line("        assembly (\"memory-safe\") {");
    s.line("            // scratch space above the free memory pointer: [x, y, k*P]");
    s.line("            let buf := mload(0x40)");
    s.line("            mstore(buf, px)");
    s.line("            mstore(add(buf, 0x20), py)");
    s.line("            mstore(add(buf, 0x40), k)");
    s.line(
        "            if iszero(staticcall(gas(), 0x07, buf, 0x60, add(buf, 0x40), 0x40)) { "
        "revert(0, 0) }");
    s.line("            mstore(buf, x)");
    s.line("            mstore(add(buf, 0x20), y)");
    s.line("            if iszero(staticcall(gas(), 0x06, buf, 0x80, buf, 0x40)) { revert(0, 0) }");
    s.line("            x := mload(buf)");
    s.line("            y := mload(add(buf, 0x20))");
    s.line("        }");
    s.line("        return (x, y);");
    s.line("    }");
  }
  s.line("}");
  return s.take();
}

}  // namespace enygma
