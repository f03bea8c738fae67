#!/usr/bin/env bash
# calibrate_isolated.sh - scripts/calibrate_machine.sh --isolate end to end on
# a fake system tree shaped like the reference VM (a kernel of its own, but
# /.dockerenv in its image): init_environment.sh reserves a CPU, the real
# psf-calibrate --quick times through run_isolated.sh and writes
# isolated_core="true", terminate_environment.sh restores the tree; also when
# psf-calibrate fails, when a container's namespaces make isolation
# impossible (refused, nothing run), and when someone else's isolation is
# already in place (used, left alone).
#
# Nothing here touches the real system: every script gets the fake tree
# (PSF_SYSROOT), PSF_TEST_MODE=1 makes them refuse the real one, and stubs
# for mount, umount, taskset and systemd-detect-virt fail the test if called.
# Exit 77 (skipped) without java/javac or an x86 TSC.
set -eu

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
command -v "$JAVA" > /dev/null || { echo "skip: no java"; exit 77; }
grep -qw tsc /proc/cpuinfo 2>/dev/null || { echo "skip: no time-stamp counter"; exit 77; }
for f in psf-calibrate libpsfagent.so libpsfrdtsc.so calibrate/harness/Time.class; do
  [ -e "$BUILD/$f" ] || { echo "FAIL - $BUILD/$f is missing (run make)"; exit 1; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-calisol.XXXXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL - $*"; exit 1; }

# stubs: root for init's check; commands that act on the real system fail
STUBS=$TMP/stubs FORBIDDEN=$TMP/forbidden.log
mkdir -p "$STUBS"
REAL_ID=$(command -v id)
# shellcheck disable=SC2016 # "$1" and "$@" are the stub's own
printf '#!/bin/sh\nif [ "$1" = -u ]; then echo 0; else exec "%s" "$@"; fi\n' "$REAL_ID" > "$STUBS/id"
for cmd in mount umount taskset systemd-detect-virt; do
  printf '#!/bin/sh\necho "%s $*" >> "%s"\nexit 1\n' "$cmd" "$FORBIDDEN" > "$STUBS/$cmd"
done
chmod +x "$STUBS"/*
export PATH=$STUBS:$PATH PSF_TEST_MODE=1 PSF_BUILD=$BUILD
unset PSF_FAKE_REJECT PSF_FAKE_FORK PSF_FAKE_EXIT

# vm_tree DIR [PIDNS CGROUPNS]: a 2-CPU VM with a cgroup v1 cpuset hierarchy,
# /.dockerenv, and this process in the given (default: the kernel's initial)
# pid and cgroup namespaces.
C=sys/fs/cgroup/cpuset
vm_tree() {
  local r=$1 i
  mkdir -p "$r/run" "$r/proc/self/ns" "$r/$C/docker" "$r/sys/devices/system/cpu"
  echo 0-1 > "$r/sys/devices/system/cpu/online"
  for i in 0 1; do
    printf 'processor\t: %s\nflags\t\t: fpu tsc constant_tsc nonstop_tsc\n\n' "$i"
  done > "$r/proc/cpuinfo"
  echo "cgroup /$C cgroup rw,relatime,cpuset 0 0" > "$r/proc/mounts"
  printf '34 31 0:31 / /%s rw,relatime - cgroup cgroup rw,cpuset\n' "$C" > "$r/proc/self/mountinfo"
  ln -s "pid:[${2:-4026531836}]" "$r/proc/self/ns/pid"
  ln -s "cgroup:[${3:-4026531835}]" "$r/proc/self/ns/cgroup"
  : > "$r/.dockerenv"
  echo 0-1 > "$r/$C/cpuset.cpus"; echo 0 > "$r/$C/cpuset.mems"
  printf '1\n2\n50\n' > "$r/$C/tasks"
  echo 0-1 > "$r/$C/docker/cpuset.cpus"; echo 0 > "$r/$C/docker/cpuset.mems"
  echo 60 > "$r/$C/docker/tasks"
}
# calm ROOTDIR ARGS...: calibrate_machine.sh on the fake tree; RC, $TMP/out, $TMP/err
calm() {
  local r=$1; shift
  RC=0
  PSF_SYSROOT=$r "$ROOT/scripts/calibrate_machine.sh" "$@" > "$TMP/out" 2> "$TMP/err" || RC=$?
}
err_has() { grep -qF -- "$1" "$TMP/err" || { sed 's/^/  | /' "$TMP/err"; fail "stderr lacks: $1"; }; }
err_lacks() { ! grep -qF -- "$1" "$TMP/err" || { sed 's/^/  | /' "$TMP/err"; fail "stderr has: $1"; }; }
# restored DIR: the tree is as before but for the root cpuset's tasks, where
# terminate put back the processes that had joined psf; prints those pids.
restored() {
  local r=$1 p
  diff -r --no-dereference -x tasks "$r.before" "$r" >&2 || fail "the tree differs after terminate"
  diff -r --no-dereference "$r.before/$C/docker" "$r/$C/docker" >&2 || fail "docker's tasks changed"
  [ ! -e "$r/run/psf" ] || fail "state left in run/psf"
  if [ -e "$r/$C/psf" ] || [ -e "$r/$C/psf_system" ]; then fail "cpusets left"; fi
  for p in 1 2 50; do
    grep -qx "$p" "$r/$C/tasks" || fail "task $p not back: $(tr '\n' ' ' < "$r/$C/tasks")"
  done
  grep -vx -e 1 -e 2 -e 50 "$r/$C/tasks" || true
}

# usage errors
for bad in "--cpu 1" "--isolate --cpu x" "--isolate --check-only"; do
  RC=0
  # shellcheck disable=SC2086
  "$ROOT/scripts/calibrate_machine.sh" $bad --out "$TMP/never.xml" > /dev/null 2>&1 || RC=$?
  [ "$RC" = 2 ] || fail "calibrate_machine.sh $bad: exit $RC, want 2"
done
echo "ok - usage errors"

# a VM like the reference machine: isolated, timed through run_isolated.sh, undone
R=$TMP/vm; vm_tree "$R"; cp -a "$R" "$R.before"
calm "$R" --isolate --quick --skip-check --out "$TMP/costs.xml"
[ "$RC" = 0 ] || { tail -n 30 "$TMP/err"; fail "calibrate_machine.sh --isolate: exit $RC"; }
err_has "== isolating a CPU: scripts/init_environment.sh"
err_has "/.dockerenv exists, but this process is in the kernel's initial pid and cgroup namespaces"
err_has "CPU 1 reserved for measuring (cpuset-v1"
err_has "== undoing the isolation: scripts/terminate_environment.sh"
err_has "isolation undone"
grep -q 'isolated_core="true"' "$TMP/costs.xml" || fail "the table does not say isolated_core=\"true\""
grep -q 'calibrated="true"' "$TMP/costs.xml" || fail "the table is not calibrated"
grep -q '^isolation *isolated: timed through scripts/run_isolated.sh' "$TMP/costs-report.txt" ||
  fail "report: $(grep '^isolation' "$TMP/costs-report.txt")"
joined=$(restored "$R" | wc -l)
# psf-calibrate's question (run_isolated.sh true) and at least one timing JVM
[ "$joined" -ge 2 ] || fail "only $joined processes joined the reserved CPU's cpuset"
echo "ok - --isolate in a VM: isolated_core=\"true\", $joined processes ran on the reserved CPU, tree restored"

# psf-calibrate fails: the isolation is undone all the same
R=$TMP/vmfail; vm_tree "$R"; cp -a "$R" "$R.before"
JAVA_HOME=$TMP/no-jdk calm "$R" --isolate --quick --skip-check --out "$TMP/fail.xml"
[ "$RC" = 1 ] || fail "psf-calibrate failing: exit $RC, want 1"
err_has "calibrate_machine.sh: psf-calibrate failed"
err_has "isolation undone"
restored "$R" > /dev/null
echo "ok - psf-calibrate failing: isolation undone, exit 1"

# a container with its own pid and cgroup namespaces: refused, nothing run
R=$TMP/ctr; vm_tree "$R" 4026532301 4026532302; cp -a "$R" "$R.before"
calm "$R" --isolate --quick --skip-check --out "$TMP/ctr.xml"
[ "$RC" = 1 ] || fail "in a container: exit $RC, want 1"
err_has "no isolation possible here (pid-namespace,cgroup-namespace); calibrate without --isolate"
err_lacks "== calibrating"
[ ! -e "$TMP/ctr.xml" ] || fail "a table was written without isolation"
diff -r --no-dereference "$R.before" "$R" >&2 || fail "the tree changed"
echo "ok - in a container: refused with the reasons, nothing changed"

# isolation already set up by someone else: used, and left in place
R=$TMP/vmkept; vm_tree "$R"
PSF_SYSROOT=$R "$ROOT/scripts/init_environment.sh" > /dev/null 2>&1 || fail "init on the fake tree failed"
cp -a "$R" "$R.before"
JAVA_HOME=$TMP/no-jdk calm "$R" --isolate --quick --skip-check --out "$TMP/kept.xml"
[ "$RC" = 1 ] || fail "already isolated, psf-calibrate failing: exit $RC, want 1"
err_has "a CPU is already reserved; using it and leaving it reserved"
err_lacks "== undoing"
diff -r --no-dereference -x tasks "$R.before" "$R" >&2 || fail "someone else's isolation was changed"
[ -e "$R/run/psf/isolation.state" ] || fail "someone else's isolation was undone"
echo "ok - already isolated: used and left in place"

if [ -s "$FORBIDDEN" ]; then
  cat "$FORBIDDEN"
  fail "commands acting on the real system were called"
fi
echo "ok: calibrate_machine.sh --isolate"
