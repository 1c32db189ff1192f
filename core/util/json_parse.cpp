#include "core/util/json_parse.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace enygma {

std::string fold_member_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c >= 'A' && c <= 'Z') {
      out.push_back(char(c - 'A' + 'a'));
    } else if (name.substr(i, 2) == "\xC5\xBF") {  // U+017F
      out.push_back('s');
      i += 1;
    } else if (name.substr(i, 3) == "\xE2\x84\xAA") {  // U+212A
      out.push_back('k');
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

// An array or object still open while parsing: for an array the elements begun so far; for an
// object where its member names start in the name stacks (its current member is the last).
struct Open {
  uint32_t elements = 0;
  uint32_t first_name = 0;
  bool array = false;
};

// A folded member name within the object open at a given depth.
struct Member {
  size_t depth;
  std::string_view folded;
  bool operator==(const Member& o) const { return depth == o.depth && folded == o.folded; }
};
struct MemberHash {
  size_t operator()(const Member& m) const {
    return std::hash<std::string_view>()(m.folded) ^ (m.depth * 0x9e3779b97f4a7c15ull);
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
      seen_.erase({depth, folded_.back()});
      names_.pop_back();
      folded_.pop_back();
    }
    open_.pop_back();
  }
  void key(const std::string& name) {
    if (open_.empty() || open_.back().array) return;
    // The deques keep the other names (and the map's views of them) in place.
    names_.push_back(name);
    folded_.push_back(fold_member_name(name));
    const auto [it, inserted] =
        seen_.try_emplace({open_.size(), folded_.back()}, names_.size() - 1);
    if (inserted || !duplicate_.empty()) return;
    const std::string& earlier = names_[it->second];
    duplicate_ = path(earlier);
    if (earlier == name) {
      message_ = duplicate_ + " is given twice (a member name must be unique within its object)";
    } else {
      message_ = duplicate_ + " is given twice, as \"" + earlier + "\" and \"" + name +
                 "\" (names that differ only in case are one member to Go's encoding/json)";
    }
  }
  void value() { element_begins(); }
  void take_result(ParsedJson& out) {
    out.duplicate = std::move(duplicate_);
    out.duplicate_message = std::move(message_);
  }

 private:
  void element_begins() {
    if (!open_.empty() && open_.back().array) ++open_.back().elements;
  }
  // "a[1].b": for each open value, the element or member now being read; `name` for the
  // innermost object's.
  std::string path(const std::string& name) const {
    std::string out;
    for (const Open& v : open_) {
      if (v.array) {
        out.append("[").append(std::to_string(v.elements - 1)).append("]");
      } else {
        if (!out.empty()) out.append(".");
        out.append(&v == &open_.back() ? name : names_[(&v + 1)->first_name - 1]);
      }
    }
    return out;
  }

  std::vector<Open> open_;
  std::deque<std::string> names_, folded_;
  std::unordered_map<Member, size_t, MemberHash> seen_;  // -> the index of its name
  std::string duplicate_, message_;
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
  finder.take_result(out);
  return out;
}

}  // namespace enygma
