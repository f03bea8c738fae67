#!/usr/bin/env bash
# fast_jit.sh - the fast engine under JIT configurations, side by side: the
# flags get_score.sh gives its runs (JIT_FLAGS), the JVM's default
# tiered JIT, and any other configurations named in PSF_JIT_CONFIGS.
#
# For each workload, runs the agent directly (engine=fast, get_score.sh's
# pinned flags and the JDK's, get_score.sh's heap) once per configuration
# in turn, REPEAT rounds, and prints per configuration the median wall time
# and the median CPU time (user + sys), and the bytecodes counted. The
# counts must be the same in every configuration (the probes count, not the
# JIT): a line says "COUNTS DIFFER" otherwise. The workloads: a short
# probe-heavy run (issue 17's merge sort of 100,000 Integers), longer runs
# near get_score.sh's default limit of 300 million bytecodes (a merge sort
# of 300,000, Fib 35, a loop without calls) and a call-heavy one. The
# machine is shared and noisy: read the medians, rerun to be sure. Not a
# test: nothing here passes or fails.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/fast-jit.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/fast_jit.sh [--page FILE | --no-page] [REPEAT]   (default 5); make bench-jit
#        PSF_BENCH_ONLY=mergesort,fib bench/fast_jit.sh 7
#        PSF_JIT_CONFIGS='c1-35=-XX:TieredStopAtLevel=1 -XX:CICompilerCount=2' bench/fast_jit.sh
#        (PSF_JIT_CONFIGS: NAME=FLAGS entries separated by ';')
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/fast-jit.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-5}
BB=$BUILD/bench/java
FX=$BUILD/fixtures/agent
bench_need bench-jit "$BUILD/libpsfagent.so" "$BB/EngineBench.class" "$FX/Fib.class" /usr/bin/time
bench_tmp
cd "$TMP"
mapfile -t FLAGS < <(gs_array PINNED_FLAGS)
mapfile -t JIT_FLAGS < <(gs_array JIT_FLAGS)
mapfile -t JDK_FLAGS < <(jdk_flags)
HEAP=$(sed -n 's/^DEFAULT_HEAP=//p' "$GS" | head -n 1)
FLAGS+=("${JDK_FLAGS[@]}" "-Xms$HEAP" "-Xmx$HEAP")

# the configurations: name, then its flags (split on spaces)
CONFIGS=("get_score ${JIT_FLAGS[*]}" "default")
if [ -n "${PSF_JIT_CONFIGS:-}" ]; then
  IFS=';' read -r -a extra <<<"$PSF_JIT_CONFIGS"
  for e in "${extra[@]}"; do CONFIGS+=("${e%%=*} ${e#*=}"); done
fi

work() { sed -n 's/.*<summary [^>]*work="\([0-9]*\)".*/\1/p' "$1" 2>/dev/null; }
status() { sed -n 's/.*<psf-profile[^>]* status="\([a-z_]*\)".*/\1/p' "$1" 2>/dev/null | head -n 1; }

# run K CP SPEC MAIN ARGS...: one run with configuration K; appends its wall
# and CPU seconds to $TMP/K.wall and $TMP/K.cpu, its count to $TMP/K.work
run() {
  local k=$1 cp=$2 spec=$3 jit=() t0 t1
  shift 3
  for c in "${CONFIGS[@]}"; do
    # shellcheck disable=SC2206
    [ "${c%% *}" != "$k" ] || { local words=($c); jit=("${words[@]:1}"); }
  done
  rm -f "$TMP/$k.xml"
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%U %S' -o "$TMP/time" "$JAVA" "${FLAGS[@]}" "${jit[@]}" \
    "-agentpath:$BUILD/libpsfagent.so=method=$spec,out=$TMP/$k.xml,engine=fast" -cp "$cp" "$@" \
    >/dev/null 2>"$TMP/$k.err" || true
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$TMP/$k.wall"
  awk '$1 ~ /^[0-9.]+$/ { print $1 + $2 }' "$TMP/time" >>"$TMP/$k.cpu"
  echo "$(work "$TMP/$k.xml") $(status "$TMP/$k.xml")" >>"$TMP/$k.work"
}

# name, class path, measured method, main class and its arguments
WORKLOADS=(
  "mergesort $BB EngineBench.mergeSort EngineBench mergeSort 100000"
  "mergesort3 $BB EngineBench.mergeSort EngineBench mergeSort 300000"
  "fib $FX Fib.fib Fib 35"
  "loops $BB EngineBench.loops EngineBench loops 180000"
  "calls $BB EngineBench.calls EngineBench calls 2000000"
)
[ -z "${PSF_BENCH_ONLY:-}" ] || mapfile -t WORKLOADS < <(printf '%s\n' "${WORKLOADS[@]}" | grep -E "^(${PSF_BENCH_ONLY//,/|}) ")

# shellcheck disable=SC2016 # the quotes inside ${...:+} are text: the value expands
bench_page_begin "$PAGE_FILE" "Benchmark: the fast engine under JIT configurations" \
  "${PSF_BENCH_ONLY:+PSF_BENCH_ONLY=$PSF_BENCH_ONLY }${PSF_JIT_CONFIGS:+PSF_JIT_CONFIGS='$PSF_JIT_CONFIGS' }bench/fast_jit.sh $REPEAT"
echo "# configurations: $(for c in "${CONFIGS[@]}"; do printf '%s [%s]  ' "${c%% *}" "$(echo "$c" | cut -s -d' ' -f2-)"; done)"
printf '%-11s %-15s %8s %8s %11s  %s\n' workload config "wall s" "cpu s" bytecodes status
for spec in "${WORKLOADS[@]}"; do
  # shellcheck disable=SC2086
  set -- $spec
  name=$1
  shift
  for c in "${CONFIGS[@]}"; do
    k=${c%% *}
    : >"$TMP/$k.wall"; : >"$TMP/$k.cpu"; : >"$TMP/$k.work"
  done
  for _ in $(seq "$REPEAT"); do
    for c in "${CONFIGS[@]}"; do run "${c%% *}" "$@"; done
  done
  counts=$(for c in "${CONFIGS[@]}"; do cut -d' ' -f1 "$TMP/${c%% *}.work"; done | sort -u | wc -l)
  for c in "${CONFIGS[@]}"; do
    k=${c%% *}
    printf '%-11s %-15s %8.2f %8.2f %11s  %s\n' "$name" "$k" "$(median <"$TMP/$k.wall")" "$(median <"$TMP/$k.cpu")" \
      "$(head -n 1 "$TMP/$k.work" | cut -d' ' -f1)" "$(cut -d' ' -f2 "$TMP/$k.work" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  done
  [ "$counts" = 1 ] || echo "$name: COUNTS DIFFER between configurations" >&2
done
echo "(medians of $REPEAT; wall and whole-process CPU seconds; status: how many runs ended so)"
bench_page_end "Each round runs the agent with \`engine=fast\` (get_score.sh's pinned flags, the JDK's flags and get_score.sh's heap) once per JIT configuration, in turn: \`get_score\` is the JIT flags get_score.sh gives every scoring run, \`default\` the JVM's own tiered JIT. Times are the whole process's wall and CPU seconds; the bytecodes counted must be the same in every configuration, since the probes count, not the JIT (the script says COUNTS DIFFER otherwise). The machine is shared: read the medians, and rerun before believing a difference." \
  "Why get_score.sh runs with these JIT flags: [the fast engine](../fast-engine.md)."
