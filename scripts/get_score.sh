#!/usr/bin/env bash
# get_score.sh - score one Java method: run the program under the counting
# agent with a pinned, deterministic JVM configuration, then weight the
# profile with a cost table.
#
# This is what a grading server calls (non-interactively, many at once) and
# what a person types. It writes nothing into the working directory: the
# JVM runs in a private scratch directory that is removed at exit. With
# --json, stdout carries exactly one JSON object and nothing else; the
# program's own output goes to stderr (or --program-output FILE).
#
# Exit codes (docs/exit-codes.md; the scorer maps status words to them):
#   0 ok, 2 usage, 3 class not found, 4 method not found or ambiguous,
#   5 method never invoked, 6 JVM ended inside the method, 7 bad input file,
#   8 the program failed, 70 internal error.
set -u

PSF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PSF_BUILD:-$PSF_ROOT/build}
AGENT=$BUILD/libpsfagent.so
SCORER=$BUILD/psf-score

# The JVM flags every scored run uses, and why (README: "Determinism"):
#   -XX:-UseTLAB                  every allocation reaches the agent: exact array sizes
#   -XX:+UseSerialGC              no parallel GC threads whose count depends on the machine
#   -XX:ActiveProcessorCount=1    thread pools, GC and compiler threads sized the same everywhere
#   -XX:-UseDynamicNumberOfCompilerThreads  compiler threads created at start, always the same number
#   -Xshare:auto                  the JDK's class-data-sharing archive, when it has one: without
#                                 it, start-up races change the main thread's identity hash codes
#                                 (2 runs in 15 differed here); the profile records whether it was used
#   -Xms/-Xmx                     the same heap everywhere: GC timing and SoftReference clearing
#   -Xss                          the same stack depth everywhere
#   -Duser.* -Dfile.encoding ... the same locale, time zone and encodings everywhere
PINNED_FLAGS=(
  -XX:-UseTLAB
  -XX:+UseSerialGC
  -XX:ActiveProcessorCount=1
  -XX:-UseDynamicNumberOfCompilerThreads
  -Xshare:auto
  -Xss1m
  -Duser.language=en -Duser.country=US -Duser.variant=
  -Duser.timezone=UTC
  -Dfile.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -Dsun.stderr.encoding=UTF-8
  -Dsun.jnu.encoding=UTF-8
)
DEFAULT_HEAP=512m

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
  --costs FILE          cost table (default: config/costs.xml); 'none' scores plain bytecodes
  --score-file FILE     also write the bare score (with '~' when approximate) to FILE, atomically
  --explain             show where the score comes from (top methods, opcodes, dependencies)
  --with-overhead       add the runtime overhead (class initialization, linkage) to the score
  --program-output FILE send the program's stdout and stderr to FILE (default: this stderr)
  --profile-out FILE    keep the agent's profile (XML) in FILE
  --heap SIZE           JVM heap, pinned (default: 512m)
  -h, --help            this text

The JDK comes from JAVA_HOME, else from PATH (JDK 17 or newer).

Exit codes: 0 ok, 2 usage, 3 class not found, 4 method not found or ambiguous,
5 method never invoked, 6 the JVM ended inside the method, 7 bad input file,
8 the program failed, 70 internal error.
EOF
}

JSON=0
EXPLAIN=0
WITH_OVERHEAD=0
CLASSPATH_ARG=""
MAIN=""
METHOD=""
COSTS="$PSF_ROOT/config/costs.xml"
SCORE_FILE=""
PROGRAM_OUTPUT=""
PROFILE_OUT=""
HEAP=$DEFAULT_HEAP
PROGRAM_ARGS=()

# Report an error that happened before the scorer could: one JSON object with
# --json (written by the scorer, so all JSON has one writer), a sentence on
# stderr otherwise. Exits with the status's code.
fail() {
  local status=$1 message=$2
  if [ -x "$SCORER" ]; then
    if [ "$JSON" = 1 ]; then
      "$SCORER" --status-json "$status" "$message"
      exit $?
    fi
    echo "get_score.sh: $message" >&2
    "$SCORER" --status-json "$status" "$message" >/dev/null
    exit $?
  fi
  echo "get_score.sh: $message" >&2
  [ "$JSON" = 1 ] && printf '{"status":"internal_error","score":null,"message":"build/psf-score is missing: run make"}\n'
  exit 70
}

need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] || fail usage "option $1 needs a value (see --help)"
}

# --- arguments ---------------------------------------------------------------
if [ $# -eq 0 ] && [ -t 0 ]; then
  read -r -p "Class path: " CLASSPATH_ARG || exit 2
  read -r -p "Class with main: " MAIN || exit 2
  read -r -p "Method to score [ENTER = main]: " METHOD || exit 2
fi
while [ $# -gt 0 ]; do
  case $1 in
    --classpath|--class-path|-cp) need_value "$@"; CLASSPATH_ARG=$2; shift 2 ;;
    --main) need_value "$@"; MAIN=$2; shift 2 ;;
    --method) need_value "$@"; METHOD=$2; shift 2 ;;
    --json) JSON=1; shift ;;
    --costs) need_value "$@"; COSTS=$2; shift 2 ;;
    --score-file) need_value "$@"; SCORE_FILE=$2; shift 2 ;;
    --explain) EXPLAIN=1; shift ;;
    --with-overhead) WITH_OVERHEAD=1; shift ;;
    --program-output) need_value "$@"; PROGRAM_OUTPUT=$2; shift 2 ;;
    --profile-out) need_value "$@"; PROFILE_OUT=$2; shift 2 ;;
    --heap) need_value "$@"; HEAP=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; PROGRAM_ARGS=("$@"); break ;;
    *) fail usage "unknown option '$1' (see --help)" ;;
  esac
done

[ -x "$AGENT" ] && [ -x "$SCORER" ] || { fail internal_error "the agent or the scorer is not built ($AGENT, $SCORER): run make in $PSF_ROOT"; }
[ -n "$CLASSPATH_ARG" ] || fail usage "--classpath is required (see --help)"
[ -n "$MAIN$METHOD" ] || fail usage "give --main CLASS or --method SPEC (see --help)"
case $HEAP in
  [1-9]*[kKmMgG]|[1-9]*) ;;
  *) fail usage "--heap takes a size such as 512m, not '$HEAP'" ;;
esac
if [ -z "$METHOD" ]; then
  METHOD="$MAIN.main"
elif [ -z "$MAIN" ]; then
  # the method's class: everything before the last '.' ahead of any '('
  spec_head=${METHOD%%(*}
  [[ $spec_head == *.* ]] || fail usage "method spec '$METHOD' names no class (expected pkg.Class.name)"
  MAIN=${spec_head%.*}
fi
case $METHOD$MAIN in
  *,*|*=*) fail usage "a method spec or class name cannot contain ',' or '='" ;;
esac
if [ "$COSTS" != none ] && [ ! -r "$COSTS" ]; then
  fail bad_input "cannot read the cost table '$COSTS'"
fi

# --- the JDK -------------------------------------------------------------------
if [ -n "${JAVA_HOME:-}" ]; then
  JAVA=$JAVA_HOME/bin/java
  [ -x "$JAVA" ] || fail usage "JAVA_HOME=$JAVA_HOME holds no bin/java"
else
  JAVA=$(command -v java) || fail usage "no java on PATH and JAVA_HOME is not set (JDK 17 or newer is needed)"
fi
java_version=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
case $java_version in
  ''|1.*|[0-9]|1[0-6]) fail usage "$JAVA is Java ${java_version:-of unknown version}; JDK 17 or newer is needed" ;;
esac

# --- class path: absolute, because the JVM runs in the scratch directory -----
abs_classpath=""
IFS=: read -r -a cp_parts <<<"$CLASSPATH_ARG"
for part in "${cp_parts[@]}"; do
  [ -n "$part" ] || continue
  [ -e "$part" ] || fail class_not_found "class path entry '$part' does not exist"
  case $part in
    /*) abs=$part ;;
    *) abs=$PWD/$part ;;
  esac
  abs_classpath=${abs_classpath:+$abs_classpath:}$abs
done
[ -n "$abs_classpath" ] || fail usage "--classpath is empty"
if [ "$COSTS" != none ]; then
  case $COSTS in /*) ;; *) COSTS=$PWD/$COSTS ;; esac
fi

# --- scratch directory ---------------------------------------------------------
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/psf.XXXXXXXX" 2>/dev/null) || SCRATCH=$(mktemp -d /tmp/psf.XXXXXXXX) ||
  fail internal_error "cannot create a scratch directory"
case $SCRATCH in *,*) rm -rf "$SCRATCH"; SCRATCH=$(mktemp -d /tmp/psf.XXXXXXXX) || fail internal_error "cannot create a scratch directory" ;; esac
trap 'rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM
mkdir "$SCRATCH/work"
PROFILE=$SCRATCH/profile.xml

# --- run ---------------------------------------------------------------------
jvm_cmd=("$JAVA" "${PINNED_FLAGS[@]}" "-Xms$HEAP" "-Xmx$HEAP"
  "-agentpath:$AGENT=method=$METHOD,out=$PROFILE"
  -cp "$abs_classpath" "$MAIN" "${PROGRAM_ARGS[@]}")
# A clean, fixed environment: the program sees the same variables everywhere.
run_env=(env -i PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC HOME="$SCRATCH/work")
if [ -n "$PROGRAM_OUTPUT" ]; then
  (cd "$SCRATCH/work" && exec "${run_env[@]}" "${jvm_cmd[@]}") </dev/null >"$PROGRAM_OUTPUT" 2>&1
else
  (cd "$SCRATCH/work" && exec "${run_env[@]}" "${jvm_cmd[@]}") </dev/null 1>&2
fi
jvm_rc=$?

if [ ! -s "$PROFILE" ]; then
  fail program_failed "the JVM exited with code $jvm_rc before the agent wrote a profile (see the program's output)"
fi
[ -n "$PROFILE_OUT" ] && cp "$PROFILE" "$PROFILE_OUT"

# --- score -------------------------------------------------------------------
score_args=()
if [ "$COSTS" != none ]; then
  score_args+=(--costs "$COSTS" --costs-sha256 "$(sha256sum "$COSTS" | cut -d' ' -f1)")
fi
[ "$WITH_OVERHEAD" = 1 ] && score_args+=(--with-overhead)
view_args=()
[ "$EXPLAIN" = 1 ] && view_args+=(--explain)
[ "$JSON" = 1 ] && view_args+=(--json)

# The method's profile may be fine while the program as a whole failed (a
# non-zero exit after the method returned): that is no valid submission.
profile_status=$(sed -n 's/.*<psf-profile [^>]*status="\([a-z_]*\)".*/\1/p' "$PROFILE" | head -n 1)
if [ "$jvm_rc" -ne 0 ] && [ "$profile_status" = ok ]; then
  fail program_failed "the program exited with code $jvm_rc (the method itself finished; see the program's output)"
fi

"$SCORER" "${score_args[@]}" "${view_args[@]}" "$PROFILE"
rc=$?
if [ -n "$SCORE_FILE" ] && [ "$rc" -eq 0 ]; then
  tmp_score=$(mktemp "$(dirname -- "$SCORE_FILE")/.psf-score.XXXXXXXX") ||
    fail internal_error "cannot write next to the score file '$SCORE_FILE'"
  if "$SCORER" "${score_args[@]}" --score-only "$PROFILE" >"$tmp_score" 2>/dev/null &&
    mv -f "$tmp_score" "$SCORE_FILE"; then :; else
    rm -f "$tmp_score"
    echo "get_score.sh: could not write the score file '$SCORE_FILE'" >&2
    exit 70
  fi
fi
exit "$rc"
