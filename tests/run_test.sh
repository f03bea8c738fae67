#!/usr/bin/env bash
# run_test.sh - run one test script of `make test` and judge how it ended.
#
# Every suite of the Makefile fragments (integration, scorer, calibrate,
# valgrind) runs its scripts through this one file, so that a skip means
# the same everywhere. A script exits 0 (passed), 77 (skipped: something it
# needs is missing, and it printed why as its last line) or anything else
# (failed); an exit 0 whose closing line is "0 passed, N failed" ran no
# check, and fails too. Under CI (CI=true, which CI sets) a skip fails the
# run, naming the script and its reason: CI must not turn green by not
# testing. Outside CI a skip is allowed but loud. Each outcome is appended
# to the summary file, which tests/test_summary.sh prints at the end of
# `make test`.
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

# The output goes to a file, whose last line is the reason of a skip, and
# to the terminal: as it comes, or (PSF_TEST_BUFFER=1, when make test runs
# two lanes side by side) whole when the script ends, under a lock, so that
# two scripts' lines never mix.
out=$(mktemp "${TMPDIR:-/tmp}/psf-run-test.XXXXXX")
trap 'rm -f "$out"' EXIT
buffered=${PSF_TEST_BUFFER:-0}
[ "$buffered" = 1 ] || echo "== $name"
start=$SECONDS
if [ "$buffered" = 1 ]; then
  "$@" >"$out" 2>&1
  rc=$?
else
  "$@" 2>&1 | tee "$out" || true
  rc=${PIPESTATUS[0]}
fi
took=$((SECONDS - start))

# The verdict: pass, skip (a failure under CI) or fail, with its reason.
# A script whose closing line (lib.sh's finish) counts no passed check ran
# nothing: that is no pass, whatever its exit code.
closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
if [ "$rc" -eq 0 ] && [ "${closing%% *}" = 0 ]; then
  verdict=fail why="no check ran ($closing)" line="   FAILED: no check ran ($closing)"
elif [ "$rc" -eq 0 ]; then
  verdict=pass why="" line=""
elif [ "$rc" -eq 77 ]; then
  reason=$(grep -v -e '^[[:space:]#]*$' -e '^[0-9]* passed, [0-9]* failed' "$out" | tail -n 1 | sed 's/^[#[:space:]]*//')
  [ -n "$reason" ] || reason="(it printed no reason)"
  if [ "${CI:-}" = true ]; then
    verdict=fail why="skipped under CI: $reason" line="   FAILED: skipped under CI: $reason"
  else
    verdict=skip why="$reason" line="   SKIPPED: $name did not run: $reason"
  fi
else
  verdict=fail why="exit $rc" line="   FAILED ($rc)"
fi

report() {
  [ "$buffered" = 1 ] && { echo "== $name"; cat "$out"; }
  echo "   took ${took} s"
  [ -z "$line" ] || echo "$line"
}
if [ "$buffered" = 1 ] && command -v flock >/dev/null 2>&1; then
  lock=${summary%/*}/.run_test.lock
  [ "$summary" != - ] && [ "$lock" != "$summary" ] || lock=${TMPDIR:-/tmp}/psf-run-test.lock
  { flock 9; report; } 9>>"$lock"
else
  report
fi

# One line per script in the summary: outcome, name, reason, seconds (the
# summary lists the slowest, which is where CI's time goes).
if [ "$summary" != - ]; then
  mkdir -p "$(dirname "$summary")"
  printf '%s\t%s\t%s\t%s\n' "$verdict" "$name" "$why" "$took" >> "$summary"
fi
[ "$verdict" != fail ]
