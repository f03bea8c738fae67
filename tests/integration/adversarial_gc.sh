#!/usr/bin/env bash
# adversarial_gc.sh - work that waits for the garbage collector is refused
# by name, the same way on every run and under both engines
# (agent/runtime/gcrefs.c; docs/determinism.md, "The garbage collector"). The
# GcRefs fixture sorts 2000 ints and then allocates until the collector has
# done something it can see: a weak reference arriving on its queue, a
# WeakHashMap's entry dropped, a Cleaner's action run (on the thread the
# Cleaner starts), a WeakReference without a queue whose get() turns null,
# a SoftReference whose get() turns null once the heap is all but full.
# Each ends as gc_dependent (35), five runs of each under each engine on
# JDK 17 and 25, with one message naming the thread and the reference's
# class (and, for a take from a queue, the code that took it). The honest
# mode (a ThreadLocal, a stream, string concatenation, a WeakHashMap whose
# keys stay, a reference the method enqueues itself), the live mode
# (collections run while a ThreadLocal, a WeakHashMap, a WeakReference and
# a SoftReference whose referents stay reachable and String.intern are
# used) and the relink mode (a collection clears entries of the JDK's
# MethodType table, which linking a string concatenation then expunges)
# score, one score in five runs and under both engines, and print what
# they print without PSF.
set -eu
. "$(dirname "$0")/lib.sh"
adversarial_setup
N=2000

default_and_jdk25

# gs JDK ENGINE MODE [ARGS...]: get_score.sh's JSON in $TEST_TMP/out, its exit code echoed
gs() {
  local jdk=$1 engine=$2 mode=$3
  shift 3
  JAVA_HOME=$jdk "$GS" --engine "$engine" --classpath "$FX" --main GcRefs --method GcRefs.work --json \
    --sandbox require "$@" -- "$mode" "$N" >"$TEST_TMP/out" 2>"$TEST_TMP/err" && echo 0 || echo $?
}

# The reference each mode waits for, and where it is taken.
declare -A WANT=(
  [queue]="thread 'main' took a java.lang.ref.WeakReference the garbage collector enqueued from a ReferenceQueue, in GcRefs.work(Ljava/lang/String;I)J"
  [map]="thread 'main' took a java.util.WeakHashMap\$Entry the garbage collector enqueued from a ReferenceQueue, in GcRefs.work(Ljava/lang/String;I)J"
  [cleaner]="thread 'Cleaner-0' took a jdk.internal.ref.CleanerImpl\$PhantomCleanableRef the garbage collector enqueued from a ReferenceQueue, in jdk.internal.ref.CleanerImpl.run()V"
  [get]="the garbage collector cleared a java.lang.ref.WeakReference while thread 'main' ran the method: what reads it (Reference.get, refersTo) depends on when the collector ran"
  [soft]="the garbage collector cleared a java.lang.ref.SoftReference while thread 'main' ran the method: what reads it (Reference.get, refersTo) depends on when the collector ran"
)

for jdk in "${JDKS[@]}"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  for mode in queue map cleaner get soft; do
    for engine in fast step; do
      got=""
      for _ in 1 2 3 4 5; do
        rc=$(gs "$jdk" "$engine" "$mode")
        got="$got|$rc/$(jq -r '.status + ": " + .message' "$TEST_TMP/out" 2>/dev/null)"
      done
      w="35/gc_dependent: ${WANT[$mode]}"
      expect_eq "JDK $v, $engine, $mode: refused by name in each of 5 runs" "$got" "|$w|$w|$w|$w|$w"
    done
  done
  # The fast engine counts the main thread's waits itself and keeps its
  # refusal, which depends on no count: it hands nothing to the step engine.
  for mode in queue map get soft; do
    gs "$jdk" fast "$mode" >/dev/null
    expect_eq "JDK $v, fast, $mode: the fast engine's own refusal" \
      "$(jq -r '[.status, .engine, .fallback] | tostring' "$TEST_TMP/out")" '["gc_dependent","fast",null]'
  done
  # Honest use of the same machinery: scored, one score in five runs, the
  # same under both engines, and the program's own output. relink makes the
  # collector clear entries of the JDK's MethodType table and then links a
  # string concatenation, whose linkage (overhead) takes them from the
  # table's queue: not the program's doing, not refused.
  for mode in honest live relink; do
    plain=$("$jdk/bin/java" -cp "$FX" GcRefs "$mode" "$N")
    scores=""
    for engine in fast step; do
      rc=$(gs "$jdk" "$engine" "$mode" --runs 5)
      expect_eq "JDK $v, $engine, $mode: scored in 5 runs" \
        "$rc/$(jq -r '[.status, .runs, .distinct_scores] | tostring' "$TEST_TMP/out")" '0/["ok",5,1]'
      scores="$scores $(jq -r .score "$TEST_TMP/out")"
      expect_eq "JDK $v, $engine, $mode: its output as without PSF" \
        "$(tr -d '\r' <"$TEST_TMP/err" | grep '^SORTED' | sort -u || true)" "$plain"
    done
    # shellcheck disable=SC2086 # the scores, one a word
    set -- $scores
    if [[ ${1:-} =~ ^[0-9]+$ ]] && [ "$1" = "${2:-}" ]; then
      pass "JDK $v, $mode: one score under both engines ($1)"
    else
      fail "JDK $v, $mode: one score under both engines" "fast, step:$scores"
    fi
  done
done

finish
