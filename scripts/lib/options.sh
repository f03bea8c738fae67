# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# options.sh - get_score.sh's command line: the options and their defaults,
# --help, and every check of them made before anything runs
# (sourced by scripts/get_score.sh; bash).
#
# parse_args reads the options (on a terminal without any, it asks for the
# class path and the method); check_args checks them together and derives
# what follows from them (MAIN from --method and the reverse, JUNIT_ARGS, the
# judging of scripts/lib/judge.sh). A bad option ends the run as usage
# (fail, scripts/lib/outputs.sh); nothing has been started by then.
#
# Sets: one variable per option (JSON, CLASSPATH_ARG, MAIN, METHOD, COSTS,
#   HEAP, TIMEOUT, RUNS, SANDBOX, ENGINE, KEY_FILE, ...; judge.sh's
#   EXPECT_OUTPUT, CHECK_CMD, IGNORE_TRAILING_SPACE), PROGRAM_ARGS,
#   JUNIT_ARGS, HEAP_KB (heap_kb). Reads: the DEFAULT_* limits (get_score.sh),
#   AGENT, SCORER, RECEIVER (whether PSF is built).

usage() {
  cat <<'EOF'
Usage: get_score.sh --classpath CP [--main CLASS] [--method SPEC] [options] [-- ARGS...]
       get_score.sh                    (on a terminal: asks for class path and method)

Runs CLASS's main with ARGS under the PSF counting agent and prints the score
of SPEC: the bytecodes it executes (callees included), weighted by a cost table.

  --classpath CP        where the program's classes are (directories and jars, ':'-separated)
  --main CLASS          the class whose main runs (default: the method's class)
  --method SPEC         pkg.Class.name or pkg.Class.name(descriptor); nested classes as
                        pkg.Outer$Inner.name (default: CLASS.main)
  --json                print exactly one JSON object on stdout
  --costs FILE          cost table (default: the one calibrated for the JDK, config/costs.xml
                        for 17, config/costs-jdkN.xml for N, else the nearest); 'none'
                        scores plain bytecodes
  --score-file FILE     also write the bare score (with '~' when approximate) to FILE, atomically;
                        a run that ends with a status other than ok, or by a signal, removes FILE
  --explain             show where the score comes from: the counts the table prices, each
                        explained, then the top methods, opcodes and dependency keys
  --with-overhead       add the runtime overhead (class initialization, linkage) to the score
  --program-output FILE send the program's stdout and stderr to FILE (default: this stderr)
  --profile-out FILE    keep the agent's profile (XML) in FILE
  --junit FILE          also write a JUnit XML report to FILE: one test case, passed when
                        the method is scored within the budget (docs/reports.md)
  --max-score N         the --junit budget: a score of at most N
  --max-ratio R         the --junit budget: at most R times the score of --compare PROFILE
  --compare PROFILE     the reference profile (e.g. the instructor's, kept with --profile-out),
                        for --max-ratio and the report
  --report FILE.html    also write the student report: one self-contained HTML page (score,
                        costly methods, the work in plain words; with --compare, the differences)
  --sources DIR         the submission's .java files, for the report: each line of them with
                        its share (class pkg.A from DIR/pkg/A.java or DIR/A.java)
  --label NAME          the submission's name in the JUnit report and the student report
  --heap SIZE           JVM heap, pinned (default: 512m)
  --timeout SECONDS     wall-clock limit for the run (default: 60)
  --max-bytecodes N     stop once the method has executed N bytecodes, all its threads and
                        invocations together (default: 300000000)
  --max-threads N       stop once the method has started N threads (default: 64)
  --max-output BYTES    stop once the program has printed BYTES (default: 1048576)
  --expect-output FILE  judge the output of the run that is scored: the program's standard
                        output must equal FILE byte for byte, else wrong_output and no score
  --ignore-trailing-space  with --expect-output: white space at the end of each line, blank
                        lines at the end and the last newline do not count
  --check CMD           judge the output of the run that is scored with CMD, a shell command you
                        trust, run outside the sandbox with the path of a file holding the
                        program's standard output as its last argument: exit 0 is correct, else
                        wrong_output (with CMD's first line of output) and no score
                        (JUnit 5 exercises: --main org.junit.platform.console.ConsoleLauncher;
                        a failing test ends as tests_failed; docs/grading-server.md)
                        A judged run must end by its main method: returning, or System.exit
                        there (JUnit: the launcher's); an exit or halt elsewhere is refused
  --runs N              score N times and report every distinct score; a run that fails
                        fails them all, with its own status (default: 1)
  --engine ENGINE       how bytecodes are counted: fast (instrumented classes, JIT on; the
                        default), which runs the program again with step wherever it cannot
                        count a run exactly, and says why, or step (single-stepped)
                        (the score is the same either way; docs/fast-engine.md)
  --sandbox MODE        auto (bubblewrap when it works, else limits only and a warning),
                        require (fail when it does not work) or off (default: auto)
  --key-file FILE       the key that signs kept profiles and JSON results (default:
                        $PSF_KEY_FILE, else psf/result.key in $XDG_CONFIG_HOME or ~/.config);
                        created, mode 0600, when missing. Check results with
                        psf-score --verify (docs/trust-model.md)
  --check-options       check the options and output paths as a run does first, then exit:
                        0, 2 (usage) or 7 (bad_input: the --compare profile) with the reason;
                        nothing runs, the class path, JDK, cost table and key are not looked
                        at (a batch's shared options, once)
  -h, --help            this text

Output files (--score-file, --program-output, --profile-out, --junit, --report) are checked
before the run: each must be a regular file, or not yet exist, in an existing writable directory
(/dev/null discards). They are written after the run through a temporary file beside them
and a rename. Class path entries must be jars or directories; an entry that is a
symbolic link must lead into a directory of the same class path.

The JDK comes from JAVA_HOME, else from PATH: JDK 17, 21 or 25 (newer ones are
refused until verified; docs/jdks.md). scripts/self_test.sh checks the JDK at hand;
a JDK 21 is accepted only after `scripts/self_test.sh --full` passed on it here.

Exit codes (status words):
EOF
  if [ -x "$SCORER" ]; then
    "$SCORER" --status-table
  else
    echo "  (PSF is not built: run make in $PSF_ROOT, then this lists them)"
  fi
}

JSON=0
CHECK_OPTIONS=0
EXPLAIN=0
WITH_OVERHEAD=0
CLASSPATH_ARG=""
MAIN=""
METHOD=""
COSTS=auto
SCORE_FILE=""
PROGRAM_OUTPUT=""
PROFILE_OUT=""
JUNIT=""
REPORT=""
JUNIT_ARGS=()        # --junit and its budget, for every psf-score call that ends the run
MAX_SCORE=""
MAX_RATIO=""
COMPARE=""
COMPARE_ABS=""       # COMPARE, absolute (checked with the cost table: scripts/lib/scorer.sh)
LABEL=""
SOURCES=""
HEAP=$DEFAULT_HEAP
TIMEOUT=$DEFAULT_TIMEOUT
MAX_BYTECODES=$DEFAULT_MAX_BYTECODES
MAX_THREADS=$DEFAULT_MAX_THREADS
MAX_OUTPUT=$DEFAULT_MAX_OUTPUT
RUNS=1
SANDBOX=auto
ENGINE=fast
KEY_FILE=""
SUBMISSION=""
PROGRAM_ARGS=()
# The process's address space: the pinned heap, a stack of -Xss for each
# Java thread (get_score.sh, VMEM_KB) and 2 GiB for everything else the JVM
# maps (code cache, metaspace, its other threads' stacks, the agent), with glibc
# kept to eight malloc arenas (MALLOC_ARENA_MAX, scripts/lib/run.sh): each reserves 64 MiB,
# where glibc would allow eight for each processor. heap_kb SIZE:
# SIZE in KiB, in HEAP_KB.
heap_kb() {
  local n=${1%[kKmMgG]}
  case $1 in
    *[kK]) HEAP_KB=$n ;;
    *[mM]) HEAP_KB=$((n * 1024)) ;;
    *[gG]) HEAP_KB=$((n * 1024 * 1024)) ;;
    *) HEAP_KB=$(((n + 1023) / 1024)) ;;
  esac
}
# --heap: a size the JVM can start with and this machine can give (the heap
# is pinned, -Xms = -Xmx): from 16m to 32g and at most the physical memory.
MIN_HEAP_KB=$((16 * 1024))
MAX_HEAP_KB=$((32 * 1024 * 1024))
check_heap() {
  local kb mem key val unit
  [[ $HEAP =~ ^[1-9][0-9]{0,11}[kKmMgG]?$ ]] || fail usage "--heap takes a size such as 512m, not '$HEAP'"
  heap_kb "$HEAP"
  kb=$HEAP_KB
  [ "$kb" -ge "$MIN_HEAP_KB" ] || fail usage "--heap $HEAP is below the smallest heap PSF runs with, 16m"
  [ "$kb" -le "$MAX_HEAP_KB" ] || fail usage "--heap $HEAP is above the largest heap PSF runs with, 32g"
  # (read by the shell itself: a sed for one line of /proc/meminfo was a fork)
  mem=""
  while read -r key val unit; do
    [ "$key $unit" = "MemTotal: kB" ] && [[ $val =~ ^[0-9]+$ ]] && { mem=$val; break; }
  done 2>/dev/null </proc/meminfo
  [ -z "$mem" ] || [ "$kb" -le "$mem" ] ||
    fail usage "--heap $HEAP is more than this machine's memory ($((mem / 1024))m)"
}

# (a value is never an option: `--timeout -- 5` and `--classpath --main X`
# are said to lack the value, not to have an unknown option after it)
need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] || fail usage "option $1 needs a value (see --help)"
  case $2 in --*) fail usage "option $1 needs a value, not '$2' (see --help)" ;; esac
}

# parse_args ARGS...: the command line into the option variables.
parse_args() {
  if [ $# -eq 0 ] && [ -t 0 ]; then
    read -r -p "Class path: " CLASSPATH_ARG || exit 2
    read -r -p "Class with main: " MAIN || exit 2
    read -r -p "Method to score [ENTER = main]: " METHOD || exit 2
    read -r -a PROGRAM_ARGS -p "Program arguments [ENTER = none]: " || exit 2
    [ -n "$MAIN" ] || fail usage "the class with main is required"
    # a bare method name (the default "main" too) is a method of that class
    case ${METHOD%%(*} in
      "") METHOD="$MAIN.main" ;;
      *.*) ;;
      *) METHOD="$MAIN.$METHOD" ;;
    esac
  fi
  while [ $# -gt 0 ]; do
    case $1 in
      --classpath|--class-path|-cp) need_value "$@"; CLASSPATH_ARG=$2; shift 2 ;;
      --main) need_value "$@"; MAIN=$2; shift 2 ;;
      --method) need_value "$@"; METHOD=$2; shift 2 ;;
      --json) JSON=1; shift ;;
      --check-options) CHECK_OPTIONS=1; shift ;;
      --costs) need_value "$@"; COSTS=$2; shift 2 ;;
      --score-file) need_value "$@"; SCORE_FILE=$2; shift 2 ;;
      --explain) EXPLAIN=1; shift ;;
      --with-overhead) WITH_OVERHEAD=1; shift ;;
      --program-output) need_value "$@"; PROGRAM_OUTPUT=$2; shift 2 ;;
      --profile-out) need_value "$@"; PROFILE_OUT=$2; shift 2 ;;
      --junit) need_value "$@"; JUNIT=$2; shift 2 ;;
      --report) need_value "$@"; REPORT=$2; shift 2 ;;
      --max-score) need_value "$@"; MAX_SCORE=$2; shift 2 ;;
      --max-ratio) need_value "$@"; MAX_RATIO=$2; shift 2 ;;
      --compare) need_value "$@"; COMPARE=$2; shift 2 ;;
      --label) need_value "$@"; LABEL=$2; shift 2 ;;
      --sources) need_value "$@"; SOURCES=$2; shift 2 ;;
      --heap) need_value "$@"; HEAP=$2; shift 2 ;;
      --timeout) need_value "$@"; TIMEOUT=$2; shift 2 ;;
      --max-bytecodes) need_value "$@"; MAX_BYTECODES=$2; shift 2 ;;
      --max-threads) need_value "$@"; MAX_THREADS=$2; shift 2 ;;
      --max-output) need_value "$@"; MAX_OUTPUT=$2; shift 2 ;;
      --runs) need_value "$@"; RUNS=$2; shift 2 ;;
      --sandbox) need_value "$@"; SANDBOX=$2; shift 2 ;;
      --engine) need_value "$@"; ENGINE=$2; shift 2 ;;
      --key-file) need_value "$@"; KEY_FILE=$2; shift 2 ;;
      --expect-output) need_value "$@"; EXPECT_OUTPUT=$2; shift 2 ;;
      --check) need_value "$@"; CHECK_CMD=$2; shift 2 ;;
      --ignore-trailing-space) IGNORE_TRAILING_SPACE=1; shift ;;
      -h|--help) usage; exit 0 ;;
      --) shift; PROGRAM_ARGS=("$@"); break ;;
      *) fail usage "unknown option '$1' (see --help)" ;;
    esac
  done
}

# --compare: a readable regular file (psf-score reads nothing else; a FIFO
# would only be refused after the run).
check_compare() {
  [ -z "$COMPARE" ] && return 0
  { [ -f "$COMPARE" ] && [ -r "$COMPARE" ]; } || fail usage "cannot read the --compare profile '$COMPARE' (a regular file)"
}
# refuse_compare WHY: the --compare profile is no reference (psf-score's
# reason WHY, without its "--compare: "): bad_input, before the program runs.
refuse_compare() {
  fail bad_input "the --compare profile is not usable: ${1#--compare: }"
}
# check_options_compare: for --check-options, the --compare profile loaded
# and scored now (with the built-in table; a run checks it with its cost
# table, check_costs in scripts/lib/scorer.sh).
check_options_compare() {
  local says
  [ -n "$COMPARE_ABS" ] || return 0
  says=$("$SCORER" --check-table --compare "$COMPARE_ABS" 2>&1 >/dev/null) && return 0
  says=${says%%$'\n'*}
  refuse_compare "${says#psf-score: }"
}
# check_args: the options checked together, before anything runs.
check_args() {
  # The JUnit report and its budget, and the student report, checked before
  # the program runs. JUNIT_ARGS carries both to every psf-score call that
  # ends the run.
  if [ -z "$JUNIT" ]; then
    [ -z "$MAX_SCORE$MAX_RATIO" ] || fail usage "--max-score and --max-ratio go with --junit FILE"
    [ -z "$COMPARE$LABEL" ] || [ -n "$REPORT" ] || fail usage "--compare and --label go with --junit FILE or --report FILE"
    check_compare
  else
    [ -z "$MAX_SCORE" ] || [ -z "$MAX_RATIO" ] || fail usage "give --max-score or --max-ratio, not both"
    [ -z "$MAX_SCORE" ] || [[ $MAX_SCORE =~ ^[0-9]{1,19}$ ]] || fail usage "--max-score takes a whole number, not '$MAX_SCORE'"
    if [ -n "$MAX_RATIO" ]; then
      [[ $MAX_RATIO =~ ^[0-9]{1,9}(\.[0-9]{1,6})?$ ]] && [[ $MAX_RATIO =~ [1-9] ]] ||
        fail usage "--max-ratio takes a number above 0 with at most 6 decimals, such as 1.5, not '$MAX_RATIO'"
      [ -n "$COMPARE" ] || fail usage "--max-ratio needs --compare PROFILE (the reference's profile)"
    fi
    check_compare
    abs_path abs "$JUNIT"
    JUNIT_ARGS=(--junit "$abs")
    [ -z "$MAX_SCORE" ] || JUNIT_ARGS+=(--max-score "$MAX_SCORE")
    abs_path abs "$COMPARE"
    [ -z "$MAX_RATIO" ] || JUNIT_ARGS+=(--max-ratio "$MAX_RATIO" --compare "$abs")
  fi
  [ -z "$SOURCES" ] || [ -n "$REPORT" ] || fail usage "--sources goes with --report FILE"
  [ -z "$SOURCES" ] || [ -d "$SOURCES" ] || fail usage "--sources: $SOURCES is not a directory"
  if [ -n "$REPORT" ]; then
    abs_path abs "$REPORT"
    JUNIT_ARGS+=(--report "$abs")
    abs_path abs "$SOURCES"
    [ -z "$SOURCES" ] || JUNIT_ARGS+=(--sources "$abs")
    abs_path abs "$COMPARE"
    [ -z "$COMPARE" ] || [ -n "$MAX_RATIO" ] || JUNIT_ARGS+=(--compare "$abs")
  fi
  [ -z "$COMPARE" ] || abs_path COMPARE_ABS "$COMPARE"
  [ -z "$LABEL" ] || JUNIT_ARGS+=(--label "$LABEL")
  [ -r "$AGENT" ] && [ -x "$SCORER" ] && [ -x "$RECEIVER" ] ||
    fail internal_error "PSF is not built ($AGENT, $SCORER, $RECEIVER): run make in $PSF_ROOT"
  # (the option given after --, among the program's arguments: said so)
  local after="" a
  for a in "${PROGRAM_ARGS[@]}"; do
    case $a in --classpath|--class-path|-cp|--main|--method) after="; '$a' came after '--', where the program's arguments are"; break ;; esac
  done
  [ -n "$CLASSPATH_ARG" ] || fail usage "--classpath is required (see --help)$after"
  [ -n "$MAIN$METHOD" ] || fail usage "give --main CLASS or --method SPEC (see --help)$after"
  check_heap
  for pair in "timeout:$TIMEOUT" "max-bytecodes:$MAX_BYTECODES" "max-threads:$MAX_THREADS" \
    "max-output:$MAX_OUTPUT" "runs:$RUNS"; do
    [[ ${pair#*:} =~ ^[1-9][0-9]{0,17}$ ]] || fail usage "--${pair%%:*} takes a whole number above 0, not '${pair#*:}'"
  done
  case $SANDBOX in auto|require|off) ;; *) fail usage "--sandbox takes auto, require or off, not '$SANDBOX'" ;; esac
  case $ENGINE in step|fast) ;; *) fail usage "--engine takes step or fast, not '$ENGINE'" ;; esac
  if [ -z "$METHOD" ]; then
    METHOD="$MAIN.main"
  else
    # the method's class: everything before the last '.' ahead of any '('
    spec_head=${METHOD%%(*}
    [[ $spec_head == *.* ]] ||
      fail usage "method spec '$METHOD' names no class (expected pkg.Class.name${MAIN:+, such as $MAIN.$METHOD})"
    [ -n "$MAIN" ] || MAIN=${spec_head%.*}
  fi
  case $METHOD$MAIN in
    *,*|*=*) fail usage "a method spec or class name cannot contain ',' or '='" ;;
  esac
  # Names reach the JVM and the agent as UTF-8 (modified UTF-8 in class files).
  # (printable ASCII, as nearly every name is, is UTF-8 without control
  # characters: only other names cost an iconv)
  printable_ascii() { local LC_ALL=C; [[ $1 != *[!\ -~]* ]]; }
  for pair in "method:$METHOD" "main:$MAIN"; do
    printable_ascii "${pair#*:}" && continue
    printf '%s' "${pair#*:}" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 ||
      fail usage "--${pair%%:*} is not valid UTF-8"
    case ${pair#*:} in *[[:cntrl:]]*) fail usage "--${pair%%:*} contains a control character" ;; esac
  done
  # A class name, never a launcher option (-X...) or an @argfile.
  case $MAIN in
    -*|@*|*/*|*' '*|.*|*.) fail usage "'$MAIN' is not a class name (pkg.Class or pkg.Outer\$Inner)" ;;
  esac
  # How the scored run's output is judged (scripts/lib/judge.sh).
  judge_options
}
