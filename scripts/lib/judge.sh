# shellcheck shell=bash
# judge.sh - the scored run's output judged in that same run (sourced by
# scripts/get_score.sh; docs/grading-server.md).
#
# A score is only worth what the run that produced it did: a submission
# that skips its work whenever it notices it is being scored must not be
# scored from that run while its correctness is judged in another. So the
# output judged is the output of the very run whose profile is scored (the
# step engine's run after a fallback, every run of --runs N):
#
#   --expect-output FILE   the program's standard output equals FILE byte for
#                          byte (--ignore-trailing-space: white space at line
#                          ends and blank lines at the end aside); compared by
#                          psf-score --compare-output (scorer/outcmp.c)
#   --check CMD            CMD, a shell command the grader trusts, run outside
#                          the sandbox with the output file's path as its last
#                          argument, exits 0
#   --main org.junit.platform.console.ConsoleLauncher
#                          the JUnit 5 launcher runs the exercise's tests: its
#                          summary must say that tests ran and none failed or
#                          was aborted
#
# and in each case the JVM was ended by the program's entry method (the
# profile's <end>, judge_end): the launcher's own System.exit, or main
# returning, never an exit or halt of the submission's code elsewhere.
# Otherwise the run ends as wrong_output or tests_failed, with no score. The
# way it was judged (JUDGED_BY: expect_output, check, junit or none) is a
# signed field of the result (judged_by), which psf-score reads back.
#
# In a judged run the program's stdout and stderr are kept apart (stdout in
# $RUN_DIR/program.stdout, stderr in $RUN_DIR/program.out); --program-output
# then gets the stdout, then the stderr.

JUNIT_LAUNCHER=org.junit.platform.console.ConsoleLauncher
EXPECT_OUTPUT=""          # --expect-output FILE (absolute once checked)
CHECK_CMD=""              # --check CMD
IGNORE_TRAILING_SPACE=0   # --ignore-trailing-space
JUDGED_BY=none            # how the output is judged: expect_output, check, junit, none

# judge_options: check the options before anything runs, set JUDGED_BY.
judge_options() {
  if [ -n "$EXPECT_OUTPUT" ] && [ -n "$CHECK_CMD" ]; then
    fail usage "give --expect-output FILE or --check CMD, not both"
  fi
  if [ "$IGNORE_TRAILING_SPACE" = 1 ] && [ -z "$EXPECT_OUTPUT" ]; then
    fail usage "--ignore-trailing-space goes with --expect-output FILE"
  fi
  if [ -n "$EXPECT_OUTPUT" ]; then
    case $EXPECT_OUTPUT in *$'\n'*) fail usage "--expect-output: a path with a newline is refused" ;; esac
    { [ -f "$EXPECT_OUTPUT" ] && [ -r "$EXPECT_OUTPUT" ]; } ||
      fail usage "--expect-output: cannot read '$EXPECT_OUTPUT' (a readable regular file)"
    abs_path EXPECT_OUTPUT "$EXPECT_OUTPUT"
    JUDGED_BY=expect_output
  elif [ -n "$CHECK_CMD" ]; then
    # The command's first word must be something the shell can run; what
    # it does with the output is the grader's.
    local first
    read -r first _ <<<"$CHECK_CMD"
    [ -n "$first" ] || fail usage "--check needs a command"
    (command -v -- "$first" >/dev/null 2>&1) ||
      fail usage "--check: cannot run '$first' (not found, or not executable)"
    JUDGED_BY=check
  fi
  # A JUnit run is judged by its tests; with --expect-output or --check too,
  # the tests decide first.
  if [ "$MAIN" = "$JUNIT_LAUNCHER" ] && [ "$JUDGED_BY" = none ]; then
    JUDGED_BY=junit
  fi
}

# judged_run: true when this run's output is judged (stdout kept apart).
judged_run() {
  [ "$JUDGED_BY" != none ] || [ "$MAIN" = "$JUNIT_LAUNCHER" ]
}

# junit_summary FILE: the JUnit launcher's summary in FILE (its last one),
# as JUNIT_WHY: empty when tests ran and none failed or was aborted, else
# why not. The launcher prints, last of all, lines such as
#   [         2 tests successful      ]
#   [         1 tests failed          ]
# A test that failed, a test or container that was aborted or failed, no
# successful test, or no summary at all is a failure. A second summary
# (one the program printed) is refused too.
junit_summary() {
  local file=$1 line n what
  local -A count=()
  local blocks=0
  JUNIT_WHY=""
  while IFS= read -r line; do
    line=${line%$'\r'}
    if [[ $line =~ ^\[\ *([0-9]{1,18})\ (tests|containers)\ (found|skipped|started|aborted|successful|failed)\ *\]$ ]]; then
      n=${BASH_REMATCH[1]}
      what="${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
      [ "$what" = "containers found" ] && blocks=$((blocks + 1))
      count[$what]=$((10#$n))
    fi
  done <"$file"
  if [ "$blocks" -eq 0 ] || [ -z "${count[tests failed]:-}" ] || [ -z "${count[tests successful]:-}" ]; then
    JUNIT_WHY="the JUnit launcher printed no summary (were the tests run? see the program's output)"
  elif [ "$blocks" -gt 1 ]; then
    JUNIT_WHY="the output holds $blocks JUnit summaries: only the launcher's own, one, is accepted"
  elif [ "${count[tests failed]}" -gt 0 ] || [ "${count[tests aborted]:-0}" -gt 0 ]; then
    JUNIT_WHY="${count[tests failed]} tests failed, ${count[tests aborted]:-0} aborted, ${count[tests successful]} successful (the JUnit launcher's summary; see the program's output)"
  elif [ "${count[containers failed]:-0}" -gt 0 ] || [ "${count[containers aborted]:-0}" -gt 0 ]; then
    JUNIT_WHY="${count[containers failed]:-0} test containers failed and ${count[containers aborted]:-0} were aborted (a class's set-up; the JUnit launcher's summary)"
  elif [ "${count[tests successful]}" -eq 0 ]; then
    JUNIT_WHY="no test ran successfully (the JUnit launcher found ${count[tests found]:-0}; check --select-class)"
  fi
}

# profile_end_of FILE: how the JVM of the run ended, from the <end> element
# the agent writes after <jvm> (docs/profile-format.md), read by the shell
# itself like profile_status_of: END_BY (exit, halt, return, other; empty
# when the profile has none), END_THREAD, END_CALLER (the frame that
# called Runtime.exit or halt) and END_ENTRY (true when that frame is the
# bottom frame of the main thread: the program's entry method). The
# profile comes authenticated from the agent; every '<' in it is markup.
profile_end_of() {
  local line re
  END_BY="" END_THREAD="" END_CALLER="" END_ENTRY=false
  while IFS= read -r line; do
    case $line in
      *'<summary'* | *'<invocations'* | *'</psf-profile'*) return 0 ;;
      *'<end '*)
        re=' by="([a-z]*)"' && [[ $line =~ $re ]] && END_BY=${BASH_REMATCH[1]}
        re=' thread="([^"]*)"' && [[ $line =~ $re ]] && END_THREAD=${BASH_REMATCH[1]}
        re=' caller="([^"]*)"' && [[ $line =~ $re ]] && END_CALLER=${BASH_REMATCH[1]}
        re=' entry="true"' && [[ $line =~ $re ]] && END_ENTRY=true
        xml_text END_THREAD
        xml_text END_CALLER
        return 0 ;;
    esac
  done <"$1"
}
# xml_text NAME: the variable NAME, an attribute's value, made text (the
# five entities; a character reference, as a thread's name holds a newline
# or a tab, as a space).
xml_text() {
  local -n t=$1
  local re='^(.*)&#[0-9a-fA-FxX]+;(.*)$'
  while [[ $t =~ $re ]]; do t="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"; done
  t=${t//&lt;/<} t=${t//&gt;/>} t=${t//&quot;/\"} t=${t//&apos;/\'} t=${t//&amp;/\&}
}

# judge_end HOW: whether the JVM's end (profile_end_of) lets the run's
# output be judged, as END_WHY: empty when it does, else why not. The
# output judged must be that of a program that ran to the end its entry
# method chose: a JVM ended by Runtime.exit or Runtime.halt from any other
# frame (a static initializer, a constructor, a method other than the
# scored one, another thread, a shutdown hook) could have printed a verdict
# of its own and cut the real one off. HOW junit: only the launcher's own
# main may end it (System.exit, as ConsoleLauncher.main does with the tests'
# verdict, or by returning); HOW output (--expect-output, --check): the
# program's entry method, by returning or by System.exit or Runtime.halt in
# the entry method itself.
judge_end() {
  local how=$1 who
  END_WHY=""
  profile_end_of "$RUN_PROFILE"
  case $END_BY in
    return) return 0 ;;
    exit | halt)
      if [ "$END_ENTRY" = true ]; then
        [ "$how" = output ] && return 0
        [ "$END_BY" = exit ] && [ "$END_CALLER" = "$JUNIT_LAUNCHER.main([Ljava/lang/String;)V" ] && return 0
      fi
      who="Runtime.$END_BY"
      [ "$END_BY" = exit ] && who="System.exit (Runtime.exit)"
      who="$who, called by ${END_CALLER:-no frame of the program} on thread '$END_THREAD'" ;;
    other) who="something other than System.exit, Runtime.halt or the end of main, on thread '$END_THREAD'" ;;
    *) END_WHY="the agent recorded no end of the JVM: the output cannot be judged"
      return 0 ;;
  esac
  if [ "$how" = junit ]; then
    END_WHY="the JVM was ended by $who, not by the JUnit launcher's main: the output's summary is not the tests' verdict"
  else
    END_WHY="the JVM was ended by $who, not by the program's entry method (main): the output of a run cut short is not judged"
  fi
}

# judge_output: judge the output of the run in RUN_DIR (its profile is
# PROFILE_STATUS, its exit code RUN_RC, its status so far RUN_STATUS). Sets
# RUN_STATUS and RUN_MESSAGE when the output is wrong.
judge_output() {
  local profile=$1 stdout=$RUN_DIR/program.stdout
  judged_run || return 0
  [ -f "$stdout" ] || : >"$stdout"
  # The JUnit launcher exits 1 when a test fails, and a method no test
  # reached was not invoked: the summary says why first.
  if [ "$MAIN" = "$JUNIT_LAUNCHER" ]; then
    case $profile:$RUN_STATUS in
      ok: | ok:program_failed | not_invoked: | not_invoked:program_failed | class_not_loaded: | class_not_loaded:program_failed) ;;
      *) return 0 ;;
    esac
    # (only the launcher's own end of the JVM makes its summary the verdict)
    judge_end junit
    if [ -n "$END_WHY" ]; then
      RUN_STATUS=tests_failed RUN_MESSAGE=${END_WHY//[$'\001'-$'\037']/ }
      judge_verdict
      return 0
    fi
    junit_summary "$stdout"
    if [ -n "$JUNIT_WHY" ]; then
      RUN_STATUS=tests_failed RUN_MESSAGE=$JUNIT_WHY
      judge_verdict
      return 0
    fi
  fi
  [ -z "$RUN_STATUS" ] && [ "$profile" = ok ] || return 0
  # (the output of a run the program cut short from elsewhere is not
  # judged; a JUnit run's end was judged above)
  END_WHY=""
  [ "$MAIN" = "$JUNIT_LAUNCHER" ] || judge_end output
  if [ -n "$END_WHY" ]; then
    RUN_STATUS=wrong_output RUN_MESSAGE=$END_WHY
  elif [ -n "$EXPECT_OUTPUT" ]; then
    local opts=() says rc
    [ "$IGNORE_TRAILING_SPACE" = 1 ] && opts=(--ignore-trailing-space)
    says=$("$SCORER" --compare-output "${opts[@]}" "$EXPECT_OUTPUT" "$stdout" 2>&1)
    rc=$?
    if [ "$rc" -eq 32 ]; then
      RUN_STATUS=wrong_output RUN_MESSAGE="the output is not the expected one (--expect-output): ${says%%$'\n'*}"
    elif [ "$rc" -ne 0 ]; then
      RUN_STATUS=internal_error RUN_MESSAGE="cannot compare the output: ${says#psf-score: }"
    fi
  elif [ -n "$CHECK_CMD" ]; then
    local says rc
    # (the grader's command, on the host, in the caller's directory, with
    # no input; its time is bounded by --timeout as the program's was)
    says=$(timeout -k 2 "$TIMEOUT" bash -c "$CHECK_CMD"' "$@"' psf-check "$stdout" </dev/null 2>&1 {SWEEP_FD}>&-)
    rc=$?
    says=${says%%$'\n'*}
    if [ "$rc" -eq 0 ]; then
      return 0
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      RUN_STATUS=usage RUN_MESSAGE="the --check command ran longer than $TIMEOUT s (--timeout); the output was not judged"
    elif [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then
      RUN_STATUS=usage RUN_MESSAGE="the --check command could not be run (exit code $rc): ${says:-no message}"
    else
      RUN_STATUS=wrong_output RUN_MESSAGE="the checker refused the output (--check, exit code $rc): ${says:-no message}"
    fi
  fi
  # (printable: the message reaches JSON and a terminal)
  RUN_MESSAGE=${RUN_MESSAGE//[$'\001'-$'\037']/ }
  judge_verdict
}

# judge_verdict: a run whose output was judged wrong keeps a profile of a
# method that ran to its end (status ok): the verdict is signed with it
# (output_verdict=wrong_output or tests_failed), and with the failure's
# result, so that psf-score never scores or ranks that profile.
judge_verdict() {
  case $RUN_STATUS in
    wrong_output | tests_failed)
      [ -z "$SUBMISSION" ] || [[ $SUBMISSION == *" output_verdict="* ]] || SUBMISSION+=" output_verdict=$RUN_STATUS" ;;
  esac
}
