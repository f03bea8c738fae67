#!/usr/bin/env bash
# instrument_jvm.sh - the block-probe rewriter (agent/classfile/instrument.c) on real
# class files in a real JVM, through the test driver build/tests/psf-rewrite.
#
# Classes are rewritten with block, branch, entry, array, copy, made, call,
# return and new probes, with the fast engine's constants and folded
# branches (a branch's outcome taken in its successors' block probes).
# 1. Every class of tests/fixtures/agent is rewritten (every method must be
#    instrumented) and the programs run under `java -Xverify:all` with the
#    probe class tests/fixtures/probe/psf/Probe.java: the output and exit
#    status must be the plain run's.
# 2. For fixtures whose extent runs only their own code, the probe hits
#    times each block's histogram (from the block table psf-rewrite writes)
#    must give, method by method and opcode by opcode, the step engine's
#    profile of the same run, and the totals the hand-derived counts of
#    tests/integration/agent_counts.sh; the branch outcomes the branch
#    probes saw, replayed through the step engine's simulated predictor,
#    must give its conditional, taken and mispredicted counts; the entry
#    probes its method entries.
# 3. Every class of the JDK's java.util package (read from the jrt image) is
#    rewritten and patched into java.base; a java.util workload runs under
#    -Xverify:all with the same output, and its probes fire.
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
PROBE=$PSF_BUILD/fixtures/probe
REWRITE=$PSF_BUILD/tests/psf-rewrite
for need in "$REWRITE" "$PROBE/psf/Probe.class" "$FX/Loops.class" "$PSF_BUILD/libpsfagent.so"; do
  [ -e "$need" ] || { echo "skip: $need is not built (make integration-instrument builds it)"; exit 77; }
done
RW=$TEST_TMP/rw
BLOCKS=$TEST_TMP/blocks.tsv
mkdir -p "$RW" "$TEST_TMP/cwd"
cd "$TEST_TMP/cwd"    # programs run here: Noisy writes files into its working directory

# rewrite_tree IN OUT FIRST_ID: rewrite every class under IN into OUT; prints
# "next_id skipped_methods failed_classes".
rewrite_tree() {
  local in=$1 out=$2 id=$3 skipped=0 failed=0 f o
  while IFS= read -r f; do
    mkdir -p "$out/$(dirname "$f")"
    if o=$("$REWRITE" -K -f branched -b branch -e entry -a array -c copy -m made -k call -r returned -n allocated -i "$id" "$in/$f" "$out/$f" "$BLOCKS" 2>>"$TEST_TMP/rewrite.err"); then
      # shellcheck disable=SC2086 # its words: next_id N done D skipped S
      set -- $o
      id=$2
      skipped=$((skipped + $6))
    else
      failed=$((failed + 1))
    fi
  done < <(cd "$in" && find . -name '*.class' | sort)
  echo "$id $skipped $failed"
}

# --- 1. fixtures: rewritten, verified, same output -------------------------
read -r next skipped failed < <(rewrite_tree "$FX" "$RW" 0)
expect_eq "fixtures: every class rewritten" "$failed" 0
expect_eq "fixtures: every method instrumented" "$skipped" 0
expect_match "fixtures: probe ids handed out" "$next" '^[1-9][0-9]+$'

# plain JVM run vs the rewritten classes under -Xverify:all; sets $HITS
run_both() {
  local name=$1 plain_rc=0 probe_rc=0
  shift
  HITS=$TEST_TMP/hits.$name
  "$JAVA" -cp "$FX" "$@" >"$TEST_TMP/plain.out" 2>"$TEST_TMP/plain.err" || plain_rc=$?
  "$JAVA" -Xverify:all -cp "$PROBE:$RW" psfrun.ProbeMain "$HITS" "$@" \
    >"$TEST_TMP/probe.out" 2>"$TEST_TMP/probe.err" || probe_rc=$?
  if cmp -s "$TEST_TMP/plain.out" "$TEST_TMP/probe.out" && [ "$plain_rc" = "$probe_rc" ]; then
    pass "$name: same output and exit status ($plain_rc) under -Xverify:all"
  else
    fail "$name: output or exit status differs" "plain $plain_rc, rewritten $probe_rc: $(head -c 300 "$TEST_TMP/probe.err")"
  fi
}

# Hashing and Calls natives print identity hash codes, which depend on what
# ran before on the thread (the harness's reflection moves them): not compared.
while read -r name args; do
  # shellcheck disable=SC2086
  run_both "$name" $args
done <<'EOF'
loops Loops 1000
fib Fib 20
branches-dowhile Branches doWhile 100
branches-init Branches init 300
tailrec-down TailRec down 10
tailrec-count TailRec count 1000
tailrec-walk TailRec walk 100
tailrec-unwind TailRec unwind 10
pooltwice PoolTwice 2
exceptions Exceptions
overloads Overloads
calls-chain Calls chain 10
calls-spread Calls spread 50
calls-fence Calls fence 0
calls-allocs Calls allocs 0
calls-intrinsic Calls intrinsic 0
constants-mixed Constants mixed 10
constants-wide Constants wide 50
nested Nested
arraysizes ArraySizes 5
classinit ClassInit
staticwork-get StaticWork get
staticwork-fails StaticWork fails
owninit-ctors OwnInit ctors
owninit-reflect OwnInit reflect
maininit MainInit
diamond Diamond diamond
longdesc LongDesc long
concat Concat
noisy Noisy
EOF

# --- 2. hits x blocks = the step engine's counts ---------------------------
# method_ops HITS: "method opcode count" for every method and opcode the
# probes saw, from the hits and the block table.
method_ops() {
  awk -F'\t' 'NR == FNR { split($0, h, " "); hits[h[1]] = h[2]; next }
    ($1 in hits) { n = split($6, ops, ","); for (i = 1; i <= n; i++) { split(ops[i], kv, "=");
      c[$2 " " kv[1]] += hits[$1] * kv[2] } }
    END { for (k in c) print k, c[k] }' "$1" "$BLOCKS" | sort
}

# profile_ops PROFILE: the same from the step engine's <methods> section.
profile_ops() {
  xmllint --xpath '/psf-profile/methods/method/@name' "$1" 2>/dev/null | tr ' ' '\n' | sed -n 's/^name="\(.*\)"$/\1/p' >"$TEST_TMP/names"
  local m
  while IFS= read -r m; do
    xmllint --xpath "/psf-profile/methods/method[@name='$m']/opcode" "$1" 2>/dev/null | tr '>' '\n' |
      awk -v m="$m" 'match($0, /name="[^"]*"/) { op = substr($0, RSTART + 6, RLENGTH - 7);
        match($0, /work="[0-9]+"/); w = substr($0, RSTART + 6, RLENGTH - 7); if (w > 0) print m, op, w }'
  done <"$TEST_TMP/names" | sort
}

# compare NAME SPEC WANT_TOTAL MAIN ARGS...: the step engine's profile of the
# run, the probes' counts restricted to the profile's methods, and the total.
compare() {
  local name=$1 spec=$2 want=$3 P=$TEST_TMP/p.xml
  shift 3
  run_agent "$P" "$spec" "$FX" "$@"
  expect_eq "$name: step engine ok" "$(xpath "$P" /psf-profile/@status)" ok
  run_both "$name" "$@"
  profile_ops "$P" >"$TEST_TMP/step.ops"
  cut -d' ' -f1 "$TEST_TMP/step.ops" | sort -u >"$TEST_TMP/step.methods"
  method_ops "$HITS" | awk 'NR == FNR { keep[$1] = 1; next } ($1 in keep)' "$TEST_TMP/step.methods" - >"$TEST_TMP/fast.ops"
  # (none read from the profile would compare equal to none kept)
  if [ ! -s "$TEST_TMP/step.ops" ]; then
    fail "$name: per-method opcode counts" "none read from the step engine's profile"
  elif cmp -s "$TEST_TMP/step.ops" "$TEST_TMP/fast.ops"; then
    pass "$name: probe hits x block histograms = the step engine, method by method, opcode by opcode ($(wc -l <"$TEST_TMP/step.ops") counts)"
  else
    fail "$name: per-method opcode counts differ" "$(diff "$TEST_TMP/step.ops" "$TEST_TMP/fast.ops" | head -5 | tr '\n' ' ')"
  fi
  local fast_total
  fast_total=$(awk '{ s += $3 } END { print s + 0 }' "$TEST_TMP/fast.ops")
  expect_eq "$name: step engine total" "$(xpath "$P" /psf-profile/summary/@work)" "$fast_total"
  [ "$want" = - ] || expect_eq "$name: probe total = the hand count" "$fast_total" "$want"
  br() { xpath "$P" "/psf-profile/branches[@bucket='work']/@$1"; }
  expect_eq "$name: branch outcomes through the predictor = the step engine's branches" \
    "$("$REWRITE" -B "$TEST_TMP/step.methods" "$BLOCKS" <"$HITS.branches")" \
    "conditional $(br conditional) taken $(br taken) mispredicted $(br mispredicted)"
  # entries: the entry probe of each method passes its block 0's id
  local entries
  entries=$(awk -F'\t' 'FILENAME == ARGV[1] { keep[$0] = 1; next }
    FILENAME == ARGV[2] { split($0, h, " "); n[h[1]] = h[2]; next }
    ($2 in keep) && $3 == 0 && ($1 in n) { s += n[$1] } END { print s + 0 }' \
    "$TEST_TMP/step.methods" "$HITS.entries" "$BLOCKS")
  expect_eq "$name: entry probes = the step engine's method entries" "$entries" \
    "$(xpath "$P" "/psf-profile/calls[@bucket='work']/@entries")"
}

# hand counts: tests/integration/agent_counts.sh
compare loops-sum Loops.sum 9009 Loops 1000                 # 9n + 9
compare fib Fib.fib 207961 Fib 20                           # 10946*6 + 10945*13
compare tailrec-down TailRec.down 73 TailRec down 10        # 7n + 3
compare tailrec-count TailRec.count 10004 TailRec count 1000 # 10n + 4
compare branches-dowhile Branches.doWhile - Branches doWhile 100
compare calls-chain Calls.chain - Calls chain 10
compare calls-spread Calls.spread - Calls spread 50

# --- 3. the JDK's java.util, rewritten and patched into java.base ----------
JDK=$TEST_TMP/jdk
JDKRW=$TEST_TMP/jdkrw
ncopied=$("$JAVA" -cp "$PROBE" psfrun.JrtCopy "$JDK" java.base java/util)
expect_match "jdk: java.util classes read from the jrt image" "$ncopied" '^[0-9]{3,}$'
read -r jnext jskipped jfailed < <(rewrite_tree "$JDK" "$JDKRW" 1000000)
expect_eq "jdk: every java.util class rewritten" "$jfailed" 0
expect_eq "jdk: every java.util method instrumented" "$jskipped" 0
mkdir -p "$JDKRW/psf" "$TEST_TMP/harness/psfrun"
cp "$PROBE/psf/Probe.class" "$JDKRW/psf/"                  # the probe lives in java.base
cp "$PROBE"/psfrun/*.class "$TEST_TMP/harness/psfrun/"      # the harness on the class path
"$JAVA" -cp "$PROBE" psfrun.JdkWork 3000 >"$TEST_TMP/plain.out" 2>&1
rc=0
"$JAVA" -Xverify:all --patch-module "java.base=$JDKRW" --add-exports java.base/psf=ALL-UNNAMED \
  -cp "$TEST_TMP/harness" psfrun.ProbeMain "$TEST_TMP/hits.jdk" psfrun.JdkWork 3000 >"$TEST_TMP/probe.out" 2>&1 || rc=$?
expect_eq "jdk: the workload runs on the rewritten java.util under -Xverify:all" "$rc" 0
if cmp -s "$TEST_TMP/plain.out" "$TEST_TMP/probe.out"; then
  pass "jdk: same output"
else
  fail "jdk: output differs" "$(diff "$TEST_TMP/plain.out" "$TEST_TMP/probe.out" | head -5 | tr '\n' ' ')"
fi
fired=$(awk -v lo=1000000 -v hi="$jnext" '$1 >= lo && $1 < hi' "$TEST_TMP/hits.jdk" | wc -l)
expect_match "jdk: java.util probes fired ($fired blocks)" "$fired" '^[0-9]{3,}$'

finish
