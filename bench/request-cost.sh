#!/usr/bin/env bash
# N-8 / N-7: bytes allocated per request by the whole App (every Detour thread), with and without per-key
# limits, an alert channel and a bridged account, and per relayed stream frame.
#     bench/request-cost.sh [ROUNDS=3000] [ACCOUNTS=4]
# Runs dev.detour.bench.RequestCost from the test classes (built here when missing) against the embedded
# MariaDB the tests use, on BENCH_JAVA_HOME (default: the java on PATH; use a Java 17: on 21+ Jetty serves on
# virtual threads, whose allocations the JVM does not report per thread). Bytes are machine-independent.
exec "$(dirname "${BASH_SOURCE[0]}")/test-main.sh" dev.detour.bench.RequestCost "${1:-3000}" "${2:-4}"
