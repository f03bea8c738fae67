#!/usr/bin/env bash
# test_summary.sh - print what `make test` ran, from the summary file that
# tests/run_test.sh appends to: every skipped or failed script by name with
# its reason, then one closing line of counts. Exits 1 when a script failed
# or, under CI (CI=true), when one was skipped.
#
# usage: tests/test_summary.sh SUMMARY-FILE
set -u
summary=$1
[ -s "$summary" ] || { echo "test summary: no test script ran"; exit 1; }
pass=$(grep -c '^pass' "$summary")
skip=$(grep -c '^skip' "$summary")
fail=$(grep -c '^fail' "$summary")
total=$(awk -F'\t' '{ s += $4 } END { print s + 0 }' "$summary")
echo
echo "slowest scripts (of ${total} s in all):"
sort -t "$(printf '\t')" -k4,4nr "$summary" | head -n 12 | awk -F'\t' '{ printf "   %5d s  %s\n", $4, $2 }'
echo "scripts: $pass passed, $fail failed, $skip skipped"
grep -v '^pass' "$summary" | while IFS=$'\t' read -r what name why _took; do
  printf '   %-5s %s: %s\n' "$what" "$name" "$why"
done
[ "$fail" -eq 0 ] || exit 1
if [ "$skip" -gt 0 ] && [ "${CI:-}" = true ]; then exit 1; fi
exit 0
