#!/bin/sh
# scorer_scale.sh - scaling every cost* attribute of a table by 2 doubles
# the score (a tool can scale a table without knowing its elements).
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
command -v perl >/dev/null 2>&1 || { echo "perl not installed"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Multiply the value of every attribute whose name starts with "cost".
scale() {
    perl -pe 's/(\scost[A-Za-z0-9_]*)="([0-9.]+)"/$1 . "=\"" . ($2 * 2) . "\""/ge' "$1"
}

# Exactly double for tables with whole prices; the shipped (calibrated) table
# has fractional prices, so its score is rounded once: doubling may move it by 1.
for table in $F/known.costs.xml config/costs-uncalibrated.xml config/costs.xml; do
    scale "$table" >"$TMP/double.xml"
    cmp -s "$table" "$TMP/double.xml" && fail "scaling changed nothing in $table"
    for extra in "" --with-overhead; do
        one=$("$SCORE" --costs "$table" --score-only $extra $F/basic.profile.xml)
        two=$("$SCORE" --costs "$TMP/double.xml" --score-only $extra $F/basic.profile.xml)
        approx=
        case $one in "~"*) approx="~"; one=${one#\~} ;; esac
        two_n=${two#\~}
        diff=$((two_n - one * 2))
        [ "${two%%[0-9]*}" = "$approx" ] || fail "$table $extra: approximate changed ($one, $two)"
        if [ "$table" = config/costs.xml ]; then
            [ "$diff" -ge -1 ] && [ "$diff" -le 1 ] || fail "$table $extra: $one x 2 gave $two"
        else
            [ "$diff" -eq 0 ] || fail "$table $extra: $one x 2 gave $two"
        fi
        echo "ok: $table $extra: $approx$one -> $two"
    done
done
