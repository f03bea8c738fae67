#!/usr/bin/env bash
# jdk_foreign_calls.sh - on a JDK with the foreign function and memory API
# (22 and later), native code reached through it is refused in scoring mode
# (get_score.sh's --illegal-native-access=deny, scripts/lib/jdk.sh): a
# downcall through the native linker, a library lookup and a reinterpreted
# segment each throw IllegalCallerException in the method, which is scored
# without any native code having run. Without PSF, on the JDK's default
# options, the same calls work. The fixture is compiled by the JDK tested.
# The JDK: the default one when it is 22 or later and supported, else PSF_JDK25_HOME or
# /usr/lib/jvm/temurin-25-jdk-amd64; without one, a loud skip (exit 77).
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
jdk_at_least 22 "FOREIGN CALLS"
CP=$TEST_TMP/classes
mkdir -p "$CP"
"$JDK/bin/javac" -d "$CP" "$PSF_ROOT/tests/fixtures/jdk22/ForeignCall.java"

for mode in downcall library reinterpret; do
  # without PSF the call works, with the JDK's default options (a warning
  # at most): the refusal below is PSF's doing, and the fixture can tell
  expect_match "$mode: works without PSF" "$("$JDK/bin/java" -cp "$CP" ForeignCall "$mode" 2>/dev/null)" "^native ran: "
  rc=0
  JAVA_HOME=$JDK "$PSF_ROOT/scripts/get_score.sh" --classpath "$CP" --main ForeignCall --method ForeignCall.work \
    --json --costs none --program-output "$TEST_TMP/prog.out" -- "$mode" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
  expect_eq "$mode: scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
  expect_match "$mode: refused in the method" "$(cat "$TEST_TMP/prog.out")" "^refused: Illegal native access"
  expect_eq "$mode: no native code ran" "$(grep -c '^native ran' "$TEST_TMP/prog.out" || true)" 0
done

finish
