#!/usr/bin/env bash
# step_profile.sh - where the time of a single-stepped run goes: perf samples
# (software cpu-clock, which works without hardware counters) of the loop and
# call workloads, by shared object. The agent's own code (libpsfagent.so)
# against the JVM's single-step machinery (libjvm.so) is a steadier measure
# of the per-step cost than wall-clock ratios on a noisy machine.
# Usage: bench/step_profile.sh   (needs perf; exits 77 without it)
set -eu
. "$(dirname "$0")/lib.sh"
command -v perf >/dev/null || { echo "perf is missing (apt-get install linux-perf)"; exit 77; }
bench_tmp
FLAGS=(-XX:-UseTLAB -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:-UseDynamicNumberOfCompilerThreads -Xlog:jni+resolve=off)
for spec in "loop 400000" "call 26"; do
  set -- $spec
  perf record -q -e cpu-clock -F 2000 -o "$TMP/perf.data" "$JAVA" "${FLAGS[@]}" \
    "-agentpath:$BUILD/libpsfagent.so=method=StepBench.$1,out=$TMP/p.xml" -cp "$BUILD/bench/java" StepBench "$1" "$2" >/dev/null 2>&1
  perf report -i "$TMP/perf.data" --sort dso --stdio 2>/dev/null | awk -v w="$1" '
    /libpsfagent.so/ { agent = $1 } /libjvm.so/ { jvm = $1 }
    END { printf "%-5s samples in libpsfagent.so: %s   in libjvm.so: %s\n", w, agent ? agent : "0%", jvm }'
done
