#!/usr/bin/env bash
# agent_progress.sh - get_score.sh on a terminal shows the bytecodes counted
# so far and the limit, in place on stderr, for a step engine's run longer
# than a second; never with --json, never when stderr is not a terminal,
# never for the fast engine (which adds an invocation's bytecodes to the
# total when it ends). The terminal is a pseudo-terminal from script(1)
# (util-linux), whose typescript keeps every byte written to it (-f: as it
# is written).
#
# The runs last as long as the check needs on any machine, fast or slow:
# ProgressGate calls the method (Loops.sum's loop, 9n + 9 bytecodes) once,
# then waits outside it until this script puts a gate file on its class
# path, then calls it again. With the step engine the gate opens once the
# terminal has shown the first call's count (at most 60 s, a bound on a
# hung test, well within the run's --timeout); where no line may appear,
# after 3 s, three times the wait before get_score.sh's first line (a
# loaded machine can only let a wrongly shown line go unseen, never fail a
# run that shows none).
set -eu
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "script(1) not installed: skipped"; exit 77; }
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
CP=$TEST_TMP/cp
mkdir -p "$CP"
cp "$FX/ProgressGate.class" "$CP/"
# sum(n) runs 9n + 9 bytecodes (agent_counts.sh, Loops.sum): the first call's
# count is what the line shows while main waits, the two calls' the total
N=1000 ONE=$((9 * 1000 + 9)) WORK=$((2 * (9 * 1000 + 9)))
TS=$TEST_TMP/typescript

# gated OPEN CMD...: CMD under script(1) in the background with the gate
# shut; OPEN "line" opens it once the typescript shows the first call's
# count (60 s at most), "3" after 3 s; then waits for the run.
gated() {
  local open=$1
  shift
  rm -f "$CP/gate" "$TS"
  script -qfec "$*" "$TS" </dev/null >/dev/null &
  local pid=$!
  if [ "$open" = line ]; then
    for _ in $(seq 600); do
      tr '\r' '\n' 2>/dev/null <"$TS" | grep -q "get_score.sh: $ONE bytecodes counted" && break
      sleep 0.1
    done
  else
    sleep "$open"
  fi
  touch "$CP/gate"
  wait "$pid" || true
}
counted() { tr '\r' '\n' <"$TS" | sed -n 's/.*get_score.sh: \([0-9]*\) bytecodes counted (limit 50000000)$/\1/p'; }

gated line "'$GS' --classpath '$CP' --method ProgressGate.sum --engine step --max-bytecodes 50000000 --timeout 300 -- $N gate"
counts=$(counted)
expect_eq "a terminal sees the count and the limit" "$([ -n "$counts" ] && echo shown || echo none)" shown
expect_eq "while main waits, the line shows the first call's $ONE bytecodes" \
  "$(echo "$counts" | grep -cx "$ONE" | sed 's/^[1-9][0-9]*$/shown/')" shown
prev=0 ok=1
for c in $counts; do
  { [ "$c" -ge "$prev" ] && [ "$c" -le "$WORK" ]; } || ok=0
  prev=$c
done
expect_eq "the counts grow and never pass the method's $WORK bytecodes" "$ok" 1
expect_match "the progress line is rewritten in place" "$(cat -v "$TS")" '\^M\^\[\[Kget_score\.sh: [0-9]+ bytecodes counted'
expect_match "the method's bytecodes follow" "$(tr '\r' '\n' <"$TS")" "bytecodes +$WORK run by the method"

# the fast engine: no progress line (a count of 0 until the end would mislead)
gated 3 "'$GS' --classpath '$CP' --method ProgressGate.sum --engine fast -- $N gate"
expect_eq "the fast engine: no progress line" "$(grep -c 'bytecodes counted' "$TS" || true)" 0
expect_match "... and the score" "$(tr '\r' '\n' <"$TS")" "bytecodes +$WORK run by the method"
gated 3 "'$GS' --json --classpath '$CP' --method ProgressGate.sum --engine step -- $N gate"
expect_eq "--json: no progress" "$(grep -c 'bytecodes counted' "$TS" || true)" 0
expect_match "--json: ... and the count" "$(cat "$TS")" "\"bytecodes\": $WORK"
# stderr not a terminal (a file): no script(1)
rm -f "$CP/gate"
"$GS" --classpath "$CP" --method ProgressGate.sum -- "$N" gate >/dev/null 2>"$TEST_TMP/err" &
pid=$!
sleep 3
touch "$CP/gate"
wait "$pid" || true
expect_eq "stderr not a terminal: no progress" "$(grep -c 'bytecodes counted' "$TEST_TMP/err" || true)" 0
finish
