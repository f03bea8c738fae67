#!/usr/bin/env bash
# jdk_linkage.sh - the program's code that runs while the JVM links a call
# site, where HotSpot posts no single steps, is refused, never scored as
# free (agent/runtime/linkage.c): IndyBoot's insertion sort of 2000 ints moved into
# a bootstrap method of its own ends as hidden_work (31), naming the
# bootstrap and the call site, on JDK 17 and 25 and under both engines; the
# same sort in plain sight is scored, and in a dynamic constant's bootstrap,
# which HotSpot steps, counted. The class is rewritten with the JDK's
# class-file API (JDK 24 and later): without such a JDK, a loud skip (77).
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
jdk_at_least 24 "LINKAGE (CLASS-FILE API)"
CP=$TEST_TMP/classes GEN=$TEST_TMP/gen
mkdir -p "$CP/plain" "$CP/indy" "$CP/condy" "$GEN"
"$JDK/bin/javac" --release 17 -d "$CP/plain" "$PSF_ROOT/tests/fixtures/jdk25/IndyBoot.java"
cp "$CP/plain/IndyBoot.class" "$CP/indy/"
cp "$CP/plain/IndyBoot.class" "$CP/condy/"
"$JDK/bin/javac" -d "$GEN" "$PSF_ROOT/tests/fixtures/jdk25/MakeIndy.java"
"$JDK/bin/java" -cp "$GEN" MakeIndy "$CP/indy/IndyBoot.class"
"$JDK/bin/java" -cp "$GEN" MakeIndy "$CP/condy/IndyBoot.class" condy
expect_match "the rewritten class links through its own bootstrap" \
  "$("$JDK/bin/javap" -c -p -cp "$CP/indy" IndyBoot | grep invokedynamic)" "InvokeDynamic #[0-9]+:placeholder:\(\)I"
expect_eq "both compute the same without PSF" "$("$JDK/bin/java" -cp "$CP/indy" IndyBoot 2000)" \
  "$("$JDK/bin/java" -cp "$CP/plain" IndyBoot 2000)"

# score JAVA_HOME DIR ENGINE: JSON in $TEST_TMP/out, the exit code echoed
score() {
  JAVA_HOME=$1 "$PSF_ROOT/scripts/get_score.sh" --classpath "$CP/$2" --main IndyBoot --method IndyBoot.work \
    --engine "$3" --json --costs none --program-output /dev/null -- 2000 >"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
    echo 0 || echo $?
}
DEFAULT_JDK=$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVA")")")")
for jdk in "$JDK" "$DEFAULT_JDK"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  rc=$(score "$jdk" plain step)
  expect_eq "JDK $v: the sort in plain sight is scored" "$rc/$(jq -r .status "$TEST_TMP/out")" 0/ok
  plain=$(jq -r .score "$TEST_TMP/out")
  # a dynamic constant's bootstrap: HotSpot steps it, so the sort is counted
  rc=$(score "$jdk" condy step)
  expect_at_least "JDK $v: the sort in a dynamic constant's bootstrap is counted" "$rc" "$(jq -r .score "$TEST_TMP/out")" "$plain"
  for engine in step fast; do
    rc=$(score "$jdk" indy "$engine")
    expect_eq "JDK $v, $engine: the sort in a bootstrap is refused, exit 31" "$rc/$(jq -r .status "$TEST_TMP/out")" \
      31/hidden_work
    expect_eq "JDK $v, $engine: no score" "$(jq -r .score "$TEST_TMP/out")" null
    expect_match "JDK $v, $engine: names the bootstrap and the call site" "$(jq -r .message "$TEST_TMP/out")" \
      "^IndyBoot\.boot\(.* ran while the JVM linked the invokedynamic at offset [0-9]+ of IndyBoot\.work\(I\)J: hidden"
  done
done
finish
