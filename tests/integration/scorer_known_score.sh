#!/bin/sh
# scorer_known_score.sh - psf-score gives the hand-computed score of a fixture.
#
# basic.profile.xml with known.costs.xml: the derivation is in
# tests/fixtures/scorer/README.md (436 cycles, 468 with the overhead); so
# is branches.profile.xml with branches.costs.xml (288, 318).
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
command -v jq >/dev/null 2>&1 || { echo "jq not installed"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }

# The plain score, exact (no '~').
expect "score-only" "$("$SCORE" --costs $F/known.costs.xml --score-only $F/basic.profile.xml)" "436"
expect "with overhead" "$("$SCORE" --costs $F/known.costs.xml --score-only --with-overhead $F/basic.profile.xml)" "468"
# Without a table: the number of work bytecodes, exact.
expect "built-in" "$("$SCORE" --score-only $F/basic.profile.xml)" "100"
expect "built-in + overhead" "$("$SCORE" --score-only --with-overhead $F/basic.profile.xml)" "110"

# JSON: the same numbers and the fields get_score.sh passes on.
"$SCORE" --costs $F/known.costs.xml --json --explain $F/basic.profile.xml >"$TMP/a.json"
j() { jq -r "$1" "$TMP/a.json"; }
expect "json score" "$(j .score)" 436
expect "json status" "$(j .status)" ok
expect "json approximate" "$(j .approximate)" false
expect "json uncalibrated" "$(j .uncalibrated_table)" false
expect "json missing" "$(j '.missing | length')" 0
expect "json unit" "$(j .unit)" cycles
expect "json bytecodes" "$(j .bytecodes)" 100
expect "json runtime" "$(j .runtime_bytecodes)" 10
expect "json invocations" "$(j .invocations)" 2
expect "json thread" "$(j '.invocation_list[1].thread')" 'worker "1"'
expect "json end" "$(j '.invocation_list[1].end')" return
expect "json opcodes" "$(j '.opcodes.iadd')" 30
expect "json method" "$(j .method)" 'demo.Sum.run([I)J'
expect "json jdk" "$(j .jdk)" 17.0.15+6-Debian-1deb12u1
expect "json sha256" "$(j .cost_table.sha256)" "$(sha256sum $F/known.costs.xml | cut -d' ' -f1)"
expect "json calibrated" "$(j .cost_table.calibrated)" true
expect "json predicted" "$(j .predicted_ns)" 218
expect "json keys sorted" "$(jq -c 'keys_unsorted == (keys_unsorted | sort)' "$TMP/a.json")" true
# explain: methods and keys with their hand-computed contributions
expect "explain run" "$(j '.explain.methods[0] | "\(.method) \(.contribution) \(.share)"')" 'demo.Sum.run([I)J 225 51.6'
expect "explain helper" "$(j '.explain.methods[1] | "\(.method) \(.contribution)"')" 'demo.Sum.helper(I)I 17'
expect "explain top opcode" "$(j '.explain.opcodes[0] | "\(.key) \(.count) \(.cost) \(.contribution)"')" 'opcode:new 4 20 80'
expect "explain top dep" "$(j '.explain.dependencies[0] | "\(.key) \(.count) \(.elements) \(.cost) \(.cost_per_element) \(.contribution)"')" 'array:int 4 100 8 0.5 82'
expect "explain totals" "$(j '.explain | "\(.opcode_total) \(.dependency_total) \(.total)"')" '242 194 436'

# The same inputs give byte-identical output.
"$SCORE" --costs $F/known.costs.xml --json --explain $F/basic.profile.xml >"$TMP/b.json"
cmp -s "$TMP/a.json" "$TMP/b.json" || fail "two runs differ"

# Rounding: nop at 0.15 makes the exact total 437.5, which rounds up once.
sed 's/<opcode name="nop" cost="0.1"\/>/<opcode name="nop" cost="0.15"\/>/' $F/known.costs.xml >"$TMP/half.xml"
expect "half up" "$("$SCORE" --costs "$TMP/half.xml" --score-only $F/basic.profile.xml)" 438
"$SCORE" --costs "$TMP/half.xml" --json --explain $F/basic.profile.xml >"$TMP/a.json"
expect "exact total" "$(j .explain.total)" 437.5

# Branch prices: taken and mispredicted conditional branches, on top of the
# opcodes (README.md: 170 + 118 = 288; 318 with the overhead).
B=$F/branches.costs.xml
expect "branches" "$("$SCORE" --costs "$B" --score-only "$F/branches.profile.xml")" 288
expect "branches + overhead" "$("$SCORE" --costs "$B" --score-only --with-overhead "$F/branches.profile.xml")" 318
"$SCORE" --costs "$B" --json --explain --top 0 "$F/branches.profile.xml" >"$TMP/a.json"
expect "branch totals" "$(j '.explain | "\(.opcode_total) \(.dependency_total)"')" '170 118'
expect "branch counts in JSON" "$(j '.branches | "\(.conditional) \(.taken) \(.mispredicted)"')" '20 12 5'
"$SCORE" --costs "$B" --explain "$F/branches.profile.xml" >"$TMP/t.txt"
grep -q '^branches  20 conditional, 12 taken, 5 mispredicted' "$TMP/t.txt" || fail "text: no branch line: $(cat "$TMP/t.txt")"
expect "branch keys" "$(j '[.explain.dependencies[] | "\(.key)=\(.count)x\(.cost)"] | join(" ")')" \
  'branch:mispredicted=5x20 branch:taken=12x1.5'
# A table without <branch> entries prices the if* opcodes alone: exact, 170.
grep -v '<branch ' "$F/branches.costs.xml" >"$TMP/nobranch.xml"
expect "no branch prices" "$("$SCORE" --costs "$TMP/nobranch.xml" --score-only "$F/branches.profile.xml")" 170
# More mispredicted branches than conditional ones: refused as inconsistent.
sed 's/conditional="20" taken="12" mispredicted="5"/conditional="20" taken="12" mispredicted="21"/' \
  "$F/branches.profile.xml" >"$TMP/bad.xml"
rc=0; "$SCORE" --costs "$B" --score-only "$TMP/bad.xml" 2>"$TMP/err" >/dev/null || rc=$?
expect "inconsistent branches exit" "$rc" 7
grep -q 'work <branches>' "$TMP/err" || fail "inconsistent branches: $(cat "$TMP/err")"

# Method entries: closeness at <call kind="close">'s price, on top of the rest:
# 5 entries 400 close (at most 99 each) x 0.25 = 100 more than 288; with
# --with-overhead the overhead's 2 entries 30 close add 7.5 to the exact
# 317.5 (README.md): 425 exactly.
sed 's/<calls bucket="work" entries="0" close="0"/<calls bucket="work" entries="5" close="400"/;
     s/<calls bucket="overhead" entries="0" close="0"/<calls bucket="overhead" entries="2" close="30"/' \
  "$F/branches.profile.xml" >"$TMP/calls.xml"
sed 's|</costs>|  <call kind="close" cost="0.25"/>\n</costs>|' "$F/branches.costs.xml" >"$TMP/calls.costs.xml"
expect "calls" "$("$SCORE" --costs "$TMP/calls.costs.xml" --score-only "$TMP/calls.xml")" 388
expect "calls + overhead" "$("$SCORE" --costs "$TMP/calls.costs.xml" --score-only --with-overhead "$TMP/calls.xml")" 425
expect "calls without a price" "$("$SCORE" --costs "$B" --score-only "$TMP/calls.xml")" 288
"$SCORE" --costs "$TMP/calls.costs.xml" --json --explain --top 0 "$TMP/calls.xml" >"$TMP/a.json"
expect "call counts in JSON" "$(j '.calls | "\(.entries) \(.close)"')" '5 400'
expect "no class constants in JSON" "$(j .class_constants)" 0
expect "call key" "$(j '[.explain.dependencies[] | select(.key == "call:close") | "\(.count)x\(.cost)=\(.contribution)"] | join(" ")')" \
  '400x0.25=100'
"$SCORE" --costs "$TMP/calls.costs.xml" --explain "$TMP/calls.xml" >"$TMP/t.txt"
grep -q '^calls     5 method entries, closeness 400 ' "$TMP/t.txt" || fail "text: no calls line: $(cat "$TMP/t.txt")"
# The plain summary leaves the branch and call details to --explain.
"$SCORE" --costs "$TMP/calls.costs.xml" "$TMP/calls.xml" >"$TMP/t.txt"
grep -q '^score  *388 cycles$' "$TMP/t.txt" || fail "summary: no score line of 388 cycles: $(cat "$TMP/t.txt")"
! grep -q '^branches\|^calls\|closeness' "$TMP/t.txt" || fail "summary shows --explain details: $(cat "$TMP/t.txt")"
# 5 entries cannot be 500 bytecodes short of the previous (99 each at most).
sed 's/entries="5" close="400"/entries="5" close="500"/' "$TMP/calls.xml" >"$TMP/bad.xml"
rc=0; "$SCORE" --costs "$TMP/calls.costs.xml" --score-only "$TMP/bad.xml" 2>"$TMP/err" >/dev/null || rc=$?
expect "inconsistent calls exit" "$rc" 7
grep -q 'work <calls>' "$TMP/err" || fail "inconsistent calls: $(cat "$TMP/err")"

# Fences: native calls and allocations close after an entry, at their
# prices on top of the rest. basic.profile.xml has 2 native calls (Math.sin)
# and 10 allocation bytecodes (new 4, newarray 4, anewarray 2): closeness 150
# and 500 at 0.2 and 0.1 add 30 + 50 to 436; without the prices nothing.
sed 's/<calls bucket="work" entries="0" close="0" fence_native="0" fence_alloc="0"/<calls bucket="work" entries="0" close="0" fence_native="150" fence_alloc="500"/' \
  $F/basic.profile.xml >"$TMP/fence.xml"
sed 's|</costs>|  <call kind="fence_native" cost="0.2"/>\n  <call kind="fence_alloc" cost="0.1"/>\n</costs>|' \
  $F/known.costs.xml >"$TMP/fence.costs.xml"
expect "fences" "$("$SCORE" --costs "$TMP/fence.costs.xml" --score-only "$TMP/fence.xml")" 516
expect "fences without a price" "$("$SCORE" --costs $F/known.costs.xml --score-only "$TMP/fence.xml")" 436
"$SCORE" --costs "$TMP/fence.costs.xml" --json --explain --top 0 "$TMP/fence.xml" >"$TMP/a.json"
expect "fence counts in JSON" "$(j '.calls | "\(.fence_native) \(.fence_alloc)"')" '150 500'
expect "fence keys" "$(j '[.explain.dependencies[] | select(.key | startswith("call:fence")) | "\(.key)=\(.count)x\(.cost)"] | sort | join(" ")')" \
  'call:fence_alloc=500x0.1 call:fence_native=150x0.2'
# 2 native calls cannot be 199 bytecodes short of 100 after an entry (99 each at most).
sed 's/fence_native="150"/fence_native="199"/' "$TMP/fence.xml" >"$TMP/bad.xml"
rc=0; "$SCORE" --costs "$TMP/fence.costs.xml" --score-only "$TMP/bad.xml" 2>"$TMP/err" >/dev/null || rc=$?
expect "inconsistent fences exit" "$rc" 7
grep -q 'fence_native="199"' "$TMP/err" || fail "inconsistent fences: $(cat "$TMP/err")"

# The text summary names the score and the table.
"$SCORE" --costs $F/known.costs.xml $F/basic.profile.xml >"$TMP/t.txt"
grep -q '^score     436 cycles$' "$TMP/t.txt" || fail "text summary: $(cat "$TMP/t.txt")"
"$SCORE" --costs $F/known.costs.xml --explain $F/basic.profile.xml >"$TMP/t.txt"
grep -q 'demo.Sum.run(\[I)J$' "$TMP/t.txt" || fail "explain text lacks the method"
grep -q '82   18.8%.*array:int$' "$TMP/t.txt" || fail "explain text lacks array:int"
echo "ok"
