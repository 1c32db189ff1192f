#include "native/common/options.hpp"

#include <algorithm>
#include <sstream>

namespace enygma::cli {

std::optional<std::vector<unsigned>> parse_k_list(const std::string& spec, unsigned lo,
                                                  unsigned hi) {
  std::vector<unsigned> out;
  std::stringstream ss(spec);
  std::string part;
  auto num = [&](const std::string& s) -> std::optional<unsigned> {
    if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
    unsigned v = unsigned(std::stoul(s));
    if (v < lo || v > hi) return std::nullopt;
    return v;
  };
  while (std::getline(ss, part, ',')) {
    auto dash = part.find('-');
    if (dash == std::string::npos) {
      auto v = num(part);
      if (!v) return std::nullopt;
      out.push_back(*v);
    } else {
      auto a = num(part.substr(0, dash)), b = num(part.substr(dash + 1));
      if (!a || !b || *a > *b) return std::nullopt;
      for (unsigned k = *a; k <= *b; ++k) out.push_back(k);
    }
  }
  if (out.empty()) return std::nullopt;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace enygma::cli
