#!/usr/bin/env bash
# fast_instructions.sh - what the fast engine costs in instructions: a figure
# that repeats to within about 0.1% on a shared machine whose wall times
# drift by a third from minute to minute.
#
# Runs the agent's JVM (engine=fast; get_score.sh's pinned, JIT and JDK
# flags, plus -Xbatch, so that C1 compiles the same methods at the same
# points in every run) under valgrind's callgrind, which counts every
# instruction the process executes, and prints the count for:
#   start      EngineBench mergeSort 10: the engine's fixed start (above all
#              the retransformation of the classes loaded before VMInit)
#   mergesort  EngineBench mergeSort N (default 20000), and the same less
#              the start: the counted sort
#   idle       the same two runs with the agent measuring EngineBench.notCalled,
#              a method EngineBench lacks: every class rewritten, the
#              probes run and count nothing (what all code outside the
#              measured method's extent costs), less its own start
#   java       the same two runs without the agent: the program's own work
#              (mergeSort N less mergeSort 10), for the ratios idle/java and
#              sort/java (with PSF_BUILD_B, run once: no agent differs)
# With PSF_BUILD_B set to a second build directory (a checkout's build/ with
# another agent), runs every workload with both agents and prints the ratio
# B/A too: the way to tell whether a change to the agent or its probes saves
# work, by a few percent that wall times here cannot show. Instructions are
# not time (cache misses, branch mispredictions and the second core are not
# in them): bench/fast_scoring.sh has the last word. Not a test: nothing
# here passes or fails. Needs valgrind; about half a minute a run: six
# runs (four with the agent, two without), four more with PSF_BUILD_B.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page
# docs/bench/fast-instructions.md (--page FILE: elsewhere; --no-page:
# nowhere; with PSF_BUILD_B, a comparison of two builds, only to a page
# named by --page).
#
# Usage: bench/fast_instructions.sh [--page FILE | --no-page] [N]; make bench-instructions
#        PSF_BUILD_B=../other/build bench/fast_instructions.sh 20000
set -eu
. "$(dirname "$0")/lib.sh"
B=${PSF_BUILD_B:-}
PAGE_DEFAULT=docs/bench/fast-instructions.md
[ -z "$B" ] || PAGE_DEFAULT=""
bench_page_opt "$PAGE_DEFAULT" "$@"
shift "$PAGE_SHIFT"
N=${1:-20000}
BB=$BUILD/bench/java
bench_need bench-instructions "$BUILD/libpsfagent.so" "$BB/EngineBench.class"
[ -z "$B" ] || [ -e "$B/libpsfagent.so" ] || { echo "fast_instructions.sh: $B/libpsfagent.so is missing" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "fast_instructions.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
case $N in '' | *[!0-9]*) echo "fast_instructions.sh: N must be a number, not '$N'" >&2; exit 1 ;; esac
[ "$N" -gt 10 ] || { echo "fast_instructions.sh: N must be more than 10 (the start's own run)" >&2; exit 1; }
bench_tmp
mapfile -t FLAGS < <(gs_array PINNED_FLAGS)
mapfile -t JDK_FLAGS < <(jdk_flags)
mapfile -t JIT_FLAGS < <(gs_array JIT_FLAGS)

# count DIR SIZE [METHOD]: with DIR/libpsfagent.so measuring METHOD (default
# EngineBench.mergeSort; DIR "-": no agent), the instructions of one run, or
# exits naming its status (the idle run ends with status method_not_found:
# EngineBench has no method notCalled, so nothing ever counts)
count() {
  local dir=$1 size=$2 method=${3:-EngineBench.mergeSort} n want=ok agent=()
  [ "$method" = EngineBench.mergeSort ] || want=method_not_found
  [ "$dir" = - ] || agent=("-agentpath:$dir/libpsfagent.so=method=$method,out=$TMP/p.xml,engine=fast")
  rm -f "$TMP/p.xml"
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=/dev/null \
    "$JAVA" "${FLAGS[@]}" "${JIT_FLAGS[@]}" "${JDK_FLAGS[@]}" -Xbatch "${agent[@]}" \
    -cp "$BB" EngineBench mergeSort "$size" >/dev/null 2>"$TMP/vg.err" || true
  n=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$TMP/vg.err")
  if [ -z "$n" ] || { [ "$dir" != - ] && ! grep -q "status=\"$want\"" "$TMP/p.xml" 2>/dev/null; }; then
    echo "fast_instructions.sh: the run with ${agent[*]:-no agent} on mergeSort $size did not end as it should (status $(grep -o 'status="[a-z_]*"' "$TMP/p.xml" 2>/dev/null | head -n 1 || echo none), expected $want)" >&2
    exit 1
  fi
  echo "$n"
}
g() { awk -v n="$1" 'BEGIN { printf "%.3f G", n / 1e9 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b / a }'; }

bench_page_begin "$PAGE_FILE" "Benchmark: the fast engine's work in instructions" \
  "${B:+PSF_BUILD_B=$B }bench/fast_instructions.sh $N"
echo "instructions of the agent's JVM, engine=fast, -Xbatch (callgrind); A: $BUILD${B:+, B: $B}"
# the java runs: the program's own work, without the agent (once: no agent differs between builds)
ja=$(count - 10); jm=$(count - "$N"); jw=$((jm - ja))
# runs DIR: "start sort idle-start idle" of DIR's agent
runs() {
  echo "$(count "$1" 10) $(count "$1" "$N") $(count "$1" 10 EngineBench.notCalled) $(count "$1" "$N" EngineBench.notCalled)"
}
read -r sa ma ia la <<<"$(runs "$BUILD")"
# row TEXT A [B]: a count (and B's, with the ratio B/A)
row() {
  if [ -z "$B" ]; then
    printf '%-34s %12s\n' "$1" "$(g "$2")"
  else
    printf '%-34s %12s %12s %8s\n' "$1" "$(g "$2")" "$(g "$3")" "$(ratio "$2" "$3")"
  fi
}
sb="" mb="" ib="" lb=""
if [ -n "$B" ]; then
  read -r sb mb ib lb <<<"$(runs "$B")"
  printf '%-34s %12s %12s %8s\n' "" A B B/A
fi
row "start (mergeSort 10)" "$sa" "$sb"
row "mergeSort $N" "$ma" "$mb"
row "  less the start: counted" $((ma - sa)) "${mb:+$((mb - sb))}"
row "idle start (notCalled, 10)" "$ia" "$ib"
row "idle, mergeSort $N" "$la" "$lb"
row "  less the start: idle" $((la - ia)) "${lb:+$((lb - ib))}"
printf '%-34s %12s\n' "java, mergeSort $N less 10" "$(g "$jw")"
# over TEXT WORK [WORK_B]: WORK as a multiple of the java run's work
times() { awk -v a="$jw" -v b="$1" 'BEGIN { printf "%.2f x", b / a }'; }
over() {
  if [ -z "$B" ]; then
    printf '%-34s %12s\n' "$1" "$(times "$2")"
  else
    printf '%-34s %12s %12s\n' "$1" "$(times "$2")" "$(times "$3")"
  fi
}
over "  idle / java" $((la - ia)) "${lb:+$((lb - ib))}"
over "  counted / java" $((ma - sa)) "${mb:+$((mb - sb))}"
bench_page_end "The agent's JVM (\`engine=fast\`, get_score.sh's pinned, JIT and JDK flags, plus \`-Xbatch\` so that C1 compiles the same methods at the same points in every run) runs under valgrind's callgrind, which counts every instruction the process executes: \`start\` is the engine's fixed cost (above all the retransformation of the classes loaded before VMInit), \`less the start: counted\` the counted merge sort; \`idle\` is the same program with the agent measuring a method it never calls (every class rewritten, the probes run and count nothing: what all code outside the measured method's extent costs), less its own start; \`java\` the program's own work without the agent (the sort of N less the sort of 10), which the last two rows divide into. Unlike wall times on a shared machine, these counts repeat to within about 0.1%; they are not time (cache misses and the second core are not in them), and \`bench/fast_scoring.sh\` has the last word." \
  "How the engine counts: [the fast engine](../fast-engine.md)."
