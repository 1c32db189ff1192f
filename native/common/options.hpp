// A small command-line option parser shared by the enygma subcommands:
//   --name value, --name=value, boolean --flag; everything else is an error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace enygma::cli {

class Args {
 public:
  // value_options take a value; flag_options do not. Returns false (after printing the reason
  // to stderr) on unknown options or missing values. --help is always accepted.
  bool parse(int argc, char** argv, const std::set<std::string>& value_options,
             const std::set<std::string>& flag_options = {}) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) return fail("unexpected argument '" + a + "'");
      std::string name = a.substr(2), value;
      bool has_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_value = true;
      }
      if (name == "help" || flag_options.count(name)) {
        if (has_value) return fail("--" + name + " takes no value");
        flags_.insert(name);
        continue;
      }
      if (!value_options.count(name)) return fail("unknown option --" + name);
      if (!has_value) {
        if (i + 1 >= argc) return fail("--" + name + " needs a value");
        value = argv[++i];
      }
      values_[name] = value;
    }
    return true;
  }

  bool has(const std::string& name) const { return values_.count(name) || flags_.count(name); }
  bool help() const { return flags_.count("help") > 0; }
  std::optional<std::string> get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  std::string get_or(const std::string& name, const std::string& fallback) const {
    return get(name).value_or(fallback);
  }
  // Unsigned integer option in [lo, hi]; prints an error and returns nullopt when invalid.
  std::optional<unsigned long> get_uint(const std::string& name, unsigned long fallback,
                                        unsigned long lo, unsigned long hi) const {
    auto v = get(name);
    if (!v) return fallback;
    char* end = nullptr;
    unsigned long x = strtoul(v->c_str(), &end, 10);
    if (v->empty() || *end != 0 || (*v)[0] == '-' || x < lo || x > hi) {
      fprintf(stderr, "enygma: --%s must be an integer in %lu..%lu, got '%s'\n", name.c_str(), lo,
              hi, v->c_str());
      return std::nullopt;
    }
    return x;
  }
  // True when every option in names was given; otherwise prints
  // "enygma COMMAND: --a, --b and --c are required (see --help)" and returns false.
  bool require(const char* command, const std::vector<std::string>& names) const {
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
  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& why) {
    error_ = why;
    fprintf(stderr, "enygma: %s (see --help)\n", why.c_str());
    return false;
  }
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  std::string error_;
};

// Parse "2-6", "2,3,6" or "4" into a sorted list of k values within [lo, hi].
std::optional<std::vector<unsigned>> parse_k_list(const std::string& spec, unsigned lo,
                                                  unsigned hi);

}  // namespace enygma::cli
