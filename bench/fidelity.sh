#!/usr/bin/env bash
# fidelity.sh - does the score track real time?
#
# For every program of a corpus (--corpus DIR, default bench/fidelity/programs:
# 30 programs of different kinds; bench/fidelity/sorting: one task, 29
# sorting algorithms on the same input): the score of Prog.run()
# (scripts/get_score.sh with the cost table) and its plain bytecode count,
# then its run time in -Xint and with the JIT (FidelityTimer: the minimum
# of repeated calls inside one JVM, JVM start excluded), and with the JIT
# also the first call in a fresh JVM (a program that runs once: interpreted,
# then compiled while it runs). Timing runs in
# --rounds rounds (default 5, every round times every program once, in
# alternating order); a program's time is its minimum over the rounds and
# its spread is highest / lowest - 1. Prints a table and the Spearman rank
# correlation of score against both times and the median relative error of
# score / tsc_hz against -Xint time, next to the two baselines: plain
# counts, and counts times the best single ns/bytecode; then the noise
# ceiling (how well one round's times rank another's, which no score can
# beat) and the same figures for every round alone, so that one lucky round
# cannot hide. A round takes about 2.7 s a program (two JVMs, 1 s of calls
# each; 78 s for the 29 sorting programs): 5 rounds of 30 programs about 7
# minutes, plus under a minute of scoring.
#
# Usage: bench/fidelity.sh [--corpus DIR] [--costs FILE] [--plot FILE.png] [--data FILE.tsv]
#                          [--rounds N] [--xint-reps N] [--xint-seconds S] [--jit-seconds S]
#                          [--jobs N] [--replot] [--rescore] [--reprofile] [--retime]
#                          [--clock wall|cpu] [--score-timeout S] [PROGRAM...]
# Every program is a class DIR/NAME.java with `public static long run()`;
# an executable DIR/check.sh, if any, runs first and must succeed.
# Results go to build/bench/fidelity/NAME-OF-DIR/, one directory a corpus;
# --replot redraws the plot from that corpus' last results without measuring;
# --rescore scores again (another --costs) but keeps the last run's times
# (and reports the clock and JDK that timed them);
# --reprofile also runs every program under the agent again (a changed
# agent), keeping the times; --retime keeps the last run's scores and
# profiles and times again. --clock cpu times with each timing thread's CPU
# time instead of wall time (FidelityTimer): on a machine shared with busy
# processes, wall time measures the contention.
# Scoring runs in parallel (--jobs, default 2); timing runs one at a time.
set -eu
. "$(dirname "$0")/lib.sh"
COSTS=$ROOT/config/costs.xml
PLOT=""
DATA=""
XINT_REPS=10
XINT_SECONDS=1
JIT_SECONDS=1
ROUNDS=5
CORPUS=$ROOT/bench/fidelity/programs
JOBS=2
REPLOT=0
RESCORE=0
REPROFILE=0
RETIME=0
CLOCK=wall
SCORE_TIMEOUT=600   # get_score.sh --timeout: the agent runs a 100 ms program for tens of seconds
while [ $# -gt 0 ]; do
  case $1 in
    --corpus) CORPUS=$2; shift 2 ;;
    --costs) COSTS=$2; shift 2 ;;
    --plot) PLOT=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --xint-reps) XINT_REPS=$2; shift 2 ;;
    --xint-seconds) XINT_SECONDS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --jit-seconds) JIT_SECONDS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --replot) REPLOT=1; shift ;;
    --rescore) RESCORE=1; shift ;;
    --reprofile) RESCORE=1; REPROFILE=1; shift ;;
    --retime) RETIME=1; shift ;;
    --clock) CLOCK=$2; shift 2 ;;
    --score-timeout) SCORE_TIMEOUT=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "fidelity.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case $COSTS in /*) ;; *) COSTS=$PWD/$COSTS ;; esac
case $ROUNDS in '' | *[!0-9]* | 0) echo "fidelity.sh: --rounds needs a positive number" >&2; exit 2 ;; esac
case $CLOCK in wall | cpu) ;; *) echo "fidelity.sh: --clock is wall or cpu" >&2; exit 2 ;; esac
[ "$RETIME" = 0 ] || [ "$RESCORE" = 0 ] || { echo "fidelity.sh: --retime keeps the scores, --rescore the times: not both" >&2; exit 2; }
CORPUS_ABS=$(cd "$CORPUS" 2>/dev/null && pwd) || { echo "fidelity.sh: --corpus $CORPUS: no such directory" >&2; exit 2; }
CORPUS=$CORPUS_ABS
if ! compgen -G "$CORPUS/*.java" > /dev/null; then
  echo "fidelity.sh: --corpus $CORPUS has no .java programs" >&2
  exit 2
fi
CORPUS_NAME=$(basename "$CORPUS")
[ "$CORPUS_NAME" != tools ] || { echo "fidelity.sh: a corpus cannot be called tools" >&2; exit 2; }

JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac
# one output directory a corpus, so that --rescore and --replot find that
# corpus' last run; the tools are shared
OUT=$BUILD/bench/fidelity/$CORPUS_NAME
CLASSES=$OUT/classes
TOOLS=$BUILD/bench/fidelity/tools
mkdir -p "$CLASSES" "$TOOLS"
"$JAVAC" --release 17 -d "$CLASSES" "$CORPUS"/*.java
"$JAVAC" --release 17 -d "$TOOLS" "$ROOT"/bench/fidelity/tools/*.java
# Runs of the default corpus before --corpus existed kept their results in
# build/bench/fidelity itself: let --rescore and --replot use them.
LEGACY=$BUILD/bench/fidelity
if [ "$CORPUS" = "$ROOT/bench/fidelity/programs" ] && { [ "$RESCORE" = 1 ] || [ "$REPLOT" = 1 ]; } &&
   [ ! -s "$OUT/results.tsv" ] && [ -s "$LEGACY/results.tsv" ] && [ -s "$LEGACY/round.1.tsv" ]; then
  echo "fidelity.sh: taking the last run's results from $LEGACY (copied to $OUT)" >&2
  cp -p "$LEGACY"/results.tsv "$LEGACY"/round.*.tsv "$OUT"/
  cp -p "$LEGACY"/score.* "$LEGACY"/profile.*.xml "$OUT"/ 2>/dev/null || true
fi
if [ "$REPLOT" = 1 ] && [ ! -s "$OUT/results.tsv" ]; then
  echo "fidelity.sh: --replot: no earlier results in $OUT" >&2
  exit 1
fi
if [ "$REPLOT" = 0 ] && [ -x "$CORPUS/check.sh" ]; then
  # e.g. that every program of a one-task corpus computes the same result
  if ! PSF_BUILD=$BUILD "$CORPUS/check.sh" > "$OUT/check.out" 2>&1; then
    tail -n 5 "$OUT/check.out" >&2
    echo "fidelity.sh: $CORPUS/check.sh failed (see $OUT/check.out)" >&2
    exit 1
  fi
  echo "$CORPUS_NAME: $(tail -n 1 "$OUT/check.out")" >&2
fi

if [ $# -gt 0 ]; then
  PROGRAMS=("$@")
elif [ "$RESCORE" = 1 ] && [ -s "$OUT/round.1.tsv" ]; then
  # the programs the last run timed
  PROGRAMS=()
  while read -r p _; do PROGRAMS+=("$p"); done < "$OUT/round.1.tsv"
else
  PROGRAMS=()
  for f in "$CORPUS"/*.java; do PROGRAMS+=("$(basename "$f" .java)"); done
fi

TSC_HZ=$(sed -n 's/.*tsc_hz="\([0-9]*\)".*/\1/p' "$COSTS" | head -n 1)
if [ -z "$TSC_HZ" ]; then
  echo "fidelity.sh: $COSTS has no tsc_hz (not a calibrated table?)" >&2
  exit 1
fi

# The JDK that times (and, through JAVA_HOME, scores): recorded with the
# results, and compared with the table's, whose prices hold for one JDK only.
TIME_JDK=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p' | head -n 1)
[ -n "$TIME_JDK" ] || { echo "fidelity.sh: cannot tell the version of $JAVA" >&2; exit 1; }
TABLE_JDK=$(sed -n 's/.*jdk_version="\([^"]*\)".*/\1/p' "$COSTS" | head -n 1)
if [ -n "$TABLE_JDK" ] && [ "${TABLE_JDK%%[.+-]*}" != "${TIME_JDK%%[.+-]*}" ]; then
  echo "fidelity.sh: WARNING: the table was calibrated on JDK $TABLE_JDK, the programs run on JDK $TIME_JDK ($JAVA; set JAVA_HOME)" >&2
fi

# The timing flags: the pinned flags of get_score.sh and of the calibration
# runs (-XX:+AlwaysPreTouch: steady-state costs, no first-touch page faults).
TIME_FLAGS=(-XX:-UseTLAB -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:-UseDynamicNumberOfCompilerThreads
  -Xshare:off -Xss1m -Xms512m -Xmx512m -XX:+AlwaysPreTouch -Duser.language=en -Duser.country=US
  -Duser.timezone=UTC -Dfile.encoding=UTF-8 -XX:+UnlockDiagnosticVMOptions -XX:-UseCRC32Intrinsics
  -XX:-UseCRC32CIntrinsics)

if [ "$REPLOT" = 0 ]; then
# --- scores (parallel) -------------------------------------------------------
# The corpus is our own code: no sandbox needed (get_score.sh refuses to run
# unsandboxed as root unless told so, where it has that option).
GS_EXTRA=()
if "$GS" --help 2>/dev/null | grep -q -- '--sandbox'; then GS_EXTRA=(--sandbox off); fi
json_num() { tr -d ' \n' | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2; }
score_one() {
  local p=$1 json score bc try
  for try in 1 2; do
    json=$(PSF_BUILD=$BUILD "$GS" --json --costs "$COSTS" --classpath "$CLASSES" \
             --main "$p" --method "$p.run" --program-output /dev/null --profile-out "$OUT/profile.$p.xml" \
             --timeout "$SCORE_TIMEOUT" \
             "${GS_EXTRA[@]}" 2>"$OUT/score.$p.err") || true
    score=$(printf '%s' "$json" | json_num score)
    bc=$(printf '%s' "$json" | json_num bytecodes)
    [ -n "$score" ] && [ -n "$bc" ] && break
  done
  if [ -z "$score" ] || [ -z "$bc" ]; then
    echo "fidelity.sh: scoring $p failed: $(printf '%s' "$json" | tr -d '\n' | cut -c1-300) (see $OUT/score.$p.err)" >&2
    return 1
  fi
  printf '%s %s %s\n' "$p" "$score" "$bc" > "$OUT/score.$p"
}
export -f score_one json_num
export ROOT BUILD GS COSTS CLASSES OUT SCORE_TIMEOUT
export GS_EXTRA_STR="${GS_EXTRA[*]}"
rescore_one() {
  # the profile the last run kept, priced with another table (counts do not
  # depend on the table)
  local p=$1 score
  [ -s "$OUT/profile.$p.xml" ] && [ -s "$OUT/score.$p" ] || return 1
  score=$("$BUILD/psf-score" --costs "$COSTS" --score-only "$OUT/profile.$p.xml" 2>"$OUT/score.$p.err") || return 1
  score=${score#\~}   # "~": some key was charged the default price
  read -r _ _ bc < "$OUT/score.$p"
  printf '%s %s %s\n' "$p" "$score" "$bc" > "$OUT/score.$p"
}
rescore_all() { local p; for p in "$@"; do rescore_one "$p" || return 1; done; }
if [ "$RETIME" = 1 ]; then
  # the kept scores; programs without one (a failed earlier run) are scored
  MISSING=()
  for p in "${PROGRAMS[@]}"; do [ -s "$OUT/score.$p" ] || MISSING+=("$p"); done
  echo "kept the last run's scores of $((${#PROGRAMS[@]} - ${#MISSING[@]})) programs; scoring ${#MISSING[@]}; timing again" >&2
  [ ${#MISSING[@]} -eq 0 ] ||
    printf '%s\n' "${MISSING[@]}" | xargs -P "$JOBS" -I{} bash -c 'read -r -a GS_EXTRA <<<"$GS_EXTRA_STR"; score_one "$@"' _ {}
elif [ "$RESCORE" = 1 ] && [ "$REPROFILE" = 0 ] && rescore_all "${PROGRAMS[@]}"; then
  echo "rescored ${#PROGRAMS[@]} kept profiles with $COSTS" >&2
else
  echo "scoring ${#PROGRAMS[@]} programs of $CORPUS_NAME ($JOBS at a time) with $COSTS" >&2
  printf '%s\n' "${PROGRAMS[@]}" | xargs -P "$JOBS" -I{} bash -c 'read -r -a GS_EXTRA <<<"$GS_EXTRA_STR"; score_one "$@"' _ {}
fi

# --- times (one at a time, in rounds) -----------------------------------------
time_round() {
  local r=$1 p xint jit jit_first
  shift
  : > "$OUT/round.$r.tsv"
  for p in "$@"; do
    read -r _ score bc < "$OUT/score.$p"
    xint=$("$JAVA" -Xint "${TIME_FLAGS[@]}" -cp "$CLASSES:$TOOLS" FidelityTimer "$p" "$XINT_REPS" "$XINT_SECONDS" "$CLOCK" | cut -d' ' -f1)
    # with the JIT: the steady state (minimum of the calls) and the first
    # call (a program that runs once: interpreted, then compiled)
    read -r jit _ jit_first < <("$JAVA" "${TIME_FLAGS[@]}" -cp "$CLASSES:$TOOLS" FidelityTimer "$p" 20 "$JIT_SECONDS" "$CLOCK")
    printf '%s %s %s %s %s %s\n' "$p" "$score" "$bc" "$xint" "$jit" "$jit_first" >> "$OUT/round.$r.tsv"
    printf '  round %d  %-18s score %12s  bytecodes %11s  -Xint %9.2f ms  JIT %8.3f ms  JIT 1st %8.3f ms\n' "$r" "$p" \
      "$score" "$bc" "$(awk -v x="$xint" 'BEGIN { print x / 1e6 }')" "$(awk -v x="$jit" 'BEGIN { print x / 1e6 }')" \
      "$(awk -v x="$jit_first" 'BEGIN { print x / 1e6 }')" >&2
  done
}
REVERSED=()
for ((i = ${#PROGRAMS[@]} - 1; i >= 0; i--)); do REVERSED+=("${PROGRAMS[$i]}"); done
if [ "$RESCORE" = 1 ]; then
  # the last run's times with the new scores
  ROUNDS=0
  while [ -s "$OUT/round.$((ROUNDS + 1)).tsv" ]; do
    ROUNDS=$((ROUNDS + 1))
    while read -r p _ _ xint jit jit_first; do
      read -r _ score bc < "$OUT/score.$p"
      printf '%s %s %s %s %s%s\n' "$p" "$score" "$bc" "$xint" "$jit" "${jit_first:+ $jit_first}"
    done < "$OUT/round.$ROUNDS.tsv" > "$OUT/round.tmp" && mv "$OUT/round.tmp" "$OUT/round.$ROUNDS.tsv"
  done
  [ "$ROUNDS" -gt 0 ] || { echo "fidelity.sh: --rescore: no earlier round in $OUT" >&2; exit 1; }
  # the kept times' clock and JDK are the timing run's, not this call's
  [ ! -s "$OUT/clock.txt" ] || CLOCK=$(cat "$OUT/clock.txt")
  [ ! -s "$OUT/jdk.txt" ] || TIME_JDK=$(cat "$OUT/jdk.txt")
else
  rm -f "$OUT"/round.*.tsv
  for ((r = 1; r <= ROUNDS; r++)); do
    # alternate the order, so that a slow phase of the machine does not always
    # fall on the same programs
    if [ $((r % 2)) = 1 ]; then time_round "$r" "${PROGRAMS[@]}"; else time_round "$r" "${REVERSED[@]}"; fi
  done
fi
# per program: the minimum over the rounds and the spread (highest / lowest - 1)
{
  echo "# program score bytecodes xint_ns jit_ns xint_spread jit_spread [jit_first_ns jit_first_spread] (minimum of $ROUNDS rounds)"
  for p in "${PROGRAMS[@]}"; do
    for ((r = 1; r <= ROUNDS; r++)); do grep "^$p " "$OUT/round.$r.tsv"; done |
      awk '{ s = $2; b = $3; if (NR == 1 || $4 < xl) xl = $4; if (NR == 1 || $4 > xh) xh = $4;
             if (NR == 1 || $5 < jl) jl = $5; if (NR == 1 || $5 > jh) jh = $5;
             if (NF < 6) nofirst = 1; else { if (NR == 1 || $6 < fl) fl = $6; if (NR == 1 || $6 > fh) fh = $6 } }
           END { printf "%s %s %s %s %s %.4f %.4f", $1, s, b, xl, jl, xh / xl - 1, jh / jl - 1
                 if (!nofirst) printf " %s %.4f", fl, fh / fl - 1
                 printf "\n" }'
  done
} > "$OUT/results.tsv"

ROUND_FILES=()
for ((r = 1; r <= ROUNDS; r++)); do ROUND_FILES+=("$OUT/round.$r.tsv"); done
echo
printf '%s\n' "$TIME_JDK" > "$OUT/jdk.txt"
printf '%s\n' "$CLOCK" > "$OUT/clock.txt"
echo "corpus $CORPUS_NAME: ${#PROGRAMS[@]} programs, minimum of $ROUNDS rounds ($CLOCK time), table $COSTS, JDK $TIME_JDK"
"$JAVA" -cp "$TOOLS" FidelityStats "$OUT/results.tsv" "$TSC_HZ" "$OUT/plot.tsv" "${ROUND_FILES[@]}" | tee "$OUT/stats.txt"
# one line for scripts (scripts/calibrate_machine.sh): the corpus, the rounds, the figures
printf 'corpus=%s rounds=%d clock=%s %s\n' "$CORPUS_NAME" "$ROUNDS" "$CLOCK" "$(sed -n 's/^summary //p' "$OUT/stats.txt")" > "$OUT/summary.txt"
echo
echo "Each round alone (rho -Xint, rho JIT, median err, worst err):"
for ((r = 1; r <= ROUNDS; r++)); do
  "$JAVA" -cp "$TOOLS" FidelityStats "$OUT/round.$r.tsv" "$TSC_HZ" "$OUT/plot.round.tsv" |
    grep -E '^(calibrated|plain|count x|measured)' | sed "s/^/  round $r  /"
done
fi   # REPLOT
[ "$REPLOT" = 1 ] && "$JAVA" -cp "$TOOLS" FidelityStats "$OUT/results.tsv" "$TSC_HZ" "$OUT/plot.tsv" > /dev/null
if [ -n "$DATA" ]; then cp "$OUT/results.tsv" "$DATA"; fi

# --- plot ----------------------------------------------------------------------
if [ -n "$PLOT" ]; then
  if command -v gnuplot > /dev/null; then
    gnuplot <<GP
set terminal pngcairo size 1100,520 font ",10" noenhanced
set output "$PLOT"
set multiplot layout 1,2 title "PSF fidelity ($CORPUS_NAME): predicted time (score / tsc_hz) against measured time, $(date -u +%Y-%m-%d)"
set logscale xy
set grid
set key top left
set xlabel "measured -Xint time (ms)"
set ylabel "predicted time (ms)"
plot "$OUT/plot.tsv" using 4:2 with points pt 7 ps 1.2 title "calibrated score / tsc_hz", \
     "$OUT/plot.tsv" using 4:3 with points pt 6 ps 1.2 title "bytecodes x best constant", \
     x with lines lt 0 title "y = x"
set xlabel "measured JIT time (ms)"
set ylabel "calibrated score (predicted -Xint ms)"
plot "$OUT/plot.tsv" using 5:2 with points pt 7 ps 1.2 title "calibrated score"
unset multiplot
GP
    echo "plot: $PLOT" >&2
  else
    echo "fidelity.sh: gnuplot not found; no plot (apt-get install gnuplot-nox)" >&2
  fi
fi
