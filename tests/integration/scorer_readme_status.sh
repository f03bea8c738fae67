#!/bin/sh
# scorer_readme_status.sh - the README's table of statuses and exit codes
# says what psf-score --status-table (scorer/status.c, the one source)
# says: every code, word and meaning, in the same order.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# "   26  unverified           a profile ..." -> "26|unverified|a profile ..."
"$SCORE" --status-table | sed -E 's/^ *([0-9]+) +([a-z_]+) +(.*)$/\1|\2|\3/' >"$TMP/want"
# "| 26 | `unverified` | a profile ... |" -> the same
sed -n -E 's/^\| ([0-9]+) \| `([a-z_]+)` \| (.*) \|$/\1|\2|\3/p' README.md >"$TMP/got"
[ -s "$TMP/got" ] || { echo "FAIL: README.md has no status table rows" >&2; exit 1; }
if ! diff -u "$TMP/want" "$TMP/got" >"$TMP/diff"; then
  echo "FAIL: README.md's status table differs from psf-score --status-table (- table, + README):" >&2
  cat "$TMP/diff" >&2
  exit 1
fi
echo "ok: README status table = psf-score --status-table ($(wc -l <"$TMP/want") rows)"
