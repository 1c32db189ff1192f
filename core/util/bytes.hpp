// Little-endian byte writing and bounds-checked reading for the project's binary formats.
// A reader never reads past its end: every read reports failure instead.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace enygma {

class ByteWriter {
 public:
  void u32(uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = uint8_t(v >> (8 * i));
    bytes(b, 4);
  }
  void u64(uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
    bytes(b, 8);
  }
  void bytes(const void* p, size_t n) {
    // resize + memcpy rather than insert, and no push_back anywhere: g++ 12 at -O3 reports
    // false -Wstringop-overflow / -Warray-bounds for a vector's growth after a few push_backs.
    if (n == 0) return;
    const size_t old = buf_.size();
    buf_.resize(old + n);
    memcpy(buf_.data() + old, p, n);
  }
  void bytes(std::span<const uint8_t> s) { bytes(s.data(), s.size()); }
  // Fixed-size, zero-padded text field.
  void text(const std::string& s, size_t width) {
    for (size_t i = 0; i < width; ++i) buf_.push_back(i < s.size() ? uint8_t(s[i]) : 0);
  }
  size_t size() const { return buf_.size(); }
  std::vector<uint8_t>& data() { return buf_; }
  std::vector<uint8_t> take() { return std::move(buf_); }

 private:
  std::vector<uint8_t> buf_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> data) : data_(data) {}
  bool u32(uint32_t& v) {
    if (remaining() < 4) return fail();
    v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(data_[pos_ + i]) << (8 * i);
    pos_ += 4;
    return true;
  }
  bool u64(uint64_t& v) {
    if (remaining() < 8) return fail();
    v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(data_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return true;
  }
  bool bytes(void* out, size_t n) {
    if (remaining() < n) return fail();
    memcpy(out, data_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  // A view of the next n bytes (no copy).
  bool view(std::span<const uint8_t>& out, size_t n) {
    if (remaining() < n) return fail();
    out = data_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  bool text(std::string& s, size_t width) {
    if (remaining() < width) return fail();
    s.assign(reinterpret_cast<const char*>(data_.data() + pos_), width);
    s.resize(strnlen(s.c_str(), width));
    pos_ += width;
    return true;
  }
  size_t remaining() const { return data_.size() - pos_; }
  size_t position() const { return pos_; }
  bool failed() const { return failed_; }

 private:
  bool fail() {
    failed_ = true;
    return false;
  }
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace enygma
