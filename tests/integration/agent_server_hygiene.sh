#!/usr/bin/env bash
# agent_server_hygiene.sh - no process and no temporary file survives a run
# that is ended by SIGTERM, SIGINT, SIGHUP or its timeout, sandboxed or not;
# after SIGKILL of get_score.sh itself the JVM dies too, and the scratch
# directory is removed by the run's sweeper or else by the next run; a
# process left behind that names the scratch directory (bubblewrap's own
# race) is ended by the sweeper. (issue 22, item 5)
#
# Runs are killed at points drawn from a fixed seed (from before the JVM
# starts to well into the program), the same every run; the seed is printed,
# and HYGIENE_SEED=N draws other points (or replays a run's).
set -eu
# Started with SIGHUP, SIGINT or SIGTERM ignored (nohup, a background job of
# a shell without job control), this shell could neither trap nor reset
# them, nor could the get_score.sh runs it starts: the signals the test
# sends would be lost. Run again with the dispositions a caller normally has.
if [ -z "${PSF_HYGIENE_SIGNALS:-}" ]; then
  PSF_HYGIENE_SIGNALS=default exec env --default-signal=HUP,INT,TERM bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
seed=${HYGIENE_SEED:-39}
RANDOM=$seed
echo "# HYGIENE_SEED=$seed"
# A private TMPDIR: whatever a run leaves there is the run's.
export TMPDIR=$TEST_TMP/tmp
mkdir -p "$TMPDIR"
OUT=$TEST_TMP/out
mkdir -p "$OUT"
cd "$TEST_TMP"

modes=(off)
if sandbox_works "sandboxed runs"; then
  modes+=(require)
fi

# The processes of run MARK: everything whose command line carries it, and
# whatever names a file in the private TMPDIR (the result reader names its
# FIFO there; no run is live while this is asked).
procs() { { pgrep -f -- "$1"; pgrep -f -- "$TMPDIR/"; } | sort -u || true; }
# Wait (at most 30 s; not a timing assertion, a bound on a hung test) until
# no process of MARK is left; echo what is left.
settle() {
  for _ in $(seq 60); do
    [ -z "$(procs "$1")" ] && return 0
    sleep 0.5
  done
  procs "$1" | tr '\n' ' '
}
# Wait (at most 30 s, a bound on a hung test like settle's) until TMPDIR is
# empty: a run's last files may go a moment after its end (the sweeper, a
# helper's exit); echo what is left.
tmp_left() {
  for _ in $(seq 60); do
    [ -z "$(ls -A "$TMPDIR")" ] && break
    sleep 0.5
  done
  names "$TMPDIR"
}
# names DIR [GLOB]: the names in DIR (those matching GLOB), sorted, each
# followed by a space
names() {
  find "$1" -mindepth 1 -maxdepth 1 -name "${2:-*}" -printf '%f\n' | sort | tr '\n' ' '
}
# A point from 0 to 3.9 s after the start, drawn from the seed, in $delay
# (in this shell: a command substitution's subshell reseeds RANDOM, and its
# draws would follow no seed).
random_delay() { delay=$((RANDOM % 4)).$((RANDOM % 10)); }

# start MARK MODE [options]: Spin (never ends on its own) in the background,
# with default signal dispositions (job control gives it its own group, so a
# SIGINT is not ignored as in a plain background job); its PID in $PID.
start() {
  local mark=$1 mode=$2
  shift 2
  set -m
  "$GS" --json --costs none --sandbox "$mode" --classpath "$FX" --method Spin.work \
    --program-output "$OUT/prog" --score-file "$OUT/score" --profile-out "$OUT/profile.xml" "$@" -- "$mark" \
    >"$OUT/json" 2>"$OUT/err" &
  PID=$!
  set +m
}

n=0
for mode in "${modes[@]}"; do
  for sig in TERM INT HUP; do
    n=$((n + 1))
    mark="psf-hygiene-$$-$n"
    random_delay
    start "$mark" "$mode"
    sleep "$delay"
    kill "-$sig" "$PID" 2>/dev/null || true
    rc=0
    wait "$PID" || rc=$?
    name="sandbox $mode, SIG$sig after ${delay}s"
    expect_eq "$name: get_score.sh ended by the signal" "$rc" "$((128 + $(kill -l "$sig")))"
    expect_eq "$name: no process left" "$(settle "$mark")" ""
    expect_eq "$name: no temporary file left" "$(tmp_left)" ""
    expect_eq "$name: no temporary file beside the outputs" "$(names "$OUT" '.psf*')" ""
  done

  # the timeout ends the whole run too
  n=$((n + 1))
  mark="psf-hygiene-$$-$n"
  start "$mark" "$mode" --timeout 2
  rc=0
  wait "$PID" || rc=$?
  expect_eq "sandbox $mode, timeout: status" "$rc/$(jq -r .status "$OUT/json")" "14/timeout"
  expect_eq "sandbox $mode, timeout: no process left" "$(settle "$mark")" ""
  expect_eq "sandbox $mode, timeout: no temporary file left" "$(tmp_left)" ""

  # SIGKILL of get_score.sh: the JVM goes with it; the scratch directory
  # stays until the next run of this user removes it
  for _ in 1 2; do
    n=$((n + 1))
    mark="psf-hygiene-$$-$n"
    random_delay
    start "$mark" "$mode"
    sleep "$delay"
    kill -KILL "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    name="sandbox $mode, SIGKILL after ${delay}s"
    expect_eq "$name: no process left" "$(settle "$mark")" ""
    left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)
    expect_match "$name: at most the scratch directory left" "$left" '^[01]$'
    "$GS" --json --costs none --sandbox "$mode" --classpath "$FX" --method Noisy.work -- 10 >"$OUT/next.json" 2>/dev/null || true
    expect_eq "$name: the next run scores" "$(jq -r .score "$OUT/next.json")" 99
    expect_eq "$name: the next run removed the stale scratch directory" "$(names "$TMPDIR")" ""
  done
done

# A run a signal ends once its program runs has no score: it leaves no
# --score-file (an earlier run's score there would read as its own)
mark="psf-hygiene-$$-scorefile"
echo 99 >"$OUT/score"
start "$mark" off --timeout 600
for _ in $(seq 60); do
  [ -n "$(pgrep -f -- "Spin $mark" || true)" ] && break
  sleep 0.5
done
kill -TERM "$PID" 2>/dev/null || true
rc=0
wait "$PID" || rc=$?
expect_eq "SIGTERM while the program runs: ended by it, the earlier score file removed" \
  "$rc $(if [ -e "$OUT/score" ]; then cat "$OUT/score"; else echo gone; fi)" "143 gone"
expect_eq "SIGTERM while the program runs: no process left" "$(settle "$mark")" ""

# SIGKILL of get_score.sh the moment its scratch directory exists, before
# the script has learnt its name (a mktemp in front of the real one kills
# its caller once it has made the directory): what the directory's name
# says of its owner is all the next run has, and it removes the directory.
# (the real mktemp found before PATH names the other one)
real_mktemp=$(command -v mktemp)
mkdir -p "$TEST_TMP/bin"
cat >"$TEST_TMP/bin/mktemp" <<'EOF'
#!/bin/bash
[ "$PSF_REAL_MKTEMP" -ef "$0" ] && exit 1
d=$("$PSF_REAL_MKTEMP" "$@") || exit
case $d in "$TMPDIR"/psf.*) kill -KILL "$PPID" ;; esac
printf '%s\n' "$d"
EOF
chmod +x "$TEST_TMP/bin/mktemp"
rc=0
{ # (the group's stderr takes this shell's "Killed" line too)
  PATH=$TEST_TMP/bin:$PATH PSF_REAL_MKTEMP=$real_mktemp \
    "$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work -- 10 >"$OUT/next.json" || rc=$?
} 2>/dev/null
expect_eq "SIGKILL once mktemp made the scratch directory: get_score.sh killed" "$rc" 137
expect_match "... the scratch directory alone left" "$(names "$TMPDIR")" '^psf\.[^ ]* $'
"$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work -- 10 >"$OUT/next.json" 2>/dev/null || true
expect_eq "... the next run scores" "$(jq -r .score "$OUT/next.json")" 99
expect_eq "... the next run removed the stale scratch directory" "$(names "$TMPDIR")" ""
expect_eq "... no process left" "$(settle "$TMPDIR/")" ""

# A process left behind that names the run's scratch directory (what
# bubblewrap's own --die-with-parent race leaves: the sandbox's init,
# orphaned before it set its parent-death signal, which no test can time) is
# ended by the run's sweeper once get_score.sh is gone, by a trapped signal
# or by SIGKILL, and the scratch directory goes with it.
# (--timeout 600: the signal below ends the run, and must find it still
# running however long the waits for its processes took)
for sig in TERM KILL; do
  n=$((n + 1))
  mark="psf-hygiene-$$-$n"
  start "$mark" off --timeout 600
  scratch=""
  for _ in $(seq 60); do
    scratch=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'psf.*' | sort | head -1)
    [ -n "$scratch" ] && [ -n "$(pgrep -f -- "Spin $mark" || true)" ] && break
    sleep 0.5
  done
  # an orphan in a session of its own, like the sandbox's init (setsid -f:
  # its parent exits at once, so it is nobody's child here; perl, whose
  # command line may name any path)
  setsid -f perl -e 'sleep 600' "$scratch/run.1/work" </dev/null >/dev/null 2>&1
  # (setsid -f returns before the orphan runs: wait for it, at most 30 s)
  orphan=""
  for _ in $(seq 300); do
    orphan=$(pgrep -fx -- "perl -e sleep 600 $scratch/run.1/work" || true)
    [ -n "$orphan" ] && break
    sleep 0.1
  done
  kill "-$sig" "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  gone=no
  for _ in $(seq 60); do
    [ -n "$orphan" ] && ! kill -0 "$orphan" 2>/dev/null && { gone=yes; break; }
    sleep 0.5
  done
  [ -z "$orphan" ] || kill -KILL "$orphan" 2>/dev/null || true
  expect_eq "SIG$sig: an orphan naming the scratch directory is ended" "$gone" yes
  expect_eq "SIG$sig: no process left" "$(settle "$mark")" ""
  expect_eq "SIG$sig: the scratch directory is removed" "$(tmp_left)" ""
done

# a live run's scratch directory is never taken for a stale one (live all
# through the other run however slow the machine: --timeout 600, ended by
# the SIGTERM below)
mark="psf-hygiene-$$-live"
start "$mark" off --timeout 600
for _ in $(seq 60); do
  [ -n "$(ls -A "$TMPDIR")" ] && [ -n "$(pgrep -f -- "Spin $mark" || true)" ] && break
  sleep 0.5
done
live=$(ls -A "$TMPDIR")
# what "no process left" asks sees a live run (a pattern that matched
# nothing would find every run gone)
expect_match "a live run: its processes are found by its mark" "$(procs "$mark")" '^[0-9]+'
"$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work -- 10 >"$OUT/next.json" 2>/dev/null || true
expect_eq "a run beside a live one: scores" "$(jq -r .score "$OUT/next.json")" 99
expect_eq "a run beside a live one: the live run's scratch directory kept" "$(names "$TMPDIR")" "$live "
kill -TERM "$PID"
wait "$PID" || true
expect_eq "the live run, ended: no process left" "$(settle "$mark")" ""
expect_eq "the live run, ended: no temporary file left" "$(tmp_left)" ""

# Scratch directories of an earlier get_score.sh (psf.XXXXXXXX, the owner's
# PID and start time in .owner): removed once that owner is gone, kept while
# it lives; one that names no owner is not ours to judge, and stays.
mkdir "$TMPDIR/psf.Legacy01" "$TMPDIR/psf.Legacy02" "$TMPDIR/psf.Legacy03"
echo "$$ 1" >"$TMPDIR/psf.Legacy01/.owner" # this shell's PID, another start time: a reused PID
echo "$$ $(cut -d' ' -f22 "/proc/$$/stat")" >"$TMPDIR/psf.Legacy02/.owner"
"$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work -- 10 >"$OUT/next.json" 2>/dev/null || true
expect_eq "earlier scratch directories: the run scores" "$(jq -r .score "$OUT/next.json")" 99
expect_eq "earlier scratch directories: the dead owner's removed, the live owner's and the unowned kept" \
  "$(names "$TMPDIR")" "psf.Legacy02 psf.Legacy03 "
rm -rf "$TMPDIR/psf.Legacy02" "$TMPDIR/psf.Legacy03"

finish
