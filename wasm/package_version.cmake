# cmake -DTEMPLATE=<wasm/enygma.js> -DOUT=<index.mjs> -DFILES=<a;b;...> -P package_version.cmake
#
# Writes the package's index.mjs: wasm/enygma.js with its PACKAGE_VERSION line set to the first
# 16 hex digits of a SHA-256 over the SHA-256s of FILES (the worker, the ABI calls and the
# modules: everything index.mjs has the browser load). index.mjs asks for those files with
# `?v=<version>`, which `enygma serve` answers as immutable; a new build of any of them gives
# another version, hence other URLs.
set(digests "")
foreach(f ${FILES})
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "package_version.cmake: ${f} is missing")
  endif()
  file(SHA256 "${f}" d)
  string(APPEND digests "${d}\n")
endforeach()
string(SHA256 all "${digests}")
string(SUBSTRING "${all}" 0 16 version)
file(READ "${TEMPLATE}" text)
set(marker "const PACKAGE_VERSION = '';")
string(FIND "${text}" "${marker}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "package_version.cmake: ${TEMPLATE} has no line \"${marker}\"")
endif()
string(REPLACE "${marker}" "const PACKAGE_VERSION = '${version}';" text "${text}")
file(WRITE "${OUT}.tmp" "${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
