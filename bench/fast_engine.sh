#!/usr/bin/env bash
# fast_engine.sh - the fast counting engine (engine=fast, block probes, JIT
# on) against the step engine and the plain JIT run of the same program.
#
# For each workload, runs the plain program (no agent), the agent with
# engine=fast and the agent with engine=step, in turn, REPEAT times each,
# with get_score.sh's pinned flags, and prints the median whole-process CPU
# time (user + sys, from /usr/bin/time: JVM start and the fast engine's
# retransformation of the JDK included) of each and the ratios step / fast
# and fast / plain. Both engines' profiles must agree on the bytecodes
# counted (it says so when they do not). The machine is shared and noisy:
# read the medians and the ratios, not one run. Not a test: nothing here
# passes or fails.
#
# Usage: bench/fast_engine.sh [REPEAT]   (default 5); make bench-fast
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
REPEAT=${1:-5}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
FX=$BUILD/fixtures/agent
for f in "$BUILD/libpsfagent.so" "$FX/Fib.class" /usr/bin/time; do
  [ -e "$f" ] || { echo "fast_engine.sh: $f is missing: run it as 'make bench-fast'" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mapfile -t FLAGS < <(sed -n '/^PINNED_FLAGS=(/,/^)/p' "$ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# cpu KIND SPEC MAIN ARGS...: one run's user + sys seconds, appended to $TMP/KIND
cpu() {
  local kind=$1 spec=$2 agent=()
  shift 2
  [ "$kind" = plain ] || agent=("-agentpath:$BUILD/libpsfagent.so=method=$spec,out=$TMP/$kind.xml,engine=$kind")
  /usr/bin/time -f '%U %S' -o "$TMP/time" "$JAVA" "${FLAGS[@]}" "${agent[@]}" -cp "$FX" "$@" >/dev/null
  awk '{ print $1 + $2 }' "$TMP/time" >>"$TMP/$kind"
}
work() { sed -n 's/.*<summary [^>]*work="\([0-9]*\)".*/\1/p' "$1"; }

printf '%-8s %11s %10s %10s %10s %10s %10s\n' workload bytecodes "plain s" "fast s" "step s" step/fast fast/plain
for spec in "fib Fib.fib Fib 30" "loop Loops.sum Loops 3000000" "branches Branches.random Branches random 300000"; do
  set -- $spec
  name=$1 method=$2
  shift 2
  : >"$TMP/plain"; : >"$TMP/fast"; : >"$TMP/step"
  for _ in $(seq "$REPEAT"); do
    cpu plain "$method" "$@"
    cpu fast "$method" "$@"
    cpu step "$method" "$@"
  done
  nf=$(work "$TMP/fast.xml"); ns=$(work "$TMP/step.xml")
  [ "$nf" = "$ns" ] || echo "warning: $name: the fast engine counted $nf bytecodes, the step engine $ns" >&2
  [ -n "${PSF_BENCH_RAW:-}" ] && echo "raw $name: plain $(tr '\n' ' ' <"$TMP/plain") fast $(tr '\n' ' ' <"$TMP/fast") step $(tr '\n' ' ' <"$TMP/step")" >&2
  p=$(median <"$TMP/plain"); f=$(median <"$TMP/fast"); s=$(median <"$TMP/step")
  awk -v w="$name" -v n="$ns" -v p="$p" -v f="$f" -v s="$s" \
    'BEGIN { printf "%-8s %11d %10.2f %10.2f %10.2f %10.2f %10.2f\n", w, n, p, f, s, s/f, f/p }'
done
