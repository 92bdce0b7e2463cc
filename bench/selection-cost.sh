#!/usr/bin/env bash
# N-10: per-request selection work for 4, 50, 200 and 1,000 accounts (time and bytes allocated per plan).
#     bench/selection-cost.sh [ROUNDS=200000]
# Runs dev.detour.bench.SelectionCost from the test classes (built here when missing) on BENCH_JAVA_HOME
# (default: the java on PATH). Bytes per plan are machine-independent; nanoseconds compare within a run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[[ -f target/test-classes/dev/detour/bench/SelectionCost.class ]] || ./mvnw -B -ntp -q test-compile
[[ -f target/classpath.txt ]] || ./mvnw -B -ntp -q dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
JAVA="${BENCH_JAVA_HOME:+$BENCH_JAVA_HOME/bin/}java"
"$JAVA" -Xmx512m -cp "target/test-classes:target/classes:$(cat target/classpath.txt)" dev.detour.bench.SelectionCost "${1:-200000}"
