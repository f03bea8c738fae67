#!/usr/bin/env bash
# jdk_virtual_threads.sh - on a JDK with virtual threads (21 and later),
# moving a method's work onto them never makes its score cheaper: the same
# sum done in the method and on a platform thread is scored (the platform
# thread's work counted), and done on a virtual thread, through a
# virtual-thread-per-task executor or fanned out over several virtual
# threads it is refused with status virtual_threads (27) and no score.
# On 25, structured fan-out (StructuredTaskScope, a preview API) cannot run
# at all: its class files need --enable-preview, which get_score.sh never
# passes (bad_class_file, 23). Work handed to a virtual thread that main
# started before the method is refused as virtual_threads (27).
# The JDK: the default one when it is 21 or later and supported, else PSF_JDK25_HOME or
# /usr/lib/jvm/temurin-25-jdk-amd64; without one, a loud skip (exit 77).
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
jdk_at_least 21 "VIRTUAL THREADS"
CP=$TEST_TMP/classes
mkdir -p "$CP"
"$JDK/bin/javac" -d "$CP" "$PSF_ROOT/tests/fixtures/jdk21/VirtualWork.java"

# score MODE: JSON in $TEST_TMP/out, the exit code echoed
score() {
  JAVA_HOME=$JDK "$PSF_ROOT/scripts/get_score.sh" --classpath "$CP" --main VirtualWork --method VirtualWork.work \
    --json --costs none --program-output /dev/null -- "$1" 100000 >"$TEST_TMP/out" 2>"$TEST_TMP/err" && echo 0 || echo $?
}
rc=$(score inline)
expect_eq "in the method: scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
inline=$(jq -r .score "$TEST_TMP/out")
rc=$(score platform)
expect_eq "platform thread: scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
platform=$(jq -r .score "$TEST_TMP/out")
if [ "$platform" -ge "$inline" ] 2>/dev/null; then
  pass "platform thread: its work counted ($platform >= $inline)"
else
  fail "platform thread: its work counted" "$platform < $inline"
fi
# without PSF the virtual modes compute the same sum (the fixture works)
for mode in inline virtual executor fanout; do
  expect_eq "$mode: the sum without PSF" "$("$JDK/bin/java" -cp "$CP" VirtualWork "$mode" 100000)" 4999950000
done
for mode in virtual executor fanout; do
  rc=$(score "$mode")
  expect_eq "$mode: refused, exit 27" "$rc/$(jq -r .status "$TEST_TMP/out")" "27/virtual_threads"
  expect_eq "$mode: no score" "$(jq -r .score "$TEST_TMP/out")" null
  expect_match "$mode: says why" "$(jq -r .message "$TEST_TMP/out")" "started a virtual thread.*not counted"
done

# --- a virtual thread started before the method ----------------------------------------
# not stopped at its start (main is not counted), but its code runs mounted
# on a carrier, where no step is posted: a carrier that begins to run it
# (VirtualThread.runContinuation) while the method runs ends the run as
# virtual_threads, also for a sum of 100 numbers (a few hundred bytecodes,
# which a limit on the carrier's CPU time alone would let pass). The
# carrier's own start-up (the scheduler starts it when the work is handed
# over) is charged to the bystanders' allowance; the carrier's entries stay
# watched past it, so it is virtual_threads every time, never
# hidden_threads. A virtual thread still spinning in the queue's hand-off
# when the method begins is mounted already (no entry to see): refused at
# the method's start. The sum of 100 runs five times: about one run in ten
# ended as hidden_threads or, mounted already, scored ok, before both.
"$JDK/bin/javac" -d "$CP" "$PSF_ROOT/tests/fixtures/jdk21/HandedToVirtual.java"
for n in 100000 100 100 100 100 100; do
  rc=0
  JAVA_HOME=$JDK "$PSF_ROOT/scripts/get_score.sh" --classpath "$CP" --main HandedToVirtual --method HandedToVirtual.work \
    --json --costs none --program-output /dev/null -- "$n" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
  expect_eq "handed to an earlier virtual thread (n=$n): refused as virtual_threads, exit 27" \
    "$rc/$(jq -r .status "$TEST_TMP/out")" 27/virtual_threads
  expect_eq "handed to an earlier virtual thread (n=$n): no score" "$(jq -r .score "$TEST_TMP/out")" null
  expect_match "handed to an earlier virtual thread (n=$n): names the carrier" "$(jq -r .message "$TEST_TMP/out")" \
    "thread 'ForkJoinPool-[0-9]+-worker-[0-9]+'"
done

# --- structured fan-out: a preview API on 21 and 25 ------------------------------------
if [ "$(psf_jdk_feature "$JDK/bin/java")" = 25 ]; then
  SP=$TEST_TMP/preview
  mkdir -p "$SP"
  "$JDK/bin/javac" --enable-preview --release 25 -Xlint:-preview -d "$SP" "$PSF_ROOT/tests/fixtures/jdk21/StructuredFan.java" 2>/dev/null
  expect_eq "structured fan-out: the sum with --enable-preview, without PSF" \
    "$("$JDK/bin/java" --enable-preview -cp "$SP" StructuredFan 100000)" 4999950000
  rc=0
  JAVA_HOME=$JDK "$PSF_ROOT/scripts/get_score.sh" --classpath "$SP" --main StructuredFan --method StructuredFan.work \
    --json --costs none --program-output /dev/null -- 100000 >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
  expect_eq "structured fan-out: not run, exit 23" "$rc/$(jq -r .status "$TEST_TMP/out")" "23/bad_class_file"
  expect_match "structured fan-out: says why" "$(jq -r .message "$TEST_TMP/out")" "Preview features are not enabled"
else
  echo "# structured fan-out: StructuredTaskScope.open is JDK 25's API; not checked on this JDK"
fi

finish
