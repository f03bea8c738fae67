#!/usr/bin/env bash
# agent_shipped_prices.sh - the shipped tables on real runs, JDK 17 and 25:
#  - a direct ByteBuffer filled 20 times from a heap array (DirectFill)
#    grows with its bytes: 1 MB against 100 kB a fill gives the same
#    bytecodes, 20 copyMemory0 calls with exactly 20 x n bytes, a score
#    higher by 18,000,000 x the table's copyMemory0 price per byte (to the
#    rounding of each score), at least 4 times the score; not approximate;
#  - another thread's stack trace (NativeSize other) grows with its frames:
#    a thread waiting 900 frames deeper costs at least 900 x the table's
#    price per element of Thread.dumpThreads (17) or getStackTrace0 (25)
#    more, and neither run is approximate;
#  - the example, two batch submissions and a few corpus programs that
#    reach natives (streams, memo tables of strings, regular expressions,
#    ConcurrentHashMap-backed code) are not approximate: every native they
#    reach has a price (docs/cost-table.md lists what has none).
# JDK 25 is PSF_JDK25_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64; without
# it only JDK 17 is checked, and the test says so.
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
command -v xmllint >/dev/null || { echo "xmllint is missing"; exit 77; }
JDK25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JDKS=(17)
if [ -x "$JDK25/bin/java" ] && [ "$(psf_jdk_feature "$JDK25/bin/java")" = 25 ]; then JDKS+=(25)
else echo "# JDK 25 NOT TESTED: no JDK 25 at $JDK25"; fi

CLS=$TEST_TMP/classes
mkdir -p "$CLS/df" "$CLS/ex" "$CLS/corpus" "$CLS/ns"
javac --release 17 -d "$CLS/df" "$PSF_ROOT/tests/fixtures/agent/DirectFill.java"
javac --release 17 -d "$CLS/ns" "$PSF_ROOT/tests/fixtures/adversarial/NativeSize.java"
javac --release 17 -d "$CLS/ex" "$PSF_ROOT/examples/Sorting.java"
CORPUS=(wordcount/StreamGroupingBy wordcount/HashMapGetOrDefault strings/RegexLookahead
        editdistance/MemoStringKeys programs/SortComparator)
SRCS=()
for p in "${CORPUS[@]}"; do SRCS+=("$PSF_ROOT/bench/fidelity/$p.java"); done
javac --release 17 -d "$CLS/corpus" "${SRCS[@]}"
bash "$PSF_ROOT/examples/batch/build.sh" "$TEST_TMP/batch" >/dev/null

# gs JDK CP MAIN METHOD NAME [ARGS...]: score into $TEST_TMP/NAME.json
gs() {
  local jdk=$1 cp=$2 main=$3 method=$4 name=$5
  shift 5
  local home=""
  [ "$jdk" = 25 ] && home=$JDK25
  JAVA_HOME=$home "$PSF_ROOT/scripts/get_score.sh" --json --sandbox off --classpath "$cp" --main "$main" \
    --method "$method" --program-output /dev/null --profile-out "$TEST_TMP/$name.xml" -- "$@" \
    >"$TEST_TMP/$name.json" 2>"$TEST_TMP/$name.err" || true
  cp "$TEST_TMP/$name.json" "$TEST_TMP/out"
}
j() { jq -r "$2" "$TEST_TMP/$1.json"; }

COPY='jdk.internal.misc.Unsafe.copyMemory0(Ljava/lang/Object;JLjava/lang/Object;JJ)V'
for jdk in "${JDKS[@]}"; do
  table=$PSF_ROOT/config/costs.xml
  [ "$jdk" = 25 ] && table=$PSF_ROOT/config/costs-jdk25.xml
  # --- the direct buffer ---------------------------------------------------------
  for n in 100000 1000000; do
    gs "$jdk" "$CLS/df" DirectFill DirectFill.fill "df$jdk.$n" "$n"
    expect_eq "JDK $jdk, DirectFill $n: ok and not approximate$(said)" "$(j "df$jdk.$n" '"\(.status) \(.approximate) \(.missing)"')" "ok false []"
    expect_eq "JDK $jdk, DirectFill $n: 20 copies of $n bytes" \
      "$(xpath "$TEST_TMP/df$jdk.$n.xml" "//dependencies[@bucket='work']/invoke[@method='$COPY']/@count") $(xpath "$TEST_TMP/df$jdk.$n.xml" "//dependencies[@bucket='work']/invoke[@method='$COPY']/@elements")" \
      "20 $((20 * n))"
  done
  expect_eq "JDK $jdk, DirectFill: the same bytecodes at both sizes" "$(j "df$jdk.100000" .bytecodes)" "$(j "df$jdk.1000000" .bytecodes)"
  small=$(j "df$jdk.100000" .score)
  large=$(j "df$jdk.1000000" .score)
  per_byte=$(xmllint --xpath "string(//invoke[@method='$COPY']/@cost_per_element)" "$table")
  # 18,000,000 more bytes at the table's price; each score is rounded once
  want=$(awk -v p="$per_byte" 'BEGIN { printf "%.6f", 18000000 * p }')
  if awk -v d="$((large - small))" -v w="$want" 'BEGIN { exit !(w > 0 && d >= w - 1 && d <= w + 1) }'; then
    pass "JDK $jdk, DirectFill: 10x the bytes cost 18,000,000 x $per_byte more ($((large - small)))"
  else fail "JDK $jdk, DirectFill: 10x the bytes cost $((large - small)) more" "want $want (18,000,000 x $per_byte)"; fi
  if [ "$large" -ge $((4 * small)) ] && [ "$small" -gt 0 ]; then pass "JDK $jdk, DirectFill: $large >= 4 x $small"
  else fail "JDK $jdk, DirectFill: 10x the bytes scored $large against $small" "want at least 4x"; fi

  # --- another thread's stack trace -------------------------------------------------
  native='java.lang.Thread.dumpThreads([Ljava/lang/Thread;)[[Ljava/lang/StackTraceElement;'
  [ "$jdk" = 25 ] && native='java.lang.Thread.getStackTrace0()Ljava/lang/Object;'
  for n in 100 1000; do
    gs "$jdk" "$CLS/ns" NativeSize NativeSize.work "other$jdk.$n" other "$n"
    expect_eq "JDK $jdk, another thread's stack $n deep: ok and not approximate$(said)" \
      "$(j "other$jdk.$n" '"\(.status) \(.approximate) \(.missing)"')" "ok false []"
  done
  per_frame=$(xmllint --xpath "string(//invoke[@method='$native']/@cost_per_element)" "$table")
  e_small=$(xpath "$TEST_TMP/other$jdk.100.xml" "//dependencies[@bucket='work']/invoke[@method='$native']/@elements")
  e_large=$(xpath "$TEST_TMP/other$jdk.1000.xml" "//dependencies[@bucket='work']/invoke[@method='$native']/@elements")
  expect_eq "JDK $jdk, another thread's stack: 900 frames deeper, 900 elements more" "$((e_large - e_small))" 900
  d=$(( $(j "other$jdk.1000" .score) - $(j "other$jdk.100" .score) ))
  want=$(awk -v p="$per_frame" 'BEGIN { printf "%.6f", 900 * p }')
  if awk -v d="$d" -v w="$want" 'BEGIN { exit !(w > 0 && d >= w - 1) }'; then
    pass "JDK $jdk, another thread's stack: 900 frames deeper cost at least 900 x $per_frame more ($d)"
  else fail "JDK $jdk, another thread's stack: 900 frames deeper cost $d more" "want at least $want (900 x '$per_frame')"; fi

  # --- honest programs: not approximate ---------------------------------------------
  gs "$jdk" "$CLS/ex" Sorting Sorting.insertionSort "ex$jdk" 200
  expect_eq "JDK $jdk, Sorting.insertionSort: ok, not approximate$(said)" "$(j "ex$jdk" '"\(.status) \(.approximate) \(.missing)"')" "ok false []"
  for who in alice erin; do
    line=$(grep "^$who	" "$TEST_TMP/batch/manifest.tsv")
    IFS=$'\t' read -r _ cp main method _ args <<<"$line"
    # shellcheck disable=SC2086 # the manifest's arguments, one a word
    gs "$jdk" "$TEST_TMP/batch/$cp" "$main" "$method" "batch$jdk.$who" $args
    expect_eq "JDK $jdk, batch $who: ok, not approximate$(said)" "$(j "batch$jdk.$who" '"\(.status) \(.approximate) \(.missing)"')" "ok false []"
  done
  for p in "${CORPUS[@]}"; do
    c=${p#*/}
    gs "$jdk" "$CLS/corpus" "$c" "$c.run" "c$jdk.$c"
    expect_eq "JDK $jdk, $p: ok, not approximate$(said)" "$(j "c$jdk.$c" '"\(.status) \(.approximate) \(.missing)"')" "ok false []"
  done
done
finish
