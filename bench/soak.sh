#!/usr/bin/env bash
# The resilience soak (SPEC D-1…D-5, "Survive Detour's own dependencies"). One command, from the
# repository root:
#
#     bench/soak.sh
#
# Runs the built jar as a real process with its embedded MariaDB and, for SOAK_MINUTES (30), sends mixed
# buffered and streaming traffic to two accounts, one behind a TCP fault proxy whose fault changes every
# SOAK_FAULT_EVERY_S (30 s: reset, truncate, stall, drip, …), freezes mariadbd (SIGSTOP) for SOAK_FREEZE_S
# (20 s) every SOAK_FREEZE_EVERY_MIN (5 min), and sends one SIGTERM + restart half-way. Reports requests
# sent / answered vs request events logged (exit 1 when an answered request is missing from the log),
# heap, RSS and threads every 10 s, and success p50/p99 in and out of the freezes, to
# target/soak-results.md (SOAK_REPORT). Knobs: SOAK_MINUTES, SOAK_CLIENTS (8), SOAK_FAULT_EVERY_S,
# SOAK_FREEZE_EVERY_MIN, SOAK_FREEZE_S; SOAK_JAVA_HOME (the JDK for Detour and the driver; default: the
# java on PATH). It uses the test kit's fake upstream, fault proxy and process harness (one of each).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JAVA_HOME_SOAK="${SOAK_JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
if [[ ! -f target/detour.jar || ! -d target/test-classes/dev/detour/testkit ]]; then
  ./mvnw -B -ntp -q -DskipTests package
fi
OUT="target/soak-classes"
rm -rf "$OUT" && mkdir -p "$OUT"
CP="target/test-classes:target/detour.jar"
"$JAVA_HOME_SOAK/bin/javac" -encoding UTF-8 -cp "$CP" -d "$OUT" bench/soak/dev/detour/bench/soak/Soak.java
exec "$JAVA_HOME_SOAK/bin/java" -cp "$OUT:$CP" dev.detour.bench.soak.Soak
