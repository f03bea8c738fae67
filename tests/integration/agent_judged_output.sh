#!/usr/bin/env bash
# agent_judged_output.sh - the output of the run that is scored is judged in
# that run (get_score.sh --expect-output, --ignore-trailing-space, --check):
# a submission that skips its work when it notices it is scored ends as
# wrong_output on both engines, an honest one scores as without judging,
# and whether a result was judged is signed (JSON, kept profile), reported
# (JUnit, student report) and ranked on (psf-score --rank --require-checked).
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
SC=$PSF_BUILD/psf-score
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }

CWD=$TEST_TMP/cwd
mkdir -p "$CWD"
cd "$CWD"
N=300
printf 'n=%s\nSORTED\n' "$N" >"$TEST_TMP/expected"
# sort: JudgedSort.sort on N numbers, judged or not; MODE as the fixture's.
sort_run() {
  local mode=$1
  shift
  "$GS" --classpath "$FX" --main JudgedSort --method JudgedSort.sort --costs none --json "$@" -- "$mode" "$N" \
    2>>"$TEST_TMP/gs.err" >"$TEST_TMP/out" && RC=0 || RC=$?
  OUT=$(cat "$TEST_TMP/out")
}
field() { jq -r "$1" <<<"$OUT"; }

# --- honest: the same score judged or not -------------------------------------------
sort_run honest
expect_eq "honest, not judged: ok" "$RC/$(field .status)" 0/ok
HONEST=$(field .score)
expect_match "honest: a score" "$HONEST" '^[0-9]{5,}$'
expect_eq "honest, not judged: output_checked false, no judge" "$(field '"\(.output_checked) \(.output_judge)"')" "false null"
expect_eq "honest, not judged: the signed field says none" "$(field .submission.judged_by)" none
for engine in fast step; do
  sort_run honest --engine "$engine" --expect-output "$TEST_TMP/expected"
  expect_eq "honest, --expect-output, $engine: ok, the same score" "$RC/$(field .status)/$(field .score)" "0/ok/$HONEST"
  expect_eq "honest, --expect-output, $engine: output_checked" "$(field '"\(.output_checked) \(.output_judge)"')" \
    "true expect_output"
  expect_match "honest, --expect-output, $engine: judged_by signed" "$(field .signature.statement)" ' judged_by=expect_output( |$)'
done

# --- cheats: skip the sort when scored ----------------------------------------------
# Looking for the fast engine's probe class by a name the program can know
# finds nothing, as with no agent: that "cheat" sorts and scores honestly,
# judged or not, on both engines.
for engine in fast step; do
  sort_run probe --engine "$engine"
  expect_eq "probe cheat, not judged, $engine: no probe class found, the honest score" \
    "$RC/$(field .status)/$(field .score)" "0/ok/$HONEST"
  sort_run probe --engine "$engine" --expect-output "$TEST_TMP/expected"
  expect_eq "probe cheat, --expect-output, $engine: SORTED, the honest score" \
    "$RC/$(field .status)/$(field .score)" "0/ok/$HONEST"
done
# The JVM's arguments do name the agent: without judging such a cheat is
# scored from a run that did no work (what the judging is for); judged, it
# ends as wrong_output with no score.
sort_run agent --engine fast --expect-output "$TEST_TMP/expected"
expect_eq "agent-argument cheat, --expect-output, fast: wrong_output, exit 32, no score" \
  "$RC/$(field .status)/$(field .score)" "32/wrong_output/null"
expect_eq "agent-argument cheat: the message names the first differing line" "$(field .message)" \
  "the output is not the expected one (--expect-output): line 2: expected 'SORTED', got 'NOT SORTED'"
expect_eq "agent-argument cheat: output_checked true in the failure" "$(field .output_checked)" true
expect_match "agent-argument cheat: the failure is signed, judged_by too" "$(field .signature.statement)" \
  '^status=wrong_output score=null .* judged_by=expect_output output_verdict=wrong_output$'
for engine in fast step; do
  sort_run agent --engine "$engine"
  if [ "$RC" = 0 ] && [ "$(field .score)" -lt $((HONEST / 10)) ]; then
    pass "agent-argument cheat, not judged, $engine: scored low ($(field .score); the hole)"
  else
    fail "agent-argument cheat, not judged, $engine: did not skip its work" "$RC $(field .score)"
  fi
  sort_run agent --engine "$engine" --expect-output "$TEST_TMP/expected"
  expect_eq "agent-argument cheat, --expect-output, $engine: wrong_output, no score" \
    "$RC/$(field .status)/$(field .score)" "32/wrong_output/null"
done
# --runs: every run's output is judged
sort_run agent --runs 2 --expect-output "$TEST_TMP/expected"
expect_eq "agent-argument cheat, --runs 2: wrong_output" "$RC/$(field .status)" 32/wrong_output
sort_run honest --runs 2 --expect-output "$TEST_TMP/expected"
expect_eq "honest, --runs 2, judged: ok, the same score" "$RC/$(field .status)/$(field .score)" "0/ok/$HONEST"

# --- a fallback: the run scored and judged is the step engine's ----------------------
# hashfast skips its work when the agent's options say engine=fast, but
# reads an identity hash code after starting a thread, so the fast engine
# falls back (docs/fast-engine.md, "Identity hash codes"); the step
# engine's run sorts. Its output is the one judged, and its score reported.
sort_run hashfast --engine step
STEP_HASH=$(field .score)
sort_run hashfast --engine fast --expect-output "$TEST_TMP/expected"
expect_match "hashfast, fast: fell back" "$(field .fallback)" 'identity hash codes'
expect_eq "hashfast, fast, judged: ok with the step engine's score (its output judged)" \
  "$RC/$(field .status)/$(field .score)" "0/ok/$STEP_HASH"

# --- trailing white space --------------------------------------------------------------
sort_run spaced --expect-output "$TEST_TMP/expected"
expect_eq "spaced, byte for byte: wrong_output" "$RC/$(field .status)" 32/wrong_output
expect_eq "spaced, byte for byte: the message shows the white space" "$(field .message)" \
  "the output is not the expected one (--expect-output): line 1: expected 'n=$N', got 'n=$N \\t'"
sort_run spaced --expect-output "$TEST_TMP/expected" --ignore-trailing-space
expect_eq "spaced, --ignore-trailing-space: ok, the honest score" "$RC/$(field .status)/$(field .score)" "0/ok/$HONEST"
sort_run agent --expect-output "$TEST_TMP/expected" --ignore-trailing-space
expect_eq "agent-argument cheat, --ignore-trailing-space: still wrong_output" "$RC/$(field .status)" 32/wrong_output

# --- --check -------------------------------------------------------------------------
# The checker sees a file holding exactly the program's stdout.
cat >"$TEST_TMP/checker.sh" <<EOF
#!/bin/sh
# arguments: a word of the command, then the output's path (last)
[ "\$1" = strict ] || { echo "checker: first argument \$1"; exit 9; }
if cmp -s "$TEST_TMP/expected" "\$2"; then echo "checker: fine"; exit 0; fi
echo "checker: not sorted: \$(tr '\n' '|' <"\$2")"
echo "checker: second line"
exit 3
EOF
chmod +x "$TEST_TMP/checker.sh"
sort_run honest --check "$TEST_TMP/checker.sh strict"
expect_eq "--check, honest: ok, the same score, judged by check" \
  "$RC/$(field .status)/$(field .score)/$(field .output_judge)" "0/ok/$HONEST/check"
for engine in fast step; do
  sort_run agent --engine "$engine" --check "$TEST_TMP/checker.sh strict"
  expect_eq "--check, agent-argument cheat, $engine: wrong_output, no score" "$RC/$(field .status)/$(field .score)" \
    "32/wrong_output/null"
done
expect_eq "--check: the message holds the checker's first line" "$(field .message)" \
  "the checker refused the output (--check, exit code 3): checker: not sorted: n=$N|NOT SORTED|"
sort_run honest --check "sh -c 'exit 127'"
expect_eq "--check, a command that cannot run at the end: usage" "$RC/$(field .status)" 2/usage
expect_match "--check, exit 127: says so" "$(field .message)" 'could not be run \(exit code 127\)'

# --- bad input: clear usage errors, before anything runs -------------------------------
bad() {
  local name=$1 want=$2
  shift 2
  "$GS" --classpath "$FX" --main JudgedSort --method JudgedSort.sort --json "$@" -- honest 3 \
    >"$TEST_TMP/out" 2>/dev/null && RC=0 || RC=$?
  expect_eq "usage: $name" "$RC/$(jq -r .status "$TEST_TMP/out")" 2/usage
  expect_match "usage: $name: the message" "$(jq -r .message "$TEST_TMP/out")" "$want"
}
"$GS" --classpath "$FX" --main JudgedSort --json --expect-output >"$TEST_TMP/out" 2>/dev/null && RC=0 || RC=$?
expect_eq "usage: --expect-output without FILE" "$RC/$(jq -r .message "$TEST_TMP/out")" \
  "2/option --expect-output needs a value (see --help)"
bad "--expect-output, a missing file" "cannot read '$TEST_TMP/nope'" --expect-output "$TEST_TMP/nope"
bad "--expect-output, a directory" 'a readable regular file' --expect-output "$TEST_TMP"
bad "--expect-output and --check" 'not both' --expect-output "$TEST_TMP/expected" --check true
bad "--ignore-trailing-space alone" 'goes with --expect-output' --ignore-trailing-space
bad "--check, a command that does not exist" "cannot run 'no-such-checker-psf'" --check "no-such-checker-psf --x"
bad "--check, empty" 'needs a value' --check ""
expect_eq "bad input: nothing in the working directory" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0

# --- signed: the kept profile and the JSON result say whether it was judged -----------
KEY=$TEST_TMP/key
sort_run honest --key-file "$KEY" --expect-output "$TEST_TMP/expected" --profile-out "$TEST_TMP/judged.xml" \
  --junit "$TEST_TMP/judged-junit.xml" --report "$TEST_TMP/judged.html"
cp "$TEST_TMP/out" "$TEST_TMP/judged.json"
sort_run honest --key-file "$KEY" --profile-out "$TEST_TMP/unjudged.xml" --junit "$TEST_TMP/unjudged-junit.xml" \
  --report "$TEST_TMP/unjudged.html"
cp "$TEST_TMP/out" "$TEST_TMP/unjudged.json"
# a cheat's kept profile: its method ran to the end (status ok), but the
# wrong output is signed with it, so it is never scored or ranked
sort_run agent --key-file "$KEY" --expect-output "$TEST_TMP/expected" --profile-out "$TEST_TMP/cheat.xml"
expect_eq "cheat, kept profile: wrong_output" "$RC/$(field .status)" 32/wrong_output
expect_match "cheat, kept profile: the verdict signed" "$(tail -n 1 "$TEST_TMP/cheat.xml")" \
  ' judged_by=expect_output output_verdict=wrong_output hmac_sha256='
expect_match "cheat, the failure's statement: the verdict signed" "$(field .signature.statement)" ' output_verdict=wrong_output$'
"$SC" --key-file "$KEY" --json "$TEST_TMP/cheat.xml" >"$TEST_TMP/rescored.json" 2>/dev/null && rc=0 || rc=$?
expect_eq "cheat, kept profile scored again: wrong_output, no score" \
  "$rc/$(jq -r '"\(.status)/\(.score)"' "$TEST_TMP/rescored.json")" 32/wrong_output/null
sed '$s/ output_verdict=wrong_output//' "$TEST_TMP/cheat.xml" >"$TEST_TMP/cheat-forged.xml"
"$SC" --key-file "$KEY" --json "$TEST_TMP/cheat-forged.xml" >"$TEST_TMP/rescored.json" 2>/dev/null && rc=0 || rc=$?
expect_eq "cheat, kept profile without its verdict: unverified" "$rc/$(jq -r .status "$TEST_TMP/rescored.json")" 26/unverified
expect_match "kept profile: judged_by signed" "$(tail -n 1 "$TEST_TMP/judged.xml")" ' judged_by=expect_output hmac_sha256='
expect_match "kept unjudged profile: judged_by=none signed" "$(tail -n 1 "$TEST_TMP/unjudged.xml")" ' judged_by=none hmac_sha256='
"$SC" --verify --key-file "$KEY" "$TEST_TMP/judged.xml" "$TEST_TMP/judged.json" "$TEST_TMP/unjudged.json" \
  >/dev/null 2>&1 && rc=0 || rc=$?
expect_eq "verify: the kept results as written" "$rc" 0
# an edited output_checked (or judged_by) does not verify
sed 's/"output_checked": false/"output_checked": true/' "$TEST_TMP/unjudged.json" >"$TEST_TMP/forged.json"
expect_eq "forged JSON: output_checked edited" "$(grep -c '"output_checked": true' "$TEST_TMP/forged.json")" 1
"$SC" --verify --key-file "$KEY" "$TEST_TMP/forged.json" >"$TEST_TMP/v.out" 2>&1 && rc=0 || rc=$?
expect_eq "forged JSON: output_checked edited: unverified (26)" "$rc" 26
expect_match "forged JSON: says why" "$(cat "$TEST_TMP/v.out")" 'output_checked is not the signed one'
sed 's/judged_by=none/judged_by=check/g' "$TEST_TMP/unjudged.json" >"$TEST_TMP/forged2.json"
"$SC" --verify --key-file "$KEY" "$TEST_TMP/forged2.json" >/dev/null 2>&1 && rc=0 || rc=$?
expect_eq "forged JSON: judged_by edited in the statement: unverified" "$rc" 26
sed '$s/judged_by=none/judged_by=expect_output/' "$TEST_TMP/unjudged.xml" >"$TEST_TMP/forged.xml"
expect_match "forged profile: judged_by edited" "$(tail -n 1 "$TEST_TMP/forged.xml")" 'judged_by=expect_output'
"$SC" --verify --key-file "$KEY" "$TEST_TMP/forged.xml" >/dev/null 2>&1 && rc=0 || rc=$?
expect_eq "forged profile: unverified" "$rc" 26
# the JUnit report and the student report say it
expect_eq "junit: output_checked true" \
  "$(xpath "$TEST_TMP/judged-junit.xml" "//property[@name='output_checked']/@value")" true
expect_eq "junit: output_checked false" \
  "$(xpath "$TEST_TMP/unjudged-junit.xml" "//property[@name='output_checked']/@value")" false
expect_match "report: judged" "$(grep -o '<p class="meta" id="judged">[^<]*' "$TEST_TMP/judged.html")" \
  'judged in this run: equal to the expected output'
expect_match "report: not judged" "$(grep -o '<p class="meta" id="judged">[^<]*' "$TEST_TMP/unjudged.html")" \
  'not judged in this run'
# the text result says it too
text=$("$GS" --classpath "$FX" --main JudgedSort --method JudgedSort.sort --costs none \
  --expect-output "$TEST_TMP/expected" -- honest "$N" 2>/dev/null)
expect_match "text: the output line" "$text" $'\noutput    judged in this run: equal to the expected output'

# --- the leaderboard -------------------------------------------------------------------
rank() { "$SC" --rank --key-file "$KEY" "$@" judged="$TEST_TMP/judged.xml" unjudged="$TEST_TMP/unjudged.xml"; }
rank --format json >"$TEST_TMP/rank.json" 2>/dev/null && rc=0 || rc=$?
expect_eq "rank: both ranked" "$rc/$(jq -c '[.entries[] | [.label, .rank, .output_checked]]' "$TEST_TMP/rank.json")" \
  '0/[["judged",1,true],["unjudged",1,false]]'
rank >"$TEST_TMP/rank.txt" 2>/dev/null || true
expect_match "rank text: the unjudged row is marked" "$(grep unjudged "$TEST_TMP/rank.txt")" 'unjudged \[output not judged\]'
rank --require-checked --format json >"$TEST_TMP/rank.json" 2>"$TEST_TMP/rank.err" && rc=0 || rc=$?
expect_eq "rank --require-checked: exit 34 (not_judged)" "$rc" 34
expect_eq "rank --require-checked: only the judged one ranked" \
  "$(jq -c '[.entries[] | [.label, .rank, .status, .score]]' "$TEST_TMP/rank.json")" \
  "[[\"judged\",1,\"ok\",$HONEST],[\"unjudged\",null,\"not_judged\",null]]"
expect_match "rank --require-checked: the reason" "$(jq -r '.entries[1].message' "$TEST_TMP/rank.json")" \
  'its output was not judged in the run that was scored'
expect_match "rank --require-checked: said on stderr" "$(cat "$TEST_TMP/rank.err")" 'unjudged: its output was not judged'
"$SC" --rank --key-file "$KEY" --require-checked --format json judged="$TEST_TMP/judged.xml" cheat="$TEST_TMP/cheat.xml" \
  >"$TEST_TMP/rank.json" 2>/dev/null && rc=0 || rc=$?
expect_eq "rank: the cheat's kept profile listed as wrong_output, not ranked" \
  "$rc/$(jq -c '[.entries[] | [.label, .rank, .status]]' "$TEST_TMP/rank.json")" \
  '0/[["judged",1,"ok"],["cheat",null,"wrong_output"]]'
rank --require-checked >"$TEST_TMP/rank.txt" 2>/dev/null || true
expect_match "rank --require-checked, text: not_judged row" "$(grep unjudged "$TEST_TMP/rank.txt")" '^ +- +not_judged +unjudged'

# --- JDK 25 -----------------------------------------------------------------------------
JDK25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ -x "$JDK25/bin/java" ]; then
  export JAVA_HOME=$JDK25
  sort_run honest --expect-output "$TEST_TMP/expected"
  expect_eq "JDK 25, honest, judged: ok" "$RC/$(field .status)" 0/ok
  H25=$(field .score)
  for engine in fast step; do
    sort_run agent --engine "$engine" --expect-output "$TEST_TMP/expected"
    expect_eq "JDK 25, agent-argument cheat, $engine: wrong_output" "$RC/$(field .status)" 32/wrong_output
  done
  sort_run probe --engine fast
  expect_eq "JDK 25, probe cheat, fast: no probe class found, the honest score" "$RC/$(field .status)/$(field .score)" "0/ok/$H25"
  sort_run honest
  expect_eq "JDK 25, honest, not judged: the same score" "$RC/$(field .score)" "0/$H25"
  unset JAVA_HOME
else
  echo "# JDK 25 not at $JDK25: its runs are not tested here"
fi

finish
