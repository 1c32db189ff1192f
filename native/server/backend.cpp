#include "native/server/backend.hpp"

#include <sodium.h>

namespace enygma::server {

std::string blake2b_hex(const uint8_t* data, size_t size) {
  unsigned char digest[32];
  crypto_generichash(digest, sizeof digest, data, size, nullptr, 0);
  static const char kHex[] = "0123456789abcdef";
  std::string hex(64, '0');
  for (size_t i = 0; i < 32; ++i) {
    hex[2 * i] = kHex[digest[i] >> 4];
    hex[2 * i + 1] = kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace enygma::server
