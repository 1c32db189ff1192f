# Third-party libraries, all from Debian packages (or, for WebAssembly, built from Debian's
# source package into the build tree by scripts/build-wasm-deps.sh).
#
# Targets defined here: enygma::sodium, enygma::json, and (tests) GTest, (bench) benchmark.

if(NOT ENYGMA_WASM)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
  add_library(enygma_sodium INTERFACE)
  target_link_libraries(enygma_sodium INTERFACE PkgConfig::SODIUM)
  find_package(nlohmann_json 3.10 REQUIRED)
  add_library(enygma_json INTERFACE)
  target_link_libraries(enygma_json INTERFACE nlohmann_json::nlohmann_json)
else()
  set(ENYGMA_WASM_DEPS "${CMAKE_BINARY_DIR}/wasm-deps" CACHE PATH "libsodium built for wasm32")
  if(NOT EXISTS "${ENYGMA_WASM_DEPS}/lib/libsodium.a")
    message(FATAL_ERROR "libsodium for WebAssembly not found in ${ENYGMA_WASM_DEPS}; "
                        "run scripts/build-wasm-deps.sh ${ENYGMA_WASM_DEPS} first (make does)")
  endif()
  add_library(enygma_sodium STATIC IMPORTED GLOBAL)
  # libsodium's randombytes calls Module.getRandomValue, which it defines on the main thread
  # only: the --pre-js defines it on every thread. Every program linking libsodium gets it.
  set(_sodium_pre_js "${PROJECT_SOURCE_DIR}/wasm/sodium_random_pre.js")
  set_target_properties(enygma_sodium PROPERTIES
    IMPORTED_LOCATION "${ENYGMA_WASM_DEPS}/lib/libsodium.a"
    INTERFACE_INCLUDE_DIRECTORIES "${ENYGMA_WASM_DEPS}/include"
    INTERFACE_LINK_OPTIONS "SHELL:--pre-js \"${_sodium_pre_js}\""
    INTERFACE_LINK_DEPENDS "${_sodium_pre_js}")
  # nlohmann/json is header-only: expose only its folder, not all of /usr/include.
  set(_json_inc "${CMAKE_BINARY_DIR}/json-include")
  file(MAKE_DIRECTORY "${_json_inc}")
  if(NOT EXISTS "${_json_inc}/nlohmann")
    file(CREATE_LINK /usr/include/nlohmann "${_json_inc}/nlohmann" SYMBOLIC)
  endif()
  add_library(enygma_json INTERFACE)
  target_include_directories(enygma_json SYSTEM INTERFACE "${_json_inc}")
endif()
