#!/usr/bin/env bash
# A quick A/B harness for one change (not a report): a cold Detour on a fresh data dir, one group of
# SLICES_ACCOUNTS accounts, one key, then wrk -t2 -c16 in 5 s slices; per slice req/s and Detour's CPU
# (user + system, µs) per request. Optionally a flight recording at the plateau, to see where requests wait.
#
#     bench/slices.sh [JAR=target/detour.jar] [SLICES=20] [JFR_FILE]
#
#   SLICES_JAVA       the java that runs Detour (default Java 17: /usr/lib/jvm/java-17-openjdk-amd64/bin/java)
#   SLICES_FLAGS      extra JVM flags (e.g. -XX:CICompilerCount=6); -Xmx512m always
#   SLICES_ACCOUNTS   accounts in the group (default 4)
#   SLICES_OTHERS     more accounts in the group that serve another model only (default 0), as in a mixed pool
#   SLICES_UPSTREAM   the accounts' base URL (default: Detour's own fake upstream, started here on JDK 25);
#                     an nginx `return 200` with a chat completion costs the machine less (see bench/run.sh)
#   SLICES_KEY        the key's JSON (default {"name":"bench"}; bench/run.sh's limits: see key_json there)
#   SLICES_BODY_FILE  the request body to send instead of the small one (a long context: `bench body 32 bench-json`)
#   SLICES_TAIL       idle 5 s slices after the load, each with Detour's CPU (work the load left behind; default 0)
#   SLICES_JFR_DELAY / SLICES_JFR_SECONDS   when the recording starts (s after start, default 75) and lasts (20)
#
# Each slice also says how many request events the writer stored in it (/metrics) and whether newer ones wait
# in the journal only ("spilled"): a writer slower than the requests costs CPU long after the load. The embedded
# MariaDB's CPU per request is given apart (it is a process of its own).
#
# Read a recording's waits (parks and monitor waits > 10 ms with settings=profile) by Detour frame:
#     jfr print --events jdk.ThreadPark,jdk.JavaMonitorEnter --stack-depth 8 FILE \
#       | grep line: | grep dev.detour | sort | uniq -c | sort -rn | head
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$(readlink -f "${1:-$ROOT/target/detour.jar}")"
SLICES="${2:-20}"
JFR="${3:-}"
JAVA="${SLICES_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
ACCOUNTS="${SLICES_ACCOUNTS:-4}"
WORK="$(mktemp -d "$ROOT/target/slices.XXXX")" # not under /tmp: Detour refuses a data dir there
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$WORK/data"; }
trap cleanup EXIT
command -v wrk >/dev/null || { echo "slices.sh needs wrk (apt-get install wrk)" >&2; exit 1; }
[[ -f "$JAR" ]] || { echo "no $JAR (./mvnw -q -DskipTests package)" >&2; exit 1; }
source "$ROOT/bench/lib.sh"
UPSTREAM="${SLICES_UPSTREAM:-}"
if [[ -z "$UPSTREAM" ]]; then
  start_fake_upstream "$J25" "$WORK/fake.log"
  UPSTREAM="http://127.0.0.1:$FAKE_PORT"
fi
PORT="$(free_port)"
TOKEN="$(new_token slices)"
flags=(-Xmx512m ${SLICES_FLAGS:-})
[[ -z "$JFR" ]] || flags+=("-XX:StartFlightRecording=filename=$JFR,settings=profile,delay=${SLICES_JFR_DELAY:-75}s,duration=${SLICES_JFR_SECONDS:-20}s")
start_detour "$JAVA" "$WORK/data" "$PORT" "$WORK/detour.log" "${flags[@]}"
bench_group
for ((n = 1; n <= ACCOUNTS; n++)); do add_account "json-$n" bench-json "$UPSTREAM"; done
for ((n = 1; n <= ${SLICES_OTHERS:-0}; n++)); do add_account "other-$n" bench-other "$UPSTREAM"; done
new_key "${SLICES_KEY:-}"
ticks="$(getconf CLK_TCK)"
MARIADB_PID="$(pgrep -P "$DETOUR_PID" mariadbd | head -1)" # the embedded database: its CPU is not in Detour's
db_cpu() { if [[ -n "$MARIADB_PID" ]]; then cpu "$MARIADB_PID"; else echo 0; fi; }
written=0
events() { # sets EVENTS: the events stored since the last call, and whether newer ones wait in the journal only
  local now spilled
  now="$(metric detour_events_written_total)"
  spilled="$(metric detour_event_journal_spilled)"
  EVENTS="$(( ${now%.*} - written )) events stored$([[ "${spilled%.*}" == 1 ]] && echo ", spilled")"
  written="${now%.*}"
}
events
echo "$(basename "$JAR") on $JAVA ${flags[*]}; $ACCOUNTS accounts on $UPSTREAM (and ${SLICES_OTHERS:-0} serving another model)"
for ((s = 1; s <= SLICES; s++)); do
  before="$(cpu "$DETOUR_PID")"
  db_before="$(db_cpu)"
  out="$(BENCH_BEARER="$KEY" BENCH_BODY_FILE="${SLICES_BODY_FILE:-}" wrk -t2 -c16 -d5s -s "$ROOT/bench/post.lua" "http://127.0.0.1:$PORT/v1/chat/completions")"
  after="$(cpu "$DETOUR_PID")"
  db_after="$(db_cpu)"
  events
  requests="$(sed -n 's/^wrk.requests=//p' <<<"$out")"
  if grep -q "Non-2xx" <<<"$out"; then echo "slice $s: $(grep Non-2xx <<<"$out") — not a measurement" >&2; exit 1; fi
  echo "slice $s: $(( requests / 5 )) req/s, $(( requests > 0 ? (after - before) * 1000000 / ticks / requests : 0 )) µs CPU per request (MariaDB $(( requests > 0 ? (db_after - db_before) * 1000000 / ticks / requests : 0 ))), $EVENTS"
done
for ((s = 1; s <= ${SLICES_TAIL:-0}; s++)); do
  before="$(cpu "$DETOUR_PID")"
  db_before="$(db_cpu)"
  sleep 5
  after="$(cpu "$DETOUR_PID")"
  db_after="$(db_cpu)"
  events
  echo "idle slice $s: $(( (after - before) * 1000 / ticks / 5 ))‰ of a core (MariaDB $(( (db_after - db_before) * 1000 / ticks / 5 ))‰), $EVENTS"
done
