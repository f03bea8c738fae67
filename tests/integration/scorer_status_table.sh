#!/bin/sh
# scorer_status_table.sh - the table of statuses and exit codes in
# docs/grading-server.md says what psf-score --status-table (scorer/status.c,
# the one source) says: every code, word and meaning, in the same order.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
DOC=$(dirname "$0")/../../docs/grading-server.md
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# "   26  unverified           a profile ..." -> "26|unverified|a profile ..."
"$SCORE" --status-table | sed -E 's/^ *([0-9]+) +([a-z_]+) +(.*)$/\1|\2|\3/' >"$TMP/want"
# "| 26 | `unverified` | a profile ... |" -> the same
# shellcheck disable=SC2016 # the table's backquotes, in a sed program
sed -n -E 's/^\| ([0-9]+) \| `([a-z_]+)` \| (.*) \|$/\1|\2|\3/p' "$DOC" >"$TMP/got"
[ -s "$TMP/got" ] || { echo "FAIL: $DOC has no status table rows" >&2; exit 1; }
if ! diff -u "$TMP/want" "$TMP/got" >"$TMP/diff"; then
  echo "FAIL: the status table of $DOC differs from psf-score --status-table (- psf-score, + the page):" >&2
  cat "$TMP/diff" >&2
  exit 1
fi
echo "ok: the status table of docs/grading-server.md = psf-score --status-table ($(wc -l <"$TMP/want") rows)"
