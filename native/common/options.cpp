#include "native/common/options.hpp"

#include <sodium.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace enygma::native {

Args::~Args() {
  for (auto& [name, value] : values_) {
    if (!value.empty()) sodium_memzero(value.data(), value.size());
  }
}

bool Args::parse(int argc, char** argv, const std::set<std::string>& value_options,
                 const std::set<std::string>& flag_options, const char* program,
                 const std::set<std::string>& may_be_empty) {
  std::string last;        // the last option read: where a stray word is
  bool last_flag = false;  // it is a flag (no value): the word is most likely meant as its value
  // Views of argv until a value is kept: no copy of a value (a secret, maybe) is made but the
  // one values_ holds, which the destructor wipes.
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "-h") a = "--help";
    if (!a.starts_with("--")) {
      // `--no-isolation off`: a value given to a flag, named with the flag (a short word, cut
      // beyond 32 bytes; a secret written with a space follows a value option, below).
      if (last_flag) {
        return fail(program, "unexpected argument '" + shown_on_one_line(a, 32) + "' after " +
                                 last + " (a flag, it takes no value)");
      }
      // Not quoted: a stray word is often the second half of a value written with a space (a
      // secret key or a seed phrase), which a message would print to a terminal or a log.
      return fail(program, "unexpected argument " + std::to_string(i) + " (not an option" +
                               (last.empty() ? std::string(": options start with --")
                                             : "; it follows " + last +
                                                   ": a value with spaces must be quoted") +
                               ")");
    }
    const size_t eq = a.find('=');
    const bool has_value = eq != std::string_view::npos;
    std::string name(a.substr(2, has_value ? eq - 2 : std::string_view::npos));
    std::string_view value = has_value ? a.substr(eq + 1) : std::string_view();
    if (name == "help" || flag_options.count(name)) {
      if (has_value) return fail(program, "--" + name + " takes no value");
      if (!flags_.insert(name).second && name != "help") {
        return fail(program, "--" + name + " is given twice");
      }
      last = "--" + name;
      last_flag = true;
      continue;
    }
    if (!value_options.count(name)) {
      return fail(program, "unknown option --" + shown_on_one_line(name));
    }
    if (!has_value) {
      if (i + 1 >= argc) return fail(program, "--" + name + " needs a value");
      value = argv[++i];
      // `--web --backend fake` is a forgotten value, not a folder named --backend
      if (value.starts_with("--")) {
        const std::string shown = shown_on_one_line(value);
        return fail(program, "--" + name + " needs a value, got the option " + shown +
                                 " (write --" + name + "=" + shown +
                                 " for a value that starts with --)");
      }
    }
    if (value.empty() && !may_be_empty.count(name)) {
      return fail(program, "--" + name + " needs a value, got an empty one");
    }
    if (!values_.try_emplace(name, value).second) {
      return fail(program, "--" + name + " is given twice");
    }
    last = "--" + name + "'s value";
    last_flag = false;
  }
  return true;
}

std::string shown_on_one_line(std::string_view text, size_t max_bytes) {
  std::string out;
  for (unsigned char ch : text.substr(0, max_bytes)) {
    if (ch >= 0x20 && ch < 0x7f) {
      out += static_cast<char>(ch);
    } else {
      char hex[8];
      snprintf(hex, sizeof hex, "\\x%02x", ch);
      out += hex;
    }
  }
  if (text.size() > max_bytes) out += "\u2026";
  return out;
}

Result<unsigned long> Args::get_uint(const std::string& name, unsigned long fallback,
                                     unsigned long lo, unsigned long hi) const {
  auto v = get(name);
  if (!v) return fallback;
  auto x = parse_unsigned(*v, hi);
  if (!x || *x < lo) {
    return make_error("--" + name + " must be an integer in " + std::to_string(lo) + ".." +
                          std::to_string(hi) + ", got '" + shown_on_one_line(*v) + "'",
                      "usage", name);
  }
  return *x;
}

bool Args::require(const char* command, const std::vector<std::string>& names) const {
  bool all = true;
  for (const auto& n : names) all = all && values_.count(n) > 0;
  if (all) return true;
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("--" + names[i]);
  }
  fprintf(stderr, "enygma %s: %s %s required (see --help)\n", command, list.c_str(),
          names.size() == 1 ? "is" : "are");
  return false;
}

bool Args::fail(const char* program, const std::string& why) {
  error_ = why;
  fprintf(stderr, "%s: %s (see --help)\n", program, why.c_str());
  return false;
}

std::optional<unsigned long> parse_unsigned(const std::string& text, unsigned long max) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  unsigned long value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned long>(ch - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

namespace {

// "a,b,,c" -> {"a", "b", "", "c"}.
std::vector<std::string> split_commas(const std::string& spec) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    if (comma == std::string::npos) comma = spec.size();
    items.push_back(spec.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

}  // namespace

std::optional<std::vector<unsigned>> parse_k_list(const std::string& spec, unsigned lo,
                                                  unsigned hi) {
  std::vector<unsigned> ks;
  for (const std::string& item : split_commas(spec)) {
    const size_t dash = item.find('-');
    auto low = parse_unsigned(item.substr(0, dash), hi);
    auto high = dash == std::string::npos ? low : parse_unsigned(item.substr(dash + 1), hi);
    if (!low || !high || *low < lo || *high < *low) return std::nullopt;
    for (unsigned long k = *low; k <= *high; ++k) ks.push_back(static_cast<unsigned>(k));
  }
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  if (ks.empty()) return std::nullopt;
  return ks;
}

std::optional<size_t> parse_byte_size(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  auto number = parse_unsigned(text.substr(0, digits), 1ul << 40);
  if (!number) return std::nullopt;
  std::string unit = text.substr(digits);
  std::transform(unit.begin(), unit.end(), unit.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  size_t scale = 0;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kib") {
    scale = 1024;
  } else if (unit == "m" || unit == "mb" || unit == "mib") {
    scale = 1024 * 1024;
  } else {
    return std::nullopt;
  }
  return static_cast<size_t>(*number) * scale;
}

std::optional<std::chrono::milliseconds> parse_duration(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  auto number = parse_unsigned(text.substr(0, digits), 1ul << 32);
  if (!number) return std::nullopt;
  std::string unit = text.substr(digits);
  long long ms = static_cast<long long>(*number);
  if (unit.empty() || unit == "s") {
    ms *= 1000;
  } else if (unit == "ms") {
  } else if (unit == "m" || unit == "min") {
    ms *= 60'000;
  } else {
    return std::nullopt;
  }
  return std::chrono::milliseconds(ms);
}

std::optional<bool> parse_bool(const std::string& text) {
  std::string word = text;
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (word == "1" || word == "true" || word == "on" || word == "yes") return true;
  if (word == "0" || word == "false" || word == "off" || word == "no") return false;
  return std::nullopt;
}

namespace {

Error usage(const std::string& option, const std::string& what) {
  return make_error("--" + option + " " + what, "usage", option);
}

std::string k_range(const CircuitFamily& f) {
  return std::to_string(f.min_k) + ".." + std::to_string(f.max_k);
}

}  // namespace

Result<CircuitId> circuit_option(const Args& args, unsigned default_k) {
  const std::string name = args.get_or("circuit", "transfer");
  const CircuitFamily* family = find_circuit_family(name);
  if (!family) {
    auto id = parse_circuit_id(name);  // transfer-k6 is accepted too
    if (!id) return usage("circuit", id.error().message);
    if (args.get("k")) return usage("k", "cannot be combined with --circuit " + name);
    return id;
  }
  if (!family->has_k()) {
    if (args.get("k")) return usage("k", "is not a parameter of the " + name + " circuit");
    return CircuitId{family, 0};
  }
  auto k_text = args.get("k");
  if (!k_text && default_k >= family->min_k && default_k <= family->max_k) {
    return CircuitId{family, default_k};
  }
  if (!k_text) {
    return usage("k", "is required for the " + name + " circuit (" + k_range(*family) + ")");
  }
  auto k = parse_unsigned(*k_text, 1000);
  if (!k || *k < family->min_k || *k > family->max_k) {
    return usage("k", "must be an anonymity-set size in " + k_range(*family) + " for the " + name +
                          " circuit, got '" + shown_on_one_line(*k_text) + "'");
  }
  return CircuitId{family, unsigned(*k)};
}

bool names_circuit_ids_only(const std::string& spec) {
  bool id_with_k = false;
  for (const std::string& item : split_commas(spec)) {
    if (item == "all") return false;
    if (const CircuitFamily* f = find_circuit_family(item)) {
      if (f->has_k()) return false;
      continue;  // a family without k (ownership-721): --k chooses nothing there either
    }
    auto id = parse_circuit_id(item);
    if (!id) return false;
    id_with_k = id_with_k || id->family->has_k();
  }
  return id_with_k;
}

std::pair<unsigned, unsigned> k_bounds() {
  unsigned lo = 0, hi = 0;
  for (const CircuitFamily* f : circuit_families()) {
    if (!f->has_k()) continue;
    lo = lo ? std::min(lo, f->min_k) : f->min_k;
    hi = std::max(hi, f->max_k);
  }
  return {lo, hi};
}

std::string k_bounds_text() {
  const auto [lo, hi] = k_bounds();
  return std::to_string(lo) + ".." + std::to_string(hi);
}

Result<std::vector<CircuitId>> resolve_circuits(const std::string& spec,
                                                const std::optional<std::string>& k_spec,
                                                const std::string& option) {
  std::vector<std::string> names;
  std::vector<CircuitId> explicit_ids;
  for (const std::string& item : split_commas(spec)) {
    if (item == "all") {
      // With --k, "all" means every family that has a k; a family without one is chosen by
      // naming it.
      for (const CircuitFamily* f : circuit_families()) {
        if (!k_spec || f->has_k()) names.emplace_back(f->name);
      }
    } else if (find_circuit_family(item)) {
      names.push_back(item);
    } else if (auto id = parse_circuit_id(item)) {
      // (named twice, e.g. transfer-k6,transfer-k06: one circuit, listed once)
      if (std::find(explicit_ids.begin(), explicit_ids.end(), *id) == explicit_ids.end()) {
        explicit_ids.push_back(*id);
      }
    } else {
      return usage(option, id.error().message);
    }
  }
  std::vector<unsigned> ks;
  if (k_spec) {
    const auto [lo, hi] = k_bounds();
    auto parsed = parse_k_list(*k_spec, lo, hi);
    if (!parsed) {
      return usage("k", "must list anonymity-set sizes in " + k_bounds_text() +
                            " such as 4, 2-6 or 2,3,6, got '" + shown_on_one_line(*k_spec) + "'");
    }
    ks = *parsed;
  }
  std::vector<CircuitId> out = explicit_ids;
  if (!names.empty()) {
    auto listed = list_circuits(names, ks);
    if (!listed) return usage(option, listed.error().message);
    for (const CircuitId& id : *listed) {
      if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    }
    // A k that no family named serves is a mistake, not an empty list.
    for (unsigned k : ks) {
      bool served = false;
      for (const CircuitId& id : out) served = served || id.k == k;
      if (!served) {
        unsigned lo = 0, hi = 0;  // the k range of the families named
        for (const std::string& name : names) {
          const CircuitFamily* f = find_circuit_family(name);
          if (!f->has_k()) continue;
          lo = lo ? std::min(lo, f->min_k) : f->min_k;
          hi = std::max(hi, f->max_k);
        }
        std::string why = "= " + std::to_string(k) + " is not served by the circuits chosen";
        if (hi) why += " (their k: " + std::to_string(lo) + ".." + std::to_string(hi) + ")";
        return usage("k", why);
      }
    }
  }
  if (out.empty()) return usage(option, "chooses no circuit");
  return out;
}

Result<std::vector<CircuitId>> circuits_option(const Args& args,
                                               const std::string& default_families) {
  const std::string spec = args.get_or("circuit", default_families);
  if (args.get("k") && names_circuit_ids_only(spec)) {
    return usage("k", "cannot be combined with --circuit " + spec +
                          ": a circuit id names its own k; name a family (transfer) to choose k");
  }
  return resolve_circuits(spec, args.get("k"), "circuit");
}

}  // namespace enygma::native
