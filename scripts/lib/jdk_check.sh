# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# jdk_check.sh - which java get_score.sh runs, and whether PSF may score
# with it (sourced by scripts/get_score.sh; bash). The policy (supported
# versions, flags, cost tables) is scripts/lib/jdk.sh's, shared with the
# tests; this part applies it to one run.
#
# start_jdk_probe picks the launcher (JAVA_HOME, else PATH), starts the
# version probe of a JDK without a release file in the background and asks
# the cost table's check early (ask_table_check, scripts/lib/scorer.sh).
# check_jdk reads their answers and refuses an unsupported or unverified JDK
# or an unusable table.
#
# Reads: JAVA_HOME, PSF_SELF_TEST_JDK, COSTS, PSF_ROOT, BUILD, CLASSPATH_ARG.
# Sets: JAVA (resolved, after check_jdk), JAVA_REAL and CP_REALS
#   (resolve_paths, scripts/lib/classpath.sh), JAVA_PROBE_FD,
#   java_version, AUTO_COSTS, JDK_FLAGS, COSTS (the table's path).

# start_jdk_probe: the launcher chosen, its version asked, the table's check asked.
start_jdk_probe() {
  # The JDK's feature version comes from its release file (scripts/lib/jdk.sh,
  # psf_jdk_feature_release). A JDK without one is asked with a JVM start
  # (-XshowSettings), a good part of the whole run's own time: that launcher
  # starts here, in the background, so that it runs while the checks after it do,
  # and its answer is read where the JDK is checked. Its input is /dev/null and
  # its output this pipe, so nothing of the caller's is held by it; a failure
  # before the answer is read leaves it to end by itself (it prints and exits).
  # Which java it is, and every refusal, are decided where the JDK is checked.
  if [ -n "${JAVA_HOME:-}" ]; then
    JAVA=$JAVA_HOME/bin/java
  else
    # (hash finds what command -v finds, without the fork of its command
    # substitution; command -v also names a java that is not executable, for
    # the message that refuses it)
    if hash java 2>/dev/null; then
      JAVA=${BASH_CMDS[java]}
    else
      JAVA=$(command -v java) || JAVA=""
    fi
  fi
  JAVA_PROBE_FD=""
  java_version=""
  # (the launcher is resolved with the class path's entries, in one process,
  # resolve_paths; on its own when they could not be)
  local launcher=""
  [ -n "$JAVA" ] && [ -x "$JAVA" ] && launcher=$JAVA
  resolve_paths "$launcher"
  if [ -n "$launcher" ]; then
    [ -n "$JAVA_REAL" ] || JAVA_REAL=$(readlink -f "$JAVA")
    psf_jdk_set_feature_release "$JAVA_REAL" ||
      exec {JAVA_PROBE_FD}< <(exec "$JAVA" -XshowSettings:properties -version </dev/null 2>&1)
    java_version=$PSF_JDK_FEATURE
  fi
  # The cost table's check (check_costs) is asked early too, when the table
  # is known already: the one of --costs, or the default one of the version
  # the release file gave (AUTO_COSTS, which check_jdk takes).
  AUTO_COSTS=""
  if [ "$COSTS" = auto ] && [ -n "$java_version" ]; then
    psf_jdk_set_table "$PSF_ROOT" "$java_version" && AUTO_COSTS=$PSF_JDK_TABLE
  fi
  case $COSTS in
    none) [ -z "$COMPARE_ABS" ] || ask_table_check none ;;
    auto) [ -z "$AUTO_COSTS" ] || ask_table_check "$AUTO_COSTS" ;;
    *) ask_table_check "$COSTS" ;;
  esac
}

# check_jdk: the JDK and the cost table accepted, or the run refused.
check_jdk() {
  # Feature versions 17, 21 and 25 (scripts/lib/jdk.sh, docs/jdks.md). A newer
  # one is refused by name until PSF's pinning and refusals are checked on it:
  # each release adds options and APIs (virtual threads, foreign calls, object
  # layouts) that could undo them.
  # (JAVA was chosen by start_jdk_probe, which started the probe of its version.)
  if [ -n "${JAVA_HOME:-}" ]; then
    [ -x "$JAVA" ] || fail jdk_not_found "JAVA_HOME=$JAVA_HOME holds no bin/java (PSF needs JDK ${PSF_SUPPORTED_JDKS// /, })"
  else
    [ -n "$JAVA" ] || fail jdk_not_found "no java on PATH and JAVA_HOME is not set (PSF needs JDK ${PSF_SUPPORTED_JDKS// /, })"
  fi
  if [ -n "$JAVA_PROBE_FD" ]; then
    java_version=$(psf_jdk_feature_of <&"$JAVA_PROBE_FD")
    exec {JAVA_PROBE_FD}<&-
  fi
  psf_jdk_supported "$java_version" ||
    fail jdk_not_found "$JAVA is Java ${java_version:-of unknown version}; PSF supports JDK ${PSF_SUPPORTED_JDKS// /, } (a newer JDK is refused until it is verified: docs/jdks.md)"
  # A supported version that PSF's CI does not check (21: no build of it can be
  # had where PSF is developed) is trusted only where scripts/self_test.sh --full
  # passed on this JDK build with this PSF build; the self-test itself scores
  # through here while it checks (PSF_SELF_TEST_JDK names the JDK it checks).
  if ! psf_jdk_verified_by_ci "$java_version" &&
    { [ -z "${PSF_SELF_TEST_JDK:-}" ] || [ "$PSF_SELF_TEST_JDK" != "$(readlink -f "$JAVA")" ]; }; then
    why=$(psf_jdk_check_record "$JAVA" "$PSF_ROOT" "$BUILD") ||
      fail jdk_not_verified "$JAVA is JDK $java_version, which PSF's CI does not check, and $why: run JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$JAVA")")") $PSF_ROOT/scripts/self_test.sh --full first (docs/jdks.md)"
  fi
  psf_jdk_set_flags "$java_version"
  JDK_FLAGS=("${PSF_JDK_FLAGS[@]}")
  # The cost table: the one calibrated for this feature version, else the
  # nearest one (the scorer then marks the score approximate and says why).
  # (AUTO_COSTS: the same question, asked by start_jdk_probe for the same version)
  if [ "$COSTS" = auto ] && [ -n "$AUTO_COSTS" ]; then
    COSTS=$AUTO_COSTS
  elif [ "$COSTS" = auto ]; then
    psf_jdk_set_table "$PSF_ROOT" "$java_version" ||
      fail bad_input "no cost table under $PSF_ROOT/config (costs.xml or costs-jdk$java_version.xml)"
    COSTS=$PSF_JDK_TABLE
  fi
  # (its check's answer is read later, finish_table: scripts/lib/scorer.sh)
  TABLE_PENDING=1
  [ -n "$JAVA_REAL" ] || JAVA_REAL=$(readlink -f "$JAVA")
  JAVA=$JAVA_REAL
}
