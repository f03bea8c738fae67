#!/usr/bin/env bash
# fast_overlap.sh - a thread the method did not start working while the
# method counts on main, under both engines, on the default JDK and JDK 25
# (tests/fixtures/agent/Overlap.java; docs/fast-engine.md, "Bystander
# threads"). The fast engine's probes on such a thread go past Probe.one
# (main's counters) to find() over Probe.counting.
#
# jdk: a pool worker main started runs a task of the JDK's alone while
# main's extent runs. find() must give that thread no counters (it counts
# nothing there: its blocks are charged to the bystanders' allowance), so
# the fast engine counts the run with no fallback and the step engine's
# profile, field for field, and the program's counts by hand (javap -c
# Overlap): Task.run on main 26 + 12N (aload_0 getfield astore_1 aload_1
# ifnull; getstatic aload_1 invokeinterface; lconst_0 lstore_2 iconst_0
# istore; per step the test iload aload_0 getfield if_icmpge and the body
# lload_2 iload invokestatic i2l ladd lstore_2 iinc goto; the last test;
# aload_0 lload_2 putfield; aload_1 ifnull aload_0 aload_1 invokevirtual
# putfield; return), step(i) 13 bytecodes to its test (iconst_4 newarray
# astore_1 aload_1 iload_0 iconst_3 iand iload_0 iastore iload_0 bipush
# iand ifne), then 6 to its return (aload_1 iload_0 iconst_3 iand iaload
# ireturn) or, when i % 8 == 0, 2 to the throw and 3 in the handler
# (getstatic athrow; astore_2 iconst_m1 ireturn): 151N/8 for N a multiple
# of 8; an int[4] per step (N allocations, 4N elements). The program says
# the task was done when main's extent ended (read inside it), so the
# worker's JDK code did run while main counted.
#
# enter: the worker's task enters the measured method itself while main's
# extent runs. The step engine counts that for main's invocation, as any
# program code a bystander runs (one invocation; unscheduled = the
# worker's Task.run, 19 + 12W + 151W/8 by the count above without the
# execute and the isDone), and the fast engine, which would open an extent
# of its own there, leaves the run to it (status fallback, naming the
# worker).
#
# ctor: the worker's task makes a Task through the JDK's code alone (a
# MethodHandleProxies Runnable around its constructor), and so runs the
# constructor of the method's class, which the agent counts as the
# method's, while main's extent runs. The step engine counts it for main's
# invocation as unscheduled work (on JDK 25, where the proxy is a hidden
# class of the JDK's, exactly the constructor: aload_0 invokespecial aload_0
# iload_1 putfield aload_0 aload_2 putfield return and Object's return,
# 10; on JDK 17 from the proxy's frame), and the fast engine leaves the
# run to it: on JDK 25 because a second thread began counting while main
# counted (fast/threads.c), on 17 because the proxy's block is the
# program's.
# shellcheck disable=SC2016
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fast.sh"
on_both_jdks Overlap
ENGINE_TIMEOUT=${OVERLAP_TIMEOUT:-300}

N=400000 W=1000
# overlapped OUT ENGINE MODE: the run, again (3 tries in all) while the
# worker's task was not done inside main's extent (the program's second
# word): a worker the machine woke only after main's extent ended is no
# overlap, and the checks are of the overlap. The last try is checked
# whatever it says, so a worker that never overlaps fails them.
overlapped() {
  local out=$1 engine=$2 mode=$3 try
  for try in 1 2 3; do
    run_engine "$out" "$engine" 'Overlap$Task.run' Overlap "$mode" "$N" "$W" || true
    [ "$(cut -d' ' -f2 "$TEST_TMP/program.out")" != true ] || return 0
    [ "$try" = 3 ] || echo "# $engine $mode: the worker's task was not done inside main's extent (try $try of 3): run again"
  done
}
RUN="/psf-profile/methods/method[@name='Overlap\$Task.run()V']/@work"
STEP="/psf-profile/methods/method[@name='Overlap.step(I)I']/@work"
INTS="//dependencies[@bucket='work']/array[@elem='int']"
for jdk in "${JDKS[@]}"; do
  use_java "$jdk/bin/java"
  v=$(psf_jdk_feature "$JAVA")
  overlapped "$TEST_TMP/step.xml" step jdk
  cp "$TEST_TMP/program.out" "$TEST_TMP/step.out"
  overlapped "$TEST_TMP/fast.xml" fast jdk
  cp "$TEST_TMP/program.out" "$TEST_TMP/fast.out"
  same_checks "jdk $v: overlap jdk" -
  # main's sum: step(i) is i, or -1 for i % 8 == 0: N(N - 1)/2 - 4k(k - 1) - k, k = N/8
  k=$((N / 8))
  sum=$((N * (N - 1) / 2 - 4 * k * (k - 1) - k))
  expect_eq "jdk $v: overlap jdk: main's sum, and the worker's task done inside main's extent, under each engine" \
    "$(cat "$TEST_TMP/step.out") / $(cat "$TEST_TMP/fast.out")" "$sum true / $sum true"
  for e in step fast; do
    expect_eq "jdk $v: overlap jdk, $e: Task.run, step, int[] allocations and elements = the hand counts" \
      "$(xpath "$TEST_TMP/$e.xml" "$RUN") $(xpath "$TEST_TMP/$e.xml" "$STEP") $(xpath "$TEST_TMP/$e.xml" "$INTS/@allocations") $(xpath "$TEST_TMP/$e.xml" "$INTS/@elements")" \
      "$((26 + 12 * N)) $((151 * N / 8)) $N $((4 * N))"
  done

  S=$TEST_TMP/step.xml F=$TEST_TMP/fast.xml
  overlapped "$S" step enter
  expect_eq "jdk $v: overlap enter, step: ok, one invocation, on main; the worker's Task.run unscheduled (hand count); its task done" \
    "$(xpath "$S" /psf-profile/@status) $(xpath "$S" 'count(//invocation)') $(xpath "$S" '//invocation/@thread') $(xpath "$S" '//invocation/@unscheduled') $(cut -d' ' -f2 "$TEST_TMP/program.out")" \
    "ok 1 main $((19 + 12 * W + 151 * W / 8)) true"
  overlapped "$F" fast enter
  expect_eq "jdk $v: overlap enter, fast: fallback" "$(xpath "$F" /psf-profile/@status)" fallback
  expect_match "jdk $v: overlap enter, fast: the message names the worker" "$(xpath "$F" /psf-profile/message)" \
    "thread 'pool-1-thread-1', which this engine does not count, ran the program's code"

  overlapped "$S" step ctor
  uns=$(xpath "$S" '//invocation/@unscheduled')
  [ "$v" != 25 ] || expect_eq "jdk $v: overlap ctor, step: the constructor unscheduled (hand count)" "$uns" 10
  expect_eq "jdk $v: overlap ctor, step: ok, one invocation, on main, some unscheduled; the task done" \
    "$(xpath "$S" /psf-profile/@status) $(xpath "$S" 'count(//invocation)') $(xpath "$S" '//invocation/@thread') $([ "${uns:-0}" -ge 10 ] && echo unscheduled) $(cut -d' ' -f2 "$TEST_TMP/program.out")" \
    "ok 1 main unscheduled true"
  overlapped "$F" fast ctor
  expect_eq "jdk $v: overlap ctor, fast: fallback" "$(xpath "$F" /psf-profile/@status)" fallback
  if [ "$v" = 25 ]; then why="thread 'pool-1-thread-1' began counting while thread 'main' counted"; else why="thread 'pool-1-thread-1', which this engine does not count, ran the program's code"; fi
  expect_match "jdk $v: overlap ctor, fast: the message says why" "$(xpath "$F" /psf-profile/message)" "$why"
done
finish
