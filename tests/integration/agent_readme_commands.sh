#!/usr/bin/env bash
# agent_readme_commands.sh - every command README.md shows works right after
# the two set-up commands. Each ```sh block is run as it stands, with bash
# -eu from the repository's root, and must exit 0; a line ending in
# "# tested by tests/integration/NAME.sh" is left to that test (it must
# exist and run the same script), and the set-up block is the first command
# (agent_try_example.sh runs it) and CI itself.
set -eu
. "$(dirname "$0")/lib.sh"
README=$PSF_ROOT/README.md

# split the ```sh blocks into $TEST_TMP/block.N
awk -v dir="$TEST_TMP" '
  /^```sh$/ { n++; on = 1; next }
  /^```$/   { on = 0; next }
  on        { print > (dir "/block." n) }
' "$README"
nblocks=$(find "$TEST_TMP" -maxdepth 1 -name 'block.*' | wc -l)
expect_match "README: shell blocks found" "$nblocks" '^[1-9][0-9]*$'

# in the README's order (block.N, N from 1; a block with no line has no file)
for n in $(seq "$(grep -c '^```sh$' "$README")"); do
  b=$TEST_TMP/block.$n
  [ -f "$b" ] || continue
  first=$(head -n 1 "$b")
  case $first in
    scripts/try_example.sh*) # the set-up block: both commands are tested as a whole
      expect_match "README set-up: the second command is the test command CI runs" \
        "$(sed -n 2p "$b")" '^scripts/run_tests\.sh ' ;;
    *)
      # lines left to another test
      while IFS= read -r line; do
        t=${line##*# tested by }
        script=${line#sudo }
        script=${script%% *}
        if [ -f "$PSF_ROOT/$t" ] && grep -q "${script##*/}" "$PSF_ROOT/$t"; then
          pass "README: '$script' is tested by $t"
        else
          fail "README: '$script' is tested by $t" "no such test, or it does not run ${script##*/}"
        fi
      done < <(grep '# tested by tests/integration/' "$b" || true)
      grep -v '# tested by tests/integration/' "$b" >"$b.run" || true
      [ -s "$b.run" ] || continue
      rc=0
      mkdir -p "$TEST_TMP/tmp"
      (cd "$PSF_ROOT" && TMPDIR=$TEST_TMP/tmp bash -eu "$b.run") >"$b.out" 2>"$b.err" || rc=$?
      expect_eq "README block '$first': exit 0" "$rc" 0
      [ "$rc" -eq 0 ] || tail -n 5 "$b.err"
      ;;
  esac
done
# Every script the README leads to answers --help with its usage, and runs
# nothing (the set-up scripts once installed, built and ran the suite for
# it); an option it does not know is a usage error, 2 (run_isolated.sh
# takes a command instead: not asked).
mkdir -p "$TEST_TMP/helptmp" "$TEST_TMP/cwd"
for s in "$PSF_ROOT"/scripts/*.sh; do
  n=${s##*/}
  rc=0
  (cd "$TEST_TMP/cwd" && TMPDIR=$TEST_TMP/helptmp timeout 60 "$s" --help) </dev/null >"$TEST_TMP/help.out" 2>&1 || rc=$?
  expect_eq "$n --help: exit 0, its usage and nothing else" \
    "$rc $(grep -ci '^usage' "$TEST_TMP/help.out") $(($(wc -l <"$TEST_TMP/help.out") <= 200))" "0 1 1"
  [ "$n" = run_isolated.sh ] && continue
  rc=0
  (cd "$TEST_TMP/cwd" && TMPDIR=$TEST_TMP/helptmp timeout 60 "$s" --no-such-option) </dev/null >/dev/null 2>&1 || rc=$?
  expect_eq "$n --no-such-option: usage error" "$rc" 2
done
expect_eq "--help left nothing in the working directory or TMPDIR" "$(find "$TEST_TMP/cwd" "$TEST_TMP/helptmp" -mindepth 1 | wc -l)" 0

# what the blocks print where it can be checked: each score is the README's
# insertion sort, and the judged runs say how they were judged
outs=$(cat "$TEST_TMP"/block.*.out 2>/dev/null || true)
# (the README's figures are JDK 17's: jdk_25.sh runs this suite on 25 too)
readme_score=$(awk '/^score +[0-9]+ cycles$/ { print $2; exit }' "$README")
here=0
readme_figures_here || here=1
scores=$(printf '%s\n' "$outs" | awk '/^method +Sorting.insertionSort/ { m = 1 } m && /^score / { print $2; m = 0 }' | sort -u)
if [ "$here" = 0 ]; then
  expect_eq "README blocks: every scored insertion sort scores the README's $readme_score" "$scores" "$readme_score"
else
  expect_match "README blocks: every insertion sort scores one score" "$scores" '^[0-9]+$'
fi
expect_eq "README blocks: --expect-output judged the run" \
  "$(printf '%s\n' "$outs" | grep -c '^output *judged in this run: equal to the expected output' || true)" 1
expect_eq "README blocks: --check judged the run" \
  "$(printf '%s\n' "$outs" | grep -c '^output *judged in this run: accepted by the checker' || true)" 1
expect_match "README blocks: the JUnit run scored Digits.digitSum" "$outs" 'method +Digits\.digitSum'
# the README's ranked page scores as the batch's leaderboard does: with the
# cost table (JDK 17's, the README's), alice's score the same on both
ranked=$(find "$TEST_TMP/tmp" -name ranked.html | head -n 1)
expect_eq "README's ranked page: scores with the cost table" "$(grep -c 'Score (cycles)' "$ranked" 2>/dev/null)" 1
if [ "$here" = 0 ]; then
  board=$(find "$TEST_TMP/tmp" -path '*/batch/leaderboard.csv' | head -n 1)
  alice=$(awk -F, '$2 == "alice" { print $3 }' "$board" 2>/dev/null || true)
  expect_eq "README's ranked page: alice's score as on the batch's leaderboard ($alice)" \
    "$(grep -c ">$alice<" "$ranked" 2>/dev/null)" 1
fi
finish
