#include "core/util/json_parse.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/util/secure_vector.hpp"

namespace enygma {

namespace {
const std::string* member_in_other_case(const nlohmann::json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  const std::string folded = fold_member_name(key);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it.key() != key && fold_member_name(it.key()) == folded) return &it.key();
  }
  return nullptr;
}
}  // namespace

bool has_member_in_other_case(const nlohmann::json& obj, std::string_view key) {
  return member_in_other_case(obj, key) != nullptr;
}

std::string missing_field_message(const nlohmann::json& obj, std::string_view key,
                                  std::string_view field) {
  std::string message("missing field ");
  message.append(field);
  if (const std::string* other = member_in_other_case(obj, key)) {
    message.append(" (a member \"")
        .append(*other)
        .append("\" is given: member names must be written exactly, here \"")
        .append(key)
        .append("\")");
  }
  return message;
}

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

std::string_view shown_member_name(std::string_view name) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  bool field_like = !name.empty() && name.size() <= 64 && letter(name[0]);
  for (char c : name) field_like = field_like && (letter(c) || (c >= '0' && c <= '9') || c == '-');
  return field_like ? name : std::string_view("(a member name)");
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
      pop_name();
    }
    open_.pop_back();
  }
  // The names' copies hold what a client sent in a name's place (a secret, maybe).
  ~DuplicateFinder() {
    while (!names_.empty()) pop_name();
  }
  DuplicateFinder() = default;
  DuplicateFinder(const DuplicateFinder&) = delete;
  DuplicateFinder& operator=(const DuplicateFinder&) = delete;
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
      message_ = duplicate_ + " is given twice, as \"";
      message_.append(shown_member_name(earlier)).append("\" and \"");
      message_.append(shown_member_name(name));
      message_ += "\" (names that differ only in case are one member to Go's encoding/json)";
    }
  }
  void value() { element_begins(); }
  // The path of the value whose first token is being read, given the character before that
  // token: after a colon the current member's, after '[' or ',' in an array its next element's;
  // empty elsewhere (a member name's place, the whole text, text that is not JSON there).
  std::string next_value_path(char before) const {
    if (open_.empty()) return "";
    if (open_.back().array) return before == '[' || before == ',' ? path("", true) : "";
    return before == ':' && !names_.empty() ? path(names_.back()) : "";
  }
  void take_result(ParsedJson& out) {
    out.duplicate = std::move(duplicate_);
    out.duplicate_message = std::move(message_);
  }

 private:
  void element_begins() {
    if (!open_.empty() && open_.back().array) ++open_.back().elements;
  }
  void pop_name() {
    for (std::string* s : {&names_.back(), &folded_.back()}) {
      if (!s->empty()) sodium_memzero(s->data(), s->size());
    }
    names_.pop_back();
    folded_.pop_back();
  }
  // "a[1].b": for each open value, the element or member now being read; `name` for the
  // innermost object's; pending: the innermost array's next element (not counted yet).
  std::string path(const std::string& name, bool pending = false) const {
    std::string out;
    for (const Open& v : open_) {
      if (v.array) {
        const bool next = pending && &v == &open_.back();
        out.append("[").append(std::to_string(next ? v.elements : v.elements - 1)).append("]");
      } else {
        if (!out.empty()) out.append(".");
        out.append(
            shown_member_name(&v == &open_.back() ? name : names_[(&v + 1)->first_name - 1]));
      }
    }
    return out;
  }

  std::vector<Open> open_;
  std::deque<std::string> names_, folded_;
  std::unordered_map<Member, size_t, MemberHash> seen_;  // -> the index of its name
  std::string duplicate_, message_;
};

using Json = nlohmann::json;
using ScratchText = std::basic_string<char, std::char_traits<char>, WipingAllocator<char>>;

// Reads JSON text into nlohmann::json as nlohmann::json::parse reads it (RFC 8259: a UTF-8 byte
// order mark skipped; strings valid UTF-8, escapes and surrogate pairs checked; integers as
// int64 / uint64 where they fit, other numbers as double, refused beyond its range; whitespace
// around the value only),
// but without copies of the text's strings in memory freed unwiped: a request's strings hold its
// secrets, and nlohmann's lexer grows (and, on text that is not JSON, drops) its buffers without
// wiping. Each string is read into a wiping scratch buffer, then copied once into a string of
// its exact size in the document; a document left half-built by bad text is wiped before it is
// dropped. Iterative (no recursion, whatever the nesting); the member names go through the
// DuplicateFinder as they come.
class JsonReader {
 public:
  JsonReader(std::string_view text, DuplicateFinder& duplicates)
      : text_(text), duplicates_(duplicates) {}

  // false: the text is not JSON; error_at() is then the offset of the last character read (the
  // end of the token that cannot be there, or the character that cannot be in its token), or
  // the text's length where it ends too early.
  bool read(Json& out) {
    if (!skip_byte_order_mark()) return false;
    struct Open {
      Json* value;
      bool array;
    };
    std::vector<Open> open;
    Json* target = &out;  // where the value that starts with `token` goes
    Token token = next();
    for (;;) {
      bool complete = true;  // a whole value was read into *target
      switch (token) {
        case Token::begin_object:
        case Token::begin_array: {
          const bool array = token == Token::begin_array;
          *target = array ? Json::array() : Json::object();
          duplicates_.begin(array);
          token = next();
          if (token == (array ? Token::end_array : Token::end_object)) {
            duplicates_.end();
            break;
          }
          open.push_back({target, array});
          target = array ? &append(*target) : member(*target, token);
          if (!target) return false;
          complete = false;
          break;
        }
        case Token::string:
          *target = Json(Json::value_t::string);
          target->get_ref<std::string&>().assign(scratch_.data(), scratch_.size());
          duplicates_.value();
          break;
        case Token::number:
          *target = std::move(number_);
          duplicates_.value();
          break;
        case Token::literal_true:
        case Token::literal_false:
          *target = token == Token::literal_true;
          duplicates_.value();
          break;
        case Token::literal_null:
          *target = nullptr;
          duplicates_.value();
          break;
        default:
          return unexpected(token);
      }
      if (!complete) continue;
      // After a value: close the values it ends, up to the next element, member or the end.
      token = next();
      for (;;) {
        if (open.empty()) return token == Token::end ? true : unexpected(token);
        const Open& o = open.back();
        if (token == Token::comma) {
          token = next();
          target = o.array ? &append(*o.value) : member(*o.value, token);
          if (!target) return false;
          break;
        }
        if (token != (o.array ? Token::end_array : Token::end_object)) return unexpected(token);
        duplicates_.end();
        open.pop_back();
        token = next();
      }
    }
  }

  size_t error_at() const { return error_at_; }
  // Where the text failed at a value it cannot read: what it is, and its path (ParsedJson).
  const std::string& bad_value() const { return bad_value_; }
  const std::string& bad_value_field() const { return bad_value_field_; }

 private:
  enum class Token {
    begin_object,
    end_object,
    begin_array,
    end_array,
    colon,
    comma,
    string,
    number,
    literal_true,
    literal_false,
    literal_null,
    end,
    error
  };

  bool fail(size_t at) {
    error_at_ = std::min(at, text_.size());
    return false;
  }
  // A token that is well formed but cannot stand here (error_at_ is set already for `error`).
  bool unexpected(Token token) { return token == Token::error ? false : fail(last_); }

  uint8_t at(size_t i) const { return uint8_t(text_[i]); }

  bool skip_byte_order_mark() {
    if (text_.empty() || at(0) != 0xEF) return true;
    for (size_t i = 1; i < 3; ++i) {
      if (i >= text_.size() || at(i) != (i == 1 ? 0xBB : 0xBF)) return fail(i);
    }
    pos_ = 3;
    return true;
  }

  Json& append(Json& array) {
    auto& elements = *array.get_ptr<Json::array_t*>();
    elements.emplace_back();
    return elements.back();
  }

  // The member whose name is `token` (then a colon and the value's first token, read into
  // token): its slot in `object`; nullptr when the text is not JSON there.
  Json* member(Json& object, Token& token) {
    if (token != Token::string) {
      unexpected(token);
      return nullptr;
    }
    std::string name(scratch_.data(), scratch_.size());
    duplicates_.key(name);
    auto& members = *object.get_ptr<Json::object_t*>();
    auto [it, inserted] = members.try_emplace(std::move(name));
    if (!name.empty()) sodium_memzero(name.data(), name.size());  // not moved: a repeated name
    if (!inserted) {  // nlohmann keeps the last value; the callers refuse the text anyway
      wipe_json_values(it->second);
      it->second = Json();
    }
    if ((token = next()) != Token::colon) {
      unexpected(token);
      return nullptr;
    }
    token = next();
    return &it->second;
  }

  Token next() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      last_ = text_.size();
      return Token::end;
    }
    const char c = text_[pos_];
    auto single = [&](Token t) {
      last_ = pos_++;
      return t;
    };
    switch (c) {
      case '{':
        return single(Token::begin_object);
      case '}':
        return single(Token::end_object);
      case '[':
        return single(Token::begin_array);
      case ']':
        return single(Token::end_array);
      case ':':
        return single(Token::colon);
      case ',':
        return single(Token::comma);
      case '"':
        return string();
      case 't':
        return literal("true", Token::literal_true);
      case 'f':
        return literal("false", Token::literal_false);
      case 'n':
        return literal("null", Token::literal_null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        fail(pos_);
        return Token::error;
    }
  }

  Token literal(std::string_view word, Token t) {
    for (size_t i = 1; i < word.size(); ++i) {
      if (pos_ + i >= text_.size() || text_[pos_ + i] != word[i]) {
        fail(pos_ + i);
        return Token::error;
      }
    }
    pos_ += word.size();
    last_ = pos_ - 1;
    return t;
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // The four hex digits of a \u escape from text_[i]; -1 (error_at_ set) when one is not.
  long code_unit(size_t i) {
    long unit = 0;
    for (size_t d = 0; d < 4; ++d) {
      const int h = i + d < text_.size() ? hex_digit(text_[i + d]) : -1;
      if (h < 0) {
        fail(i + d);
        return -1;
      }
      unit = unit * 16 + h;
    }
    return unit;
  }

  void put_utf8(unsigned long cp) {
    if (cp < 0x80) {
      scratch_.push_back(char(cp));
    } else if (cp < 0x800) {
      scratch_.push_back(char(0xC0 | (cp >> 6)));
      scratch_.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      scratch_.push_back(char(0xE0 | (cp >> 12)));
      scratch_.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      scratch_.push_back(char(0x80 | (cp & 0x3F)));
    } else {
      scratch_.push_back(char(0xF0 | (cp >> 18)));
      scratch_.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
      scratch_.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      scratch_.push_back(char(0x80 | (cp & 0x3F)));
    }
  }

  // A string token into scratch_ (its content, escapes resolved).
  Token string() {
    scratch_.clear();
    size_t i = pos_ + 1;
    auto error = [&](size_t where) {
      fail(where);
      return Token::error;
    };
    for (;;) {
      if (i >= text_.size()) return error(i);
      const uint8_t c = at(i);
      if (c == '"') {
        last_ = i;
        pos_ = i + 1;
        return Token::string;
      }
      if (c < 0x20) return error(i);  // a control character must be escaped
      if (c == '\\') {
        if (i + 1 >= text_.size()) return error(i + 1);
        const char e = text_[i + 1];
        static constexpr std::string_view kEscapes = "\"\\/bfnrt", kMeaning = "\"\\/\b\f\n\r\t";
        if (const size_t k = kEscapes.find(e); k != std::string_view::npos && e != '\0') {
          scratch_.push_back(kMeaning[k]);
          i += 2;
          continue;
        }
        if (e != 'u') return error(i + 1);
        long cp = code_unit(i + 2);
        if (cp < 0) return Token::error;
        i += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return error(i - 1);  // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: "\u" and the low one follow
          if (i >= text_.size() || text_[i] != '\\') return error(i);
          if (i + 1 >= text_.size() || text_[i + 1] != 'u') return error(i + 1);
          const long low = code_unit(i + 2);
          if (low < 0) return Token::error;
          i += 6;
          if (low < 0xDC00 || low > 0xDFFF) return error(i - 1);
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        put_utf8(static_cast<unsigned long>(cp));
        continue;
      }
      if (c < 0x80) {
        scratch_.push_back(char(c));
        ++i;
        continue;
      }
      // UTF-8 (RFC 3629): the continuation bytes' ranges by lead byte; no overlong forms, no
      // surrogates, nothing above U+10FFFF.
      uint8_t lo = 0x80, hi = 0xBF;
      size_t more;
      if (c >= 0xC2 && c <= 0xDF) {
        more = 1;
      } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
      } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
      } else {
        return error(i);
      }
      for (size_t b = 1; b <= more; ++b) {
        if (i + b >= text_.size()) return error(i + b);
        const uint8_t x = at(i + b);
        if (x < (b == 1 ? lo : 0x80) || x > (b == 1 ? hi : 0xBF)) return error(i + b);
      }
      scratch_.append(text_.data() + i, more + 1);
      i += more + 1;
    }
  }

  // A number token into number_: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  Token number() {
    const size_t start = pos_;
    size_t i = pos_;
    auto digit = [&](size_t j) { return j < text_.size() && text_[j] >= '0' && text_[j] <= '9'; };
    auto error = [&](size_t where) {
      fail(where);
      return Token::error;
    };
    const bool negative = text_[i] == '-';
    if (negative && !digit(++i)) return error(i);
    if (text_[i] == '0') {
      ++i;
    } else {
      while (digit(i)) ++i;
    }
    bool integer = true;
    if (i < text_.size() && text_[i] == '.') {
      integer = false;
      if (!digit(++i)) return error(i);
      while (digit(i)) ++i;
    }
    if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
      integer = false;
      ++i;
      if (i < text_.size() && (text_[i] == '+' || text_[i] == '-')) ++i;
      if (!digit(i)) return error(i);
      while (digit(i)) ++i;
    }
    pos_ = i;
    last_ = i - 1;
    const char* first = text_.data() + start;
    const char* past = text_.data() + i;
    if (integer) {  // as nlohmann: int64 with a sign, uint64 without, double when out of range
      if (negative) {
        int64_t v = 0;
        if (auto [p, ec] = std::from_chars(first, past, v); ec == std::errc() && p == past) {
          number_ = v;
          return Token::number;
        }
      } else {
        uint64_t v = 0;
        if (auto [p, ec] = std::from_chars(first, past, v); ec == std::errc() && p == past) {
          number_ = v;
          return Token::number;
        }
      }
    }
    scratch_.assign(first, past);  // strtod needs a terminated text
    const double v = std::strtod(scratch_.c_str(), nullptr);
    if (!std::isfinite(v)) {  // beyond double's range (1e400): not a number nlohmann reads
      size_t b = start;
      while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\t' || text_[b - 1] == '\n' ||
                       text_[b - 1] == '\r')) {
        --b;
      }
      bad_value_ = "a number beyond the range of a double";
      bad_value_field_ = duplicates_.next_value_path(b > 0 ? text_[b - 1] : '\0');
      fail(last_);
      return Token::error;
    }
    number_ = v;
    return Token::number;
  }

  std::string_view text_;
  DuplicateFinder& duplicates_;
  size_t pos_ = 0;
  size_t last_ = 0;  // the offset of the last character of the last token (the length at the end)
  size_t error_at_ = 0;
  std::string bad_value_, bad_value_field_;
  ScratchText scratch_;  // the last string token's content, or a number's text
  Json number_;          // the last number token's value
};

// Where text that is not JSON goes wrong, without quoting it (it may hold a secret key):
// "line 3, column 7", or that it ends early or holds nothing.
std::string syntax_error_position(std::string_view text, size_t at) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return "it holds no JSON value";
  if (at >= text.size()) return "it ends before its JSON value does";
  const size_t line = size_t(std::count(text.begin(), text.begin() + at, '\n')) + 1;
  const size_t newline = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  const size_t column = newline == std::string_view::npos ? at + 1 : at - newline;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

ParsedJson parse_json(std::string_view text) {
  DuplicateFinder finder;
  ParsedJson out;
  JsonReader reader(text, finder);
  if (!reader.read(out.value)) {
    wipe_json_values(out.value);
    out.value = Json(Json::value_t::discarded);
    out.syntax_error = syntax_error_position(text, reader.error_at());
    out.bad_value = reader.bad_value();
    out.bad_value_field = reader.bad_value_field();
  }
  finder.take_result(out);
  return out;
}

std::string not_json_message(const std::string& what, const ParsedJson& parsed) {
  std::string out = what + " is not valid JSON";
  if (!parsed.syntax_error.empty()) {
    out += " (" + parsed.syntax_error;
    if (!parsed.bad_value.empty()) {
      out += ": " + (parsed.bad_value_field.empty() ? std::string("it") : parsed.bad_value_field) +
             " is " + parsed.bad_value;
    }
    out += ")";
  }
  return out;
}

}  // namespace enygma
