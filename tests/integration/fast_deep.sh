#!/usr/bin/env bash
# fast_deep.sh - deep recursion under both counting engines, on the default
# JDK and JDK 25 (docs/determinism.md, "The stack").
#
# The overflow rule is the modelled stack (agent/core/stackmodel.h): a
# frame costs 16 words plus its method's max_locals (read here with javap
# -v), a counting thread's frames may use 2,097,152 words, and the frame
# whose entry passes that stops the run as stack_overflow under both
# engines at the same call, with the same message naming the frame, the
# method and the use. Derived by hand from those figures: down(n) (cost
# 17 a frame, n + 1 frames) counts with status ok and identical profiles
# for n = 123,360 (123,361 frames, 2,097,137 words) and 100,000, its total
# the hand count from javap (9n + 5), and is refused at frame 123,362
# (2,097,154 words) for n = 123,361; big(n), whose max_locals is 101 (cost
# 117), counts for n = 17,923 (17,924 frames, 2,097,108 words) and is
# refused at frame 17,925 (2,097,225 words) for n = 17,924; ping(n) and
# pong(n), calling each other (costs 17 and 21), fold past the calling
# contexts' pool and count for n = 110,375 and are refused at frame 110,377
# (2,097,161 words) for n = 110,376; a recursion with
# no end, its StackOverflowError caught inside the method or escaping it,
# is refused at frame 123,362 (the method's own frame costs 17 or 16 words,
# 2,097,154 or 2,097,153 in all), before any real StackOverflowError. That
# one stays a backstop: with a stack of 1 MiB (-Xss1m after the pinned
# flags) the real error comes first and stops the run at the throw under
# both engines, with its own wording (exit 97 from the agent, psf-score
# exit 10), never as a fallback from one engine to the other. TheAlgorithms'
# recursive bubble sort of 2,000 Integers (2,000 frames) counts alike, and
# get_score.sh's JSON says the fast engine counted down(100,000) with no
# fallback and the step engine's score. C1 inlines the probe's push (the
# modelled stack's and the contexts' frame) into enteredBlock, and hit into
# the folded branch probes of Integer.compare inside Integer.compareTo, as
# -XX:+PrintInlining shows in the bubble sort's run.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fast.sh"
on_both_jdks DeepRecursion
# a time limit on every run: a build that lets the error unwind 700,000
# stepped frames would take hours, HotSpot counting the frames at each
ENGINE_TIMEOUT=${DEEP_TIMEOUT:-300}

# locals_of SIGNATURE: max_locals of DeepRecursion's method declared as
# SIGNATURE (javap -v -p's line, e.g. "static int down(int);")
locals_of() {
  "$(dirname "$JAVA")/javap" -v -p -cp "$FX" DeepRecursion |
    awk -v m="  $1" '$0 == m { on = 1 } on && /locals=/ { sub(/.*locals=/, ""); sub(/,.*/, ""); print; exit }'
}

# contains TEXT PART: "yes" when TEXT holds PART, else TEXT
contains() { if [[ $1 == *"$2"* ]]; then echo yes; else echo "$1"; fi; }

# overflows NAME SPEC FRAME USE METHOD ARGS...: refused by the modelled
# stack under both engines, at frame FRAME entering METHOD with USE words,
# the same message from both
overflows() {
  local name=$1 spec=$2 frame=$3 use=$4 method=$5 e rc out
  shift 5
  for e in step fast; do
    out=$TEST_TMP/$e.xml rc=0
    run_engine "$out" "$e" "$spec" DeepRecursion "$@" || rc=$?
    expect_eq "$name, $e engine: stopped (97), status stack_overflow" "$rc $(xpath "$out" /psf-profile/@status)" "97 stack_overflow"
    xpath "$out" /psf-profile/message >"$TEST_TMP/$e.msg"
    rc=0
    "$PSF_BUILD/psf-score" "$out" >/dev/null 2>"$TEST_TMP/score.err" || rc=$?
    expect_eq "$name, $e engine: psf-score refuses it (10)" "$rc" 10
  done
  expect_eq "$name: the message names the rule, the frame, the method and the use" \
    "$(contains "$(cat "$TEST_TMP/step.msg")" "entering $method as frame $frame of thread 'main' would take its frames' modelled stack use to $use words, past the 2097152 words each counting thread may use (16 words a frame plus its max_locals)")" yes
  expect_eq "$name: the same message under both engines (the same call)" "$(cat "$TEST_TMP/fast.msg")" "$(cat "$TEST_TMP/step.msg")"
}

# backstop NAME SPEC ARGS...: with a 1 MiB stack the real StackOverflowError
# comes before the model's budget: stopped at the throw under both engines
backstop() {
  local name=$1 spec=$2 e rc out
  shift 2
  for e in step fast; do
    out=$TEST_TMP/$e.xml rc=0
    "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" -Xss1m \
      "-agentpath:$PSF_BUILD/libpsfagent.so=method=$spec,out=$out,engine=$e" \
      -cp "$FX" DeepRecursion "$@" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || rc=$?
    expect_eq "$name, $e engine: stopped (97), status stack_overflow" "$rc $(xpath "$out" /psf-profile/@status)" "97 stack_overflow"
    expect_match "$name, $e engine: the real error's own wording" "$(xpath "$out" /psf-profile/message)" \
      '^a StackOverflowError was thrown inside the method \(invocation 1\): where the stack ends depends on the sizes of the frames'
  done
}

# inlining NAME: the recursive bubble sort under the fast engine with C1's
# inlining decisions printed (-XX:+PrintInlining): in every compile of the
# probe's enteredBlock and of Integer.compareTo (the bridge, which inlines
# compareTo(Integer) and Integer.compare, and compareTo(Integer) itself),
# push and hit are inlined, never refused as too large or as using too
# much stack: a refusal is a call at every method entry, or at every
# folded branch of Integer.compare (docs/fast-engine.md, "The JIT")
inlining() {
  local log=$TEST_TMP/inlining.log
  # one compiler thread: two print their compiles' lines into one another
  "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" -XX:CICompilerCount=1 \
    -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:+PrintInlining \
    "-agentpath:$PSF_BUILD/libpsfagent.so=method=DeepRecursion.sort,out=$TEST_TMP/inlining.xml,engine=fast" \
    -cp "$FX" DeepRecursion bubble 2000 >"$log" 2>&1 || true
  # a compile's header: [stamp] id tier method (size); then its inlining
  # lines: @ bci callee (size) verdict
  expect_eq "$1: C1 inlines push into enteredBlock and hit into Integer.compareTo" \
    "$(awk '/^ *[0-9]+ +[0-9]+ / { cur = ""
                                    if ($0 ~ /::enteredBlock \(/) cur = "enteredBlock"
                                    else if ($0 ~ /java\.lang\.Integer::compareTo \(/) cur = "Integer.compareTo"
                                    next }
            cur != "" && /@ [0-9]+ +java\.lang\.Probe[^ ]*::(push|hit) \(/ {
              m = $0; sub(/.*::/, "", m); callee = m; sub(/ .*/, "", callee)
              verdict = m; sub(/^[^)]*\) +/, "", verdict)
              print cur, callee, verdict }' "$log" | LC_ALL=C sort -u | paste -sd';' -)" \
    "Integer.compareTo hit inline;enteredBlock hit inline;enteredBlock push inline"
}

for jdk in "${JDKS[@]}"; do
  use_java "$jdk/bin/java"
  v=$(psf_jdk_feature "$JAVA")
  # javap -c DeepRecursion: down(n) is n frames of iload_0 ifne iconst_1
  # iload_0 iconst_1 isub invokestatic iadd ireturn (9) and the last one's
  # iload_0 ifne iconst_0 goto ireturn (5): 9n + 5
  # the frames' costs: 16 words plus max_locals
  expect_eq "jdk $v: max_locals of down, big, ping, pong, endless, caught, escapes (javap -v)" \
    "$(locals_of 'static int down(int);') $(locals_of 'static long big(int);') $(locals_of 'static int ping(int);') $(locals_of 'static int pong(int);') $(locals_of 'static int endless(int);') $(locals_of 'static int caught();') $(locals_of 'static int escapes();')" \
    "1 101 1 5 1 1 0"
  same "jdk $v: down(100000)" 900005 DeepRecursion.down DeepRecursion down 100000
  expect_eq "jdk $v: down(100000): the program's answer" "$(cat "$TEST_TMP/program.out")" 100000
  # the deepest down the budget holds: 123,361 frames of 17 words, 2,097,137
  same "jdk $v: down(123360), just below the budget" 1110245 DeepRecursion.down DeepRecursion down 123360
  expect_eq "jdk $v: down(123360): the program's answer" "$(cat "$TEST_TMP/program.out")" 123360
  overflows "jdk $v: down(123361), just above the budget" DeepRecursion.down 123362 2097154 'DeepRecursion.down(I)I' down 123361
  # large frames: 17,924 frames of 117 words, 2,097,108; the next one passes
  same "jdk $v: big(17923), just below the budget" - DeepRecursion.big DeepRecursion big 17923
  overflows "jdk $v: big(17924), just above the budget" DeepRecursion.big 17925 2097225 'DeepRecursion.big(I)J' big 17924
  # a mutual recursion folded past the contexts' pool: ping frames (odd) cost
  # 17, pong frames (even) 21; 110,376 frames use 55,188 * 38 = 2,097,144
  # words, and ping's next frame would take them to 2,097,161
  same "jdk $v: ping(110375), just below the budget, folded" - DeepRecursion.ping DeepRecursion ping 110375
  overflows "jdk $v: ping(110376), just above the budget, folded" DeepRecursion.ping 110377 2097161 'DeepRecursion.ping(I)I' ping 110376
  same "jdk $v: recursive bubble sort of 2000" - DeepRecursion.sort DeepRecursion bubble 2000
  expect_eq "jdk $v: recursive bubble sort of 2000: sorted" "$(cat "$TEST_TMP/program.out")" "sorted 2000"
  inlining "jdk $v: recursive bubble sort of 2000"
  # caught() costs 17, escapes() 16, each endless frame 17
  overflows "jdk $v: endless recursion, caught" DeepRecursion.caught 123362 2097154 'DeepRecursion.endless(I)I' caught
  overflows "jdk $v: endless recursion, escaping" DeepRecursion.escapes 123362 2097153 'DeepRecursion.endless(I)I' escapes
  backstop "jdk $v: endless recursion on a 1 MiB stack" DeepRecursion.escapes escapes
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
