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
. "$(dirname "$0")/lib_fast.sh"
on_both_jdks DeepRecursion
# a time limit on every run: a build that lets the error unwind 700,000
# stepped frames would take hours, HotSpot counting the frames at each
ENGINE_TIMEOUT=${DEEP_TIMEOUT:-300}

# overflows NAME SPEC ARGS...: stopped at the throw under both engines, as stack_overflow
overflows() {
  local name=$1 spec=$2 e rc out
  shift 2
  for e in step fast; do
    out=$TEST_TMP/$e.xml rc=0
    run_engine "$out" "$e" "$spec" DeepRecursion "$@" || rc=$?
    expect_eq "$name, $e engine: stopped (97), status stack_overflow" "$rc $(xpath "$out" /psf-profile/@status)" "97 stack_overflow"
    expect_match "$name, $e engine: the message says why" "$(xpath "$out" /psf-profile/message)" \
      '^a StackOverflowError was thrown inside the method \(invocation 1\): where the stack ends depends on the sizes of the frames'
    rc=0
    "$PSF_BUILD/psf-score" "$out" >/dev/null 2>"$TEST_TMP/score.err" || rc=$?
    expect_eq "$name, $e engine: psf-score refuses it (10)" "$rc" 10
  done
}

for jdk in "${JDKS[@]}"; do
  use_java "$jdk/bin/java"
  v=$(psf_jdk_feature "$JAVA")
  # javap -c DeepRecursion: down(n) is n frames of iload_0 ifne iconst_1
  # iload_0 iconst_1 isub invokestatic iadd ireturn (9) and the last one's
  # iload_0 ifne iconst_0 goto ireturn (5): 9n + 5
  same "jdk $v: down(100000)" 900005 DeepRecursion.down DeepRecursion down 100000
  expect_eq "jdk $v: down(100000): the program's answer" "$(cat "$TEST_TMP/program.out")" 100000
  same "jdk $v: recursive bubble sort of 2000" - DeepRecursion.sort DeepRecursion bubble 2000
  expect_eq "jdk $v: recursive bubble sort of 2000: sorted" "$(cat "$TEST_TMP/program.out")" "sorted 2000"
  overflows "jdk $v: endless recursion, caught" DeepRecursion.caught caught
  overflows "jdk $v: endless recursion, escaping" DeepRecursion.escapes escapes
done

# get_score.sh (the default engine, fast): the JSON says the fast engine
# counted, no fallback, and the score is the step engine's
scored_alike "down(100000)" "$FX" DeepRecursion DeepRecursion.down down 100000
GS=$PSF_ROOT/scripts/get_score.sh
rc=0
"$GS" --json --class-path "$FX" --main DeepRecursion --method DeepRecursion.caught -- caught >"$TEST_TMP/gs.soe" 2>"$TEST_TMP/gs.err" || rc=$?
expect_eq "get_score.sh, endless recursion caught: stack_overflow (10), no score, counted by fast, no fallback" \
  "$rc $(jq -r '"\(.status) \(.score) \(.engine) \(.fallback)"' "$TEST_TMP/gs.soe")" "10 stack_overflow null fast null"

finish
