#include "core/groth16/proof_format.hpp"

#include <nlohmann/json.hpp>

#include "core/curve/g2_subgroup.hpp"
#include "core/curve/point_encoding.hpp"
#include "core/groth16/verifier.hpp"
#include "core/pairing/pairing.hpp"
#include "core/util/json_parse.hpp"

namespace enygma {

using ordered_json = nlohmann::ordered_json;
using json = nlohmann::json;

namespace {

Error bad(const std::string& field, const std::string& what) {
  return make_error(field + " " + what, "proof", field);
}

// ---- parsing helpers: every failure names the JSON path ------------------------------------

template <class F>
Result<F> number(const json& j, const std::string& path) {
  if (!j.is_string()) return bad(path, "must be a decimal string");
  const auto& s = j.get_ref<const std::string&>();
  auto v = F::from_decimal(s);
  if (!v) return bad(path, "is not a canonical field element (a decimal string below the modulus)");
  return *v;
}

Result<const json*> array_of(const json& j, size_t n, const std::string& path) {
  if (!j.is_array() || j.size() != n) {
    return bad(path, "must be an array of " + std::to_string(n) + " elements");
  }
  return &j;
}

Result<const json*> member(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return bad(key, "is missing");
  return &*it;
}

// [x, y] (reference) or [x, y, z] with z = "1" or "0" for infinity (snarkjs).
Result<G1Affine> g1_json(const json& j, const std::string& path, bool projective) {
  auto arr = array_of(j, projective ? 3 : 2, path);
  if (!arr) return arr.error();
  auto x = number<Fp>(j[0], path + "[0]");
  if (!x) return x.error();
  auto y = number<Fp>(j[1], path + "[1]");
  if (!y) return y.error();
  if (projective) {
    auto z = number<Fp>(j[2], path + "[2]");
    if (!z) return z.error();
    if (z->is_zero()) return G1Affine::infinity();
    if (!z->is_one()) return bad(path + "[2]", "must be \"1\" (affine) or \"0\" (infinity)");
  }
  return G1Affine{*x, *y};
}

// Fp2 as [a, b]; imaginary_first: a = c1 (reference/Ethereum order), else a = c0 (snarkjs).
Result<Fp2> fp2_json(const json& j, const std::string& path, bool imaginary_first) {
  auto arr = array_of(j, 2, path);
  if (!arr) return arr.error();
  auto a = number<Fp>(j[0], path + "[0]");
  if (!a) return a.error();
  auto b = number<Fp>(j[1], path + "[1]");
  if (!b) return b.error();
  return imaginary_first ? Fp2{*b, *a} : Fp2{*a, *b};
}

Result<G2Affine> g2_json(const json& j, const std::string& path, bool projective) {
  auto arr = array_of(j, projective ? 3 : 2, path);
  if (!arr) return arr.error();
  const bool imaginary_first = !projective;
  auto x = fp2_json(j[0], path + "[0]", imaginary_first);
  if (!x) return x.error();
  auto y = fp2_json(j[1], path + "[1]", imaginary_first);
  if (!y) return y.error();
  if (projective) {
    auto z = fp2_json(j[2], path + "[2]", false);
    if (!z) return z.error();
    if (z->is_zero()) return G2Affine::infinity();
    if (*z != Fp2::one()) return bad(path + "[2]", "must be [\"1\", \"0\"] or [\"0\", \"0\"]");
  }
  return G2Affine{*x, *y};
}

Result<std::vector<Fr>> fr_array(const json& j, const std::string& path) {
  if (!j.is_array()) return bad(path, "must be an array of decimal strings");
  std::vector<Fr> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    auto v = number<Fr>(j[i], path + "[" + std::to_string(i) + "]");
    if (!v) return v.error();
    out.push_back(*v);
  }
  return out;
}

// A refusal of the document as a whole: named in `what`, its field the member at fault or else
// the document's.
Error refused(const JsonDocument& document, const std::string& what,
              const std::string& member_field = "") {
  return make_error(what, "input",
                    member_field.empty() ? std::string(document.field) : member_field);
}

Status within_size(std::string_view text, const JsonDocument& document) {
  constexpr size_t kMaxBytes = size_t(1) << 20;
  if (text.size() <= kMaxBytes) return ok_status();
  return refused(document, std::string(document.name) + " is larger than " +
                               std::to_string(kMaxBytes) + " bytes");
}

// The text parsed into `parsed`, whose caller wipes its value (WipeValuesOnExit): a proof or a
// key holds no secret, but a client may send a request (secret keys) to a verifying route.
// Refused when it is not JSON or gives a member twice, and when it is too large: a k = 16
// response is about 10 KB, a snarkjs verifying key about 30 KB; a text far larger is none of
// them, and is refused before it is parsed (a parse takes many times its size).
Status parse_document(std::string_view text, const JsonDocument& document, ParsedJson& parsed) {
  if (Status st = within_size(text, document); !st) return st;
  parsed = parse_json(text);
  if (parsed.value.is_discarded()) {
    return refused(document, not_json_message(std::string(document.name), parsed),
                   parsed.bad_value_field);
  }
  if (!parsed.duplicate.empty())
    return refused(document, parsed.duplicate_message, parsed.duplicate);
  return ok_status();
}

// The same for a JSON object, into `doc` (the caller wipes it).
Status parse_object(std::string_view text, const JsonDocument& document, json& doc) {
  ParsedJson parsed;
  Status st = parse_document(text, document, parsed);
  doc = std::move(parsed.value);
  if (!st) return st;
  if (!doc.is_object())
    return refused(document, std::string(document.name) + " must be a JSON object");
  return ok_status();
}

// ---- writing helpers ----------------------------------------------------------------------

ordered_json dec(const Fp& x) {
  return x.to_decimal();
}
ordered_json fp2_ethereum(const Fp2& x) {
  return ordered_json::array({dec(x.c1), dec(x.c0)});
}
ordered_json fp2_snarkjs(const Fp2& x) {
  return ordered_json::array({dec(x.c0), dec(x.c1)});
}
ordered_json g1_snarkjs(const G1Affine& p) {
  if (p.is_infinity()) return ordered_json::array({"0", "1", "0"});
  return ordered_json::array({dec(p.x), dec(p.y), "1"});
}
ordered_json g2_snarkjs(const G2Affine& q) {
  if (q.is_infinity()) {
    return ordered_json::array({ordered_json::array({"0", "0"}), ordered_json::array({"1", "0"}),
                                ordered_json::array({"0", "0"})});
  }
  return ordered_json::array({fp2_snarkjs(q.x), fp2_snarkjs(q.y), ordered_json::array({"1", "0"})});
}
// snarkjs's vk_alphabeta_12: its pairing of alpha and beta, as Fp12 = Fp6 + Fp6 w, Fp6 = Fp2
// + Fp2 v + Fp2 v^2 (the tower both use), each Fp2 [c0, c1]. snarkjs's final exponentiation
// (ffjavascript's, after Fuentes-Castaneda, Knapp and Rodriguez-Henriquez) computes the reduced
// pairing to the power 2z(6z^2 + 3z + 1), z the BN parameter: a fixed power coprime to r, so
// its checks hold as ours do; raised to it here (checked against snarkjs's own file in
// tests/zkey_import_test.cpp).
ordered_json alphabeta_snarkjs(const VerifyingKey& vk) {
  static constexpr U256 kSnarkjsPower{
      {0x2e5d4e223ddedaf4ull, 0x1ea96b02d9d9e38dull, 0x3bec47df15e307c8ull, 0}};
  const Fp12 e = pairing(vk.alpha1, vk.beta2).cyclotomic_pow(kSnarkjsPower);
  auto fp6 = [](const Fp6& a) {
    return ordered_json::array({fp2_snarkjs(a.c0), fp2_snarkjs(a.c1), fp2_snarkjs(a.c2)});
  };
  return ordered_json::array({fp6(e.c0), fp6(e.c1)});
}
ordered_json fr_list(std::span<const Fr> xs) {
  ordered_json a = ordered_json::array();
  for (const auto& x : xs) a.push_back(x.to_decimal());
  return a;
}

}  // namespace

// ---- reference format -------------------------------------------------------------------------

std::string proof_to_reference_json(const Proof& proof, std::span<const Fr> public_inputs) {
  ordered_json j;
  j["pi_a"] = ordered_json::array({dec(proof.a.x), dec(proof.a.y)});
  j["pi_b"] = ordered_json::array({fp2_ethereum(proof.b.x), fp2_ethereum(proof.b.y)});
  j["pi_c"] = ordered_json::array({dec(proof.c.x), dec(proof.c.y)});
  j["public_signal"] = fr_list(public_inputs);
  return j.dump();
}

Result<ProofWithPublic> proof_from_reference_json(std::string_view json_text,
                                                  const JsonDocument& document) {
  json doc;
  WipeValuesOnExit wipe(doc);
  if (Status st = parse_object(json_text, document, doc); !st) return st.error();
  ProofWithPublic out;
  auto a = member(doc, "pi_a");
  if (!a) return a.error();
  auto pa = g1_json(**a, "pi_a", false);
  if (!pa) return pa.error();
  auto b = member(doc, "pi_b");
  if (!b) return b.error();
  auto pb = g2_json(**b, "pi_b", false);
  if (!pb) return pb.error();
  auto c = member(doc, "pi_c");
  if (!c) return c.error();
  auto pc = g1_json(**c, "pi_c", false);
  if (!pc) return pc.error();
  auto s = member(doc, "public_signal");
  if (!s) return s.error();
  auto pub = fr_array(**s, "public_signal");
  if (!pub) return pub.error();
  out.proof = Proof{*pa, *pb, *pc};
  out.public_inputs = std::move(*pub);
  return out;
}

// ---- snarkjs format ---------------------------------------------------------------------------

std::string proof_to_snarkjs_json(const Proof& proof) {
  ordered_json j;
  j["pi_a"] = g1_snarkjs(proof.a);
  j["pi_b"] = g2_snarkjs(proof.b);
  j["pi_c"] = g1_snarkjs(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = "bn128";
  return j.dump(1);
}

std::string public_to_snarkjs_json(std::span<const Fr> public_inputs) {
  return fr_list(public_inputs).dump(1);
}

std::string verifying_key_to_snarkjs_json(const VerifyingKey& vk) {
  ordered_json j;
  j["protocol"] = "groth16";
  j["curve"] = "bn128";
  j["nPublic"] = vk.num_public;
  j["vk_alpha_1"] = g1_snarkjs(vk.alpha1);
  j["vk_beta_2"] = g2_snarkjs(vk.beta2);
  j["vk_gamma_2"] = g2_snarkjs(vk.gamma2);
  j["vk_delta_2"] = g2_snarkjs(vk.delta2);
  j["vk_alphabeta_12"] = alphabeta_snarkjs(vk);
  ordered_json ic = ordered_json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_snarkjs(p));
  j["IC"] = ic;
  return j.dump(1);
}

Result<Proof> proof_from_snarkjs_json(std::string_view json_text, const JsonDocument& document) {
  json doc;
  WipeValuesOnExit wipe(doc);
  if (Status st = parse_object(json_text, document, doc); !st) return st.error();
  auto a = member(doc, "pi_a");
  if (!a) return a.error();
  auto pa = g1_json(**a, "pi_a", true);
  if (!pa) return pa.error();
  auto b = member(doc, "pi_b");
  if (!b) return b.error();
  auto pb = g2_json(**b, "pi_b", true);
  if (!pb) return pb.error();
  auto c = member(doc, "pi_c");
  if (!c) return c.error();
  auto pc = g1_json(**c, "pi_c", true);
  if (!pc) return pc.error();
  return Proof{*pa, *pb, *pc};
}

Result<std::vector<Fr>> public_from_snarkjs_json(std::string_view json_text,
                                                 const JsonDocument& document) {
  ParsedJson parsed;
  WipeValuesOnExit wipe(parsed.value);
  if (Status st = parse_document(json_text, document, parsed); !st) return st.error();
  return fr_array(parsed.value, "public");
}

Result<VerifyingKey> verifying_key_from_snarkjs_json(std::string_view json_text,
                                                     const JsonDocument& document) {
  json doc;
  WipeValuesOnExit wipe(doc);
  if (Status st = parse_object(json_text, document, doc); !st) return st.error();
  VerifyingKey vk;
  auto proto = member(doc, "protocol");
  if (!proto) return proto.error();
  if (**proto != "groth16") return bad("protocol", "must be \"groth16\"");
  auto curve = member(doc, "curve");
  if (!curve) return curve.error();
  if (**curve != "bn128") return bad("curve", "must be \"bn128\" (BN254)");
  auto alpha = member(doc, "vk_alpha_1");
  if (!alpha) return alpha.error();
  auto a1 = g1_json(**alpha, "vk_alpha_1", true);
  if (!a1) return a1.error();
  vk.alpha1 = *a1;
  const char* g2_names[3] = {"vk_beta_2", "vk_gamma_2", "vk_delta_2"};
  G2Affine* g2_fields[3] = {&vk.beta2, &vk.gamma2, &vk.delta2};
  for (int i = 0; i < 3; ++i) {
    auto m = member(doc, g2_names[i]);
    if (!m) return m.error();
    auto q = g2_json(**m, g2_names[i], true);
    if (!q) return q.error();
    *g2_fields[i] = *q;
  }
  auto ic = member(doc, "IC");
  if (!ic) return ic.error();
  if (!(*ic)->is_array() || (*ic)->empty()) return bad("IC", "must be a non-empty array");
  for (size_t i = 0; i < (*ic)->size(); ++i) {
    auto p = g1_json((**ic)[i], "IC[" + std::to_string(i) + "]", true);
    if (!p) return p.error();
    vk.ic.push_back(*p);
  }
  vk.num_public = uint32_t(vk.ic.size() - 1);
  if (auto np = doc.find("nPublic"); np != doc.end()) {
    if (!np->is_number_unsigned() || np->get<uint64_t>() != vk.num_public) {
      return bad("nPublic", "does not match the length of IC minus one");
    }
  }
  // Points of the right groups (beta, gamma, delta in G2's subgroup) before any pairing or use.
  if (Status st = validate_verifying_key_points(vk); !st) return st.error();
  // Optional (a verifier may compute it), but when given it must be what the key implies.
  if (auto ab = doc.find("vk_alphabeta_12"); ab != doc.end()) {
    if (ab->dump() != alphabeta_snarkjs(vk).dump()) {
      return bad("vk_alphabeta_12", "is not e(vk_alpha_1, vk_beta_2)");
    }
  }
  return vk;
}

// ---- binary -----------------------------------------------------------------------------------

std::array<uint8_t, kProofBytes> proof_to_bytes(const Proof& proof) {
  std::array<uint8_t, kProofBytes> out;
  g1_to_compressed(proof.a, out.data());
  g2_to_compressed(proof.b, out.data() + 32);
  g1_to_compressed(proof.c, out.data() + 96);
  return out;
}

Result<Proof> proof_from_bytes(std::span<const uint8_t> bytes) {
  if (bytes.size() != kProofBytes) {
    return make_error("a binary proof has " + std::to_string(kProofBytes) + " bytes, got " +
                          std::to_string(bytes.size()),
                      "proof");
  }
  auto a = g1_from_compressed(bytes.data());
  if (!a.ok()) return bad("A", a.error);
  auto b = g2_from_compressed(bytes.data() + 32);
  if (!b.ok()) return bad("B", b.error);
  auto c = g1_from_compressed(bytes.data() + 96);
  if (!c.ok()) return bad("C", c.error);
  return Proof{*a.point, *b.point, *c.point};
}

Status validate_proof_points_on_curve(const Proof& proof) {
  if (!proof.a.is_on_curve()) return bad("pi_a", "is not a point of G1");
  if (!proof.c.is_on_curve()) return bad("pi_c", "is not a point of G1");
  if (!proof.b.is_on_curve()) return bad("pi_b", "is not a point of the G2 twist curve");
  return ok_status();
}

Status proof_b_subgroup_status(bool in_subgroup) {
  if (!in_subgroup) return bad("pi_b", "is not in the order-r subgroup of G2");
  return ok_status();
}

Status validate_proof_points(const Proof& proof) {
  if (auto st = validate_proof_points_on_curve(proof); !st) return st;
  return proof_b_subgroup_status(g2_is_in_subgroup(proof.b));
}

}  // namespace enygma
