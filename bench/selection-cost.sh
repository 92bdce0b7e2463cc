#!/usr/bin/env bash
# N-10: per-request selection work for 4, 50, 200 and 1,000 accounts (time and bytes allocated per plan).
#     bench/selection-cost.sh [ROUNDS=200000]
# Runs dev.detour.bench.SelectionCost from the test classes (built here when missing) on BENCH_JAVA_HOME
# (default: the java on PATH). Bytes per plan are machine-independent; nanoseconds compare within a run.
exec "$(dirname "${BASH_SOURCE[0]}")/test-main.sh" dev.detour.bench.SelectionCost "${1:-200000}"
