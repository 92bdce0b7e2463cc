#!/usr/bin/env bash
# A quick A/B harness for the held-streams leg (N-7; not a report): a cold Detour on a fresh data dir, one
# group of 4 accounts on Detour's fake upstream (bench mode: 64 deltas 20 ms apart), one key, then HOLDS holds
# of 1,000 streams (bench/run.sh's client); per hold: streams completed, median streams receiving, time to
# first frame p50 / p90 / p99, the frame gap's p99, the fewest streams receiving, Detour's and the embedded
# MariaDB's CPU per completed stream, Detour's RSS, and the stream pump thread's CPU over the client's run (ramp and
# hold) in % of one core.
#
#     bench/hold.sh [JAR=target/detour.jar] [HOLDS=10]
#
#   HOLD_JAVA     the java that runs Detour (default Java 17: /usr/lib/jvm/java-17-openjdk-amd64/bin/java)
#   HOLD_FLAGS    extra JVM flags (e.g. -XX:NativeMemoryTracking=summary); -Xmx512m always
#   HOLD_MS       each hold's length (default 5000), HOLD_STREAMS its clients (default 1000)
#   HOLD_SINGLE   after the holds, this many single streams per leg (direct to the fake upstream, through Detour,
#                 alternating; each lasts ~1.3 s): time to first frame p50 / p99 and what Detour adds (default 0)
#   HOLD_TLS=1    the fake upstream serves https (a certificate for localhost made here, Detour trusting it through
#                 javax.net.ssl.trustStore); the fake then comes from FAKE_JAR (default: the jar under test), for
#                 jars whose fake has no https; no single streams (their direct leg is http)
#   HOLD_MEMORY   a path prefix: during the last hold, Detour's and MariaDB's /proc status (.status, .mariadb),
#                 a class histogram of the live heap (.histo), the native memory summary when the flags turn
#                 it on (.nmt) and, with HOLD_DUMP=1, a heap dump (.hprof; read it with bench/heap-owners.py)
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$(readlink -f "${1:-$ROOT/target/detour.jar}")"
HOLDS="${2:-10}"
JAVA="${HOLD_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
J25="${BENCH_CLIENT_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin"
HDR="$HOME/.m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar"
WORK="$(mktemp -d "$ROOT/target/hold.XXXX")" # not under /tmp: Detour refuses a data dir there
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$WORK/data"; }
trap cleanup EXIT
[[ -f "$JAR" ]] || { echo "no $JAR (./mvnw -q -DskipTests package)" >&2; exit 1; }
[[ -f "$HDR" ]] || { echo "no $HDR (./mvnw test-compile fetches it)" >&2; exit 1; }
"$J25/javac" --release 21 -encoding UTF-8 -cp "$HDR" -d "$WORK/classes" "$ROOT"/bench/src/dev/detour/bench/*.java || exit 1
ulimit -n "$(ulimit -Hn)"
source "$ROOT/bench/lib.sh"
flags=(-Xmx512m ${HOLD_FLAGS:-})
if [[ "${HOLD_TLS:-0}" == 1 ]]; then
  "$J25/keytool" -genkeypair -alias upstream -keyalg EC -groupname secp256r1 -dname CN=localhost -ext SAN=dns:localhost \
    -validity 2 -keystore "$WORK/tls.p12" -storetype PKCS12 -storepass changeit -keypass changeit >/dev/null 2>&1 || exit 1
  start_fake_upstream "$J25/java" "$WORK/fake.log" "$WORK/tls.p12"
  UPSTREAM="https://localhost:$FAKE_PORT"
  flags+=(-Djavax.net.ssl.trustStore="$WORK/tls.p12" -Djavax.net.ssl.trustStorePassword=changeit)
  HOLD_SINGLE=0
else
  start_fake_upstream "$J25/java" "$WORK/fake.log"
  UPSTREAM="http://127.0.0.1:$FAKE_PORT"
fi
PORT="$(free_port)"
TOKEN="$(new_token hold)"
# one loopback client stands for 1,000: lift X-4's per-address cap, as bench/run.sh does
DETOUR_MAX_CONNECTIONS_PER_ADDRESS=100000 start_detour "$JAVA" "$WORK/data" "$PORT" "$WORK/detour.log" "${flags[@]}"
bench_group
for n in 1 2 3 4; do
  add_account "stream-$n" bench-stream "$UPSTREAM" '"failure_policy":{"cooldown_enabled":true}'
done
new_key
ticks="$(getconf CLK_TCK)"
MARIADB_PID="$(pgrep -P "$DETOUR_PID" mariadbd | head -1)"
memory() { # during the last hold: what Detour's memory holds
  local jdk; jdk="$(dirname "$JAVA")"
  sleep 3
  grep -E 'VmRSS|RssAnon|RssFile|Threads' "/proc/$DETOUR_PID/status" >"$HOLD_MEMORY.status"
  grep -E 'VmRSS|RssAnon|RssFile|Threads' "/proc/$MARIADB_PID/status" >"$HOLD_MEMORY.mariadb"
  "$jdk/jcmd" "$DETOUR_PID" VM.native_memory summary >"$HOLD_MEMORY.nmt" 2>&1
  "$jdk/jmap" -histo:live "$DETOUR_PID" | head -40 >"$HOLD_MEMORY.histo"
  [[ -z "${HOLD_DUMP:-}" ]] || "$jdk/jmap" -dump:live,format=b,file="$HOLD_MEMORY.hprof" "$DETOUR_PID" >/dev/null
}
echo "$(basename "$JAR") on $JAVA ${flags[*]}; ${HOLD_STREAMS:-1000} streams per hold of ${HOLD_MS:-5000} ms from $UPSTREAM"
pump_thread() { # the stream pump's thread id in Detour (comm is cut to 15 characters), empty without one
  grep -l '^detour-stream-p' /proc/"$DETOUR_PID"/task/*/comm 2>/dev/null | head -1 | awk -F/ '{print $5}'
}
for ((h = 1; h <= HOLDS; h++)); do
  PUMP_TID="$(pump_thread)"
  pump_before="$([[ -n "$PUMP_TID" ]] && cpu "$DETOUR_PID/task/$PUMP_TID" || echo 0)"
  before="$(cpu "$DETOUR_PID")"
  t0="$(date +%s%N)"
  db_before="$(cpu "$MARIADB_PID")"
  [[ -z "${HOLD_MEMORY:-}" || $h != "$HOLDS" ]] || { memory & MEMORY_PID=$!; }
  out="$("$J25/java" -XX:+UseParallelGC -Xmx1g -cp "$WORK/classes:$HDR" dev.detour.bench.Bench hold "${HOLD_STREAMS:-1000}" 2000 \
    "${HOLD_MS:-5000}" "detour=$PORT=$KEY" 2>&1)"
  after="$(cpu "$DETOUR_PID")"
  wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  pump_after="$([[ -n "$PUMP_TID" ]] && cpu "$DETOUR_PID/task/$PUMP_TID" || echo 0)"
  db_after="$(cpu "$MARIADB_PID")"
  done_="$(awk -F= '/\.streams_completed=/ {print $2}' <<<"$out")"
  [[ "${done_:-0}" -gt 0 ]] || { echo "hold $h: no stream completed" >&2; echo "$out" >&2; exit 1; }
  echo "hold $h: $done_ completed, $(awk -F= '/\.median_receiving=/ {print $2}' <<<"$out") receiving (median)," \
    "TTFT p50 / p90 / p99 $(awk -F= '/\.ttft\.p50_us=/ {print int($2 / 1000)}' <<<"$out")" \
    "/ $(awk -F= '/\.ttft\.p90_us=/ {print int($2 / 1000)}' <<<"$out") / $(awk -F= '/\.ttft\.p99_us=/ {print int($2 / 1000)}' <<<"$out") ms," \
    "gap p99 $(awk -F= '/\.gap\.p99_us=/ {print int($2 / 1000)}' <<<"$out") ms, fewest receiving $(awk -F= '/\.min_receiving=/ {print $2}' <<<"$out")," \
    "$(( (after - before) * 1000000 / ticks / done_ )) µs Detour CPU per stream (MariaDB $(( (db_after - db_before) * 1000000 / ticks / done_ ))), RSS $(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$DETOUR_PID/status") MiB," \
    "stream pump thread $(( (pump_after - pump_before) * 100 * 1000 / ticks / wall_ms )) % of a core"
done
if [[ "${HOLD_SINGLE:-0}" -gt 0 ]]; then # N-7's other half: single streams after the holds, legs alternating
  out="$("$J25/java" -XX:+UseParallelGC -Xmx1g -cp "$WORK/classes:$HDR" dev.detour.bench.Bench streams 20 "$HOLD_SINGLE" \
    "direct=$FAKE_PORT" "detour=$PORT=$KEY" 2>&1)"
  p() { awk -F= -v k="ttft.$1.$2_us" '$1 == k {print $2}' <<<"$out"; }
  echo "single streams ($HOLD_SINGLE per leg): TTFT p50 direct $(p direct p50) µs, Detour $(p detour p50) µs," \
    "added $(( $(p detour p50) - $(p direct p50) )) µs; p99 added $(( $(p detour p99) - $(p direct p99) )) µs"
fi
# the last hold's memory look, not Detour and the fake upstream (they run until the exit trap stops them)
[[ -z "${MEMORY_PID:-}" ]] || wait "$MEMORY_PID"
