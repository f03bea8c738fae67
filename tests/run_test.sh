#!/usr/bin/env bash
# run_test.sh - run one test script of `make test` and judge how it ended.
#
# Every suite of the Makefile fragments (integration, scorer, calibrate,
# valgrind) runs its scripts through this one file, so that a skip means
# the same everywhere. A script exits 0 (passed), 77 (skipped: something it
# needs is missing, and it printed why as its last line) or anything else
# (failed). Under CI (CI=true, which CI sets) a skip fails the run, naming
# the script and its reason: CI must not turn green by not testing. Outside
# CI a skip is allowed but loud. Each outcome is appended to the summary
# file, which tests/test_summary.sh prints at the end of `make test`.
#
# usage: tests/run_test.sh SUMMARY-FILE COMMAND [ARG...]
#   SUMMARY-FILE  the file outcomes are appended to ("-" for none)
#   COMMAND       the test, e.g. `bash tests/integration/agent_counts.sh`
# The test's name in the summary is the last argument that names a file
# (the script), else the command itself.
set -u
summary=$1
shift
[ $# -gt 0 ] || { echo "usage: tests/run_test.sh SUMMARY-FILE COMMAND [ARG...]" >&2; exit 2; }

name=$*
for a in "$@"; do [ -f "$a" ] && name=$a; done
echo "== $name"

# The output goes to the terminal as it comes and to a file, whose last
# line is the reason of a skip.
out=$(mktemp "${TMPDIR:-/tmp}/psf-run-test.XXXXXX")
trap 'rm -f "$out"' EXIT
rc=0
start=$SECONDS
"$@" 2>&1 | tee "$out" || true
rc=${PIPESTATUS[0]}
took=$((SECONDS - start))
echo "   took ${took} s"

# One line per script: outcome, name, reason, seconds (the summary lists
# the slowest, which is where CI's time goes).
record() { [ "$summary" = - ] || { mkdir -p "$(dirname "$summary")"; printf '%s\t%s\t%s\t%s\n' "$1" "$name" "$2" "$took" >> "$summary"; }; }
if [ "$rc" -eq 0 ]; then
  record pass ""
  exit 0
fi
if [ "$rc" -eq 77 ]; then
  reason=$(grep -v -e '^[[:space:]#]*$' -e '^[0-9]* passed, [0-9]* failed' "$out" | tail -n 1 | sed 's/^[#[:space:]]*//')
  [ -n "$reason" ] || reason="(it printed no reason)"
  if [ "${CI:-}" = true ]; then
    echo "   FAILED: skipped under CI: $reason"
    record fail "skipped under CI: $reason"
    exit 1
  fi
  echo "   SKIPPED: $name did not run: $reason"
  record skip "$reason"
  exit 0
fi
echo "   FAILED ($rc)"
record fail "exit $rc"
exit 1
