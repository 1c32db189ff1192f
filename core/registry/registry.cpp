#include "core/registry/registry.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "core/deposit/deposit_family.hpp"
#include "core/joinsplit/joinsplit_family.hpp"
#include "core/ownership/ownership_family.hpp"
#include "core/poly/evaluation_domain.hpp"
#include "core/transfer/transfer_family.hpp"
#include "core/withdraw/withdraw_family.hpp"

namespace enygma {

namespace {

// The one table. Adding a circuit: its folder under core/ and one line here.
const std::vector<const CircuitFamily*>& table() {
  static const std::vector<const CircuitFamily*> families = {
      &transfer_family(),         &deposit_family(),        &withdraw_family(),
      &joinsplit_enygma_family(), &joinsplit_1155_family(), &ownership_721_family(),
  };
  return families;
}

std::string family_names() {
  std::string out;
  for (const CircuitFamily* f : table()) {
    if (!out.empty()) out += ", ";
    out += f->name;
  }
  return out;
}

std::string fill_k(std::string_view pattern, unsigned k) {
  std::string out(pattern);
  const size_t at = out.find("{k}");
  if (at != std::string::npos) out.replace(at, 3, std::to_string(k));
  return out;
}

struct Cached {
  std::mutex mu;
  std::shared_ptr<const R1cs> r1cs;  // until release_circuit_r1cs
  // Set once, with the first R1CS built, and kept: the digest and the sizes.
  std::atomic<bool> summarized{false};
  std::array<uint8_t, 32> digest{};
  CircuitInfo info{};
};

Cached& cache_of(const CircuitId& id) {
  static std::mutex mu;
  static std::map<std::pair<const CircuitFamily*, unsigned>, std::unique_ptr<Cached>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{id.family, id.k}];
  if (!slot) slot = std::make_unique<Cached>();
  return *slot;
}

CircuitInfo info_of(const R1cs& r) {
  CircuitInfo info{r.num_constraints(), r.num_wires, r.num_public, r.num_private(), 0, 0};
  const size_t rows = info.constraints + info.public_inputs + 1;
  while ((size_t(1) << info.fft_log_domain) < rows) ++info.fft_log_domain;
  info.domain_size = EvaluationDomain::size_for(rows);
  return info;
}

std::shared_ptr<const R1cs> built(Cached& c, const CircuitId& id) {
  std::lock_guard<std::mutex> lock(c.mu);
  if (!c.r1cs) {
    c.r1cs = std::make_shared<const R1cs>(id.family->build_r1cs(id.k));
    if (!c.summarized.load(std::memory_order_relaxed)) {
      c.digest = c.r1cs->digest();
      c.info = info_of(*c.r1cs);
      c.summarized.store(true, std::memory_order_release);
    }
  }
  return c.r1cs;
}

// The digest and sizes, building the R1CS the first time only.
const Cached& summarized(const CircuitId& id) {
  Cached& c = cache_of(id);
  if (!c.summarized.load(std::memory_order_acquire)) built(c, id);
  return c;
}

}  // namespace

std::span<const CircuitFamily* const> circuit_families() {
  return {table().data(), table().size()};
}

const CircuitFamily* find_circuit_family(std::string_view name) {
  for (const CircuitFamily* f : table()) {
    if (f->name == name) return f;
  }
  return nullptr;
}

std::string CircuitId::str() const {
  std::string out(family->name);
  if (family->has_k()) out += "-k" + std::to_string(k);
  return out;
}

std::string CircuitId::key_name() const {
  return "enygma-" + str();
}
std::string CircuitId::prove_route() const {
  return fill_k(family->prove_route, k);
}
std::string CircuitId::verify_route() const {
  return fill_k(family->verify_route, k);
}

Result<CircuitId> find_circuit(std::string_view family, unsigned k) {
  const CircuitFamily* f = find_circuit_family(family);
  if (!f) {
    return make_error(
        "no circuit \"" + std::string(family) + "\" (circuits: " + family_names() + ")", "input",
        "circuit");
  }
  if (!f->has_k()) return CircuitId{f, 0};
  if (k < f->min_k || k > f->max_k) {
    return make_error("the " + std::string(f->name) + " circuit has no k = " + std::to_string(k) +
                          " (supported: " + std::to_string(f->min_k) + ".." +
                          std::to_string(f->max_k) + ")",
                      "input", "k");
  }
  return CircuitId{f, k};
}

Result<CircuitId> parse_circuit_id(std::string_view id) {
  if (const CircuitFamily* f = find_circuit_family(id); f && !f->has_k()) return CircuitId{f, 0};
  const size_t dash = id.rfind("-k");
  if (dash != std::string_view::npos && dash + 2 < id.size() && id.size() - dash <= 5) {
    unsigned k = 0;
    bool digits = true;
    for (char c : id.substr(dash + 2)) {
      digits = digits && c >= '0' && c <= '9';
      k = 10 * k + unsigned(c - '0');
    }
    const CircuitFamily* f = find_circuit_family(id.substr(0, dash));
    if (digits && f && f->has_k()) return find_circuit(f->name, k);
  }
  return make_error("no circuit \"" + std::string(id) +
                        "\" (a family name with -k<K> where it has k, e.g. transfer-k6; "
                        "families: " +
                        family_names() + ")",
                    "input", "circuit");
}

Result<std::vector<CircuitId>> list_circuits(std::span<const std::string> families,
                                             std::span<const unsigned> ks) {
  std::vector<const CircuitFamily*> chosen;
  if (families.empty()) {
    chosen.assign(table().begin(), table().end());
  } else {
    for (const std::string& name : families) {
      const CircuitFamily* f = find_circuit_family(name);
      if (!f) return find_circuit(name, 0).error();
      chosen.push_back(f);
    }
  }
  std::vector<CircuitId> out;
  for (const CircuitFamily* f : chosen) {
    if (!f->has_k()) {
      out.push_back({f, 0});
      continue;
    }
    if (ks.empty()) {
      for (unsigned k = f->default_min_k; k <= f->default_max_k; ++k) out.push_back({f, k});
    } else {
      for (unsigned k : ks) {
        if (k >= f->min_k && k <= f->max_k) out.push_back({f, k});
      }
    }
  }
  return out;
}

std::vector<CircuitId> default_circuits() {
  return std::move(list_circuits({}, {}).value());
}

std::shared_ptr<const R1cs> circuit_r1cs_shared(const CircuitId& id) {
  return built(cache_of(id), id);
}
const R1cs& circuit_r1cs(const CircuitId& id) {
  return *built(cache_of(id), id);  // the cache keeps it: only release_circuit_r1cs drops it
}
const std::array<uint8_t, 32>& circuit_digest(const CircuitId& id) {
  return summarized(id).digest;
}
void release_circuit_r1cs(const CircuitId& id) {
  Cached& c = cache_of(id);
  std::lock_guard<std::mutex> lock(c.mu);
  c.r1cs.reset();
}

std::string insecure_setup_seed_text(const std::string& text, const CircuitId& id) {
  if (id.family->name == "transfer") return text + "/k=" + std::to_string(id.k);
  return text + "/" + id.str();
}

CircuitInfo circuit_info(const CircuitId& id) {
  return summarized(id).info;
}

}  // namespace enygma
