#!/usr/bin/env bash
# calibrate_corpora_priced.sh - every native that common code reaches has a
# price: every program of the fidelity corpora (bench/fidelity/*/, tools/
# aside), the example (examples/Sorting.java, both sorts) and the
# submissions of the batch example (examples/batch/; not ivan, whose
# off-by-one throws), scored by
# scripts/get_score.sh (fast engine) with the shipped table of the JDK they
# run on, config/costs.xml on JDK 17 and config/costs-jdk25.xml on JDK 25,
# end ok and not approximate: no missing key (docs/cost-table.md, "What has
# no price, and why").
#
# JDK 25 is PSF_JDK25_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64. Without
# it JDK 17 is checked and the script then exits 77 (skipped: a failure
# under CI, tests/run_test.sh). Runs are scored PSF_TEST_JOBS at a time
# (default: the online CPUs, at most 4): 320 runs (the generic corpus'
# 66 of them took 36 s on 2 cores).
# PSF_TEST_ONLY=REGEX scores only the runs whose name (corpus/Program,
# example/method, batch/label) matches, for a look at one program.
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
JDK25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JDKS=(17)
NO25=""
if [ -x "$JDK25/bin/java" ] && [ "$(psf_jdk_feature "$JDK25/bin/java")" = 25 ]; then JDKS+=(25)
else NO25="no JDK 25 at $JDK25 (PSF_JDK25_HOME): only JDK 17 was checked"; fi
feature=$(psf_jdk_feature "$JAVA")
[ "$feature" = 17 ] || { echo "the default java ($JAVA) is JDK $feature, not 17"; exit 77; }
JOBS=${PSF_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$JOBS" -le 4 ] || JOBS=4

# --- what runs: one line a run, tab-separated: name, class path, main, method, args
CLS=$TEST_TMP/classes
RUNS=$TEST_TMP/runs.tsv
: >"$RUNS"
# a javac per corpus (the sorting and generic corpora share class names),
# each into its own class path
for dir in "$PSF_ROOT"/bench/fidelity/*/; do
  corpus=$(basename "$dir")
  [ "$corpus" != tools ] || continue
  sources=()
  for f in "$dir"*.java; do
    [ -e "$f" ] || continue
    p=$(basename "$f" .java)
    # it passes the bytecode limit by design (a run stopped there has no score)
    [ "$corpus/$p" != generic/BozoSortBounded ] || continue
    sources+=("$f")
    printf '%s\t%s\t%s\t%s\t\n' "$corpus/$p" "$CLS/corpora/$corpus" "$p" "$p.run" >>"$RUNS"
  done
  [ ${#sources[@]} -eq 0 ] && continue
  mkdir -p "$CLS/corpora/$corpus"
  javac --release 17 -d "$CLS/corpora/$corpus" "${sources[@]}"
done
mkdir -p "$CLS/example"
javac --release 17 -d "$CLS/example" "$PSF_ROOT/examples/Sorting.java"
for m in bubbleSort insertionSort; do
  printf '%s\t%s\t%s\t%s\t%s\n' "example/$m" "$CLS/example" Sorting "Sorting.$m" 200 >>"$RUNS"
done
# the batch as `make examples` built it, when no source is newer; else built here
BATCH=$PSF_BUILD/examples/batch
if [ ! -f "$BATCH/.stamp" ] || [ -n "$(find "$PSF_ROOT/examples/batch" -newer "$BATCH/.stamp" -print -quit)" ]; then
  BATCH=$TEST_TMP/batch
  bash "$PSF_ROOT/examples/batch/build.sh" "$BATCH" >/dev/null
fi
while IFS=$'\t' read -r label cp main method _ args; do
  case $label in '#'* | '') continue ;; esac
  # ivan's off-by-one throws: no score to be approximate (reports_batch.sh checks that)
  [ "$label" != ivan ] || continue
  printf '%s\t%s\t%s\t%s\t%s\n' "batch/$label" "$BATCH/$cp" "$main" "$method" "$args" >>"$RUNS"
done <"$BATCH/manifest.tsv"
n_corpus=$(grep -cv -e '^example/' -e '^batch/' "$RUNS")
# the corpora are not empty: six of them, each of more than ten programs
[ "$n_corpus" -ge 60 ] && pass "$n_corpus corpus programs, $(($(wc -l <"$RUNS") - n_corpus)) example runs" ||
  fail "only $n_corpus corpus programs found under bench/fidelity"
if [ -n "${PSF_TEST_ONLY:-}" ]; then
  # a few runs (a regular expression over their names), to look at one program
  grep -E "^[^	]*($PSF_TEST_ONLY)" "$RUNS" >"$RUNS.only" || true
  mv "$RUNS.only" "$RUNS"
  echo "# only the runs matching '$PSF_TEST_ONLY': $(wc -l <"$RUNS")"
fi
n_runs=$(wc -l <"$RUNS")

# score JDK LINE: one run into $TEST_TMP/JDK/N.json (N: its line number)
score() {
  local jdk=$1 n=$2 name cp main method args home="" table=$PSF_ROOT/config/costs.xml
  IFS=$'\t' read -r name cp main method args < <(sed -n "${n}p" "$RUNS")
  if [ "$jdk" = 25 ]; then home=$JDK25; table=$PSF_ROOT/config/costs-jdk25.xml; fi
  # shellcheck disable=SC2086 # the manifest's arguments are words
  JAVA_HOME=$home "$PSF_ROOT/scripts/get_score.sh" --json --engine fast --sandbox off --costs "$table" \
    --classpath "$cp" --main "$main" --method "$method" --program-output /dev/null -- $args \
    >"$TEST_TMP/$jdk/$n.json" 2>"$TEST_TMP/$jdk/$n.err" || true
}

started=$SECONDS
for jdk in "${JDKS[@]}"; do
  mkdir -p "$TEST_TMP/$jdk"
  for n in $(seq 1 "$n_runs"); do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    score "$jdk" "$n" &
  done
  wait
  while IFS=$'\t' read -r n name; do
    got=$(jq -r '"\(.status) \(.approximate) \(.missing)"' "$TEST_TMP/$jdk/$n.json" 2>/dev/null || echo "no JSON")
    if [ "$got" = "ok false []" ]; then pass "JDK $jdk, $name: ok, not approximate"
    else
      msg=$(jq -r '.message // empty' "$TEST_TMP/$jdk/$n.json" 2>/dev/null | head -c 300)
      fail "JDK $jdk, $name: not ok, or approximate" "got '$got'${msg:+; $msg}; want 'ok false []'"
    fi
  done < <(cut -f1 "$RUNS" | nl -ba -w1 -s$'\t')
done
echo "# $((n_runs * ${#JDKS[@]})) runs scored in $((SECONDS - started)) s, $JOBS at a time"
if [ -n "$NO25" ]; then
  finish || exit 1
  echo "$NO25"
  exit 77
fi
finish
