# The build's version stamps: a version is the first 16 hex digits of a SHA-256 over the
# SHA-256s of the files it names, so that a new build of any of them gives another version, and
# a URL that carries it (`?v=<version>`) names one build's files: `enygma serve` answers such
# URLs as immutable (docs/browser.md, "Versioned files").
#
#   cmake -DTEMPLATE=<in> -DOUT=<out> -DFILES=<a;b;...> -P stamp_versions.cmake
#     The package's index.mjs: TEMPLATE's line "const PACKAGE_VERSION = '';" set to the version
#     of FILES (the worker, the ABI calls, the modules: everything index.mjs has the browser
#     load; it asks for them with that version).
#   cmake -DTEMPLATE=<in> -DOUT=<out> -DREFS=<ref=file;...> -P stamp_versions.cmake
#     The demo page: each quoted reference "ref" (or 'ref') in TEMPLATE becomes "ref?v=<the
#     version of file>" (index.html's stylesheet, script and the package; demo.js's import of
#     the package). Every ref must occur.
function(version_of out)
  set(digests "")
  foreach(f ${ARGN})
    if(NOT EXISTS "${f}")
      message(FATAL_ERROR "stamp_versions.cmake: ${f} is missing")
    endif()
    file(SHA256 "${f}" d)
    string(APPEND digests "${d}\n")
  endforeach()
  string(SHA256 all "${digests}")
  string(SUBSTRING "${all}" 0 16 version)
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

file(READ "${TEMPLATE}" text)
if(DEFINED FILES)
  version_of(version ${FILES})
  set(marker "const PACKAGE_VERSION = '';")
  string(FIND "${text}" "${marker}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "stamp_versions.cmake: ${TEMPLATE} has no line \"${marker}\"")
  endif()
  string(REPLACE "${marker}" "const PACKAGE_VERSION = '${version}';" text "${text}")
elseif(DEFINED REFS)
  foreach(pair ${REFS})
    string(FIND "${pair}" "=" eq)
    string(SUBSTRING "${pair}" 0 ${eq} ref)
    math(EXPR rest "${eq} + 1")
    string(SUBSTRING "${pair}" ${rest} -1 file)
    version_of(version "${file}")
    set(found FALSE)
    foreach(q "\"" "'")
      string(FIND "${text}" "${q}${ref}${q}" at)
      if(NOT at EQUAL -1)
        set(found TRUE)
        string(REPLACE "${q}${ref}${q}" "${q}${ref}?v=${version}${q}" text "${text}")
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR "stamp_versions.cmake: ${TEMPLATE} has no quoted reference ${ref}")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "stamp_versions.cmake: give FILES or REFS")
endif()
file(WRITE "${OUT}.tmp" "${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
