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
# Every outcome has a status word and an exit code; the table lives in one
# place, scorer/status.c, and is printed by `get_score.sh --help` and in the
# README ("Status and exit codes"). Errors found here are reported through
# `psf-score --status-json` so that all JSON has one writer.
set -u

# dir_of PATH: what `dirname -- PATH` prints, in DIR_OF, by the shell itself
# (each dirname was a fork and an exec): PATH without its last component and
# the slashes before it; "." when PATH has no slash, "/" when only the root
# is left.
dir_of() {
  local p=$1
  while [[ $p == */ ]]; do p=${p%/}; done
  case $p in
    "") DIR_OF=/ ;;
    */*)
      p=${p%/*}
      while [[ $p == */ ]]; do p=${p%/}; done
      DIR_OF=${p:-/} ;;
    *) DIR_OF=. ;;
  esac
}

dir_of "${BASH_SOURCE[0]}"
PSF_ROOT=$(cd "$DIR_OF/.." && pwd)
BUILD=${PSF_BUILD:-$PSF_ROOT/build}
# absolute: the JVM needs an absolute -agentpath, and the run changes directory
case $BUILD in /*) ;; *) BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || BUILD=$PWD/${PSF_BUILD} ;; esac
AGENT=$BUILD/libpsfagent.so
SCORER=$BUILD/psf-score
RECEIVER=$BUILD/psf-receive
# shellcheck source=lib/jdk.sh
. "$PSF_ROOT/scripts/lib/jdk.sh"
# shellcheck source=lib/judge.sh
. "$PSF_ROOT/scripts/lib/judge.sh"

# The JVM flags every scored run uses, and why (docs/determinism.md):
#   -XX:-UseTLAB                  every allocation reaches the agent: exact array sizes
#   -XX:+UseSerialGC              no parallel GC threads whose count depends on the machine
#   -XX:ActiveProcessorCount=1    thread pools, GC and compiler threads sized the same everywhere
#   -XX:-UseDynamicNumberOfCompilerThreads  compiler threads created at start, always the same number
#   -Xshare:auto                  the JDK's class-data-sharing archive, when it has one: without
#                                 it, start-up races change the main thread's identity hash codes
#                                 (2 runs in 15 differed here); the profile records whether it was used
#   -Xms/-Xmx                     the same heap everywhere: GC timing and SoftReference clearing
#   -XX:SoftRefLRUPolicyMSPerMB=100000000  a soft reference is cleared only when the heap is all
#                                 but full, never because of the wall-clock time since its last use
#   -Xss                          the same stack depth everywhere
#   -Duser.* -Dfile.encoding ... the same locale, time zone and encodings everywhere
#   -XX:DisableIntrinsic=...      clock reads reach the agent's virtual clock even from compiled code
#   -XX:...Size caps              memory outside the heap is bounded too (code cache, metaspace, direct)
#   -Xlog:jni+resolve=off         the agent re-binds System's natives; the JVM would warn on stdout
#   -XX:+DisableAttachMechanism   no agent can attach to the JVM (not even the program to itself)
#   -XX:-UseCRC32Intrinsics -XX:-UseCRC32CIntrinsics  the interpreter runs CRC32 and CRC32C as
#                                 stubs no native binding sees: CRC32 then calls its native, which
#                                 the agent charges by size, and CRC32C runs as bytecode
#   -XX:-UsePerfData              no hsperfdata counters (real times of JIT, GC, class loading) the
#                                 program could read, and no file in /tmp
#   (not --limit-modules: it would keep sun.misc.Unsafe out, but it also switches the CDS
#    archive off, and with it determinism; see -Xshare:auto. The agent disarms Unsafe instead.)
PINNED_FLAGS=(
  -XX:-UseTLAB
  -XX:+UseSerialGC
  -XX:ActiveProcessorCount=1
  -XX:-UseDynamicNumberOfCompilerThreads
  -XX:SoftRefLRUPolicyMSPerMB=100000000
  -Xshare:auto
  -Xss1m
  -Duser.language=en -Duser.country=US -Duser.variant=
  -Duser.timezone=UTC
  -Dfile.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -Dsun.stderr.encoding=UTF-8
  -Dsun.jnu.encoding=UTF-8
  -XX:+UnlockDiagnosticVMOptions -XX:DisableIntrinsic=_nanoTime,_currentTimeMillis
  -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=256m -XX:CompressedClassSpaceSize=128m
  -XX:MaxDirectMemorySize=64m
  -Xlog:jni+resolve=off
  -XX:+DisableAttachMechanism
  -XX:-UsePerfData
  -XX:-UseCRC32Intrinsics -XX:-UseCRC32CIntrinsics
)
# The JIT of every scoring run, set for the fast engine (docs/fast-engine.md, "The JIT"):
#   -XX:TieredStopAtLevel=1       C1 without profiling, no C2: C2 compiles the probe-heavy code
#                                 slowly (often not before a short run ends), and until then the
#                                 probes are calls from C1's profiling code
#   -XX:C1MaxInlineSize=200       C1 inlines the probes' bodies (the largest hot one has 167 bytes)
#   -XX:CICompilerCount=2         the two compiler threads the step engine's runs get (ergonomic,
#                                 with ActiveProcessorCount=1); C1 alone would get one on JDK 25,
#                                 and each compiler thread takes a thread id and draws from the
#                                 sequence that seeds identity hash codes
# They change no count (the probes count, in every tier; the step engine counts in the
# interpreter), and thread ids and identity hash codes stay as with the default JIT. Both
# engines' runs get them: the program can read its JVM's command line (/proc/self/cmdline,
# RuntimeMXBean, VM options), which must not depend on the engine that counts it.
JIT_FLAGS=(
  -XX:TieredStopAtLevel=1
  -XX:C1MaxInlineSize=200
  -XX:CICompilerCount=2
)
# Limits a grading server can rely on (each one has an option):
DEFAULT_HEAP=512m
DEFAULT_TIMEOUT=60                # seconds of wall clock for the whole JVM run
DEFAULT_MAX_BYTECODES=300000000   # about 30 s of single-stepping
DEFAULT_MAX_THREADS=64            # threads the measured code may start
DEFAULT_MAX_OUTPUT=1048576        # bytes of program output (stdout + stderr)
MAX_RESULT_BYTES=67108864         # the agent's result channel (a profile is far smaller)
# shellcheck source=lib/outputs.sh
. "$PSF_ROOT/scripts/lib/outputs.sh"
# shellcheck source=lib/options.sh
. "$PSF_ROOT/scripts/lib/options.sh"
# shellcheck source=lib/scorer.sh
. "$PSF_ROOT/scripts/lib/scorer.sh"
# shellcheck source=lib/classpath.sh
. "$PSF_ROOT/scripts/lib/classpath.sh"
# shellcheck source=lib/signing.sh
. "$PSF_ROOT/scripts/lib/signing.sh"
# shellcheck source=lib/jdk_check.sh
. "$PSF_ROOT/scripts/lib/jdk_check.sh"
# shellcheck source=lib/scratch.sh
. "$PSF_ROOT/scripts/lib/scratch.sh"
# shellcheck source=lib/sandbox.sh
. "$PSF_ROOT/scripts/lib/sandbox.sh"



# --- arguments ---------------------------------------------------------------
parse_args "$@"

check_args
RUN_ENGINE=$ENGINE  # the engine of the next run: fast falls back to step for good
FALLBACK=""         # why it did


start_jdk_probe
start_probes
check_outputs
resolve_classpath
prepare_key
# The submission's digests need neither the JDK's version nor the cost
# table: they are started now (while the version probe runs, if one does),
# with the launcher resolved above and used from here on.
SUBMISSION_DIGESTS=""
[ -z "$JAVA_REAL" ] || [ -z "$KEY_FILE" ] || start_digests

check_jdk
SUBMISSION_PENDING=1

heap_kb "$HEAP"
VMEM_KB=$((HEAP_KB + 2 * 1024 * 1024))

setup_scratch
setup_guard

decide_sandbox

sandbox_binds

# RUN_KEY: 32 bytes of /dev/urandom as 64 hex digits, read by the shell
# itself (an od and a tr were two processes per run). Each byte is read
# alone with NUL as the delimiter, so a NUL byte reads as the empty string,
# whose value is 0; in the C locale every other byte is one character.
# (The key ends in a newline where it is handed on, as a here-string: the
# agent and psf-receive read it up to the end and ignore white space.)
run_key() {
  local LC_ALL=C c i
  RUN_KEY=""
  for ((i = 0; i < 32; i++)); do
    IFS= read -r -d '' -n 1 c || return 1
    printf -v c '%02x' "'$c"
    RUN_KEY+=$c
  done </dev/urandom
  [[ $RUN_KEY =~ ^[0-9a-f]{64}$ ]]
}

# One JVM run. Sets RUN_RC, RUN_PROFILE and, when no authentic result
# arrived, RUN_STATUS and RUN_MESSAGE; the program's output is in
# $RUN_DIR/program.out.
run_once() {
  RUN_DIR=$SCRATCH/run.$1
  local work=$RUN_DIR/work made=""
  # (the first run's directory and FIFO: made in the background, above)
  if [ "$1" = 1 ] && [ -n "$PREP_FD" ]; then
    read -r -u "$PREP_FD" made
    exec {PREP_FD}<&-
    PREP_FD=""
  fi
  [ "$made" = done ] || mkdir -p "$work/tmp"
  local seen=$work # the work directory as the program sees it
  [ "$SANDBOXED" = 1 ] && seen=$SANDBOX_WORK
  RUN_STATUS=""
  RUN_MESSAGE=""
  RUN_PROFILE=$RUN_DIR/profile.xml
  # A fresh key per run; it reaches the agent on a pipe, never in argv or env.
  local key
  run_key || fail internal_error "cannot read a run key from /dev/urandom"
  key=$RUN_KEY
  local stream=$RUN_DIR/result.stream fifo=$RUN_DIR/result.fifo
  [ "$made" = done ] || mkfifo "$fifo"
  # The stream is capped: a program that floods the channel gets no result
  # (psf-receive rejects oversized claims) instead of a receiver that runs
  # for hours.
  # (guarded: if this script dies before the JVM opens the FIFO, the reader
  # would wait for a writer forever)
  RUN_ACTIVE=1
  "${GUARD[@]}" head -c "$MAX_RESULT_BYTES" "$fifo" >"$stream" {SWEEP_FD}>&- &
  local reader=$!
  RUN_HELPERS=("$reader")
  # On a terminal (never with --json), the agent keeps the bytecodes counted
  # so far in a file of the work directory, and show_progress prints them.
  local progress_opt="" progress_file=""
  # (the step engine's runs only: the fast engine adds an invocation's
  # bytecodes to the shared total when it ends, so its line would say 0)
  if [ -t 2 ] && [ "$JSON" != 1 ] && [ "$RUN_ENGINE" = step ]; then
    progress_file=$work/.psf-progress
    progress_opt=,progress=$([ "$SANDBOXED" = 1 ] && echo "$SANDBOX_WORK" || echo "$work")/.psf-progress
  fi
  local jvm=("$JAVA" "${PINNED_FLAGS[@]}" "${JDK_FLAGS[@]}" "${JIT_FLAGS[@]}" "-Xms$HEAP" "-Xmx$HEAP" "-Djava.io.tmpdir=$seen/tmp"
    "-agentpath:$AGENT=method=$METHOD,result_fd=4,key_fd=3,clock=virtual,processes=deny,max_bytecodes=$MAX_BYTECODES,max_threads=$MAX_THREADS,engine=$RUN_ENGINE$progress_opt"
    -cp "$JVM_CLASSPATH" "$MAIN" "${PROGRAM_ARGS[@]}")
  # Eight malloc arenas, not fewer: the JVM's own threads take the first few,
  # and with two the fast engine's two retransforming threads waited on the
  # malloc locks of the others (5,178 futex calls at its start against 1,019,
  # about a tenth of a short run's wall time; bench/fast_scoring.sh).
  local cmd=(timeout -s QUIT -k 2 "$TIMEOUT" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC HOME="$seen"
    MALLOC_ARENA_MAX=8 "${PDEATH[@]}" "${jvm[@]}")
  if [ "$SANDBOXED" = 1 ]; then
    # /proc holds only what the JVM needs: self/exe (how the launcher finds
    # the JDK) and self/cmdline (how the agent reads the JVM flags). With no
    # /proc/self/mem and no /proc/self/fd, the program cannot read the
    # agent's key out of memory or reach descriptors by number.
    printf '%s\0' "${jvm[@]}" >"$RUN_DIR/cmdline"
    cmd=(bwrap "${SANDBOX_BINDS[@]}"
      --bind "$work" "$SANDBOX_WORK" --chdir "$SANDBOX_WORK" --hostname psf
      --tmpfs /proc --symlink "$JAVA" /proc/self/exe --ro-bind "$RUN_DIR/cmdline" /proc/self/cmdline
      --unshare-all --die-with-parent --new-session -- "${cmd[@]}")
  fi
  # its own session and process group, whose leader keeps this PID
  cmd=(setsid "${cmd[@]}")
  # the run dies with this script even by SIGKILL, which skips the traps
  cmd=("${GUARD[@]}" "${cmd[@]}")
  # RLIMIT_FSIZE keeps the output file from growing much past the limit
  # (HotSpot ignores SIGXFSZ, so writes just fail); the watcher ends the run.
  local blocks=$((MAX_OUTPUT / 1024 + 2))
  local started=$SECONDS out=$RUN_DIR/program.out
  # (a judged run keeps the program's stdout apart: scripts/lib/judge.sh).
  # Both are opened for appending, so that where they are one file (not
  # judged) neither overwrites what the other wrote, as 2>&1 would keep them.
  local outs=("$out") stdout_to=$out
  if judged_run; then
    stdout_to=$RUN_DIR/program.stdout
    outs+=("$stdout_to")
  fi
  : >"$out"
  : >"$stdout_to"
  (
    cd "$work" || exit 70
    ulimit -c 0
    ulimit -f "$blocks"
    ulimit -v "$VMEM_KB"
    # Nothing this script inherited (a server's sockets and pipes) reaches
    # the program: only stdin, stdout, stderr, the key (3) and the result (4).
    for fd in /proc/self/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 4 ] 2>/dev/null && eval "exec $fd>&-"
    done
    exec "${cmd[@]}"
  ) 3<<<"$key" 4>"$fifo" </dev/null >>"$stdout_to" 2>>"$out" &
  local jvm_pid=$!
  RUN_PID=$jvm_pid
  # (it prints nothing: its streams are not the caller's, so a poll that
  # outlives the killed watcher holds no pipe a caller reads to its end)
  watch_output "$jvm_pid" "$RUN_DIR/output_limit" "${outs[@]}" >/dev/null 2>&1 &
  local watcher=$!
  RUN_HELPERS+=("$watcher")
  local shower=""
  if [ -n "$progress_file" ]; then
    show_progress "$progress_file" &
    shower=$!
    RUN_HELPERS+=("$shower")
  fi
  wait "$jvm_pid"
  RUN_RC=$?
  RUN_PID=""
  # what the JVM may have left in its group (none is expected)
  kill -KILL -- "-$jvm_pid" 2>/dev/null
  kill "$watcher" 2>/dev/null
  wait "$watcher" 2>/dev/null
  if [ -n "$shower" ]; then
    kill "$shower" 2>/dev/null
    wait "$shower" 2>/dev/null
    printf '\r\033[K' >&2    # the progress line, if shown, is cleared
  fi
  wait "$reader"
  RUN_HELPERS=()
  RUN_ACTIVE=""
  # The watcher polls: output printed in one burst just before the JVM ended
  # falls between two polls. The JVM is gone, so look at the size once more.
  # (the same one-fork stat as the watcher's)
  local size
  output_size "${outs[@]}"
  size=$OUTPUT_SIZE
  if [ "$size" -gt "$MAX_OUTPUT" ]; then
    : >"$RUN_DIR/output_limit"
  fi
  local elapsed=$((SECONDS - started))
  if [ -e "$RUN_DIR/output_limit" ]; then
    RUN_STATUS=output_limit RUN_MESSAGE="the program printed more than $MAX_OUTPUT bytes (--max-output)"
    return 1
  fi
  local received=0
  "$RECEIVER" "$stream" "$RUN_PROFILE" <<<"$key" 2>"$RUN_DIR/receive.err" && received=1
  # The launcher's own failures (no main, a bad class file) still let the
  # agent report "not invoked": the launcher's reason is the real one. Only
  # then: the program can print the launcher's words too, and must not turn
  # an authentic result (a score, a limit) into a failure of its choosing.
  if [ "$received" = 1 ] && [ "$RUN_RC" -ne 0 ] &&
    grep -q -e '^Error: Main method not found in class' -e '^Error: Could not find or load main class' \
      -e '^Error: LinkageError occurred while loading main class' "${outs[@]}"; then
    profile_status_of "$RUN_PROFILE"
    case $PROFILE_STATUS in
      not_invoked | class_not_loaded) received=0 ;;
    esac
  fi
  [ "$received" = 1 ] && return 0
  # No authentic result: say why, from what the run left behind.
  if { [ "$RUN_RC" -eq 124 ] || [ "$RUN_RC" -eq 137 ]; } && [ "$elapsed" -ge "$TIMEOUT" ]; then
    if grep -q 'Found one Java-level deadlock' "${outs[@]}"; then
      RUN_STATUS=deadlock RUN_MESSAGE="the program deadlocked (a thread dump after $TIMEOUT s found it)"
    else
      RUN_STATUS=timeout RUN_MESSAGE="the program ran longer than $TIMEOUT s (--timeout)"
    fi
  elif [ "$RUN_RC" -ge 128 ] || ls "$work"/hs_err_pid*.log >/dev/null 2>&1; then
    RUN_STATUS=crashed RUN_MESSAGE="the JVM crashed (exit code $RUN_RC)"
  elif grep -q 'Could not find or load main class' "${outs[@]}"; then
    RUN_STATUS=class_not_found RUN_MESSAGE="the main class $MAIN was not found on the class path"
  elif grep -q 'Main method not found in class' "${outs[@]}"; then
    RUN_STATUS=no_main RUN_MESSAGE="class $MAIN has no 'public static void main(String[])'"
  elif grep -q -e ClassFormatError -e 'Truncated class file' -e 'Incompatible magic value' -e UnsupportedClassVersionError "${outs[@]}"; then
    RUN_STATUS=bad_class_file
    RUN_MESSAGE="a class file is corrupt, truncated or of an unsupported version: $(grep -m1 -h -e ClassFormatError -e 'Truncated class file' -e 'Incompatible magic value' -e UnsupportedClassVersionError "${outs[@]}" | head -c 300)"
  else
    RUN_STATUS=program_failed RUN_MESSAGE="the JVM exited with code $RUN_RC before the agent sent a result (see the program's output)"
  fi
  return 1
}

# End the run PID once FILE holds more than MAX_OUTPUT bytes; leave MARKER.
# show_progress FILE: after the run's first second, print the bytecodes
# counted so far (the agent's progress file) and the limit on one line of
# stderr, rewritten in place four times a second, until killed. The file is
# in the program's work directory: only its digits are ever printed.
# True while this subshell's parent is still this script. The helpers below
# poll it: a SIGKILL of the script skips the traps that would end them, and
# "kill -0" alone does not notice a dead JVM where the init process is slow
# to reap the zombie it leaves.
script_alive() {
  local stat
  read -r stat <"/proc/$BASHPID/stat" || return 1
  stat=${stat##*) }
  # shellcheck disable=SC2086
  set -- $stat
  [ "$2" = "$$" ]
}
show_progress() {
  local file=$1 n
  sleep 1
  while script_alive; do
    n=$(head -c 24 "$file" 2>/dev/null | tr -cd 0-9 | sed 's/^0*//')
    printf '\r\033[Kget_score.sh: %s bytecodes counted (limit %s)' "${n:-0}" "$MAX_BYTECODES" >&2
    sleep 0.25
  done
}

# The watcher runs all through the JVM's run, on the machine's other core:
# each poll is one process, stat, exec'd by its command substitution's fork
# (bash forks a second time for a command with a redirection or a list in
# a substitution: the '2>/dev/null || echo 0' that was inside), and the
# pauses are waits on a pipe that never holds data (a sleep was a process
# each).
watch_output() {
  local pid=$1 marker=$2 nap=""
  shift 2
  exec {nap}<> <(:) || nap=""
  while kill -0 "$pid" 2>/dev/null && script_alive; do
    output_size "$@"
    if [ "$OUTPUT_SIZE" -gt "$MAX_OUTPUT" ]; then
      : >"$marker"
      kill -TERM "$pid" 2>/dev/null
      pause 1 "$nap"
      kill -KILL "$pid" 2>/dev/null
      return
    fi
    pause 0.1 "$nap"
  done
}
# output_size FILE...: the bytes the FILEs hold together, in OUTPUT_SIZE (0
# when they cannot be read); one stat for all of them.
output_size() {
  local sizes n
  OUTPUT_SIZE=0
  sizes=$(exec stat -c %s "$@" 2>/dev/null) || return 0
  for n in $sizes; do OUTPUT_SIZE=$((OUTPUT_SIZE + n)); done
}
# pause SECONDS FD: wait SECONDS on FD, a pipe no one writes to (sleep without one)
pause() {
  if [ -n "$2" ]; then
    read -r -t "$1" -u "$2" _
  else
    sleep "$1"
  fi
}


score_args=()
if [ "$COSTS" != none ]; then
  score_args+=(--costs "$COSTS" --costs-sha256 "$COSTS_SHA256")
fi
[ "$WITH_OVERHEAD" = 1 ] && score_args+=(--with-overhead)
view_args=()
[ "$EXPLAIN" = 1 ] && view_args+=(--explain)
[ "$JSON" = 1 ] && view_args+=(--json)

# --- run -------------------------------------------------------------------------
# With --runs N every run must end as the first did: a later run that fails
# (an exception, a limit, a crash) or cannot be scored fails the whole
# attempt with that run's own status, named by its number, and no score.
scores=()
first_profile=""
# The result compares a calibrated table with this machine, whose TSC rate
# takes psf-score 20 ms of sleeping to measure: measured now, in the
# background while the JVM runs, and handed to the scorer that writes the
# result (--tsc-hz). It holds none of the caller's streams, and it ends by
# itself, so an early failure needs not wait for it.
TSC_FD=""
[ "$COSTS" = none ] ||
  exec {TSC_FD}< <(exec "$SCORER" --measure-tsc </dev/null 2>/dev/null {SWEEP_FD}>&-)
# (the submission's digests, taken in the background since the key was
# ready, are read now at the latest: before the program runs)
[ -z "$SUBMISSION_PENDING" ] || submission_fields
for ((i = 1; i <= RUNS; i++)); do
  run_id=$i
  while :; do
    profile_status=""
    if run_once "$run_id"; then
      # The method's profile may be fine while the program as a whole failed
      # (a non-zero exit after the method returned): no valid submission either.
      profile_status_of "$RUN_PROFILE"
      profile_status=$PROFILE_STATUS
      if [ "$RUN_RC" -ne 0 ] && [ "$profile_status" = ok ]; then
        RUN_STATUS=program_failed
        RUN_MESSAGE="the program exited with code $RUN_RC (the method itself finished; see the program's output)"
      fi
    fi
    # The fast engine cannot count this run exactly: the step engine runs it
    # again, in a work directory of its own, and so does every later run.
    if [ -z "$RUN_STATUS" ] && [ "$profile_status" = fallback ] && [ "$RUN_ENGINE" = fast ]; then
      FALLBACK=$(profile_why "$RUN_PROFILE" fallback)
      FALLBACK=${FALLBACK:-the fast engine asked for the step engine}
      RUN_ENGINE=step
      run_id=$i.step
      continue
    fi
    break
  done
  # The output judged is this run's: the run whose profile is scored.
  judge_output "$profile_status"
  [ "$i" -eq 1 ] && pass_output
  run_name=""
  [ "$RUNS" -gt 1 ] && run_name="run $i of $RUNS: "
  if [ -n "$RUN_STATUS" ]; then
    keep_profile "$RUN_PROFILE"
    fail "$RUN_STATUS" "$run_name$RUN_MESSAGE"
  fi
  if [ "$profile_status" != ok ]; then
    # The first run's status is the scorer's to report (below); a later
    # run's is reported here, with the scorer's reading of its message.
    [ "$i" -eq 1 ] && { first_profile=$RUN_PROFILE; break; }
    keep_profile "$RUN_PROFILE"
    why=$(profile_why "$RUN_PROFILE" "$profile_status")
    fail "${profile_status:-internal_error}" "$run_name${why:-the profile has no status}"
  fi
  [ -z "$first_profile" ] && first_profile=$RUN_PROFILE
  # The bare score is what --runs compares and --score-file keeps; a single
  # run without a score file has no use for it (the result below scores the
  # same profile), so the scorer is not started for it.
  [ "$RUNS" -gt 1 ] || [ -n "$SCORE_FILE" ] || continue
  score=$("$SCORER" "${score_args[@]}" --score-only "$RUN_PROFILE" 2>"$RUN_DIR/score.err")
  score_rc=$?
  if [ "$RUNS" -gt 1 ] && { [ "$score_rc" -ne 0 ] || [ -z "$score" ]; }; then
    # A run that cannot be scored is no run that agreed. Exit code 7 is the
    # scorer's bad_input (an invalid profile, an overflow); anything else is
    # PSF's own fault.
    why=$(sed -n '1s/^psf-score: //p' "$RUN_DIR/score.err")
    [ "$score_rc" -eq 7 ] && st=bad_input || st=internal_error
    keep_profile "$RUN_PROFILE"
    fail "$st" "${run_name}the profile could not be scored: ${why:-no score (psf-score exit code $score_rc)}"
  fi
  scores+=("$score")
done
# The score always comes from the authenticated profile in this run's own
# scratch directory; the kept copy (--profile-out) is only what the output
# names, since another process may write that path at any time.
keep_profile "$first_profile"
if [ -n "$PROFILE_OUT" ]; then
  profile_name=$PROFILE_OUT
else
  profile_name=${first_profile##*/}
fi
view_args+=(--profile-name "$profile_name")
if [ -n "$TSC_FD" ]; then
  tsc_hz=""
  read -r -u "$TSC_FD" tsc_hz
  exec {TSC_FD}<&-
  # (no rate, 0 when none can be measured: the scorer measures or says so)
  [[ $tsc_hz =~ ^[1-9][0-9]{6,10}$ ]] && view_args+=(--tsc-hz "$tsc_hz")
fi
[ -z "$FALLBACK" ] || view_args+=(--fallback "$FALLBACK")
view_args+=(--judged-by "$JUDGED_BY")
# What is scored is the signed copy, checked with the key. A single run's
# copy, unless --profile-out made it already, is made by the scorer that
# writes the result (--signed-copy: signed as --sign signs, first of all,
# then scored as if read back), one process instead of two; a profile it
# cannot sign leaves no copy.
signed=$first_profile.signed
if [ "$RUNS" -eq 1 ] && [ -n "$KEY_FILE" ] && [ ! -s "$signed" ]; then
  scored=(--submission "$SUBMISSION" --signed-copy "$signed" "$first_profile")
else
  [ -s "$signed" ] || sign_copy "$first_profile" "$signed" || fail internal_error "cannot sign the profile"
  scored=("$signed")
fi
[ -z "$KEY_FILE" ] || view_args+=(--key-file "$KEY_FILE")

# --- score -----------------------------------------------------------------------
# (the distinct non-empty scores; one score is counted without a sort and a grep)
ndistinct=0
if [ ${#scores[@]} -eq 1 ]; then
  [ -z "${scores[0]}" ] || ndistinct=1
elif [ ${#scores[@]} -gt 1 ]; then
  ndistinct=$(printf '%s\n' "${scores[@]}" | sort -u | grep -c .)
fi
if [ "$ndistinct" -gt 1 ]; then
  fail unstable "the score differed between the $RUNS runs: $(printf '%s\n' "${scores[@]}" | sort -u | tr '\n' ' ')(docs/determinism.md)"
fi
if [ "$RUNS" -gt 1 ] && [ "$JSON" = 1 ] && [ "$ndistinct" -eq 1 ]; then
  command -v jq >/dev/null 2>&1 || fail internal_error "--runs with --json needs jq (scripts/install_deps.sh installs it)"
  "$SCORER" "${score_args[@]}" "${view_args[@]}" "${JUNIT_ARGS[@]}" "${scored[@]}" >"$SCRATCH/result.json"
  rc=$?
  jq --argjson runs "$RUNS" '. + {runs: $runs, distinct_scores: 1}' "$SCRATCH/result.json" >"$SCRATCH/result.out" || rc=70
else
  "$SCORER" "${score_args[@]}" "${view_args[@]}" "${JUNIT_ARGS[@]}" "${scored[@]}" >"$SCRATCH/result.out"
  rc=$?
  [ -s "$signed" ] || fail internal_error "cannot sign the profile"
  if [ "$RUNS" -gt 1 ] && [ "$ndistinct" -eq 1 ]; then echo "runs      $RUNS, all with the same score" >>"$SCRATCH/result.out"; fi
fi
# The score file is in place before the result is printed, so that a score
# file that cannot be written is the one result (with --json, one object).
if [ -n "$SCORE_FILE" ] && [ "$rc" -eq 0 ]; then
  printf '%s\n' "${scores[0]}" >"$SCRATCH/score"
  publish "$SCRATCH/score" "$SCORE_FILE" --score-file ||
    fail internal_error "cannot write the score file '$SCORE_FILE'"
fi
cat "$SCRATCH/result.out"
exit "$rc"
