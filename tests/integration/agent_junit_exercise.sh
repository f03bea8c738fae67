#!/usr/bin/env bash
# agent_junit_exercise.sh - a JUnit 5 exercise scored in the run of its own
# tests (examples/junit/, docs/grading-server.md): Debian's junit5 console
# launcher as --main, the method scored across every test's calls; passing
# tests score, a failing test ends as tests_failed with no score.
set -eu
. "$(dirname "$0")/lib.sh"
GS=$PSF_ROOT/scripts/get_score.sh
EX=$PSF_BUILD/examples/junit
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
require_junit_jar
if [ ! -f "$EX/DigitsTest.class" ]; then
  echo "FAIL - $EX is missing: run make examples"
  exit 1
fi
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac

CWD=$TEST_TMP/cwd
mkdir -p "$CWD"
cd "$CWD"
LAUNCHER=(--main org.junit.platform.console.ConsoleLauncher --method Digits.digitSum)
ARGS=(--disable-banner --disable-ansi-colors --details=summary --select-class DigitsTest)
# junit_run CLASSPATH [get_score.sh options...]
junit_run() {
  local cp=$1
  shift
  "$GS" --classpath "$cp" "${LAUNCHER[@]}" --costs none --json --program-output "$TEST_TMP/program.out" "$@" \
    -- "${ARGS[@]}" >"$TEST_TMP/out" 2>>"$TEST_TMP/gs.err" && RC=0 || RC=$?
  OUT=$(cat "$TEST_TMP/out")
}
field() { jq -r "$1" <<<"$OUT"; }

# digitSum(n) with d decimal digits (javap -c Digits): iconst_0 istore_1,
# then d times the test (iload_0 ifle) and the body (iload_1 iload_0 bipush
# irem iadd istore_1 iload_0 bipush idiv istore_0 goto: 11), the last test,
# iload_1 ireturn: 13d + 6. The tests call it with 123, 9 and 0:
# 45 + 19 + 6 = 70 bytecodes in 3 invocations.
for engine in fast step; do
  junit_run "$EX:$JAR" --engine "$engine"
  expect_eq "passing tests, $engine: ok, exit 0" "$RC/$(field .status)" 0/ok
  expect_eq "passing tests, $engine: score = 13d+6 over the three calls" "$(field .score)/$(field .bytecodes)" 70/70
  expect_eq "passing tests, $engine: three invocations, across both tests" "$(field .invocations)" 3
  expect_eq "passing tests, $engine: judged by its tests" "$(field '"\(.output_checked) \(.output_judge)"')" \
    "true junit"
done
expect_match "passing tests: the launcher's summary in the program's output" "$(cat "$TEST_TMP/program.out")" \
  '\[ +2 tests successful +\]'

# The same three calls from a plain main give the same count.
mkdir -p "$TEST_TMP/plain"
cat >"$TEST_TMP/plain/Calls.java" <<'EOF'
public class Calls {
    public static void main(String[] args) {
        int s = Digits.digitSum(123) + Digits.digitSum(9) + Digits.digitSum(0);
        System.out.println(s);
    }
}
EOF
"$JAVAC" -cp "$EX" -d "$TEST_TMP/plain" "$TEST_TMP/plain/Calls.java"
"$GS" --classpath "$TEST_TMP/plain:$EX" --main Calls --method Digits.digitSum --costs none --json \
  >"$TEST_TMP/out" 2>/dev/null && rc=0 || rc=$?
expect_eq "plain main, the same calls: the same score" "$rc/$(jq -r .score "$TEST_TMP/out")" 0/70

# A wrong solution: digitSum(0) gives 1, so the test 'zero' fails.
mkdir -p "$TEST_TMP/wrong"
sed 's/return s;/return n == 0 \&\& s == 0 ? 1 : s;/' "$PSF_ROOT/examples/junit/Digits.java" >"$TEST_TMP/wrong/Digits.java"
"$JAVAC" -d "$TEST_TMP/wrong" "$TEST_TMP/wrong/Digits.java"
for engine in fast step; do
  junit_run "$TEST_TMP/wrong:$EX:$JAR" --engine "$engine"
  expect_eq "a failing test, $engine: tests_failed, exit 33, no score" "$RC/$(field .status)/$(field .score)" \
    "33/tests_failed/null"
  expect_eq "a failing test, $engine: the launcher's counts" "$(field .message)" \
    "1 tests failed, 0 aborted, 1 successful (the JUnit launcher's summary; see the program's output)"
done
# a test class that is not there: the launcher prints no summary; a class
# without tests: no test runs. Neither has a score.
ARGS=(--disable-banner --disable-ansi-colors --details=summary --select-class NoSuchTest)
junit_run "$EX:$JAR"
expect_eq "no such test class: tests_failed" "$RC/$(field .status)" 33/tests_failed
expect_match "no such test class: says so" "$(field .message)" '^the JUnit launcher printed no summary'
ARGS=(--disable-banner --disable-ansi-colors --details=summary --select-class Digits)
junit_run "$EX:$JAR"
expect_eq "a class without tests: tests_failed" "$RC/$(field .status)" 33/tests_failed
expect_match "a class without tests: says so" "$(field .message)" '^no test ran successfully'
# the program printing a summary of its own is refused, not believed (the
# solution is right, the launcher's own summary clean: only the program's
# extra ones, one per call, fail it)
ARGS=(--disable-banner --disable-ansi-colors --details=summary --select-class DigitsTest)
sed 's|int s = 0;|int s = 0; System.out.println("[ 1 containers found ]\\n[ 9 tests successful ]\\n[ 0 tests failed ]");|' \
  "$PSF_ROOT/examples/junit/Digits.java" >"$TEST_TMP/wrong/Digits.java"
"$JAVAC" -d "$TEST_TMP/wrong" "$TEST_TMP/wrong/Digits.java"
junit_run "$TEST_TMP/wrong:$EX:$JAR"
expect_eq "a summary printed by the program: tests_failed" "$RC/$(field .status)" 33/tests_failed
expect_match "a summary printed by the program: says so" "$(field .message)" 'holds 4 JUnit summaries'
expect_eq "nothing in the working directory" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0

finish
