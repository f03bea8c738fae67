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

expect_match "the machine is the table's" "$(cat "$page")" '<dt>Machine of the table</dt><dd>Test CPU @ 2.00GHz'
"$SCORE" --rank --format html --tsc-hz 2000000000 --costs "$F/known.costs.xml" "a=$F/basic.profile.xml" \
  >"$TEST_TMP/unnamed.html"
expect_match "a table that does not name its CPU: a warning" \
  "$(grep 'id="machine-warning"' "$TEST_TMP/unnamed.html")" \
  'does not say which CPU calibrated it \(cpu vendor: the table does not record it; cpu family: the table'

# The table's machine against the one that makes the page, whatever this
# machine is: a copy of the table with a CPU no machine reports, and one
# with this machine's CPU (from /proc/cpuinfo) and a TSC rate given as
# --tsc-hz, so that nothing measured decides.
cpu_field() { awk -F': ' -v k="$1" '$1 ~ "^"k"[ \t]*$" { print $2; exit }' /proc/cpuinfo; }
with_cpu() { # VENDOR FAMILY MODEL STEPPING OUT
  sed "s|tsc_hz=\"2000000000\"|tsc_hz=\"2000000000\" cpu_vendor=\"$1\" cpu_family=\"$2\" cpu_model_number=\"$3\" cpu_stepping=\"$4\"|" \
    "$F/known.costs.xml" >"$5"
}
with_cpu NoSuchVendorPSF 4095 4095 15 "$TEST_TMP/other.costs.xml"
"$SCORE" --rank --format html --tsc-hz 2000000000 --costs "$TEST_TMP/other.costs.xml" "a=$F/basic.profile.xml" \
  >"$TEST_TMP/other.html"
expect_match "another machine's table: a warning above the ranks" \
  "$(sed -n '/id="machine-warning"/,/id="ranking"/p' "$TEST_TMP/other.html" | head -1)" \
  'calibrated on another machine than the one that made this page \(cpu vendor NoSuchVendorPSF in the table, '
expect_match "the warning says the ranks hold and how to calibrate" "$(grep 'id="machine-warning"' "$TEST_TMP/other.html")" \
  'approximate here. The ranks are not affected.*scripts/calibrate_machine.sh'
expect_match "this machine is named as not the table's" "$(grep 'id="machine-here"' "$TEST_TMP/other.html")" \
  'not the table&#39;s machine|not the table.s machine'
if [ -n "$(cpu_field vendor_id)" ] && [ -n "$(cpu_field 'cpu family')" ] && [ -n "$(cpu_field model)" ] &&
   [ -n "$(cpu_field stepping)" ]; then
  with_cpu "$(cpu_field vendor_id)" "$(cpu_field 'cpu family')" "$(cpu_field model)" "$(cpu_field stepping)" \
    "$TEST_TMP/here.costs.xml"
  "$SCORE" --rank --format html --tsc-hz 2000000000 --costs "$TEST_TMP/here.costs.xml" "a=$F/basic.profile.xml" \
    >"$TEST_TMP/here.html"
  expect_eq "this machine's table: no warning" "$(grep -c 'machine-warning' "$TEST_TMP/here.html" || true)" 0
  expect_match "this machine is named as the table's" "$(grep 'id="machine-here"' "$TEST_TMP/here.html")" \
    "$(cpu_field vendor_id), family $(cpu_field 'cpu family'), model $(cpu_field model)\).*the table.* machine<"
  # one field off is enough: the stepping
  with_cpu "$(cpu_field vendor_id)" "$(cpu_field 'cpu family')" "$(cpu_field model)" "$(( $(cpu_field stepping) + 1 ))" \
    "$TEST_TMP/stepping.costs.xml"
  "$SCORE" --rank --format html --tsc-hz 2000000000 --costs "$TEST_TMP/stepping.costs.xml" "a=$F/basic.profile.xml" \
    >"$TEST_TMP/stepping.html"
  expect_match "another stepping: a warning naming it alone" "$(grep 'id="machine-warning"' "$TEST_TMP/stepping.html")" \
    "another machine than the one that made this page \(cpu stepping $(( $(cpu_field stepping) + 1 )) in the table, $(cpu_field stepping) here\)"
elif [ "${CI:-}" = true ]; then
  fail "/proc/cpuinfo names the vendor, family, model and stepping under CI (needed for the matching-machine checks)"
else
  echo "/proc/cpuinfo names no vendor, family, model and stepping: the matching-machine checks are skipped"
fi
expect_eq "--tsc-hz is refused for a text ranking" \
  "$("$SCORE" --rank --tsc-hz 2000000000 --costs "$F/known.costs.xml" "a=$F/basic.profile.xml" >/dev/null 2>&1; echo $?)" 2

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
