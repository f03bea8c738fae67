#!/usr/bin/env bash
# fast_type_annotations.sh - a measured method whose code carries type
# annotations (RuntimeVisibleTypeAnnotations inside Code: a local, a loop
# variable, a cast, instanceof, new; tests/fixtures/agent/TypeAnnotations.java),
# counted by the fast engine, whose rewriter relocates them, with the step
# engine's profile, on the default JDK and JDK 25 (docs/fast-engine.md).
#
# Both engines must end ok, the fast one with no fallback, their profiles
# identical in every field from the summary on, and both totals the hand
# count from javap -c. The program's output must be plain java's: run's
# result, then the type annotations on run's signature that reflection
# reads back from the rewritten class after the count. get_score.sh with
# either engine must score the run with no fallback, the same score.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fast.sh"
on_both_jdks TypeAnnotations
# what reflection reads off run's signature: @T(1) int, @T(2) Object, int
SIGNATURE='int=1 java.lang.Object=2 int=none'

for jdk in "${JDKS[@]}"; do
  use_java "$jdk/bin/java"
  v=$(psf_jdk_feature "$JAVA")
  # javap -c TypeAnnotations.run("abc", n): 0-8 (7), the loop test
  # (iload iload_1 if_icmpge) n + 1 times, the body (aload_0 instanceof
  # ifeq iload_3 iload iadd istore_3 iinc goto: 9) n times, then new dup
  # invokespecial, Object.<init>'s return, astore aload aload_2 if_acmpne,
  # iload_3 ireturn (10): 12n + 20
  same "jdk $v: TypeAnnotations.run(1000)" 12020 TypeAnnotations.run TypeAnnotations 1000
  expect_eq "jdk $v: the fast engine's profile carries no fallback message" "$(xpath "$TEST_TMP/fast.xml" /psf-profile/message)" ""
  "$jdk/bin/java" -cp "$FX" TypeAnnotations 1000 >"$TEST_TMP/plain.out"
  expect_eq "jdk $v: plain java prints the sum and the signature's type annotations" \
    "$(paste -sd' ' - <"$TEST_TMP/plain.out")" "499500 $SIGNATURE"
  expect_eq "jdk $v: the fast engine's program prints what plain java does" "$(cat "$TEST_TMP/fast.out")" "$(cat "$TEST_TMP/plain.out")"
  expect_eq "jdk $v: the step engine's program prints what plain java does" "$(cat "$TEST_TMP/step.out")" "$(cat "$TEST_TMP/plain.out")"
done

# get_score.sh: counted by the engine asked for, no fallback, the same score
scored_alike "TypeAnnotations.run(1000)" "$FX" TypeAnnotations TypeAnnotations.run 1000

finish
