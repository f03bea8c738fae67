#!/usr/bin/env bash
# reports_report.sh - the student report (psf-score --report, get_score.sh
# --report): score, predicted time, the costly methods with their shares,
# the work in plain words, the differences to a reference, and a failure
# in words; one self-contained page, read through headless Chromium.
# Numbers derived by hand from tests/fixtures/scorer (README.md there):
# demo.Sum.run's own bytecodes cost 40 + 8 + 30 + 50 + 15 + 80 + 1 + 1 =
# 225 of 436 cycles (51.6%), helper's 15 + 2 = 17 (3.9%), iadd's 30 x 1.5
# = 45 (10.3%) are all the arithmetic.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
SCORE=$PSF_BUILD/psf-score
F=$PSF_ROOT/tests/fixtures/scorer

# The cheap copy: 10 fewer nops in helper (16 cycles there, 435 in all).
sed -e 's/<summary invocations="2" work="100"/<summary invocations="2" work="90"/' \
    -e 's/<invocation index="2" thread="worker &quot;1&quot;" work="40"/<invocation index="2" thread="worker \&quot;1\&quot;" work="30"/' \
    -e 's/<opcode name="nop" count="30"\/>/<opcode name="nop" count="20"\/>/' \
    -e 's/<method name="demo.Sum.helper(I)I" work="30"/<method name="demo.Sum.helper(I)I" work="20"/' \
    -e 's/<opcode name="nop" work="20" overhead="0"\/>/<opcode name="nop" work="10" overhead="0"\/>/' \
    "$F/basic.profile.xml" >"$TEST_TMP/cheap.xml"

page=$TEST_TMP/report.html
"$SCORE" --costs "$F/known.costs.xml" --report "$page" --label "zoe <z>" --compare "$TEST_TMP/cheap.xml" \
  "$F/basic.profile.xml" >"$TEST_TMP/stdout.txt"
expect_eq "the text summary still goes to stdout" "$(sed -n 's/^score *//p' "$TEST_TMP/stdout.txt" | cut -d' ' -f1)" 436
no_external_refs "report references nothing outside itself" "$page"
expect_eq "the label is escaped" "$(grep -c 'zoe <z>' "$page" || true)" 0

# a failed run gets its report and still exits with its status's code
# (docs/grading-server.md: not_invoked 5, timeout 14)
rc=0
"$SCORE" --costs "$F/known.costs.xml" --report "$TEST_TMP/failed.html" --label carl "$F/not_invoked.profile.xml" \
  >/dev/null 2>&1 || rc=$?
expect_eq "a report of a run never invoked: exit 5 (not_invoked)" "$rc" 5
rc=0
"$SCORE" --status-json timeout "the program ran longer than 60 s" --report "$TEST_TMP/timeout.html" \
  --method Foo.bar >/dev/null || rc=$?
expect_eq "a report of a run with no profile: exit 14 (timeout)" "$rc" 14
expect_match "a run with no profile gets a report" "$(cat "$TEST_TMP/timeout.html")" 'Not scored: timeout</strong> &mdash; the run took longer than --timeout'

if ! browser_available; then
  echo "chromium not installed: the browser checks are skipped"
  finish
  exit 77
fi
dom=$TEST_TMP/dom.html
browser_dom "$page" "$dom" || fail "chromium dump-dom" "$(tail -3 "$TEST_TMP/chromium.err")"
expect_eq "title" "$(html_xpath "$dom" 'string(//h1)')" "Performance report: zoe <z>"
expect_eq "method in Java's words" "$(html_xpath "$dom" 'string(//code[@id="method"])')" "demo.Sum.run(int[])"
expect_eq "score card" "$(html_xpath "$dom" 'string(//div[@id="score"]/div[@class="big"])')" 436
expect_eq "predicted time card (436 cycles at 2 GHz)" "$(html_xpath "$dom" 'string(//div[@id="time"]/div[@class="big"])')" "218 ns"
expect_eq "ratio to the reference (436 / 435)" "$(html_xpath "$dom" 'string(//div[@id="ratio"]/div[@class="big"])')" "1.00 x"
expect_eq "methods by cost" "$(html_column "$dom" methods 1 | tr '\n' '|')" "demo.Sum.run(int[])|demo.Sum.helper(int)|demo.Sum.<clinit>()|"
expect_eq "method shares" "$(html_column "$dom" methods 2 | tr '\n' ' ')" "51.6% 3.9% 0.0% "
arith=$(for i in $(seq "$(html_xpath "$dom" 'count(//table[@id="groups"]/tbody/tr)')"); do
  row="//table[@id='groups']/tbody/tr[$i]"
  case $(html_xpath "$dom" "string($row/td[1])") in arithmetic*) html_xpath "$dom" "concat($row/td[2], ' ', $row/td[4])" ;; esac
done)
expect_eq "arithmetic in plain words: share and cycles" "$arith" "10.3% 45"
expect_eq "the largest difference is helper's 1 cycle" \
  "$(html_xpath "$dom" 'concat(//table[@id="differences"]/tbody/tr[1]/td[1], " ", //table[@id="differences"]/tbody/tr[1]/td[4])')" \
  "demo.Sum.helper(int) +1"
browser_shot "$page" "$ARTIFACTS/report-fixture.png" 1000,1200 || fail "screenshot" "$(tail -3 "$TEST_TMP/chromium.out")"
expect_eq "screenshot is a PNG" "$(head -c 8 "$ARTIFACTS/report-fixture.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a

browser_dom "$TEST_TMP/failed.html" "$dom" || fail "chromium dump-dom (failed)"
expect_match "a failure in words" "$(html_xpath "$dom" 'string(//div[@id="status"])')" \
  '^Not scored: not_invoked — the method exists but was never called\.demo\.Sum\.run\(\[I\)J was never invoked'
finish
