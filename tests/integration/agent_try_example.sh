#!/usr/bin/env bash
# agent_try_example.sh - the README's first command, scripts/try_example.sh,
# as a new user runs it: it must score both sorts of examples/Sorting.java,
# and what it prints must be what the README shows (the table of the two
# sorts and the sample result under "Reading the result"), so the README's
# figures follow the shipped cost table and the agent.
set -eu
. "$(dirname "$0")/lib.sh"
README=$PSF_ROOT/README.md

rc=0
"$PSF_ROOT/scripts/try_example.sh" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
expect_eq "try_example.sh: exit 0" "$rc" 0
# the text result of method M: field F (score, bytecodes)
field() {
  awk -v m="== Sorting.$1" -v f="$2" '$0 == m { on = 1; next } /^== / { on = 0 } on && $1 == f { print $2; exit }' "$TEST_TMP/out"
}
# the README table's row of method M, column C (3 bytecodes, 4 score), digits only
readme_cell() {
  grep -F "| \`Sorting.$1\` |" "$README" | awk -F'|' -v c="$2" '{ print $c }' | tr -cd '0-9'
}
# The README's figures are JDK 17's (its sample result names the JDK);
# on another JDK (jdk_25.sh runs this suite on 25) the sorts must score.
here=0
readme_figures_here || here=1
for m in bubbleSort insertionSort; do
  score=$(field "$m" score)
  bytecodes=$(field "$m" bytecodes)
  expect_match "try_example.sh: $m scored" "$score" '^[0-9]+$'
  if [ "$here" = 0 ]; then
    expect_eq "README table: $m's bytecodes as try_example.sh counts them" "$(readme_cell "$m" 3)" "$bytecodes"
    expect_eq "README table: $m's score as try_example.sh scores it" "$(readme_cell "$m" 4)" "$score"
  fi
done
if [ "$here" = 0 ]; then
  # the sample result in "Reading the result" is insertionSort's
  expect_eq "README sample result: the score" \
    "$(awk '/^score +[0-9]+ cycles$/ { print $2; exit }' "$README")" "$(field insertionSort score)"
  expect_eq "README sample result: the bytecodes" \
    "$(awk '/^bytecodes +[0-9]+ run by/ { print $2; exit }' "$README")" "$(field insertionSort bytecodes)"
fi
expect_eq "try_example.sh: the program's output is kept out" "$(grep -c '^[0-9 ]*$' "$TEST_TMP/out" || true)" 0
finish
