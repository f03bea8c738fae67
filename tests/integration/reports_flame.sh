#!/usr/bin/env bash
# reports_flame.sh - the student report's flame graph of the calling
# contexts, read through headless Chromium: each frame's name, the line
# that called it and its width, against the profile's tree and against
# numbers derived by hand; the library calls by the student's line; and
# the external-reference check on a page whose source has // comments.
# Numbers derived by hand (agent_contexts.sh): Contexts.run(10) runs 285
# bytecodes: run's own 124, down (line 31) 31, fail (line 33) 4, twice
# (line 29) 40 and the leaf calls below it (twice's line 11) 80,
# Math.max (line 30) 6. A frame is as wide as its bytecodes with
# everything below it, in hundred-thousandths of 285, rounded down:
# 31 -> 10.877%, 4 -> 1.403%, 120 -> 42.105%, 80 -> 28.070%, 6 -> 2.105%.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
SCORE=$PSF_BUILD/psf-score
FX=$PSF_BUILD/fixtures/agent
SRC=$TEST_TMP/src
mkdir -p "$SRC"
cp "$PSF_ROOT/tests/fixtures/agent/Contexts.java" "$SRC/"
P=$TEST_TMP/p.xml

run_agent "$P" Contexts.run "$FX" Contexts 10
page=$TEST_TMP/flame.html
"$SCORE" --report "$page" --sources "$SRC" --label ctx "$P" >/dev/null

# The page shows the source, // comments included, and loads nothing.
expect_eq "the page shows the source's // comments" "$(grep -c '// Calling contexts' "$page")" 1
no_external_refs "the report with a // comment references nothing outside itself" "$page"
# ... and the check still finds real references
for ref in '<img src="https://example.org/x.png">' "<a href='//example.org/'>x</a>" \
  '<div style="background:url( http://example.org/x.png)">' '<style>@import "x.css";</style>' \
  '<link rel="stylesheet" href="HTTPS://example.org/s.css">'; do
  printf '%s\n' "$ref" >"$TEST_TMP/ref.html"
  expect_eq "external reference found: $ref" "$(external_refs "$TEST_TMP/ref.html" | wc -l)" 1
done
printf '%s\n' '<td class="code">int x = 1; // see https://example.org/ and //home</td>' '<a href="#flame">x</a>' \
  >"$TEST_TMP/ref.html"
expect_eq "text with // and a local link is no reference" "$(external_refs "$TEST_TMP/ref.html" | wc -l)" 0

# A version-6 profile (no contexts) gets a sentence instead of a graph.
sed -e 's/version="7"/version="6"/' -e '/<contexts/,/<\/contexts>/d' "$P" >"$TEST_TMP/v6.xml"
"$SCORE" --report "$TEST_TMP/v6.html" --label v6 "$TEST_TMP/v6.xml" >/dev/null || fail "report of a version-6 profile"
expect_eq "version 6: no graph, a sentence" "$(grep -c 'id="flame-none"' "$TEST_TMP/v6.html")" 1

# The deep recursion: 40 levels drawn, the other 960 frames said.
run_agent "$TEST_TMP/deep.xml" Contexts.deep "$FX" Contexts 3000 deep
"$SCORE" --report "$TEST_TMP/deep.html" --label deep "$TEST_TMP/deep.xml" >/dev/null

if ! browser_available; then
  echo "chromium not installed: the browser checks are skipped"
  finish
  exit 77
fi
dom=$TEST_TMP/dom.html
browser_dom "$page" "$dom" || fail "chromium dump-dom" "$(tail -3 "$TEST_TMP/chromium.err")"
F="//div[@id='flame']/div[@data-frame]"
shown() { # each drawn frame: its text | left | width
  local n i
  n=$(html_xpath "$dom" "count($F)")
  for ((i = 1; i <= ${n:-0}; i++)); do
    html_xpath "$dom" "concat(normalize-space(($F)[$i]), ' | ', substring-before(substring-after(($F)[$i]/@style, 'left:'), ';'), ' | ', substring-after(($F)[$i]/@style, 'width:'))"
  done
}
expect_eq "the frames a person sees: names, calling lines, widths" "$(shown)" "Contexts.run(int, RuntimeException) | 0.000% | 100.000%
Contexts.down(int) — line 31 | 43.508% | 10.877%
Contexts.fail(int, RuntimeException) — line 33 | 54.385% | 1.403%
Contexts.twice(int) — line 29 | 55.789% | 42.105%
Contexts.leaf(int) — line 11 | 69.824% | 28.070%
java.lang.Math.max(int, int) — line 30 | 97.894% | 2.105%"
expect_eq "callees one row below their caller" \
  "$(html_xpath "$dom" "concat(($F)[1]/@data-depth, ($F)[2]/@data-depth, ($F)[5]/@data-depth, ($F)[6]/@data-depth)")" 0121
expect_eq "the student's code and the library told apart" \
  "$(html_xpath "$dom" "concat(count(${F}[contains(@class,'prog')]), ' ', count(${F}[not(contains(@class,'prog'))]))")" "5 1"
expect_eq "a frame's tooltip says who called it from where" "$(html_xpath "$dom" "string(($F)[6]/@title)")" \
  "java.lang.Math.max(int, int), called from line 30 of Contexts.run(int, RuntimeException): 6 bytecodes (2.105%), 6 of them its own (library code)"

# Against the profile's tree: every frame of the profile is drawn with its
# bytecodes and everything below it, and its width is that share of the total.
total=$(xpath "$P" /psf-profile/summary/@work)
nf=$(xpath "$P" "count(/psf-profile/contexts/frame)")
declare -A incl
for ((i = nf; i >= 1; i--)); do
  own=$(xpath "$P" "/psf-profile/contexts/frame[@id='$i']/@work")
  other=$(xpath "$P" "/psf-profile/contexts/frame[@id='$i']/@other_work")
  incl[$i]=$((${incl[$i]:-0} + own + other))
  parent=$(xpath "$P" "/psf-profile/contexts/frame[@id='$i']/@parent")
  [ "$parent" = 0 ] || incl[$parent]=$((${incl[$parent]:-0} + ${incl[$i]}))
done
bad=
for ((i = 1; i <= nf; i++)); do
  w=$((incl[$i] * 100000 / total))
  want="${incl[$i]} $((w / 1000)).$(printf '%03d' $((w % 1000)))%"
  got=$(html_xpath "$dom" "concat(${F}[@data-frame='$i']/@data-bytecodes, ' ', substring-after(${F}[@data-frame='$i']/@style, 'width:'))")
  [ "$got" = "$want" ] || bad="$bad frame $i: $got, want $want;"
done
expect_eq "every frame's bytecodes and width agree with the profile's tree" "$bad" ""
expect_eq "library calls: Math.max from run's line 30" \
  "$(html_xpath "$dom" "normalize-space(concat(//table[@id='library-calls']/tbody/tr[1]/td[1], ' | ', //table[@id='library-calls']/tbody/tr[1]/td[2], ' | ', //table[@id='library-calls']/tbody/tr[1]/td[5]))")" \
  "Contexts.run(int, RuntimeException), line 30 | java.lang.Math.max(int, int) | 6"
browser_shot "$page" "$ARTIFACTS/report-flame.png" 1000,1100 || fail "screenshot" "$(tail -3 "$TEST_TMP/chromium.out")"
expect_eq "screenshot is a PNG" "$(head -c 8 "$ARTIFACTS/report-flame.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a

browser_dom "$TEST_TMP/deep.html" "$dom" || fail "chromium dump-dom (deep)"
expect_eq "deep: 40 levels drawn" "$(html_xpath "$dom" "count($F)")" 40
expect_eq "deep: the deepest drawn is level 39" "$(html_xpath "$dom" "string(($F)[40]/@data-depth)")" 39
expect_eq "deep: the others are said" "$(html_xpath "$dom" "normalize-space(//p[@id='flame-hidden'])")" \
  "960 calling contexts narrower than 0.1% or deeper than 40 levels are not drawn."
browser_shot "$TEST_TMP/deep.html" "$ARTIFACTS/report-flame-deep.png" 1000,1100 || fail "screenshot (deep)"
finish
