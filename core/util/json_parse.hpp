// Parsing the JSON a client sends (requests, proofs, verifying keys) into nlohmann::json with
// the check nlohmann leaves out: a member name given twice in one object, exactly or as Go's
// encoding/json compares names (ignoring case). RFC 8259 leaves the meaning of such text to the
// reader: nlohmann and Go keep the last value, other readers the first, and Go binds "Sender_ID"
// to the field sender_id. A relayer and this prover could otherwise read two different requests
// in the same bytes. Every caller refuses it, naming the member.
#pragma once

#include <sodium.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/secure_vector.hpp"

namespace enygma {

struct ParsedJson {
  nlohmann::json value;  // discarded (value.is_discarded()) when the text is not JSON
  // The first member whose name repeats one before it in the same object: its path
  // ("keyPairsIn[0].publicKey") and the message that says so; both empty when none does.
  std::string duplicate;
  std::string duplicate_message;
  // Text that is not JSON: where it goes wrong ("line 3, column 7": where the token that cannot
  // be there ends; "it ends before its JSON value does"; "it holds no JSON value"), never
  // quoting the text.
  std::string syntax_error;
  // Where the text is well formed but holds a value nlohmann cannot read (a number beyond a
  // double's range, 1e400): "a number beyond the range of a double", and the path of the member
  // or element it is ("amount", "a[2]"; empty for the whole text). Both empty otherwise.
  std::string bad_value;
  std::string bad_value_field;
};

// "<what> is not valid JSON (<where>[: <field> is <bad value>])": the error of text that
// parse_json discarded; its field is bad_value_field.
std::string not_json_message(const std::string& what, const ParsedJson& parsed);

// Never throws for bad text; std::bad_alloc passes through. Reads as nlohmann::json::parse
// does (the same texts accepted, the same values), but leaves no copy of the text's strings in
// memory freed unwiped (they hold a request's secrets), also where the text is not JSON. One
// difference: nlohmann takes a NUL byte for the end of its input and ignores what follows
// (`{...}\0junk` is JSON to it); here a NUL byte is refused wherever it stands, as Go's
// encoding/json (the reference's reader) refuses it.
ParsedJson parse_json(std::string_view text);

// A member name as messages and fields may show it: the name itself where it looks like a field
// name (a letter or '_', then letters, digits, '_' or '-', at most 64 bytes), else "(a member
// name)": a client may send a value where a name belongs (an object for a list), and a value
// may be a secret key.
std::string_view shown_member_name(std::string_view name);

// Zero every string and number of a JSON document (parsed or printed: a request's secrets are
// decimal text, or numbers where a client wrote them so), and its member names (where a value
// stood in a name's place), at every depth, before it is freed: the document is not read after.
template <class Json>
void wipe_json_values(Json& root) {
  std::vector<Json*> todo{&root};
  while (!todo.empty()) {
    Json* v = todo.back();
    todo.pop_back();
    if (v->is_object()) {
      // The names' characters (the map's keys are const only to keep its order: unused now).
      for (auto it = v->begin(); it != v->end(); ++it) {
        auto& name = const_cast<typename Json::string_t&>(it.key());
        if (!name.empty()) sodium_memzero(name.data(), name.size());
      }
    }
    if (v->is_string()) {
      auto& s = v->template get_ref<typename Json::string_t&>();
      if (!s.empty()) sodium_memzero(s.data(), s.size());
    } else if (v->is_number_float()) {
      sodium_memzero(&v->template get_ref<typename Json::number_float_t&>(),
                     sizeof(typename Json::number_float_t));
    } else if (v->is_number_unsigned()) {
      sodium_memzero(&v->template get_ref<typename Json::number_unsigned_t&>(),
                     sizeof(typename Json::number_unsigned_t));
    } else if (v->is_number_integer()) {
      sodium_memzero(&v->template get_ref<typename Json::number_integer_t&>(),
                     sizeof(typename Json::number_integer_t));
    } else if (v->is_array() || v->is_object()) {
      for (auto& e : *v) todo.push_back(&e);
    }
  }
}

// Wipes a document's strings and numbers (wipe_json_values) when the scope ends, on every return
// path: for documents read from what a client sends, which may hold secrets (a request, or a
// request sent to a route that expects something else).
template <class Json>
class WipeValuesOnExit {
 public:
  explicit WipeValuesOnExit(Json& doc) : doc_(doc) {}
  WipeValuesOnExit(const WipeValuesOnExit&) = delete;
  WipeValuesOnExit& operator=(const WipeValuesOnExit&) = delete;
  ~WipeValuesOnExit() { wipe_json_values(doc_); }

 private:
  Json& doc_;
};

// An empty ordered JSON object with room for `members` members: its members are then never
// copied. An ordered object is a vector of (const name, value) pairs, which a growth copies
// (the const name cannot be moved), freeing the old values' strings unwiped: a printed request
// built member by member (secret keys, salts as decimal text) has them copied each time.
template <class Json>
Json object_with_room(size_t members) {
  Json o = Json::object();
  o.template get_ref<typename Json::object_t&>().reserve(members);
  return o;
}
// An ordered object of two members, made with room for both and the values moved in: an object
// made from a braced list ({{"publicKey", pk}, {"privateKey", sk}}) grows as its members come,
// copying the first one and freeing its string unwiped.
template <class Json>
Json object_of(const char* name0, Json value0, const char* name1, Json value1) {
  Json o = object_with_room<Json>(2);
  o[name0] = std::move(value0);
  o[name1] = std::move(value1);
  return o;
}
// Room for every member of any request this project prints.
constexpr size_t kRequestMembers = 48;

// A document's text, as dump(indent) prints it, with no unwiped copy of it left in freed memory
// (dump() grows its string, freeing each shorter copy as it is: a printed request's secrets):
// printed into a buffer wiped on every growth, then copied once into a string of its size.
template <class Json>
std::string dump_wiping(const Json& doc, int indent) {
  struct Output : nlohmann::detail::output_adapter_protocol<char> {
    SecureVector<char> text;
    void write_character(char c) override { text.push_back(c); }
    void write_characters(const char* s, std::size_t n) override {
      text.insert(text.end(), s, s + n);
    }
  };
  auto output = std::make_shared<Output>();
  output->text.reserve(4096);
  nlohmann::detail::serializer<Json>(output, ' ')
      .dump(doc, indent >= 0, false, indent >= 0 ? unsigned(indent) : 0u);
  return std::string(output->text.begin(), output->text.end());
}

// The compact text of a JSON value whose strings may hold bytes that are not UTF-8 (a path, a
// name from a file or a client): such bytes become U+FFFD instead of an exception.
template <class Json>
std::string json_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A member name as Go's encoding/json compares it with an ASCII field name (bytes.EqualFold):
// ASCII letters in lower case, and the two other characters that fold to ASCII letters, U+017F
// (long s) to 's' and U+212A (Kelvin sign) to 'k'; every other byte as it is.
std::string fold_member_name(std::string_view name);

// The error for a field whose member `obj` does not hold under its exact name `key`: "missing
// field <field>", or, where a member's name equals `key` only ignoring case ("TreeNumber" for
// treeNumber), a message naming that member. Go's encoding/json binds such a member to the
// field; the readers here match names exactly, and refuse it rather than read the request
// without the field (an optional field would take its default silently).
std::string missing_field_message(const nlohmann::json& obj, std::string_view key,
                                  std::string_view field);
// Whether `obj` holds a member whose name equals `key` ignoring case but not exactly.
bool has_member_in_other_case(const nlohmann::json& obj, std::string_view key);

}  // namespace enygma
