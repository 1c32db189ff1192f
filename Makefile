# enygma-prover: the entry points. On a fresh Debian 12 machine, as root:
#   make run    set everything up, build, make development keys, serve on 127.0.0.1:3003
#   make test   set everything up, build both targets, run every test
# Other targets: build, bench, clean, distclean (see `make help`).
#
# Every target first makes sure scripts/setup-deps.sh has run (installs only what is missing) since
# it, package.json or package-lock.json last changed (a stamp in .cache/; `make setup` runs it
# again regardless). The script itself is also fast when nothing is missing (well under a
# second when nothing is). CMake configures each build folder once; later runs only rebuild
# what changed (CMake re-runs itself when a CMakeLists.txt or a globbed folder changes).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:
# One recipe at a time, also under `make -jN` (and in the sub-makes, which read this file): the
# builds inside use every core themselves, and two steps must not build one folder at once.
.NOTPARALLEL:
MAKEFLAGS += --no-print-directory

JOBS ?= $(shell nproc)
# Build folders: native release (the CLI and server), WebAssembly, native under sanitizers.
BUILD ?= build
BUILD_WASM ?= build-wasm
BUILD_ASAN ?= build-sanitize
BUILD_TSAN ?= build-tsan
BUILD_FUZZ ?= build-fuzz
# Seconds of fuzzing per target, once it has run its seeds: `make fuzz` (60 s each by default);
# `make test` runs each for FUZZ_CI_SECONDS so that the harnesses stay buildable and runnable.
FUZZ_SECONDS ?= 60
FUZZ_CI_SECONDS ?= 3
# libsodium and Google Benchmark built for WebAssembly (scripts/build-wasm-deps.sh), kept
# outside the build folders so that `make clean` keeps them.
WASM_DEPS ?= .cache/wasm-deps
# Development keys and the server address of `make run` (`make run PORT=8080`; not taken from
# the environment, where HOST or PORT often mean something else).
DEV_KEYS ?= keys/dev
HOST := 127.0.0.1
PORT := 3003
# Compiler warnings are errors in every configuration built here (WERROR=OFF to look past one).
WERROR ?= ON
# Extra arguments for the benchmark programs, e.g. BENCH_ARGS=--benchmark_filter=fp_mul
BENCH_ARGS ?=

# When set (.ci/run sets it), each build and test step appends "step: seconds" to this file.
ENYGMA_TIMES ?=
# Tests of tools that setup installs (clang-format, haproxy, the npm packages) fail instead of
# skipping when the tool is missing.
export ENYGMA_TESTS_REQUIRE_TOOLS ?= 1

CMAKE_GENERATOR_FLAGS := -G Ninja
# Node 20 runs Emscripten 3.1.6 output only with fetch() hidden (see toolchains/emscripten.cmake)
NODE := node --no-experimental-fetch
ENYGMA := $(BUILD)/bin/enygma

# $(call timed,NAME,COMMAND): runs COMMAND and records how long it took.
timed = t0=$$(date +%s); $(2); t=$$(( $$(date +%s) - t0 )); \
        if [ -n "$(ENYGMA_TIMES)" ]; then echo "$(1): $$t s" >>"$(ENYGMA_TIMES)"; fi

.PHONY: help setup build build-native build-native-run build-native-test build-wasm build-wasm-page build-wasm-run \
        wasm-deps wasm-bench-deps test \
        test-native test-wasm \
        test-sanitize test-tsan test-fuzz-short fuzz test-e2e test-soundness-full \
        check-wasm-sodium run keys \
        bench bench-native \
        bench-wasm clean distclean

help:
	@echo "make run            set up, build, make dev keys, serve on $(HOST):$(PORT)"
	@echo "make test           set up, build both targets, run every test"
	@echo "make build          native release ($(BUILD)/bin/enygma) and WebAssembly ($(BUILD_WASM)/)"
	@echo "make test-native | test-wasm | test-sanitize | test-fuzz-short | test-e2e   one group"
	@echo "make test-tsan      thread pool, MSM, NTT, prover, keys and server under ThreadSanitizer"
	@echo "make test-soundness-full   the exhaustive soundness sweeps at every k (ENYGMA_SWEEP=full)"
	@echo "make check-wasm-sodium     the WebAssembly libsodium build against libsodium's autotools"
	@echo "make fuzz           every libFuzzer target for FUZZ_SECONDS (default 60) each"
	@echo "make bench          native benchmarks, then WebAssembly ones under Node (BENCH_ARGS=...)"
	@echo "make clean          remove the build folders (distclean: also caches, node_modules)"

# ---- setup ----------------------------------------------------------------------------------
SETUP_STAMP := .cache/setup-deps.stamp
$(SETUP_STAMP): scripts/setup-deps.sh package.json package-lock.json
	@scripts/setup-deps.sh
	@mkdir -p $(@D) && touch $@

setup:
	@scripts/setup-deps.sh
	@mkdir -p $(dir $(SETUP_STAMP)) && touch $(SETUP_STAMP)

# ---- native release build -------------------------------------------------------------------
# Configured once. A changed toolchain file needs a fresh cache (its *_INIT flags are read only
# by the first configure), hence the rm.
$(BUILD)/CMakeCache.txt: toolchains/native-release.cmake | $(SETUP_STAMP)
	@rm -rf $(BUILD)/CMakeCache.txt $(BUILD)/CMakeFiles
	cmake -S . -B $(BUILD) $(CMAKE_GENERATOR_FLAGS) \
	  -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/toolchains/native-release.cmake -DCMAKE_BUILD_TYPE=Release \
	  -DENYGMA_WERROR=$(WERROR)

# What `make run` needs of the native build: the program alone (no tests, no benchmarks).
build-native-run: $(SETUP_STAMP) $(BUILD)/CMakeCache.txt
	@$(call timed,build-native,cmake --build $(BUILD) -j $(JOBS) --target enygma)

# Everything: the programs, tools, tests and the Google Benchmark programs.
build-native: $(SETUP_STAMP) $(BUILD)/CMakeCache.txt
	@$(call timed,build-native,cmake --build $(BUILD) -j $(JOBS) --target all benchmarks)

# What the tests need: all but the benchmark programs (bench/CMakeLists.txt).
build-native-test: $(SETUP_STAMP) $(BUILD)/CMakeCache.txt
	@$(call timed,build-native,cmake --build $(BUILD) -j $(JOBS))

# ---- WebAssembly build ----------------------------------------------------------------------
# The stamps are rebuilt when the script, the toolchain or Emscripten itself changes; the
# script also checks its own stamps, so it is cheap either way. The module, the page and the
# tests need libsodium only (wasm-deps); the benchmark programs need Google Benchmark too
# (wasm-bench-deps: `make build`, `make bench-wasm`).
WASM_DEPS_INPUTS := scripts/build-wasm-deps.sh scripts/wasm-deps/libsodium/CMakeLists.txt \
                    toolchains/emscripten.cmake toolchains/emcc-compile \
                    $(wildcard /usr/share/emscripten/emscripten-version.txt)
$(WASM_DEPS)/.enygma-wasm-libsodium: $(WASM_DEPS_INPUTS) | $(SETUP_STAMP)
	@$(call timed,wasm-deps,scripts/build-wasm-deps.sh $(WASM_DEPS) libsodium)
	@touch $@
$(WASM_DEPS)/.enygma-wasm-benchmark: $(WASM_DEPS_INPUTS) | $(SETUP_STAMP)
	@$(call timed,wasm-bench-deps,scripts/build-wasm-deps.sh $(WASM_DEPS) benchmark)
	@touch $@

wasm-deps: $(SETUP_STAMP) $(WASM_DEPS)/.enygma-wasm-libsodium
wasm-bench-deps: $(SETUP_STAMP) $(WASM_DEPS)/.enygma-wasm-benchmark

$(BUILD_WASM)/CMakeCache.txt: toolchains/emscripten.cmake $(WASM_DEPS)/.enygma-wasm-libsodium | $(SETUP_STAMP)
	@rm -rf $(BUILD_WASM)/CMakeCache.txt $(BUILD_WASM)/CMakeFiles
	cmake -S . -B $(BUILD_WASM) $(CMAKE_GENERATOR_FLAGS) \
	  -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/toolchains/emscripten.cmake -DCMAKE_BUILD_TYPE=Release \
	  -DENYGMA_WASM_DEPS=$(abspath $(WASM_DEPS)) -DENYGMA_WERROR=$(WERROR)

# bench/CMakeLists.txt adds the WebAssembly benchmark programs only where Google Benchmark is
# built: CMake runs again once it is.
$(BUILD_WASM)/.enygma-benchmark-configured: $(WASM_DEPS)/.enygma-wasm-benchmark \
                                            $(BUILD_WASM)/CMakeCache.txt
	@cmake -S . -B $(BUILD_WASM) >/dev/null
	@touch $@

build-wasm: wasm-deps wasm-bench-deps $(BUILD_WASM)/CMakeCache.txt \
            $(BUILD_WASM)/.enygma-benchmark-configured
	@$(call timed,build-wasm,cmake --build $(BUILD_WASM) -j $(JOBS) --target all benchmarks)

build: build-native build-wasm

# What the demo needs of the WebAssembly build (the module in its variants, the package, the
# page), and what the tests need besides (the test program, the f64 lane check); not the
# benchmark programs, built by build-wasm and bench-wasm from the same sources that build-native
# compiles.
WASM_PAGE_TARGETS := enygma_module enygma_module_relaxed enygma_module_st enygma_web enygma_package enygma_demo_page
build-wasm-page: wasm-deps $(BUILD_WASM)/CMakeCache.txt
	@$(call timed,build-wasm,cmake --build $(BUILD_WASM) -j $(JOBS) --target $(WASM_PAGE_TARGETS))
build-wasm-run: wasm-deps $(BUILD_WASM)/CMakeCache.txt
	@$(call timed,build-wasm,cmake --build $(BUILD_WASM) -j $(JOBS) \
	  --target $(WASM_PAGE_TARGETS) enygma_tests f64_lanes_check)

# ---- tests ----------------------------------------------------------------------------------
# Order: cheapest signal first. Each group can also be run alone.
# $(call beside_wasm_deps,TARGET): makes TARGET while the WebAssembly dependencies build beside
# it (a background job, which a non-interactive shell starts with SIGINT ignored: `trap - INT`
# gives it back, so that Ctrl-C stops it with the rest); a failed background build is made again
# in the foreground, where its errors show.
beside_wasm_deps = ( trap - INT; exec $(MAKE) wasm-deps >/dev/null 2>&1 ) & deps=$$!; status=0; \
  $(MAKE) $(1) || status=$$?; wait $$deps || $(MAKE) wasm-deps; exit $$status
test: $(SETUP_STAMP)
	@$(call beside_wasm_deps,build-native-test)
	@$(MAKE) build-wasm-run test-native test-wasm test-sanitize test-fuzz-short test-e2e
	@echo "make test: all test groups passed"

# cluster_test mostly waits (health checks, load runs of fixed length: ~2 s of CPU in ~25 s), so
# it runs beside the others instead of taking one of the JOBS slots; its output follows theirs.
test-native: build-native-test
	@$(call timed,test-native,{ ctest --test-dir $(BUILD) --output-on-failure -R '^cluster_test$$' \
	  >$(BUILD)/cluster_test.log 2>&1 & cluster=$$!; status=0; \
	  ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -E '^cluster_test$$' || status=$$?; \
	  wait $$cluster || status=$$?; cat $(BUILD)/cluster_test.log; [ $$status -eq 0 ]; })

# Each WebAssembly test program runs under Node (CMAKE_CROSSCOMPILING_EMULATOR).
test-wasm: build-wasm-run
	@$(call timed,test-wasm,ctest --test-dir $(BUILD_WASM) --output-on-failure -j $(JOBS))

# The unit tests once more, natively under AddressSanitizer + UndefinedBehaviorSanitizer, built
# with clang 14 (-O1: optimized enough for the arithmetic-heavy tests; -gline-tables-only: the
# reports' stacks still name file and line, for less to compile than full debug information;
# clang compiles this faster than g++ and is the second compiler the code must agree with).
# The shells (native/, the load generator) and the test files at -O0, the core at -O1 (see
# native/CMakeLists.txt). The same folder holds the libFuzzer programs (ENYGMA_FUZZ=ON: the
# portable field kernel, see tests/fuzz/CMakeLists.txt), so test-fuzz-short builds only the
# fuzzers' own sources; they run a few seconds each to show that they build and run, with
# coverage instrumentation in their own sources only (in the core it made these unit tests ~30%
# slower; `make fuzz` builds its own folder with it everywhere). cluster_test, the interop tests
# and the checks of the source tree (layers, docs, format: the release build runs them) are not
# built here. server_test's keys for its real proofs are made by the release build's program
# where that build is configured (brought up to date first; ENYGMA_TEST_SETUP_BINARY: the same
# key files, made faster): the set-up under the sanitizers is cli_test's and the set-up tests'.
$(BUILD_ASAN)/CMakeCache.txt: | $(SETUP_STAMP)
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(BUILD_ASAN) $(CMAKE_GENERATOR_FLAGS) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DENYGMA_SANITIZE=address,undefined -DENYGMA_FUZZ=ON -DENYGMA_FUZZ_CORE_COVERAGE=OFF \
	  -DENYGMA_WERROR=$(WERROR) -DENYGMA_BUILD_BENCH=OFF -DENYGMA_BUILD_INTEGRATION_TESTS=OFF \
	  "-DENYGMA_TEST_EXCLUDE=^(.*_soundness|transfer_pinned)_test$$"

test-sanitize: $(SETUP_STAMP) $(BUILD_ASAN)/CMakeCache.txt
	@$(call timed,build-sanitize,cmake --build $(BUILD_ASAN) -j $(JOBS))
	@if [ -f $(BUILD)/build.ninja ]; then cmake --build $(BUILD) -j $(JOBS) --target enygma >/dev/null; fi
	@$(call timed,test-sanitize,ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ENYGMA_TEST_SETUP_BINARY=$$([ -x $(ENYGMA) ] && echo $(abspath $(ENYGMA))) \
	  ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS) -L 'unit|fuzz-regression')

# ThreadSanitizer: the parallel parts (thread pool, MSM, NTT, prover, server). Not part of
# `make test` (a third full build would not fit CI's time budget); run it before a release.
$(BUILD_TSAN)/CMakeCache.txt: | $(SETUP_STAMP)
	cmake -S . -B $(BUILD_TSAN) $(CMAKE_GENERATOR_FLAGS) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
	  -DENYGMA_SANITIZE=thread -DENYGMA_WERROR=$(WERROR) -DENYGMA_BUILD_BENCH=OFF \
	  "-DCMAKE_CXX_FLAGS=-Wno-tsan -Wno-maybe-uninitialized"
# (-Wno-tsan: g++ warns that TSan does not model the atomic_thread_fence inside Boost.Asio;
#  -Wno-maybe-uninitialized: false positives with sanitizers at -O1, as for test-sanitize.)
test-tsan: $(SETUP_STAMP) $(BUILD_TSAN)/CMakeCache.txt
	@$(call timed,build-tsan,cmake --build $(BUILD_TSAN) -j $(JOBS) --target enygma enygma-load enygma_tests)
	@$(call timed,test-tsan,TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  ctest --test-dir $(BUILD_TSAN) --output-on-failure -j $(JOBS) \
	  -R '^(thread_pool|msm|ntt|groth16|hardening_keys|server)_test$$')

# libFuzzer targets (tests/fuzz; clang 14, ASan + UBSan) in $(BUILD_FUZZ): scripts/fuzz.sh
# builds them and prints executions, exec/s, corpus and coverage per target.
fuzz: $(SETUP_STAMP)
	@$(call timed,fuzz,FUZZ_BUILD=$(abspath $(BUILD_FUZZ)) FUZZ_SECONDS=$(FUZZ_SECONDS) \
	  FUZZ_JOBS=$(JOBS) scripts/fuzz.sh)

test-fuzz-short: $(SETUP_STAMP) $(BUILD_ASAN)/CMakeCache.txt
	@$(call timed,fuzz-short,FUZZ_BUILD=$(abspath $(BUILD_ASAN)) FUZZ_SECONDS=$(FUZZ_CI_SECONDS) \
	  FUZZ_JOBS=$(JOBS) FUZZ_PARALLEL=$(JOBS) FUZZ_LEAKS=0 scripts/fuzz.sh)

# Browser tests: Playwright drives Debian's chromium (never `playwright install`) against the
# real server with the WebAssembly demo (e2e/run.sh, e2e/global-setup.ts makes their keys).
test-e2e: build-native-test build-wasm-run
	@$(call timed,test-e2e,ENYGMA_BIN=$(abspath $(ENYGMA)) ENYGMA_WEB=$(abspath $(BUILD_WASM))/web \
	  e2e/run.sh)

# The exhaustive soundness sweeps at every k = 2..16 (every rule broken alone, every witness wire
# changed alone, every circuit family); `make test` runs them at a few sizes only.
test-soundness-full: build-native-test
	@$(call timed,test-soundness-full,ENYGMA_SWEEP=full ctest --test-dir $(BUILD) \
	  --output-on-failure -j $(JOBS) -R '(soundness|circuit|validate|merkle|gadgets)_test$$')

# scripts/build-wasm-deps.sh compiles libsodium with its own CMake list of the files and
# definitions that libsodium's configure selects; this rebuilds it with autotools and compares
# every object (run it when Debian's libsodium or Emscripten changes).
check-wasm-sodium: $(SETUP_STAMP)
	@$(call timed,check-wasm-sodium,scripts/check-wasm-sodium.sh)

# ---- run the server -------------------------------------------------------------------------
# Development keys of every circuit the server serves by default (single-party, from the
# CSPRNG): made by `enygma setup` when keys/dev is missing, or when the circuits they were made
# for (the R1CS digests printed by `enygma info --digest`) differ from the circuits of the
# binary just built. Only the circuits whose digest changed are set up again.
keys: build-native-run
	@$(ENYGMA) info --circuit all --digest >$(BUILD)/circuit-digests.json
	@scripts/dev-keys.sh $(ENYGMA) $(BUILD)/circuit-digests.json $(DEV_KEYS)

# The server with the browser demo (build-wasm/web: the page, the WebAssembly module, workers).
# As in `test`, the WebAssembly dependencies build beside the native program.
run: $(SETUP_STAMP)
	@$(call beside_wasm_deps,build-native-run)
	@$(MAKE) build-wasm-page keys
	exec $(ENYGMA) serve --bind $(HOST) --port $(PORT) --keys $(DEV_KEYS) --web $(abspath $(BUILD_WASM))/web

# ---- benchmarks -----------------------------------------------------------------------------
# Google Benchmark programs, one per bench/<concern>_bench.cpp. Timings are only meaningful on
# an otherwise idle machine.
bench: bench-native bench-wasm

bench-native: build-native
	@for b in $(BUILD)/bench/*_bench; do echo "== $$b"; $$b $(BENCH_ARGS); done

bench-wasm: build-wasm
	@for b in $(BUILD_WASM)/bench/*_bench.js; do echo "== $$b (WebAssembly, Node)"; \
	  $(NODE) $$b $(BENCH_ARGS); done

# ---- cleaning -------------------------------------------------------------------------------
clean:
	rm -rf $(BUILD) $(BUILD_WASM) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_FUZZ)

distclean: clean
	rm -rf .cache node_modules
