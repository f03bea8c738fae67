#!/usr/bin/env bash
# agent_judged_end.sh - a judged run's verdict is accepted only from a JVM
# that the program's entry method ended (the profile's <end>, written by the
# agent; scripts/lib/judge.sh): a submission that prints a JUnit summary of
# its own and ends the JVM with Runtime.halt(0) or System.exit(0) from a
# method that is not scored, from a static initializer, from a shutdown
# hook or from a JUnit launcher of its own ends as tests_failed, with the
# frame that ended the JVM named; an honest exercise still scores, exactly,
# and a failing test still gives no score. An output-judged program
# (--check, --expect-output) may end by returning from main or by
# System.exit in main; a halt or an exit from anywhere else is wrong_output.
set -eu
. "$(dirname "$0")/lib.sh"
GS=$PSF_ROOT/scripts/get_score.sh
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
require_junit_jar
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac

CWD=$TEST_TMP/cwd
mkdir -p "$CWD"
cd "$CWD"
field() { jq -r "$1" <"$TEST_TMP/out"; }

# --- the exercise: Stats.sum scored, Stats.mean not -------------------------------------
# The teacher's test calls the scored method, then another method of the
# submission, then asserts: a submission's code runs outside the scored
# method while the tests still run.
EX=$TEST_TMP/ex
mkdir -p "$EX"
cat >"$EX/StatsTest.java" <<'EOF'
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class StatsTest {
    @Test
    void sumAndMean() {
        int[] a = {1, 2, 3};
        int s = Stats.sum(a);
        int m = Stats.mean(a);
        assertEquals(6, s);
        assertEquals(2, m);
    }
}
EOF
# FAKE: the statements that print a clean summary of one test, as the
# launcher prints it.
FAKE='System.out.println("[ 1 containers found ]\n[ 0 containers failed ]\n[ 1 tests found ]\n[ 1 tests successful ]\n[ 0 tests failed ]"); System.out.flush();'
HONEST_SUM='public static int sum(int[] a) { int s = 0; for (int x : a) s += x; return s; }'
WRONG_SUM='public static int sum(int[] a) { return 0; }'
# submission NAME SUM MEAN_BODY [MORE_CLASSES]: Stats in $TEST_TMP/NAME,
# compiled against the test's class path.
submission() {
  local dir=$TEST_TMP/$1
  mkdir -p "$dir"
  printf 'public class Stats {\n    %s\n    public static int mean(int[] a) { %s }\n}\n%s\n' "$2" "$3" "${4:-}" \
    >"$dir/Stats.java"
  "$JAVAC" -cp "$JAR" -d "$dir" "$dir/Stats.java"
}
# exercise NAME [get_score.sh options...]: the tests run by the launcher on
# submission NAME's classes (first on the class path: the student's own).
exercise() {
  local name=$1
  shift
  "$GS" --classpath "$TEST_TMP/$name:$EX:$JAR" --main org.junit.platform.console.ConsoleLauncher \
    --method Stats.sum --costs none --json --program-output "$TEST_TMP/program.out" "$@" \
    -- --disable-banner --disable-ansi-colors --details=summary --select-class StatsTest \
    >"$TEST_TMP/out" 2>>"$TEST_TMP/gs.err" && RC=0 || RC=$?
}
submission honest "$HONEST_SUM" 'return sum(a) / a.length;'
"$JAVAC" -cp "$JAR:$TEST_TMP/honest" -d "$EX" "$EX/StatsTest.java"

# sum({1,2,3}) (javap -c Stats): iconst_0 istore_1 aload_0 astore_2 aload_2
# arraylength istore_3 iconst_0 istore 4 (9), per element the loop test
# (iload 4 iload_3 if_icmpge: 3) and the body (aload_2 iload 4 iaload
# istore 5 iload_1 iload 5 iadd istore_1 iinc goto: 10), the last test (3),
# iload_1 ireturn (2): 9 + 3 x 13 + 3 + 2 = 53; called by the test and by
# mean: 106 in 2 invocations.
for engine in fast step; do
  exercise honest --engine "$engine"
  expect_eq "honest exercise, $engine: ok, exit 0, 2 x 53 bytecodes" \
    "$RC/$(field .status)/$(field .score)/$(field .invocations)" 0/ok/106/2
done
expect_match "honest exercise: the launcher's own summary" "$(cat "$TEST_TMP/program.out")" '\[ +1 tests successful +\]'

# A wrong sum, no trick: the launcher's summary says so; no score.
submission wrong "$WRONG_SUM" 'return 2;'
exercise wrong
expect_eq "a failing test: tests_failed, exit 33, no score" "$RC/$(field .status)/$(field .score)" 33/tests_failed/null
expect_eq "a failing test: the launcher's counts" "$(field .message)" \
  "1 tests failed, 0 aborted, 0 successful (the JUnit launcher's summary; see the program's output)"

# The tricks: a wrong sum (2 bytecodes), a clean summary of the
# submission's own, and the JVM ended before the assertions run. Each
# leaves exactly one summary and exit status 0.
HALT='Runtime.getRuntime().halt(0);'
EXIT='System.exit(0);'
# refused NAME CHECK MESSAGE [get_score.sh options...]
refused() {
  local name=$1 check=$2 message=$3
  shift 3
  exercise "$name" "$@"
  expect_eq "$check: tests_failed, exit 33, no score" "$RC/$(field .status)/$(field .score)" 33/tests_failed/null
  expect_eq "$check: names what ended the JVM" "$(field .message)" "$message"
  expect_eq "$check: one summary, the submission's" "$(grep -c 'tests successful' "$TEST_TMP/program.out")" 1
}
NOT_LAUNCHER="not by the JUnit launcher's main: the output's summary is not the tests' verdict"
submission halt_mean "$WRONG_SUM" "$FAKE $HALT return 2;"
for engine in fast step; do
  refused halt_mean "Runtime.halt(0) in an unscored method, $engine" \
    "the JVM was ended by Runtime.halt, called by Stats.mean([I)I on thread 'main', $NOT_LAUNCHER" --engine "$engine"
done
submission exit_mean "$WRONG_SUM" "$FAKE $EXIT return 2;"
refused exit_mean "System.exit(0) in an unscored method" \
  "the JVM was ended by System.exit (Runtime.exit), called by Stats.mean([I)I on thread 'main', $NOT_LAUNCHER"
# (a static initializer that mean runs: Fake.two is no constant)
submission halt_clinit "$WRONG_SUM" 'return Fake.two;' "class Fake { static int two = 2; static { $FAKE $HALT } }"
refused halt_clinit "Runtime.halt(0) in a static initializer" \
  "the JVM was ended by Runtime.halt, called by Fake.<clinit>()V on thread 'main', $NOT_LAUNCHER"
submission exit_clinit "$WRONG_SUM" 'return Fake.two;' "class Fake { static int two = 2; static { $FAKE $EXIT } }"
refused exit_clinit "System.exit(0) in a static initializer" \
  "the JVM was ended by System.exit (Runtime.exit), called by Fake.<clinit>()V on thread 'main', $NOT_LAUNCHER"
# A shutdown hook: mean prints the summary and closes stdout, so that the
# launcher's own summary (1 test failed) is lost; the launcher's
# System.exit(1) runs the hook, which halts with status 0.
submission hook "$WRONG_SUM" \
  "$FAKE System.out.close(); Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0), \"h\")); return 2;"
refused hook "a shutdown hook's Runtime.halt(0)" \
  "the JVM was ended by Runtime.halt, called by Stats.lambda\$mean\$0()V on thread 'h', $NOT_LAUNCHER"
# A launcher of the submission's own, inside the tests, running a test
# class of the submission's that passes: its ConsoleLauncher.main calls
# System.exit(0), but it is not the main thread's bottom frame.
submission nested "$WRONG_SUM" \
  'org.junit.platform.console.ConsoleLauncher.main("--disable-banner", "--disable-ansi-colors", "--details=summary", "--select-class", "FakeTest"); return 2;' \
  'class FakeTest { @org.junit.jupiter.api.Test void passes() { } }'
refused nested "the submission's own JUnit launcher" \
  "the JVM was ended by System.exit (Runtime.exit), called by org.junit.platform.console.ConsoleLauncher.main([Ljava/lang/String;)V on thread 'main', $NOT_LAUNCHER"

# --- output-judged programs (--check, --expect-output) --------------------------------
# End: f is scored; main prints f(1) and ends as its argument says.
PL=$TEST_TMP/plain
mkdir -p "$PL"
cat >"$PL/End.java" <<'EOF'
public class End {
    static int f(int x) { return x + 1; }
    static void quit() { System.exit(0); }
    static void stop() { Runtime.getRuntime().halt(0); }
    public static void main(String[] args) throws Exception {
        System.out.println(f(1));
        switch (args[0]) {
            case "return": return;
            case "exit": System.exit(0);
            case "quit": quit();
            case "stop": stop();
            case "thread": Thread t = new Thread(End::quit, "t"); t.start(); t.join(); return;
            case "run": Thread r = new Thread("r") { public void run() { System.exit(0); } }; r.start(); r.join(); return;
            case "hook": Runtime.getRuntime().addShutdownHook(new Thread(End::stop, "h")); System.exit(3);
            default: throw new IllegalArgumentException(args[0]);
        }
    }
}
EOF
"$JAVAC" -d "$PL" "$PL/End.java"
printf '2\n' >"$TEST_TMP/expected"
# program HOW [get_score.sh options...]
program() {
  local how=$1
  shift
  "$GS" --classpath "$PL" --main End --method End.f --costs none --json "$@" -- "$how" \
    >"$TEST_TMP/out" 2>>"$TEST_TMP/gs.err" && RC=0 || RC=$?
}
# f: iload_0 iconst_1 iadd ireturn, 4 bytecodes.
program return --check true
expect_eq "--check, main returns: ok, 4 bytecodes" "$RC/$(field .status)/$(field .score)" 0/ok/4
program exit --expect-output "$TEST_TMP/expected"
expect_eq "--expect-output, System.exit(0) in main: ok, 4 bytecodes" "$RC/$(field .status)/$(field .score)" 0/ok/4
CUT="not by the program's entry method (main): the output of a run cut short is not judged"
# output_refused HOW CHECK MESSAGE
output_refused() {
  program "$1" --expect-output "$TEST_TMP/expected"
  expect_eq "$2: wrong_output, exit 32, no score" "$RC/$(field .status)/$(field .score)" 32/wrong_output/null
  expect_eq "$2: names what ended the JVM" "$(field .message)" "$3"
}
output_refused quit "--expect-output, System.exit(0) in another method" \
  "the JVM was ended by System.exit (Runtime.exit), called by End.quit()V on thread 'main', $CUT"
output_refused stop "--expect-output, Runtime.halt(0) in another method" \
  "the JVM was ended by Runtime.halt, called by End.stop()V on thread 'main', $CUT"
output_refused thread "--expect-output, System.exit(0) on another thread" \
  "the JVM was ended by System.exit (Runtime.exit), called by End.quit()V on thread 't', $CUT"
# (its run() is that thread's bottom frame: the main thread is known by
# identity, not by the depth of a frame)
output_refused run "--expect-output, System.exit(0) by the bottom frame of another thread" \
  "the JVM was ended by System.exit (Runtime.exit), called by End\$1.run()V on thread 'r', $CUT"
output_refused hook "--expect-output, a shutdown hook's Runtime.halt(0) (exit status 3 made 0)" \
  "the JVM was ended by Runtime.halt, called by End.stop()V on thread 'h', $CUT"
program quit --check true
expect_eq "--check, System.exit(0) in another method: wrong_output" "$RC/$(field .status)" 32/wrong_output
# not judged: how the program ends is not looked at
program stop
expect_eq "not judged, Runtime.halt(0) in another method: ok" "$RC/$(field .status)/$(field .score)" 0/ok/4

expect_eq "nothing in the working directory" "$(find "$CWD" -mindepth 1 -maxdepth 1 | wc -l)" 0
finish
