#!/bin/sh
# scorer_shipped_tables.sh - no shipped table prices work at zero: in
# config/costs.xml and config/costs-jdk25.xml every opcode, array type,
# native method, class constant and the default has a positive `cost`, or
# (a native whose every call brings elements: a stack trace's frames) a
# positive `cost_per_element`; every `cost_per_element` (written for arrays
# and for natives whose calls report elements, so whose kernels grow with
# their input) is positive; and the natives charged by size
# (docs/hidden-work.md) carry one, another thread's stack trace included
# (Thread.dumpThreads in the JDK 17 table, Thread.getStackTrace0 in the
# JDK 25 one). The one exception is String.hashCode,
# which runs bytecode (counted and priced) and whose entry is an extra on
# top of it (docs/calibration.md, "No price of zero for work"). The two
# queries for a zero price each find the one put in a copy of the table
# (an XPath that matches nothing would pass on any table). Each table
# loads in psf-score.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
command -v xmllint >/dev/null 2>&1 || { echo "xmllint not installed"; exit 77; }
FAILED=0
fail() { echo "FAIL - $*"; FAILED=$((FAILED + 1)); }
ok() { echo "ok - $*"; }

WORK='(self::opcode or self::array or self::invoke or self::ldc or self::default)'
# a free entry: cost 0 (any number of zero decimals), String.hashCode aside
FREE="//*[$WORK and @cost and number(@cost) <= 0 and not(number(@cost_per_element) > 0) and not(@method = 'java.lang.String.hashCode()I')]"
PER0="//*[@cost_per_element and number(@cost_per_element) <= 0]"
# count FILE EXPR: how many nodes EXPR selects, as a number; "error" when
# xmllint cannot evaluate it (an empty node set and a broken expression both
# exit 10 with --xpath EXPR: count() answers 0 for the first, nothing for
# the second)
count() {
  n=$(xmllint --xpath "count($2)" "$1" 2>/dev/null) || true
  case $n in '' | *[!0-9]*) echo error ;; *) echo "$n" ;; esac
}
# free_in TABLE: TABLE has no free entry and no zero
# price per element
free_in() {
  n=$(count "$1" "$FREE")
  if [ "$n" = 0 ]; then ok "$1: no work at cost 0"; else fail "$1: work at cost 0 ($n): $(xmllint --xpath "$FREE" "$1" 2>&1 | head -c 400)"; fi
  n=$(count "$1" "$PER0")
  if [ "$n" = 0 ]; then ok "$1: no cost_per_element of 0"; else fail "$1: cost_per_element 0 ($n): $(xmllint --xpath "$PER0" "$1" 2>&1 | head -c 400)"; fi
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-tables.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
for t in config/costs.xml config/costs-jdk25.xml; do
  free_in "$t"
  # the two queries find what they look for: a copy with nop at 0.000 and
  # the first price per element at 0 has one of each
  sed -e 's/<opcode name="nop" cost="[0-9.]*"/<opcode name="nop" cost="0.000"/' \
      -e '0,/cost_per_element="[0-9.]*"/s//cost_per_element="0"/' "$t" >"$TMP/free.xml"
  expect="$(count "$TMP/free.xml" "$FREE") $(count "$TMP/free.xml" "$PER0")"
  if [ "$expect" = "1 1" ]; then ok "$t: a copy with nop free and a price per element of 0 has one of each found"
  else fail "$t: a copy with nop free and a price per element of 0: found '$expect', want '1 1'"; fi
  n=$(xmllint --xpath "count(//*[$WORK])" "$t")
  if [ "$n" -gt 200 ]; then ok "$t: $n priced entries checked"; else fail "$t: only $n priced entries"; fi
  # natives charged by size: a per-element price, whichever JDK's name the table has
  # shellcheck disable=SC2016 # Java's nested classes' names ($) in single quotes
  for m in 'jdk.internal.misc.Unsafe.copyMemory0(' 'jdk.internal.misc.Unsafe.copySwapMemory0(' \
           'java.lang.StackStreamFactory$AbstractStackWalker.fetchStackFrames(' 'java.util.zip.CRC32.updateBytes0(' \
           'java.lang.System.arraycopy(' 'java.nio.MappedMemoryUtils.force0(' 'java.lang.Class.getDeclaredMethods0('; do
    n=$(xmllint --xpath "count(//invoke[starts-with(@method, '$m') and number(@cost_per_element) > 0])" "$t")
    if [ "$n" -ge 1 ]; then ok "$t: $m priced per element"; else fail "$t: $m has no positive price per element"; fi
  done
  other='java.lang.Thread.dumpThreads('
  case $t in *jdk25*) other='java.lang.Thread.getStackTrace0(' ;; esac
  n=$(xmllint --xpath "count(//invoke[starts-with(@method, '$other') and number(@cost) > 0 and number(@cost_per_element) > 0])" "$t")
  if [ "$n" -ge 1 ]; then ok "$t: $other priced per call and per frame"; else fail "$t: $other has no positive price per call and per frame"; fi
  out=$("$SCORE" --costs "$t" --score-only tests/fixtures/scorer/basic.profile.xml 2>&1) || fail "$t: psf-score cannot load it: $out"
done
echo "$FAILED failed"
[ "$FAILED" -eq 0 ]
