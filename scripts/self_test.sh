#!/usr/bin/env bash
# self_test.sh - does PSF count exactly on the JDK at hand? Runs PSF's own
# checks against that JDK and prints a verdict.
#
# A score is only as good as the counting under it, and the counting rests on
# the JDK: its javac decides the bytecode, its interpreter posts the steps the
# agent counts, its options and APIs decide what the pinning and the refusals
# have to cover. So before a JDK is trusted (a new build of a supported one,
# or a feature version to add: docs/jdks.md), run this with JAVA_HOME
# pointing at it. It
#   1. compiles the count fixtures (tests/fixtures/agent) with that JDK's own
#      javac (the JDK's default release, as a student's build would),
#   2. runs tests/integration/agent_counts.sh on them: exact counts derived
#      by hand from the bytecode, per opcode, branch, allocation and call,
#   3. scores Loops.sum(1000) end to end through get_score.sh (sandboxed when
#      bubblewrap works, with the JDK's flags): 9 * 1000 + 9 bytecodes,
#   4. with --full, also runs tests/integration/adversarial.sh: the refusals
#      and determinism checks that depend on the JVM (Unsafe, processes,
#      native copies, threads, identity hashes over repeated runs, ...).
# The verdict is "pass" only when every check passed. A full pass on a
# supported JDK that PSF's CI does not check (PSF_VERIFIED_JDKS: 21) is
# recorded under the state directory ($PSF_STATE_DIR, else
# ~/.local/state/psf), named by the JDK build; get_score.sh accepts that JDK
# only with the record, and only from the same PSF build.
#
# Usage: scripts/self_test.sh [--full] [--json]
#   JAVA_HOME  the JDK to test (else java on PATH)
#   PSF_BUILD  the build directory (default: build); `make all` first, and
#              `make integration-fixtures` for --full
# Exit codes: 0 pass, 1 fail (do not score with this JDK), 2 usage,
#             3 cannot run (no java or javac, PSF not built).
set -u

PSF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PSF_BUILD=${PSF_BUILD:-$PSF_ROOT/build}
case $PSF_BUILD in /*) ;; *) PSF_BUILD=$PSF_ROOT/$PSF_BUILD ;; esac
# shellcheck source=lib/jdk.sh
. "$PSF_ROOT/scripts/lib/jdk.sh"

FULL=0
JSON=0
for arg in "$@"; do
  case $arg in
    --full) FULL=1 ;;
    --json) JSON=1 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "self_test.sh: unknown argument '$arg' (--full, --json, --help)" >&2; exit 2 ;;
  esac
done

# cannot MESSAGE: the self-test cannot run at all (exit 3).
cannot() {
  if [ "$JSON" = 1 ]; then
    jq -n --arg m "$1" '{verdict: "cannot_run", message: $m}'
  else
    echo "self_test.sh: cannot run: $1" >&2
  fi
  exit 3
}
command -v jq >/dev/null || { echo "self_test.sh: cannot run: jq is missing (scripts/install_deps.sh)" >&2; exit 3; }
command -v xmllint >/dev/null || cannot "xmllint is missing (scripts/install_deps.sh)"

# --- the JDK under test -------------------------------------------------------
# JAVA_HOME as given (its bin/javac is the one tested); java on PATH is
# followed to the JDK it belongs to.
if [ -n "${JAVA_HOME:-}" ]; then
  JDK_HOME=${JAVA_HOME%/}
  JAVA=$JDK_HOME/bin/java
  [ -x "$JAVA" ] || cannot "JAVA_HOME=$JAVA_HOME holds no bin/java"
else
  JAVA=$(command -v java) || cannot "no java on PATH and JAVA_HOME is not set"
  JAVA=$(readlink -f "$JAVA")
  JDK_HOME=$(dirname "$(dirname "$JAVA")")
fi
JAVAC=$JDK_HOME/bin/javac
[ -x "$JAVAC" ] || cannot "$JDK_HOME has no bin/javac (a JDK, not a JRE, is needed: its javac compiles the fixtures)"
FEATURE=$(psf_jdk_feature "$JAVA")
RUNTIME=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.runtime\.version = //p' | head -n 1)
[[ $FEATURE =~ ^[0-9]+$ ]] || cannot "$JAVA is Java '${FEATURE:-of unknown version}', not a JDK PSF can count on (17 or later)"
for f in libpsfagent.so psf-score psf-receive; do
  [ -e "$PSF_BUILD/$f" ] || cannot "$PSF_BUILD/$f is missing (run make)"
done
if [ "$FULL" = 1 ] && [ ! -e "$PSF_BUILD/fixtures/adversarial/.stamp" ]; then
  cannot "--full needs the adversarial fixtures: make integration-fixtures"
fi
if psf_jdk_supported "$FEATURE"; then SUPPORTED=true; else SUPPORTED=false; fi
IFS=$'\t' read -r TABLE TABLE_JDK < <(psf_jdk_table "$PSF_ROOT" "$FEATURE") || TABLE="" TABLE_JDK=""

if [ "$SUPPORTED" = true ] && ! psf_jdk_verified_by_ci "$FEATURE"; then NEEDS_RECORD=true; else NEEDS_RECORD=false; fi
# The builds under test, named before the checks run: a record may only vouch
# for what was checked, so a JDK or PSF rebuilt meanwhile gets none (below).
JDK_ID_BEFORE=$(psf_jdk_build_id "$JAVA" 2>/dev/null) || JDK_ID_BEFORE=""
PSF_ID_BEFORE=$(psf_build_id "$PSF_ROOT" "$PSF_BUILD" 2>/dev/null) || PSF_ID_BEFORE=""

TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-selftest.XXXXXXXX")
trap 'rm -rf "$TMP"' EXIT
# get_score.sh scores with this JDK while it is being checked, record or not
PSF_SELF_TEST_JDK=$(readlink -f "$JAVA")
export JAVA_HOME=$JDK_HOME PSF_BUILD PSF_SELF_TEST_JDK

SUITES=()   # one JSON object per check suite
# suite NAME LOG RC: record a suite from a lib.sh-style log ("ok - ...",
# "FAIL - ...", "N passed, M failed") and the script's exit code.
suite() {
  local name=$1 log=$2 rc=$3 passed failed
  passed=$(grep -c '^ok - ' "$log")
  failed=$(grep -c '^FAIL - ' "$log")
  # a script that stopped early (or was skipped) is a failure, even with no FAIL line
  if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
    failed=1
    echo "FAIL - $name ended with exit code $rc: $(tail -n 3 "$log" | tr '\n' ' ')" >>"$log"
  fi
  SUITES+=("$(grep '^FAIL - ' "$log" | jq -R . | jq -s -c --arg n "$name" --argjson p "$passed" --argjson f "$failed" \
    '{name: $n, passed: $p, failed: $f, failures: .}')")
  [ "$JSON" = 1 ] || printf '  %-58s %4d passed, %d failed\n' "$name" "$passed" "$failed"
  [ "$JSON" = 1 ] || grep '^FAIL - ' "$log" | sed 's/^/    /'
}

if [ "$JSON" != 1 ]; then
  echo "PSF self-test of JDK $RUNTIME (feature version $FEATURE) at $JDK_HOME"
fi

# 1-2. the hand-derived counts, on class files of this JDK's javac
FX=$TMP/fixtures
mkdir -p "$FX"
rc=0
"$JAVAC" -nowarn -d "$FX" "$PSF_ROOT"/tests/fixtures/agent/*.java >"$TMP/javac.log" 2>&1 || rc=$?
if [ "$rc" != 0 ]; then
  { echo "FAIL - javac of JDK $FEATURE compiles the count fixtures"; cat "$TMP/javac.log"; } >"$TMP/counts.log"
  suite "hand-derived counts (agent_counts.sh)" "$TMP/counts.log" 1
else
  rc=0
  PSF_AGENT_FIXTURES=$FX bash "$PSF_ROOT/tests/integration/agent_counts.sh" >"$TMP/counts.log" 2>&1 || rc=$?
  suite "hand-derived counts (agent_counts.sh)" "$TMP/counts.log" "$rc"

  # 3. end to end: Loops.sum(n) is 9n + 9 bytecodes (agent_counts.sh derives it)
  rc=0
  out=$(PSF_BUILD=$PSF_BUILD "$PSF_ROOT/scripts/get_score.sh" --classpath "$FX" --main Loops --method Loops.sum \
    --costs none --json --program-output /dev/null -- 1000 2>"$TMP/gs.err") || rc=$?
  got=$(jq -r '"\(.status) \(.score)"' <<<"$out" 2>/dev/null || echo "no JSON")
  if [ "$got" = "ok 9009" ]; then
    echo "ok - get_score.sh: Loops.sum(1000) scores 9009 bytecodes" >"$TMP/e2e.log"
  else
    echo "FAIL - get_score.sh: Loops.sum(1000) scores 9009 bytecodes (exit $rc, got '$got': $(jq -r .message <<<"$out" 2>/dev/null) $(tail -n 2 "$TMP/gs.err" | tr '\n' ' '))" >"$TMP/e2e.log"
  fi
  suite "end to end through get_score.sh" "$TMP/e2e.log" 0
fi

# 4. the JVM-dependent refusals and determinism checks
if [ "$FULL" = 1 ]; then
  rc=0
  bash "$PSF_ROOT/tests/integration/adversarial.sh" >"$TMP/adv.log" 2>&1 || rc=$?
  suite "refusals and determinism (adversarial.sh)" "$TMP/adv.log" "$rc"
fi

FAILED=0
for s in "${SUITES[@]}"; do
  [ "$(jq .failed <<<"$s")" = 0 ] || FAILED=1
done
if [ "$FAILED" = 0 ]; then VERDICT=pass; else VERDICT=fail; fi

# The record that lets get_score.sh trust this JDK build (written whole, then
# renamed into place, so a reader never sees half of one).
RECORD=""
RECORD_ERROR=""
if [ "$VERDICT" = pass ] && [ "$FULL" = 1 ] && [ "$NEEDS_RECORD" = true ]; then
  jdk_id=$(psf_jdk_build_id "$JAVA" 2>/dev/null) || jdk_id=""
  psf_id=$(psf_build_id "$PSF_ROOT" "$PSF_BUILD" 2>/dev/null) || psf_id=""
  if [ -z "$jdk_id" ] || [ -z "$psf_id" ]; then
    RECORD_ERROR="cannot identify the JDK build (lib/server/libjvm.so under $JDK_HOME) or PSF's (its agent and scripts)"
  elif [ "$jdk_id" != "$JDK_ID_BEFORE" ] || [ "$psf_id" != "$PSF_ID_BEFORE" ]; then
    RECORD_ERROR="the JDK or PSF changed while the self-test ran; run it again"
  else
    RECORD=$(psf_jdk_record "$jdk_id")
    tmp_rec=""
    if mkdir -p "$(dirname "$RECORD")" && tmp_rec=$(mktemp "$RECORD.XXXXXX") &&
      printf 'jdk_build=%s\npsf_build=%s\njdk_home=%s\nruntime_version=%s\nfeature=%s\nverified_at=%s\n' \
        "$jdk_id" "$psf_id" "$JDK_HOME" "$RUNTIME" "$FEATURE" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$tmp_rec" && mv -f "$tmp_rec" "$RECORD"; then
      :
    else
      [ -z "$tmp_rec" ] || rm -f "$tmp_rec"
      RECORD_ERROR="could not write the record $RECORD"
      RECORD=""
    fi
  fi
  # without the record get_score.sh refuses the JDK: the self-test did not do its job
  [ -z "$RECORD_ERROR" ] || VERDICT=fail
fi

if [ "$JSON" = 1 ]; then
  printf '%s\n' "${SUITES[@]}" | jq -s -c \
    --arg v "$VERDICT" --arg rt "$RUNTIME" --argjson fe "$FEATURE" --arg home "$JDK_HOME" \
    --argjson sup "$SUPPORTED" --argjson full "$([ "$FULL" = 1 ] && echo true || echo false)" \
    --arg table "$TABLE" --arg tj "$TABLE_JDK" --arg rec "$RECORD" --arg rerr "$RECORD_ERROR" \
    '{verdict: $v, jdk: {runtime_version: $rt, feature: $fe, home: $home, supported: $sup},
      full: $full, suites: ., record: (if $rec == "" then null else $rec end),
      record_error: (if $rerr == "" then null else $rerr end), cost_table: (if $table == "" then null else {path: $table, jdk_feature: ($tj | tonumber)} end)}'
else
  [ "$FULL" = 1 ] || echo "  (the refusal and determinism checks run with --full)"
  if [ -z "$TABLE" ]; then
    echo "  cost table: none under $PSF_ROOT/config"
  elif [ "$TABLE_JDK" = "$FEATURE" ]; then
    echo "  cost table: ${TABLE#"$PSF_ROOT"/}, calibrated for JDK $FEATURE"
  else
    echo "  cost table: ${TABLE#"$PSF_ROOT"/}, of JDK $TABLE_JDK: scores are approximate (docs/jdks.md: calibrate one)"
  fi
  [ "$SUPPORTED" = true ] ||
    echo "  note: get_score.sh refuses JDK $FEATURE until it is added to PSF_SUPPORTED_JDKS (scripts/lib/jdk.sh, docs/jdks.md)"
  if [ "$NEEDS_RECORD" = true ]; then
    if [ -n "$RECORD" ]; then
      echo "  recorded: get_score.sh now accepts this JDK build with this PSF build ($RECORD)"
    elif [ -n "$RECORD_ERROR" ]; then
      echo "  FAIL - $RECORD_ERROR: get_score.sh will refuse this JDK (jdk_not_verified)"
    else
      echo "  note: PSF's CI does not check JDK $FEATURE; get_score.sh accepts it only after --full passes here"
    fi
  fi
  if [ "$VERDICT" = pass ]; then
    echo "verdict: PASS - PSF counts exactly on JDK $RUNTIME"
  else
    echo "verdict: FAIL - PSF does not count exactly on JDK $RUNTIME; do not score with it"
  fi
fi
[ "$VERDICT" = pass ]
