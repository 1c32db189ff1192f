#include "core/util/json_parse.hpp"

#include <algorithm>
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

// A SAX handler that keeps nothing: it only learns where the text stops being JSON.
struct SyntaxErrorFinder : nlohmann::json::json_sax_t {
  size_t byte = 0;  // nlohmann's: 1 + the offset of the last character read
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    byte = position;
    return false;
  }
};

// Where text that is not JSON goes wrong, without quoting it (it may hold a secret key):
// "line 3, column 7", or that it ends early or holds nothing.
std::string syntax_error_position(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return "it holds no JSON value";
  SyntaxErrorFinder finder;
  nlohmann::json::sax_parse(text.begin(), text.end(), &finder);
  if (finder.byte == 0) return "";
  const size_t at = std::min(finder.byte - 1, text.size());
  if (at >= text.size()) return "it ends before its JSON value does";
  const size_t line = size_t(std::count(text.begin(), text.begin() + at, '\n')) + 1;
  const size_t newline = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  const size_t column = newline == std::string_view::npos ? at + 1 : at - newline;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

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
  if (out.value.is_discarded()) out.syntax_error = syntax_error_position(text);
  return out;
}

std::string not_json_message(const std::string& what, const ParsedJson& parsed) {
  std::string out = what + " is not valid JSON";
  if (!parsed.syntax_error.empty()) out += " (" + parsed.syntax_error + ")";
  return out;
}

}  // namespace enygma
