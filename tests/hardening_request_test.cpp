// Hostile inputs at the request parser (parse_transfer_request) and validator: deeply nested
// JSON, huge JSON, numbers with thousands of digits, arrays of hundreds of thousands of
// elements, absurd k. Each is answered with an error naming the problem, without a crash and
// without a large allocation: this program counts the bytes allocated through operator new (its
// own replacement below) and bounds the peak of each parse.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <new>
#include <string>

#include "core/joinsplit/request.hpp"
#include "core/ownership/request.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "support/vectors.hpp"

// ---- allocation meter: replaces the global operator new/delete of this test program ---------
// Each block carries its size in a 16-byte prefix (keeps 16-byte alignment). Over-aligned
// allocations keep the library's own operators; they are not counted.
namespace {
std::atomic<size_t> g_live_bytes{0}, g_peak_bytes{0};
constexpr size_t kPrefix = 16;

void* counted_alloc(size_t n) {
  void* raw = std::malloc(n + kPrefix);
  if (!raw) return nullptr;
  *static_cast<size_t*>(raw) = n;
  const size_t live = g_live_bytes.fetch_add(n) + n;
  size_t peak = g_peak_bytes.load();
  while (live > peak && !g_peak_bytes.compare_exchange_weak(peak, live)) {
  }
  return static_cast<char*>(raw) + kPrefix;
}
void counted_free(void* p) {
  if (!p) return;
  void* raw = static_cast<char*>(p) - kPrefix;
  g_live_bytes.fetch_sub(*static_cast<size_t*>(raw));
  std::free(raw);
}
}  // namespace

void* operator new(size_t n) {
  if (void* p = counted_alloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) {
  return operator new(n);
}
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  return counted_alloc(n);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  return counted_alloc(n);
}
void operator delete(void* p) noexcept {
  counted_free(p);
}
void operator delete[](void* p) noexcept {
  counted_free(p);
}
void operator delete(void* p, size_t) noexcept {
  counted_free(p);
}
void operator delete[](void* p, size_t) noexcept {
  counted_free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  counted_free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  counted_free(p);
}

namespace enygma {
namespace {

// The most memory that one call of f held at once beyond what was live before it.
template <class F>
size_t peak_allocation_of(F&& f) {
  const size_t before = g_live_bytes.load();
  g_peak_bytes.store(before);
  f();
  return g_peak_bytes.load() - before;
}

constexpr size_t kMiB = size_t(1) << 20;
// The parser refuses bodies over 1 MiB before parsing. A parsed document costs a small multiple
// of its text (nlohmann's DOM: 16 bytes a value plus containers); 64 MiB bounds every case here.
constexpr size_t kAllocationBound = 64 * kMiB;

std::string valid_k2_request() {
  std::ifstream in(std::string(ENYGMA_SHARED_DIR).append("/vectors/transfer-k2.json"));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replaces the value of `"field": <value>` (a string, array or number) in a request's text.
std::string with_field(std::string json, const std::string& field, const std::string& value) {
  const std::string key = "\"" + field + "\":";
  size_t at = json.find(key);
  EXPECT_NE(at, std::string::npos) << field;
  at += key.size();
  while (json[at] == ' ') ++at;
  size_t end = at;
  if (json[at] == '"') {
    end = json.find('"', at + 1) + 1;
  } else if (json[at] == '[') {
    int depth = 0;
    do {
      if (json[end] == '[') ++depth;
      if (json[end] == ']') --depth;
      ++end;
    } while (depth > 0);
  } else {
    while (json[end] != ',' && json[end] != '}') ++end;
  }
  return json.substr(0, at) + value + json.substr(end);
}

struct Outcome {
  Result<TransferRequest> result = make_error("not run");
  size_t peak = 0;
};

Outcome parse_measured(const std::string& text, unsigned k = 2) {
  Outcome o;
  o.peak = peak_allocation_of([&] { o.result = parse_transfer_request(text, k); });
  return o;
}

// An error with rule "input", naming `field` when given and saying `says`.
void expect_refused(const Outcome& o, const std::string& field, const std::string& says) {
  ASSERT_FALSE(o.result.ok());
  EXPECT_EQ(o.result.error().rule, "input");
  if (!field.empty()) {
    EXPECT_EQ(o.result.error().field, field);
  }
  EXPECT_NE(o.result.error().message.find(says), std::string::npos) << o.result.error().message;
  EXPECT_LT(o.peak, kAllocationBound) << o.result.error().message;
}

TEST(HardeningRequest, TheValidRequestParses) {
  auto o = parse_measured(valid_k2_request());
  ASSERT_TRUE(o.result.ok()) << o.result.error().message;
  EXPECT_TRUE(validate_transfer(*o.result).ok());
  EXPECT_GT(o.peak, 1000u);  // the meter sees the parser's allocations
  EXPECT_LT(o.peak, kMiB);
}

TEST(HardeningRequest, DeeplyNestedJsonIsRefused) {
  const size_t depth = 400000;  // 800 KB of brackets, under the size limit
  expect_refused(parse_measured(std::string(depth, '[') + std::string(depth, ']')), "",
                 "must be a JSON object");
  std::string objects;
  for (size_t i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100000, '}');
  auto o = parse_measured(objects);
  expect_refused(o, "sender_id", "missing field sender_id");
  // Nested where a number belongs, and unterminated nesting.
  expect_refused(parse_measured(with_field(valid_k2_request(), "sender_id",
                                           std::string(depth, '[') + std::string(depth, ']'))),
                 "sender_id", "must be a decimal string, not a JSON array");
  expect_refused(parse_measured(std::string(depth, '[')), "", "not valid JSON");
}

TEST(HardeningRequest, HugeJsonIsRefusedBeforeParsing) {
  std::string huge = valid_k2_request();
  huge.insert(huge.size() - 2, ",\"padding\":\"" + std::string(2 * kMiB, 'x') + "\"");
  auto o = parse_measured(huge);
  expect_refused(o, "", "larger than 1048576 bytes");
  EXPECT_LT(o.peak, 64 * 1024u);  // refused on its length: nothing parsed
  // Just under the limit, the parser runs and the extra member is ignored.
  std::string big = valid_k2_request();
  big.insert(big.size() - 2, ",\"padding\":\"" + std::string(kMiB - 4096, 'x') + "\"");
  auto ok = parse_measured(big);
  ASSERT_TRUE(ok.result.ok()) << ok.result.error().message;
  EXPECT_LT(ok.peak, 8 * kMiB);
}

// The DvP requests (join-split, ownership) have their own reader with the same limit.
TEST(HardeningRequest, HugeDvpRequestsAreRefusedBeforeParsing) {
  auto padded = [](const std::string& file, size_t bytes) {
    std::string text = test::read_vector(file);
    const size_t brace = text.rfind('}');
    text.insert(brace, ",\"padding\":\"" + std::string(bytes, 'x') + "\"");
    return text;
  };
  for (size_t bytes : {kMiB - 8192, 2 * kMiB}) {
    const bool refused = bytes > kMiB;
    auto js = parse_joinsplit_request(padded("joinsplit-enygma.json", bytes), NoteFormat::kErc20);
    auto own = parse_ownership_request(padded("ownership-721.json", bytes));
    ASSERT_EQ(js.ok(), !refused) << (js.ok() ? "" : js.error().message);
    ASSERT_EQ(own.ok(), !refused) << (own.ok() ? "" : own.error().message);
    if (refused) {
      for (const Error& e : {js.error(), own.error()}) {
        EXPECT_EQ(e.message, "request is larger than 1048576 bytes");
        EXPECT_EQ(e.rule, "input");
      }
    }
  }
}

TEST(HardeningRequest, NumbersWithThousandsOfDigitsAreRefused) {
  const std::string request = valid_k2_request();
  for (size_t digits : {78u, 1000u, 100000u}) {
    const std::string big(digits, '9');
    expect_refused(parse_measured(with_field(request, "sender_id", "\"" + big + "\"")), "sender_id",
                   "is not a canonical field element");
    // As a JSON number rather than a string.
    auto o = parse_measured(with_field(request, "block_number", big));
    ASSERT_FALSE(o.result.ok());
    EXPECT_EQ(o.result.error().rule, "input");
    EXPECT_LT(o.peak, kAllocationBound);
  }
  // p itself (the BN254 scalar field modulus) is one too many.
  expect_refused(
      parse_measured(with_field(
          request, "secret_key",
          "\"21888242871839275222246405745257275088548364400416034343698204186575808495617\"")),
      "secret_key", "is not a canonical field element");
  // Signs, exponents, hex, spaces and an empty string are not decimal strings of the format.
  for (const char* bad :
       {"\"-1\"", "\"+1\"", "\"1e3\"", "\"0x10\"", "\" 1\"", "\"\"", "1", "1.5", "true", "null"}) {
    auto o = parse_measured(with_field(request, "nullifier", bad));
    ASSERT_FALSE(o.result.ok()) << bad;
    EXPECT_EQ(o.result.error().field, "nullifier") << bad;
  }
}

TEST(HardeningRequest, ArraysOfHundredsOfThousandsOfElementsAreRefusedByLength) {
  const std::string request = valid_k2_request();
  // 500 000 entries fit in 1 MiB as "0,"; the length is checked before any entry is converted.
  std::string many = "[";
  for (size_t i = 0; i < 500000; ++i) many += i ? ",0" : "0";
  many += "]";
  auto o = parse_measured(with_field(request, "public_keys", many));
  expect_refused(o, "public_keys", "has 500000 entries, expected 2");
  // Arrays of empty arrays or objects are the densest DOM per byte.
  std::string nested = "[";
  for (size_t i = 0; i < 300000; ++i) nested += i ? ",[]" : "[]";
  nested += "]";
  expect_refused(parse_measured(with_field(request, "tx_commits", nested)), "tx_commits",
                 "has 300000 entries, expected 2");
  // Over the limit: refused on its size alone.
  std::string too_many = "[";
  for (size_t i = 0; i < 1000000; ++i) too_many += i ? ",\"0\"" : "\"0\"";
  too_many += "]";
  expect_refused(parse_measured(with_field(request, "tx_values", too_many)), "",
                 "larger than 1048576 bytes");
}

TEST(HardeningRequest, AbsurdKIsRefusedBeforeParsing) {
  const std::string request = valid_k2_request();
  for (unsigned k : {0u, 1u, 17u, 1000u, 4294967295u}) {
    auto o = parse_measured(request, k);
    expect_refused(o, "k", "is not a supported anonymity-set size (2..16)");
    EXPECT_LT(o.peak, 4096u);
  }
  // A request value built with an absurd k (not through the parser) is refused by the
  // validator's shape check, not indexed out of bounds.
  TransferRequest req;
  req.k = 4294967295u;
  auto v = validate_transfer(req);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().field, "k");
  EXPECT_EQ(validate_transfer_all(req).size(), 1u);
  req.k = 3;  // plausible k, arrays of the wrong length
  v = validate_transfer(req);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().rule, "input");
}

TEST(HardeningRequest, MalformedTextIsRefused) {
  const std::string request = valid_k2_request();
  for (const std::string& bad :
       {std::string(), std::string("\0", 1), std::string("{"), std::string("{\"sender_id\":\"1\""),
        request.substr(0, request.size() / 2), std::string("\xff\xfe{}"),
        std::string("{\"sender_id\":\"\xc3\x28\"}"), request + "garbage",
        std::string("[") + request + "]", std::string("null"), std::string("\"text\"")}) {
    auto o = parse_measured(bad);
    ASSERT_FALSE(o.result.ok()) << bad.substr(0, 40);
    EXPECT_EQ(o.result.error().rule, "input");
    EXPECT_FALSE(o.result.error().message.empty());
  }
  // A repeated member: refused naming it (JSON readers differ on which value counts), cheaply.
  auto dup = parse_measured("{\"sender_id\":\"1\"," + request.substr(request.find('{') + 1));
  ASSERT_FALSE(dup.result.ok());
  EXPECT_EQ(dup.result.error().rule, "input");
  EXPECT_EQ(dup.result.error().field, "sender_id");
  EXPECT_NE(dup.result.error().message.find("is given twice"), std::string::npos)
      << dup.result.error().message;
  EXPECT_LT(dup.peak, kMiB);
}

}  // namespace
}  // namespace enygma
