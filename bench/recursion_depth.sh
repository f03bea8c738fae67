#!/usr/bin/env bash
# recursion_depth.sh - does scoring time grow with the depth of the stack?
#
# Scores the same bytecodes at recursion depths 10, 100, 1000 and 5000
# (bench/java/DepthBench.java: CALLS frames in all, only the depth differs)
# under PSF's agent, the depths in turn, REPEAT times each, and prints the
# median wall time of the measured method at each depth and its ratio to
# depth 10 (goal: at most 1.2). Two shapes: `plain` recursion, whose every
# return is stepped, and `tail` recursion, a self-call right before the
# return, whose callers' returns HotSpot does not post (the agent reads
# the callers' frames, agent/step/step.c tail_returns). Each row also checks that
# the counted bytecodes are the same at every depth.
# The machine is shared and noisy: read the medians and ratios, not one run.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/recursion-depth.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/recursion_depth.sh [--page FILE | --no-page] [REPEAT] [CALLS]
# (defaults 5, 1000000: about 1 s a run; shorter runs leave the ratios to
# start-up noise)
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/recursion-depth.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-5}
CALLS=${2:-1000000}
DEPTHS="10 100 1000 5000"
bench_need bench-depth "$BUILD/libpsfagent.so" "$BUILD/bench/java/DepthBench.class"
for d in $DEPTHS; do
  [ $((CALLS % d)) -eq 0 ] || { echo "recursion_depth.sh: CALLS ($CALLS) must be a multiple of $d" >&2; exit 2; }
done
bench_tmp
# the pinned flags that matter for stepping (get_score.sh's -Xss1m among them)
FLAGS=(-XX:-UseTLAB -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:-UseDynamicNumberOfCompilerThreads -Xshare:auto
  -Xss1m -Xlog:jni+resolve=off)


run() { # KIND DEPTH: the method's nanoseconds; its bytecodes in $TMP/KIND.DEPTH.steps
  "$JAVA" "${FLAGS[@]}" "-agentpath:$BUILD/libpsfagent.so=method=DepthBench.$1,out=$TMP/p.xml" \
    -cp "$BUILD/bench/java" DepthBench "$1" "$2" "$CALLS" | tail -n 1 | cut -d' ' -f1
  sed -n 's/.*<summary [^>]*work="\([0-9]*\)".*/\1/p' "$TMP/p.xml" >"$TMP/$1.$2.steps"
}

status=0
bench_page_begin "$PAGE_FILE" "Benchmark: scoring time against recursion depth" \
  "bench/recursion_depth.sh $REPEAT $CALLS"
printf '%-6s %6s %10s %12s %7s\n' shape depth bytecodes "ms (median)" ratio
for kind in plain tail; do
  for d in $DEPTHS; do : >"$TMP/$kind.$d"; done
  for _ in $(seq "$REPEAT"); do
    for d in $DEPTHS; do run "$kind" "$d" >>"$TMP/$kind.$d"; done
  done
  base=""
  for d in $DEPTHS; do
    steps=$(cat "$TMP/$kind.$d.steps")
    t=$(median_int <"$TMP/$kind.$d")
    [ -n "$base" ] || { base=$t; base_steps=$steps; }
    [ -n "${PSF_BENCH_RAW:-}" ] && echo "raw $kind $d: $(tr '\n' ' ' <"$TMP/$kind.$d")" >&2
    awk -v k="$kind" -v d="$d" -v s="$steps" -v t="$t" -v b="$base" \
      'BEGIN { printf "%-6s %6d %10d %12.1f %7.3f\n", k, d, s, t/1e6, t/b }'
    if [ "$steps" != "$base_steps" ]; then
      echo "recursion_depth.sh: $kind: $steps bytecodes at depth $d, $base_steps at depth 10" >&2
      status=1
    fi
  done
done
echo "(median wall time of the measured method over $REPEAT round(s), $CALLS calls at every depth; ratio: to depth 10)"
bench_page_end "\`bench/java/DepthBench.java\` makes the same calls at each depth (only the depth of the stack differs) under PSF's agent, the depths in turn; the time is the measured method's wall time, and every row of a shape must count the same bytecodes (the script says so when not). \`plain\`: recursion whose every return is stepped; \`tail\`: a self-call right before the return, whose callers' returns HotSpot does not post, so that the agent reads the callers' frames. The goal is a ratio of at most 1.2 at every depth. The machine is shared: read the ratios, and rerun before believing one." \
  "How the agent counts returns: [counting](../counting.md)."
exit "$status"
