#!/usr/bin/env bash
# fast_deep.sh - deep recursion under both counting engines, on the default
# JDK and JDK 25 (docs/determinism.md, "The stack").
#
# With get_score.sh's pinned stack (-Xss in PINNED_FLAGS), a recursion
# 100,000 frames deep (DeepRecursion.down) and TheAlgorithms' recursive
# bubble sort of 2,000 Integers (2,000 frames) run under both engines with
# status ok and no fallback, and their profiles are identical in every
# field from the summary on; down's total is the hand count from javap
# (9n + 5). The same through get_score.sh: the result JSON says the fast
# engine counted and names no fallback, with the step engine's score. A
# recursion with no end, its StackOverflowError caught inside the method or
# escaping it, is stopped at the throw under both engines with status
# stack_overflow (exit 97 from the agent, psf-score exit 10), never as a
# fallback from one engine to the other.
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
[ -e "$FX/DeepRecursion.class" ] || { echo "skip: $FX is not built (make integration-fast builds it)"; exit 77; }
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
mkdir -p "$TEST_TMP/cwd"
cd "$TEST_TMP/cwd"
default_and_jdk25

# run_engine JDK OUT ENGINE SPEC ARGS...: the agent with one engine, the flags get_score.sh uses
run_engine() {
  local jdk=$1 out=$2 engine=$3 spec=$4 rc=0 flags
  shift 4
  mapfile -t flags < <(printf '%s\n' "${BASE_FLAGS[@]}"; psf_jdk_flags "$(psf_jdk_feature "$jdk/bin/java")")
  rm -f "$out"
  # (a time limit: a build that lets the error unwind 700,000 stepped
  # frames would take hours, HotSpot counting the frames at each)
  timeout -k 5 "${DEEP_TIMEOUT:-300}" "$jdk/bin/java" "${flags[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=$spec,out=$out,engine=$engine" \
    -cp "$FX" DeepRecursion "$@" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || rc=$?
  validate_profile "$out" "$spec"
  return "$rc"
}
# PINNED_FLAGS without the default JDK's own (psf_jdk_flags adds each JDK's)
mapfile -t BASE_FLAGS < <(sed -n '/^PINNED_FLAGS=(/,/^)/p' "$PSF_ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')

fields() { awk '/<summary/ { on = 1 } on' "$1"; }

# same JDK NAME WANT SPEC ARGS...: ok under both engines, identical, WANT (- for none) the hand count
same() {
  local jdk=$1 name=$2 want=$3 spec=$4 S=$TEST_TMP/step.xml F=$TEST_TMP/fast.xml
  shift 4
  run_engine "$jdk" "$S" step "$spec" "$@" || true
  run_engine "$jdk" "$F" fast "$spec" "$@" || true
  expect_eq "$name: step engine ok" "$(xpath "$S" /psf-profile/@status)" ok
  expect_eq "$name: fast engine ok, no fallback" "$(xpath "$F" "concat(/psf-profile/@status, ' ', /psf-profile/@engine)")" "ok fast"
  fields "$S" >"$TEST_TMP/step.fields"
  fields "$F" >"$TEST_TMP/fast.fields"
  if [ -s "$TEST_TMP/step.fields" ] && cmp -s "$TEST_TMP/step.fields" "$TEST_TMP/fast.fields"; then
    pass "$name: the profiles are identical ($(xpath "$S" /psf-profile/summary/@work) bytecodes)"
  else
    fail "$name: the engines differ" "$(diff "$TEST_TMP/step.fields" "$TEST_TMP/fast.fields" | head -6 | tr '\n' ' ')"
  fi
  if [ "$want" != - ]; then
    expect_eq "$name: step total = the hand count" "$(xpath "$S" /psf-profile/summary/@work)" "$want"
    expect_eq "$name: fast total = the hand count" "$(xpath "$F" /psf-profile/summary/@work)" "$want"
  fi
}

# overflows JDK NAME SPEC ARGS...: stopped at the throw under both engines, as stack_overflow
overflows() {
  local jdk=$1 name=$2 spec=$3 e rc out
  shift 3
  for e in step fast; do
    out=$TEST_TMP/$e.xml rc=0
    run_engine "$jdk" "$out" "$e" "$spec" "$@" || rc=$?
    expect_eq "$name, $e engine: stopped (97), status stack_overflow" "$rc $(xpath "$out" /psf-profile/@status)" "97 stack_overflow"
    expect_match "$name, $e engine: the message says why" "$(xpath "$out" /psf-profile/message)" \
      '^a StackOverflowError was thrown inside the method \(invocation 1\): where the stack ends depends on the sizes of the frames'
    rc=0
    "$PSF_BUILD/psf-score" "$out" >/dev/null 2>"$TEST_TMP/score.err" || rc=$?
    expect_eq "$name, $e engine: psf-score refuses it (10)" "$rc" 10
  done
}

for jdk in "${JDKS[@]}"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  # javap -c DeepRecursion: down(n) is n frames of iload_0 ifne iconst_1
  # iload_0 iconst_1 isub invokestatic iadd ireturn (9) and the last one's
  # iload_0 ifne iconst_0 goto ireturn (5): 9n + 5
  same "$jdk" "jdk $v: down(100000)" 900005 DeepRecursion.down down 100000
  expect_eq "jdk $v: down(100000): the program's answer" "$(cat "$TEST_TMP/program.out")" 100000
  same "$jdk" "jdk $v: recursive bubble sort of 2000" - DeepRecursion.sort bubble 2000
  expect_eq "jdk $v: recursive bubble sort of 2000: sorted" "$(cat "$TEST_TMP/program.out")" "sorted 2000"
  overflows "$jdk" "jdk $v: endless recursion, caught" DeepRecursion.caught caught
  overflows "$jdk" "jdk $v: endless recursion, escaping" DeepRecursion.escapes escapes
done

# get_score.sh (the default engine, fast): the JSON says the fast engine
# counted, no fallback, and the score is the step engine's
GS=$PSF_ROOT/scripts/get_score.sh
for e in fast step; do
  rc=0
  "$GS" --json --engine "$e" --class-path "$FX" --main DeepRecursion --method DeepRecursion.down -- down 100000 \
    >"$TEST_TMP/gs.$e" 2>"$TEST_TMP/gs.err" || rc=$?
  expect_eq "get_score.sh --engine $e, down(100000): ok, counted by $e, no fallback" \
    "$rc $(jq -r '"\(.status) \(.engine) \(.fallback)"' "$TEST_TMP/gs.$e")" "0 ok $e null"
done
expect_match "get_score.sh: the same score from either engine" "$(jq -r .score "$TEST_TMP/gs.fast") = $(jq -r .score "$TEST_TMP/gs.step")" \
  '^([0-9][0-9.]*) = \1$'
rc=0
"$GS" --json --class-path "$FX" --main DeepRecursion --method DeepRecursion.caught -- caught >"$TEST_TMP/gs.soe" 2>"$TEST_TMP/gs.err" || rc=$?
expect_eq "get_score.sh, endless recursion caught: stack_overflow (10), no score, counted by fast, no fallback" \
  "$rc $(jq -r '"\(.status) \(.score) \(.engine) \(.fallback)"' "$TEST_TMP/gs.soe")" "10 stack_overflow null fast null"

finish
