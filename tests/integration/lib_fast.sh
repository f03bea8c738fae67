# lib_fast.sh - what the fast engine's suites share (sourced after lib.sh;
# bash): one run of a fixture under one counting engine, the fields of a
# profile both engines must agree on, and the comparison of the two
# engines' profiles of one run (fast_engine.sh, fast_deep.sh).
#
# The fixtures are $PSF_BUILD/fixtures/agent (FX); java is $JAVA with
# PINNED_FLAGS (lib.sh's use_java picks another JDK) and the JIT flags
# get_score.sh adds to every scoring run.
# shellcheck shell=bash

FX=$PSF_BUILD/fixtures/agent

# run_engine OUT ENGINE SPEC MAIN [ARGS...]: the agent with one engine,
# writing its profile to OUT, which must validate against the schema
# (lib.sh validate_profile); the program's output goes to
# $TEST_TMP/program.out and .err, and its exit code is returned. With
# ENGINE_TIMEOUT set, a run is stopped after that many seconds.
run_engine() {
  local out=$1 engine=$2 spec=$3 main=$4 rc=0 limit=()
  shift 4
  [ -z "${ENGINE_TIMEOUT:-}" ] || limit=(timeout -k 5 "$ENGINE_TIMEOUT")
  rm -f "$out"
  "${limit[@]}" "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=$spec,out=$out,engine=$engine" \
    -cp "$FX" "$main" "$@" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || rc=$?
  validate_profile "$out" "$spec"
  return "$rc"
}

# fields PROFILE: every field from the summary on, one per line: the
# dependency keys with their native attribute, the array keys and their
# elements and the invokes' elements, the calls elements (entries,
# closeness, fences), the branches, the methods with their line children,
# and the calling contexts.
fields() {
  awk '/<summary/ { on = 1 } on' "$1"
}

# same NAME WANT_TOTAL SPEC MAIN [ARGS...]: the run under both engines
# ($TEST_TMP/step.xml and fast.xml), with the status STATUS (ok unless
# set) under both, the fast profile marked engine="fast" (no fallback),
# the two profiles identical in every field, and WANT_TOTAL (- for none),
# the hand count, the work total of both.
same() {
  local name=$1 want=$2 spec=$3 S=$TEST_TMP/step.xml F=$TEST_TMP/fast.xml
  shift 3
  run_engine "$S" step "$spec" "$@" || true
  run_engine "$F" fast "$spec" "$@" || true
  expect_eq "$name: step engine ${STATUS:-ok}" "$(xpath "$S" /psf-profile/@status)" "${STATUS:-ok}"
  expect_eq "$name: fast engine ${STATUS:-ok}" "$(xpath "$F" /psf-profile/@status)" "${STATUS:-ok}"
  expect_eq "$name: the fast profile is marked" "$(xpath "$F" /psf-profile/@engine)" fast
  fields "$S" >"$TEST_TMP/step.fields"
  fields "$F" >"$TEST_TMP/fast.fields"
  if [ -s "$TEST_TMP/step.fields" ] && cmp -s "$TEST_TMP/step.fields" "$TEST_TMP/fast.fields"; then
    pass "$name: summary, invocations, histograms, $(xpath "$S" "//calls[@bucket='work']/@entries")+$(xpath "$S" "//calls[@bucket='overhead']/@entries") entries (close $(xpath "$S" "//calls[@bucket='work']/@close"), fences $(xpath "$S" "//calls[@bucket='work']/@fence_native")/$(xpath "$S" "//calls[@bucket='work']/@fence_alloc")), $(xpath "$S" "count(//dependencies[@bucket='work']/*[not(self::array)])") keys ($(xpath "$S" "count(//dependencies/*[@native='true'])") native), $(xpath "$S" "count(//dependencies[@bucket='work']/array)") array keys ($(xpath "$S" "sum(//dependencies[@bucket='work']/array/@elements)") elements), $(xpath "$S" "//branches[@bucket='work']/@conditional") branches ($(xpath "$S" "//branches[@bucket='work']/@mispredicted") mispredicted), $(xpath "$S" 'count(//methods/method)') methods' opcode counts ($(xpath "$S" 'count(//methods/method/line)') lines) and $(xpath "$S" 'count(//contexts/frame)') calling contexts identical; overhead $(xpath "$S" /psf-profile/summary/@overhead), $(xpath "$S" "//branches[@bucket='overhead']/@conditional") branches ($(xpath "$S" "//branches[@bucket='overhead']/@mispredicted") mispredicted)"
  else
    fail "$name: the engines differ" "$(diff "$TEST_TMP/step.fields" "$TEST_TMP/fast.fields" | head -6 | tr '\n' ' ')"
  fi
  if [ "$want" != - ]; then
    expect_eq "$name: step total = the hand count" "$(xpath "$S" /psf-profile/summary/@work)" "$want"
    expect_eq "$name: fast total = the hand count" "$(xpath "$F" /psf-profile/summary/@work)" "$want"
  fi
}
