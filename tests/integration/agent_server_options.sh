#!/usr/bin/env bash
# agent_server_options.sh - option values that cannot work are usage errors
# before anything runs, and the interactive prompts accept what they
# advertise. (issue 22, item 6)
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
cd "$TEST_TMP"
gs() { "$GS" --json "$@" >"$TEST_TMP/gs.out" 2>"$TEST_TMP/gs.err" && echo 0 || echo $?; }

# --- a method or class name that is not UTF-8 ------------------------------------
expect_eq "non-UTF-8 --method: usage" "$(gs --costs none --classpath "$FX" --method $'Noisy.w\xffork' -- 1)" 2
expect_match "non-UTF-8 --method: says so" "$(jq -r .message "$TEST_TMP/gs.out")" "--method is not valid UTF-8"
expect_eq "non-UTF-8 --main: usage" "$(gs --costs none --classpath "$FX" --main $'No\xc3isy' --method Noisy.work -- 1)" 2
expect_eq "a control character in --method: usage" "$(gs --costs none --classpath "$FX" --method $'Noisy.work\t' -- 1)" 2
# valid UTF-8 beyond ASCII is a name like any other (no such method here)
expect_eq "a UTF-8 method name: looked for" "$(gs --costs none --classpath "$FX" --method 'Noisy.wörk' -- 1)" 4

# --- an option where a value belongs: the option that lacks it is named ------------------
expect_eq "--timeout followed by --: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --timeout -- 1)" 2
expect_eq "--timeout followed by --: says --timeout lacks its value" "$(jq -r .message "$TEST_TMP/gs.out")" \
  "option --timeout needs a value, not '--' (see --help)"
expect_eq "--classpath followed by --method: usage" "$(gs --costs none --classpath --method Noisy.work -- 1)" 2
expect_eq "--classpath followed by --method: says --classpath lacks its value" "$(jq -r .message "$TEST_TMP/gs.out")" \
  "option --classpath needs a value, not '--method' (see --help)"

# --- --check-options: the command line checked, nothing run --------------------------------
expect_eq "--check-options: good options, exit 0" "$(gs --check-options --classpath "$TEST_TMP/none" --method A.b --timeout 5)" 0
expect_eq "--check-options: good options, nothing printed" "$(cat "$TEST_TMP/gs.out" "$TEST_TMP/gs.err")" ""
expect_eq "--check-options: a bad one, usage" "$(gs --check-options --classpath "$TEST_TMP/none" --method A.b --timeout 0)" 2
expect_eq "--check-options: a bad one, one JSON object saying why" "$(jq -s -r '.[0].message + " " + (length | tostring)' "$TEST_TMP/gs.out")" \
  "--timeout takes a whole number above 0, not '0' 1"
expect_eq "--check-options: an output in a missing directory, usage" \
  "$(gs --check-options --classpath "$TEST_TMP/none" --method A.b --score-file "$TEST_TMP/none/s")" 2

# options after --, among the program's arguments: said so
expect_eq "options after --: usage" "$(gs -- 10 --costs none --classpath "$FX" --method Noisy.work)" 2
expect_eq "options after --: says where they went" "$(jq -r .message "$TEST_TMP/gs.out")" \
  "--classpath is required (see --help); '--classpath' came after '--', where the program's arguments are"
# a method without its class, with --main: said before any JVM starts
expect_eq "--method without a class, with --main: usage" "$(gs --costs none --classpath "$FX" --main Noisy --method work -- 1)" 2
expect_eq "--method without a class, with --main: says so, nothing else on stderr" \
  "$(jq -r '.status + ": " + .message' "$TEST_TMP/gs.out") $(wc -l <"$TEST_TMP/gs.err")" \
  "usage: method spec 'work' names no class (expected pkg.Class.name, such as Noisy.work) 0"

# without --json a failure says its status word, as the exit code's table names it
rc=0
"$GS" --costs none --classpath "$FX:$TEST_TMP/none.jar" --method Noisy.work -- 1 >"$TEST_TMP/gs.out" 2>"$TEST_TMP/gs.err" || rc=$?
expect_eq "no --json, a missing class path entry: exit 3, the status word and why on stderr, nothing on stdout" \
  "$rc $(cat "$TEST_TMP/gs.err") $(wc -c <"$TEST_TMP/gs.out")" \
  "3 get_score.sh: class_not_found: class path entry '$TEST_TMP/none.jar' does not exist 0"

# a class file given as the class path: said before any JVM starts
expect_eq "a class file as the class path: usage" "$(gs --costs none --classpath "$FX/Noisy.class" --method Noisy.work -- 1)" 2
expect_eq "a class file as the class path: says so" "$(jq -r .message "$TEST_TMP/gs.out")" \
  "class path entry '$FX/Noisy.class' is a class file; give the directory its package starts in"

# --help before PSF is built: the exit codes' table says how to get it
expect_eq "--help, PSF not built: exit 0" "$(PSF_BUILD=$TEST_TMP/none "$GS" --help >"$TEST_TMP/help.out" 2>&1; echo $?)" 0
expect_eq "--help, PSF not built: the exit codes say to build" "$(tail -n 1 "$TEST_TMP/help.out")" \
  "  (PSF is not built: run make in $PSF_ROOT, then this lists them)"

# --- heap sizes -------------------------------------------------------------------------
for h in 1k 512 15m 64g 999999999999g 99999999999999999999g 0m 1.5g -1m; do
  expect_eq "--heap $h: usage" "$(gs --costs none --classpath "$FX" --method Noisy.work --heap "$h" -- 1)" 2
  expect_match "--heap $h: one JSON object saying why" "$(jq -s -r '.[0].message + " " + (length | tostring)' "$TEST_TMP/gs.out")" "heap.* 1$"
done
expect_eq "--heap 16m: runs" "$(gs --costs none --classpath "$FX" --method Noisy.work --heap 16m -- 10)" 0
expect_eq "--heap 16m: the score" "$(jq -r .score "$TEST_TMP/gs.out")" 99

# --- interactive mode (a terminal from script(1)) -------------------------------------------
if command -v script >/dev/null 2>&1; then
  # the bare method name
  printf '%s\nNoisy\nwork\n10\n' "$FX" | script -qec "$GS" /dev/null >"$TEST_TMP/tty.out" 2>&1 || true
  expect_match "interactive: a bare method name scores that method" "$(tr -d '\r' <"$TEST_TMP/tty.out")" "method +Noisy.work\(I\)I"
  # the advertised default, typed and by ENTER
  printf '%s\nNoisy\nmain\n10\n' "$FX" | script -qec "$GS" /dev/null >"$TEST_TMP/tty.out" 2>&1 || true
  expect_match "interactive: 'main' typed" "$(tr -d '\r' <"$TEST_TMP/tty.out")" "method +Noisy.main\(\[Ljava/lang/String;\)V"
  printf '%s\nNoisy\n\n10\n' "$FX" | script -qec "$GS" /dev/null >"$TEST_TMP/tty.out" 2>&1 || true
  expect_match "interactive: ENTER for main" "$(tr -d '\r' <"$TEST_TMP/tty.out")" "method +Noisy.main\(\[Ljava/lang/String;\)V"
elif [ "${CI:-}" = true ]; then
  fail "script(1) is installed under CI (needed for the interactive checks)"
else
  echo "(script(1) is missing: the interactive checks are skipped)"
fi

finish
