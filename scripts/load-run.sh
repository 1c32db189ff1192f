#!/usr/bin/env bash
# The server benchmark (not a CTest test): `enygma serve` with a circuit family's keys of
# k = 2..6 loaded (transfer by default), then `enygma-load` proving its k=6 example request at
# 1, 2, 4, 8 and 16 concurrent clients.
# Prints one summary table (throughput, latency, failures, server memory) and keeps every JSON
# report in the output folder. Run it on a quiet machine.
#
#   scripts/load-run.sh [BUILD_DIR] [KEYS_DIR]
#
# Environment:
#   SECONDS_PER_RUN   length of each run (default 20)
#   CLIENTS           client counts (default "1 2 4 8 16")
#   CIRCUIT           the circuit family: transfer, deposit, withdraw (default transfer)
#   REQUEST           request body (default ../shared/vectors/<CIRCUIT>-k<K>.json: K = 2 or 6)
#   K                 the k of REQUEST, 2..6 (default 6)
#   SERVE_ARGS        extra `enygma serve` options, e.g. "--max-inflight 1 --prover-threads 2";
#                     one of the script's own (--circuits, --queue, --access-log) given
#                     here replaces it
#   OUT               folder for the JSON reports (default BUILD_DIR/load-run)
#   INSTANCES         N > 1: N instances behind HAProxy (scripts/cluster.sh), loaded through
#                     the balancer; the RSS columns are then instance 1's (default 1)
#   LB_PORT           the balancer's port when INSTANCES > 1 (default 39380)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$here/build}"
keys="${2:-$here/keys/dev}"
enygma="$build/bin/enygma"
load="$build/bin/enygma-load"
seconds="${SECONDS_PER_RUN:-20}"
clients="${CLIENTS:-1 2 4 8 16}"
k="${K:-6}"
circuit="${CIRCUIT:-transfer}"
request="${REQUEST:-$here/../shared/vectors/$circuit-k$k.json}"
out="${OUT:-$build/load-run}"

for program in "$enygma" "$load"; do
  [[ -x "$program" ]] || { echo "no $program: build first (cmake --build $build)" >&2; exit 2; }
done
# The server loads the keys of k = 2..6 (below): a request of another k would find no circuit.
[[ "$k" =~ ^[2-6]$ ]] || { echo "K must be one of 2..6 (the keys loaded), got '$k'" >&2; exit 2; }
[[ -f "$request" ]] || { echo "no request file $request" >&2; exit 2; }
route="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["prove_route"])' \
  < <("$enygma" info --circuit "$circuit" --k "$k"))"
mkdir -p "$out"
for kk in 2 3 4 5 6; do
  [[ "${SERVE_ARGS:-}" == *"--backend fake"* ]] && break  # a dry run of the script itself
  if [[ ! -f "$keys/$circuit-k$kk.pk" || ! -f "$keys/$circuit-k$kk.vk" ]]; then
    echo "making development keys for $circuit-k$kk in $keys" >&2
    "$enygma" setup --circuit "$circuit" --k "$kk" --out "$keys" >&2
  fi
done

# Every client is admitted (queue >= clients): the run measures proving, not refusals.
max_clients=0
for c in $clients; do (( c > max_clients )) && max_clients=$c; done
# The script's own serve options, each left out where SERVE_ARGS names it (`enygma serve`
# refuses an option given twice): SERVE_ARGS="--queue 2" replaces --queue "$max_clients".
read -r -a serve_extra <<<"${SERVE_ARGS:-}"
serve_args=()
own_serve_option() {  # NAME VALUE
  local a
  for a in "${serve_extra[@]}"; do [[ "$a" == "$1" || "$a" == "$1="* ]] && return 0; done
  serve_args+=("$1" "$2")
}
own_serve_option --circuits "$circuit"
# (k: serve's default, 2-6; a --k of the script's own would refuse SERVE_ARGS="--circuits
# transfer-k2", an id, which names its own k)
own_serve_option --queue "$max_clients"
own_serve_option --access-log off
serve_args+=("${serve_extra[@]}")
log="$out/serve.log"
instances="${INSTANCES:-1}"
if ((instances > 1)); then
  cluster_dir="$out/cluster"
  "$here/scripts/cluster.sh" start --instances "$instances" --lb-port "${LB_PORT:-39380}" \
    --stats-port 0 --first-port 0 --bin "$enygma" --keys "$keys" --dir "$cluster_dir" \
    -- "${serve_args[@]}" >&2
  trap '"$here/scripts/cluster.sh" stop --dir "$cluster_dir" || true' EXIT
  cp "$cluster_dir/instance-1.log" "$log"
  server_pid="$(cat "$cluster_dir/instance-1.pid")"
  url="http://127.0.0.1:${LB_PORT:-39380}$route"
else
  "$enygma" serve --port 0 --keys "$keys" "${serve_args[@]}" >"$log" 2>"$out/serve.err" &
  server_pid=$!
  trap 'kill -KILL $server_pid 2>/dev/null || true' EXIT

  port=""
  for _ in $(seq 1 600); do
    port="$(grep -o '"event":"listening".*"port":[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
    [[ -n "$port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$out/serve.err" >&2; exit 1; }
    sleep 0.1
  done
  [[ -n "$port" ]] || { echo "the server did not start" >&2; exit 1; }
  url="http://127.0.0.1:$port$route"
fi
# SERVE_ARGS may name other circuits (--circuits, --k) than the one loaded here: say so plainly
# instead of failing at the warm-up with the route's 404.
if ! python3 - "$log" "$circuit-k$k" <<'EOF'
import json, sys
log, wanted = sys.argv[1:]
config = next(json.loads(l) for l in open(log) if '"event":"config"' in l)
sys.exit(0 if wanted in config["circuits"] else 1)
EOF
then
  echo "the server does not serve $circuit-k$k (CIRCUIT, K): SERVE_ARGS='${SERVE_ARGS:-}' names" \
    "other circuits; it serves: $(grep -o '"circuits":\[[^]]*\]' "$log")" >&2
  exit 2
fi
idle_rss_kb="$(awk '/^VmRSS:/ {print $2}' "/proc/$server_pid/status")"
load_hwm_kb="$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")"

# One proof first: page in the code and the keys. A failure here would fail every run.
if ! warm_up="$("$load" --url "$url" --body "$request" --concurrency 1 --seconds 1)"; then
  echo "the warm-up request to $url failed:" >&2
  python3 -c 'import json, sys; r = json.load(sys.stdin)
print("  status:", json.dumps(r["status"]), "errors:", json.dumps(r["errors"]))' \
    <<<"$warm_up" >&2 2>/dev/null || true
  exit 1
fi

for c in $clients; do
  echo "k=$k, $c client(s), ${seconds}s ..." >&2
  "$load" --url "$url" --body "$request" --concurrency "$c" --seconds "$seconds" \
    --server-pid "$server_pid" >"$out/load-c$c.json" || true
done

server_exit=0
if ((instances > 1)); then
  "$here/scripts/cluster.sh" stop --dir "$cluster_dir" || server_exit=$?
else
  kill -TERM "$server_pid"
  wait "$server_pid" || server_exit=$?
fi
trap - EXIT

python3 - "$out" "$clients" "$idle_rss_kb" "$load_hwm_kb" "$server_exit" "$log" <<'EOF'
import json, os, sys
out, clients, idle_rss, load_hwm, server_exit, log = sys.argv[1:]
config = next(json.loads(l) for l in open(log) if '"event":"config"' in l)
print(f"instances: {os.environ.get('INSTANCES', '1')}; server: max_inflight={config['max_inflight']} prover_threads={config['prover_threads']} "
      f"queue={config['queue']} io_threads={config['io_threads']}; keys k=2..6 loaded: "
      f"RSS {int(idle_rss)/1024:.1f} MiB (start-up peak {int(load_hwm)/1024:.1f} MiB)")
print()
print("| clients | proofs/s | p50 ms | p90 ms | p99 ms | ok | failures | server peak RSS MiB |")
print("|--------:|---------:|-------:|-------:|-------:|---:|---------:|--------------------:|")
for c in clients.split():
    r = json.load(open(f"{out}/load-c{c}.json"))
    lat = r["latency_ms"]
    print(f"| {c} | {r['throughput_rps']:.2f} | {lat['p50']:.0f} | {lat['p90']:.0f} | "
          f"{lat['p99']:.0f} | {r['ok']} | {r['failures']} | "
          f"{r['server']['rss_peak_kb']/1024:.1f} |")
print()
print("Latency of the answers 200; failures: other answers (their latency in the reports' "
      "failed_latency_ms) and transport errors.")
print(f"server exit code after SIGTERM: {server_exit}")
EOF
