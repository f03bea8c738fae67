#!/usr/bin/env bash
# shellcheck disable=SC2016 # a script written out line by line, expanded when it runs
# jdk_trust.sh - a supported JDK that PSF's CI does not check (21) is scored
# with only after scripts/self_test.sh --full passed on that very build, with
# that very PSF build (docs/jdks.md, "Trusting a JDK that CI does not check").
#
# No JDK 21 can be had here, so the JDK under test is the default JDK behind
# a java launcher that reports feature version 21: everything the policy
# reads (the version, the JDK's files) is as a JDK 21 would show it, and the
# self-test really runs on it.
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
[ -e "$PSF_BUILD/fixtures/adversarial/.stamp" ] || { echo "needs make integration-fixtures"; exit 77; }
GS=$PSF_ROOT/scripts/get_score.sh
ST=$PSF_ROOT/scripts/self_test.sh
REAL_JAVA=$(readlink -f "$(command -v "$JAVA")")
REAL_HOME=$(dirname "$(dirname "$REAL_JAVA")")
[ "$(psf_jdk_feature "$REAL_JAVA")" = 17 ] || { echo "needs JDK 17 as the default JDK"; exit 77; }
export PSF_STATE_DIR=$TEST_TMP/state

# The JDK's tree as symbolic links (the launcher finds its libraries from
# where it was started), with a java of its own in bin/.
J21=$TEST_TMP/jdk-21
mkdir -p "$J21"
cp -rs "$REAL_HOME/." "$J21/"
rm "$J21/bin/java" # a link to the real launcher: never write through it
{
  echo '#!/usr/bin/env bash'
  echo 'for a in "$@"; do'
  echo '  if [ "$a" = -XshowSettings:properties ]; then'
  printf '%s\n' "    \"$REAL_JAVA\" \"\$@\" 2>&1 | sed 's/^\\( *java\\.specification\\.version = \\)17\$/\\121/' >&2"
  echo '    exit "${PIPESTATUS[0]}"'
  echo '  fi'
  echo 'done'
  echo "exec \"$REAL_JAVA\" \"\$@\""
} >"$J21/bin/java"
chmod +x "$J21/bin/java"
# and a release file of its own that says 21, as a JDK 21's does (the
# version is read there first)
rm "$J21/release"
sed 's/^JAVA_VERSION="17\([.0-9]*\)"$/JAVA_VERSION="21\1"/' "$REAL_HOME/release" >"$J21/release"
expect_eq "the stand-in JDK reports feature version 21" "$(psf_jdk_feature "$J21/bin/java")" 21
expect_eq "the stand-in JDK's launcher reports it too" \
  "$("$J21/bin/java" -XshowSettings:properties -version 2>&1 | psf_jdk_feature_of)" 21

CP=$TEST_TMP/classes
mkdir -p "$CP"
"$REAL_HOME/bin/javac" -nowarn -d "$CP" "$PSF_ROOT/tests/fixtures/agent/Loops.java"
# score JAVA_HOME: "status score exit-code message"
score() {
  local out rc=0
  out=$(JAVA_HOME=$1 "$GS" --classpath "$CP" --main Loops --method Loops.sum --costs none --json \
    --program-output /dev/null -- 1000 2>/dev/null) || rc=$?
  jq -r --arg rc "$rc" '"\(.status) \(.score) \($rc) \(.message // "")"' <<<"$out" 2>/dev/null || echo "no-JSON - $rc"
}

# --- before any self-test ----------------------------------------------------------
got=$(score "$J21")
expect_eq "JDK 21 without a record: refused as jdk_not_verified, exit 28" "$(cut -d' ' -f1,3 <<<"$got")" "jdk_not_verified 28"
expect_match "JDK 21 without a record: says why and what to run" "$got" \
  "is JDK 21, which PSF's CI does not check, and it has not passed PSF's self-test on this machine .*run JAVA_HOME=$J21 .*self_test.sh --full first"
expect_eq "an empty PSF_SELF_TEST_JDK lets nothing through" "$(PSF_SELF_TEST_JDK='' score "$J21" | cut -d' ' -f1)" jdk_not_verified
expect_eq "PSF_SELF_TEST_JDK naming another java lets this one not through" \
  "$(PSF_SELF_TEST_JDK=$REAL_JAVA score "$J21" | cut -d' ' -f1)" jdk_not_verified
psf_build_id "$PSF_ROOT" "$TEST_TMP/no-build" >/dev/null && rc=0 || rc=$?
expect_eq "a PSF build without its agent has no build id" "$rc" 1
expect_eq "refusing wrote nothing into the state directory" "$(find "$PSF_STATE_DIR" -type f 2>/dev/null | wc -l)" 0
expect_eq "JDK 17 (checked by CI) needs no record: 9009 bytecodes" "$(score "$REAL_HOME" | cut -d' ' -f1-2)" "ok 9009"

# --- the quick self-test records nothing --------------------------------------------
out=$(JAVA_HOME=$J21 "$ST" 2>&1) && rc=0 || rc=$?
expect_eq "quick self-test on JDK 21: passes" "$rc" 0
expect_match "quick self-test on JDK 21: says --full is needed" "$out" "get_score.sh accepts it only after --full passes here"
expect_eq "quick self-test on JDK 21: no record" "$(find "$PSF_STATE_DIR" -type f 2>/dev/null | wc -l)" 0
expect_eq "still refused after the quick self-test" "$(score "$J21" | cut -d' ' -f1)" jdk_not_verified

# --- the full self-test passes and records the build --------------------------------
JAVA_HOME=$J21 "$ST" --full --json >"$TEST_TMP/full.json" 2>"$TEST_TMP/full.err" && rc=0 || rc=$?
expect_eq "full self-test on JDK 21: passes" "$rc $(jq -r .verdict "$TEST_TMP/full.json")" "0 pass"
# which of its checks failed: the self-test's own temporary logs are gone
jq -r '.suites[] | select(.failed > 0) | "#   \(.name): \(.failures | join(" | "))"' "$TEST_TMP/full.json" 2>/dev/null
rec=$(jq -r .record "$TEST_TMP/full.json")
expect_eq "full self-test: the record is named by the JDK build" "$rec" \
  "$PSF_STATE_DIR/verified-jdks/$(psf_jdk_build_id "$J21/bin/java")"
expect_eq "full self-test: the record names the PSF build and the JDK" \
  "$(sed -n 's/^\(psf_build\|jdk_home\|feature\)=//p' "$rec" 2>/dev/null | tr '\n' ' ')" \
  "$(psf_build_id "$PSF_ROOT" "$PSF_BUILD") $J21 21 "
expect_eq "JDK 21 with its record: scored, 9009 bytecodes" "$(score "$J21" | cut -d' ' -f1-2)" "ok 9009"
# the JVM option variables print "Picked up ..." in java -version, but they
# are the caller's, not the JDK's (and the scored JVM runs without them)
expect_eq "the JVM option variables leave the JDK build id alone" \
  "$(JAVA_TOOL_OPTIONS=-Dpsf.a=1 _JAVA_OPTIONS=-Dpsf.b=1 JDK_JAVA_OPTIONS=-Dpsf.c=1 psf_jdk_build_id "$J21/bin/java")" \
  "$(psf_jdk_build_id "$J21/bin/java")"
expect_eq "JDK 21 with its record, JAVA_TOOL_OPTIONS set by the caller: scored" \
  "$(JAVA_TOOL_OPTIONS=-Dpsf.a=1 score "$J21" | cut -d' ' -f1-2)" "ok 9009"

# --- what the record does not cover -------------------------------------------------
OTHER_BUILD=$TEST_TMP/other-build
cp -r "$PSF_BUILD" "$OTHER_BUILD"
printf '\0' >>"$OTHER_BUILD/libpsfagent.so"
got=$(PSF_BUILD=$OTHER_BUILD score "$J21")
expect_eq "another PSF build: refused" "$(cut -d' ' -f1 <<<"$got")" jdk_not_verified
expect_match "another PSF build: says PSF changed" "$got" "passed the self-test with another build of PSF"
cp "$rec" "$TEST_TMP/record.saved"
sed -i 's/^psf_build=.*/psf_build=0000/' "$rec"
expect_eq "an edited record: refused" "$(score "$J21" | cut -d' ' -f1)" jdk_not_verified
cp "$TEST_TMP/record.saved" "$rec"
expect_eq "the record put back: scored" "$(score "$J21" | cut -d' ' -f1)" ok
rm "$J21/lib/server/libjvm.so"
cp "$REAL_HOME/lib/server/libjvm.so" "$J21/lib/server/libjvm.so"
printf '\0' >>"$J21/lib/server/libjvm.so"
got=$(score "$J21")
expect_eq "another JVM installed at the same path: refused" "$(cut -d' ' -f1 <<<"$got")" jdk_not_verified
expect_match "another JVM at the same path: not self-tested" "$got" "it has not passed PSF's self-test on this machine"

finish
