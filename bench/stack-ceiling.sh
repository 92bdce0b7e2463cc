#!/usr/bin/env bash
# How fast Detour's stack could forward on this machine today, with and without Jetty's selector model (not a
# report; docs/performance.md, session 41): one nginx `return 200` chat completion as the upstream, then
# wrk -t2 -c16 in interleaved rounds against
#   nginx   nginx proxy_pass (bench/run.sh's reference)
#   jetty   bench/bare's BareForwarder: Detour's own Jetty server and upstream client (bench/run.sh's calibration leg)
#   thread  bench/bare's ThreadPerConnectionForwarder on platform threads: the same upstream client behind one
#           thread per client connection reading it with blocking socket reads
#   virtual the same on virtual threads (when the java has them)
# Nothing of Detour's own work (routing, events, database) runs in any of them.
#
#     bench/stack-ceiling.sh [JAR=target/detour.jar] [ROUNDS=3]
#
#   CEILING_JAVA      the java that runs the forwarders (default Java 17: /usr/lib/jvm/java-17-openjdk-amd64/bin/java)
#   CEILING_SECONDS   seconds per measured round (default 15); every leg is first warmed for 20 s
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$(readlink -f "${1:-$ROOT/target/detour.jar}")"
ROUNDS="${2:-3}"
JAVA="${CEILING_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
JAVAC=/usr/lib/jvm/temurin-25-jdk-amd64/bin/javac
SECONDS_PER_ROUND="${CEILING_SECONDS:-15}"
WORK="$(mktemp -d "$ROOT/target/ceiling.XXXX")"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  [[ -f "$WORK/nginx/nginx.pid" ]] && nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" -s stop 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
command -v wrk >/dev/null && command -v nginx >/dev/null || { echo "stack-ceiling.sh needs wrk and nginx (apt-get install wrk nginx)" >&2; exit 1; }
[[ -f "$JAR" ]] || { echo "no $JAR (./mvnw -q -DskipTests package)" >&2; exit 1; }
source "$ROOT/bench/lib.sh"
source "$ROOT/bench/nginx-conf.sh"

P_STATIC=$(free_port); P_NGINX=$(free_port)
# a fixed chat completion, as bench/run.sh's static upstream answers (its own bytes come from the bench client)
JSON='{"id":"chatcmpl-bench","object":"chat.completion","created":1700000000,"model":"bench-json","choices":[{"index":0,"message":{"role":"assistant","content":"Hello! How can I help?"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":7,"total_tokens":16}}'
mkdir -p "$WORK/nginx/tmp"
{ nginx_conf_head "$WORK/nginx"; cat <<NGINX
  upstream static_json { server 127.0.0.1:$P_STATIC; keepalive 64; keepalive_requests 1000000; }
  server {
    listen 127.0.0.1:$P_STATIC;
    location = /v1/chat/completions { default_type application/json; return 200 '$JSON'; }
  }
  server {
    listen 127.0.0.1:$P_NGINX;
    location / { proxy_pass http://static_json; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
NGINX
} >"$WORK/nginx/nginx.conf"
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" || exit 1 # as run.sh runs it
"$JAVAC" --release 17 -encoding UTF-8 -cp "$JAR" -d "$WORK/bare" "$ROOT"/bench/bare/dev/detour/bench/bare/*.java || exit 1

LEGS=(nginx) PORTS=("$P_NGINX")
start_forwarder() { # leg class [mode]
  local port; port=$(free_port)
  "$JAVA" -Xmx512m -cp "$JAR:$WORK/bare" "dev.detour.bench.bare.$2" "$port" "http://127.0.0.1:$P_STATIC" ${3:-} \
    >"$WORK/$1.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 150); do
    grep -q ready "$WORK/$1.log" && { LEGS+=("$1"); PORTS+=("$port"); return 0; }
    kill -0 "${PIDS[-1]}" 2>/dev/null || break
    sleep 0.2
  done
  echo "$1 did not start: $(tail -3 "$WORK/$1.log")" >&2
}
start_forwarder jetty BareForwarder
start_forwarder thread ThreadPerConnectionForwarder platform
"$JAVA" -version 2>&1 | grep -q 'version "17' || start_forwarder virtual ThreadPerConnectionForwarder virtual

rps() { # port seconds → requests per second of one wrk run
  (cd "$ROOT/bench" && wrk -t2 -c16 -d"$2" -s post.lua "http://127.0.0.1:$1/v1/chat/completions") \
    | awk '/Requests\/sec/ { printf "%d", $2 }'
}
echo "# stack ceiling, $(date -u '+%F %H:%M') UTC, $("$JAVA" -version 2>&1 | head -1), wrk -t2 -c16, ${SECONDS_PER_ROUND} s rounds"
for i in "${!LEGS[@]}"; do rps "${PORTS[$i]}" 20s >/dev/null; done
printf '%-8s' round; printf '%10s' "${LEGS[@]}"; for leg in "${LEGS[@]:1}"; do printf '%14s' "$leg/nginx"; done; echo
for r in $(seq "$ROUNDS"); do
  printf '%-8s' "$r"
  results=()
  for i in "${!LEGS[@]}"; do results+=("$(rps "${PORTS[$i]}" "${SECONDS_PER_ROUND}s")"); done
  printf '%10s' "${results[@]}"
  for v in "${results[@]:1}"; do awk -v a="$v" -v b="${results[0]}" 'BEGIN { printf "%14.2f", (b > 0 ? a / b : 0) }'; done
  echo
done
