# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# scratch.sh - the run's private scratch directory and the cleanup that
# leaves nothing behind on any exit path (sourced by scripts/get_score.sh;
# bash).
#
# setup_scratch sets the exit and signal traps (end_run, on_signal), removes
# scratch directories of this user's dead runs, makes this run's, and
# starts the sweeper that cleans up even after a SIGKILL of get_score.sh.
#
# Reads: TMPDIR, PUBLISH_TMP (scripts/lib/outputs.sh).
# Sets: SCRATCH, SWEEP_FD, PREP_FD, START_TIME, and the run's process
#   bookkeeping that run_once keeps (RUN_PID, RUN_HELPERS, RUN_ACTIVE).

# --- scratch directory and process hygiene -----------------------------------------
# Every run leaves nothing behind: the JVM and everything it starts form one
# process group (setsid) that SIGTERM, SIGINT, SIGHUP and the timeout end as
# a whole, and the scratch directory goes on every exit path. Only SIGKILL
# of this script skips the traps: the JVM then dies with it (bubblewrap's
# --die-with-parent, or a parent-death signal without the sandbox), and the
# scratch directory, whose name carries its owner, is removed by the next
# run of the same user (clean_stale_scratch).

# The start time of process PID (field 22 of /proc/PID/stat), in START_TIME
# (empty when PID is gone), so that a reused PID is not mistaken for the
# process it once was.
start_time() {
  local stat rest
  START_TIME=""
  # (one line; read by the shell, not by a cat of its own, and set in a
  # variable, not printed into a command substitution's fork)
  read -r stat <"/proc/$1/stat" 2>/dev/null || return 1
  rest=${stat##*) }
  # shellcheck disable=SC2086
  set -- $rest
  START_TIME=${20}
}
# Remove scratch directories of this user's runs whose owner is gone. A
# scratch directory is psf.PID-START.XXXXXXXX (setup_scratch): its owner's
# PID and start time are in its name from the moment mktemp makes it, so
# that no kill of the owner leaves one that names none. A directory of an
# earlier get_score.sh, psf.XXXXXXXX, names them in its .owner file ("PID
# START"); one without that file names no owner and is left alone.
clean_stale_scratch() {
  local d pid started
  for d in "${TMPDIR:-/tmp}"/psf.*/ /tmp/psf.*/; do
    d=${d%/}
    [ -O "$d" ] && [ ! -L "$d" ] || continue
    if [[ ${d##*/} =~ ^psf\.([0-9]+)-([0-9]+)\.[A-Za-z0-9]+$ ]]; then
      pid=${BASH_REMATCH[1]} started=${BASH_REMATCH[2]}
    elif [[ ${d##*/} =~ ^psf\.[A-Za-z0-9]+$ ]] && [ -f "$d/.owner" ] && [ ! -L "$d/.owner" ] &&
      read -r pid started <"$d/.owner" 2>/dev/null && [[ $pid =~ ^[0-9]+$ && $started =~ ^[0-9]+$ ]]; then
      :
    else
      continue
    fi
    start_time "$pid"
    [ "$START_TIME" = "$started" ] && continue
    rm -rf -- "$d"
  done
}
SCRATCH=""
RUN_PID=""     # the running JVM's process group (its leader's PID), while one runs
RUN_HELPERS=() # the run's result reader and output watcher
RUN_ACTIVE=""  # set while run_once's background jobs (the only ones) may run
# End the running JVM's whole process group and the run's helpers, at once.
# A signal can be handled right after the JVM's subshell was started and
# before its PID was noted in RUN_PID, so every background job of this
# script goes too (with its process group, once the subshell has called
# setsid). Outside a run there are none, and their list, a fork, is not
# asked for (the exit of every run passes here).
end_run() {
  local p
  if [ -n "$RUN_ACTIVE" ]; then
    for p in $RUN_PID $(jobs -p); do
      kill -KILL -- "-$p" 2>/dev/null
      kill -KILL "$p" 2>/dev/null
    done
  fi
  if [ -n "$RUN_PID" ]; then
    wait "$RUN_PID" 2>/dev/null
    RUN_PID=""
  fi
  if [ ${#RUN_HELPERS[@]} -gt 0 ]; then
    kill "${RUN_HELPERS[@]}" 2>/dev/null
    wait "${RUN_HELPERS[@]}" 2>/dev/null
    RUN_HELPERS=()
  fi
}
# A run a signal ends has no score: no --score-file is left either
# (drop_score_file, scripts/lib/outputs.sh).
on_signal() {
  trap '' INT TERM HUP
  end_run
  drop_score_file
  exit $((128 + $1))
}
# The sweeper: bubblewrap's --die-with-parent has a window (between its
# clone and the child's prctl) in which the death of its parent is missed,
# and the sandbox's init then lives on, orphaned, with the JVM in it. So a
# process in a session of its own (no signal to this script's group reaches
# it) holds the read end of a pipe whose write end only this script and its
# short-lived helpers hold. When the last of them is gone, however they
# ended (SIGKILL included), the pipe reads end of file and the sweeper ends
# every process whose command line names a path in the scratch directory
# (the sandbox's init names the work directory it binds; an unsandboxed JVM
# its temp directory), removes the directory and exits. The directory
# reaches it in the environment, not its command line, so it never names
# itself.
# shellcheck disable=SC2317 # (run by the sweeper's own bash, below)
sweep_scratch() {
  local dir=$PSF_SWEEP_DIR p fd arg args
  # (nothing of the caller's stays open here but the pipe)
  for fd in "/proc/$BASHPID/fd/"*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
  done
  # (the end of the pipe waited for by the shell itself: a cat was a process)
  while IFS= read -r _; do :; done
  # The command lines are read by one grep, which reads a file in a few
  # microseconds where the shell took some 90 (its CPU, after every run,
  # grows with the machine's processes); the directory reaches it on stdin,
  # so that its own command line does not name it. A directory with a
  # newline in its name (one pattern a line), or a grep that did not run
  # (too many processes for one command line), leaves it to the shell.
  local files=() rc=""
  if [[ $dir != *$'\n'* ]]; then
    # shellcheck disable=SC2062 # the files are the glob; the pattern comes on stdin
    mapfile -t files < <(LC_ALL=C grep -lsaF -f - -- /proc/[0-9]*/cmdline <<<"$dir/"; echo "rc=$?")
    if [ ${#files[@]} -gt 0 ]; then
      rc=${files[-1]}
      unset 'files[-1]'
    fi
  fi
  case $rc in
    rc=[012])
      for p in "${files[@]}"; do
        p=${p#/proc/}
        p=${p%/cmdline}
        [ "$p" = "$BASHPID" ] || kill -KILL "$p" 2>/dev/null
      done ;;
    *)
      for p in /proc/[0-9]*; do
        p=${p#/proc/}
        [ "$p" = "$BASHPID" ] && continue
        mapfile -d '' args <"/proc/$p/cmdline" 2>/dev/null || continue
        for arg in "${args[@]}"; do
          case $arg in *"$dir"/*) kill -KILL "$p" 2>/dev/null; break ;; esac
        done
      done ;;
  esac
  # (after a run that ended through its exit trap the directory is gone, and
  # it is looked at only once every process that names it is killed: no rm,
  # a process, for nothing)
  [ ! -e "$dir" ] && [ ! -L "$dir" ] || rm -rf -- "$dir"
}
# setup_scratch: the traps, the scratch directory, the sweeper, the first
# run's directory.
setup_scratch() {
  PUBLISH_TMP="" # (set before the trap reads it: a failure before publish() is defined exits through it too)
  PREP_FD=""     # the first run's directory and FIFO, while they are made (below)
  trap 'end_run; [ -z "$PREP_FD" ] || read -r -u "$PREP_FD" _; [ -z "$SCRATCH" ] || rm -rf -- "$SCRATCH"; [ -z "$PUBLISH_TMP" ] || rm -f -- "$PUBLISH_TMP"' EXIT
  trap 'on_signal 1' HUP
  trap 'on_signal 2' INT
  trap 'on_signal 15' TERM
  clean_stale_scratch
  # (the owner in the name: a run killed once mktemp has made the directory,
  # before this shell has even learnt its name, leaves one the next run
  # knows for its own; without a start time, which /proc gives, the name
  # says no owner, and no run takes it for a stale one)
  start_time "$$"
  local owner=$$-$START_TIME
  SCRATCH=$(exec mktemp -d "${TMPDIR:-/tmp}/psf.$owner.XXXXXXXX" 2>/dev/null) || SCRATCH=$(mktemp -d "/tmp/psf.$owner.XXXXXXXX") ||
    fail internal_error "cannot create a scratch directory"
  # (the function reaches the sweeper's bash exported, in the environment of
  # this job alone: a declare -f in a command substitution was a fork more)
  exec {SWEEP_FD}> >(export -f sweep_scratch; PSF_SWEEP_DIR=$SCRATCH exec setsid bash -c sweep_scratch psf-sweep >/dev/null 2>&1)
  # The first run's work directory and result FIFO (run_once) are made in the
  # background, while the sandbox is set up; run_once waits for them, and so
  # does the exit before it removes the scratch directory. (Each is a process;
  # what they cannot make they say on stderr, as they did there. The job holds
  # the sweeper's pipe, so a sweeper never sweeps while they still make.)
  exec {PREP_FD}< <(
    exec </dev/null
    mkdir -p "$SCRATCH/run.1/work/tmp"
    mkfifo "$SCRATCH/run.1/result.fifo"
    echo "done"
  )
}
