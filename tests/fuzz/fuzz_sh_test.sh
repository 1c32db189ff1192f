#!/usr/bin/env bash
# CTest fuzz_sh_fuzzes_after_seeds: scripts/fuzz.sh gives each target FUZZ_SECONDS of fuzzing
# after its seeds have run (libFuzzer's INITED), not FUZZ_SECONDS in all: with -max_total_time
# alone, circuit_request (whose seeds take ~15 s under the sanitizers) ended `make test`'s 3 s
# run having mutated one input. A stand-in for a libFuzzer program whose seeds take 2 s is run
# for FUZZ_SECONDS=1: it must be stopped by SIGUSR1 (libFuzzer's graceful exit) after fuzzing,
# and the report must show its executions and "ok".
#   tests/fuzz/fuzz_sh_test.sh REPO_ROOT
set -euo pipefail
root=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/fuzz"
touch "$d/CMakeCache.txt"  # configured: fuzz.sh configures nothing
cat >"$d/fuzz/request_fuzz" <<'STUB'
#!/usr/bin/env bash
max=0
for a in "$@"; do case $a in -max_total_time=*) max=${a#*=} ;; esac; done
start=$SECONDS
sleep 2  # the seeds
printf '#3\tINITED cov: 1 ft: 1 corp: 3/3b exec/s: 0 rss: 1Mb\n'
n=3 stop=0
trap 'stop=1' USR1
while ((!stop && SECONDS - start < max)); do n=$((n + 1)); sleep 0.02; done
printf '#%d\tDONE   cov: 1 ft: 1 corp: 3/3b exec/s: 1 rss: 1Mb\n' "$n"
echo "stat::number_of_executed_units: $n"
echo "stat::average_exec_per_sec: 1"
STUB
chmod +x "$d/fuzz/request_fuzz"
t0=$SECONDS
out=$(FUZZ_BUILD="$d" FUZZ_NO_BUILD=1 FUZZ_SECONDS=1 FUZZ_INIT_LIMIT=30 "$root/scripts/fuzz.sh" request)
t=$((SECONDS - t0))
echo "$out"
line=$(grep '^request ' <<<"$out")
execs=$(awk '{print $2}' <<<"$line")
[[ "$line" == *' ok' ]] || { echo "FAIL: the run is not reported ok"; exit 1; }
((execs > 3)) || { echo "FAIL: $execs executions: the target was stopped right after its seeds"; exit 1; }
((t < 25)) || { echo "FAIL: $t s: the target was not stopped after FUZZ_SECONDS of fuzzing"; exit 1; }
echo "fuzz.sh: $execs executions, $t s"
