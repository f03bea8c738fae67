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

for table in $F/known.costs.xml config/costs.xml; do
    scale "$table" >"$TMP/double.xml"
    cmp -s "$table" "$TMP/double.xml" && fail "scaling changed nothing in $table"
    for extra in "" --with-overhead; do
        one=$("$SCORE" --costs "$table" --score-only $extra $F/basic.profile.xml)
        two=$("$SCORE" --costs "$TMP/double.xml" --score-only $extra $F/basic.profile.xml)
        approx=
        case $one in "~"*) approx="~"; one=${one#\~} ;; esac
        [ "$two" = "$approx$((one * 2))" ] || fail "$table $extra: $one x 2 gave $two"
        echo "ok: $table $extra: $approx$one -> $two"
    done
done
