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
# top of it (docs/calibration.md, "No price of zero for work"). Each table
# loads in psf-score.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
command -v xmllint >/dev/null 2>&1 || { echo "xmllint not installed"; exit 77; }
FAILED=0
fail() { echo "FAIL - $*"; FAILED=$((FAILED + 1)); }
ok() { echo "ok - $*"; }

WORK='(self::opcode or self::array or self::invoke or self::ldc or self::default)'
for t in config/costs.xml config/costs-jdk25.xml; do
  # a free entry: cost 0 (any number of zero decimals), String.hashCode aside
  zero=$(xmllint --xpath "//*[$WORK and @cost and number(@cost) <= 0 and not(number(@cost_per_element) > 0) and not(@method = 'java.lang.String.hashCode()I')]" "$t" 2>/dev/null || true)
  if [ -z "$zero" ]; then ok "$t: no work at cost 0"; else fail "$t: work at cost 0: $zero"; fi
  zero=$(xmllint --xpath "//*[@cost_per_element and number(@cost_per_element) <= 0]" "$t" 2>/dev/null || true)
  if [ -z "$zero" ]; then ok "$t: no cost_per_element of 0"; else fail "$t: cost_per_element 0: $zero"; fi
  n=$(xmllint --xpath "count(//*[$WORK])" "$t")
  if [ "$n" -gt 200 ]; then ok "$t: $n priced entries checked"; else fail "$t: only $n priced entries"; fi
  # natives charged by size: a per-element price, whichever JDK's name the table has
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
