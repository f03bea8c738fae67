#!/usr/bin/env bash
# fidelity_corpora.sh - every program of the fidelity corpora computes the
# right answer. bench/fidelity.sh and bench/fast_equality.sh score these
# programs; each corpus' check.sh (bench/fidelity/*/check.sh) proves that
# its programs do the same task correctly and return the same checksum, so
# that a benchmark compares the cost of one piece of work. Here every
# check.sh runs on the default JDK, and a corpus with one program broken
# (a bubble sort sorting the wrong way) is refused by its check.
set -u
. "$(dirname "$0")/lib.sh"

n=0
for check in "$PSF_ROOT"/bench/fidelity/*/check.sh; do
  corpus=$(basename "$(dirname "$check")")
  n=$((n + 1))
  if out=$(PSF_BUILD=$TEST_TMP/build bash "$check" 2>&1); then
    pass "corpus $corpus: every program correct ($(grep -c . <<<"$out") lines of its check)"
  else
    fail "corpus $corpus: its check.sh passes" "$(tail -n 3 <<<"$out" | tr '\n' ' ')"
  fi
done
expect_eq "the corpora with a check" "$([ "$n" -ge 6 ] && echo yes)" yes

# The check refuses a wrong program: a copy of the generic corpus whose
# bubble sort compares its neighbours the other way round.
COPY=$TEST_TMP/root/bench/fidelity
mkdir -p "$COPY"
cp -r "$PSF_ROOT/bench/fidelity/generic" "$COPY/"
ln -s "$PSF_ROOT/bench/fidelity/tools" "$COPY/tools"
sed -i 's/if (less(a\[i + 1\], a\[i\]))/if (less(a[i], a[i + 1]))/' "$COPY/generic/BubbleSort.java"
expect_eq "the broken copy differs from the corpus" \
  "$(cmp -s "$COPY/generic/BubbleSort.java" "$PSF_ROOT/bench/fidelity/generic/BubbleSort.java" && echo same || echo differs)" differs
out=$(PSF_BUILD=$TEST_TMP/build bash "$COPY/generic/check.sh" 2>&1) && rc=0 || rc=$?
expect_eq "a corpus with a wrong sort: its check fails" "$rc" 1
expect_match "a corpus with a wrong sort: the check names the program" "$out" "BubbleSort"

finish
