#!/usr/bin/env bash
# agent_server_io.sh - get_score.sh as a grading server uses it: outputs that
# are checked before the run and written atomically after it, inputs refused
# before the program starts, and class-path links that cannot expose files.
# (issue 22, items 1 to 4)
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
D=$TEST_TMP/out
mkdir -p "$D"
cd "$TEST_TMP"

# gs ARGS...: get_score.sh with --json; stdout in $TEST_TMP/gs.out, exit code echoed.
# `timeout` only guards the test against a hang (an old failure mode).
gs() {
  timeout -k 5 300 "$GS" --json "$@" >"$TEST_TMP/gs.out" 2>"$TEST_TMP/gs.err" && echo 0 || echo $?
}
objects() { jq -s length "$TEST_TMP/gs.out"; }
field() { jq -r ".$1" "$TEST_TMP/gs.out"; }

# --- 1. parallel runs sharing one --profile-out each report their own result ----
# Noisy.work(n) executes 9n+9 bytecodes. Eight runs alternate n = 10 and
# n = 20 and keep their profiles at the same path, while another process
# keeps writing a forged profile (a score of 1) to that path. (Eight JVMs at
# once on a machine of two cores take several times one's time, and more on
# a busy one: --timeout 600, so that what is checked is the profile, not the
# machine's speed.)
printf '<?xml version="1.0"?>\n<psf-profile/>\n' >"$TEST_TMP/forged.xml"
( while :; do cp "$TEST_TMP/forged.xml" "$D/shared.xml.new" 2>/dev/null && mv -f "$D/shared.xml.new" "$D/shared.xml"; sleep 0.05; done ) &
writer=$!
for i in 1 2 3 4 5 6 7 8; do
  n=$((i % 2 == 0 ? 20 : 10))
  "$GS" --json --costs none --timeout 600 --classpath "$FX" --method Noisy.work --profile-out "$D/shared.xml" -- "$n" \
    >"$TEST_TMP/par.$i" 2>/dev/null &
done
wait_pids=$(jobs -p | grep -v "^$writer\$" || true)
for p in $wait_pids; do wait "$p" || true; done
kill "$writer"
wait "$writer" 2>/dev/null || true
for i in 1 2 3 4 5 6 7 8; do
  n=$((i % 2 == 0 ? 20 : 10))
  expect_eq "shared --profile-out: run $i reports its own score" \
    "$(jq -r '[.status, .score] | join(" ")' "$TEST_TMP/par.$i")" "ok $((9 * n + 9))"
done
expect_eq "shared --profile-out: no temporary file left beside it" "$(find "$D" -mindepth 1 -maxdepth 1 -name '.psf*' | wc -l)" 0

# /dev/null is the documented way to discard an output
expect_eq "--profile-out /dev/null: scored" "$(gs --costs none --classpath "$FX" --method Noisy.work --profile-out /dev/null -- 10)" 0
expect_eq "--profile-out /dev/null: the score" "$(field score)" 99
expect_eq "/dev/null is still a device" "$(stat -c %F /dev/null)" "character special file"

# a directory: refused before the run, nothing left inside
mkdir "$D/dir"
expect_eq "--profile-out a directory: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --profile-out "$D/dir" -- 10)" 2
expect_eq "--profile-out a directory: one JSON object" "$(objects)" 1
expect_eq "--profile-out a directory: status" "$(field status)" usage
expect_match "--profile-out a directory: says why" "$(field message)" "is a directory"
expect_eq "--profile-out a directory: nothing written inside" "$(find "$D/dir" -mindepth 1 -maxdepth 1 | wc -l)" 0

# --- 2. --score-file never replaces a device, directory or FIFO ------------------------
expect_eq "--score-file /dev/zero: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file /dev/zero -- 10)" 2
expect_eq "--score-file /dev/zero: still a device" "$(stat -c %F /dev/zero)" "character special file"
expect_eq "--score-file a directory: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/dir" -- 10)" 2
expect_eq "--score-file a directory: no temporary inside" "$(find "$D/dir" -mindepth 1 -maxdepth 1 | wc -l)" 0
mkfifo "$D/fifo"
expect_eq "--score-file a FIFO: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/fifo" -- 10)" 2
expect_eq "--score-file a FIFO: still a FIFO" "$(stat -c %F "$D/fifo")" fifo
expect_eq "--score-file in a missing directory: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/nodir/s" -- 10)" 2
expect_eq "--score-file in a missing directory: one JSON object" "$(objects)" 1
expect_match "--score-file in a missing directory: says why" "$(field message)" "does not exist"
ln -s "$TEST_TMP/forged.xml" "$D/link"
expect_eq "--score-file a symbolic link: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/link" -- 10)" 2
expect_eq "--score-file a symbolic link: its target untouched" "$(head -c 5 "$TEST_TMP/forged.xml")" "<?xml"
expect_eq "same path for two outputs: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/x" --profile-out "$D/x" -- 10)" 2
expect_eq "same file spelled twice for two outputs: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/x" --junit "$D/dir/../x" -- 10)" 2
expect_match "same file spelled twice: says so" "$(field message)" "name the same file"
# A run that ends without a score leaves no score file (an earlier run's
# score there would read as this one's); a command line refused before the
# outputs are checked leaves it alone.
S=$D/score
left() { if [ -e "$S" ]; then cat "$S"; else echo gone; fi; }
expect_eq "--score-file: scored" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$S" -- 10) $(left)" "0 99"
expect_eq "--score-file, a usage error: exit 2, the file left alone" \
  "$(gs --costs none --classpath "$FX" --method Noisy.work --heap 1k --score-file "$S" -- 10) $(left)" "2 99"
expect_eq "--score-file, no such method (the scorer's status): exit 4, no score file" \
  "$(gs --costs none --classpath "$FX" --method Noisy.nosuch --score-file "$S" -- 10) $(left)" "4 gone"
echo 99 >"$S"
expect_eq "--score-file, a missing class path entry (get_score.sh's status): exit 3, no score file" \
  "$(gs --costs none --classpath "$FX:$D/none.jar" --method Noisy.work --score-file "$S" -- 10) $(left)" "3 gone"
# the reports psf-score writes follow the same rules
expect_eq "--junit a FIFO: usage, no wait" "$(gs --costs none --classpath "$FX" --method Noisy.work --junit "$D/fifo" --max-score 1000 -- 10)" 2
expect_eq "--junit a FIFO: still a FIFO" "$(stat -c %F "$D/fifo")" fifo
expect_eq "--report a directory: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --report "$D/dir" -- 10)" 2
expect_match "--report a directory: says why" "$(field message)" "is a directory"
expect_eq "--report a directory: nothing written inside" "$(find "$D/dir" -mindepth 1 -maxdepth 1 | wc -l)" 0
expect_eq "--junit a regular file: ok" "$(gs --costs none --classpath "$FX" --method Noisy.work --junit "$D/junit.xml" --max-score 1000 -- 10)" 0
expect_match "--junit a regular file: the passed test case" "$(cat "$D/junit.xml")" 'failures="0"'
expect_eq "--compare a FIFO: usage, no wait" "$(gs --costs none --classpath "$FX" --method Noisy.work --report "$D/r.html" --compare "$D/fifo" -- 10)" 2
expect_match "--compare a FIFO: says why" "$(field message)" "regular file"
echo old >"$D/score"
expect_eq "--score-file a regular file: replaced" "$(gs --costs none --classpath "$FX" --method Noisy.work --score-file "$D/score" -- 10)" 0
expect_eq "--score-file a regular file: the score" "$(cat "$D/score")" 99

# An output path that turns into a FIFO while the program runs is left alone
# at the end: ReadFile (unsandboxed, so that it sees the host's paths) waits
# on a FIFO "gate" until the test has swapped the output for a FIFO.
# race OPTION: one run; exit code echoed, JSON in $TEST_TMP/gs.out.
race() {
  local opt=$1 gate=$D/gate-$$-$1 pid rc=0 i
  rm -f "$D/race"
  mkfifo "$gate"
  "$GS" --json --costs none --sandbox off --classpath "$FX" --method ReadFile.work "$opt" "$D/race" -- "$gate" \
    >"$TEST_TMP/gs.out" 2>"$TEST_TMP/gs.err" &
  pid=$!
  # (a bound on a hung test, not a timing assertion)
  for i in $(seq 240); do pgrep -f -- "ReadFile $gate" >/dev/null && break; sleep 0.5; done
  mkfifo "$D/race"
  # shellcheck disable=SC2016 # $1 is the inner shell's
  timeout 120 sh -c 'echo open >"$1"' sh "$gate" || true
  wait "$pid" || rc=$?
  rm -f "$gate"
  echo "$rc"
}
for opt in --program-output --score-file; do
  expect_eq "$opt turned into a FIFO during the run: internal error" "$(race "$opt")" 70
  expect_eq "$opt turned into a FIFO during the run: one JSON object" "$(objects)" 1
  expect_match "$opt turned into a FIFO during the run: says why" "$(field message)" "cannot write"
  expect_eq "$opt turned into a FIFO during the run: still a FIFO" "$(stat -c %F "$D/race")" fifo
  expect_eq "$opt turned into a FIFO during the run: no temporary file left" "$(find "$D" -mindepth 1 -maxdepth 1 -name '.psf*' | wc -l)" 0
done
rm -f "$D/race"

# --- 3. inputs checked before the program starts ------------------------------------
# The program's output is published after the run: no file means no run.
expect_eq "--costs a FIFO: bad input, no wait" "$(gs --costs "$D/fifo" --classpath "$FX" --method Noisy.work --program-output "$D/prog" -- 10)" 7
expect_match "--costs a FIFO: says why" "$(field message)" "not a regular file"
expect_eq "--costs /dev/zero: bad input" "$(gs --costs /dev/zero --classpath "$FX" --method Noisy.work --program-output "$D/prog" -- 10)" 7
expect_eq "--costs a directory: bad input" "$(gs --costs "$D/dir" --classpath "$FX" --method Noisy.work --program-output "$D/prog" -- 10)" 7
expect_eq "--costs a directory: no word of --costs-sha256" "$(field message | grep -c costs-sha256 || true)" 0
printf '<costs><opcode name="nop"' >"$D/bad-costs.xml"
expect_eq "a malformed cost table: bad input" "$(gs --costs "$D/bad-costs.xml" --classpath "$FX" --method Noisy.work --program-output "$D/prog" -- 10)" 7
expect_match "a malformed cost table: names the file" "$(field message)" "bad-costs.xml"
# The table's answer is read after the scratch directory is made, but
# reported as where the JDK is checked: unsigned, and after a key that
# cannot be used.
expect_eq "a malformed cost table with a key: bad input" \
  "$(gs --costs "$D/bad-costs.xml" --key-file "$TEST_TMP/io.key" --classpath "$FX" --method Noisy.work -- 10)" 7
expect_eq "a malformed cost table with a key: reported unsigned" "$(jq 'has("signature")' "$TEST_TMP/gs.out")" false
expect_eq "a key that cannot be used and a malformed cost table: usage, the key first" \
  "$(gs --costs "$D/bad-costs.xml" --key-file "$D/nodir/key" --classpath "$FX" --method Noisy.work -- 10)" 2
expect_match "a key that cannot be used and a malformed cost table: says the key" "$(field message)" "the key file cannot be used"
expect_eq "bad inputs: the program never ran" "$(find "$D/prog" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" 0
expect_eq "--program-output in a missing directory: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --program-output "$D/nodir/p" -- 10)" 2
expect_eq "--program-output in a missing directory: one JSON object" "$(objects)" 1
expect_eq "--program-output a FIFO: usage, no wait" "$(gs --costs none --classpath "$FX" --method Noisy.work --program-output "$D/fifo" -- 10)" 2
expect_eq "--program-output a regular file: ok" "$(gs --costs none --classpath "$FX" --method Noisy.work --program-output "$D/prog" -- 10)" 0
expect_match "--program-output a regular file: holds the output" "$(cat "$D/prog")" "noise on stderr"
expect_eq "a FIFO on the class path: usage, no wait" "$(gs --costs none --classpath "$D/fifo:$FX" --method Noisy.work -- 10)" 2
expect_match "a FIFO on the class path: says why" "$(field message)" "neither a regular file nor a directory"
expect_eq "a class path with a newline: usage" "$(gs --costs none --classpath "$FX
$D" --method Noisy.work -- 10)" 2
# The entries are resolved together with the launcher, in one process; when
# one of them cannot be, each is looked at on its own, in order, and the
# first that fails decides: a missing entry (class_not_found) or one that is
# no file or directory (usage), whichever comes first.
expect_eq "a missing class path entry after a good one: class_not_found" \
  "$(gs --costs none --classpath "$FX:$D/missing" --method Noisy.work -- 10)" 3
expect_match "a missing class path entry: named" "$(field message)" "class path entry '$D/missing' does not exist"
expect_eq "a FIFO on the class path before a missing entry: usage, the FIFO named" \
  "$(gs --costs none --classpath "$D/fifo:$D/missing:$FX" --method Noisy.work -- 10)" 2
expect_match "a FIFO before a missing entry: says why" "$(field message)" "'$D/fifo' is neither a regular file nor a directory"
expect_eq "a missing entry before a FIFO: class_not_found" \
  "$(gs --costs none --classpath "$D/missing:$D/fifo:$FX" --method Noisy.work -- 10)" 3
# --json: stdout is the scorer's object byte for byte, its last newline too
expect_eq "--json: scored" "$(gs --costs none --classpath "$FX" --method Noisy.work --program-output "$D/prog" -- 10)" 0
expect_eq "--json: stdout ends in '}' and one newline" "$(tail -c 2 "$TEST_TMP/gs.out" | od -An -c | tr -d ' ')" '}\n'
# a result longer than the 16 KiB the shell prints itself (String.length,
# called some 190 times by Noisy and the runtime, each call listed): whole
expect_eq "--json, a long result: scored" "$(gs --costs none --classpath "$FX" --main Noisy --method java.lang.String.length --program-output "$D/prog" -- 10 0)" 0
expect_eq "--json, a long result: longer than 16 KiB" "$(($(wc -c <"$TEST_TMP/gs.out") > 16384))" 1
expect_eq "--json, a long result: one object, every call listed" "$(jq -s '[length, (.[0].invocation_list | length) == .[0].invocations] | @tsv' -r "$TEST_TMP/gs.out")" "1	true"

# --- 4. class-path symbolic links expose nothing ----------------------------------------
echo "secret" >"$TEST_TMP/secret.txt"
ln -s "$TEST_TMP/secret.txt" "$D/lib.jar"
expect_eq "an entry linking outside the class path: usage" "$(gs --costs none --classpath "$FX:$D/lib.jar" --method ReadFile.work -- "$D/lib.jar")" 2
expect_match "an entry linking outside: says where it leads" "$(field message)" "symbolic link to '$TEST_TMP/secret.txt'"
# an entry linking into a directory entry of the same class path is allowed
mkdir -p "$D/cp/lib"
cp "$FX/ReadFile.class" "$D/cp/lib/"
ln -s "$D/cp/lib" "$D/inside"
expect_eq "an entry linking inside the class path: scored" "$(gs --costs none --classpath "$D/cp:$D/inside" --method ReadFile.work -- /nothing)" 0
if sandbox_works "the sandboxed link check"; then
  # The sandbox shows the class path's only entry at /psf/cp/0. A plain
  # file in it is readable there (7 bytes); a link in it to a file outside
  # the class path leads nowhere.
  printf 'public\n' >"$D/cp/lib/plain.txt"
  ln -s "$TEST_TMP/secret.txt" "$D/cp/lib/secret.lnk"
  expect_eq "a plain file in a class-path directory: scored" \
    "$(gs --costs none --sandbox require --classpath "$D/cp/lib" --method ReadFile.work --program-output "$D/prog" -- /psf/cp/0/plain.txt)" 0
  expect_eq "a plain file in a class-path directory: readable in the sandbox" "$(head -n 1 "$D/prog")" "read 7 bytes"
  expect_eq "a link inside a class-path directory: scored" \
    "$(gs --costs none --sandbox require --classpath "$D/cp/lib" --method ReadFile.work --program-output "$D/prog" -- /psf/cp/0/secret.lnk)" 0
  expect_eq "a link inside a class-path directory: its target unreadable in the sandbox" "$(head -n 1 "$D/prog")" "cannot read"
  # setpriv and bubblewrap are probed together first (setpriv starting
  # bwrap), and each on its own when that fails: a setpriv that fails
  # leaves the sandbox working (/psf/cp/0 exists only in there)
  mkdir -p "$TEST_TMP/fakebin"
  printf '#!/bin/sh\nexit 1\n' >"$TEST_TMP/fakebin/setpriv"
  chmod +x "$TEST_TMP/fakebin/setpriv"
  expect_eq "a setpriv that fails: scored with --sandbox require" \
    "$(PATH=$TEST_TMP/fakebin:$PATH gs --costs none --sandbox require --classpath "$D/cp/lib" --method ReadFile.work --program-output "$D/prog" -- /psf/cp/0/plain.txt)" 0
  expect_eq "a setpriv that fails: the program ran in the sandbox" "$(head -n 1 "$D/prog")" "read 7 bytes"
fi

finish
