// std::vector whose memory is wiped (sodium_memzero) whenever it is released, including on
// reallocation: for witnesses, toxic waste and other secrets.
#pragma once

#include <sodium.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace enygma {

template <class T>
struct WipingAllocator {
  using value_type = T;
  WipingAllocator() = default;
  template <class U>
  WipingAllocator(const WipingAllocator<U>&) {}
  T* allocate(size_t n) { return std::allocator<T>{}.allocate(n); }
  void deallocate(T* p, size_t n) {
    sodium_memzero(p, n * sizeof(T));
    std::allocator<T>{}.deallocate(p, n);
  }
  template <class U>
  bool operator==(const WipingAllocator<U>&) const {
    return true;
  }
};

template <class T>
using SecureVector = std::vector<T, WipingAllocator<T>>;

// A string whose heap buffer is wiped when released (growth included): text that may hold a
// request's secrets. A text short enough to be kept inside the object (15 characters with
// libstdc++) has no heap buffer, and is wiped by no one: for whole texts (a request's JSON).
using SecureString = std::basic_string<char, std::char_traits<char>, WipingAllocator<char>>;

// Wipe and free a string's buffer now.
inline void release(SecureString& s) {
  SecureString().swap(s);
}

// Wipe and free a vector's memory now (clear() alone keeps the buffer).
template <class T>
void release(SecureVector<T>& v) {
  SecureVector<T>().swap(v);
}

}  // namespace enygma
