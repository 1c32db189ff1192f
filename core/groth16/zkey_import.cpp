#include "core/groth16/zkey_import.hpp"

#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <tuple>

#include "core/curve/g2_subgroup.hpp"
#include "core/groth16/verifier.hpp"
#include "core/msm/msm.hpp"
#include "core/pairing/pairing.hpp"
#include "core/r1cs/iden3_binfile.hpp"
#include "core/r1cs/r1cs_file.hpp"

namespace enygma {

namespace {

constexpr uint32_t kGroth16Protocol = 1;
constexpr size_t kG1Bytes = 64, kG2Bytes = 128;

Error zkey_error(const std::string& message, const std::string& field) {
  return make_error("zkey: " + message, "zkey", field);
}

// Montgomery-form coordinate: 32 bytes LE, must be reduced.
bool decode_fp(const uint8_t* p, Fp& out) {
  U256 v = u256_from_le_bytes(p);
  if (cmp(v, Fp::kModulus) >= 0) return false;
  out = Fp::from_montgomery(v);
  return true;
}

// A G1 point (identity allowed) on the curve.
bool decode_g1(const uint8_t* p, G1Affine& out) {
  return decode_fp(p, out.x) && decode_fp(p + 32, out.y) && out.is_on_curve();
}

// A G2 point (identity allowed) on the twist; subgroup membership is checked by the caller
// where it matters (the verifying key).
bool decode_g2(const uint8_t* p, G2Affine& out) {
  return decode_fp(p, out.x.c0) && decode_fp(p + 32, out.x.c1) && decode_fp(p + 64, out.y.c0) &&
         decode_fp(p + 96, out.y.c1) && out.is_on_curve();
}

// A point of a query section: G1's (on the curve: its cofactor is 1) or G2's, whose points
// must also be in the order-r subgroup (a B2 point outside it makes every proof using its wire
// fail verification, and no proof shows it for a wire its witness leaves 0).
template <class Affine>
bool decode_point(const uint8_t* p, Affine& out) {
  if constexpr (std::is_same_v<Affine, G1Affine>) {
    return decode_g1(p, out);
  } else {
    return decode_g2(p, out) && g2_is_in_subgroup(out);
  }
}

template <class Affine>
constexpr size_t point_bytes() {
  return std::is_same_v<Affine, G1Affine> ? kG1Bytes : kG2Bytes;
}

// count points of a section, decoded in parallel.
template <class Affine>
Result<std::vector<Affine>> decode_points(std::span<const uint8_t> body, size_t count,
                                          const std::string& name, ThreadPool& pool) {
  constexpr size_t sz = point_bytes<Affine>();
  if (uint64_t(body.size()) != uint64_t(count) * sz) {  // 64-bit: no wrap on wasm32
    return zkey_error("section " + name + " holds " + std::to_string(body.size()) +
                          " bytes, expected " + std::to_string(count) + " points of " +
                          std::to_string(sz),
                      name);
  }
  std::vector<Affine> points(count);
  std::atomic<size_t> bad{count};
  pool.parallel_for(
      count,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          if (!decode_point(body.data() + i * sz, points[i])) {
            size_t cur = bad.load();
            while (i < cur && !bad.compare_exchange_weak(cur, i)) {
            }
          }
        }
      },
      1024);
  if (bad.load() != count) {
    return zkey_error(
        "point " + std::to_string(bad.load()) + " of section " + name + " is not " +
            (std::is_same_v<Affine, G1Affine> ? "a G1 point" : "a G2 point of order r") +
            " with reduced coordinates",
        name);
  }
  return points;
}

// Dense per-wire points -> sparse query (identity points left out).
template <class Affine>
SparseQuery<Affine> sparse(const std::vector<Affine>& dense, uint32_t first_wire) {
  std::vector<uint32_t> wires;
  std::vector<Affine> points;
  for (size_t i = 0; i < dense.size(); ++i) {
    if (dense[i].is_infinity()) continue;
    wires.push_back(uint32_t(first_wire + i));
    points.push_back(dense[i]);
  }
  SparseQuery<Affine> q;
  q.wires = std::move(wires);
  q.points = std::move(points);
  return q;
}

// B1 and B2 of every wire the same exponent, [v_j(tau)]_1 and [v_j(tau)]_2, all wires at once:
// with fresh random 128-bit r_j, e(sum r_j B1_j, g2) == e(g1, sum r_j B2_j). Where B1_j = [x_j]
// and B2_j = [y_j], the two sides differ unless sum r_j (x_j - y_j) = 0 mod r, which for any
// x != y fixed before the r_j are drawn has probability at most 2^-128 (the r_j of one wire
// with x_j != y_j alone decides it). Two MSMs of 128-bit scalars and one pairing product; no
// GLV split (it cuts a 128-bit scalar into halves of ~127 and ~65 bits: twice the terms, the
// same windows, 2.7 times as long at k=16). A proof shows the B points of the wires its witness
// uses only. The queries are the sparse ones: both name the same wires (a wire with a B point
// in one group only is refused before). libsodium is initialised.
bool b_queries_agree(const SparseQuery<G1Affine>& b1, const SparseQuery<G2Affine>& b2,
                     ThreadPool& pool) {
  const size_t n = b1.size();
  if (b2.size() != n) return false;
  if (n == 0) return true;
  std::vector<uint8_t> bytes(16 * n);
  randombytes_buf(bytes.data(), bytes.size());
  std::vector<Fr> r(n);
  uint8_t le[32] = {};
  for (size_t j = 0; j < n; ++j) {
    memcpy(le, bytes.data() + 16 * j, 16);  // below 2^128 < r
    r[j] = *Fr::from_canonical(u256_from_le_bytes(le));
  }
  MsmOptions options;
  options.endomorphism = MsmOptions::Endomorphism::kOff;
  const G1Affine s1 = msm_g1(b1.points.data(), r.data(), n, pool, options).to_affine(true);
  const G2Affine s2 = msm_g2(b2.points.data(), r.data(), n, pool, options).to_affine(true);
  const G1Affine ps[2] = {s1, -G1Affine::generator()};
  const G2Affine qs[2] = {G2Affine::generator(), s2};
  return pairing_product_is_one(ps, qs);
}

struct Header {
  uint32_t num_vars = 0, num_public = 0, domain_size = 0;
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
};

Result<Header> read_header(const iden3::BinFile& file) {
  {
    auto body = iden3::unique_section(file, 1, "zkey", "zkey");
    if (!body) return body.error();
    ByteReader r(*body);
    uint32_t protocol = 0;
    if (!r.u32(protocol) || r.remaining() != 0) {
      return zkey_error("malformed protocol section", "header");
    }
    if (protocol != kGroth16Protocol) {
      return zkey_error("protocol " + std::to_string(protocol) +
                            (protocol == 2    ? " (PLONK)"
                             : protocol == 10 ? " (FFLONK)"
                                              : "") +
                            " is not supported, only Groth16 (1)",
                        "protocol");
    }
  }
  auto body = iden3::unique_section(file, 2, "zkey", "zkey");
  if (!body) return body.error();
  ByteReader r(*body);
  Header h;
  uint32_t n8q = 0, n8r = 0;
  U256 q, rr;
  if (!r.u32(n8q) || n8q != 32 || !iden3::read_u256_le(r, q) || !r.u32(n8r) || n8r != 32 ||
      !iden3::read_u256_le(r, rr)) {
    return zkey_error("the header is not of a 32-byte-field curve (expected bn128)", "header");
  }
  if (!(q == Fp::kModulus) || !(rr == Fr::kModulus)) {
    return zkey_error("the curve is not BN254 (bn128)", "header.curve");
  }
  if (!r.u32(h.num_vars) || !r.u32(h.num_public) || !r.u32(h.domain_size)) {
    return zkey_error("truncated header", "header");
  }
  std::span<const uint8_t> pts;
  if (!r.view(pts, 3 * kG1Bytes + 3 * kG2Bytes) || r.remaining() != 0) {
    return zkey_error("the header section has the wrong length", "header");
  }
  const uint8_t* p = pts.data();
  // order in the file: alpha1, beta1, beta2, gamma2, delta1, delta2
  const char* off_curve = !decode_g1(p, h.alpha1)         ? "alpha1"
                          : !decode_g1(p + 64, h.beta1)   ? "beta1"
                          : !decode_g2(p + 128, h.beta2)  ? "beta2"
                          : !decode_g2(p + 256, h.gamma2) ? "gamma2"
                          : !decode_g1(p + 384, h.delta1) ? "delta1"
                          : !decode_g2(p + 448, h.delta2) ? "delta2"
                                                          : nullptr;
  if (off_curve) {
    return zkey_error(std::string("the header point ") + off_curve + " is not on its curve",
                      std::string("header.") + off_curve);
  }
  return h;
}

Result<ZkeyInfo> read_contributions(const iden3::BinFile& file, const Header& h,
                                    G1Affine* last_delta) {
  ZkeyInfo info;
  info.num_vars = h.num_vars;
  info.num_public = h.num_public;
  info.domain_size = h.domain_size;
  auto body = iden3::unique_section(file, 10, "zkey", "zkey");
  if (!body) return body.error();
  ByteReader r(*body);
  uint32_t count = 0;
  if (!r.bytes(info.circuit_hash.data(), 64) || !r.u32(count)) {
    return zkey_error("truncated contributions section", "contributions");
  }
  for (uint32_t i = 0; i < count; ++i) {
    const std::string where = "contribution " + std::to_string(i + 1);
    std::span<const uint8_t> keys;
    uint8_t transcript[64];
    uint32_t type = 0, param_length = 0;
    if (!r.view(keys, 3 * kG1Bytes + kG2Bytes) || !r.bytes(transcript, 64) || !r.u32(type) ||
        !r.u32(param_length) || param_length > r.remaining()) {
      return zkey_error("truncated " + where, "contributions");
    }
    if (type > 1)
      return zkey_error(where + " has unknown type " + std::to_string(type), "contributions");
    G1Affine delta_after;
    if (!decode_g1(keys.data(), delta_after)) {
      return zkey_error(where + ": delta is not a G1 point", "contributions");
    }
    if (last_delta) *last_delta = delta_after;
    ZkeyContribution c;
    c.beacon = type == 1;
    std::span<const uint8_t> params;
    r.view(params, param_length);
    ByteReader pr(params);
    uint8_t last_kind = 0;
    while (pr.remaining() > 0) {
      uint8_t kind = 0, len = 0;
      pr.bytes(&kind, 1);
      if (kind <= last_kind)
        return zkey_error(where + ": parameters out of order", "contributions");
      last_kind = kind;
      if (kind == 1 || kind == 3) {
        std::span<const uint8_t> s;
        if (!pr.bytes(&len, 1) || !pr.view(s, len)) {
          return zkey_error(where + ": truncated parameter", "contributions");
        }
        if (kind == 1) {
          c.name.assign(s.begin(), s.end());
        } else {
          c.beacon_hash.assign(s.begin(), s.end());
        }
      } else if (kind == 2) {
        if (!pr.bytes(&len, 1)) return zkey_error(where + ": truncated parameter", "contributions");
        c.beacon_iterations_exp = len;
      } else {
        return zkey_error(where + ": unknown parameter " + std::to_string(kind), "contributions");
      }
    }
    info.contributions.push_back(std::move(c));
  }
  if (r.remaining() != 0) {
    return zkey_error("contributions section is longer than its contributions", "contributions");
  }
  return info;
}

// (matrix, constraint, wire) -> coefficient, sorted, one entry per key, no zeros.
using Coefficient = std::tuple<uint32_t, uint32_t, uint32_t, Fr>;

void sort_and_merge(std::vector<Coefficient>& v) {
  std::sort(v.begin(), v.end(), [](const Coefficient& x, const Coefficient& y) {
    return std::tie(std::get<0>(x), std::get<1>(x), std::get<2>(x)) <
           std::tie(std::get<0>(y), std::get<1>(y), std::get<2>(y));
  });
  std::vector<Coefficient> out;
  out.reserve(v.size());
  for (const auto& c : v) {
    if (!out.empty() && std::get<0>(out.back()) == std::get<0>(c) &&
        std::get<1>(out.back()) == std::get<1>(c) && std::get<2>(out.back()) == std::get<2>(c)) {
      std::get<3>(out.back()) += std::get<3>(c);
    } else {
      out.push_back(c);
    }
  }
  std::erase_if(out, [](const Coefficient& c) { return std::get<3>(c).is_zero(); });
  v.swap(out);
}

// Section 4 against A and B of the circuit (plus the IC rows).
Status check_coefficients(const iden3::BinFile& file, const R1cs& r1cs, uint32_t* count_out) {
  auto body = iden3::unique_section(file, 4, "zkey", "zkey");
  if (!body) return body.error();
  ByteReader r(*body);
  uint32_t count = 0;
  if (!r.u32(count) || uint64_t(r.remaining()) != uint64_t(count) * 44) {
    return zkey_error("the coefficients section has the wrong length", "coefficients");
  }
  *count_out = count;
  // stored value = c * R^2 mod r; as Montgomery limbs that is the element c * R, and
  // from_montgomery(1) is R^-1.
  const Fr r_inverse = Fr::from_montgomery(U256::from_u64(1));
  std::vector<Coefficient> got;
  got.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t matrix = 0, constraint = 0, wire = 0;
    U256 v;
    r.u32(matrix);
    r.u32(constraint);
    r.u32(wire);
    iden3::read_u256_le(r, v);
    if (matrix > 1 || cmp(v, Fr::kModulus) >= 0) {
      return zkey_error("coefficient " + std::to_string(i) + " is malformed", "coefficients");
    }
    got.emplace_back(matrix, constraint, wire, Fr::from_montgomery(v) * r_inverse);
  }
  sort_and_merge(got);

  std::vector<Coefficient> want;
  const size_t m = r1cs.num_constraints();
  for (size_t i = 0; i < m; ++i) {
    for (const auto& t : r1cs.a.row(i)) want.emplace_back(0, uint32_t(i), t.wire, t.coeff);
    for (const auto& t : r1cs.b.row(i)) want.emplace_back(1, uint32_t(i), t.wire, t.coeff);
  }
  for (uint32_t s = 0; s <= r1cs.num_public; ++s) {
    want.emplace_back(0, uint32_t(m + s), s, Fr::one());
  }
  sort_and_merge(want);

  const std::string other = "the zkey was made for another circuit: ";
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    if (got[i] == want[i]) continue;
    const auto& w = want[i];
    return zkey_error(other + "its A/B coefficients differ from this circuit's at " +
                          std::string(std::get<0>(w) == 0 ? "A" : "B") + "[constraint " +
                          std::to_string(std::get<1>(w)) + "][wire " +
                          std::to_string(std::get<2>(w)) + "]",
                      "coefficients");
  }
  if (got.size() != want.size()) {
    return zkey_error(other + "it has " + std::to_string(got.size()) +
                          " non-zero A/B coefficients, this circuit " + std::to_string(want.size()),
                      "coefficients");
  }
  return ok_status();
}

}  // namespace

std::string format_zkey_hash(const std::array<uint8_t, 64>& hash) {
  std::string s;
  char hex[3];
  for (size_t i = 0; i < 64; ++i) {
    if (i > 0 && i % 16 == 0)
      s += '\n';
    else if (i > 0 && i % 4 == 0)
      s += ' ';
    snprintf(hex, sizeof hex, "%02x", hash[i]);
    s += hex;
  }
  return s;
}

Result<ZkeyInfo> read_zkey_info(std::span<const uint8_t> zkey) {
  auto file = iden3::parse_bin_file(zkey, "zkey", 1, "zkey", "zkey");
  if (!file) return file.error();
  auto header = read_header(*file);
  if (!header) return header.error();
  auto info = read_contributions(*file, *header, nullptr);
  if (!info) return info.error();
  auto coefficients = iden3::unique_section(*file, 4, "zkey", "zkey");
  if (coefficients && coefficients->size() >= 4) {
    ByteReader r(*coefficients);
    r.u32(info->num_coefficients);
  }
  return info;
}

Result<ImportedZkey> import_zkey(std::span<const uint8_t> zkey, const R1cs& r1cs, ThreadPool& pool,
                                 const ZkeyImportOptions& options) {
  auto file = iden3::parse_bin_file(zkey, "zkey", 1, "zkey", "zkey");
  if (!file) return file.error();
  auto header_r = read_header(*file);
  if (!header_r) return header_r.error();
  const Header& h = *header_r;

  // The circuit's shape.
  if (h.num_vars != r1cs.num_wires) {
    return zkey_error("the zkey was made for another circuit: " + std::to_string(h.num_vars) +
                          " wires, this circuit has " + std::to_string(r1cs.num_wires),
                      "header.nVars");
  }
  if (h.num_public != r1cs.num_public) {
    return zkey_error("the zkey was made for another circuit: " + std::to_string(h.num_public) +
                          " public inputs, this circuit has " + std::to_string(r1cs.num_public),
                      "header.nPublic");
  }
  if (uint64_t(h.num_public) + 1 > h.num_vars) {
    return zkey_error("more public inputs than wires", "header.nPublic");
  }
  // snarkjs's domain: the smallest power of two of at least the rows (a larger one makes
  // proofs that do not verify). H lives on the 2n-th roots, and Fr has 2^28-th roots: n <= 2^27.
  const size_t rows = r1cs.num_constraints() + r1cs.num_public + 1;
  const uint64_t domain = zkey_domain_size(r1cs);
  if (h.domain_size != domain || domain > (uint64_t(1) << 27)) {
    return zkey_error("domain size " + std::to_string(h.domain_size) + " is not " +
                          std::to_string(domain) + ", the smallest power of two of at least " +
                          std::to_string(rows) +
                          " rows (constraints + public inputs + 1), at most 2^27",
                      "header.domainSize");
  }

  ImportedZkey out;
  G1Affine last_delta;
  auto info = read_contributions(*file, h, &last_delta);
  if (!info) return info.error();
  out.info = std::move(*info);
  if (auto st = check_coefficients(*file, r1cs, &out.info.num_coefficients); !st) {
    return st.error();
  }

  // delta = 1 (the generator) is what makes a key forgeable, whatever the contribution records
  // claim: a zkey listing contributions whose last delta is the generator is refused as well.
  const bool no_contributions = out.info.contributions.empty();
  const bool delta_is_one = h.delta1 == G1Affine::generator();
  if (no_contributions) {
    if (!delta_is_one) {
      return zkey_error("no contributions, yet delta is not the generator", "contributions");
    }
    if (!options.allow_no_contributions) {
      return zkey_error(
          "the zkey has no phase-2 contribution: its delta is 1 and anyone can forge proofs "
          "with it; run `snarkjs zkey contribute` (and `snarkjs zkey beacon`) first",
          "contributions");
    }
  } else if (!(last_delta == h.delta1)) {
    return zkey_error("the last contribution's delta is not the key's delta", "contributions");
  } else if (delta_is_one && !options.allow_no_contributions) {
    return zkey_error("the zkey's delta is 1 although it lists " +
                          std::to_string(out.info.contributions.size()) +
                          " contribution(s): anyone can forge proofs with it (snarkjs zkey "
                          "verify refuses such a chain)",
                      "contributions");
  }

  auto section = [&](uint32_t id) { return iden3::unique_section(*file, id, "zkey", "zkey"); };
  auto ic_s = section(3), a_s = section(5), b1_s = section(6), b2_s = section(7), c_s = section(8),
       h_s = section(9);
  for (const auto* s : {&ic_s, &a_s, &b1_s, &b2_s, &c_s, &h_s}) {
    if (!*s) return s->error();
  }
  const size_t nvars = h.num_vars, npub = h.num_public;
  auto ic = decode_points<G1Affine>(*ic_s, npub + 1, "IC", pool);
  if (!ic) return ic.error();
  auto a = decode_points<G1Affine>(*a_s, nvars, "A", pool);
  if (!a) return a.error();
  auto b1 = decode_points<G1Affine>(*b1_s, nvars, "B1", pool);
  if (!b1) return b1.error();
  auto b2 = decode_points<G2Affine>(*b2_s, nvars, "B2", pool);
  if (!b2) return b2.error();
  auto c = decode_points<G1Affine>(*c_s, nvars - npub - 1, "C", pool);
  if (!c) return c.error();
  auto hq = decode_points<G1Affine>(*h_s, h.domain_size, "H", pool);
  if (!hq) return hq.error();

  // B1 and B2 must name the same wires (the prover gathers one scalar vector for both).
  for (size_t j = 0; j < nvars; ++j) {
    if ((*b1)[j].is_infinity() != (*b2)[j].is_infinity()) {
      return zkey_error("wire " + std::to_string(j) + " has a B point in one group only", "B2");
    }
  }

  VerifyingKey& vk = out.keys.vk;
  vk.num_public = h.num_public;
  vk.alpha1 = h.alpha1;
  vk.beta2 = h.beta2;
  vk.gamma2 = h.gamma2;
  vk.delta2 = h.delta2;
  vk.ic = std::move(*ic);
  vk.circuit_digest = r1cs.digest();
  if (auto st = validate_verifying_key_points(vk); !st) {
    return zkey_error(st.error().message, "header");
  }
  if (h.beta1.is_infinity() || h.delta1.is_infinity()) {
    return zkey_error("beta1 or delta1 is the identity", "header");
  }
  // [x]_1 and [x]_2 with the same x: e(X1, g2) * e(-g1, X2) == 1.
  const G1Affine minus_g1 = -G1Affine::generator();
  for (auto [p1, p2, name] :
       {std::tuple{&h.beta1, &h.beta2, "beta"}, std::tuple{&h.delta1, &h.delta2, "delta"}}) {
    const G1Affine ps[2] = {*p1, minus_g1};
    const G2Affine qs[2] = {G2Affine::generator(), *p2};
    if (!pairing_product_is_one(ps, qs)) {
      return zkey_error(std::string(name) + " in G1 and in G2 are not the same exponent", "header");
    }
  }
  // Every wire's B1 and B2 the same exponent (b_queries_agree), before any key is made: a B1
  // point of another exponent at a wire the own-proof check's witness leaves 0 would make only
  // the proofs that use the wire fail. No other section has such a twin. The zkey holds no
  // [L_i(tau)] (the phase-1 Lagrange points that u_j(tau), v_j(tau), w_j(tau) are sums of) and
  // no [w_j(tau)] (a C point hides it: e(C_j, delta2) = e(A_j, beta2) e(alpha1, B2_j)
  // e(g1, g2)^w_j(tau), an IC point likewise over gamma2), so A, C and IC are tied to each other
  // only through linear dependencies among the R1CS's columns (finding them: a sparse
  // elimination over the rows, not cheap). H, over delta, would need [t(tau) q(tau)] for every q
  // of degree < n, which only the ptau's powers of tau give (e(A_i, B2_k) for wires sharing no
  // row gives some, a pairing each). Those points are vouched for by the contribution chain
  // (snarkjs zkey verify) alone, and for one witness by the own-proof check (check_keys_prove).
  if (sodium_init() < 0) return make_error("libsodium failed to initialise", "internal");
  SparseQuery<G1Affine> b1_query = sparse(*b1, 0);
  SparseQuery<G2Affine> b2_query = sparse(*b2, 0);
  if (!b_queries_agree(b1_query, b2_query, pool)) {
    return zkey_error(
        "the B points in G1 and in G2 (sections B1 and B2) are not the same exponents: the "
        "sections come from different setups or the zkey is damaged",
        "B2");
  }

  ProvingKey& pk = out.keys.pk;
  pk.num_wires = h.num_vars;
  pk.num_public = h.num_public;
  pk.domain_size = h.domain_size;
  pk.circuit_digest = vk.circuit_digest;
  pk.insecure_dev = vk.insecure_dev = delta_is_one;
  pk.alpha1 = h.alpha1;
  pk.beta1 = h.beta1;
  pk.delta1 = h.delta1;
  pk.beta2 = h.beta2;
  pk.delta2 = h.delta2;
  pk.a = sparse(*a, 0);
  pk.b1 = std::move(b1_query);
  pk.b2 = std::move(b2_query);
  pk.c = sparse(*c, uint32_t(npub + 1));
  pk.shape = std::make_shared<const ConstraintShape>(ConstraintShape::from_r1cs(r1cs));
  pk.h = std::move(*hq);
  return out;
}

uint64_t zkey_domain_size(const R1cs& r1cs) {
  const uint64_t rows = uint64_t(r1cs.num_constraints()) + r1cs.num_public + 1;
  uint64_t n = 1;
  while (n < rows) n <<= 1;
  return n;
}

uint64_t zkey_size_bound(const R1cs& r1cs) {
  const uint64_t vars = r1cs.num_wires, pub = r1cs.num_public;
  const uint64_t coefficients = r1cs.a.terms.size() + r1cs.b.terms.size() + pub + 1;
  const uint64_t sections = 10 * 12 + 4 + (4 + 32) * 2 + 12 + 3 * 64 + 3 * 128;  // and header
  return sections + (pub + 1) * 64 + 4 + coefficients * 44 +
         vars * (64 + 64 + 128 + 64) +  // A, B1, B2, C (at most one point per wire each)
         zkey_domain_size(r1cs) * 64 + (uint64_t(64) << 20);  // H, contribution records
}

}  // namespace enygma
