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
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
UPSTREAM="${SLICES_UPSTREAM:-}"
if [[ -z "$UPSTREAM" ]]; then
  p_fake="$(free_port)"
  setsid "$J25" -cp "$JAR" dev.detour.fake.Main bench "$p_fake" >"$WORK/fake.log" 2>&1 &
  PIDS+=("$!")
  UPSTREAM="http://127.0.0.1:$p_fake"
fi
PORT="$(free_port)"
TOKEN="slices-admin-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
flags=(-Xmx512m ${SLICES_FLAGS:-})
[[ -z "$JFR" ]] || flags+=("-XX:StartFlightRecording=filename=$JFR,settings=profile,delay=${SLICES_JFR_DELAY:-75}s,duration=${SLICES_JFR_SECONDS:-20}s")
DETOUR_BIND=127.0.0.1 DETOUR_PORT="$PORT" DETOUR_DATA_DIR="$WORK/data" DETOUR_ADMIN_TOKEN="$TOKEN" \
  DETOUR_ADMIN_PASSWORD="slices-console-$RANDOM$RANDOM" setsid "$JAVA" "${flags[@]}" -jar "$JAR" >"$WORK/detour.log" 2>&1 &
DETOUR_PID=$!
PIDS+=("$DETOUR_PID")
until grep -q "^Detour is ready" "$WORK/detour.log" 2>/dev/null; do
  kill -0 "$DETOUR_PID" 2>/dev/null || { tail -20 "$WORK/detour.log" >&2; exit 1; }
  sleep 0.1
done
admin() { curl -sf -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data "$3" "http://127.0.0.1:$PORT$2"; }
admin POST /admin/api/groups '{"name":"bench"}' >/dev/null || { echo "POST /admin/api/groups failed" >&2; exit 1; }
add_account() { # name model: one account of the bench group on the upstream, mapping the model to itself
  admin POST /admin/api/accounts "{\"name\":\"$1\",\"group\":\"bench\",\"platform\":\"openai\",\"base_url\":\"$UPSTREAM\",\"api_key\":\"sk-bench-$1-0001\",\"model_mappings\":[{\"from\":\"$2\",\"to\":\"$2\"}],\"weight\":10}" >/dev/null \
    || { echo "POST /admin/api/accounts failed" >&2; exit 1; }
}
for ((n = 1; n <= ACCOUNTS; n++)); do add_account "json-$n" bench-json; done
for ((n = 1; n <= ${SLICES_OTHERS:-0}; n++)); do add_account "other-$n" bench-other; done
KEY="$(admin POST /admin/api/keys "${SLICES_KEY:-{\"name\":\"bench\"\}}" | grep -o '"key" *: *"dtr-[^"]*"' | sed 's/.*"\(dtr-[^"]*\)"/\1/')"
[[ -n "$KEY" ]] || { echo "POST /admin/api/keys returned no key" >&2; exit 1; }
ticks="$(getconf CLK_TCK)"
cpu() { awk '{ print $14 + $15 }' "/proc/${1:-$DETOUR_PID}/stat" 2>/dev/null || echo 0; } # user + system ticks
metric() { curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
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
  before="$(cpu)"
  db_before="$(db_cpu)"
  out="$(BENCH_BEARER="$KEY" BENCH_BODY_FILE="${SLICES_BODY_FILE:-}" wrk -t2 -c16 -d5s -s "$ROOT/bench/post.lua" "http://127.0.0.1:$PORT/v1/chat/completions")"
  after="$(cpu)"
  db_after="$(db_cpu)"
  events
  requests="$(sed -n 's/^wrk.requests=//p' <<<"$out")"
  if grep -q "Non-2xx" <<<"$out"; then echo "slice $s: $(grep Non-2xx <<<"$out") — not a measurement" >&2; exit 1; fi
  echo "slice $s: $(( requests / 5 )) req/s, $(( requests > 0 ? (after - before) * 1000000 / ticks / requests : 0 )) µs CPU per request (MariaDB $(( requests > 0 ? (db_after - db_before) * 1000000 / ticks / requests : 0 ))), $EVENTS"
done
for ((s = 1; s <= ${SLICES_TAIL:-0}; s++)); do
  before="$(cpu)"
  db_before="$(db_cpu)"
  sleep 5
  after="$(cpu)"
  db_after="$(db_cpu)"
  events
  echo "idle slice $s: $(( (after - before) * 1000 / ticks / 5 ))‰ of a core (MariaDB $(( (db_after - db_before) * 1000 / ticks / 5 ))‰), $EVENTS"
done
