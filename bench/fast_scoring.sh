#!/usr/bin/env bash
# fast_scoring.sh - what a grading server sees: the whole
# `scripts/get_score.sh --json` run with --engine fast against --engine step,
# and the plain `java` run of the same program, side by side.
#
# For each workload, runs in turn, REPEAT rounds: the plain program (no
# agent, get_score.sh's pinned flags), get_score.sh --engine fast and
# get_score.sh --engine step (sandbox, signing, psf-score and everything
# else included). Prints the median wall time of each (get_score.sh's
# sandbox forks away from it, so its CPU time cannot be read from outside
# and is not shown), and the ratios step / fast
# and fast / plain taken round by round (pairs keep a ratio meaningful while
# the machine's speed drifts) and then their median. Both engines must give
# the same score; the line says which engine counted the fast run (a run the
# fast engine cannot count exactly falls back to the step engine, and costs
# both runs). The workloads are bench/java/EngineBench.java's (a merge sort
# of 100,000 Integers by default: issue 17's yardstick). The machine is
# shared and noisy: read the medians and the ratios, not one run. Not a
# test: nothing here passes or fails.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/fast-scoring.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/fast_scoring.sh [--page FILE | --no-page] [REPEAT]   (default 5)
#        make bench-scoring
#        PSF_BENCH_ONLY=mergesort,loops bench/fast_scoring.sh 3
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/fast-scoring.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-5}
BB=$BUILD/bench/java
bench_need bench-scoring "$BUILD/libpsfagent.so" "$BUILD/psf-score" "$BB/EngineBench.class"
command -v jq >/dev/null || { echo "fast_scoring.sh: jq is missing" >&2; exit 1; }
bench_tmp
cd "$TMP"
mapfile -t FLAGS < <(gs_array PINNED_FLAGS)

# timed KIND CMD...: one run; appends its wall seconds to $TMP/KIND
timed() {
  local kind=$1 t0 t1
  shift
  t0=$(date +%s%N)
  "$@" >"$TMP/$kind.out" 2>"$TMP/$kind.err" || true
  t1=$(date +%s%N)
  awk -v w="$(( (t1 - t0) / 1000 ))" 'BEGIN { printf "%.6f\n", w / 1e6 }' >>"$TMP/$kind"
}

# name, measured method, arguments of EngineBench's main
WORKLOADS=(
  "mergesort EngineBench.mergeSort mergeSort 100000"
  "loops EngineBench.loops loops 60000"
  "calls EngineBench.calls calls 2000000"
)
[ -z "${PSF_BENCH_ONLY:-}" ] || mapfile -t WORKLOADS < <(printf '%s\n' "${WORKLOADS[@]}" | grep -E "^(${PSF_BENCH_ONLY//,/|}) ")

bench_page_begin "$PAGE_FILE" "Benchmark: the whole scoring run, fast engine against step engine" \
  "${PSF_BENCH_ONLY:+PSF_BENCH_ONLY=$PSF_BENCH_ONLY }bench/fast_scoring.sh $REPEAT"
printf '%-10s %13s %8s %8s %8s %10s %10s  %s\n' workload score "plain s" "fast s" "step s" \
  step/fast fast/plain "engine (fast run)"
for spec in "${WORKLOADS[@]}"; do
  # shellcheck disable=SC2086
  set -- $spec
  name=$1 method=$2
  shift 2
  : >"$TMP/plain"; : >"$TMP/fast"; : >"$TMP/step"
  for _ in $(seq "$REPEAT"); do
    timed plain "$JAVA" "${FLAGS[@]}" -cp "$BB" EngineBench "$@"
    timed fast "$GS" --classpath "$BB" --main EngineBench --method "$method" --json --engine fast -- "$@"
    timed step "$GS" --classpath "$BB" --main EngineBench --method "$method" --json --engine step -- "$@"
  done
  sf=$(jq -r .score "$TMP/fast.out" 2>/dev/null || echo none)
  ss=$(jq -r .score "$TMP/step.out" 2>/dev/null || echo none)
  engine=$(jq -r '.engine + (if .fallback then " (fell back: " + .fallback[0:90] + ")" else "" end)' "$TMP/fast.out" 2>/dev/null || echo "?")
  [ "$sf" = "$ss" ] || echo "warning: $name: --engine fast scored $sf, --engine step $ss" >&2
  [ -n "${PSF_BENCH_RAW:-}" ] && echo "raw $name: plain $(tr '\n' ' ' <"$TMP/plain")| fast $(tr '\n' ' ' <"$TMP/fast")| step $(tr '\n' ' ' <"$TMP/step")" >&2
  pw=$(median <"$TMP/plain"); fw=$(median <"$TMP/fast"); sw=$(median <"$TMP/step")
  # round by round: step/fast and fast/plain
  sfr=$(paste -d' ' "$TMP/step" "$TMP/fast" | awk '{ print $1 / $2 }' | median)
  fpr=$(paste -d' ' "$TMP/fast" "$TMP/plain" | awk '{ print $1 / $2 }' | median)
  printf '%-10s %13s %8.2f %8.2f %8.2f %10.1f %10.1f  %s\n' "$name" "$ss" "$pw" "$fw" "$sw" "$sfr" "$fpr" "$engine"
done
echo "(median wall seconds over $REPEAT round(s); the ratios are medians of each round's ratio)"
bench_page_end "Each round runs, in turn, the plain program (\`java\` with get_score.sh's pinned flags, no agent), \`scripts/get_score.sh --json --engine fast\` and \`--engine step\` (sandbox, signing and \`psf-score\` included) on one workload of \`bench/java/EngineBench.java\`; \`score\` is the score both engines gave. The machine is shared: its speed drifts from minute to minute, so read the ratios, taken round by round, rather than single times." \
  "How the engine gets these figures, and why it falls back where it does: [the fast engine](../fast-engine.md)."
