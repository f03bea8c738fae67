#!/usr/bin/env bash
# evaluate.sh - every table here priced against every timing run here.
#
# Scores the profiles that the last bench/fidelity.sh runs kept
# (build/bench/fidelity/CORPUS/profile.*.xml; timings/sorting-*.tsv are of
# the sorting corpus, the others of the 30 programs) with each table in
# tables/, puts the scores into each timing run's results (timings/*.tsv:
# name, score, bytecodes, -Xint ns, JIT ns, spreads) and
# prints FidelityStats' line for the calibrated score: Spearman's rho against
# -Xint and JIT time, median and worst relative error against -Xint time.
# Counts do not depend on the table, and the programs did not change between
# the runs, so this separates what the table does from what the timing does.
#
# Usage: evaluate.sh [DIR]: the tables/ and timings/ of DIR (default: this
# script's folder; another day's folder under bench/fidelity/results/).
set -eu
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
HERE=$(cd "${1:-$(dirname "$0")}" && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
TOOLS=$BUILD/bench/fidelity/tools
for c in programs sorting; do
  [ -n "$(ls "$BUILD/bench/fidelity/$c"/profile.*.xml 2>/dev/null)" ] ||
    { echo "evaluate.sh: run bench/fidelity.sh --corpus bench/fidelity/$c first (no kept profiles)" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf '%-22s %-20s %10s %10s %10s %10s\n' table timings "rho -Xint" "rho JIT" "median err" "worst err"
for table in "$HERE"/tables/*.xml; do
  tsc=$(sed -n 's/.*tsc_hz="\([0-9]*\)".*/\1/p' "$table" | head -n 1)
  for timings in "$HERE"/timings/*.tsv; do
    case $(basename "$timings") in sorting-*) PROFILES=$BUILD/bench/fidelity/sorting ;; *) PROFILES=$BUILD/bench/fidelity/programs ;; esac
    while read -r name _ rest; do
      case $name in '#'*) continue ;; esac
      score=$("$BUILD/psf-score" --costs "$table" --score-only "$PROFILES/profile.$name.xml")
      printf '%s %s %s\n' "$name" "${score#\~}" "$rest"
    done < "$timings" > "$TMP/results.tsv"
    java -cp "$TOOLS" FidelityStats "$TMP/results.tsv" "$tsc" "$TMP/plot.tsv" |
      awk -v t="$(basename "$table" .xml)" -v r="$(basename "$timings" .tsv)" \
        '/^calibrated score/ { printf "%-22s %-20s %10s %10s %10s %10s\n", t, r, $5, $6, $7, $8 }'
  done
done
