-- wrk script for bench/run.sh: POST the bench's fixed chat completion request.
-- BENCH_BEARER (optional) is sent as "Authorization: Bearer ..." (the Detour key).
-- BENCH_BODY_FILE (optional) is a file whose bytes are the body instead (a Messages request, a long
-- context); the path is the URL's. BENCH_HEADERS (optional) adds headers, "Name:value|Name:value"
-- (a peer gateway told by headers where to send the request).
-- At the end it prints key=value lines that run.sh collects (see done()).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "detour-bench"
local bearer = os.getenv("BENCH_BEARER")
if bearer ~= nil and bearer ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. bearer
end
local extra = os.getenv("BENCH_HEADERS")
if extra ~= nil and extra ~= "" then
  for header in string.gmatch(extra, "[^|]+") do
    local name, value = string.match(header, "^([^:]+):(.*)$")
    wrk.headers[name] = value
  end
end
-- Same bytes as Payloads.requestBody("bench-json", false) in the Java client; BENCH_MODEL (optional,
-- bench/scale-out.sh) names another model.
local model = os.getenv("BENCH_MODEL") or "bench-json"
wrk.body = '{"model":"' .. model .. '","messages":[{"role":"user","content":"Say hello."}],"stream":false}'
local body_file = os.getenv("BENCH_BODY_FILE")
if body_file ~= nil and body_file ~= "" then
  local f = assert(io.open(body_file, "rb"))
  wrk.body = f:read("*a")
  f:close()
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("wrk.requests=%d\n", summary.requests))
  io.write(string.format("wrk.duration_us=%d\n", summary.duration))
  io.write(string.format("wrk.errors=%d\n", e.connect + e.read + e.write + e.status + e.timeout))
  io.write(string.format("wrk.p50_us=%d\n", latency:percentile(50)))
  io.write(string.format("wrk.p99_us=%d\n", latency:percentile(99)))
end
