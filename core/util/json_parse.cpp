#include "core/util/json_parse.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_set>
#include <utility>
#include <vector>

namespace enygma {

namespace {

// An array or object still open while parsing: for an array the elements begun so far; for an
// object where its member names start in the name stack (its current member is the last).
struct Open {
  uint32_t elements = 0;
  uint32_t first_name = 0;
  bool array = false;
};

// A member name within the object open at a given depth.
struct Member {
  size_t depth;
  std::string_view name;
  bool operator==(const Member& o) const { return depth == o.depth && name == o.name; }
};
struct MemberHash {
  size_t operator()(const Member& m) const {
    return std::hash<std::string_view>()(m.name) ^ (m.depth * 0x9e3779b97f4a7c15ull);
  }
};

// Checks member names while nlohmann parses: memory linear in the open values and the names of
// open objects, time linear in the text (hash lookups), whatever the nesting.
class DuplicateFinder {
 public:
  void begin(bool array) {
    element_begins();
    open_.push_back({0, static_cast<uint32_t>(names_.size()), array});
  }
  void end() {
    if (open_.empty()) return;
    const size_t depth = open_.size();
    while (names_.size() > open_.back().first_name) {
      seen_.erase({depth, names_.back()});
      names_.pop_back();
    }
    open_.pop_back();
  }
  void key(const std::string& name) {
    if (open_.empty() || open_.back().array) return;
    names_.push_back(name);  // the deque keeps the other names (and the set's views) in place
    if (!seen_.insert({open_.size(), names_.back()}).second && duplicate_.empty()) {
      duplicate_ = path();
    }
  }
  void value() { element_begins(); }
  std::string take_duplicate() { return std::move(duplicate_); }

 private:
  void element_begins() {
    if (!open_.empty() && open_.back().array) ++open_.back().elements;
  }
  // "a[1].b": for each open value, the element or member now being read.
  std::string path() const {
    std::string out;
    for (const Open& v : open_) {
      if (v.array) {
        out.append("[").append(std::to_string(v.elements - 1)).append("]");
      } else {
        if (!out.empty()) out.append(".");
        const size_t current = &v == &open_.back() ? names_.size() - 1 : (&v + 1)->first_name - 1;
        out.append(names_[current]);
      }
    }
    return out;
  }

  std::vector<Open> open_;
  std::deque<std::string> names_;
  std::unordered_set<Member, MemberHash> seen_;
  std::string duplicate_;
};

}  // namespace

ParsedJson parse_json(std::string_view text) {
  DuplicateFinder finder;
  using Event = nlohmann::json::parse_event_t;
  auto callback = [&finder](int, Event event, nlohmann::json& parsed) {
    switch (event) {
      case Event::object_start:
        finder.begin(false);
        break;
      case Event::array_start:
        finder.begin(true);
        break;
      case Event::object_end:
      case Event::array_end:
        finder.end();
        break;
      case Event::key:
        if (parsed.is_string()) finder.key(parsed.get_ref<const std::string&>());
        break;
      case Event::value:
        finder.value();
        break;
    }
    return true;
  };
  ParsedJson out;
  out.value = nlohmann::json::parse(text.begin(), text.end(), callback,
                                    /*allow_exceptions=*/false);
  out.duplicate = finder.take_duplicate();
  return out;
}

std::string duplicate_member_message(const std::string& path) {
  return path + " is given twice (a member name must be unique within its object)";
}

}  // namespace enygma
