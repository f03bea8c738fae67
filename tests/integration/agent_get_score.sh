#!/usr/bin/env bash
# agent_get_score.sh - scripts/get_score.sh end to end: JSON, exit codes,
# nothing in the working directory, score files, concurrency, determinism.
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }

# Run from an empty directory that must stay empty.
CWD=$TEST_TMP/cwd
mkdir -p "$CWD"
cd "$CWD"
gs() { "$GS" "$@" 2>>"$TEST_TMP/gs.err"; }

# --- JSON: exactly one object, the fields a grading server reads -------------
out=$(gs --classpath "$FX" --method Noisy.work --json --costs none -- 1000) && rc=0 || rc=$?
expect_eq "json: exit 0" "$rc" 0
expect_eq "json: one object on stdout" "$(jq -s 'length' <<<"$out")" 1
expect_eq "json: status" "$(jq -r .status <<<"$out")" ok
# Noisy.work(n) is Loops.sum's loop: 9n + 9 bytecodes.
expect_eq "json: bytecodes = 9n+9" "$(jq -r .bytecodes <<<"$out")" 9009
expect_eq "json: score = bytecodes without a cost table" "$(jq -r .score <<<"$out")" 9009
expect_eq "json: exact without a cost table" "$(jq -r .approximate <<<"$out")" false
expect_eq "json: runtime_bytecodes" "$(jq -r .runtime_bytecodes <<<"$out")" 0
expect_eq "json: invocations" "$(jq -r .invocations <<<"$out")" 1
expect_eq "json: opcodes.iinc = n" "$(jq -r .opcodes.iinc <<<"$out")" 1000
expect_eq "json: method resolved" "$(jq -r .method <<<"$out")" "Noisy.work(I)I"
expect_match "json: jdk recorded" "$(jq -r .jdk <<<"$out")" '^(17|1[89]|[2-9][0-9])'
expect_eq "json: program output kept off stdout" "$(grep -c 'score: 1' <<<"$out" || true)" 0
expect_match "json: program output on stderr" "$(cat "$TEST_TMP/gs.err")" "noise on stderr"
expect_eq "cwd: nothing written into the working directory" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0
# no profile kept (no --profile-out): the result names none, not the
# scratch copy it was scored from, which is gone with the run
expect_eq "json: no profile kept, none named" "$(jq -r .profile <<<"$out")" null
out=$(gs --classpath "$FX" --method Noisy.work --json --costs none --profile-out "$TEST_TMP/kept.xml" -- 1000)
expect_eq "json: the profile kept is the one named" "$(jq -r .profile <<<"$out")/$(grep -c '<summary' "$TEST_TMP/kept.xml")" \
  "$TEST_TMP/kept.xml/1"
: >"$TEST_TMP/gs.err"
gs --classpath "$FX" --method Noisy.nosuch --costs none -- 1000 >/dev/null || true
expect_eq "text: a failure names no profile that was not kept; no such method: the class's methods named" \
  "$(grep '^psf-score:' "$TEST_TMP/gs.err")" \
  "psf-score: method_not_found: the class was loaded but has no method Noisy.nosuch (its methods: <init>, main, work)"
# only the descriptor wrong: the name's descriptors (both engines: the target is found before either counts)
for engine in fast step; do
  out=$(gs --classpath "$FX" --method 'Noisy.work(J)J' --json --costs none --engine $engine -- 1000) || true
  expect_eq "json, engine $engine: no such descriptor: the name's named" "$(jq -r .status,.message <<<"$out" | tr '\n' '|')" \
    "method_not_found|the class was loaded but has no method Noisy.work(J)J (work takes (I)I)|"
done

# PSF_BUILD relative to the working directory (the JVM needs an absolute agent path)
rel=$(realpath --relative-to="$CWD" "$PSF_BUILD")
out=$(PSF_BUILD=$rel gs --classpath "$FX" --method Noisy.work --json --costs none -- 1000) && rc=0 || rc=$?
expect_eq "relative PSF_BUILD ($rel): scored" "$rc/$(jq -r .bytecodes <<<"$out")" 0/9009

# --- psf-score's runs: the early questions of one --batch, then the result ----------
# A build whose psf-score notes each call's first argument, then runs the
# real one (or, with PSF_TEST_NO_BATCH, answers --batch with nothing at all:
# get_score.sh then asks each question on its own; with PSF_TEST_NO_MORE, a
# --batch --more runs as a --batch, which answers the early questions and
# ends without waiting for the result's request). The agent is a copy: the
# sandbox shows the build directory, not what a link in it points to.
WB=$TEST_TMP/wrapbuild
mkdir -p "$WB"
cp "$PSF_BUILD/libpsfagent.so" "$WB/"
ln -s "$PSF_BUILD/psf-receive" "$WB/psf-receive"
# shellcheck disable=SC2016 # the wrapper's own $1 and environment
printf '#!/bin/sh\necho "$1" >>"%s"\n[ "$1" != --batch ] || [ -z "${PSF_TEST_NO_BATCH:-}" ] || exit 70\nif [ "$1 $2" = "--batch --more" ] && [ -n "${PSF_TEST_NO_MORE:-}" ]; then shift 2; set -- --batch "$@"; fi\nexec "%s" "$@"\n' \
  "$TEST_TMP/calls" "$PSF_BUILD/psf-score" >"$WB/psf-score"
chmod +x "$WB/psf-score"
: >"$TEST_TMP/calls"
out=$(PSF_BUILD=$WB gs --classpath "$FX" --method Noisy.work --json -- 1000) && rc=0 || rc=$?
expect_eq "psf-score runs: scored" "$rc/$(jq -r .score <<<"$out")/$(jq -r .verification <<<"$out")" \
  "0/$(jq -r .score <<<"$(gs --classpath "$FX" --method Noisy.work --json -- 1000)")/verified"
# (the result too is the batch's: it waited for it while the JVM ran)
expect_eq "psf-score runs: one --batch (key, table, digests, TSC rate, the result), nothing else" \
  "$(tr '\n' ' ' <"$TEST_TMP/calls")" "--batch "
: >"$TEST_TMP/calls"
out3=$(PSF_TEST_NO_MORE=1 PSF_BUILD=$WB gs --classpath "$FX" --method Noisy.work --json -- 1000) && rc=0 || rc=$?
expect_eq "psf-score runs: a --batch that does not wait for the result: the result scored on its own, the same" \
  "$rc/$(jq -c '[.score, .status, .verification, .submission, .cost_table.sha256]' <<<"$out3")" \
  "0/$(jq -c '[.score, .status, .verification, .submission, .cost_table.sha256]' <<<"$out")"
expect_eq "psf-score runs: a --batch that does not wait for the result: one more psf-score, for the result" \
  "$(tr '\n' ' ' <"$TEST_TMP/calls")" "--batch --costs "
: >"$TEST_TMP/calls"
out2=$(PSF_TEST_NO_BATCH=1 PSF_BUILD=$WB gs --classpath "$FX" --method Noisy.work --json -- 1000) && rc=0 || rc=$?
expect_eq "psf-score runs: a --batch that answers nothing: each asked on its own, the same result" \
  "$rc/$(jq -c '[.score, .status, .verification, .submission, .cost_table.sha256]' <<<"$out2")" \
  "0/$(jq -c '[.score, .status, .verification, .submission, .cost_table.sha256]' <<<"$out")"
expect_eq "psf-score runs: a --batch that answers nothing: the questions asked on their own" \
  "$(tr '\n' ' ' <"$TEST_TMP/calls")" "--batch --init-key --check-table --submission-digests --costs "

# --- the default cost table (shipped) -----------------------------------------
out=$(gs --classpath "$FX" --method Noisy.work --json -- 10) && rc=0 || rc=$?
expect_eq "default table: exit 0" "$rc" 0
expect_match "default table: sha256 recorded" "$(jq -r .cost_table.sha256 <<<"$out")" '^[0-9a-f]{64}$'
. "$PSF_ROOT/scripts/lib/jdk.sh"
JDK_FEATURE=$(psf_jdk_feature "$JAVA")
case $JDK_FEATURE in
  17) want_table=$PSF_ROOT/config/costs.xml ;;
  *) want_table=$PSF_ROOT/config/costs-jdk$JDK_FEATURE.xml ;;
esac
expect_eq "default table: the one of JDK $JDK_FEATURE" "$(jq -r .cost_table.path <<<"$out")" "$want_table"
expect_eq "default table: calibrated on this JDK, exact" "$(jq -r '"\(.approximate) \(.table_jdk_mismatch)"' <<<"$out")" "false false"

# --- a table of another JDK: approximate, and the result says why -------------------
sed 's/jdk_version="[^"]*"/jdk_version="11.0.2+9"/' "$PSF_ROOT/config/costs.xml" >"$TEST_TMP/costs-jdk11.xml"
out=$(gs --classpath "$FX" --method Noisy.work --json --costs "$TEST_TMP/costs-jdk11.xml" -- 10) && rc=0 || rc=$?
expect_eq "table of JDK 11: scored" "$rc/$(jq -r .approximate <<<"$out")" "0/true"
expect_eq "table of JDK 11: the reason" "$(jq -r .approximate_reason <<<"$out")" \
  "the cost table was calibrated on JDK 11, the profile was counted on JDK $JDK_FEATURE"
expect_match "table of JDK 11: text says so" "$(gs --classpath "$FX" --method Noisy.work --costs "$TEST_TMP/costs-jdk11.xml" -- 10)" \
  "approximate: the cost table was calibrated on JDK 11"
gs --classpath "$FX" --method Noisy.work --costs "$TEST_TMP/costs-jdk11.xml" --score-file "$TEST_TMP/score11" -- 10 >/dev/null
expect_match "table of JDK 11: score file has the ~" "$(cat "$TEST_TMP/score11")" '^~[0-9]+$'
# which table a feature version gets: its own, else the nearest (newer on a tie)
mkdir -p "$TEST_TMP/root/config"
: >"$TEST_TMP/root/config/costs.xml"
: >"$TEST_TMP/root/config/costs-jdk25.xml"
for pair in 17:costs.xml:17 21:costs-jdk25.xml:25 25:costs-jdk25.xml:25 19:costs.xml:17 30:costs-jdk25.xml:25; do
  v=${pair%%:*}
  expect_eq "table for JDK $v" "$(psf_jdk_table "$TEST_TMP/root" "$v" | sed "s|^$TEST_TMP/root/config/||" | tr '\t' :)" "${pair#*:}"
done
# the flags each JDK adds to the pinned ones: the JIT's on every version
# (the intrinsics of that version switched off), then the version's own
jit() { printf '%s ' -XX:+UnlockDiagnosticVMOptions "-XX:DisableIntrinsic=$(psf_jdk_intrinsics "$1")" -XX:-OptimizeStringConcat; }
expect_eq "flags: 17, the JIT's only" "$(psf_jdk_flags 17 | tr '\n' ' ')" "$(jit 17)"
expect_eq "flags: 21" "$(psf_jdk_flags 21 | tr '\n' ' ')" "$(jit 21)-Djdk.virtualThreadScheduler.parallelism=1 "
expect_eq "flags: 25" "$(psf_jdk_flags 25 | tr '\n' ' ')" \
  "$(jit 25)-Djdk.virtualThreadScheduler.parallelism=1 --illegal-native-access=deny --sun-misc-unsafe-memory-access=deny -XX:-UseCompactObjectHeaders "
# the intrinsics of the fidelity corpora's differences and of the Intrinsics
# fixture are in every list; one name per JDK that only the other has
for v in 17 21 25; do
  expect_match "intrinsics $v: Math.min, Preconditions.checkIndex, Integer.bitCount" \
    ",$(psf_jdk_intrinsics "$v")," ',_min,.*,_bitCount_i,.*,_Preconditions_checkIndex,'
done
has() { for v in 17 21 25; do [[ ,$(psf_jdk_intrinsics "$v"), =~ ,$1, ]] && printf '%s ' "$v"; done; }
expect_eq "intrinsics: _hasNegatives (gone by 25) in 17's list only" "$(has _hasNegatives)" "17 "
expect_eq "intrinsics: _roundD (added after 17) in 25's list only" "$(has _roundD)" "25 "
# the list of the JDK at hand starts it (HotSpot refuses an intrinsic name it
# does not know: a misspelled one, as the second run shows, or one of another
# version's list); jdk_25.sh runs this suite on JDK 25 too
rc=0
"$JAVA" "${PINNED_FLAGS[@]}" -version >"$TEST_TMP/jvm.out" 2>&1 || rc=$?
expect_eq "the JDK at hand ($(psf_jdk_feature "$JAVA")) starts with its pinned flags and intrinsics list" "$rc $(grep -c Unrecognized "$TEST_TMP/jvm.out" || true)" "0 0"
rc=0
"$JAVA" "${PINNED_FLAGS[@]}" -XX:DisableIntrinsic=_mni -version >"$TEST_TMP/jvm.out" 2>&1 || rc=$?
expect_match "... and refuses to start with a misspelled name" "$rc $(cat "$TEST_TMP/jvm.out")" '^[1-9][0-9]* Unrecognized intrinsic detected in DisableIntrinsic: _mni'

# --- human output and --program-output ----------------------------------------
out=$(gs --classpath "$FX" --method Noisy.work --costs none --program-output "$TEST_TMP/prog.txt" -- 10) && rc=0 || rc=$?
expect_eq "text: exit 0" "$rc" 0
expect_match "text: shows the score" "$out" "score +99"
expect_match "text: program output went to the file" "$(cat "$TEST_TMP/prog.txt")" "noise on stderr"
# With the shipped table the summary keeps the model's internals to --explain,
# where each comes with a sentence saying what it is.
out=$(gs --classpath "$FX" --method Noisy.work --program-output /dev/null -- 10)
expect_match "text: bytecodes and invocations" "$out" "bytecodes 99 run by the method and its callees in 1 invocation"
expect_eq "text: no internals without --explain" "$(grep -ci 'closeness\|fence\|branch\|predictor\|overhead\|fit r2' <<<"$out" || true)" 0
out=$(gs --classpath "$FX" --method Noisy.work --program-output /dev/null --explain -- 10)
expect_match "explain: method entries and their closeness" "$out" "calls     1 method entries, closeness 0 "
expect_match "explain: closeness is explained" "$out" "the table prices each bytecode short"

# --- --score-file ---------------------------------------------------------------
gs --classpath "$FX" --method Noisy.work --costs none --score-file "$TEST_TMP/score" -- 10 >/dev/null
expect_eq "score file: bare score" "$(cat "$TEST_TMP/score")" 99
gs --classpath "$FX" --method Noisy.work --costs "$PSF_ROOT/config/costs-uncalibrated.xml" --score-file "$TEST_TMP/score" -- 10 >/dev/null
expect_eq "score file: ~ when approximate (uncalibrated table)" "$(cat "$TEST_TMP/score")" "~99"
expect_eq "score file: no temporary left" "$(find "$TEST_TMP" -mindepth 1 -maxdepth 1 -name '*psf-score*' | wc -l)" 0

# --- exit codes -------------------------------------------------------------------
code() { gs "$@" >"$TEST_TMP/code.out" && echo 0 || echo $?; }
expect_eq "usage: no class path" "$(code --method A.b)" 2
expect_eq "usage: unknown option" "$(code --classpath "$FX" --method A.b --colour)" 2
expect_eq "usage: spec that does not parse" "$(code --classpath "$FX" --main Loops --method 'Loops.sum(Q)' -- 1)" 2
expect_eq "usage: an @argfile as main class" "$(code --classpath "$FX" --main @/etc/passwd --method Loops.sum)" 2
expect_eq "usage: a JVM option as main class" "$(code --classpath "$FX" --main -XX:+UseTLAB --method Loops.sum)" 2
expect_eq "class path entry missing" "$(code --classpath "$TEST_TMP/nope" --method Loops.sum -- 1)" 3
expect_eq "class never loaded" "$(code --classpath "$FX" --main Loops --method Absent.sum -- 1)" 3
expect_eq "ambiguous overloads" "$(code --classpath "$FX" --method Overloads.twice --json)" 4
expect_eq "ambiguous: candidates in JSON" "$(jq -c .candidates "$TEST_TMP/code.out")" '["Overloads.twice(I)I","Overloads.twice(J)J"]'
expect_eq "method not found" "$(code --classpath "$FX" --method Overloads.nothing)" 4
expect_eq "never invoked" "$(code --classpath "$FX" --method Overloads.never)" 5
expect_eq "program failed after the method" "$(code --classpath "$FX" --method Noisy.work --json -- 5 3)" 8
expect_eq "program failed: no score" "$(jq -r .score "$TEST_TMP/code.out")" null
expect_eq "unreadable cost table" "$(code --classpath "$FX" --method Noisy.work --costs "$TEST_TMP/none.xml" --json -- 1)" 7
expect_eq "bad input: status word" "$(jq -r .status "$TEST_TMP/code.out")" bad_input
expect_eq "JAVA_HOME without java" "$(JAVA_HOME=$TEST_TMP code --classpath "$FX" --method Noisy.work -- 1)" 24
# A JDK newer than the verified ones is refused by name (its new options and
# APIs may undo the pinning): a stand-in java that reports version 26
mkdir -p "$TEST_TMP/jdk26/bin"
printf '#!/bin/sh\necho "    java.specification.version = 26" >&2\n' > "$TEST_TMP/jdk26/bin/java"
chmod +x "$TEST_TMP/jdk26/bin/java"
expect_eq "JDK 26: refused" "$(JAVA_HOME=$TEST_TMP/jdk26 code --classpath "$FX" --method Noisy.work -- 1)" 24
expect_match "JDK 26: says why" "$(JAVA_HOME=$TEST_TMP/jdk26 "$PSF_ROOT/scripts/get_score.sh" --json --classpath "$FX" --method Noisy.work -- 1 2>/dev/null | jq -r .message)" "Java 26; PSF supports JDK 17, 21, 25"
expect_eq "cwd: still empty after failures" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0

# --- many runs at once from one directory ---------------------------------------
# (four JVMs at once take several times one's time, more on a busy machine:
# --timeout 600, so that what is checked is the runs' separation, not speed)
for i in 1 2 3 4; do
  gs --classpath "$FX" --method Noisy.work --json --costs none --timeout 600 -- 50 >"$TEST_TMP/par.$i" &
done
wait
for i in 1 2 3 4; do
  expect_eq "concurrent run $i: score" "$(jq -r .score "$TEST_TMP/par.$i")" 459
done

# --- --engine: fast counts itself, and falls back to step where it cannot --------
# count a run exactly: the same score either way, the JSON says which engine
# counted and why it fell back. A run the fast engine leaves to the step
# engine after the method made its file (Marker counts 1000 more numbers
# where it finds the file it leaves) is run again from a fresh work
# directory; one that passes the bytecode limit stops where the step engine
# stops, with its profile.
step=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --engine step -- 1000) && rc=0 || rc=$?
expect_eq "engine step: scored, no fallback" "$rc/$(jq -r '"\(.status) \(.engine) \(.fallback)"' <<<"$step")" "0/ok step null"
fast=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --engine fast -- 1000) && rc=0 || rc=$?
expect_eq "engine fast: scored by the fast engine" "$rc/$(jq -r '"\(.status) \(.engine) \(.fallback)"' <<<"$fast")" \
  "0/ok fast null"
expect_eq "engine fast: the same score and counts as step" "$(jq -c '[.score, .bytecodes, .opcodes, .calls, .branches]' <<<"$fast")" \
  "$(jq -c '[.score, .bytecodes, .opcodes, .calls, .branches]' <<<"$step")"
out=$(gs --classpath "$FX" --method Marker.work --costs none --sandbox off --engine fast -- 1000) && rc=0 || rc=$?
expect_match "engine fast: the text says which engine counted" "$out" $'\nengine    fast$'
out=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --engine fast --runs 2 -- 1000) && rc=0 || rc=$?
expect_eq "engine fast, 2 runs: one score, step's" "$rc/$(jq -r '"\(.distinct_scores) \(.score) \(.engine)"' <<<"$out")" \
  "0/1 $(jq -r .score <<<"$step") fast"
# a thread started after the file exists: fast falls back
step=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --engine step -- 1000 helper) && rc=0 || rc=$?
expect_eq "engine step, a helper thread: scored" "$rc/$(jq -r '"\(.status) \(.engine)"' <<<"$step")" "0/ok step"
fast=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --engine fast -- 1000 helper) && rc=0 || rc=$?
expect_eq "engine fast, a helper thread: scored by the step engine" "$rc/$(jq -r '"\(.status) \(.engine)"' <<<"$fast")" "0/ok step"
expect_eq "engine fast, a helper thread: the same score as step (a fresh work directory)" \
  "$(jq -r .score <<<"$fast")" "$(jq -r .score <<<"$step")"
expect_match "engine fast, a helper thread: the JSON says why it fell back" "$(jq -r .fallback <<<"$fast")" \
  "^engine=fast cannot count this run exactly: .*(threads started by the method|which this engine does not count)"
out=$(gs --classpath "$FX" --method Marker.work --costs none --sandbox off --engine fast -- 1000 helper) && rc=0 || rc=$?
expect_match "engine fast, a helper thread: the text says so too" "$out" \
  $'\nengine    step, as --engine fast fell back: engine=fast cannot count'
# the bytecode limit, inside the loop: the step engine's stop, bytecode for bytecode
step=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --engine step --max-bytecodes 5000 -- 1000) && rc=0 || rc=$?
expect_eq "engine step, limit: bytecode_limit" "$rc/$(jq -r '"\(.status) \(.bytecodes)"' <<<"$step")" "17/bytecode_limit 5001"
fast=$(gs --classpath "$FX" --method Marker.work --json --costs none --sandbox off --max-bytecodes 5000 --engine fast -- 1000) && rc=0 || rc=$?
expect_eq "engine fast, limit: bytecode_limit, counted by the fast engine, no fallback" \
  "$rc/$(jq -r '"\(.status) \(.engine) \(.fallback)"' <<<"$fast")" "17/bytecode_limit fast null"
expect_eq "engine fast, limit: the same counts as step's" "$(jq -c '[.bytecodes, .opcodes, .branches, .message]' <<<"$fast")" \
  "$(jq -c '[.bytecodes, .opcodes, .branches, .message]' <<<"$step")"
out=$(gs --classpath "$FX" --method Marker.work --json --engine turbo -- 1000) && rc=0 || rc=$?
expect_eq "engine turbo: usage (2)" "$rc/$(jq -r .status <<<"$out")" "2/usage"
expect_eq "engine: nothing written into the working directory" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0

# --- determinism: identity hash codes (HashSet<Object>) -----------------------------
scores=()
for i in 1 2 3 4 5; do
  scores+=("$(gs --classpath "$FX" --method Hashing.work --json --costs none | jq -r .score)")
done
scores+=("$(taskset -c 0 "$GS" --classpath "$FX" --method Hashing.work --json --costs none 2>/dev/null | jq -r .score)")
expect_match "determinism: a score" "${scores[0]}" '^[0-9]+$'
expect_eq "determinism: 5 runs and taskset -c 0 agree" "$(printf '%s\n' "${scores[@]}" | sort -u | wc -l)" 1
# the same with the shipped table, which prices the simulated branch
# mispredictions: the predictor's misses are a function of the path alone
scores=()
for i in 1 2 3; do
  gs --classpath "$FX" --method Hashing.work --profile-out "$TEST_TMP/h.$i.xml" >/dev/null
  scores+=("$(xpath "$TEST_TMP/h.$i.xml" "concat(//branches[@bucket='work']/@conditional,' ',//branches[@bucket='work']/@mispredicted)")")
done
expect_match "determinism: branch counts" "${scores[0]}" '^[1-9][0-9]* [1-9][0-9]*$'
expect_eq "determinism: 3 runs, the same branch counts" "$(printf '%s\n' "${scores[@]}" | sort -u | wc -l)" 1

finish
