#!/usr/bin/env bash
# A local cluster: N `enygma serve` instances on loopback ports behind HAProxy
# (deploy/haproxy/enygma.cfg), for trying out and testing the multi-instance setup (issue #9).
#
#   scripts/cluster.sh start [options] [-- extra `enygma serve` options]
#   scripts/cluster.sh status  [--dir DIR]
#   scripts/cluster.sh restart-instance I [--dir DIR]   (SIGTERM it if running, start it again
#                                                        on its port, wait until it listens)
#   scripts/cluster.sh stop    [--dir DIR]
#
# start options:
#   --instances N     number of instances, 1..100 (default 2)
#   --lb-port P       the balancer's port, 1..65535 (default 3080)
#   --stats-port P    HAProxy's statistics page (default 3099; 0: off)
#   --first-port P    instance i listens on P + i - 1 (default 3101; 0: any free port each)
#   --keys DIR        key folder for every instance (default keys/dev)
#   --bin PATH        the enygma binary (default build/bin/enygma)
#   --dir DIR         run folder: pid files, ports, logs, haproxy.cfg (default .cache/cluster)
#   --server-maxconn M  HAProxy maxconn per instance (default: max_inflight + queue as the
#                       instances report them in their "event":"config" log line)
#
# Instances log to DIR/instance-I.log (JSON lines) and .err; HAProxy to DIR/haproxy.log.
# `start` refuses a run folder whose balancer or any instance still runs. `stop` sends SIGTERM
# everywhere (instances finish admitted proofs), waits, then SIGKILLs whatever is still running
# after 130 s; `stop` and `status` act only on a pid whose process is still the program started
# (a stale pid file may name another process by now). Exit status: 0 done, 1 failure, 2 usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmd="${1:-}"
[[ -n "$cmd" ]] && shift

instances=2
lb_port=3080
stats_port=3099
first_port=3101
keys="$here/keys/dev"
bin="$here/build/bin/enygma"
dir="$here/.cache/cluster"
server_maxconn=""
instance_arg=""
extra=()

# The header above, up to `set -euo pipefail`.
usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
}
usage_error() {
  echo "cluster.sh: $1" >&2
  usage >&2
  exit 2
}
# An option with its value ("$@" from the option on): a usage error when the value is missing.
value() { (($# >= 2)) || usage_error "$1 needs a value"; }
# A whole number in LO..HI, written without leading zeros: else a usage error naming the option.
check_number() {  # OPTION VALUE LO HI
  if [[ ! "$2" =~ ^(0|[1-9][0-9]*)$ ]] || ((${#2} > ${#4})) || (($2 < $3 || $2 > $4)); then
    usage_error "$1 must be a whole number in $3..$4, got '$2'"
  fi
}

while (($#)); do
  case "$1" in
    --instances) value "$@"; instances="$2"; shift 2 ;;
    --lb-port) value "$@"; lb_port="$2"; shift 2 ;;
    --stats-port) value "$@"; stats_port="$2"; shift 2 ;;
    --first-port) value "$@"; first_port="$2"; shift 2 ;;
    --keys) value "$@"; keys="$2"; shift 2 ;;
    --bin) value "$@"; bin="$2"; shift 2 ;;
    --dir) value "$@"; dir="$2"; shift 2 ;;
    --server-maxconn) value "$@"; server_maxconn="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    [0-9]*) instance_arg="$1"; shift ;;
    *) usage_error "unknown argument $1" ;;
  esac
done

haproxy_bin="${HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}"
template="$here/deploy/haproxy/enygma.cfg"

# A pid that runs (a zombie, ended but not yet reaped by init, counts as ended).
pid_runs() {
  kill -0 "$1" 2>/dev/null && [[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != "Z" ]]
}
# alive FILE PROGRAM: the pid in FILE runs PROGRAM, as started here: its argv[0], or its
# argv[1] where PROGRAM is a script run by its interpreter (#!). A pid file left by a process
# that ended may name another process by now, which must not be signalled.
alive() {
  local pid arg0='' arg1=''
  [[ -f "$1" ]] || return 1
  pid="$(cat "$1")"
  pid_runs "$pid" || return 1
  { IFS= read -r -d '' arg0 && IFS= read -r -d '' arg1; } <"/proc/$pid/cmdline" 2>/dev/null || true
  [[ "$arg0" == "$2" || "${arg1:-}" == "$2" ]]
}
# The programs of the run folder's pid files, as its `start` recorded them.
instance_bin() { cat "$dir/bin" 2>/dev/null || echo "$bin"; }
balancer_bin() { cat "$dir/haproxy-bin" 2>/dev/null || echo "$haproxy_bin"; }

# The port of instance i from its log's "listening" line (empty until it listens).
listening_port() {
  grep -o '"event":"listening".*"port":[0-9]*' "$dir/instance-$1.log" 2>/dev/null |
    grep -o '[0-9]*$' | tail -n 1 || true
}

# start_instance I PORT: starts it in the background, waits (up to 300 s: key loading) until it
# listens, records its pid and port.
start_instance() {
  local i="$1" port="$2" pid
  [[ -f "$dir/serve-args" ]] && mapfile -t extra <"$dir/serve-args"
  : >"$dir/instance-$i.log"
  "$bin" serve --bind 127.0.0.1 --port "$port" --keys "$keys" "${extra[@]}" \
    >>"$dir/instance-$i.log" 2>>"$dir/instance-$i.err" </dev/null &
  pid=$!
  disown "$pid" 2>/dev/null || true
  echo "$pid" >"$dir/instance-$i.pid"
  for _ in $(seq 1 3000); do
    port="$(listening_port "$i")"
    if [[ -n "$port" ]]; then
      echo "$port" >"$dir/instance-$i.port"
      return 0
    fi
    if ! pid_runs "$pid"; then
      echo "cluster.sh: instance $i did not start:" >&2
      tail -n 5 "$dir/instance-$i.err" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "cluster.sh: instance $i did not listen within 300 s" >&2
  return 1
}

# stop_pid FILE PROGRAM: SIGTERM, wait up to 130 s (an instance drains for up to
# --drain-timeout, 120 s by default, before it exits), then SIGKILL.
stop_pid() {
  local file="$1" pid
  alive "$file" "$2" || { rm -f "$file"; return 0; }
  pid="$(cat "$file")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 1300); do
    pid_runs "$pid" || { rm -f "$file"; return 0; }
    sleep 0.1
  done
  echo "cluster.sh: pid $pid still running after 130 s: SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$file"
}

# max_inflight + queue of instance I as it resolved them (its defaults from its own count of
# the cores and its environment), from its "event":"config" log line; empty if none.
instance_capacity() {
  local line inflight queue
  line="$(grep -m 1 '"event":"config"' "$dir/instance-$1.log" 2>/dev/null || true)"
  inflight="$(grep -o '"max_inflight":[0-9]*' <<<"$line" | head -n 1 | grep -o '[0-9]*$' || true)"
  queue="$(grep -o '"queue":[0-9]*' <<<"$line" | head -n 1 | grep -o '[0-9]*$' || true)"
  [[ -n "$inflight" && -n "$queue" ]] && echo $((inflight + queue))
  return 0
}

do_start() {
  check_number --instances "$instances" 1 100
  check_number --lb-port "$lb_port" 1 65535
  check_number --stats-port "$stats_port" 0 65535
  check_number --first-port "$first_port" 0 $((65536 - instances))
  [[ -z "$server_maxconn" ]] || check_number --server-maxconn "$server_maxconn" 1 1000000
  [[ -x "$bin" ]] || { echo "cluster.sh: no $bin (build first)" >&2; exit 1; }
  [[ -x "$haproxy_bin" ]] || { echo "cluster.sh: haproxy not found (apt-get install haproxy)" >&2; exit 1; }
  mkdir -p "$dir"
  # Not over a cluster that still runs, even in part: its pid files would be overwritten and
  # `stop` would no longer reach it.
  local f program
  for f in "$dir/haproxy.pid" "$dir"/instance-*.pid; do
    [[ "$f" == */haproxy.pid ]] && program="$(balancer_bin)" || program="$(instance_bin)"
    if alive "$f" "$program"; then
      echo "cluster.sh: a cluster is already running in $dir (pid $(cat "$f"));" \
        "stop it first: cluster.sh stop --dir $dir" >&2
      exit 1
    fi
  done
  printf '%s\n' "${extra[@]}" >"$dir/serve-args"
  [[ ${#extra[@]} -eq 0 ]] && : >"$dir/serve-args"
  echo "$keys" >"$dir/keys"
  echo "$bin" >"$dir/bin"
  echo "$haproxy_bin" >"$dir/haproxy-bin"
  local i port servers=""
  for ((i = 1; i <= instances; i++)); do
    port=0
    ((first_port > 0)) && port=$((first_port + i - 1))
    if ! start_instance "$i" "$port"; then do_stop; exit 1; fi
    servers+="    server enygma$i 127.0.0.1:$(cat "$dir/instance-$i.port")"$'\n'
  done
  echo "$instances" >"$dir/instances"

  if [[ -z "$server_maxconn" ]]; then
    # As the instances report it (the same options on the same machine: they agree; if not, the
    # smallest, so that no instance is sent more than it admits).
    local capacity
    for ((i = 1; i <= instances; i++)); do
      capacity="$(instance_capacity "$i")"
      if [[ -z "$capacity" ]]; then
        echo "cluster.sh: no max_inflight and queue in $dir/instance-$i.log" >&2
        do_stop
        exit 1
      fi
      if [[ -z "$server_maxconn" ]] || ((capacity < server_maxconn)); then
        server_maxconn=$capacity
      fi
    done
  fi
  # The template with its servers block replaced by this cluster's instances.
  awk -v servers="$servers" '
    /# BEGIN servers/ { print; printf "%s", servers; skip = 1; next }
    /# END servers/ { skip = 0 }
    !skip { print }' "$template" >"$dir/haproxy.cfg"
  if ((stats_port == 0)); then
    # No statistics listener: drop the section (it is the last one of the template).
    sed -i '/^frontend stats/,$d' "$dir/haproxy.cfg"
  fi
  export ENYGMA_LB_BIND="127.0.0.1:$lb_port"
  export ENYGMA_LB_STATS_BIND="127.0.0.1:$stats_port"
  export ENYGMA_LB_SERVER_MAXCONN="$server_maxconn"
  if ! "$haproxy_bin" -c -q -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1; then
    echo "cluster.sh: haproxy rejects $dir/haproxy.cfg:" >&2
    cat "$dir/haproxy.log" >&2
    do_stop
    exit 1
  fi
  # -W: master-worker, -db: stay in the foreground (this script backgrounds it).
  "$haproxy_bin" -W -db -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 </dev/null &
  local lb_pid=$!
  disown "$lb_pid" 2>/dev/null || true
  echo "$lb_pid" >"$dir/haproxy.pid"
  echo "$lb_port" >"$dir/lb.port"
  # Ready when the balancer answers a readiness check through to an instance.
  for _ in $(seq 1 200); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$lb_port/readyz" 2>/dev/null; then
      echo "cluster: http://127.0.0.1:$lb_port/ -> $instances instance(s) on ports" \
        "$(cat "$dir"/instance-*.port | tr '\n' ' ')(maxconn $server_maxconn each), run folder $dir"
      ((stats_port > 0)) && echo "statistics: http://127.0.0.1:$stats_port/"
      return 0
    fi
    if ! pid_runs "$lb_pid"; then break; fi
    sleep 0.1
  done
  echo "cluster.sh: the balancer did not come up:" >&2
  tail -n 20 "$dir/haproxy.log" >&2
  do_stop
  exit 1
}

do_stop() {
  [[ -d "$dir" ]] || return 0
  # Balancer first (no new requests), then every instance in parallel.
  stop_pid "$dir/haproxy.pid" "$(balancer_bin)"
  local f pids=() program
  program="$(instance_bin)"
  for f in "$dir"/instance-*.pid; do
    [[ -e "$f" ]] || continue
    stop_pid "$f" "$program" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
}

do_status() {
  [[ -d "$dir" ]] || { echo "no cluster in $dir"; exit 1; }
  local f i port state program
  program="$(instance_bin)"
  if alive "$dir/haproxy.pid" "$(balancer_bin)"; then
    echo "balancer: pid $(cat "$dir/haproxy.pid"), http://127.0.0.1:$(cat "$dir/lb.port")/"
  else
    echo "balancer: not running"
  fi
  for f in "$dir"/instance-*.port; do
    [[ -e "$f" ]] || continue
    i="${f##*/instance-}"; i="${i%.port}"
    port="$(cat "$f")"
    state="stopped"
    if alive "$dir/instance-$i.pid" "$program"; then
      state="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz" || true)"
      state="pid $(cat "$dir/instance-$i.pid"), /readyz $state"
    fi
    echo "instance $i: port $port, $state"
  done
}

do_restart_instance() {
  local i="$instance_arg"
  [[ -n "$i" && -f "$dir/instance-$i.port" ]] || { echo "cluster.sh: no instance '$i' in $dir" >&2; exit 2; }
  keys="$(cat "$dir/keys")"
  bin="$(cat "$dir/bin")"
  stop_pid "$dir/instance-$i.pid" "$bin"
  start_instance "$i" "$(cat "$dir/instance-$i.port")"
  echo "instance $i listening on port $(cat "$dir/instance-$i.port"), pid $(cat "$dir/instance-$i.pid")"
}

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  restart-instance) do_restart_instance ;;
  -h|--help) usage ;;
  "") usage_error "a command is needed" ;;
  *) usage_error "unknown command $cmd" ;;
esac
