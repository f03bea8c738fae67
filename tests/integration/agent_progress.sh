#!/usr/bin/env bash
# agent_progress.sh - get_score.sh on a terminal shows the bytecodes counted
# so far and the limit, in place on stderr, for a step engine's run longer
# than a second; never with --json, never when stderr is not a terminal,
# never for the fast engine (which adds an invocation's bytecodes to the
# total when it ends). The terminal is a
# pseudo-terminal from script(1) (util-linux), whose typescript keeps every
# byte written to it.
set -eu
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "script(1) not installed: skipped"; exit 77; }
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
# Loops.sum(n) runs 9n + 9 bytecodes: n = 2000000 is 18000009, seconds of
# single-stepping on any machine
N=2000000 WORK=$((9 * 2000000 + 9))

TS=$TEST_TMP/typescript
script -qec "'$GS' --classpath '$FX' --method Loops.sum --engine step --max-bytecodes 50000000 -- $N" "$TS" >/dev/null
counts=$(tr '\r' '\n' <"$TS" | sed -n 's/.*get_score.sh: \([0-9]*\) bytecodes counted (limit 50000000)$/\1/p')
expect_eq "a terminal sees the count and the limit" "$([ -n "$counts" ] && echo shown || echo none)" shown
prev=0 ok=1
for c in $counts; do
  { [ "$c" -ge "$prev" ] && [ "$c" -le "$WORK" ]; } || ok=0
  prev=$c
done
expect_eq "the counts grow and never pass the method's $WORK bytecodes" "$ok" 1
expect_match "the progress line is rewritten in place" "$(cat -v "$TS")" '\^M\^\[\[Kget_score\.sh: [0-9]+ bytecodes counted'
expect_match "the method's bytecodes follow" "$(tr '\r' '\n' <"$TS")" "bytecodes +$WORK run by the method"

# the fast engine: no progress line (a count of 0 until the end would mislead)
script -qec "'$GS' --classpath '$FX' --method Loops.sum --engine fast -- 20000000" "$TS" >/dev/null
expect_eq "the fast engine: no progress line" "$(grep -c 'bytecodes counted' "$TS" || true)" 0
expect_match "... and the score" "$(tr '\r' '\n' <"$TS")" "bytecodes +180000009 run by the method"
script -qec "'$GS' --json --classpath '$FX' --method Loops.sum --engine step -- $N" "$TS" >/dev/null
expect_eq "--json: no progress" "$(grep -c 'bytecodes counted' "$TS" || true)" 0
"$GS" --classpath "$FX" --method Loops.sum -- $N >/dev/null 2>"$TEST_TMP/err"
expect_eq "stderr not a terminal: no progress" "$(grep -c 'bytecodes counted' "$TEST_TMP/err" || true)" 0
finish
