// The libraries that tests preload into the enygma program (LD_PRELOAD): their paths where the
// build makes them (native builds without sanitizers, whose runtime replaces malloc and must be
// the first library), else "" (those tests skip).
#pragma once

namespace enygma::test {

#if defined(ENYGMA_FREED_SCAN_LIBRARY) && defined(ENYGMA_FAIL_IO_LIBRARY)
// tests/support/freed_scan_preload.c (secrets_freed_test)
inline constexpr const char* kFreedScanLibrary = ENYGMA_FREED_SCAN_LIBRARY;
// tests/support/fail_io_preload.c (io_failure_test)
inline constexpr const char* kFailIoLibrary = ENYGMA_FAIL_IO_LIBRARY;
#else
inline constexpr const char* kFreedScanLibrary = "";
inline constexpr const char* kFailIoLibrary = "";
#endif

}  // namespace enygma::test
