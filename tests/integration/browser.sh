# browser.sh - headless Chromium for the tests of the HTML pages (sourced;
# bash, after lib.sh).
# shellcheck shell=bash
#
# The pages are checked as a person sees them: Chromium loads the file,
# runs its inline script, and the tests read the resulting DOM and keep a
# screenshot under $PSF_BUILD/artifacts/. Chromium gets a throwaway profile
# directory in $TEST_TMP and no network (a page that tried to fetch
# anything would show the failure in the screenshot; the tests also look
# for external references in the HTML). As root it needs --no-sandbox (Chromium's own sandbox,
# not PSF's).

# PSF_CHROMIUM names the browser; set and empty, it hides Chromium (to see
# that CI fails rather than skips without it).
CHROMIUM=${PSF_CHROMIUM-$(command -v chromium || command -v chromium-browser || true)}
ARTIFACTS=$PSF_BUILD/artifacts
mkdir -p "$ARTIFACTS"

# browser_available: 0 when headless Chromium can be run here.
browser_available() { [ -n "$CHROMIUM" ]; }

browser_flags() {
  local flags=(--headless --disable-gpu --disable-dev-shm-usage --hide-scrollbars --no-first-run --mute-audio
    --user-data-dir="$TEST_TMP/chromium" --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>')
  [ "$(id -u)" -ne 0 ] || flags+=(--no-sandbox)
  printf '%s\n' "${flags[@]}"
}

# browser_dom FILE.html OUT: the DOM after the page's scripts ran.
browser_dom() {
  local flags
  mapfile -t flags < <(browser_flags)
  timeout 120 "$CHROMIUM" "${flags[@]}" --virtual-time-budget=2000 --dump-dom "file://$1" >"$2" 2>"$TEST_TMP/chromium.err"
}

# browser_shot FILE.html OUT.png [WIDTH,HEIGHT]: a screenshot. An earlier
# run's OUT.png (the artifacts stay) is removed first, so that a check of
# the file sees this run's screenshot or none.
browser_shot() {
  local flags
  rm -f "$2"
  mapfile -t flags < <(browser_flags)
  timeout 120 "$CHROMIUM" "${flags[@]}" --virtual-time-budget=2000 --window-size="${3:-1100,900}" \
    --screenshot="$2" "file://$1" >"$TEST_TMP/chromium.out" 2>&1
}

# html_xpath FILE EXPR: an XPath over an HTML file (the browser's DOM).
html_xpath() { xmllint --html --xpath "$2" "$1" 2>/dev/null; }

# external_refs FILE: the references to anything outside the page, one a
# line with its line number: an attribute that loads or links (src,
# srcset, href, action, formaction, poster, data, xlink:href) or a CSS
# url() naming an http(s) or protocol-relative (//host) address, and any
# CSS @import. Text that merely contains // (a comment in a student's
# source, shown on the page) is not one.
external_refs() {
  grep -n -o -i -E \
    "(src|srcset|href|action|formaction|poster|data|xlink:href)[[:space:]]*=[[:space:]]*[\"']?[[:space:]]*(https?:|//)|url\([[:space:]]*[\"']?[[:space:]]*(https?:|//)|@import" \
    "$1" || true
}

# no_external_refs NAME FILE: the page references nothing outside itself.
no_external_refs() {
  local hits
  hits=$(external_refs "$2" | head -5)
  if [ -z "$hits" ]; then pass "$1"; else fail "$1" "$(echo "$hits" | tr '\n' ' ')"; fi
}

# html_column FILE TABLE-ID N: the text of column N of every body row of
# the table, one row a line (as the browser renders it, entities decoded).
html_column() {
  local n i
  n=$(html_xpath "$1" "count(//table[@id='$2']/tbody/tr)")
  for ((i = 1; i <= ${n:-0}; i++)); do
    printf '%s\n' "$(html_xpath "$1" "string(//table[@id='$2']/tbody/tr[$i]/td[$3])")"
  done
}
