// One T per key for the life of the process, made from the key on first use (thread-safe): the
// per-size caches of domains (core/poly), so that tables are computed once, not per proof.
#pragma once

#include <map>
#include <memory>
#include <mutex>

namespace enygma {

template <class T, class Key>
const T& shared_instance(const Key& key) {
  static std::mutex mu;
  static std::map<Key, std::unique_ptr<const T>> instances;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = instances[key];
  if (!slot) slot = std::make_unique<const T>(key);
  return *slot;
}

}  // namespace enygma
