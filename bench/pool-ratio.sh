#!/usr/bin/env bash
# N-10's ratio as a quick A/B (not a report): one cold Detour with two groups on nginx `return 200` — 4 accounts, and
# 200 (190 mapping the model and one other, 10 two other models), as bench/run.sh's pool leg — and a key for each
# with run.sh's limits; then wrk -t2 -c16 in 5 s slices alternating the 4-account key and the 200-account key, and per
# pair the ratio 200 / 4 and Detour's CPU per request for each. Slices next to each other in one process cancel most of
# a shared VM's drift, which separate runs of bench/slices.sh (±10 % between legs of one jar) do not. After each
# slice it waits until Detour's event writer holds nothing (as bench/run.sh does after a round) and gives the rate with
# that catch-up counted (requests ÷ (5 s + catch-up): served *and stored*, what N-10 is judged on) beside the served
# one, and at the end how often the events spilled to the journal (the writer fell a memory queue behind).
#
#     bench/pool-ratio.sh [JAR=target/detour.jar] [PAIRS=10] [WARM_PAIRS=6]
#
#   POOL_JAVA    the java that runs Detour (default Java 17); POOL_FLAGS its flags (default: bin/jvm-flags)
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$(readlink -f "${1:-$ROOT/target/detour.jar}")"
PAIRS="${2:-10}"
WARM="${3:-6}"
JAVA="${POOL_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
command -v wrk >/dev/null && command -v nginx >/dev/null || { echo "pool-ratio.sh needs wrk and nginx (apt-get install wrk nginx)" >&2; exit 1; }
[[ -f "$JAR" ]] || { echo "no $JAR (./mvnw -q -DskipTests package)" >&2; exit 1; }
source "$ROOT/bench/lib.sh"
source "$ROOT/bench/nginx-conf.sh"
PIDS=()
WORK="$(mktemp -d "$ROOT/target/pool-ratio.XXXX")" # not under /tmp: Detour refuses a data dir there
mkdir -p "$WORK/nginx/tmp"
cleanup() {
  [[ -f "$WORK/nginx/nginx.pid" ]] && kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null
  for p in "${PIDS[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
UPSTREAM_PORT="$(free_port)"
json="$("$JAVA" -cp "$JAR" dev.detour.fake.Main bench-json)"
{ nginx_conf_head "$WORK/nginx"; cat <<EOC
  server {
    listen 127.0.0.1:$UPSTREAM_PORT;
    location = /v1/chat/completions { default_type application/json; return 200 '$json'; }
  }
}
EOC
} >"$WORK/nginx/nginx.conf"
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" || exit 1
PORT="$(free_port)"
TOKEN="$(new_token pool-ratio)"
# shellcheck disable=SC2046 # the flags are words
start_detour "$JAVA" "$WORK/data" "$PORT" "$WORK/detour.log" ${POOL_FLAGS:-$("$ROOT/bin/jvm-flags")}
account() { # name group model second-model
  admin POST /admin/api/accounts "{\"name\":\"$1\",\"group\":\"$2\",\"platform\":\"openai\",\"base_url\":\"http://127.0.0.1:$UPSTREAM_PORT\",\"api_key\":\"sk-bench-$1-0001\",\"model_mappings\":[{\"from\":\"$3\",\"to\":\"$3\"},{\"from\":\"$4\",\"to\":\"$4\"}],\"weight\":10,\"failure_policy\":{\"cooldown_enabled\":true}}" >/dev/null \
    || { echo "POST /admin/api/accounts failed ($1)" >&2; exit 1; }
}
admin POST /admin/api/groups '{"name":"bench"}' >/dev/null && admin POST /admin/api/groups '{"name":"pool"}' >/dev/null \
  || { echo "POST /admin/api/groups failed" >&2; exit 1; }
for n in 1 2 3 4; do account "json-$n" bench bench-json "other-$n"; done
for n in $(seq 1 190); do account "pool-$n" pool bench-json "other-$n"; done
for n in $(seq 191 200); do account "pool-$n" pool "other-$n" "other-b-$n"; done
limits='"rpm_limit":1000000000,"tpm_limit":1000000000000,"concurrency_limit":100000,"spend_windows":{"5h":1000000000000000,"day":1000000000000000}'
new_key "{\"name\":\"four\",\"groups\":{\"include_future\":false,\"include\":[\"bench\"]},$limits}"
FOUR="$KEY"
new_key "{\"name\":\"pool\",\"groups\":{\"include_future\":false,\"include\":[\"pool\"]},$limits}"
POOL="$KEY"
ticks="$(getconf CLK_TCK)"
slice() { # key → "req/s µs-of-CPU-per-request stored-req/s catch-up-ms"
  local before after out requests caught
  before="$(cpu "$DETOUR_PID")"
  out="$(BENCH_BEARER="$1" wrk -t2 -c16 -d5s -s "$ROOT/bench/post.lua" "http://127.0.0.1:$PORT/v1/chat/completions")"
  after="$(cpu "$DETOUR_PID")"
  if grep -q "Non-2xx" <<<"$out"; then echo "$(grep Non-2xx <<<"$out") — not a measurement" >&2; exit 1; fi
  requests="$(sed -n 's/^wrk.requests=//p' <<<"$out")"
  caught="$(writer_catch_up_ms)"
  echo "$(( requests / 5 )) $(( requests > 0 ? (after - before) * 1000000 / ticks / requests : 0 ))" \
    "$(( requests * 1000 / (5000 + caught) )) $caught"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
echo "$(basename "$JAR") on $JAVA; $WARM warm-up pairs, then $PAIRS measured ($(date -u +%H:%M) UTC)"
for ((w = 1; w <= WARM; w++)); do slice "$FOUR" >/dev/null; slice "$POOL" >/dev/null; done
ratios=()
stored_ratios=()
for ((p = 1; p <= PAIRS; p++)); do
  read -r r4 c4 s4 k4 <<<"$(slice "$FOUR")"
  read -r r200 c200 s200 k200 <<<"$(slice "$POOL")"
  ratio="$(awk -v a="$r200" -v b="$r4" 'BEGIN { printf "%.3f", a / b }')"
  stored="$(awk -v a="$s200" -v b="$s4" 'BEGIN { printf "%.3f", a / b }')"
  ratios+=("$ratio")
  stored_ratios+=("$stored")
  echo "pair $p: 4 accounts $r4 req/s at $c4 µs CPU per request, $s4 stored (catch-up $k4 ms);" \
    "200 accounts $r200 req/s at $c200 µs, $s200 stored ($k200 ms); ratio $ratio, stored $stored"
done
echo "median ratio 200 / 4: $(printf '%s\n' "${ratios[@]}" | median); stored: $(printf '%s\n' "${stored_ratios[@]}" | median)"
echo "spills to the journal: $(grep -c 'request events spill to the journal' "$WORK/detour.log")"
