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

# on_both_jdks CLASS: the preamble of a suite that runs fixture CLASS on
# the default JDK and JDK 25 (JDKS): skipped (77) without the fixture or
# jq; the working directory a scratch one, so that nothing lands in the
# checkout.
on_both_jdks() {
  [ -e "$FX/$1.class" ] || { echo "skip: $FX is not built (make integration-fast builds it)"; exit 77; }
  command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
  mkdir -p "$TEST_TMP/cwd"
  cd "$TEST_TMP/cwd" || exit 1
  default_and_jdk25
}

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
# the hand count, the work total of both. The program's output of each run
# is kept in $TEST_TMP/step.out and fast.out (program.out is the fast one).
same() {
  local name=$1 want=$2 spec=$3
  shift 3
  run_engine "$TEST_TMP/step.xml" step "$spec" "$@" || true
  cp "$TEST_TMP/program.out" "$TEST_TMP/step.out"
  run_engine "$TEST_TMP/fast.xml" fast "$spec" "$@" || true
  cp "$TEST_TMP/program.out" "$TEST_TMP/fast.out"
  same_checks "$name" "$want"
}

# same_checks NAME WANT_TOTAL: same's checks of the two runs already made
# ($TEST_TMP/step.xml and fast.xml).
same_checks() {
  local name=$1 want=$2 S=$TEST_TMP/step.xml F=$TEST_TMP/fast.xml
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

# scored_alike NAME CLASSPATH MAIN METHOD [ARGS...]: get_score.sh --engine
# fast, then step, on the same run: each ok, counted by the engine asked
# for with no fallback, and the same score from both (their JSON in
# $TEST_TMP/gs.fast and gs.step).
scored_alike() {
  local name=$1 cp=$2 main=$3 method=$4 e rc
  shift 4
  for e in fast step; do
    rc=0
    "$PSF_ROOT/scripts/get_score.sh" --json --engine "$e" --class-path "$cp" --main "$main" --method "$method" -- "$@" \
      >"$TEST_TMP/gs.$e" 2>"$TEST_TMP/gs.err" || rc=$?
    expect_eq "get_score.sh --engine $e, $name: ok, counted by $e, no fallback" \
      "$rc $(jq -r '"\(.status) \(.engine) \(.fallback)"' "$TEST_TMP/gs.$e")" "0 ok $e null"
  done
  expect_match "get_score.sh, $name: the same score from either engine" \
    "$(jq -r .score "$TEST_TMP/gs.fast") = $(jq -r .score "$TEST_TMP/gs.step")" '^([0-9][0-9.]*) = \1$'
}
