#!/usr/bin/env bash
# adversarial_sched.sh - threaded code scores the same on every run without
# --runs (agent/runtime/sched.c; docs/determinism.md, "Threads the method starts"):
# each way of the Sched fixture to hand work to threads it starts (a spin
# on a volatile flag, a sleeping poll, a poll with a timed wait, timed waits
# racing a notify, timed waits that time out beside a parked thread, join,
# a parallel stream sort, a parallel stream called three times, an
# executor's futures, wait/notify, a pipe read after join, a class both
# threads need whose initializer runs for more than one turn) is scored five
# times and must give one score; the work its threads do is counted
# exactly. I/O that would wait for another thread (an empty pipe, a
# socket, a selector) is refused as unschedulable, naming it.
set -eu
. "$(dirname "$0")/lib.sh"
adversarial_setup
P=$TEST_TMP/p.xml
N=20000

# score MODE [N]: its score (or its status when it has none), the profile in
# $P; with ENGINE set, with --engine $ENGINE
score() {
  "$GS" ${ENGINE:+--engine "$ENGINE"} --classpath "$FX" --main Sched --method "Sched.$1" --json --costs none --sandbox require \
    --profile-out "$P" --program-output "$TEST_TMP/program.out" -- "$1" "${2:-$N}" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || true
  # a run that did not score shows what the program printed (an output_limit once in CI: unexplained)
  jq -e '.score != null' "$TEST_TMP/out" >/dev/null 2>&1 ||
    echo "# $1: $(jq -r '.status + ": " + (.message // "")' "$TEST_TMP/out" 2>/dev/null); the program printed: $(head -c 400 "$TEST_TMP/program.out" 2>/dev/null | tr '\n' ' ')" >&2
  jq -r 'if .score == null then .status else .score end' "$TEST_TMP/out"
}
# sum_work: what the profile counts in Sched.sum, whatever thread ran it
sum_work() {
  xpath "$P" "sum(/psf-profile/methods/method[@name='Sched.sum(I)J']/@work)"
}

# Sched.sum(n) executes 10n+9 bytecodes: 4 (s = 0, i = 0), 10 per iteration
# (the test, the add, iinc, goto), 3 for the last test, 2 for the return.
# The producer-consumer hands 2000 items over (each hand-off is a wait and
# a notify on either side: slow to schedule).
# waitPoll polls with a timed wait of 10 s (virtual: without the scheduler's
# virtual timeouts each of its 20 hand-offs waited 10 s of real time, and the
# run ended as timeout); in waitRace two threads wait with timeouts of 1 and
# 2 ms while the method sums: the method's notify wakes one, the other times
# out, each then sums to 10 once (2 x 109; real timeouts gave other polls).
# waitTimeouts: the method's wait times out 2000 times (virtual: its
# timeout is 100,000 s) while the thread it started is parked, waiting for
# its turn in the agent and looking at the holder each time the baton
# moves; unparked, it sums 2000 once. (Once that thread took the method,
# back from a wait and retaking the monitor, for a thread that had begun
# an Object.wait the agent did not see: its next wait then waited for the
# real 100,000 s, and the run ended at --timeout; or, as in waitRace on a
# busy machine, the agent waited for that wait for 10 s at every turn, and
# once the thread had ended, asked JVMTI about its monitor, gone, and
# printed each refusal until the output limit ended the run.) With the step
# engine alone: the fast engine runs threads freely, where its waits are
# real, before it leaves the run to the step engine.
# parallelAgain is called three times, four sums of N/4 each time: the
# common pool's workers that the first call starts stay the method's own
# and do the later calls' sums, counted (not refused as hidden threads).
for spec in spin:$((10 * N + 9)) sleepPoll:$((10 * N + 9)) join:$((10 * N + 9)) \
  waitPoll:$((10 * N + 9)) waitRace:$((10 * N + 9 + 2 * 109)) waitTimeouts:$((10 * 2000 + 9)):2000 \
  executor:$((4 * (10 * (N / 4) + 9))) parallelAgain:$((3 * 4 * (10 * (N / 4) + 9))) \
  parallelSort: prodcons::2000 pipeJoin:$((10 * N + 9)) clinit:$((10 * N + 9)); do
  mode=${spec%%:*} rest=${spec#*:}
  want=${rest%%:*} n=${rest#*:}
  [ "$n" = "$rest" ] && n=$N
  ENGINE=""
  [ "$mode" = waitTimeouts ] && ENGINE=step
  scores=""
  for i in 1 2 3 4 5; do
    scores="$scores $(score "$mode" "$n")"
    [ "$i" = 1 ] && [ -n "$want" ] && expect_eq "$mode: the threads' sum counted exactly" "$(sum_work)" "$want"
  done
  distinct=$(tr ' ' '\n' <<<"$scores" | sed '/^$/d' | sort -u | tr '\n' ' ')
  # five runs, five words: a run that printed nothing (no JSON) is no score
  # (and no agreement), not a run left out of the comparison
  [ "$(wc -w <<<"$scores")" = 5 ] || distinct="no score from every run"
  case $distinct in
    *[!0-9\ ]*) fail "$mode: scored on every run" "$scores" ;;
    *\ *[0-9]*) fail "$mode: the same score on 5 runs" "$scores" ;;
    *) pass "$mode: the same score on 5 runs ($distinct)" ;;
  esac
done

# Refused by name: the method reads a pipe (or waits in a selector, or
# accepts a socket) right after starting the thread that would write to it,
# which the scheduler has not run yet: the read would keep the baton and
# wait for ever. Every run is refused the same way.
for spec in "pipeWait:read an empty pipe in sun\.nio\.ch\.[A-Za-z]*Dispatcher[A-Za-z]*\.read0" \
  "selector:waited in a selector in sun\.nio\.ch\.EPoll\.wait" \
  "socket:waited on a socket in sun\.nio\.ch\.Net\.accept"; do
  mode=${spec%%:*} want=${spec#*:}
  for i in 1 2; do
    "$GS" --classpath "$FX" --main Sched --method "Sched.$mode" --json --costs none --sandbox require \
      -- "$mode" 2000 >"$TEST_TMP/out" 2>"$TEST_TMP/err" && rc=0 || rc=$?
    expect_eq "$mode: refused as unschedulable, exit 29 (run $i)" "$rc/$(jq -r .status "$TEST_TMP/out")" "29/unschedulable"
    expect_match "$mode: the message names it (run $i)" "$(jq -r .message "$TEST_TMP/out")" "^thread 1 of the method's threads $want: "
  done
done

finish
