#!/usr/bin/env bash
# adversarial_probe.sh - the fast engine's counting state is out of the
# program's reach (docs/trust-model.md, agent/fast/probe/java/lang/Probe.java).
# The ProbeReach fixture finds the probe class the way a program can (its
# name off a heap dump of its own JVM; hence --max-output, which also
# bounds the files a run writes), then tries one route to the counters,
# and sums 0..N-1 in the measured method only when the route failed: a
# route that worked, or a probe called through it (the measured method's
# exit probe, which would end the count), leaves the score far below the
# sum's 9N + 9 bytecodes. Every route on both engines, on JDK 17 and on
# JDK 25 (PSF_JDK25_HOME).
set -eu
. "$(dirname "$0")/lib.sh"
adversarial_setup
N=200000
HONEST=$((9 * N + 9))
# String.hashCode of every name drawn for the probe class (agent/classfile/probename.h, PROBE_NAME_HASH)
HASH=1347634768

default_and_jdk25

# What the fast run prints for each route it scores itself: the class by a
# name the program knows is not found, the error thrown inside a probe
# names none, and strong encapsulation refuses the rest (java.lang is not
# open); sun.misc.Unsafe is disarmed; serialization sees no fields.
declare -A OUTCOME=(
  [forname]=nothing [overflow]=nothing [serial]=nothing
  [field]=java.lang.reflect.InaccessibleObjectException [get]=java.lang.IllegalAccessException
  [private]=java.lang.IllegalAccessException [varhandle]=java.lang.IllegalAccessException
  [unsafe]=java.lang.NullPointerException
)
# Routes that hand work() a probe to call, or define a class that calls one:
# the fast engine falls back, for the reason given, and the step engine
# (no probe class) scores the run.
declare -A FALLBACK=(
  [method]="looked up the probe class's members \(reflection\)"
  [handle]="looked up the probe class's members \(a method handle or VarHandle\)"
  [define]="class ProbeCaller cannot be instrumented: its constant pool names the probe class java/lang/Probe"
  [hidden]="class ProbeCaller/0x[0-9a-f]+ cannot be instrumented: its constant pool names the probe class java/lang/Probe"
)

for jdk in "${JDKS[@]}"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  for engine in fast step; do
    for route in forname overflow field get private varhandle unsafe serial method handle define hidden; do
      t="JDK $v, $engine, $route"
      JAVA_HOME=$jdk "$GS" --engine "$engine" --classpath "$FX" --main ProbeReach --method ProbeReach.work --json \
        --costs none --sandbox require --max-output 200000000 --program-output "$TEST_TMP/prog" -- "$route" "$N" \
        >"$TEST_TMP/out" 2>"$TEST_TMP/err" && rc=0 || rc=$?
      expect_at_least "$t: the sum is counted" "$rc" "$(jq -r .score "$TEST_TMP/out")" "$HONEST"
      said=$(grep -v '^probe class found' "$TEST_TMP/prog" || true)
      found=$(sed -n 's/^probe class found, hash //p' "$TEST_TMP/prog")
      if [ "$engine" = step ]; then
        expect_eq "$t: no probe class, nothing reached" "$found/$said" "/$route: nothing"
      elif [ -n "${FALLBACK[$route]:-}" ]; then
        expect_match "$t: falls back" "$(jq -r .fallback "$TEST_TMP/out")" "${FALLBACK[$route]}"
      else
        expect_eq "$t: the fast engine scores it" "$(jq -r '"\(.engine) \(.fallback)"' "$TEST_TMP/out")" "fast null"
        expect_eq "$t: refused" "$said" "$route: ${OUTCOME[$route]}"
        expect_eq "$t: the class found has the fixed hash" "$found" "$HASH"
      fi
    done
  done
done

finish
