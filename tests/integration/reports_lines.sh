#!/usr/bin/env bash
# reports_lines.sh - the student report's lines (psf-score --report
# --sources, get_score.sh --sources): each line of the submission's source
# with its share, lines by number without sources, and the lines where two
# runs differ most; read through headless Chromium.
# Numbers derived by hand: Loops.sum(n) runs line 4 twice, line 5 5n+5
# times, line 6 4n times, line 7 twice (9n+9 in all, agent_counts.sh);
# with the built-in table (every bytecode costs 1) and n = 10 the score is
# 99 and the shares 2/99 = 2.0%, 55/99 = 55.6%, 40/99 = 40.4%, 2/99 = 2.0%;
# against n = 20 (line 5: 105, line 6: 80) line 5 differs by 50, line 6 by 40.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
SCORE=$PSF_BUILD/psf-score
FX=$PSF_BUILD/fixtures/agent
SRC=$TEST_TMP/src
mkdir -p "$SRC"
cp "$PSF_ROOT/tests/fixtures/agent/Loops.java" "$SRC/"

run_agent "$TEST_TMP/p10.xml" Loops.sum "$FX" Loops 10
run_agent "$TEST_TMP/p20.xml" Loops.sum "$FX" Loops 20
page=$TEST_TMP/lines.html
"$SCORE" --report "$page" --sources "$SRC" --label loops --compare "$TEST_TMP/p20.xml" "$TEST_TMP/p10.xml" >/dev/null
"$SCORE" --report "$TEST_TMP/nosrc.html" --label loops "$TEST_TMP/p10.xml" >/dev/null
no_external_refs "the report with sources references nothing outside itself" "$page"
rc=0
"$SCORE" --sources "$SRC" "$TEST_TMP/p10.xml" >/dev/null 2>&1 || rc=$?
expect_eq "--sources without --report: usage" "$rc" 2

# get_score.sh passes --sources to the report
"$PSF_ROOT/scripts/get_score.sh" --classpath "$FX" --method Loops.sum --costs "$PSF_ROOT/config/costs-uncalibrated.xml" \
  --report "$TEST_TMP/gs.html" --sources "$SRC" -- 10 >/dev/null 2>"$TEST_TMP/gs.err" || fail "get_score.sh --sources" "$(tail -2 "$TEST_TMP/gs.err")"
expect_eq "get_score.sh --sources: the file is shown" "$(grep -c '<table class="src" data-file="Loops.java">' "$TEST_TMP/gs.html")" 1
rc=0
"$PSF_ROOT/scripts/get_score.sh" --classpath "$FX" --method Loops.sum --sources "$SRC" -- 10 >/dev/null 2>&1 || rc=$?
expect_eq "get_score.sh --sources without --report: usage" "$rc" 2

if ! browser_available; then
  echo "chromium not installed: the browser checks are skipped"
  finish
  exit 77
fi
dom=$TEST_TMP/dom.html
browser_dom "$page" "$dom" || fail "chromium dump-dom" "$(tail -3 "$TEST_TMP/chromium.err")"
T="//table[@data-file='Loops.java']"
row() { html_xpath "$dom" "normalize-space(concat($T//tr[@data-line='$1']/td[1], ' ', $T//tr[@data-line='$1']/td[2], ' ', $T//tr[@data-line='$1']/td[4]))"; }
expect_eq "the whole file is shown" "$(html_xpath "$dom" "count($T//tr)")" "$(wc -l <"$SRC/Loops.java")"
expect_eq "line 4: its share and code" "$(row 4)" "4 2.0% int s = 0;"
expect_eq "line 5: its share and code" "$(row 5)" "5 55.6% for (int i = 0; i < n; i++)"
expect_eq "line 6: its share and code" "$(row 6)" "6 40.4% s += i;"
expect_eq "line 7: its share and code" "$(row 7)" "7 2.0% return s;"
expect_eq "main's lines did not run" "$(row 11)" "11 System.out.println(sum(Integer.parseInt(args[0])));"
expect_eq "lines that ran are marked" "$(html_xpath "$dom" "count($T//tr[@class='hot'])")" 4
expect_eq "the file's share (99 of 99)" "$(html_xpath "$dom" 'normalize-space(//h3[1])')" "Loops.java — 100.0% of the score"
D="//table[@id='line-differences']/tbody"
expect_eq "differs most: line 5, 50 fewer" \
  "$(html_xpath "$dom" "normalize-space(concat($D/tr[1]/td[1], ' | ', $D/tr[1]/td[2], ' | ', $D/tr[1]/td[3], ' ', $D/tr[1]/td[4], ' ', $D/tr[1]/td[5]))")" \
  "Loops.sum(int), line 5 | for (int i = 0; i < n; i++) | 55 105 −50"
expect_eq "then line 6, 40 fewer" "$(html_xpath "$dom" "normalize-space(concat($D/tr[2]/td[1], ' ', $D/tr[2]/td[5]))")" \
  "Loops.sum(int), line 6 −40"
browser_shot "$page" "$ARTIFACTS/report-lines.png" 1000,1400 || fail "screenshot" "$(tail -3 "$TEST_TMP/chromium.out")"
expect_eq "screenshot is a PNG" "$(head -c 8 "$ARTIFACTS/report-lines.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a

browser_dom "$TEST_TMP/nosrc.html" "$dom" || fail "chromium dump-dom (no sources)"
expect_eq "without sources: lines by number, costliest first" "$(html_column "$dom" lines-by-number 1 | tr '\n' '|')" \
  "Loops.sum(int), line 5|Loops.sum(int), line 6|Loops.sum(int), line 4|Loops.sum(int), line 7|"
expect_eq "without sources: their shares" "$(html_column "$dom" lines-by-number 3 | tr '\n' ' ')" "55.6% 40.4% 2.0% 2.0% "
finish
