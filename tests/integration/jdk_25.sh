#!/usr/bin/env bash
# jdk_25.sh - the JDK-dependent suites on JDK 25: scripts/self_test.sh --full
# (the hand-derived counts on class files of javac 25, get_score.sh end to
# end, the refusal and determinism checks of adversarial.sh) passes, and the
# bundled example scores on 25 with the JDK 25 table, exactly, with the same
# bytecode count as on the default JDK, and the JVM suites of the list
# below pass on 25 too. jdk25_counting.sh and calibrate_jdk25.sh run the
# other JVM suites on 25, so that every suite that runs a JVM runs on both
# JDKs, each once.
# JDK 25 is PSF_JDK25_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64 (Temurin
# is no Debian package); without it the test says so loudly and exits 77.
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
require_jdk25

# --- the self-test, full ------------------------------------------------------------
out=$(JAVA_HOME=$JDK25 "$PSF_ROOT/scripts/self_test.sh" --full --json 2>"$TEST_TMP/err") && rc=0 || rc=$?
expect_eq "self-test on 25: exit 0" "$rc" 0
expect_eq "self-test on 25: verdict pass" "$(jq -r .verdict <<<"$out")" pass
expect_eq "self-test on 25: feature version 25" "$(jq -r .jdk.feature <<<"$out")" 25
expect_eq "self-test on 25: three suites, none failed" "$(jq -c '[.suites[] | .failed]' <<<"$out")" "[0,0,0]"
expect_eq "self-test on 25: the JDK 25 table" "$(jq -r .cost_table.path <<<"$out")" "$PSF_ROOT/config/costs-jdk25.xml"
jq -r '.suites[] | .failures[]' <<<"$out" 2>/dev/null | sed 's/^/  /'

# --- the bundled example on 25 ----------------------------------------------------------
EX=$TEST_TMP/examples
mkdir -p "$EX"
# class files of javac 25 (major 69) as a course on 25 has them, and of its
# --release 17 for the same class file on both JDKs
"$JDK25/bin/javac" -d "$EX" "$PSF_ROOT/examples/Sorting.java"
"$JDK25/bin/javac" --release 17 -d "$EX/17" "$PSF_ROOT/examples/Sorting.java"
gs() { "$PSF_ROOT/scripts/get_score.sh" --classpath "${CP:-$EX}" --main Sorting --method Sorting.insertionSort --json \
  --program-output /dev/null "$@" -- 200; }
out=$(JAVA_HOME=$JDK25 gs 2>"$TEST_TMP/err") && rc=0 || rc=$?
expect_eq "example on 25: exit 0" "$rc" 0
expect_eq "example on 25: scored with the JDK 25 table, exact" \
  "$(jq -r '"\(.status) \(.cost_table.path) \(.approximate) \(.table_jdk_mismatch)"' <<<"$out")" \
  "ok $PSF_ROOT/config/costs-jdk25.xml false false"
expect_match "example on 25: a score" "$(jq -r .score <<<"$out")" '^[1-9][0-9]*$'
b25=$(JAVA_HOME=$JDK25 CP=$EX/17 gs --costs none 2>/dev/null | jq -r .score)
bdef=$(CP=$EX/17 gs --costs none 2>/dev/null | jq -r .score)
expect_match "example: counted on the default JDK" "$bdef" '^[1-9][0-9]*$'
expect_eq "example: the same bytecodes on 25 as on JDK $(psf_jdk_feature "$JAVA")" "$b25" "$bdef"

# --- the rest of the JVM-dependent suites, on 25 ------------------------------------
# get_score.sh's options, limits, outputs, signing and process hygiene
# (agent_counts.sh and adversarial.sh ran in the self-test, agent_counts.sh
# on class files of javac 25), natives charged by size, the reports (pages,
# per-line costs, flame graph, JUnit, batches), and the rewritten classes
# (the JDK's own java.util of 25 included). The other JVM suites on 25 are
# jdk25_counting.sh's (the scheduling of threaded code and the fast
# engine), which runs in the other lane of make test, beside this one, and
# calibrate_jdk25.sh's: they time kernels and run alone, after the lanes.
suites=()
for t in "$PSF_ROOT"/tests/integration/agent_*.sh "$PSF_ROOT"/tests/integration/adversarial_natives.sh \
  "$PSF_ROOT"/tests/integration/reports_*.sh "$PSF_ROOT"/tests/integration/instrument_jvm.sh; do
  [ "${t##*/}" = agent_counts.sh ] || suites+=("$t")
done
suites_on_jdk25 "${suites[@]}"

finish
