#!/usr/bin/env bash
# adversarial.sh - untrusted submissions (tests/fixtures/adversarial): every
# abnormal end has its status and exit code and no score; forged results,
# threads, native copies and randomness cannot make a score cheaper or vary.
set -eu
. "$(dirname "$0")/lib.sh"
adversarial_setup

# run NAME CLASS METHOD [get_score options] -- ARGS: JSON in $TEST_TMP/out, exit code echoed
run() {
  local cls=$1 method=$2
  shift 2
  "$GS" --classpath "${RUN_CP:-$FX}" --main "$cls" --method "$cls.$method" --json --costs none --sandbox require "$@" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err" && echo 0 || echo $?
}
# expect_end NAME WORD CODE CLASS METHOD [options] -- ARGS
expect_end() {
  local name=$1 word=$2 code=$3
  shift 3
  local rc
  rc=$(run "$@")
  expect_eq "$name: exit code" "$rc" "$code"
  expect_eq "$name: status" "$(jq -r .status "$TEST_TMP/out")" "$word"
  expect_eq "$name: no score" "$(jq -r .score "$TEST_TMP/out")" null
}

# --- abnormal ends ---------------------------------------------------------------
expect_end "System.exit in the method" exit_in_method 12 Ends exit -- exit
expect_end "Runtime.halt in the method" halt_in_method 13 Ends halt -- halt
expect_end "exception escaping" exception 9 Ends escape -- escape
expect_match "exception escaping: names the class" "$(jq -r .message "$TEST_TMP/out")" IllegalStateException
expect_end "StackOverflowError" stack_overflow 10 Ends deep -- deep
expect_end "OutOfMemoryError" out_of_memory 11 Ends hog --heap 32m -- hog
# (the bytecode limit's run, a JVM start and a short method, is timed: the
# deadlock's --timeout below is three times as long, rounded up to whole
# seconds, at least 3 s)
t0=$(date +%s%N)
expect_end "endless loop: bytecode limit" bytecode_limit 17 Ends spin --max-bytecodes 1000000 -- spin
start_s=$((($(date +%s%N) - t0 + 999999999) / 1000000000))
expect_end "endless loop: timeout" timeout 14 Ends spin --max-bytecodes 1000000000000 --timeout 3 -- spin
# The deadlock is found in the thread dump taken at --timeout: the JVM must
# have started and its two threads met within it. On an idle machine that
# takes about a second and 3 s is enough; a busy one starts the JVM slower,
# and a dump taken before the threads met finds no deadlock (status
# timeout). So the limit grows with this machine's JVM start, measured just
# before.
dl_timeout=$((3 * start_s > 3 ? 3 * start_s : 3))
echo "# deadlock: --timeout $dl_timeout (the bytecode limit's run took at most $start_s s)"
expect_end "deadlock" deadlock 15 Ends deadlock --timeout "$dl_timeout" -- deadlock
# A JVM crash cannot come from SE Java code; a SIGSEGV delivered from outside
# takes the JVM down the same way (its handler writes hs_err and aborts).
# (once the JVM runs: on a loaded machine the checks before it take a
# while, and the processes that start it (bubblewrap, timeout) name the
# same arguments: a signal that came before the JVM did would end them
# instead, so the wait is for a process that is java itself)
( for _ in $(seq 120); do
    for p in $(pgrep -f "[E]nds spin-for-crash"); do
      [ "$(cat "/proc/$p/comm" 2>/dev/null)" = java ] && break 2
    done
    sleep 0.5
  done
  sleep 3; pkill -SEGV -f "[E]nds spin-for-crash" ) &
killer=$!
expect_end "JVM crash" crashed 16 Ends spin --max-bytecodes 1000000000000 --timeout 30 -- spin-for-crash
wait "$killer" || true
rc=$(run Ends loadlib -- loadlib)
expect_eq "native library of its own: refused, method scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
# JDK 24 and later refuse it before the agent does (--illegal-native-access=deny)
if [ "$(psf_jdk_feature "$JAVA")" -ge 24 ]; then
  refused="native refused: Illegal native access from an unnamed module"
else
  refused="native refused: loading native libraries is not allowed"
fi
expect_match "native library of its own: the program saw why" "$(cat "$TEST_TMP/err")" "$refused"

expect_end "too many threads" thread_limit 18 Ends forker --max-threads 10 -- forker
expect_end "too much output" output_limit 19 Ends chatty --max-output 100000 -- chatty
# chatty prints 100,000 lines of "chatter " x 100: what reaches stderr is
# the first 100,000 bytes of them, byte for byte
head -c 100000 < <(yes "$(printf 'chatter %.0s' $(seq 100))") >"$TEST_TMP/chatter"
expect_eq "too much output: its first 100,000 bytes passed on to stderr" \
  "$(cmp "$TEST_TMP/chatter" "$TEST_TMP/err" 2>&1 && echo same)" same
[ "$(wc -c <"$TEST_TMP/err")" -le 101000 ] && pass "too much output: at most the limit passed on" ||
  fail "too much output: at most the limit passed on" "$(wc -c <"$TEST_TMP/err") bytes"
# One burst of output right after the method returned, then Runtime.halt: the
# JVM is gone before the watcher's next poll (0.1 s after the start, then
# ever further apart) in most runs, so only a look at the size after the
# run catches it; eight tries make a miss without that look near certain.
ends=""
for _ in 1 2 3 4 5 6 7 8; do
  rc=$(run Ends quick --max-output 100000 -- burst)
  ends="$ends $rc/$(jq -r '"\(.status)/\(.score)"' "$TEST_TMP/out")"
done
expect_eq "a burst of output just before the JVM ends: output_limit, no score (8 tries)" "$ends" \
  "$(printf ' %s' 19/output_limit/null 19/output_limit/null 19/output_limit/null 19/output_limit/null \
    19/output_limit/null 19/output_limit/null 19/output_limit/null 19/output_limit/null)"
# More than the limit, then a wait of the program's own: the watcher, whose
# polls grow to one a second (scripts/lib/run.sh), ends the run, not --timeout.
# A run that --timeout ended took at least --timeout (its clock starts after
# this script's), so any shorter run was ended by the watcher: the bound is
# --timeout itself, which only a broken watcher reaches, however slow the
# machine (a run ends here in a few seconds).
started=$SECONDS
expect_end "too much output, then a wait: ended by the watcher" output_limit 19 Ends quick --max-output 100000 \
  --timeout 120 -- flood
[ $((SECONDS - started)) -lt 120 ] && pass "too much output, then a wait: ended before --timeout" ||
  fail "too much output, then a wait: ended before --timeout" "after $((SECONDS - started)) s"
# The launcher's words printed by the program after the method returned: the
# authentic result stands (the program failed after the method: 8), not the
# class_not_found (3) the text alone would suggest.
rc=$(run Ends quick -- launcher)
expect_eq "launcher's words from the program: program_failed, not class_not_found" "$rc/$(jq -r .status "$TEST_TMP/out")" "8/program_failed"
rc=$(run Ends spawn -- spawn)
expect_eq "starting a process: refused, method scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
expect_match "starting a process: the program saw an IOException" "$(cat "$TEST_TMP/err")" "spawn refused: .*starting processes is not allowed"
rc=$(run Ends caught -- caught)
expect_eq "exception caught inside: scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"

# --- bad input ---------------------------------------------------------------------
expect_end "class without main" no_main 22 NoMain work
mkdir -p "$TEST_TMP/corrupt"
head -c 100 "$PSF_BUILD/fixtures/agent/Loops.class" >"$TEST_TMP/corrupt/Loops.class"
rc=$("$GS" --classpath "$TEST_TMP/corrupt" --method Loops.sum --json --sandbox require -- 1 >"$TEST_TMP/out" 2>/dev/null && echo 0 || echo $?)
expect_eq "truncated class file: exit code" "$rc" 23
expect_eq "truncated class file: status" "$(jq -r .status "$TEST_TMP/out")" bad_class_file
mkdir -p "$TEST_TMP/odd dir/ünï"
cp "$PSF_BUILD/fixtures/agent/Loops.class" "$TEST_TMP/odd dir/ünï/"
rc=$("$GS" --classpath "$TEST_TMP/odd dir/ünï" --method Loops.sum --json --costs none --sandbox require -- 10 >"$TEST_TMP/out" 2>/dev/null && echo 0 || echo $?)
expect_eq "unusual characters in the class path: scored" "$rc/$(jq -r .score "$TEST_TMP/out")" "0/99"

"$GS" --classpath "$FX" --main Names --method 'Größe.maß' --json --costs none --sandbox require >"$TEST_TMP/out" 2>/dev/null && rc=0 || rc=$?
expect_eq "non-ASCII class and method: scored (9n+9)" "$rc/$(jq -r .score "$TEST_TMP/out")" "0/99"
expect_eq "non-ASCII class and method: name kept" "$(jq -r .method "$TEST_TMP/out")" "Größe.maß(I)I"
"$GS" --classpath "$FX" --main Names --method '𝒜lpha.𝒷eta' --json --costs none --sandbox require >"$TEST_TMP/out" 2>/dev/null && rc=0 || rc=$?
expect_eq "letters beyond U+FFFF (surrogate pairs in the JVM): scored" "$rc/$(jq -r .score "$TEST_TMP/out")" "0/4"
expect_eq "letters beyond U+FFFF: name as UTF-8" "$(jq -r .method "$TEST_TMP/out")" "𝒜lpha.𝒷eta(I)I"

# --- forged results ------------------------------------------------------------------
rc=$(run Forger work -- 100)
expect_eq "forger: the real score (9n+9)" "$rc/$(jq -r .score "$TEST_TMP/out")" "0/909"
expect_match "forger: tried (and the sandbox shows it no descriptors)" "$(cat "$TEST_TMP/err")" "forger: wrote a fake result into [0-9]+ pipes"
expect_match "forger: cannot open /proc/self/mem in the sandbox" "$(cat "$TEST_TMP/err")" "/proc/self/mem readable: no"
expect_eq "forger: stdout is one JSON object" "$(jq -s length "$TEST_TMP/out")" 1
expect_eq "forger: nothing written to the working directory" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0

# --- threads: handing work to another thread never makes it cheaper -------------------
# sum(n) is lconst_0 lstore_1 iconst_0 istore_3, then per iteration iload_3
# iload_0 if_icmpge lload_1 iload_3 i2l ladd lstore_1 iinc goto (10), then
# the last iload_3 iload_0 if_icmpge and lload_1 lreturn: 10n + 9 bytecodes,
# counted in full on whichever thread runs it: 1,000,009 for sum(100000),
# and 4 x 250,009 where four threads or a parallel stream take a quarter
# each. The rest of a mode's score is the JDK's thread handling, so the
# whole must also cost at least the inline run.
SUM="/psf-profile/methods/method[@name='Threads.sum(I)J']/@work"
rc=$(run Threads inline --profile-out "$TEST_TMP/p.xml" -- inline 100000)
inline=$(jq -r .score "$TEST_TMP/out")
expect_eq "threads: inline scored" "$rc" 0
expect_eq "threads: inline: sum(100000) = 10n + 9" "$(xpath "$TEST_TMP/p.xml" "$SUM")" 1000009
for mode in thread:1000009 split:1000036 executor:1000009 commonPool:1000009 parallel:1000036 detached:1000009; do
  rc=$(run Threads "${mode%%:*}" --profile-out "$TEST_TMP/p.xml" -- "${mode%%:*}" 100000)
  score=$(jq -r .score "$TEST_TMP/out")
  expect_eq "threads: ${mode%%:*} scored" "$rc" 0
  expect_eq "threads: ${mode%%:*}: every sum bytecode counted" "$(xpath "$TEST_TMP/p.xml" "$SUM")" "${mode#*:}"
  if [ "$rc" = 0 ] && [ "$score" -ge "$inline" ]; then
    pass "threads: ${mode%%:*} costs at least inline ($score vs $inline)"
  else
    fail "threads: ${mode%%:*} costs at least inline" "$score vs $inline$(said)"
  fi
done

# The bytecode limit holds for the method as a whole: four threads with about
# 2.25 million bytecodes each stay under 4 million one by one, not together.
# Threads the method started are counted, not watched: seventy of them ending
# while it runs (with --max-threads 100) must not fill the agent's record of
# watched threads that ended (64 places) and fail the run.
rc=$(run Threads seventy --max-threads 100 -- seventy 70000)
expect_eq "threads: seventy started and ended by the method: scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
expect_end "threads: the limit counts every thread" bytecode_limit 17 Threads split --max-bytecodes 4000000 -- split 1000000
# Threads the method did not start: the program's code they run while it
# runs is counted (agent/core/borrow.c, borrow_begin), with what it calls.
rc=$(run Threads prewarmed --profile-out "$TEST_TMP/p.xml" -- prewarmed 100000)
score=$(jq -r .score "$TEST_TMP/out")
expect_eq "threads: work handed to a pool started before the method: scored" "$rc" 0
expect_eq "threads: work handed to a pool started before the method: every sum bytecode counted" \
  "$(xpath "$TEST_TMP/p.xml" "$SUM")" 1000009
# finalize()'s loop runs 13 bytecodes an iteration (iload, aload_0,
# getfield, if_icmpge, lload, iload, bipush, irem, i2l, ladd, lstore, iinc,
# goto) on the Finalizer thread
rc=$(run Fin work -- 100000)
expect_at_least "work moved into finalize() is counted (13 x 100000)" "$rc" "$(jq -r .score "$TEST_TMP/out")" 1300000
# under --engine fast (the default) the run is the step engine's: a program
# class with a finalize() makes the fast engine leave it (what the Finalizer
# thread gets done while the method runs depends on timing, and only
# stepping shows it)
if [ "${PSF_TEST_ENGINE:-fast}" = fast ]; then
  # shellcheck disable=SC2016 # a regex: Fin$Worker, its $ escaped
  expect_match "finalize(): the fast engine leaves it to the step engine" "$(jq -r .fallback "$TEST_TMP/out")" \
    'Fin\$Worker declares finalize\(\)'
fi

# Ways past the hidden-threads check found in review, now counted: a
# thread started before the method that ends before it returns, one in a
# thread group named "system", a worker that an uncounted thread starts
# while the method runs. sum's loop runs 14 bytecodes an iteration (iload_3
# iload_0 if_icmpge lload_1 iload_3 i2l lload_1 bipush lushr lxor ladd
# lstore_1 iinc goto), with 4 before it and 5 after: 14n + 9 in all.
for mode in dies system spawned; do
  rc=$(run Bystanders handOff --profile-out "$TEST_TMP/p.xml" -- "$mode" 100000)
  expect_at_least "bystanders: $mode: the worker's sum is counted (14 x 100000)" "$rc" "$(jq -r .score "$TEST_TMP/out")" 1400000
  expect_eq "bystanders: $mode: every bytecode of the worker's sum counted (14n + 9)" \
    "$(xpath "$TEST_TMP/p.xml" "/psf-profile/methods/method[@name='Bystanders.sum(I)J']/@work")" 1400009
done
# The JDK's code alone on a thread the method did not start (a parallel
# stream's sum, part of it on the common pool's worker that main started)
# is not counted: past the allowance, refused, naming the thread.
expect_end "bystanders: the JDK's code on a pool started before" hidden_threads 25 Bystanders jdkOnly -- jdkOnly 1000000
expect_match "bystanders: jdkOnly names the worker" "$(jq -r .message "$TEST_TMP/out")" "ForkJoinPool.commonPool-worker"
# The program's code that a JDK initializer runs on a thread the method did
# not start, from the JDK's code alone: a pool's worker, warmed before the
# method, calls a Callable the JDK made (Selector.open,
# AsynchronousChannelProvider.provider); the JDK's static access to the
# provider's holder runs the holder's initializer with single-stepping
# hidden, and the initializer instantiates the class the system property
# names, the program's, which sorts 2000 ints (LogManager's initializer
# likewise). The same initializer begun before the method (begun: the
# worker makes the common pool's thread factory, whose constructor waits
# for the method to begin, then sorts): the step engine finds the
# program's code on the worker's stack as the method begins, the fast
# engine at its next block. Refused as hidden_work (31),
# naming the program's method, the JDK initializer and the worker, by
# either engine itself (no fallback), on the default JDK and on JDK 25
# (agent/runtime/bystanders.c, bystanders_hidden_init).
pool_init_jdks=("$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVA")")")")")
j25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ -x "$j25/bin/java" ] && [ "$(psf_jdk_feature "$j25/bin/java")" != "$(psf_jdk_feature "$JAVA")" ]; then
  pool_init_jdks+=("$j25")
else
  echo "# JDK 25 NOT TESTED for PoolInit: no JDK 25 at $j25 other than the default"
fi
for jdk in "${pool_init_jdks[@]}"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  while IFS='|' read -r mode method root; do
    for eng in step fast; do
      rc=$(JAVA_HOME=$jdk run PoolInit sort --engine "$eng" -- "$mode" 2000)
      expect_eq "bystanders: a JDK initializer on a pool runs the program's code (JDK $v, $eng, $mode): hidden_work" \
        "$rc/$(jq -r '"\(.status)/\(.score)/\(.fallback // "none")"' "$TEST_TMP/out")" "31/hidden_work/null/none"
      msg=$(jq -r .message "$TEST_TMP/out")
      if [[ $msg == "$method "*" inside $root"*" thread 'pool-1-thread-1'"* ]]; then
        pass "bystanders: PoolInit (JDK $v, $eng, $mode) names the method, the initializer and the worker"
      else fail "bystanders: PoolInit (JDK $v, $eng, $mode) names the method, the initializer and the worker" "$msg"; fi
    done
  done <<'CASES'
selector|PoolInit$Provider.<clinit>()V|java.nio.channels.spi.SelectorProvider$Holder.<clinit>()V
async|PoolInit$Async.<init>()V|java.nio.channels.spi.AsynchronousChannelProvider$ProviderHolder.<clinit>()V
logging|PoolInit$Logs.<init>()V|java.util.logging.LogManager.<clinit>()V
begun|PoolInit$Factory.<init>()V|java.util.concurrent.ForkJoinPool.<clinit>()V
CASES
done
# The JDK's copying handed to a pool started before the method: addAll of N
# Integers on the executor's worker, a few hundred of the JDK's bytecodes
# and 3N elements that System.arraycopy copies (toArray, the list's growth,
# the copy into place), each charged like a bytecode. N = 1000: 3,000, under
# the allowance of 10,000, scored; N = 100,000: 300,000, refused, naming
# the worker. The same status with either engine (the fast engine leaves
# these runs to the step engine: java.util.concurrent links method handles
# in the method).
for eng in step fast; do
  rc=$(run Bystanders copies --engine "$eng" -- copies 1000)
  expect_eq "bystanders: the JDK's copies of 3,000 elements on a pool ($eng): scored" \
    "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
  expect_end "bystanders: the JDK's copies of 300,000 elements on a pool ($eng)" hidden_threads 25 \
    Bystanders copies --engine "$eng" -- copies 100000
  msg=$(jq -r .message "$TEST_TMP/out")
  ran=$(sed -n "s/^thread 'pool-1-thread-1', not started by the method, ran \([0-9]*\) .*/\1/p" <<<"$msg")
  if [ "${ran:-0}" -ge 300000 ]; then
    pass "bystanders: copies ($eng): names the worker and its 300,000 elements or more ($ran)"
  else
    fail "bystanders: copies ($eng): names the worker and its 300,000 elements or more" "$msg"
  fi
done

# The verdict follows from what the bystanders ran, not from how long it
# took: the same four cases give the same status with both engines, on an
# idle machine and while two busy loops (one per core, started here) load
# it. Threads prewarmed and copies 1000 are scored; copies 100000 and
# jdkOnly are refused.
# (each loop also ends by itself after 5 minutes, should this script die)
busy=()
busy_start() { for _ in 1 2; do ( end=$((SECONDS + 300)); while [ "$SECONDS" -lt "$end" ]; do :; done ) & busy+=("$!"); done; }
busy_stop() { kill "${busy[@]}" 2>/dev/null || true; wait "${busy[@]}" 2>/dev/null || true; busy=(); }
for eng in step fast; do
  for load in idle loaded; do
    [ "$load" = loaded ] && busy_start
    got=""
    for spec in "Threads prewarmed 100000" "Bystanders copies 1000" "Bystanders copies 100000" \
                "Bystanders jdkOnly 1000000"; do
      read -r cls mode n <<<"$spec"
      rc=$(run "$cls" "$mode" --engine "$eng" -- "$mode" "$n")
      got="$got $rc/$(jq -r .status "$TEST_TMP/out")"
    done
    [ "$load" = loaded ] && busy_stop
    expect_eq "bystanders: verdicts do not depend on the machine's load ($eng, $load)" "$got" \
      " 0/ok 0/ok 25/hidden_threads 25/hidden_threads"
  done
done
# A daemon worker that the first invocation started (and counted) is the
# method's own: the scheduler keeps it between the calls, and the second
# call counts the work it hands over (sum's loop: 14 bytecodes an
# iteration), the same on every run.
rc=$(run Bystanders daemon -- daemon 100000)
first=$(jq -c '[.status, .invocation_list[1].work]' "$TEST_TMP/out")
rc2=$(run Bystanders daemon -- daemon 100000)
second=$(jq -c '[.status, .invocation_list[1].work]' "$TEST_TMP/out")
work=$(jq -r '.invocation_list[1].work' "$TEST_TMP/out")
if [ "$rc/$rc2" = 0/0 ] && [ "$work" -ge 1400000 ] && [ "$first" = "$second" ]; then
  pass "bystanders: a daemon of an earlier invocation does the next one's work counted ($first twice)"
else
  fail "bystanders: a daemon of an earlier invocation does the next one's work counted" "$rc/$rc2: $first $second"
fi

# Work compiled beforehand on a thread the method did not start needs less
# CPU than the check allows: the worker warms a merge sort up, sleeps while
# the JIT compiles it, then sorts the method's 2000 ints. Watched threads
# are stepped while the method runs (interpreted, every bytecode seen), so
# the sort is counted each way: at least what sorting inline costs.
rc=$(run JitBystander inline -- inline 2000)
honest=$(jq -r .score "$TEST_TMP/out")
expect_eq "compiled bystander: inline scored" "$rc" 0
for spec in main:handOff clinit:handOff finalize:handOff monitor:handOffMonitor; do
  mode=${spec%%:*}
  rc=$(run JitBystander "${spec#*:}" -- "$mode" 2000)
  score=$(jq -r .score "$TEST_TMP/out")
  expect_at_least "compiled bystander: $mode: the sort is counted" "$rc" "$score" "$honest"
  # and the result says that part of it ran where nothing schedules it
  # (the sort alone is over 500,000 bytecodes)
  uns=$(jq -r '.unscheduled // 0' "$TEST_TMP/out")
  if [ "$uns" -ge 500000 ] && [ "$uns" -le "$score" ] && [ "$(jq -r '.invocation_list[0].unscheduled' "$TEST_TMP/out")" = "$uns" ]; then
    pass "compiled bystander: $mode: the JSON says $uns bytecodes were not scheduled"
  else
    fail "compiled bystander: $mode: the JSON says which bytecodes were not scheduled" "$uns of $score"
  fi
done
rc=$(run JitBystander inline -- inline 2000)
expect_eq "compiled bystander: inline: nothing unscheduled" "$rc/$(jq -r '.unscheduled // "none"' "$TEST_TMP/out")" "0/none"

# --- static initializers: precomputing in `static {}` that the method runs is no cheaper ---
rc=$(run Precompute inline -- inline)
inline=$(jq -r .score "$TEST_TMP/out")
expect_eq "precompute: inline scored" "$rc" 0
for mode in table holder; do
  rc=$(run Precompute "$mode" -- "$mode")
  score=$(jq -r .score "$TEST_TMP/out")
  expect_eq "precompute: $mode scored" "$rc" 0
  # the same sieve plus a getstatic or a call: at least inline, at most 10 bytecodes more
  if [ "$rc" = 0 ] && [ "$score" -ge "$inline" ] && [ "$score" -le $((inline + 10)) ]; then
    pass "precompute: work in $mode's static initializer is counted ($score vs $inline)"
  else
    fail "precompute: work in $mode's static initializer is counted" "$score vs $inline"
  fi
done
# the method's own class, initialized by main's call before the method runs,
# and the instance main makes for an instance method
for spec in "Own own static_initializer" "Inst inst constructor"; do
  # shellcheck disable=SC2086 # the case's words
  set -- $spec
  "$GS" --classpath "$FX" --main Precompute --method "Precompute\$$1.count" --json --costs none --sandbox require \
    -- "$2" >"$TEST_TMP/out" 2>/dev/null && rc=0 || rc=$?
  score=$(jq -r .score "$TEST_TMP/out")
  if [ "$rc" = 0 ] && [ "$score" -ge "$inline" ] && [ "$score" -le $((inline + 12)) ]; then
    pass "precompute: work in the method's own class's $3 is counted ($score vs $inline)"
  else
    fail "precompute: work in the method's own class's $3 is counted" "$rc: $score vs $inline"
  fi
done

# --- sun.misc.Unsafe: no instance the program can reach reads or writes memory ----------
rc=$(run UnsafeMem work --program-output "$TEST_TMP/unsafe.out")
expect_eq "unsafe: scored" "$rc" 0
expect_eq "unsafe: every way to an instance is disarmed" "$(cat "$TEST_TMP/unsafe.out")" "field disarmed
constructor disarmed
handle disarmed"
# Each use throws a NullPointerException at an invoke of the disarmed
# instance, the first two while HotSpot resolves that invoke (single-stepping
# hidden: the step engine counts nothing of the exception's constructor),
# which no frame tells: the fast engine leaves the run to the step engine,
# saying so (not for a calling context it got wrong)
if [ "${PSF_TEST_ENGINE:-fast}" = fast ]; then
  expect_match "unsafe: the fast engine falls back for the constructor run at an unresolved invoke" \
    "$(jq -r .fallback "$TEST_TMP/out")" \
    "exception's constructor at the invokevirtual at offset 4 of UnsafeMem\.use\(Lsun/misc/Unsafe;\)"
fi
# (sandboxed like every adversarial run, but without PSF's agent)
expect_eq "unsafe: usable without PSF (the fixture can tell)" \
  "$(bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent "$JAVA" -cp "$FX" UnsafeMem | cut -d' ' -f2 | sort -u)" usable

# --- agents and class loaders of the program's own ----------------------------------
# JVMTI.agent_load through the platform MBean server would load an agent from
# inside the program (it could rewrite the counters or redefine the class);
# the attach API is off as well. Both refused, the method scored.
rc=$(run AgentLoad load -- "$PSF_BUILD/libpsfagent.so")
expect_eq "agent load: method scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
expect_match "agent load: the diagnostic command refused" "$(cat "$TEST_TMP/err")" "agent load refused: diagnostic commands are not allowed"
expect_match "agent load: attach refused" "$(cat "$TEST_TMP/err")" "attach refused:"
# A loader of the program's own would run its code while HotSpot hides the
# steps (class resolution): defining classes with it is refused, whether it
# is a ClassLoader subclass or a URLClassLoader fed by the program's own URL
# handler; lambdas, proxies and reflection's generated accessors still work.
rc=$(run Loaders define -- 0)
expect_eq "loaders: method scored" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
expect_match "loaders: own loader refused" "$(cat "$TEST_TMP/err")" "own loader refused: java.lang.SecurityException: class loaders of the program's own"
expect_match "loaders: URL loader refused" "$(cat "$TEST_TMP/err")" "url loader refused: java.lang.SecurityException: class loaders of the program's own"
expect_match "loaders: the JDK's own definitions still work" "$(cat "$TEST_TMP/err")" "jdk definitions ran: true"

# --- names that look like the JVM's own upcalls stay work ----------------------------
rc=$(run LoadClass loadClass)
expect_eq "a method named loadClass: scored" "$rc" 0
expect_eq "a method named loadClass: no overhead" "$(jq -r .runtime_bytecodes "$TEST_TMP/out")" 0
[ "$(jq -r .bytecodes "$TEST_TMP/out")" -ge 900000 ] && pass "a method named loadClass: its loop is work" ||
  fail "a method named loadClass: its loop is work" "$(jq -r .bytecodes "$TEST_TMP/out")"

# --- reflection, method handles and lambdas count like direct calls ---------------------
rc=$(run Indirect direct -- direct 100000)
direct=$(jq -r .score "$TEST_TMP/out")
for mode in reflection handle lambda; do
  rc=$(run Indirect "$mode" -- "$mode" 100000)
  expect_at_least "indirect: $mode costs at least the direct call" "$rc" "$(jq -r .score "$TEST_TMP/out")" "$direct"
done

# --- native work is charged by size ----------------------------------------------------
P=$TEST_TMP/p.xml
copied() { xpath "$P" "/psf-profile/dependencies[@bucket='work']/invoke[starts-with(@method,'java.lang.System.arraycopy')]/@elements"; }
for n in 1000 10000; do
  run Copies arraycopy --profile-out "$P" -- arraycopy "$n" >/dev/null
  expect_eq "arraycopy($n): elements copied" "$(copied)" "$n"
done
COSTS=$TEST_TMP/costs.xml
sed 's|</costs>|  <invoke method="java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V" cost="10" cost_per_element="1"/>\n</costs>|' \
  "$PSF_ROOT/config/costs-uncalibrated.xml" >"$COSTS"
small=$("$GS" --classpath "$FX" --main Copies --method Copies.arraycopy --json --costs "$COSTS" --sandbox require -- arraycopy 1000 2>/dev/null | jq -r .score)
large=$("$GS" --classpath "$FX" --main Copies --method Copies.arraycopy --json --costs "$COSTS" --sandbox require -- arraycopy 10000 2>/dev/null | jq -r .score)
expect_eq "arraycopy: 10x the elements costs 9000 more" "$((large - small))" 9000
run Copies cloned --profile-out "$P" -- cloned 1000 >/dev/null
expect_eq "clone: the native allocation is charged" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='int']/@elements")" 2000
expect_eq "clone: its elements are the call's (copied)" \
  "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/invoke[@method='[I.clone()Ljava/lang/Object;']/@elements")" 1000
expect_eq "copyOf: only its own arraycopy's elements" "$(copied)" 1000
rc=$(run Copies negative --profile-out "$P" -- negative 5)
expect_eq "negative array size: scored" "$rc" 0
# -5 as an unsigned count would be 18446744073709551611: no element count may come near that
expect_eq "negative array size: no wrapped element count" "$(xpath "$P" "count(//array[@elements > 1000000000000])")" 0
expect_match "negative array size: the failed allocation's work is scored" "$(jq -r .score "$TEST_TMP/out")" '^[1-9][0-9]*$'

run Copies zeros --profile-out "$P" -- zeros 1000 >/dev/null
# new int[n][0]: one int[][] of n plus n int[0]; new int[n][0][n]: one int[][][] of n plus n int[][0]
expect_eq "zero dimensions: every array charged" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='int[]']/@allocations")" 1001
expect_eq "zero dimensions: int[0] arrays charged" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='int']/@allocations")" 1000

# Checksums and compression run in JDK natives: the bytes each call handled
# are its elements (agent/runtime/bulk.c), the same bytecodes for any size.
for mode in crc32:java.util.zip.CRC32.updateBytes0 crc32direct:java.util.zip.CRC32.updateByteBuffer0 \
  adler32:java.util.zip.Adler32.updateBytes deflate:java.util.zip.Deflater.deflateBytesBytes \
  inflate:java.util.zip.Inflater.inflateBytesBytes; do
  key=${mode#*:} mode=${mode%%:*}
  got=""
  for n in 10000 100000; do
    run Bulk work --profile-out "$P" -- "$mode" "$n" >/dev/null
    got="$got $(jq -r .bytecodes "$TEST_TMP/out")/$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/invoke[starts-with(@method,'$key(')]/@elements")"
  done
  # shellcheck disable=SC2086 # the two runs' results, one a word
  set -- $got
  if [ "${1%/*}" = "${2%/*}" ] && [ "${1#*/}" -ge 10000 ] && [ "${2#*/}" -ge 100000 ]; then
    pass "natives by size: $mode: the same bytecodes, elements grow with the input ($got)"
  else
    fail "natives by size: $mode: the same bytecodes, elements grow with the input" "$got"
  fi
  [ "$mode" != crc32 ] || expect_eq "natives by size: crc32 of 10^5 bytes: exactly its bytes" "${2#*/}" 100000
done
# A table without a price per element for them: listed as missing, never free
rc=$("$GS" --classpath "$FX" --main Bulk --method Bulk.work --json --costs "$COSTS" --sandbox require -- crc32 100000 \
  2>/dev/null >"$TEST_TMP/out" && echo 0 || echo $?)
expect_eq "natives by size: unpriced CRC32 is missing" \
  "$rc/$(jq -r '.missing | any(. == "invoke:java.util.zip.CRC32.updateBytes0(I[BII)I")' "$TEST_TMP/out")" "0/true"
sed 's|</costs>|  <invoke method="java.util.zip.CRC32.updateBytes0(I[BII)I" cost="10" cost_per_element="1"/>\n</costs>|' \
  "$PSF_ROOT/config/costs-uncalibrated.xml" >"$TEST_TMP/crc.xml"
small=$("$GS" --classpath "$FX" --main Bulk --method Bulk.work --json --costs "$TEST_TMP/crc.xml" --sandbox require -- crc32 10000 2>/dev/null | jq -r .score)
large=$("$GS" --classpath "$FX" --main Bulk --method Bulk.work --json --costs "$TEST_TMP/crc.xml" --sandbox require -- crc32 100000 2>/dev/null | jq -r .score)
expect_eq "natives by size: 10x the bytes of CRC32 costs 90000 more" "$((large - small))" 90000

# --- hidden work: program code that HotSpot or the JDK runs on the method's behalf ------
# Hidden sorts 500 ints (insertion sort) in the method, in an interface's
# static initializer that linking a lambda runs (stepping hidden), or in the
# constructor of a thread factory that ForkJoinPool's initializer
# instantiates from a system property, or in the static initializer of a
# class whose method Method.invoke calls through a generated accessor: each
# costs at least the honest sort.
rc=$(run Hidden sort -- honest 500)
honest=$(jq -r .score "$TEST_TMP/out")
expect_eq "hidden work: honest sort scored" "$rc" 0
for mode in linkage factory reflection; do
  rc=$(run Hidden sort -- "$mode" 500)
  expect_at_least "hidden work: $mode costs at least the honest sort" "$rc" "$(jq -r .score "$TEST_TMP/out")" "$honest"
done

# --- randomness and clocks: one score over 5 runs and under taskset -c 0 ----------------
rc=$(run Random work --runs 5 -- 2000)
expect_eq "randomized quicksort: 5 runs, one score" "$rc/$(jq -r .distinct_scores "$TEST_TMP/out")" "0/1"
first=$(jq -r .score "$TEST_TMP/out")
again=$(taskset -c 0 "$GS" --classpath "$FX" --main Random --method Random.work --json --costs none --sandbox require -- 2000 2>/dev/null | jq -r .score)
expect_eq "randomized quicksort: same under taskset -c 0" "$again" "$first"
hs=$("$GS" --classpath "$PSF_BUILD/fixtures/agent" --method Hashing.work --json --costs none --sandbox require --runs 5 2>/dev/null | jq -r '"\(.status)/\(.distinct_scores)"')
expect_eq "HashSet<Object>: 5 runs, one score" "$hs" "ok/1"
# A Set.of of enum constants built by main, walked by the method: its order
# is the constants' identity hash codes, drawn by the main thread before the
# method, so the engines' starts must leave that thread's hash sequence
# alone and at one place (agent/runtime/startup.c): six runs give one score,
# and the other engine gives it too (docs/fast-engine.md, "Identity hash
# codes"). With the fast start on the main thread the fast engine counted
# 5,535 or 6,912 over 5 runs; with the step engine handing no class back,
# the step engine counted 9,881 against the fast engine's 4,631 (JDK 17).
rc=$(run HashOrder work --runs 6 --)
expect_eq "Set.of of enum constants built before the method: 6 runs, one score, no fallback" \
  "$rc/$(jq -r '"\(.distinct_scores)/\(.engine)"' "$TEST_TMP/out")" "0/1/${PSF_TEST_ENGINE:-fast}"
one=$(jq -r .score "$TEST_TMP/out")
other=step
[ "${PSF_TEST_ENGINE:-fast}" = fast ] || other=fast
rc=$("$GS" --classpath "$FX" --main HashOrder --method HashOrder.work --json --costs none --sandbox require \
  --engine "$other" >"$TEST_TMP/out" 2>"$TEST_TMP/err" && echo 0 || echo $?)
expect_eq "Set.of of enum constants built before the method: the $other engine's score, no fallback" \
  "$rc/$(jq -r '"\(.score)/\(.engine)"' "$TEST_TMP/out")" "0/$one/$other"

# --- values that differ between runs: none reaches the program ---------------------------
# PerRun loops (hash & 0xffff) times over one kind of value: every kind must
# give one score over two runs (docs/hidden-work.md, "Values that differ
# between runs").
for mode in cwd tmpdir home classpath args env pid hostname mtime inode space starttime cputime memory procs random; do
  rc=$(run PerRun work --runs 2 -- "$mode")
  expect_eq "per-run values: $mode: 2 runs, one score" "$rc/$(jq -r .distinct_scores "$TEST_TMP/out")" "0/1"
done
# ... and the same score from another working directory, with the class
# path somewhere else on the host (a grading server's fresh directory)
ELSEWHERE="$TEST_TMP/else where/ünï"
mkdir -p "$ELSEWHERE/cwd" "$ELSEWHERE/cp"
cp "$FX"/PerRun*.class "$ELSEWHERE/cp/"
for mode in cwd tmpdir classpath args random; do
  rc=$(run PerRun work -- "$mode")
  here=$rc/$(jq -r .score "$TEST_TMP/out")
  there=$(cd "$ELSEWHERE/cwd" && "$GS" --classpath ../cp --main PerRun --method PerRun.work --json --costs none \
    --sandbox require -- "$mode" 2>/dev/null | jq -r '"0/\(.score)"')
  expect_eq "per-run values: $mode: same score from another directory" "$there" "$here"
done

# --- --runs: a later run that fails fails the whole attempt ------------------------------
# Reruns behaves in the first run and fails in every later one. Every run
# sees the same paths and values, so the test tells them apart: the first
# reader of the named pipe reruns.fifo (in a class path directory) reads
# "first", every later one "later".
CTL=$TEST_TMP/ctl
mkdir -p "$CTL"
mkfifo "$CTL/reruns.fifo"
RERUNS_WRITER=""
reruns_start() {
  # One line per open, a pause between them: a reader takes one line and
  # closes before the next open; a write that finds it gone fails (EPIPE,
  # ignored) and the loop goes on, so no reader waits for a writer.
  ( trap '' PIPE; printf 'first\n' >"$CTL/reruns.fifo"
    while :; do sleep 0.2; printf 'later\n' >"$CTL/reruns.fifo"; done ) 2>/dev/null &
  RERUNS_WRITER=$!
}
reruns_stop() {
  [ -n "$RERUNS_WRITER" ] || return 0
  kill "$RERUNS_WRITER" 2>/dev/null || true
  sleep 0.2
  kill -KILL "$RERUNS_WRITER" 2>/dev/null || true
  wait "$RERUNS_WRITER" 2>/dev/null || true
  RERUNS_WRITER=""
}
trap 'reruns_stop; rm -rf "$TEST_TMP"' EXIT
reruns_start
rc=$(RUN_CP=$FX:$CTL run Reruns work -- escape)
reruns_stop
expect_eq "a later run fails: the first run alone scores" "$rc/$(jq -r .status "$TEST_TMP/out")" "0/ok"
reruns_start
RUN_CP=$FX:$CTL expect_end "--runs 3, run 2 throws" exception 9 Reruns work --runs 3 -- escape
reruns_stop
expect_match "--runs 3, run 2 throws: names the run" "$(jq -r .message "$TEST_TMP/out")" "^run 2 of 3: java.lang.IllegalStateException"
expect_eq "--runs 3, run 2 throws: no runs agreed" "$(jq -r .distinct_scores "$TEST_TMP/out")" null
reruns_start
RUN_CP=$FX:$CTL expect_end "--runs 3, run 2 hits the bytecode limit" bytecode_limit 17 Reruns work --runs 3 --max-bytecodes 1000000 -- spin
reruns_stop
expect_match "--runs 3, run 2 hits the bytecode limit: names the run" "$(jq -r .message "$TEST_TMP/out")" "^run 2 of 3: "
reruns_start
RUN_CP=$FX:$CTL expect_end "--runs 2, run 2 calls System.exit" exit_in_method 12 Reruns work --runs 2 -- exit
reruns_stop
expect_match "--runs 2, run 2 calls System.exit: names the run" "$(jq -r .message "$TEST_TMP/out")" "^run 2 of 2: "
# Runs that all score, but not the same: the second run's loop runs twice.
reruns_start
RUN_CP=$FX:$CTL expect_end "--runs 2, run 2 does more work" unstable 20 Reruns work --runs 2 -- more
reruns_stop
expect_match "--runs 2, run 2 does more work: both scores named" "$(jq -r .message "$TEST_TMP/out")" \
  "^the score differed between the 2 runs: [0-9]+ [0-9]+ "

# A run whose profile cannot be scored is no run that agreed either. Nothing a
# program does makes a later run's profile unscorable and not the first's, so
# here this build's psf-score is wrapped: its second --score-only call (run
# 2's) is killed, or scores a truncated copy of the profile.
FAKE=$TEST_TMP/fake-build
mkdir -p "$FAKE"
cp "$PSF_BUILD/libpsfagent.so" "$FAKE/" # the sandbox shows the agent's own directory only
ln -s "$PSF_BUILD/psf-receive" "$FAKE/psf-receive"
{
  echo '#!/usr/bin/env bash'
  echo "real=$(printf '%q' "$PSF_BUILD/psf-score") calls=$(printf '%q' "$FAKE/calls")"
  cat <<'WRAPPER'
case " $* " in
  *" --score-only "*)
    echo . >>"$calls"
    if [ "$(wc -l <"$calls")" -eq 2 ]; then
      case $FAKE_SCORE in
        killed) kill -KILL $$ ;;
        invalid) head -c 300 "${!#}" >"$calls.xml"; exec "$real" "${@:1:$#-1}" "$calls.xml" ;;
      esac
    fi ;;
esac
exec "$real" "$@"
WRAPPER
} >"$FAKE/psf-score"
chmod +x "$FAKE/psf-score"
rm -f "$FAKE/calls"
rc=$(FAKE_SCORE=none PSF_BUILD=$FAKE run Reruns work --runs 3 -- same)
expect_eq "--runs 3 through the wrapped psf-score, every run scored: one score" \
  "$rc/$(jq -r '"\(.status)/\(.distinct_scores)"' "$TEST_TMP/out")" "0/ok/1"
for how in killed:internal_error:70 invalid:bad_input:7; do
  rm -f "$FAKE/calls"
  rc=$(FAKE_SCORE=${how%%:*} PSF_BUILD=$FAKE run Reruns work --runs 3 -- same)
  word=${how#*:}
  expect_eq "--runs 3, run 2's profile cannot be scored (${how%%:*}): ${word%:*}, no score" \
    "$rc/$(jq -r '"\(.status)/\(.score)/\(.distinct_scores)"' "$TEST_TMP/out")" "${word#*:}/${word%:*}/null/null"
  expect_match "--runs 3, run 2's profile cannot be scored (${how%%:*}): names the run" \
    "$(jq -r .message "$TEST_TMP/out")" "^run 2 of 3: the profile could not be scored"
done

finish
