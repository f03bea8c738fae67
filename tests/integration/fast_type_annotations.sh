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
FX=$PSF_BUILD/fixtures/agent
[ -e "$FX/TypeAnnotations.class" ] || { echo "skip: $FX is not built (make integration-fast builds it)"; exit 77; }
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
mkdir -p "$TEST_TMP/cwd"
cd "$TEST_TMP/cwd"
default_and_jdk25
# PINNED_FLAGS without the default JDK's own (psf_jdk_flags adds each JDK's)
mapfile -t BASE_FLAGS < <(sed -n '/^PINNED_FLAGS=(/,/^)/p' "$PSF_ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')

# run_engine JDK OUT ENGINE ARGS...: the agent with one engine on
# TypeAnnotations.run, the flags get_score.sh uses
run_engine() {
  local jdk=$1 out=$2 engine=$3 rc=0 flags
  shift 3
  mapfile -t flags < <(printf '%s\n' "${BASE_FLAGS[@]}"; psf_jdk_flags "$(psf_jdk_feature "$jdk/bin/java")")
  rm -f "$out"
  "$jdk/bin/java" "${flags[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=TypeAnnotations.run,out=$out,engine=$engine" \
    -cp "$FX" TypeAnnotations "$@" >"$TEST_TMP/$engine.out" 2>"$TEST_TMP/$engine.err" || rc=$?
  validate_profile "$out" TypeAnnotations.run
  return "$rc"
}

fields() { awk '/<summary/ { on = 1 } on' "$1"; }

# what reflection reads off run's signature: @T(1) int, @T(2) Object, int
SIGNATURE='int=1 java.lang.Object=2 int=none'

for jdk in "${JDKS[@]}"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  S=$TEST_TMP/step.xml F=$TEST_TMP/fast.xml
  run_engine "$jdk" "$S" step 1000 || true
  run_engine "$jdk" "$F" fast 1000 || true
  expect_eq "jdk $v: step engine ok" "$(xpath "$S" /psf-profile/@status)" ok
  expect_eq "jdk $v: fast engine ok, no fallback" "$(xpath "$F" "concat(/psf-profile/@status, ' ', /psf-profile/@engine, ' ', /psf-profile/message)")" "ok fast "
  fields "$S" >"$TEST_TMP/step.fields"
  fields "$F" >"$TEST_TMP/fast.fields"
  if [ -s "$TEST_TMP/step.fields" ] && cmp -s "$TEST_TMP/step.fields" "$TEST_TMP/fast.fields"; then
    pass "jdk $v: the profiles are identical ($(xpath "$S" /psf-profile/summary/@work) bytecodes)"
  else
    fail "jdk $v: the engines differ" "$(diff "$TEST_TMP/step.fields" "$TEST_TMP/fast.fields" | head -6 | tr '\n' ' ')"
  fi
  # javap -c TypeAnnotations.run("abc", n): 0-8 (7), the loop test
  # (iload iload_1 if_icmpge) n + 1 times, the body (aload_0 instanceof
  # ifeq iload_3 iload iadd istore_3 iinc goto: 9) n times, then new dup
  # invokespecial, Object.<init>'s return, astore aload aload_2 if_acmpne,
  # iload_3 ireturn (10): 12n + 20
  expect_eq "jdk $v: step total = the hand count" "$(xpath "$S" /psf-profile/summary/@work)" 12020
  expect_eq "jdk $v: fast total = the hand count" "$(xpath "$F" /psf-profile/summary/@work)" 12020
  "$jdk/bin/java" -cp "$FX" TypeAnnotations 1000 >"$TEST_TMP/plain.out"
  expect_eq "jdk $v: plain java prints the sum and the signature's type annotations" \
    "$(paste -sd' ' - <"$TEST_TMP/plain.out")" "499500 $SIGNATURE"
  expect_eq "jdk $v: the fast engine's program prints what plain java does" "$(cat "$TEST_TMP/fast.out")" "$(cat "$TEST_TMP/plain.out")"
  expect_eq "jdk $v: the step engine's program prints what plain java does" "$(cat "$TEST_TMP/step.out")" "$(cat "$TEST_TMP/plain.out")"
done

# get_score.sh: counted by the engine asked for, no fallback, the same score
GS=$PSF_ROOT/scripts/get_score.sh
for e in fast step; do
  rc=0
  "$GS" --json --engine "$e" --class-path "$FX" --main TypeAnnotations --method TypeAnnotations.run -- 1000 \
    >"$TEST_TMP/gs.$e" 2>"$TEST_TMP/gs.err" || rc=$?
  expect_eq "get_score.sh --engine $e: ok, counted by $e, no fallback" \
    "$rc $(jq -r '"\(.status) \(.engine) \(.fallback)"' "$TEST_TMP/gs.$e")" "0 ok $e null"
done
expect_match "get_score.sh: the same score from either engine" "$(jq -r .score "$TEST_TMP/gs.fast") = $(jq -r .score "$TEST_TMP/gs.step")" \
  '^([0-9][0-9.]*) = \1$'

finish
