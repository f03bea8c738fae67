#!/bin/sh
# scorer_rank.sh - a leaderboard: ordered by score, ties share a rank,
# approximate scores marked, failed submissions listed after, in text, CSV
# and JSON.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
command -v jq >/dev/null 2>&1 || { echo "jq not installed"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# A cheaper submission: the same profile with 10 fewer nops (and 10 fewer
# bytecodes in helper): 436 - 1 = 435 cycles.
sed -e 's/<summary invocations="2" work="100"/<summary invocations="2" work="90"/' \
    -e 's/<invocation index="2" thread="worker &quot;1&quot;" work="40"/<invocation index="2" thread="worker \&quot;1\&quot;" work="30"/' \
    -e 's/<opcode name="nop" count="30"\/>/<opcode name="nop" count="20"\/>/' \
    -e 's/<method name="demo.Sum.helper(I)I" work="30"/<method name="demo.Sum.helper(I)I" work="20"/' \
    -e 's/<opcode name="nop" work="20" overhead="0"\/>/<opcode name="nop" work="10" overhead="0"\/>/' \
    $F/basic.profile.xml >"$TMP/cheap.xml"
[ "$("$SCORE" --costs $F/known.costs.xml --score-only "$TMP/cheap.xml")" = 435 ] || fail "cheap fixture"

set -- "zoe=$F/basic.profile.xml" "bob, \"the builder\"=$F/basic.profile.xml" \
       "amy=$TMP/cheap.xml" "carl=$F/not_invoked.profile.xml" "dan=$F/incomplete.profile.xml"

"$SCORE" --rank --costs $F/known.costs.xml "$@" >"$TMP/out.txt"
cat >"$TMP/want.txt" <<WANT
rank  score                  label
   1  435                    amy [output not judged]
   2  436                    bob, "the builder" [output not judged] [the same submission as zoe]
   2  436                    zoe [output not judged]
   -  not_invoked            carl: demo.Sum.run([I)J was never invoked
   -  incomplete             dan: the JVM ended during invocation 1 of demo.Sum.run([I)J

unit cycles; costs: $F/known.costs.xml (calibrated)
output not judged: the result's run had no --expect-output, --check or JUnit tests; --require-checked ranks only judged ones
signatures not checked: no key (--key-file or PSF_KEY_FILE; docs/trust-model.md)
WANT
diff -u "$TMP/want.txt" "$TMP/out.txt" || fail "text leaderboard"

"$SCORE" --rank --costs $F/known.costs.xml --format csv "$@" >"$TMP/out.csv"
# (no key: every profile's verification is "unsigned"; see docs/trust-model.md)
printf '%s\r\n' 'rank,label,score,approximate,status,message,verification,duplicate_of,output_checked' \
    '1,amy,435,false,ok,,unsigned,,false' \
    '2,"bob, ""the builder""",436,false,ok,,unsigned,zoe,false' \
    '2,zoe,436,false,ok,,unsigned,,false' \
    ',carl,,false,not_invoked,demo.Sum.run([I)J was never invoked,unsigned,,false' \
    ',dan,,false,incomplete,the JVM ended during invocation 1 of demo.Sum.run([I)J,unsigned,,false' >"$TMP/want.csv"
cmp "$TMP/want.csv" "$TMP/out.csv" || { diff "$TMP/want.csv" "$TMP/out.csv"; fail "csv leaderboard"; }

"$SCORE" --rank --costs $F/known.costs.xml --format json "$@" >"$TMP/out.json"
[ "$(jq -c '[.entries[] | [.rank, .label, .score, .status]]' "$TMP/out.json")" = \
  '[[1,"amy",435,"ok"],[2,"bob, \"the builder\"",436,"ok"],[2,"zoe",436,"ok"],[null,"carl",null,"not_invoked"],[null,"dan",null,"incomplete"]]' ] ||
    fail "json leaderboard: $(jq -c . "$TMP/out.json")"
[ "$(jq -r .unit "$TMP/out.json")" = cycles ] || fail "json unit"

# Approximate scores are marked in every format (the shipped table is not calibrated).
"$SCORE" --rank --costs config/costs-uncalibrated.xml "a=$F/basic.profile.xml" "b=$TMP/cheap.xml" >"$TMP/out.txt"
grep -q '^   1  ~92 ' "$TMP/out.txt" || fail "text ~: $(cat "$TMP/out.txt")"
grep -q '^~ approximate' "$TMP/out.txt" || fail "text ~ legend"
"$SCORE" --rank --costs config/costs-uncalibrated.xml --format csv "a=$F/basic.profile.xml" >"$TMP/out.csv"
grep -q '^1,a,102,true,ok,' "$TMP/out.csv" || fail "csv approximate"
"$SCORE" --rank --costs config/costs-uncalibrated.xml --json "a=$F/basic.profile.xml" >"$TMP/out.json"
[ "$(jq -c '.entries[0] | [.approximate, .missing]' "$TMP/out.json")" = '[true,["invoke:java.lang.Math.sin(D)D"]]' ] || fail "json approximate"

# A profile that cannot be read is listed as bad_input, the rest still ranked, exit 7.
rc=0
"$SCORE" --rank --costs $F/known.costs.xml --format csv "ok=$F/basic.profile.xml" "gone=$F/nope.xml" \
    "v8=$F/version8.profile.xml" >"$TMP/out.csv" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 7 ] || fail "unreadable profile: exit $rc"
grep -q '^1,ok,436,false,ok,' "$TMP/out.csv" || fail "ranked entry missing"
grep -q '^,gone,,false,bad_input,.*nope.xml: cannot open' "$TMP/out.csv" || fail "bad entry: $(cat "$TMP/out.csv")"
grep -q 'v8: .*version8.profile.xml:4: profile format version' "$TMP/err" || fail "stderr: $(cat "$TMP/err")"

# A bad table stops the leaderboard before it starts.
rc=0
"$SCORE" --rank --costs $F/truncated.costs.xml "a=$F/basic.profile.xml" >"$TMP/out" 2>/dev/null || rc=$?
if [ "$rc" -ne 7 ] || [ -s "$TMP/out" ]; then fail "bad table in --rank"; fi
# Usage errors.
rc=0; "$SCORE" --rank "a=$F/basic.profile.xml" "a=$TMP/cheap.xml" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "duplicate label accepted"
rc=0; "$SCORE" --rank "$F/basic.profile.xml" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "missing label accepted"
echo "ok"
