# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# run.sh - the JVM runs get_score.sh scores: one run under the agent with
# the pinned JVM flags and its limits (run_once), and the runs of --runs N
# with the fast engine's fallback to the step engine (run_all) (sourced by
# scripts/get_score.sh; bash).
#
# Each run gets a fresh key on a pipe, a work directory of its own, its
# output watched against --max-output; the agent's result comes back
# authenticated through a FIFO (psf-receive). A run that left no authentic
# result is given a status from what it left behind.
#
# Reads: the options (scripts/lib/options.sh), PINNED_FLAGS, JIT_FLAGS and
#   MAX_RESULT_BYTES (get_score.sh), JAVA, JDK_FLAGS, AGENT,
#   RECEIVER, SCORER, SCRATCH, SWEEP_FD, PREP_FD, GUARD, PDEATH, SANDBOXED,
#   SANDBOX_BINDS, SANDBOX_WORK, JVM_CLASSPATH, VMEM_KB, RUN_ENGINE.
# Sets: RUN_DIR, RUN_RC, RUN_PROFILE, RUN_STATUS, RUN_MESSAGE, RUN_KEY,
#   RUN_ENGINE and FALLBACK (after a fallback), scores, first_profile.

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
  # (the first run's directory and FIFO: made in the background by setup_scratch)
  if [ "$1" = 1 ] && [ -n "$PREP_FD" ]; then
    read -r -u "$PREP_FD" made
    exec {PREP_FD}<&-
    PREP_FD=""
  fi
  [ "$made" = "done" ] || mkdir -p "$work/tmp"
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
  [ "$made" = "done" ] || mkfifo "$fifo"
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

# The watcher runs all through the JVM's run, on a core the JVM's threads
# would use: each poll reads the output's size (output_size: by the shell
# itself while the output is short, else one process, stat, exec'd by its
# command substitution's fork, about 2.5 ms of CPU), and the pauses are
# waits on a pipe that never holds data (a sleep was a process each). The
# first poll is after the first pause, and the pauses double from 0.1 s to
# 1 s: a run of 2.5 s is polled 5 times (at 0.1, 0.3, 0.7, 1.5 and 2.5 s),
# where a poll every 0.1 s would be 25, and of a long output 25 stats,
# some 0.06 s of CPU from the JVM's two cores (the script's own CPU,
# user + sys of get_score.sh and the processes it waits for, around
# bench/fast_plain.sh's merge sort: median 0.116 s, 15 runs, with the short
# output read by the shell; 0.136 s with a stat a poll and after the run).
# The output cannot grow much past the limit meanwhile:
# RLIMIT_FSIZE caps each file (run_once), so a later poll only ends the run
# later, and the size is looked at once more after the JVM has ended.
watch_output() {
  local pid=$1 marker=$2 nap="" naps=(0.1 0.2 0.4 0.8 1) n=0
  shift 2
  exec {nap}<> <(:) || nap=""
  # (the first poll after the first pause: a JVM that has just started has
  # printed nothing, and its start is when a process more costs the most)
  pause "${naps[0]}" "$nap"
  while kill -0 "$pid" 2>/dev/null && script_alive; do
    output_size "$@"
    if [ "$OUTPUT_SIZE" -gt "$MAX_OUTPUT" ]; then
      : >"$marker"
      kill -TERM "$pid" 2>/dev/null
      pause 1 "$nap"
      kill -KILL "$pid" 2>/dev/null
      return
    fi
    [ "$n" -ge $((${#naps[@]} - 1)) ] || n=$((n + 1))
    pause "${naps[n]}" "$nap"
  done
}
# output_size FILE...: the bytes the FILEs hold together, in OUTPUT_SIZE (0
# when they cannot be read). Short files, as a program's output nearly
# always is (OUTPUT_READ_MAX bytes together at most), are read by the shell
# itself, exactly: in the C locale every byte but NUL is one character, and
# each NUL ends a read (-d '') and is counted as the byte it is. What they
# hold, when none holds a NUL, is kept in OUTPUT_TEXT (by file name) for
# copy_output, which then passes it on without a process. Longer files, or
# files that cannot be opened, are measured by one stat for all of them (a
# fork and an exec, some 2.5 ms of CPU each time: the watcher's polls and
# the look once the JVM has ended).
OUTPUT_READ_MAX=16384
declare -A OUTPUT_TEXT=()
output_size() {
  local LC_ALL=C sizes n f fd chunk text total=0 nul=0
  local -A texts=()
  OUTPUT_SIZE=0
  OUTPUT_TEXT=()
  for f in "$@"; do
    # (the braces: an exec's own 2>/dev/null would stay for the whole script)
    { exec {fd}<"$f"; } 2>/dev/null || { total=-1; break; }
    text=""
    while :; do
      n=$((OUTPUT_READ_MAX - total + 1))
      if IFS= read -r -d '' -n "$n" -u "$fd" chunk; then
        # (n characters read: more than OUTPUT_READ_MAX in all; fewer: a NUL ended the read)
        [ ${#chunk} -lt "$n" ] || { total=-1; break; }
        total=$((total + ${#chunk} + 1))
        nul=1
      else
        total=$((total + ${#chunk}))
        text+=$chunk
        break
      fi
      text+=$chunk
      [ "$total" -le "$OUTPUT_READ_MAX" ] || { total=-1; break; }
    done
    exec {fd}<&-
    [ "$total" -ge 0 ] || break
    texts[$f]=$text
  done
  if [ "$total" -ge 0 ]; then
    OUTPUT_SIZE=$total
    [ "$nul" = 1 ] || for f in "${!texts[@]}"; do OUTPUT_TEXT[$f]=${texts[$f]}; done
    return 0
  fi
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

# run_all: the runs of --runs N, each scored profile's score in scores.
run_all() {
  # With --runs N every run must end as the first did: a later run that fails
  # (an exception, a limit, a crash) or cannot be scored fails the whole
  # attempt with that run's own status, named by its number, and no score.
  scores=()
  first_profile=""
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
}
