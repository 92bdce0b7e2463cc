# Shared by the quick harnesses (hold.sh, slices.sh, warmup.sh, pool-ratio.sh, stack-ceiling.sh); sourced, not run. The caller sets
#   JAR     the Detour jar;  PIDS    an array the exit trap stops (each started process is added to it)
#   TOKEN   the admin token start_detour gives Detour and admin sends (new_token makes one)
#   PORT    the port admin talks to (start_detour's port, as the caller chose it)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

new_token() { echo "$1-admin-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"; } # prefix → a fresh admin token

start_fake_upstream() { # java log [PKCS12 key store: https] → FAKE_PORT: Detour's fake upstream in bench mode (its own
  # process group), from FAKE_JAR (default: the jar under test); returns once it listens
  FAKE_PORT="$(free_port)"
  setsid "$1" -Xmx1g -cp "${FAKE_JAR:-$JAR}" dev.detour.fake.Main bench "$FAKE_PORT" ${3:+"$3"} >"$2" 2>&1 &
  PIDS+=("$!")
  until (exec 3<>"/dev/tcp/127.0.0.1/$FAKE_PORT") 2>/dev/null; do
    kill -0 "${PIDS[-1]}" 2>/dev/null || { tail -20 "$2" >&2; exit 1; }
    sleep 0.05
  done
}

# A Detour from the jar on a data dir, in its own process group, waited for until its ready line. More
# DETOUR_* settings go in the environment of the call (VAR=value start_detour …).
start_detour() { # java data-dir port log flags... → DETOUR_PID, READY_MS
  local java="$1" data="$2" port="$3" log="$4"; shift 4
  local t0; t0="$(date +%s%N)"
  DETOUR_BIND=127.0.0.1 DETOUR_PORT="$port" DETOUR_DATA_DIR="$data" DETOUR_ADMIN_TOKEN="$TOKEN" \
    DETOUR_ADMIN_PASSWORD="bench-console-$RANDOM$RANDOM" setsid "$java" "$@" -jar "$JAR" >"$log" 2>&1 &
  DETOUR_PID=$!
  PIDS+=("$DETOUR_PID")
  until grep -q "^Detour is ready" "$log" 2>/dev/null; do
    kill -0 "$DETOUR_PID" 2>/dev/null || { tail -20 "$log" >&2; exit 1; }
    sleep 0.05
  done
  READY_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
}

stop_detour() { kill -TERM "$DETOUR_PID"; while kill -0 "$DETOUR_PID" 2>/dev/null; do sleep 0.1; done; }

admin() { # method path json → the admin API's answer (fails on an HTTP error)
  curl -sf -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data "$3" \
    "http://127.0.0.1:$PORT$2"
}

bench_group() { admin POST /admin/api/groups '{"name":"bench"}' >/dev/null || { echo "POST /admin/api/groups failed" >&2; exit 1; }; }

add_account() { # name model base-url [more JSON fields]: an account of the bench group mapping the model to itself
  admin POST /admin/api/accounts "{\"name\":\"$1\",\"group\":\"bench\",\"platform\":\"openai\",\"base_url\":\"$3\",\"api_key\":\"sk-bench-$1-0001\",\"model_mappings\":[{\"from\":\"$2\",\"to\":\"$2\"}],\"weight\":10${4:+,$4}}" >/dev/null \
    || { echo "POST /admin/api/accounts failed" >&2; exit 1; }
}

new_key() { # [key JSON] → KEY: the "key" field, not the first dtr- string (the key_hint "dtr-…abcd" comes before it)
  KEY="$(admin POST /admin/api/keys "${1:-{\"name\":\"bench\"\}}" | grep -o '"key" *: *"dtr-[^"]*"' | sed 's/.*"\(dtr-[^"]*\)"/\1/')"
  [[ -n "$KEY" ]] || { echo "POST /admin/api/keys returned no key" >&2; exit 1; }
}

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; } # pid → user + system ticks

metric() { curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/metrics" | awk -v m="$1" '$1 == m { print $2 }'; } # name → its value on /metrics

writer_catch_up_ms() { # → ms until Detour's event writer held nothing (memory queue empty, no spill); bench/run.sh's writer_catch_up
  local start behind depth spilled
  start="$(date +%s%N)"
  behind="$start"
  while true; do
    depth="$(metric detour_event_queue_depth)"
    spilled="$(metric detour_event_journal_spilled)"
    [[ "$depth" == 0 && "$spilled" == 0 ]] && break
    behind="$(date +%s%N)"
    ((behind - start < 300000000000)) || { echo "the event writer still behind after 300 s" >&2; exit 1; }
    sleep 0.05
  done
  echo $(((behind - start) / 1000000))
}
