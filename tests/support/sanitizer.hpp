// ENYGMA_UNDER_SANITIZER: 1 when this file is compiled with AddressSanitizer or ThreadSanitizer
// (g++ says so with __SANITIZE_*__, clang 14 only through __has_feature), for tests whose
// measure (resident memory, allocation sizes) the sanitizers' shadow memory distorts.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ENYGMA_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ENYGMA_UNDER_SANITIZER 1
#endif
#endif
#ifndef ENYGMA_UNDER_SANITIZER
#define ENYGMA_UNDER_SANITIZER 0
#endif
