#!/usr/bin/env bash
# step_profile.sh - where the time of a single-stepped run goes: perf samples
# (software cpu-clock, which works without hardware counters) of the loop and
# call workloads, by shared object. The agent's own code (libpsfagent.so)
# against the JVM's single-step machinery (libjvm.so) is a steadier measure
# of the per-step cost than wall-clock ratios on a noisy machine.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/step-profile.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/step_profile.sh [--page FILE | --no-page]   (needs perf; exits 77 without it)
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/step-profile.md "$@"
shift "$PAGE_SHIFT"
command -v perf >/dev/null || { echo "perf is missing (apt-get install linux-perf)"; exit 77; }
bench_tmp
FLAGS=(-XX:-UseTLAB -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:-UseDynamicNumberOfCompilerThreads -Xlog:jni+resolve=off)
bench_page_begin "$PAGE_FILE" "Benchmark: where a single-stepped run's time goes" "bench/step_profile.sh"
for spec in "loop 400000" "call 26"; do
  # shellcheck disable=SC2086 # the workload's words
  set -- $spec
  perf record -q -e cpu-clock -F 2000 -o "$TMP/perf.data" "$JAVA" "${FLAGS[@]}" \
    "-agentpath:$BUILD/libpsfagent.so=method=StepBench.$1,out=$TMP/p.xml" -cp "$BUILD/bench/java" StepBench "$1" "$2" >/dev/null 2>&1
  perf report -i "$TMP/perf.data" --sort dso --stdio 2>/dev/null | awk -v w="$1" '
    /libpsfagent.so/ { agent = $1 } /libjvm.so/ { jvm = $1 }
    END { printf "%-5s samples in libpsfagent.so: %s   in libjvm.so: %s\n", w, agent ? agent : "0%", jvm }'
done
echo "(perf record -e cpu-clock -F 2000 of the whole JVM, shares of all samples by shared object)"
bench_page_end "The \`loop\` and \`call\` workloads of \`bench/java/StepBench.java\` run under PSF's agent (the step engine) and \`perf record\` with the software \`cpu-clock\` event, which needs no hardware counters; \`perf report --sort dso\` splits the samples by shared object. \`libpsfagent.so\` is PSF's own per-step work, \`libjvm.so\` the JVM's, above all its single-step machinery. These shares move less than wall-clock ratios on a shared machine." \
  "What a step costs and why: [counting](../counting.md#what-a-step-costs)."
