#!/usr/bin/env bash
# get_score_overhead.sh - what scripts/get_score.sh itself adds to a scored run.
#
# For a trivial method (the agent fixture Loops.sum over 1000 numbers, about
# 9,000 bytecodes), runs in turn, REPEAT times each, for each engine (step,
# fast) and sandbox mode (auto, off):
#   whole  get_score.sh --json, the way a grading server calls it
#   jvm    the same JVM alone: get_score.sh's pinned and JIT flags and the JDK's flags
#          (scripts/lib/jdk.sh), the agent writing its profile to a file; no
#          sandbox, no signing, no scorer
# and prints the median wall time of each and their difference, the
# script's own share: bash, the JDK's version check (its release file; a
# `java -version` run only without one), the sandbox's set-up, the
# submission's digests, the key, the psf-score runs. Both engines pay it,
# and it is most of the fast engine's time on small inputs, so it decides the
# step/fast ratio of a whole run (bench/fast_engine.sh times the JVM alone).
# The machine is shared and noisy: read the medians, not one run. Not a test:
# nothing here passes or fails.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/get-score-overhead.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/get_score_overhead.sh [--page FILE | --no-page] [REPEAT]   (default 7)
#        make bench-gs
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/get-score-overhead.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-7}
FX=$BUILD/fixtures/agent
bench_need bench-gs "$BUILD/libpsfagent.so" "$BUILD/psf-score" "$FX/Loops.class"
bench_tmp
mapfile -t FLAGS < <(gs_array PINNED_FLAGS)
mapfile -t JIT < <(gs_array JIT_FLAGS)
mapfile -t JDK_FLAGS < <(jdk_flags)
# a key of this bench's own, so that no key of the user's is created or used
KEY=$TMP/result.key
SANDBOXES=(auto off)
if ! bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent true >/dev/null 2>&1; then
  echo "(bubblewrap does not work here: 'auto' runs without a sandbox)" >&2
  [ "$(id -u)" -ne 0 ] || SANDBOXES=(off) # as root, auto refuses to run unsandboxed
fi

# wall FILE COMMAND...: append COMMAND's wall time in seconds to FILE; its
# output goes to $TMP/out (a failed run is said, and still counted)
wall() {
  local file=$1 t0 rc=0
  shift
  t0=$EPOCHREALTIME
  "$@" >"$TMP/out" 2>&1 || rc=$?
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", b - a }' >>"$file"
  [ "$rc" -eq 0 ] || echo "warning: exit code $rc: $*: $(head -c 200 "$TMP/out")" >&2
}
whole() {
  "$ROOT/scripts/get_score.sh" --json --key-file "$KEY" --sandbox "$1" --engine "$2" \
    --classpath "$FX" --main Loops --method Loops.sum -- 1000
}
jvm() {
  "$JAVA" "${FLAGS[@]}" "${JDK_FLAGS[@]}" "${JIT[@]}" -Xms512m -Xmx512m \
    "-agentpath:$BUILD/libpsfagent.so=method=Loops.sum,out=$TMP/p.xml,clock=virtual,processes=deny,engine=$1" \
    -cp "$FX" Loops 1000
}

bench_page_begin "$PAGE_FILE" "Benchmark: what get_score.sh adds to a scored run" \
  "bench/get_score_overhead.sh $REPEAT"
printf '%-6s %-8s %10s %10s %12s\n' engine sandbox "whole s" "jvm s" "overhead s"
for engine in step fast; do
  for sandbox in "${SANDBOXES[@]}"; do
    : >"$TMP/whole"; : >"$TMP/jvm"
    whole "$sandbox" "$engine" >/dev/null 2>&1 || true # warm-up: the key, the file cache
    for _ in $(seq "$REPEAT"); do
      wall "$TMP/whole" whole "$sandbox" "$engine"
      wall "$TMP/jvm" jvm "$engine"
    done
    w=$(median <"$TMP/whole"); j=$(median <"$TMP/jvm")
    awk -v e="$engine" -v s="$sandbox" -v w="$w" -v j="$j" \
      'BEGIN { printf "%-6s %-8s %10.3f %10.3f %12.3f\n", e, s, w, j, w - j }'
  done
done
echo "(median wall seconds over $REPEAT round(s); overhead: whole - jvm)"
bench_page_end "For the agent fixture \`Loops.sum\` over 1000 numbers (about 9,000 bytecodes), each round runs \`scripts/get_score.sh --json\` as a grading server does (\`whole\`) and the same JVM alone with the agent writing its profile (\`jvm\`), per engine and sandbox mode. The difference is the script's own share: bash, the JDK's version check (its release file; a \`java -version\` run only without one), the sandbox, the submission's digests, the key and the \`psf-score\` runs. Both engines pay it, and on small inputs it is most of a fast-engine run. The machine is shared: read the medians." \
  "What get_score.sh does around the JVM: [the grading server](../grading-server.md)."
