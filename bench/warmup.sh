#!/usr/bin/env bash
# N-6 warm-up curve: how fast a freshly started Detour reaches its plateau. One command, from the repo root:
#
#     bench/warmup.sh
#
# For each leg (Java 17; JDK 25; JDK 25 with the build's AOT cache target/detour.aot) it provisions a data
# dir once (embedded MariaDB initialised, one group, 4 accounts on the fake upstream, one key), stops
# Detour, then starts it again cold — the start an operator's restart makes — and reports the time from
# `java` to the ready line and buffered throughput (wrk -t2 -c16, bench/post.lua) in 5 s slices for
# WARMUP_SLICES slices (default 18 = 90 s). The plateau is the best slice of the last third; the report says
# which slice first reached 80 % of it. Writes bench/warmup-results.md and prints it. The fake upstream is
# warmed first (WARMUP_FAKE_SECONDS of wrk straight at it, default 20), as a real upstream is warm.
#   WARMUP_LEGS         legs to run (default "17 25 25aot")
#   WARMUP_SLICES       5 s slices per leg (18)
#   JAVA17_HOME / JAVA25_HOME   (/usr/lib/jvm/java-17-openjdk-amd64 / /usr/lib/jvm/temurin-25-jdk-amd64)
#   DETOUR_FLAGS        Detour JVM flags (default: the production flags, bin/jvm-flags)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/target/detour.jar"
CACHE="$ROOT/target/detour.aot"
LEGS="${WARMUP_LEGS:-17 25 25aot}"
SLICES="${WARMUP_SLICES:-18}"
JAVA17="${JAVA17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java"
JAVA25="${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
FLAGS="${DETOUR_FLAGS:-$("$ROOT/bin/jvm-flags")}"
WORK="$ROOT/target/bench-warmup"
OUT="$ROOT/bench/warmup-results.md"
PIDS=()

cleanup() { for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
command -v wrk >/dev/null || { echo "warmup.sh needs wrk (apt-get install wrk)" >&2; exit 1; }
[[ -f "$JAR" ]] || (cd "$ROOT" && ./mvnw -B -ntp -q -DskipTests package)
rm -rf "$WORK"
mkdir -p "$WORK"

source "$ROOT/bench/lib.sh"
start_fake_upstream "$JAVA25" "$WORK/fake.log"
# The fake upstream is a JVM too, on the same two cores: cold, its own JIT took ~5 s of CPU from the first
# leg's first 10 s and served slower meanwhile (session 51: Java 17's third slice 12.7k against 14.3k warm).
# A real upstream is warm when Detour restarts, so the fake is warmed once, directly, before any leg.
wrk -t2 -c16 -d"${WARMUP_FAKE_SECONDS:-20}"s -s "$ROOT/bench/post.lua" \
  "http://127.0.0.1:$FAKE_PORT/v1/chat/completions" >/dev/null
TOKEN="$(new_token warmup)"

{
  echo "# Warm-up curve ($(date -u '+%F %H:%M UTC'), commit $(git -C "$ROOT" rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg))"
  echo
  echo "Buffered chat completions, wrk -t2 -c16, req/s per 5 s slice from the ready line; Detour $FLAGS."
  echo
} >"$OUT"

for leg in $LEGS; do
  java="$JAVA25"; extra=()
  [[ "$leg" == 17 ]] && java="$JAVA17"
  if [[ "$leg" == 25aot ]]; then
    [[ -f "$CACHE" ]] || { echo "no $CACHE: run bin/train-aot (JDK 25) first" >&2; continue; }
    extra=("-XX:AOTCache=$CACHE")
  fi
  data="$WORK/data-$leg"
  PORT="$(free_port)"
  start_detour "$java" "$data" "$PORT" "$data.log" $FLAGS
  bench_group
  for n in 1 2 3 4; do add_account "json-$n" bench-json "http://127.0.0.1:$FAKE_PORT"; done
  new_key
  stop_detour
  start_detour "$java" "$data" "$PORT" "$data.log" $FLAGS "${extra[@]}"
  rates=()
  for ((s = 1; s <= SLICES; s++)); do
    out="$(BENCH_BEARER="$KEY" wrk -t2 -c16 -d5s -s "$ROOT/bench/post.lua" "http://127.0.0.1:$PORT/v1/chat/completions")"
    r="$(sed -n 's/^wrk.requests=//p' <<<"$out")"
    # a refused request is fast: count only a slice where every answer was a 200
    if grep -q "Non-2xx or 3xx responses" <<<"$out"; then
      echo "leg $leg slice $s: $(grep 'Non-2xx' <<<"$out") — not a measurement" >&2; exit 1
    fi
    rates+=("$(( r / 5 ))")
  done
  stop_detour
  third=$(( SLICES / 3 > 0 ? SLICES / 3 : 1 ))
  plateau=0
  for ((i = SLICES - third; i < SLICES; i++)); do (( rates[i] > plateau )) && plateau=${rates[i]}; done
  # the median of the last third too: this VM's slices drift ±10-20 % within a leg, and the best of them is
  # the high edge of that noise (the 80 % mark is still taken against the best)
  median="$(printf '%s\n' "${rates[@]:SLICES-third}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
  first80="never"
  for ((i = 0; i < SLICES; i++)); do
    if (( rates[i] * 10 >= plateau * 8 )); then first80="slice $((i + 1)) ($(( (i + 1) * 5 )) s)"; break; fi
  done
  {
    echo "## leg $leg ($java ${extra[*]:-})"
    echo
    echo "ready after ${READY_MS} ms; plateau ${plateau} req/s (median of the last third ${median}); 80 % of it first in ${first80}"
    echo
    echo "| slice (5 s) | $(seq -s ' | ' 1 "$SLICES") |"
    echo "|---$(printf '|---:%.0s' $(seq 1 "$SLICES"))|"
    echo "| req/s | $(IFS='|'; echo "${rates[*]}" | sed 's/|/ | /g') |"
    echo
  } >>"$OUT"
done
cat "$OUT"
