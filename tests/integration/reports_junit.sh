#!/usr/bin/env bash
# reports_junit.sh - JUnit XML reports (psf-score --junit, get_score.sh
# --junit): one test case per scored method, passed when scored within the
# budget, failed otherwise with score, budget and status in the message;
# every file valid against tests/fixtures/junit/junit.xsd (the common JUnit
# schema's structure). Budget edges derived by hand from the fixtures.
set -eu
. "$(dirname "$0")/lib.sh"
SCORE=$PSF_BUILD/psf-score
F=$PSF_ROOT/tests/fixtures/scorer
XSD=$PSF_ROOT/tests/fixtures/junit/junit.xsd
J=$TEST_TMP/junit.xml

valid() {
  if xmllint --noout --schema "$XSD" "$2" 2>"$TEST_TMP/xsd.err"; then pass "$1"; else fail "$1" "$(head -3 "$TEST_TMP/xsd.err")"; fi
}
failures() { xpath "$1" '/testsuites/testsuite/@failures'; }
message() { xpath "$1" '/testsuites/testsuite/testcase/failure/@message'; }

# basic.profile.xml costs 436 cycles with known.costs.xml; the cheap copy 435.
sed -e 's/<summary invocations="2" work="100"/<summary invocations="2" work="90"/' \
    -e 's/<invocation index="2" thread="worker &quot;1&quot;" work="40"/<invocation index="2" thread="worker \&quot;1\&quot;" work="30"/' \
    -e 's/<opcode name="nop" count="30"\/>/<opcode name="nop" count="20"\/>/' \
    -e 's/<method name="demo.Sum.helper(I)I" work="30"/<method name="demo.Sum.helper(I)I" work="20"/' \
    -e 's/<opcode name="nop" work="20" overhead="0"\/>/<opcode name="nop" work="10" overhead="0"\/>/' \
    "$F/basic.profile.xml" >"$TEST_TMP/cheap.xml"

run() { "$SCORE" --costs "$F/known.costs.xml" --junit "$J" "$@" >/dev/null 2>"$TEST_TMP/err"; }

run --max-score 436 --label "amy & <co>" "$F/basic.profile.xml"
valid "score = budget: valid" "$J"
expect_eq "score = budget passes" "$(failures "$J")" 0
expect_eq "test case named by the method" "$(xpath "$J" '//testcase/@name')" 'demo.Sum.run([I)J'
expect_eq "the label names the suite" "$(xpath "$J" '/testsuites/testsuite/@name')" 'amy & <co>'
expect_eq "the score is a property" "$(xpath "$J" '//property[@name="score"]/@value')" 436

run --max-score 435 "$F/basic.profile.xml"
valid "over budget: valid" "$J"
expect_eq "one over the budget fails" "$(failures "$J")" 1
expect_eq "over budget: the message says score and budget" "$(message "$J")" \
  "over budget: score 436 cycles, budget 435 cycles (--max-score); status ok; output not judged in this run"

# 435 / 436 = 0.99770642...: 0.997707 x 436 = 435.000252 >= 435 passes,
# 0.997706 x 436 = 434.999816 < 435 fails.
run --max-ratio 0.997707 --compare "$F/basic.profile.xml" "$TEST_TMP/cheap.xml"
expect_eq "ratio just above passes" "$(failures "$J")" 0
run --max-ratio 0.997706 --compare "$F/basic.profile.xml" "$TEST_TMP/cheap.xml"
expect_eq "ratio just below fails" "$(failures "$J")" 1
expect_eq "ratio message" "$(message "$J")" \
  "over budget: score 435 cycles, budget 0.997706 x the reference's 436 cycles (--max-ratio); this submission is 0.997706 x the reference; status ok; output not judged in this run"
valid "ratio: valid" "$J"

rc=0
run --max-score 1000 "$F/not_invoked.profile.xml" || rc=$?
expect_eq "not scored keeps its exit code" "$rc" 5
expect_eq "not scored fails" "$(failures "$J")" 1
expect_eq "not scored: type is the status" "$(xpath "$J" '//failure/@type')" not_invoked
expect_match "not scored: status in words" "$(message "$J")" '^not scored: not_invoked \(the method exists but was never called\)'
valid "not scored: valid" "$J"

rc=0
"$SCORE" --status-json crashed "$(printf 'the JVM crashed \001 (exit code 134)')" --junit "$J" --method Foo.bar >/dev/null || rc=$?
expect_eq "status-json keeps its exit code" "$rc" 16
expect_eq "a run with no profile is named by --method" "$(xpath "$J" '//testcase/@name')" Foo.bar
valid "control characters are made valid XML" "$J"

rc=0
"$SCORE" --junit "$J" --max-ratio 2 "$F/basic.profile.xml" 2>/dev/null || rc=$?
expect_eq "--max-ratio without --compare is a usage error" "$rc" 2

# get_score.sh writes the report for a real run, and for one that fails.
if ! command -v "$JAVA" >/dev/null 2>&1; then finish; exit 77; fi
mkdir -p "$TEST_TMP/ex"
javac -d "$TEST_TMP/ex" "$PSF_ROOT/examples/Sorting.java"
rc=0
"$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --method Sorting.insertionSort --costs none \
  --sandbox off --profile-out "$TEST_TMP/ref.xml" --junit "$J" --max-score 1 --label ref -- 40 \
  >/dev/null 2>&1 || rc=$?
expect_eq "get_score.sh: scored" "$rc" 0
bytecodes=$(xpath "$TEST_TMP/ref.xml" '/psf-profile/summary/@work')
expect_eq "get_score.sh: the budget of 1 bytecode fails" "$(failures "$J")" 1
expect_eq "get_score.sh: message" "$(message "$J")" \
  "over budget: score $bytecodes bytecodes, budget 1 bytecodes (--max-score); status ok; output not judged in this run"
valid "get_score.sh: valid" "$J"
"$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --method Sorting.insertionSort --costs none \
  --sandbox off --junit "$J" --max-ratio 1 --compare "$TEST_TMP/ref.xml" --report "$TEST_TMP/r.html" -- 40 \
  >/dev/null 2>&1 || rc=$?
expect_eq "get_score.sh: the same run is within 1 x itself" "$(failures "$J")" 0
# A costlier run (41 numbers to sort, not 40) against that reference: at the
# least ratio its score is within (ceil(C x 10^6 / R) millionths, where R and
# C are the two runs' bytecodes) it passes; one millionth less fails, and so
# would every ratio if get_score.sh or psf-score ignored --max-ratio.
"$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --method Sorting.insertionSort --costs none \
  --sandbox off --profile-out "$TEST_TMP/big.xml" -- 41 >/dev/null 2>&1 || true
costlier=$(xpath "$TEST_TMP/big.xml" '/psf-profile/summary/@work')
expect_eq "get_score.sh: 41 numbers cost more than 40" "$([ "${costlier:-0}" -gt "$bytecodes" ] && echo more || echo "$costlier <= $bytecodes")" more
micro=$(((costlier * 1000000 + bytecodes - 1) / bytecodes))
half=$(((costlier * 2000000 + bytecodes) / (2 * bytecodes)))  # C / R rounded half up, as the message says it
for m in "$micro" "$((micro - 1))"; do
  ratio=$(printf '%d.%06d' $((m / 1000000)) $((m % 1000000)))
  rc=0
  "$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --method Sorting.insertionSort --costs none \
    --sandbox off --junit "$J" --max-ratio "$ratio" --compare "$TEST_TMP/ref.xml" -- 41 >/dev/null 2>&1 || rc=$?
  expect_eq "get_score.sh --max-ratio $ratio: scored" "$rc" 0
  if [ "$m" = "$micro" ]; then
    expect_eq "get_score.sh: $costlier bytecodes just within $ratio x $bytecodes pass" "$(failures "$J")" 0
  else
    expect_eq "get_score.sh: $costlier bytecodes just past $ratio x $bytecodes fail" "$(failures "$J")" 1
    expect_eq "get_score.sh: the ratio's message" "$(message "$J")" \
      "over budget: score $costlier bytecodes, budget $ratio x the reference's $bytecodes bytecodes (--max-ratio); this submission is $(printf '%d.%06d' $((half / 1000000)) $((half % 1000000))) x the reference; status ok; output not judged in this run"
  fi
  valid "get_score.sh --max-ratio $ratio: valid" "$J"
done
# A --compare file that is no scored profile is refused before the program
# runs (no program output is written), as bad_input with the reason, with
# the cost table or without one; the JUnit report says so.
printf 'not a profile\n' >"$TEST_TMP/notprofile.xml"
for ref in notprofile "$F/agent_error.profile.xml"; do
  [ "$ref" = notprofile ] && ref=$TEST_TMP/notprofile.xml
  for costs in none "$PSF_ROOT/config/costs.xml"; do
    rc=0
    rm -f "$TEST_TMP/program.out" "$J"
    "$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --method Sorting.insertionSort --costs "$costs" \
      --sandbox off --json --junit "$J" --max-ratio 2 --compare "$ref" --program-output "$TEST_TMP/program.out" \
      -- 40 >"$TEST_TMP/out.json" 2>/dev/null || rc=$?
    what="--compare ${ref##*/}, --costs ${costs##*/}"
    expect_eq "get_score.sh $what: bad_input" "$rc" 7
    expect_eq "get_score.sh $what: refused before the program ran" "$([ -e "$TEST_TMP/program.out" ] && echo ran || echo "not run")" "not run"
    expect_match "get_score.sh $what: says which file" "$(jq -r .message "$TEST_TMP/out.json")" \
      "^the --compare profile is not usable: (--compare )?$ref"
    expect_eq "get_score.sh $what: the JUnit report's failure" "$(xpath "$J" '//failure/@type')" bad_input
  done
done
rc=0
"$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --method Sorting.insertionSort --sandbox off \
  --report "$TEST_TMP/r2.html" --compare "$TEST_TMP/notprofile.xml" --program-output "$TEST_TMP/program.out" -- 40 \
  >/dev/null 2>&1 || rc=$?
expect_eq "get_score.sh --report --compare no profile: bad_input before the run" \
  "$rc $([ -e "$TEST_TMP/program.out" ] && echo ran || echo "not run")" "7 not run"
for ref in "$TEST_TMP/notprofile.xml" "$TEST_TMP/ref.xml"; do
  rc=0
  "$PSF_ROOT/scripts/get_score.sh" --check-options --classpath "$TEST_TMP/ex" --method Sorting.insertionSort \
    --junit "$J" --max-ratio 2 --compare "$ref" >/dev/null 2>"$TEST_TMP/err" || rc=$?
  if [ "$ref" = "$TEST_TMP/ref.xml" ]; then
    expect_eq "get_score.sh --check-options: a reference profile passes" "$rc" 0
  else
    expect_eq "get_score.sh --check-options: --compare no profile is bad_input" "$rc" 7
    expect_match "get_score.sh --check-options: says why" "$(cat "$TEST_TMP/err")" "the --compare profile is not usable: .*malformed XML"
  fi
done
expect_match "get_score.sh --report: the page has the score" "$(cat "$TEST_TMP/r.html")" \
  "<div class=\"card\" id=\"score\"><div class=\"big\">$bytecodes</div>"
rc=0
"$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --main NoSuchClass --costs none \
  --sandbox off --junit "$J" --max-score 10 >/dev/null 2>&1 || rc=$?
expect_eq "get_score.sh: a missing class still gets a report" "$(xpath "$J" '//failure/@type')" class_not_found
expect_eq "get_score.sh: exit code unchanged" "$rc" 3
valid "get_score.sh failure: valid" "$J"
rc=0
"$PSF_ROOT/scripts/get_score.sh" --classpath "$TEST_TMP/ex" --main Sorting --max-score 10 >/dev/null 2>&1 || rc=$?
expect_eq "get_score.sh: a budget without --junit is a usage error" "$rc" 2
finish
