#!/bin/sh
# scorer_missing.sh - a count without a price is charged the default and
# makes the score approximate, and the key is listed.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
command -v jq >/dev/null 2>&1 || { echo "jq not installed"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }

# Delete iadd (30 executions at 1.5): it is charged the default 7 instead,
# 436 - 45 + 210 = 601, marked '~'.
grep -v '<opcode name="iadd"' $F/known.costs.xml >"$TMP/no-iadd.xml"
cp "$TMP/no-iadd.xml" "$TMP/before.xml"
expect "score-only" "$("$SCORE" --costs "$TMP/no-iadd.xml" --score-only $F/basic.profile.xml)" "~601"
"$SCORE" --costs "$TMP/no-iadd.xml" --json $F/basic.profile.xml >"$TMP/a.json"
expect "json score" "$(jq -r .score "$TMP/a.json")" 601
expect "json approximate" "$(jq -r .approximate "$TMP/a.json")" true
expect "json missing" "$(jq -c .missing "$TMP/a.json")" '["opcode:iadd"]'
expect "json uncalibrated" "$(jq -r .uncalibrated_table "$TMP/a.json")" false
"$SCORE" --costs "$TMP/no-iadd.xml" $F/basic.profile.xml >"$TMP/t.txt"
grep -q '^score     ~601 cycles$' "$TMP/t.txt" || fail "text: $(cat "$TMP/t.txt")"
grep -q '^            opcode:iadd$' "$TMP/t.txt" || fail "text does not list opcode:iadd"
# Scoring never rewrites the table.
cmp -s "$TMP/no-iadd.xml" "$TMP/before.xml" || fail "the table changed"

# A native call the table does not price is missing; a plain call is not.
grep -v 'java.lang.Math.sin' $F/known.costs.xml >"$TMP/no-sin.xml"
"$SCORE" --costs "$TMP/no-sin.xml" --json $F/basic.profile.xml >"$TMP/a.json"
expect "native missing" "$(jq -c .missing "$TMP/a.json")" '["invoke:java.lang.Math.sin(D)D"]'
expect "native default" "$(jq -r .score "$TMP/a.json")" $((436 - 60 + 14))

# A primitive array type with no entry is missing even with a "reference" entry.
grep -v '<array elem="int"' $F/known.costs.xml >"$TMP/no-int.xml"
"$SCORE" --costs "$TMP/no-int.xml" --json $F/basic.profile.xml >"$TMP/a.json"
expect "array missing" "$(jq -c .missing "$TMP/a.json")" '["array:int"]'
expect "array default" "$(jq -r .score "$TMP/a.json")" $((436 - 82 + 4 * 7))

# An uncalibrated table: approximate, with no key listed for that reason.
"$SCORE" --costs config/costs-uncalibrated.xml --json $F/basic.profile.xml >"$TMP/a.json"
expect "shipped approximate" "$(jq -r .approximate "$TMP/a.json")" true
expect "shipped uncalibrated" "$(jq -r .uncalibrated_table "$TMP/a.json")" true
expect "shipped missing" "$(jq -c .missing "$TMP/a.json")" '["invoke:java.lang.Math.sin(D)D"]'
expect "shipped score" "$(jq -r .score "$TMP/a.json")" 102
echo "ok"
