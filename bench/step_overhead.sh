#!/usr/bin/env bash
# step_overhead.sh - PSF's per-bytecode cost against a bare SingleStep counter.
#
# Runs each workload alternately under the PSF agent and under
# bench/bare_agent.c (same extent, counter++ per step), REPEAT times each,
# and prints the median wall time of the measured method for both and their
# ratio. Target (issue 2): ratio <= 1.10 on loop-heavy and call-heavy work.
# `tail` shows the price of counting the returns HotSpot does not post
# (a FramePop request for every self-call right before a return).
# The machine is shared and noisy: read the medians and the ratio, not one run.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/step-overhead.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/step_overhead.sh [--page FILE | --no-page] [REPEAT]   (default 7)
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/step-overhead.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-7}
bench_need bench-step "$BUILD/libpsfagent.so" "$BUILD/bench/libbareagent.so" "$BUILD/bench/java/StepBench.class"
bench_tmp
# -Xlog:jni+resolve=off: the JVM warns on stdout that the agent re-binds System.arraycopy
FLAGS=(-XX:-UseTLAB -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:-UseDynamicNumberOfCompilerThreads -Xshare:auto
  -Xlog:jni+resolve=off)


run_psf() {
  "$JAVA" "${FLAGS[@]}" "-agentpath:$BUILD/libpsfagent.so=method=StepBench.$1,out=$TMP/p.xml" \
    -cp "$BUILD/bench/java" StepBench "$1" "$2" | tail -n 1 | cut -d' ' -f1
}
run_bare() {
  "$JAVA" "${FLAGS[@]}" "-agentpath:$BUILD/bench/libbareagent.so=StepBench.$1" \
    -cp "$BUILD/bench/java" StepBench "$1" "$2" 2>"$TMP/bare.err" | tail -n 1 | cut -d' ' -f1
}

bench_page_begin "$PAGE_FILE" "Benchmark: the step engine's cost per bytecode, against a bare counter" \
  "bench/step_overhead.sh $REPEAT"
printf '%-6s %10s %14s %14s %7s\n' workload bytecodes "psf ms (med)" "bare ms (med)" ratio
for spec in "loop 400000" "call 26" "tail 18" "alloc 300000"; do
  # shellcheck disable=SC2086 # the workload's words
  set -- $spec
  : >"$TMP/psf" ; : >"$TMP/bare"
  for _ in $(seq "$REPEAT"); do
    run_psf "$1" "$2" >>"$TMP/psf"
    run_bare "$1" "$2" >>"$TMP/bare"
  done
  steps=$(sed -n 's/.*<summary [^>]*work="\([0-9]*\)" overhead="\([0-9]*\)".*/\1 \2/p' "$TMP/p.xml" | awk '{print $1+$2}')
  bare_steps=$(sed -n 's/bare-agent steps=//p' "$TMP/bare.err")
  if [ "$1" = tail ]; then
    # the bare agent counts posted steps only: HotSpot posts none for a
    # caller's return at the location its callee returned from (2^(N-1) - 1 here)
    [ "$steps" = "$((bare_steps + (1 << ($2 - 1)) - 1))" ] ||
      echo "warning: tail: psf counted $steps bytecodes, the bare agent $bare_steps + $(((1 << ($2 - 1)) - 1)) not posted" >&2
  else
    [ "$steps" = "$bare_steps" ] || echo "warning: $1: psf counted $steps bytecodes, the bare agent $bare_steps" >&2
  fi
  [ -n "${PSF_BENCH_RAW:-}" ] && echo "raw $1: psf $(tr "\n" " " <"$TMP/psf") bare $(tr "\n" " " <"$TMP/bare")" >&2
  p=$(median_int <"$TMP/psf"); b=$(median_int <"$TMP/bare")
  awk -v w="$1" -v s="$steps" -v p="$p" -v b="$b" 'BEGIN { printf "%-6s %10d %14.1f %14.1f %7.3f\n", w, s, p/1e6, b/1e6, p/b }'
done
echo "(median wall time of the measured method over $REPEAT alternating run(s) each; ratio: psf / bare)"
bench_page_end "Each workload of \`bench/java/StepBench.java\` runs alternately under PSF's agent (the step engine) and under \`bench/bare_agent.c\`, a JVMTI agent that single-steps the same extent and only adds one per step; the time is the measured method's wall time. The ratio is what PSF's bookkeeping adds per bytecode to the JVM's own single-stepping; the target is at most 1.10 on \`loop\` and \`call\`. \`alloc\` also pays one \`SampledObjectAlloc\` event per array (exact array sizes), \`tail\` the price of counting the returns HotSpot does not post (a self-call right before every other return). The machine is shared: one batch's ratio moves by several hundredths, so compare batches, not single rows." \
  "What a step costs and why: [counting](../counting.md#what-a-step-costs)."
