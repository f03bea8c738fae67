#!/usr/bin/env bash
# reports_leaderboard.sh - psf-score --rank --format html: one page with the
# ranks in order (ties shared, approximate scores marked), labels escaped
# and linked to their reports, failed submissions with their status in
# words, and the cost table and machine; nothing referenced from outside.
# Opened in headless Chromium, which shows what a person sees.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
SCORE=$PSF_BUILD/psf-score
F=$PSF_ROOT/tests/fixtures/scorer

# A cheaper submission: 10 fewer nops than basic.profile.xml, 435 cycles
# (436 - 10 x 0.1; tests/fixtures/scorer/README.md derives the 436).
sed -e 's/<summary invocations="2" work="100"/<summary invocations="2" work="90"/' \
    -e 's/<invocation index="2" thread="worker &quot;1&quot;" work="40"/<invocation index="2" thread="worker \&quot;1\&quot;" work="30"/' \
    -e 's/<opcode name="nop" count="30"\/>/<opcode name="nop" count="20"\/>/' \
    -e 's/<method name="demo.Sum.helper(I)I" work="30"/<method name="demo.Sum.helper(I)I" work="20"/' \
    -e 's/<opcode name="nop" work="20" overhead="0"\/>/<opcode name="nop" work="10" overhead="0"\/>/' \
    "$F/basic.profile.xml" >"$TEST_TMP/cheap.xml"
expect_eq "cheap fixture scores 435" "$("$SCORE" --costs "$F/known.costs.xml" --score-only "$TEST_TMP/cheap.xml")" 435

page=$TEST_TMP/leaderboard.html
rc=0
"$SCORE" --rank --format html --costs "$F/known.costs.xml" --report-links reports/ \
  "zoe=$F/basic.profile.xml" "<script>alert(1)</script>=$F/basic.profile.xml" "amy=$TEST_TMP/cheap.xml" \
  "carl=$F/not_invoked.profile.xml" --failed "dan=timeout:the program ran longer than 60 s (--timeout)" \
  >"$page" || rc=$?
expect_eq "html leaderboard exit code" "$rc" 0
no_external_refs "leaderboard references nothing outside itself" "$page"
expect_eq "labels are escaped" "$(grep -c '<script>' "$page" || true)" 0
expect_match "a label's link is one encoded path segment" "$(grep -o 'href="[^"]*"' "$page" | tr '\n' ' ')" \
  'href="reports/amy.html" href="reports/%3Cscript%3Ealert%281%29%3C%2Fscript%3E.html" href="reports/zoe.html"'
expect_match "the cost table is named with its hash" "$(cat "$page")" \
  "known.costs.xml</code> \(calibrated, unit cycles, SHA-256 <code>$(sha256sum "$F/known.costs.xml" | cut -c1-64)"
expect_match "the machine is named" "$(cat "$page")" 'Test CPU @ 2.00GHz, 2.000 GHz, JDK 17.0.15'

# An uncalibrated table: every score approximate, marked, no predicted time.
"$SCORE" --rank --format html --costs "$PSF_ROOT/config/costs-uncalibrated.xml" "a=$F/basic.profile.xml" >"$TEST_TMP/approx.html"
expect_match "approximate score marked" "$(grep -o '<td class="num score approx"[^<]*<' "$TEST_TMP/approx.html")" '>~[0-9]+<'
expect_eq "approximate legend" "$(grep -c 'id="approx-legend"' "$TEST_TMP/approx.html")" 1

if ! browser_available; then
  echo "chromium not installed: the browser checks are skipped"
  finish
  exit 77
fi
browser_dom "$page" "$TEST_TMP/dom.html" || fail "chromium dump-dom" "$(tail -3 "$TEST_TMP/chromium.err")"
ranks=$(html_column "$TEST_TMP/dom.html" ranking 1 | tr '\n' ' ')
labels=$(html_column "$TEST_TMP/dom.html" ranking 2 | tr '\n' '|')
scores=$(html_column "$TEST_TMP/dom.html" ranking 3 | tr '\n' ' ')
expect_eq "ranks in order, the tie shared" "$ranks" "1 2(tie) 2(tie) "
expect_eq "labels in rank order, as text" "$labels" "amy|<script>alert(1)</script>|zoe|"
expect_eq "scores in rank order" "$scores" "435 436 436 "
expect_eq "ties marked" "$(html_xpath "$TEST_TMP/dom.html" 'count(//table[@id="ranking"]//span[@class="tie"])')" 2
expect_eq "predicted time of the winner" \
  "$(html_xpath "$TEST_TMP/dom.html" '//table[@id="ranking"]/tbody/tr[1]/td[4]/text()')" "218 ns"
failed=$(html_column "$TEST_TMP/dom.html" failed 1 | tr '\n' ' ')
expect_eq "failures listed after the ranks" "$failed" "carl dan "
expect_match "a failure's status in words" \
  "$(html_xpath "$TEST_TMP/dom.html" 'string(//table[@id="failed"]/tbody/tr[2]/td[3])')" \
  '^the run took longer than --timeout: the program ran longer than 60 s'
expect_eq "no script ran (none was given)" "$(grep -c 'alert(1)</script>' "$TEST_TMP/dom.html" || true)" 0
browser_shot "$page" "$ARTIFACTS/leaderboard-fixture.png" 1000,800 || fail "screenshot" "$(tail -3 "$TEST_TMP/chromium.out")"
expect_eq "screenshot is a PNG" "$(head -c 8 "$ARTIFACTS/leaderboard-fixture.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
finish
