# cmake -DSCRIPT=<wasm/stamp_versions.cmake> -DWORK=<scratch folder> -P stamp_versions_test.cmake
#
# wasm/stamp_versions.cmake on files of its own. FILES: the version is 16 hex digits, the same
# for the same files, another when any file changes; the rest of the template is kept; a
# missing file or a template without the marker line fails. REFS: each quoted reference gets
# its file's version (double or single quotes, every occurrence), nothing else changes; a
# reference that does not occur fails.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/template.js" "// head\nconst PACKAGE_VERSION = '';\nexport const X = 1;\n")
file(WRITE "${WORK}/a.js" "a")
file(WRITE "${WORK}/b.wasm" "b")

# mode: FILES or REFS; value: its list (one argument: the list stays whole).
function(stamp out template mode value)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DTEMPLATE=${template}" "-D${mode}=${value}"
                          "-DOUT=${WORK}/out" -P "${SCRIPT}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    set(${out} "failed" PARENT_SCOPE)
    return()
  endif()
  file(READ "${WORK}/out" text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(package_version out)
  stamp(text "${WORK}/template.js" FILES "${WORK}/a.js;${WORK}/b.wasm")
  if(text STREQUAL "failed")
    set(${out} "failed" PARENT_SCOPE)
    return()
  endif()
  if(NOT text MATCHES "^// head\nconst PACKAGE_VERSION = '([0-9a-f]+)';\nexport const X = 1;\n$")
    message(FATAL_ERROR "stamp_versions_test: unexpected index.mjs:\n${text}")
  endif()
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

package_version(v1)
string(LENGTH "${v1}" n)
if(NOT n EQUAL 16)
  message(FATAL_ERROR "stamp_versions_test: version '${v1}' is not 16 hex digits")
endif()
package_version(v2)
if(NOT v2 STREQUAL v1)
  message(FATAL_ERROR "stamp_versions_test: the same files gave ${v1}, then ${v2}")
endif()
file(WRITE "${WORK}/b.wasm" "b2")
package_version(v3)
if(v3 STREQUAL v1 OR v3 STREQUAL "failed")
  message(FATAL_ERROR "stamp_versions_test: a changed file kept the version (${v1} -> ${v3})")
endif()
file(REMOVE "${WORK}/a.js")
package_version(v4)
if(NOT v4 STREQUAL "failed")
  message(FATAL_ERROR "stamp_versions_test: a missing file did not fail (${v4})")
endif()
file(WRITE "${WORK}/a.js" "a")
file(WRITE "${WORK}/template.js" "const VERSION = '';\n")
package_version(v5)
if(NOT v5 STREQUAL "failed")
  message(FATAL_ERROR "stamp_versions_test: a template without the marker did not fail (${v5})")
endif()

# REFS: the version of a.js alone, as FILES would give it.
file(WRITE "${WORK}/template.js" "const PACKAGE_VERSION = '';\n")
stamp(one "${WORK}/template.js" FILES "${WORK}/a.js")
string(REGEX REPLACE "^.*'([0-9a-f]+)'.*$" "\\1" va "${one}")
stamp(two "${WORK}/template.js" FILES "${WORK}/b.wasm")
string(REGEX REPLACE "^.*'([0-9a-f]+)'.*$" "\\1" vb "${two}")
file(WRITE "${WORK}/page.html"
     "<link href=\"a.js\"><script src='sub/b.wasm'></script> a.js \"a.js\" \"a.jsx\"\n")
stamp(page "${WORK}/page.html" REFS "a.js=${WORK}/a.js;sub/b.wasm=${WORK}/b.wasm")
set(want "<link href=\"a.js?v=${va}\"><script src='sub/b.wasm?v=${vb}'></script> a.js \"a.js?v=${va}\" \"a.jsx\"\n")
if(NOT page STREQUAL want)
  message(FATAL_ERROR "stamp_versions_test: REFS gave\n${page}\ninstead of\n${want}")
endif()
stamp(missing "${WORK}/page.html" REFS "c.js=${WORK}/a.js")
if(NOT missing STREQUAL "failed")
  message(FATAL_ERROR "stamp_versions_test: a reference that does not occur did not fail")
endif()
message(STATUS "stamp_versions_test: ${v1} -> ${v3}; refs ${va}, ${vb}; refusals as expected")
