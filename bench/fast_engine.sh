#!/usr/bin/env bash
# fast_engine.sh - the fast counting engine (engine=fast, block probes, JIT
# on) against the step engine and the plain JIT run of the same program.
#
# For each workload, runs the plain program (no agent), the agent with
# engine=fast and the agent with engine=step, in turn, REPEAT times each,
# with get_score.sh's pinned flags (the engines also with the JDK's flags of
# scripts/lib/jdk.sh, as get_score.sh runs them), and prints the median whole-process CPU
# time (user + sys, from /usr/bin/time: JVM start and the fast engine's
# retransformation of the JDK included) of each and the ratios step / fast
# and fast / plain. Both engines' profiles must agree on the bytecodes
# counted (it says so when they do not); a run the fast engine refuses is
# printed as "refused" with its reason. The workloads: the agent fixtures
# Fib, Loops and Branches, and bench/java/EngineBench.java (loop-, call-,
# allocation- and collection-heavy code, and a merge sort of 100,000
# Integers). The machine is shared and noisy:
# read the medians and the ratios, not one run. Not a test: nothing here
# passes or fails.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/fast-engine.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/fast_engine.sh [--page FILE | --no-page] [REPEAT]   (default 5)
#        make bench-fast
#        PSF_BENCH_ONLY=fib,mergesort bench/fast_engine.sh 3   (some workloads)
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/fast-engine.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-5}
FX=$BUILD/fixtures/agent
BB=$BUILD/bench/java
bench_need bench-fast "$BUILD/libpsfagent.so" "$FX/Fib.class" "$BB/EngineBench.class" /usr/bin/time
bench_tmp
mapfile -t FLAGS < <(gs_array PINNED_FLAGS)
# the scored runs also get the JDK's flags (the JIT intrinsics of methods with
# bytecode off: scripts/lib/jdk.sh); the plain run is the program's own
mapfile -t JDK_FLAGS < <(jdk_flags)
# and the scored runs get_score.sh's JIT flags
mapfile -t JIT_FLAGS < <(gs_array JIT_FLAGS)

# cpu KIND CLASSPATH SPEC MAIN ARGS...: one run's user + sys seconds,
# appended to $TMP/KIND (a failed run still counts its time; its profile
# says why)
cpu() {
  local kind=$1 cp=$2 spec=$3 agent=()
  shift 3
  [ "$kind" = plain ] || agent=("${JDK_FLAGS[@]}" "-agentpath:$BUILD/libpsfagent.so=method=$spec,out=$TMP/$kind.xml,engine=$kind")
  [ "$kind" = plain ] || agent=("${JIT_FLAGS[@]}" "${agent[@]}")
  rm -f "$TMP/$kind.xml"
  /usr/bin/time -f '%U %S' -o "$TMP/time" "$JAVA" "${FLAGS[@]}" "${agent[@]}" -cp "$cp" "$@" >/dev/null 2>"$TMP/$kind.err" || true
  awk '$1 ~ /^[0-9.]+$/ { print $1 + $2 }' "$TMP/time" >>"$TMP/$kind"
}
work() { sed -n 's/.*<summary [^>]*work="\([0-9]*\)".*/\1/p' "$1" 2>/dev/null; }
status() { sed -n 's/.*<psf-profile[^>]* status="\([a-z_]*\)".*/\1/p' "$1" 2>/dev/null | head -n 1; }

# name, class path, measured method, main class and its arguments
WORKLOADS=(
  "fib $FX Fib.fib Fib 30"
  "loop $FX Loops.sum Loops 3000000"
  "branches $FX Branches.random Branches random 300000"
  "loops $BB EngineBench.loops EngineBench loops 60000"
  "calls $BB EngineBench.calls EngineBench calls 2000000"
  "allocs $BB EngineBench.allocs EngineBench allocs 1000000"
  "collections $BB EngineBench.collections EngineBench collections 300000"
  "mergesort $BB EngineBench.mergeSort EngineBench mergeSort 100000"
)
[ -z "${PSF_BENCH_ONLY:-}" ] || mapfile -t WORKLOADS < <(printf '%s\n' "${WORKLOADS[@]}" | grep -E "^(${PSF_BENCH_ONLY//,/|}) ")

bench_page_begin "$PAGE_FILE" "Benchmark: the fast engine alone, against the step engine and plain java" \
  "${PSF_BENCH_ONLY:+PSF_BENCH_ONLY=$PSF_BENCH_ONLY }bench/fast_engine.sh $REPEAT"
printf '%-11s %11s %10s %10s %10s %10s %10s\n' workload bytecodes "plain s" "fast s" "step s" step/fast fast/plain
for spec in "${WORKLOADS[@]}"; do
  # shellcheck disable=SC2086
  set -- $spec
  name=$1 cp=$2 method=$3
  shift 3
  : >"$TMP/plain"; : >"$TMP/fast"; : >"$TMP/step"
  for _ in $(seq "$REPEAT"); do
    cpu plain "$cp" "$method" "$@"
    cpu fast "$cp" "$method" "$@"
    cpu step "$cp" "$method" "$@"
  done
  sf=$(status "$TMP/fast.xml"); ss=$(status "$TMP/step.xml")
  nf=$(work "$TMP/fast.xml"); ns=$(work "$TMP/step.xml")
  if [ "$sf" != ok ]; then
    echo "$name: the fast engine did not count this run (status ${sf:-none}: $(sed -n 's/.*<message>\(.*\)<\/message>.*/\1/p' "$TMP/fast.xml" 2>/dev/null | head -n 1 | grep . || head -c 200 "$TMP/fast.err"))"
  elif [ "$ss" != ok ]; then
    echo "warning: $name: the step engine did not count this run (status ${ss:-none}), its count is none" >&2
  elif [ "$nf" != "$ns" ]; then
    echo "warning: $name: the fast engine counted $nf bytecodes, the step engine $ns" >&2
  fi
  [ -n "${PSF_BENCH_RAW:-}" ] && echo "raw $name: plain $(tr '\n' ' ' <"$TMP/plain") fast $(tr '\n' ' ' <"$TMP/fast") step $(tr '\n' ' ' <"$TMP/step")" >&2
  p=$(median <"$TMP/plain"); f=$(median <"$TMP/fast"); s=$(median <"$TMP/step")
  if [ "$sf" = ok ]; then
    awk -v w="$name" -v n="$ns" -v p="$p" -v f="$f" -v s="$s" \
      'BEGIN { printf "%-11s %11d %10.2f %10.2f %10.2f %10.2f %10.2f\n", w, n, p, f, s, s/f, f/p }'
  else
    awk -v w="$name" -v n="$ns" -v p="$p" -v s="$s" \
      'BEGIN { printf "%-11s %11d %10.2f %10s %10.2f %10s %10s\n", w, n, p, "refused", s, "-", "-" }'
  fi
done
echo "(median CPU seconds, user + sys, over $REPEAT round(s); the ratios are of the medians)"
bench_page_end "Each round runs, in turn, the plain program (no agent), the JVM with the agent and \`engine=fast\`, and with \`engine=step\`, with get_score.sh's pinned and JIT flags and the JDK's flags; the time is the whole process's CPU time (JVM start and the fast engine's retransformation of the JDK included). \`refused\`: the fast engine fell back on that workload, and the line above its row says why. The machine is shared: read the ratios rather than single times." \
  "How the engine gets these figures, and why it falls back where it does: [the fast engine](../fast-engine.md)."
