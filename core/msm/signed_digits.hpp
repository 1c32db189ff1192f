// Signed-digit windows for Pippenger: a scalar s < 2^bits is written as
// s = sum_w d_w 2^(offset_w) with |d_w| <= 2^(width_w - 1), so a window needs 2^(width_w - 1)
// buckets (bucket |d| - 1, the sign applied to the point) instead of 2^width_w - 1.
//
// The bits are spread evenly over the windows (widths c and c - 1) rather than leaving a short
// top window: a top window with few distinct digits would send most of its points to a handful
// of buckets, which serialises batch-affine accumulation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/field/u256.hpp"

namespace enygma::msm_detail {

struct WindowLayout {
  std::vector<uint8_t> width;    // bits per window, low window first
  std::vector<uint16_t> offset;  // position of the window's lowest bit
  unsigned max_width = 0;

  unsigned count() const { return unsigned(width.size()); }
};

// Windows of at most c bits (1 <= c <= 16) for scalars below 2^bits. They cover bits + 1 bits
// (room for the last carry), or bits + 2 when c = 16 so that the top digit stays below 2^15
// and every digit fits an int16.
inline WindowLayout signed_windows(unsigned bits, unsigned c) {
  c = std::clamp(c, 1u, 16u);  // the digits are int16_t
  const unsigned total = bits + (c == 16 ? 2 : 1);
  const unsigned count = (total + c - 1) / c;
  const unsigned base = total / count, wide = total % count;  // the top `wide` get base + 1
  WindowLayout layout;
  unsigned pos = 0;
  for (unsigned w = 0; w < count; ++w) {
    const unsigned width = base + (w >= count - wide ? 1 : 0);
    layout.width.push_back(uint8_t(width));
    layout.offset.push_back(uint16_t(pos));
    pos += width;
    if (width > layout.max_width) layout.max_width = width;
  }
  return layout;
}

// Digits of s < 2^bits for layout = signed_windows(bits, c). Every digit but the top one lies
// in [-2^(width-1), 2^(width-1) - 1]; the top one in [0, 2^(width-1)].
inline void signed_digits(const U256& s, const WindowLayout& layout, int16_t* out) {
  const unsigned count = layout.count();
  uint32_t carry = 0;
  for (unsigned w = 0; w < count; ++w) {
    const unsigned width = layout.width[w];
    const uint32_t v = s.bits(layout.offset[w], width) + carry;
    if (v >= (uint32_t(1) << (width - 1)) && w + 1 < count) {
      out[w] = int16_t(int32_t(v) - (int32_t(1) << width));
      carry = 1;
    } else {
      out[w] = int16_t(v);
      carry = 0;
    }
  }
}

// The same digits with the windows' positions precomputed and no branch on the scalar's bits
// (the carry is the digit's top bit): the MSM's digit pass, where signed_digits' data-dependent
// branches mispredicted about half the time. negate: the digits of -s (the GLV halves' signs).
class DigitPlan {
 public:
  explicit DigitPlan(const WindowLayout& layout) {
    for (unsigned w = 0; w < layout.count(); ++w) {
      windows_.push_back(
          {uint8_t(layout.offset[w] / 64), uint8_t(layout.offset[w] % 64), layout.width[w]});
    }
  }
  unsigned count() const { return unsigned(windows_.size()); }

  void digits(const U256& s, int16_t* out, bool negate = false) const {
    const uint64_t words[5] = {s.w[0], s.w[1], s.w[2], s.w[3], 0};
    const int32_t sign = negate ? -1 : 1;
    const size_t count = windows_.size();
    uint32_t carry = 0;
    for (size_t w = 0; w < count; ++w) {
      const Window& win = windows_[w];
      // bits [offset, offset + width): the next word's bits shifted in (by 64 - shift, in two
      // steps so that shift = 0 shifts by 64 safely).
      const uint64_t x =
          (words[win.word] >> win.shift) | ((words[win.word + 1] << 1) << (63 - win.shift));
      const uint32_t v = uint32_t(x & ((uint64_t(1) << win.width) - 1)) + carry;
      const uint32_t c = w + 1 < count ? uint32_t(v >= (uint32_t(1) << (win.width - 1))) : 0u;
      out[w] = int16_t(sign * (int32_t(v) - int32_t(c << win.width)));
      carry = c;
    }
  }

 private:
  struct Window {
    uint8_t word, shift, width;
  };
  std::vector<Window> windows_;
};

}  // namespace enygma::msm_detail
