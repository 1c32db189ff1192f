#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) and runs each one for
# FUZZ_SECONDS, then prints per target: executions, executions per second, corpus size (inputs
# and bytes), coverage (edges, libFuzzer's "cov"), and whether it found anything.
#
#   scripts/fuzz.sh [TARGET...]          all targets (tests/fuzz/*_fuzz.cpp) or the ones named
#   FUZZ_SECONDS=3 scripts/fuzz.sh       CI's short run: the harnesses build and run
#
# Environment:
#   FUZZ_SECONDS    fuzzing time per target (default 60), counted once the target has run its
#                   seeds (libFuzzer's INITED): a target whose seeds take longer than a short run
#                   (circuit_request: every family's R1CS and witnesses, ~15 s under the
#                   sanitizers) would otherwise stop before mutating a single input
#   FUZZ_INIT_LIMIT seconds a target may take to run its seeds (default 600)
#   FUZZ_BUILD      build folder (default build-fuzz), configured with CC=clang-14
#                   CXX=clang++-14 -DENYGMA_FUZZ=ON on first use
#   FUZZ_SOURCE     source folder to configure (default: this repository)
#   FUZZ_JOBS       build parallelism (default: nproc)
#   FUZZ_PARALLEL   targets run at once (default 1)
#   FUZZ_NICE       niceness of the fuzzers (default 0; 19 on a shared machine)
#   FUZZ_MALLOC_MB  a single allocation above this many MiB is a finding (default 256)
#   FUZZ_TIMEOUT    an input running longer than this many seconds is a finding (default 60:
#                   generous, the first input also pays for a target's fixtures on a busy machine)
#   FUZZ_NO_BUILD   1: run the programs already built (e.g. while another build runs there)
#   FUZZ_REPORT     1: only print the report of the last run's logs (no build, no run)
#   FUZZ_LEAKS      0: no LeakSanitizer pass during the run (the graceful exit that ends a run
#                   skips the exit-time scan either way). Default 1
#
# Corpora grow in FUZZ_BUILD/fuzz-work/<name>/corpus (the seeds of tests/fuzz/corpus/<name>/ and
# the inputs of tests/fuzz/regressions/<name>/ are read, never written). A finding is written to
# FUZZ_BUILD/fuzz-work/<name>/findings/ and makes the script exit 1: fix it, then keep the input
# as tests/fuzz/regressions/<name>/<short-description> (CTest replays it in every build).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD:-$root/build-fuzz}
source_dir=${FUZZ_SOURCE:-$root}
jobs=${FUZZ_JOBS:-$(nproc)}
parallel=${FUZZ_PARALLEL:-1}
niceness=${FUZZ_NICE:-0}
malloc_mb=${FUZZ_MALLOC_MB:-256}
timeout_s=${FUZZ_TIMEOUT:-60}
init_limit=${FUZZ_INIT_LIMIT:-600}
fuzz_dir=$root/tests/fuzz

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in "$fuzz_dir"/*_fuzz.cpp; do
    n=$(basename "$f" .cpp)
    targets+=("${n%_fuzz}")
  done
fi

report_only=${FUZZ_REPORT:-0}
# ---- build ------------------------------------------------------------------------------------
if [ "$report_only" != 1 ] && [ ! -f "$build/CMakeCache.txt" ]; then
  CC=${CC:-clang-14} CXX=${CXX:-clang++-14} cmake -S "$source_dir" -B "$build" -G Ninja \
    -DENYGMA_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DENYGMA_BUILD_BENCH=OFF >/dev/null
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("${t}_fuzz"); done
if [ "${FUZZ_NO_BUILD:-0}" != 1 ] && [ "$report_only" != 1 ]; then
  cmake --build "$build" -j "$jobs" --target "${build_targets[@]}"
fi

# ---- run --------------------------------------------------------------------------------------
run_one() {
  local name=$1
  local bin work
  bin=$(find "$build" -name "${name}_fuzz" -type f -perm -u+x | head -1)
  work=$build/fuzz-work/$name
  mkdir -p "$work/corpus" "$work/findings"
  local dirs=("$work/corpus" "$fuzz_dir/corpus/$name")
  [ -d "$fuzz_dir/regressions/$name" ] && dirs+=("$fuzz_dir/regressions/$name")
  # The target's dictionary: <name>.dict, else that of the target it widens (<prefix>_<base>
  # takes <base>.dict: circuit_request shares request's).
  local dict=()
  local d
  for d in "$name" "${name#*_}"; do
    if [ -f "$fuzz_dir/$d.dict" ]; then
      dict=(-dict="$fuzz_dir/$d.dict")
      break
    fi
  done
  local leaks=${FUZZ_LEAKS:-1}
  local rc=0
  # -max_total_time counts from the start, seeds included: it only bounds the whole run here.
  # FUZZ_SECONDS start at INITED (the seeds run); then SIGUSR1 ends the run (libFuzzer's
  # graceful exit: final stats, exit 0; by _Exit, so without the exit-time leak scan, which
  # -detect_leaks's scans during the run and CTest's sanitized replay make up for, and without
  # atexit handlers: a target's scratch files go to $work/tmp, emptied before each run).
  rm -rf "$work/tmp"
  mkdir -p "$work/tmp"
  TMPDIR=$work/tmp ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=$leaks nice -n "$niceness" "$bin" \
    -max_total_time="$((seconds + init_limit))" -print_final_stats=1 -detect_leaks="$leaks" \
    -timeout="$timeout_s" -malloc_limit_mb="$malloc_mb" -rss_limit_mb=2048 \
    -artifact_prefix="$work/findings/" "${dict[@]}" "${dirs[@]}" >"$work/log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null && ! grep -qE '^#[0-9]+[[:space:]]+INITED' "$work/log"; do
    sleep 0.2
  done
  local i
  for ((i = 0; i < 5 * seconds; ++i)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -USR1 "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  echo "$rc" >"$work/rc"
}

for t in "${targets[@]}"; do
  [ -f "$fuzz_dir/${t}_fuzz.cpp" ] || { echo "fuzz.sh: no target '$t'" >&2; exit 2; }
done
if [ "$report_only" != 1 ]; then
  for t in "${targets[@]}"; do rm -f "$build/fuzz-work/$t/rc"; done
  echo "fuzzing ${#targets[@]} target(s), $seconds s each, $parallel at a time"
  running=0
  for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then
      wait -n || true
      running=$((running - 1))
    fi
  done
  wait || true
fi

# ---- report -----------------------------------------------------------------------------------
stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }
failed=0
printf '%-22s %10s %8s %12s %10s %6s  %s\n' target executions exec/s corpus bytes cov result
for t in "${targets[@]}"; do
  work=$build/fuzz-work/$t
  log=$work/log
  rc=$(cat "$work/rc" 2>/dev/null || echo none)
  execs=$(stat "$log" number_of_executed_units)
  speed=$(stat "$log" average_exec_per_sec)
  # The last status line: "#N  DONE  cov: C ft: F corp: U/Bb ..."
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  units=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
  bytes=$(sed -n 's/.* corp: [0-9]*\/\([0-9a-zA-Z]*\).*/\1/p' <<<"$last")
  result=ok
  if [ "$rc" = none ]; then
    result="no result (still running, or interrupted): see $log"
    failed=1
  elif [ "$rc" != 0 ]; then
    result="FINDING (exit $rc): $(ls "$work/findings" | head -3 | tr '\n' ' ')see $log"
    failed=1
  fi
  printf '%-22s %10s %8s %12s %10s %6s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "${units:-?}" \
    "${bytes:-?}" "${cov:-?}" "$result"
done
exit "$failed"
