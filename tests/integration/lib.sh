# lib.sh - helpers for the integration tests (sourced; bash).
#
# Each check prints "ok - NAME" or "FAIL - NAME (details)"; finish prints the
# plain closing line "N passed, M failed" and exits non-zero on any failure.
# Tests run from the repository root; PSF_BUILD names the build directory.
# (For shellcheck run on this file alone: the variables it sets are for the
# scripts that source it.)
# shellcheck shell=bash disable=SC2034

PSF_ROOT=${PSF_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
PSF_BUILD=${PSF_BUILD:-$PSF_ROOT/build}
case $PSF_BUILD in /*) ;; *) PSF_BUILD=$PSF_ROOT/$PSF_BUILD ;; esac
export PSF_BUILD
PASSED=0
FAILED=0
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-test.XXXXXXXX")
# Only this shell removes it: a child forked for a background command runs
# with this trap until it execs, and a signal sent to that child in
# between (agent_server_hygiene.sh's SIGHUP "after 0.0s") would otherwise
# remove the test's directory under it. The child's own PID comes from
# /proc/self, which bash opens itself ($BASHPID can still read the
# parent's there).
# shellcheck disable=SC2154
trap 'read -r _psf_self _ </proc/self/stat; [ "$_psf_self" != "$$" ] || rm -rf "$TEST_TMP"' EXIT
# get_score.sh signs results with a key made on first use, by default under
# $XDG_CONFIG_HOME: the tests' own, not one in the home directory. (Not
# PSF_KEY_FILE, which would make psf-score check every profile it reads.)
export XDG_CONFIG_HOME=$TEST_TMP/config

. "$PSF_ROOT/scripts/lib/jdk.sh"
# use_java JAVA: the java a suite runs (JAVA) and the pinned flags
# get_score.sh gives it (PINNED_FLAGS): the script's own (kept in one
# place: the script) and those its JDK's feature version adds
# (scripts/lib/jdk.sh). Suites start with JAVA_HOME's java, else PATH's.
use_java() {
  JAVA=$1
  mapfile -t PINNED_FLAGS < <(sed -n '/^PINNED_FLAGS=(/,/^)/p' "$PSF_ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')
  mapfile -t -O "${#PINNED_FLAGS[@]}" PINNED_FLAGS < <(psf_jdk_flags "$(psf_jdk_feature "$JAVA")")
}
use_java "${JAVA_HOME:+$JAVA_HOME/bin/}java"
# The JIT flags get_score.sh adds to every scoring run.
mapfile -t JIT_FLAGS < <(sed -n '/^JIT_FLAGS=(/,/^)/p' "$PSF_ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')

pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL - $1${2:+ ($2)}"; }

# expect_eq NAME GOT WANT
expect_eq() {
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

# expect_match NAME TEXT REGEX
expect_match() {
  if [[ $2 =~ $3 ]]; then pass "$1"; else fail "$1" "'$2' does not match /$3/"; fi
}

# expect_same_scores NAME GOT WANT: GOT is WANT, and WANT is scores (one
# or more numbers, a space apart): two runs that both gave no score (null,
# nothing) do not agree
expect_same_scores() {
  if [[ $3 =~ ^[0-9.]+( [0-9.]+)*\ ?$ ]] && [ "$2" = "$3" ]; then pass "$1 ($3)"; else fail "$1" "got '$2', want '$3', scores"; fi
}

# expect_at_least NAME RC SCORE MIN: the run ended with exit code 0 and a
# score of at least MIN (work handed elsewhere costs at least the work)
expect_at_least() {
  if [ "$2" = 0 ] && [ "$3" -ge "$4" ] 2>/dev/null; then pass "$1 ($3 >= $4)"; else fail "$1" "exit $2, $3 vs $4$(said)"; fi
}

# said: what the last run's JSON ($TEST_TMP/out) said when it gave no
# score (its status and message), for a failure's detail; else nothing.
said() {
  jq -er 'select(.score == null) | "; \(.status // "no status"): \(.message // "" | gsub("\n"; " "))"' "$TEST_TMP/out" 2>/dev/null |
    head -c 600
}

# xpath FILE EXPR: the string value of an XPath expression over a profile.
xpath() { xmllint --xpath "string($2)" "$1" 2>/dev/null; }

# run_agent OUT SPEC CLASSPATH MAIN [ARGS...]: the agent alone, pinned flags.
run_agent() {
  local out=$1 spec=$2 cp=$3 main=$4 rc=0
  shift 4
  rm -f "$out"
  "$JAVA" "${PINNED_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=$spec,out=$out" \
    -cp "$cp" "$main" "$@" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || rc=$?
  validate_profile "$out" "$spec"
  return "$rc"
}

# validate_profile FILE WHAT: every profile a test makes is checked against
# the schema the scorer reads it with (config/profile.xsd); a run that wrote
# none is left to the test's own checks.
validate_profile() {
  [ -s "$1" ] || return 0
  if xmllint --noout --schema "$PSF_ROOT/config/profile.xsd" "$1" 2>"$TEST_TMP/xsd.err"; then
    return 0
  fi
  fail "profile of $2 validates against config/profile.xsd" "$(head -c 300 "$TEST_TMP/xsd.err")"
}

finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}

# require_junit_jar: sets JAR to JUnit 5's console launcher
# (JUNIT_CONSOLE_JAR, else Debian junit5's), or fails the script: the
# README's set-up installs it, so a missing jar is no reason to skip.
require_junit_jar() {
  JAR=${JUNIT_CONSOLE_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
  if [ ! -r "$JAR" ]; then
    echo "FAIL - $JAR is missing: install junit5 (scripts/install_deps.sh)"
    exit 1
  fi
}

# sandbox_works WHAT: 0 when bubblewrap works here; else says loudly that
# WHAT goes unchecked and returns 1, and under CI (CI=true) that is a
# failure: CI must not turn green by not testing the sandbox.
sandbox_works() {
  if bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent true >/dev/null 2>&1; then
    return 0
  fi
  if [ "${CI:-}" = true ]; then
    fail "bubblewrap works under CI (needed for: $1)" "bwrap --unshare-all fails here"
  else
    echo "# bubblewrap does not work here: $1 goes unchecked"
  fi
  return 1
}

# adversarial_setup: what every adversarial suite needs. Adversarial code
# only ever runs sandboxed, so without jq or a working bubblewrap the suite
# is skipped (77). Sets GS (get_score.sh) and FX (the adversarial fixtures)
# and enters a fresh working directory, $CWD.
adversarial_setup() {
  command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
  GS=$PSF_ROOT/scripts/get_score.sh
  FX=$PSF_BUILD/fixtures/adversarial
  # PSF_TEST_ENGINE=step (or fast): every get_score.sh run of the suite with
  # that --engine; the results must be the same with either (a score never
  # depends on the engine: the fast engine, the default, counts or falls
  # back where it cannot)
  if [ -n "${PSF_TEST_ENGINE:-}" ]; then
    printf '#!/bin/sh\nexec "%s" --engine "%s" "$@"\n' "$GS" "$PSF_TEST_ENGINE" >"$TEST_TMP/get_score_engine.sh"
    chmod +x "$TEST_TMP/get_score_engine.sh"
    GS=$TEST_TMP/get_score_engine.sh
    echo "# every get_score.sh run with --engine $PSF_TEST_ENGINE"
  fi
  if ! bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent true >/dev/null 2>&1; then
    echo "bubblewrap does not work here: adversarial fixtures are not run unsandboxed"
    exit 77     # a skip: a failure under CI (tests/run_test.sh)
  fi
  CWD=$TEST_TMP/cwd
  mkdir -p "$CWD"
  cd "$CWD" || exit 1
}

# jdk_at_least MIN WHAT: sets JDK to the home of a supported JDK of feature
# version MIN or later: the default JDK when it is one, else PSF_JDK25_HOME
# (default /usr/lib/jvm/temurin-25-jdk-amd64); without one, says loudly that
# WHAT went untested and skips the suite (77).
jdk_at_least() {
  local min=$1 what=$2 feature
  feature=$(psf_jdk_feature "$JAVA")
  if [ "$feature" -ge "$min" ] 2>/dev/null && psf_jdk_supported "$feature"; then
    JDK=$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVA")")")")
  else
    JDK=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
    if [ ! -x "$JDK/bin/java" ] || [ "$(psf_jdk_feature "$JDK/bin/java")" -lt "$min" ]; then
      echo "##################################################################"
      echo "# $what NOT TESTED: no JDK $min or later (default JDK, $JDK)"
      echo "##################################################################"
      exit 77
    fi
  fi
  echo "# JDK $(psf_jdk_feature "$JDK/bin/java") at $JDK"
}

# default_and_jdk25: sets JDKS to the homes of the JDKs a suite runs on:
# the default JDK's, then JDK 25's (PSF_JDK25_HOME, default
# /usr/lib/jvm/temurin-25-jdk-amd64) when that is a JDK 25 or later of
# another feature version than the default. Without one, says loudly that
# JDK 25 goes untested (the suite still runs on the default JDK).
default_and_jdk25() {
  local j25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} f25
  JDKS=("$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVA")")")")")
  if [ -x "$j25/bin/java" ]; then f25=$(psf_jdk_feature "$j25/bin/java"); else f25=0; fi
  if [ "$f25" -ge 25 ] 2>/dev/null && [ "$f25" != "$(psf_jdk_feature "$JAVA")" ]; then
    JDKS+=("$j25")
  else
    echo "##################################################################"
    echo "# JDK 25 NOT TESTED: no JDK 25 at $j25 other than the default"
    echo "##################################################################"
  fi
}

# require_jdk25: sets JDK25 to JDK 25's home (PSF_JDK25_HOME, default
# /usr/lib/jvm/temurin-25-jdk-amd64), or says loudly that JDK 25 goes
# untested and exits 77 (a skip, which fails under CI).
require_jdk25() {
  JDK25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
  if [ ! -x "$JDK25/bin/java" ] || [ "$(psf_jdk_feature "$JDK25/bin/java")" != 25 ]; then
    echo "##################################################################"
    echo "# JDK 25 NOT TESTED: no JDK 25 at $JDK25"
    echo "# (install Temurin 25 there or set PSF_JDK25_HOME)"
    echo "##################################################################"
    exit 77
  fi
}

# suites_on_jdk25 SUITE...: runs each suite of tests/integration (a name or
# a path) with JAVA_HOME at JDK 25 ($JDK25: require_jdk25 first) and
# PSF_SUITE_ON_JDK25=1 (readme_figures_here), one after another. One check per suite, that it exited 0 having passed a
# check (a closing line of "0 passed" ran nothing, as in tests/run_test.sh),
# named with the suite's closing line and its seconds (where a lane of make
# test spends its time); the suite's failed checks are printed under it.
suites_on_jdk25() {
  local t rc start last
  for t in "$@"; do
    rc=0 start=$SECONDS
    PSF_SUITE_ON_JDK25=1 JAVA_HOME=$JDK25 bash "$PSF_ROOT/tests/integration/${t##*/}" >"$TEST_TMP/suite.log" 2>&1 || rc=$?
    last=$(tail -n 1 "$TEST_TMP/suite.log")
    case $last in "0 passed, "*) [ "$rc" != 0 ] || rc="0 but no check ran" ;; esac
    expect_eq "${t##*/} on 25: exit 0 ($last; $((SECONDS - start)) s)" "$rc" 0
    grep '^FAIL - ' "$TEST_TMP/suite.log" | sed 's/^/  /' || true
    # a suite that failed: its last words too (a failure before any FAIL
    # line, or the reason a FAIL line does not give)
    [ "$rc" = 0 ] || tail -n 15 "$TEST_TMP/suite.log" | sed 's/^/  | /'
  done
}

# readme_figures_here: 0 when the suite runs on the JDK whose figures
# README.md shows (the feature version of its sample result's `jdk` line,
# set in README_JDK), so that they are compared here. Else 1, allowed only
# in the re-run of suites_on_jdk25, whose figures differ by design: in any
# other run (the default JDK's) a README naming another JDK would leave
# its figures compared nowhere, and that is a failed check.
readme_figures_here() {
  local jdk
  README_JDK=$(awk '/^jdk +[0-9]+/ { print $2; exit }' "$PSF_ROOT/README.md" | sed 's/^\([0-9]*\).*/\1/')
  jdk=$(psf_jdk_feature "$JAVA")
  [ "$jdk" != "$README_JDK" ] || return 0
  if [ "${PSF_SUITE_ON_JDK25:-}" = 1 ]; then
    echo "# README.md's figures are JDK $README_JDK's: compared in the run on that JDK, not on JDK $jdk"
  else
    fail "README.md's figures are of the JDK this suite runs on" \
      "its sample result names JDK '$README_JDK', this is JDK $jdk: its figures would be compared on no JDK"
  fi
  return 1
}
