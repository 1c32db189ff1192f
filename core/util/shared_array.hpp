// An immutable contiguous array: its own elements (a std::vector given to it), or elements that
// live in a buffer kept alive by a shared owner (a raw key file's bytes, read in place by
// core/groth16/key_format.cpp instead of copied into a second, freshly allocated ~10 MB). Copies
// share the elements; a writer builds a std::vector and assigns it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace enygma {

template <class T>
class SharedArray {
 public:
  SharedArray() = default;
  // Takes the vector's elements (implicit: a key's arrays are assigned built vectors).
  SharedArray(std::vector<T> v) {  // NOLINT(google-explicit-constructor)
    auto owned = std::make_shared<const std::vector<T>>(std::move(v));
    data_ = owned->data();
    size_ = owned->size();
    owner_ = std::move(owned);
    owns_vector_ = true;
  }
  // n elements at `data`, alive as long as `owner` is; copied instead when `data` is not aligned
  // for T.
  SharedArray(std::shared_ptr<const void> owner, const T* data, size_t n) {
    if (n == 0) return;
    if (reinterpret_cast<uintptr_t>(data) % alignof(T) != 0) {
      *this = copy_of(data, n);
      return;
    }
    owner_ = std::move(owner);
    data_ = data;
    size_ = n;
  }
  // The n elements stored in `bytes` (n * sizeof(T) of them, little-endian as in memory): in
  // place when `owner` keeps them alive (and they are aligned), otherwise copied.
  static SharedArray of_bytes(const uint8_t* bytes, size_t n, std::shared_ptr<const void> owner) {
    const T* data = reinterpret_cast<const T*>(bytes);
    return owner ? SharedArray(std::move(owner), data, n) : copy_of(data, n);
  }

  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& back() const { return data_[size_ - 1]; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }
  // A changed copy: f(std::vector<T>&) edits the elements' copy, which this array then holds
  // (other copies of the array keep the elements they had).
  template <class F>
  void edit(F&& f) {
    std::vector<T> v = to_vector();
    f(v);
    *this = SharedArray(std::move(v));
  }
  // Whether the elements live in another object's buffer (a key file's), not in their own.
  bool borrowed() const { return owner_ && !owns_vector_; }

  bool operator==(const SharedArray& o) const {
    return std::equal(begin(), end(), o.begin(), o.end());
  }

 private:
  // Byte-wise (data need not be aligned for T).
  static SharedArray copy_of(const T* data, size_t n) {
    std::vector<T> copy(n);
    if (n > 0) std::memcpy(copy.data(), data, n * sizeof(T));
    return SharedArray(std::move(copy));
  }

  std::shared_ptr<const void> owner_;
  const T* data_ = nullptr;
  size_t size_ = 0;
  bool owns_vector_ = false;
};

}  // namespace enygma
