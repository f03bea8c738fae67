#!/usr/bin/env bash
# calibrate_machine.sh - calibrate this machine's cost table and check it.
#
# For a grading server (or anyone) on a machine the shipped table did not
# come from: runs build/psf-calibrate (not isolated unless --isolate), then
# bench/fidelity.sh on every fidelity corpus (bench/fidelity/*: one task
# each, plus the 30 mixed programs) in a quick mode, and prints per corpus
# how well the new table's scores track this machine's run times: Spearman
# of score against -Xint and JIT time, -Xint time against JIT time (the JIT
# ceiling of any -Xint model), the median relative error of the predicted
# time, the noise ceiling (one timing round against another), and whether
# each target is met (docs/fidelity.md).
#
# Usage: scripts/calibrate_machine.sh [--out FILE] [--isolate [--cpu N]] [--quick]
#                                     [--check-only] [--corpus DIR]... [--rounds N]
#                                     [--seconds S] [--clock wall|cpu] [--skip-check]
#   --out FILE     the table to write (default config/costs-local.xml, not
#                  tracked by git; not /dev/null); score with get_score.sh --costs FILE
#   --isolate      calibrate on a reserved CPU (as root; docs/isolation.md):
#                  scripts/init_environment.sh, psf-calibrate timing through
#                  scripts/run_isolated.sh, then terminate_environment.sh,
#                  also when a step fails or the run is interrupted; fails
#                  if the table does not say isolated_core="true". An
#                  isolation someone else set up is used and left in place.
#   --cpu N        with --isolate: the CPU to reserve (default: the highest)
#   --quick        psf-calibrate --quick (under 2 minutes; a rougher table)
#   --check-only   do not calibrate: check the table --out names
#   --skip-check   calibrate only
#   --corpus DIR   check on this corpus (repeatable; default: every corpus)
#   --rounds N     timing rounds per corpus (default 2)
#   --seconds S    seconds of calls per program and JVM (default 0.3)
#   --clock cpu    time the check with thread CPU time, not wall time (a
#                  machine busy with other work: see bench/fidelity.sh)
# The machine should be otherwise idle: a busy machine makes both the table
# and the check noisy (the noise ceiling shows how much).
# Exit: 0 done (targets met or not: the table is what this machine
# measures), 1 a step failed (with --isolate: also no isolation possible
# here, the reason named), 2 usage.
set -eu

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
OUT=$ROOT/config/costs-local.xml
ISOLATE=0
ISOLATE_CPU=""
QUICK=0
CALIBRATE=1
CHECK=1
ROUNDS=2
SECONDS_PER=0.3
CLOCK=wall
CORPORA=()
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || { usage >&2; exit 2; }; OUT=$2; shift 2 ;;
    --isolate) ISOLATE=1; shift ;;
    --cpu) [ $# -ge 2 ] || { usage >&2; exit 2; }; ISOLATE_CPU=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --check-only) CALIBRATE=0; shift ;;
    --skip-check) CHECK=0; shift ;;
    --corpus) [ $# -ge 2 ] || { usage >&2; exit 2; }; CORPORA+=("$2"); shift 2 ;;
    --rounds) [ $# -ge 2 ] || { usage >&2; exit 2; }; ROUNDS=$2; shift 2 ;;
    --seconds) [ $# -ge 2 ] || { usage >&2; exit 2; }; SECONDS_PER=$2; shift 2 ;;
    --clock) [ $# -ge 2 ] || { usage >&2; exit 2; }; CLOCK=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "calibrate_machine.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
case $ROUNDS in '' | *[!0-9]* | 0) echo "calibrate_machine.sh: --rounds needs a positive number" >&2; exit 2 ;; esac
case $CLOCK in wall | cpu) ;; *) echo "calibrate_machine.sh: --clock is wall or cpu" >&2; exit 2 ;; esac
case $SECONDS_PER in '' | *[!0-9.]*) echo "calibrate_machine.sh: --seconds needs a number" >&2; exit 2 ;; esac
[ "$CALIBRATE" = 1 ] || [ "$CHECK" = 1 ] || { echo "calibrate_machine.sh: --check-only and --skip-check leave nothing to do" >&2; exit 2; }
[ -z "$ISOLATE_CPU" ] || [ "$ISOLATE" = 1 ] || { echo "calibrate_machine.sh: --cpu goes with --isolate" >&2; exit 2; }
case $ISOLATE_CPU in *[!0-9]*) echo "calibrate_machine.sh: --cpu needs a CPU number" >&2; exit 2 ;; esac
[ "$ISOLATE" = 0 ] || [ "$CALIBRATE" = 1 ] || { echo "calibrate_machine.sh: --isolate and --check-only: the check is never isolated" >&2; exit 2; }
[ "$OUT" != /dev/null ] || { echo "calibrate_machine.sh: --out /dev/null: the table is the result (and is read back to check it); give a file" >&2; exit 2; }
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac

# The isolation this run set up (1 while a CPU is reserved by it), undone by
# undo_isolation: after the calibration, or on any exit or interrupt before.
OWN_ISOLATION=0
undo_isolation() {
  [ "$OWN_ISOLATION" = 1 ] || return 0
  OWN_ISOLATION=0
  echo "== undoing the isolation: scripts/terminate_environment.sh" >&2
  "$ROOT/scripts/terminate_environment.sh" && return 0
  echo "calibrate_machine.sh: terminate_environment.sh could not undo everything; run it again" >&2
  return 1
}
trap 'undo_isolation || true' EXIT
trap 'undo_isolation || true; exit 130' INT
trap 'undo_isolation || true; exit 143' TERM

# isolate: reserve a CPU with init_environment.sh. Exits 1 when that is not
# possible here (its reasons on stderr and in PSF_ISOLATION_REASON).
isolate() {
  local env rc=0 reason
  env=$(mktemp "${TMPDIR:-/tmp}/psf-isolation.XXXXXX")
  echo "== isolating a CPU: scripts/init_environment.sh${ISOLATE_CPU:+ --cpu $ISOLATE_CPU}" >&2
  "$ROOT/scripts/init_environment.sh" ${ISOLATE_CPU:+--cpu "$ISOLATE_CPU"} > "$env" || rc=$?
  reason=$(sed -n 's/^PSF_ISOLATION_REASON=//p' "$env")
  rm -f -- "$env"
  case $rc in
    0) OWN_ISOLATION=1 ;;
    5) echo "calibrate_machine.sh: a CPU is already reserved; using it and leaving it reserved (terminate_environment.sh undoes it)" >&2 ;;
    3|4) echo "calibrate_machine.sh: no isolation possible here (${reason:-see above}); calibrate without --isolate" >&2; exit 1 ;;
    *) echo "calibrate_machine.sh: init_environment.sh failed (exit $rc)" >&2; exit 1 ;;
  esac
}

if [ "$CALIBRATE" = 1 ]; then
  args=(--out "$OUT")
  [ "$ISOLATE" = 1 ] || args+=(--no-isolate)
  [ "$QUICK" = 1 ] && args+=(--quick)
  [ "$ISOLATE" = 1 ] && isolate
  echo "== calibrating: $BUILD/psf-calibrate ${args[*]}" >&2
  "$BUILD/psf-calibrate" "${args[@]}" || { echo "calibrate_machine.sh: psf-calibrate failed" >&2; exit 1; }
  undo_isolation || exit 1
  if [ "$ISOLATE" = 1 ] && ! grep -q 'isolated_core="true"' "$OUT"; then
    echo "calibrate_machine.sh: $OUT was not timed on the reserved CPU (isolated_core is not \"true\"; see the isolation line of its report)" >&2
    exit 1
  fi
fi
[ -s "$OUT" ] || { echo "calibrate_machine.sh: no table at $OUT" >&2; exit 1; }
[ "$CHECK" = 1 ] || exit 0

if [ ${#CORPORA[@]} -eq 0 ]; then
  for d in "$ROOT"/bench/fidelity/*/; do
    d=${d%/}
    case $(basename "$d") in tools | results) continue ;; esac
    compgen -G "$d/*.java" > /dev/null && CORPORA+=("$d")
  done
fi
SUMMARIES=()
for c in "${CORPORA[@]}"; do
  name=$(basename "$c")
  echo "== checking on $name ($ROUNDS rounds, $SECONDS_PER s of calls a program)" >&2
  if ! PSF_BUILD=$BUILD "$ROOT/bench/fidelity.sh" --corpus "$c" --costs "$OUT" --rounds "$ROUNDS" \
         --xint-reps 3 --xint-seconds "$SECONDS_PER" --jit-seconds "$SECONDS_PER" --clock "$CLOCK" > "$BUILD/calibrate_machine.$name.log" 2>&1; then
    tail -n 5 "$BUILD/calibrate_machine.$name.log" >&2
    echo "calibrate_machine.sh: the check on $name failed (see $BUILD/calibrate_machine.$name.log)" >&2
    exit 1
  fi
  SUMMARIES+=("$BUILD/bench/fidelity/$name/summary.txt")
done

# One line a corpus. Targets: rho -Xint >= 0.98, median error <= 10%, and
# rho JIT at least -Xint time's own rho against JIT time.
echo
echo "table $OUT on $(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)"
printf '%-12s %4s %10s %10s %12s %11s %11s %11s  %s\n' corpus n "rho -Xint" "rho JIT" "-Xint~JIT" "median err" "worst err" "noise -Xint" targets
awk '
  { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    miss = ""
    if (v["rho_xint"] + 0 < 0.98) miss = miss " rho-Xint"
    if (v["median_err"] + 0 > 0.10) miss = miss " error"
    if (v["rho_jit"] + 0 < v["rho_xint_jit"] + 0) miss = miss " rho-JIT"
    printf "%-12s %4d %10.3f %10.3f %12.3f %10.1f%% %10.1f%% %11s  %s\n", v["corpus"], v["n"], v["rho_xint"],
           v["rho_jit"], v["rho_xint_jit"], 100 * v["median_err"], 100 * v["worst_err"],
           v["noise_xint"] == "NaN" ? "-" : sprintf("%.3f", v["noise_xint"]), miss == "" ? "met" : "missed:" miss }
' "${SUMMARIES[@]}"
echo
echo "noise -Xint: how well one timing round ranks another (no score can do better); $CLOCK time; quick mode"
echo "(--rounds $ROUNDS, $SECONDS_PER s a program) is rougher than bench/fidelity.sh's defaults."
echo "Score with: scripts/get_score.sh --costs $OUT ..."
