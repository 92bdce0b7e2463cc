#!/usr/bin/env bash
# Runs a main class of the test classes (dev.detour.bench.*) on BENCH_JAVA_HOME (default: the java on PATH),
# building the test classes and the classpath file first when they are missing.
#     bench/test-main.sh CLASS [ARGS...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CLASS="$1"
shift
[[ -f "target/test-classes/${CLASS//.//}.class" ]] || ./mvnw -B -ntp -q test-compile
[[ -f target/classpath.txt ]] || ./mvnw -B -ntp -q dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
JAVA="${BENCH_JAVA_HOME:+$BENCH_JAVA_HOME/bin/}java"
exec "$JAVA" -Xmx512m -cp "target/test-classes:target/classes:$(cat target/classpath.txt)" "$CLASS" "$@"
