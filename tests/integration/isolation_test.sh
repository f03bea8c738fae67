#!/usr/bin/env bash
#
# Integration test of the core-isolation scripts (scripts/init_environment.sh,
# terminate_environment.sh, show_cpu_assignment.sh, run_isolated.sh).
#
# Every case builds a fake system in a temporary directory (cgroup v2 or v1
# trees, /sys/devices/system/cpu, /proc/cpuinfo, /proc/mounts, ...) and runs
# the scripts with --root pointing at it. Nothing here may act on the real
# system, so, belt and braces:
#   - every script call goes through a helper that passes --root;
#   - PSF_TEST_MODE=1 makes the scripts refuse to run without a fake root;
#   - stubs for mount, umount, taskset and systemd-detect-virt come first in
#     PATH and log any call; the run fails if any was called;
#   - stubs for id and getconf let a case play root or a C library without
#     POSIX timers.
# Prints one line per case and a final 'N passed, M failed'; exits 1 on a
# failure, 77 if the scripts are missing or a case could not run (skipped).

set -eu

HERE=$(cd "$(dirname -- "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SCRIPTS=$REPO/scripts
[[ -x $SCRIPTS/init_environment.sh ]] || { echo "isolation_test: scripts missing; skipped"; exit 77; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-isolation-test.XXXXXX")
cleanup() { rm -rf -- "$TMP"; }
trap cleanup EXIT

unset PSF_SYSROOT PSF_FAKE_REJECT PSF_FAKE_FORK PSF_FAKE_EXIT FAKE_UID FAKE_POSIX_TIMERS FAKE_POSIX_MONOTONIC
export PSF_TEST_MODE=1

# ---------------------------------------------------------------- stubs

STUBS=$TMP/stubs
FORBIDDEN_LOG=$TMP/forbidden-calls.log
mkdir -p "$STUBS"
REAL_ID=$(command -v id)
REAL_GETCONF=$(command -v getconf)
cat > "$STUBS/id" <<EOF
#!/bin/sh
if [ "\$1" = -u ]; then echo "\${FAKE_UID:-0}"; else exec "$REAL_ID" "\$@"; fi
EOF
cat > "$STUBS/getconf" <<EOF
#!/bin/sh
case \$1 in
  _POSIX_TIMERS) echo "\${FAKE_POSIX_TIMERS:-200809}" ;;
  _POSIX_MONOTONIC_CLOCK) echo "\${FAKE_POSIX_MONOTONIC:-200809}" ;;
  *) exec "$REAL_GETCONF" "\$@" ;;
esac
EOF
for cmd in mount umount taskset systemd-detect-virt; do
    printf '#!/bin/sh\necho "%s $*" >> "%s"\nexit 1\n' "$cmd" "$FORBIDDEN_LOG" > "$STUBS/$cmd"
done
chmod +x "$STUBS"/*
PATH=$STUBS:$PATH

# ---------------------------------------------------------------- fake trees

R=""   # the current case's fake root
O=""   # the current case's output directory (outside R)

# put FILE [CONTENT]: a kernel-style file under R, CONTENT plus a newline.
put() { mkdir -p -- "$(dirname -- "$R/$1")"; printf '%s\n' "${2:-}" > "$R/$1"; }
# put_pids FILE PID...: a procs/tasks file; empty without pids, as the kernel shows it.
put_pids() {
    mkdir -p -- "$(dirname -- "$R/$1")"
    local f=$R/$1; shift
    if (( $# )); then printf '%s\n' "$@" > "$f"; else : > "$f"; fi
}

# new_case: a fresh root with NCPUS CPUs (4 unless given) with cpufreq,
# cpuinfo with an invariant TSC, an empty /proc/mounts and a /run.
new_case() {
    local n=${1:-4} i dir
    dir=$(mktemp -d "$TMP/case.XXXXXX")   # cases run in subshells: no counter
    R=$dir/root
    O=$dir/out
    mkdir -p "$R/run" "$O"
    put sys/devices/system/cpu/online "0-$((n - 1))"
    [[ $n == 1 ]] && put sys/devices/system/cpu/online 0
    for (( i = 0; i < n; i++ )); do
        put "sys/devices/system/cpu/cpu$i/cpufreq/scaling_governor" powersave
        put "sys/devices/system/cpu/cpu$i/cpufreq/scaling_available_governors" "performance powersave"
        put "sys/devices/system/cpu/cpu$i/cpufreq/affected_cpus" "$i"
        put "sys/devices/system/cpu/cpu$i/topology/thread_siblings_list" "$i"
    done
    cpuinfo "$n" "fpu tsc msr constant_tsc nonstop_tsc rdtscp"
    put proc/cgroups "#subsys_name	hierarchy	num_cgroups	enabled"
    : > "$R/proc/mounts"
}

# cpuinfo N FLAGS: a /proc/cpuinfo with N processors having FLAGS.
cpuinfo() {
    local i
    mkdir -p "$R/proc"
    for (( i = 0; i < $1; i++ )); do
        printf 'processor\t: %s\nvendor_id\t: GenuineIntel\nflags\t\t: %s\n\n' "$i" "$2"
    done > "$R/proc/cpuinfo"
}

# v2_tree [cpuset-enabled]: a cgroup v2 hierarchy at /sys/fs/cgroup. With
# cpuset-enabled, the root already delegates cpuset and children have cpus.
v2_tree() {
    local g=sys/fs/cgroup
    echo "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0" >> "$R/proc/mounts"
    put $g/cgroup.controllers "cpuset cpu io memory pids"
    put $g/cgroup.subtree_control "cpu memory pids"
    put $g/cpuset.cpus.effective "0-3"
    put $g/cpuset.mems.effective "0"
    put_pids $g/cgroup.procs 2 3 7
    put_pids $g/init.scope/cgroup.procs 1
    put_pids $g/system.slice/cgroup.procs
    put_pids $g/system.slice/ssh.service/cgroup.procs 300 301
    put_pids $g/user.slice/cgroup.procs 400
    put $g/user.slice/cpu.weight 100
    if [[ ${1:-} == cpuset-enabled ]]; then
        put $g/cgroup.subtree_control "cpuset cpu memory pids"
        put $g/system.slice/cgroup.subtree_control "cpuset"
        put $g/init.scope/cpuset.cpus ""
        put $g/system.slice/cpuset.cpus "0-3"
        put $g/system.slice/ssh.service/cpuset.cpus "2-3"
        put $g/user.slice/cpuset.cpus ""
        put $g/user.slice/cpuset.cpus.partition member
        put $g/low.slice/cpuset.cpus "0-1"
        put_pids $g/low.slice/cgroup.procs 500
    fi
}

# v1_tree DIR [noprefix]: a cgroup v1 cpuset hierarchy at DIR (not mounted).
# Tasks 1 2 3 50 in the root, 60 61 in docker, 62 in docker/c1.
v1_tree() {
    local d=${1#/} p=cpuset.
    [[ ${2:-} == noprefix ]] && p=""
    put "$d/${p}cpus" "0-3"
    put "$d/${p}mems" "0"
    put "$d/${p}cpu_exclusive" 1
    put "$d/${p}effective_cpus" "0-3"
    put_pids "$d/tasks" 1 2 3 50
    put_pids "$d/cgroup.procs" 1 2 3 50
    put "$d/docker/${p}cpus" "0-3"
    put "$d/docker/${p}mems" "0"
    put "$d/docker/${p}cpu_exclusive" 0
    put_pids "$d/docker/tasks" 60 61
    put "$d/docker/c1/${p}cpus" "2-3"
    put "$d/docker/c1/${p}mems" "0"
    put_pids "$d/docker/c1/tasks" 62
}
v1_mounted() {
    v1_tree /sys/fs/cgroup/cpuset
    echo "cgroup /sys/fs/cgroup/cpuset cgroup rw,nosuid,nodev,noexec,relatime,cpuset 0 0" >> "$R/proc/mounts"
}

# The kernel's initial namespaces (their inode numbers are fixed), and others.
INIT_PID_NS=4026531836 INIT_CGROUP_NS=4026531835
# namespaces PID_NS CGROUP_NS [PID1_CGROUP_NS]: /proc/self/ns/{pid,cgroup} as
# the kernel shows them, links reading "pid:[N]"; "-" leaves one out.
namespaces() {
    mkdir -p "$R/proc/self/ns" "$R/proc/1/ns"
    [[ $1 == - ]] || ln -s "pid:[$1]" "$R/proc/self/ns/pid"
    [[ $2 == - ]] || ln -s "cgroup:[$2]" "$R/proc/self/ns/cgroup"
    [[ -z ${3:-} ]] || ln -s "cgroup:[$3]" "$R/proc/1/ns/cgroup"
}
# mountinfo MOUNTPOINT ROOT OPTS: /proc/self/mountinfo with the cgroup mount
# at MOUNTPOINT showing the filesystem from its directory ROOT.
mountinfo() {
    printf '24 1 0:22 / / rw,relatime shared:1 - ext4 /dev/vda rw\n34 31 0:31 %s %s %s - cgroup cgroup rw,cpuset\n' \
        "$2" "$1" "$3" > "$R/proc/self/mountinfo"
}
# vm_like_this_one: what a VM with its own kernel shows when its image came
# from a container (as on the reference machine): /.dockerenv, but the
# kernel's initial namespaces and the whole v1 cpuset hierarchy, writable.
vm_like_this_one() {
    v1_mounted
    : > "$R/.dockerenv"
    namespaces $INIT_PID_NS $INIT_CGROUP_NS
    mountinfo /sys/fs/cgroup/cpuset / rw,relatime
}

# fake_proc PID NAME ALLOWED LASTCPU [kthread]: /proc/PID/status and stat.
fake_proc() {
    local flags=4194560 f i
    [[ ${5:-} == kthread ]] && flags=$(( flags | 0x00200000 ))
    put "proc/$1/status" "$(printf 'Name:\t%s\nState:\tS (sleeping)\nCpus_allowed_list:\t%s' "$2" "$3")"
    f=("S")
    for (( i = 4; i <= 52; i++ )); do f+=("0"); done
    f[6]=$flags f[36]=$4
    put "proc/$1/stat" "$1 ($2) ${f[*]}"
}

# ---------------------------------------------------------------- running

# The only way the cases run a script: always with --root "$R".
# run SCRIPT ARGS...: stdout to $O/out, stderr to $O/err, status to RC.
run() {
    local script=$1; shift
    RC=0
    "$SCRIPTS/$script.sh" --root "$R" "$@" > "$O/out" 2> "$O/err" || RC=$?
}
init() { run init_environment "$@"; }
terminate() { run terminate_environment "$@"; }

snapshot() { rm -rf -- "$R.before"; cp -a -- "$R" "$R.before"; }
# exists PATH: a file, directory or symlink (the fake /proc/self/ns links
# point nowhere).
exists() { [[ -e $1 || -L $1 ]]; }

# changes: what differs between the snapshot and R: "A path", "D path",
# "M path" (dirs end in /), sorted.
changes() {
    local a=$R.before b=$R p
    {
        (cd "$a" && find . -mindepth 1 | sed 's|^\./||')
        (cd "$b" && find . -mindepth 1 | sed 's|^\./||')
    } | sort -u | while IFS= read -r p; do
        if [[ -d $b/$p && ! -e $a/$p ]]; then echo "A $p/"
        elif [[ -d $a/$p && ! -e $b/$p ]]; then echo "D $p/"
        elif [[ -d $b/$p ]]; then :
        elif ! exists "$a/$p"; then echo "A $p"
        elif ! exists "$b/$p"; then echo "D $p"
        elif [[ -L $a/$p || -L $b/$p ]]; then
            [[ $(readlink -- "$a/$p") == "$(readlink -- "$b/$p")" ]] || echo "M $p"
        elif ! cmp -s "$a/$p" "$b/$p"; then echo "M $p"
        fi
    done | sort
}

fail() { echo "  $*"; exit 1; }
expect_rc() { [[ $RC == "$1" ]] || { show_output; fail "exit status $RC, expected $1"; }; }
show_output() { echo "  --- stdout:"; sed 's/^/  | /' "$O/out"; echo "  --- stderr:"; sed 's/^/  | /' "$O/err"; }
# expect_out/expect_err TEXT: stdout/stderr holds a line containing TEXT.
expect_out() { grep -qF -- "$1" "$O/out" || { show_output; fail "stdout lacks: $1"; }; }
expect_err() { grep -qF -- "$1" "$O/err" || { show_output; fail "stderr lacks: $1"; }; }
expect_no_err() { ! grep -qF -- "$1" "$O/err" || { show_output; fail "stderr has: $1"; }; }
# expect_file FILE CONTENT: FILE under R holds exactly CONTENT and a newline.
expect_file() {
    local want got
    want=$(printf '%s\n' "$2" | od -c)
    got=$(od -c < "$R/$1" 2>/dev/null) || fail "$1 missing"
    [[ $got == "$want" ]] || fail "$1 holds '$(cat "$R/$1")', expected '$2'"
}
# expect_changes LINE...: the changes since the snapshot are exactly these.
expect_changes() {
    local want got
    want=$(printf '%s\n' "$@" | sort)
    got=$(changes)
    [[ $got == "$want" ]] || { show_output; fail "changes differ:$(diff <(echo "$want") <(echo "$got") | sed 's/^/\n    /')"; }
}
expect_unchanged() {
    diff -r --no-dereference "$R.before" "$R" > "$O/diff" 2>&1 || { show_output; cat "$O/diff"; fail "tree changed"; }
}
expect_no_state() { [[ ! -e $R/run/psf ]] || fail "state directory run/psf left behind"; }

# ---------------------------------------------------------------- cases
# Names: script_or_area__scenario__expectation.

V2=sys/fs/cgroup
GOV3=sys/devices/system/cpu/cpu3/cpufreq/scaling_governor
STATE=run/psf/isolation.state

test_init__v2__writes_exactly_the_isolation() {
    new_case; v2_tree; snapshot
    init; expect_rc 0
    expect_changes "M $V2/cgroup.subtree_control" "A $V2/psf/" "A $V2/psf/cpuset.cpus" \
        "A $V2/psf/cpuset.cpus.partition" "M $GOV3" "A run/psf/" "A $STATE"
    expect_file $V2/cgroup.subtree_control "cpuset cpu memory pids"
    expect_file $V2/psf/cpuset.cpus 3
    expect_file $V2/psf/cpuset.cpus.partition isolated
    expect_file $GOV3 performance
    expect_out "PSF_ISOLATION=cgroup2"
    expect_out "PSF_CPU=3"
    expect_out "PSF_CGROUP=$R/$V2/psf"
    expect_out "PSF_CGROUP_PROCS=$R/$V2/psf/cgroup.procs"
    expect_out "PSF_PARTITION=isolated"
    expect_out "PSF_GOVERNOR=performance"
    [[ $(grep -c . "$O/out") == 6 ]] || fail "stdout should hold the 6 PSF_ lines only"
    grep -qx "set|/$GOV3|powersave|performance" "$R/$STATE" || fail "state lacks the governor's old value"
    grep -qx "subtree|/$V2/cgroup.subtree_control|cpuset" "$R/$STATE" || fail "state lacks the subtree change"
}

test_terminate__v2__restores_tree_byte_for_byte() {
    new_case; v2_tree; snapshot
    init; expect_rc 0
    terminate; expect_rc 0
    expect_err "isolation undone"
    expect_unchanged
}

test_init__v2_cgroups_name_the_cpu__takes_it_out_of_them() {
    new_case; v2_tree cpuset-enabled; snapshot
    init; expect_rc 0
    expect_changes "M $V2/system.slice/cpuset.cpus" "M $V2/system.slice/ssh.service/cpuset.cpus" \
        "A $V2/psf/" "A $V2/psf/cpuset.cpus" "A $V2/psf/cpuset.cpus.partition" "M $GOV3" \
        "A run/psf/" "A $STATE"
    expect_file $V2/system.slice/cpuset.cpus "0-2"
    expect_file $V2/system.slice/ssh.service/cpuset.cpus 2
    expect_file $V2/low.slice/cpuset.cpus "0-1"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__v2_isolated_refused__uses_root_partition() {
    new_case; v2_tree; snapshot
    PSF_FAKE_REJECT=cpuset.cpus.partition=isolated init; expect_rc 0
    expect_err "refuses partition type 'isolated'"
    expect_file $V2/psf/cpuset.cpus.partition root
    expect_out "PSF_PARTITION=root"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__v2_no_partitions__restricts_top_level_cgroups() {
    new_case; v2_tree cpuset-enabled; snapshot
    PSF_FAKE_REJECT=cpuset.cpus.partition init; expect_rc 0
    expect_out "PSF_PARTITION=none"
    expect_err "3 processes in the root cgroup can still run on CPU 3"
    expect_file $V2/init.scope/cpuset.cpus "0-2"
    expect_file $V2/user.slice/cpuset.cpus "0-2"
    expect_file $V2/system.slice/cpuset.cpus "0-2"
    expect_file $V2/low.slice/cpuset.cpus "0-1"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__v2_cgroup_only_on_the_cpu__refuses_and_changes_nothing() {
    new_case; v2_tree cpuset-enabled
    put $V2/pinned/cpuset.cpus 3
    snapshot
    init; expect_rc 1
    expect_err "runs on CPU 3 alone; reserve another CPU with --cpu"
    expect_unchanged
    init --cpu 2; expect_rc 0
    expect_file $V2/pinned/cpuset.cpus 3
    terminate; expect_rc 0
    expect_unchanged
}

test_init__v2_leftover_psf_cgroup__refuses() {
    new_case; v2_tree; mkdir "$R/$V2/psf"; snapshot
    init; expect_rc 1
    expect_err "$R/$V2/psf already exists but there is no state file"
    expect_unchanged
}

test_init__v1__moves_tasks_and_restricts_cpusets() {
    local c=sys/fs/cgroup/cpuset
    new_case; v1_mounted; snapshot
    PSF_FAKE_REJECT=tasks=2 init; expect_rc 0      # task 2 plays a per-CPU kernel thread
    expect_changes "M $c/tasks" "M $c/docker/cpuset.cpus" "M $c/docker/c1/cpuset.cpus" \
        "A $c/psf_system/" "A $c/psf_system/cpuset.cpus" "A $c/psf_system/cpuset.mems" "A $c/psf_system/tasks" \
        "A $c/psf/" "A $c/psf/cpuset.cpus" "A $c/psf/cpuset.mems" "A $c/psf/cpuset.cpu_exclusive" \
        "M $GOV3" "A run/psf/" "A $STATE"
    expect_file $c/tasks 2
    expect_file $c/psf_system/tasks "$(printf '1\n3\n50')"
    expect_file $c/psf_system/cpuset.cpus "0-2"
    expect_file $c/psf_system/cpuset.mems 0
    expect_file $c/psf/cpuset.cpus 3
    expect_file $c/psf/cpuset.mems 0
    expect_file $c/psf/cpuset.cpu_exclusive 1
    expect_file $c/docker/cpuset.cpus "0-2"
    expect_file $c/docker/c1/cpuset.cpus 2
    expect_err "moved 3 tasks to $R/$c/psf_system; 1 stayed in the root cpuset"
    expect_out "PSF_ISOLATION=cpuset-v1"
    expect_out "PSF_CGROUP_PROCS=$R/$c/psf/tasks"
    # cgroup v1 needs a child's CPUs within its parent's: children go first.
    [[ $(grep -n '^set|' "$R/$STATE" | head -n 1) == *"/docker/c1/cpuset.cpus|"* ]] ||
        fail "docker/c1 must be restricted before docker"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__v1_noprefix_mount__uses_unprefixed_files() {
    new_case
    v1_tree /dev/cpuset noprefix
    echo "cpuset /dev/cpuset cgroup rw,relatime,cpuset,noprefix 0 0" >> "$R/proc/mounts"
    snapshot
    init; expect_rc 0
    expect_file dev/cpuset/psf/cpus 3
    expect_file dev/cpuset/psf/cpu_exclusive 1
    expect_file dev/cpuset/docker/cpus "0-2"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__v1_not_mounted__mounts_at_dev_cpuset() {
    new_case
    v1_tree /dev/cpuset     # what the mount would show
    printf 'cpuset\t0\t1\t1\n' >> "$R/proc/cgroups"
    snapshot
    init; expect_rc 0
    expect_err "mounting one at /dev/cpuset"
    expect_err "fake root: not mounting"
    grep -qx "mount|/dev/cpuset" "$R/$STATE" || fail "state lacks the mount"
    expect_file dev/cpuset/psf/cpuset.cpus 3
    terminate; expect_rc 0
    expect_err "fake root: not unmounting $R/dev/cpuset"
    expect_unchanged
}

test_init__v1_mount_point_missing__rolls_back_the_mkdir() {
    new_case
    printf 'cpuset\t0\t1\t1\n' >> "$R/proc/cgroups"
    mkdir -p "$R/dev"
    snapshot
    init; expect_rc 1
    expect_err "cannot read $R/dev/cpuset/cpuset.cpus"
    expect_unchanged
    expect_no_state
}

test_init__step_fails__undoes_everything_before_it() {
    new_case; v2_tree cpuset-enabled; snapshot
    PSF_FAKE_REJECT=scaling_governor init; expect_rc 1
    expect_err "cannot write 'performance' to $R/$GOV3"
    expect_err "isolation failed; undoing what was done"
    expect_unchanged
    expect_no_state
}

test_init__dry_run_v2__prints_every_action_changes_nothing() {
    new_case; v2_tree cpuset-enabled; put $V2/cgroup.subtree_control "cpu"; snapshot
    init --dry-run; expect_rc 0
    expect_unchanged
    expect_err "dry-run: write '+cpuset' > $R/$V2/cgroup.subtree_control (was 'cpu')"
    expect_err "dry-run: write '0-2' > $R/$V2/system.slice/cpuset.cpus (was '0-3')"
    expect_err "dry-run: write '2' > $R/$V2/system.slice/ssh.service/cpuset.cpus (was '2-3')"
    expect_err "dry-run: mkdir $R/$V2/psf"
    expect_err "dry-run: write '3' > $R/$V2/psf/cpuset.cpus"
    expect_err "dry-run: write 'isolated' > $R/$V2/psf/cpuset.cpus.partition"
    expect_err "dry-run: write 'performance' > $R/$GOV3 (was 'powersave')"
    expect_err "dry-run: nothing was changed"
    expect_out "PSF_DRY_RUN=1"
    expect_out "PSF_CPU=3"
}

test_init__dry_run_v1__prints_moves_and_mount() {
    new_case
    v1_tree /dev/cpuset
    printf 'cpuset\t0\t1\t1\n' >> "$R/proc/cgroups"
    snapshot
    init -n; expect_rc 0
    expect_unchanged
    expect_err "dry-run: mount -t cgroup -o cpuset cpuset $R/dev/cpuset"
    expect_err "dry-run: mkdir $R/dev/cpuset/psf_system"
    expect_err "dry-run: write '1' > $R/dev/cpuset/psf/cpuset.cpu_exclusive"
    local pid
    for pid in 1 2 3 50; do
        expect_err "dry-run: move task $pid: $R/dev/cpuset/tasks -> $R/dev/cpuset/psf_system/tasks"
    done
}

test_terminate__dry_run__prints_undo_changes_nothing() {
    local c=sys/fs/cgroup/cpuset
    new_case; v1_mounted
    init; expect_rc 0
    snapshot
    terminate --dry-run; expect_rc 0
    expect_unchanged
    expect_err "dry-run: move task 50: $R/$c/psf_system/tasks -> $R/$c/tasks"
    expect_err "dry-run: rmdir $R/$c/psf"
    expect_err "dry-run: write '0-3' > $R/$c/docker/cpuset.cpus"
    expect_err "dry-run: write 'powersave' > $R/$GOV3"
}

test_terminate__twice__second_has_nothing_to_undo() {
    new_case; v2_tree cpuset-enabled; snapshot
    init; expect_rc 0
    terminate; expect_rc 0
    terminate; expect_rc 0
    expect_err "nothing to undo"
    expect_unchanged
}

test_terminate__no_state__nothing_to_undo() {
    new_case; v2_tree; snapshot
    terminate; expect_rc 0
    expect_err "no state file ($R/$STATE): nothing to undo"
    expect_unchanged
}

test_terminate__partly_undone_by_hand__restores_the_rest() {
    new_case; v2_tree cpuset-enabled; snapshot
    init; expect_rc 0
    put $GOV3 powersave                       # someone restored it already
    rm -rf "$R/$V2/psf"                        # and removed the cgroup
    terminate; expect_rc 0
    expect_no_err "warning"
    expect_unchanged
}

test_terminate__value_changed_after_init__warns_and_restores() {
    new_case; v2_tree; snapshot
    init; expect_rc 0
    put $GOV3 schedutil
    terminate; expect_rc 0
    expect_err "changed since init (now 'schedutil'); restoring 'powersave' anyway"
    expect_unchanged
}

test_terminate__process_exited_or_forked__handled() {
    local c=sys/fs/cgroup/cpuset
    new_case; v1_mounted; snapshot
    init; expect_rc 0
    put_pids $c/psf_system/tasks 1 2 3 77     # 50 exited, 77 was forked there
    put_pids $c/psf/tasks 88                  # a measurement still running
    terminate; expect_rc 0
    expect_file $c/tasks "$(printf '1\n2\n3\n77\n88')"
    [[ ! -e $R/$c/psf_system && ! -e $R/$c/psf ]] || fail "cpusets not removed"
}

test_terminate__tasks_forked_while_undoing__moved_out_too() {
    # Every process forked after init lands in psf_system (v1), so tasks keep
    # appearing there while terminate empties it: 77 forks 78 just as it is
    # moved, and the measurement 88 forks 89 in psf. One terminate is enough.
    local c=sys/fs/cgroup/cpuset
    new_case; vm_like_this_one
    init; expect_rc 0
    put_pids $c/psf_system/tasks 1 2 3 50 77
    put_pids $c/psf/tasks 88
    PSF_FAKE_FORK="77:78 88:89" terminate; expect_rc 0
    expect_err "isolation undone"
    expect_file $c/tasks "$(printf '1\n2\n3\n50\n77\n78\n88\n89')"
    [[ ! -e $R/$c/psf_system && ! -e $R/$c/psf ]] || fail "cpusets not removed"
    expect_no_state
}

test_terminate__tasks_exit_while_undoing__not_an_error() {
    # A task that exits between being listed and being moved (ESRCH) has
    # nothing left to move: 50 (moved by init) and 77 (forked later) exit.
    local c=sys/fs/cgroup/cpuset
    new_case; vm_like_this_one
    init; expect_rc 0
    put_pids $c/psf_system/tasks 1 2 3 50 77
    PSF_FAKE_EXIT="50 77" terminate; expect_rc 0
    expect_no_err "tasks left"
    expect_file $c/tasks "$(printf '1\n2\n3')"
    [[ ! -e $R/$c/psf_system && ! -e $R/$c/psf ]] || fail "cpusets not removed"
    expect_no_state
}

test_terminate__task_that_cannot_move__named_state_kept() {
    # A task the kernel will not move out keeps the cgroup; terminate names
    # it, keeps the state file, and a second run finishes once it is gone.
    local c=sys/fs/cgroup/cpuset
    new_case; vm_like_this_one
    put proc/77/comm "kworker/3:1"
    init; expect_rc 0
    put_pids $c/psf_system/tasks 1 2 3 50 77
    PSF_FAKE_REJECT=tasks=77 terminate; expect_rc 1
    expect_err "task 77 (kworker/3:1) stays in $R/$c/psf_system: it cannot be moved to $R/$c"
    expect_err "tasks left in $R/$c/psf_system that cannot be moved out; it stays"
    [[ -e $R/$STATE ]] || fail "state file must stay for a second try"
    terminate; expect_rc 0
    [[ ! -e $R/$c/psf_system ]] || fail "psf_system not removed"
    expect_no_state
}

test_terminate__undo_fails__keeps_state_and_exits_1() {
    new_case; v2_tree; snapshot
    init; expect_rc 0
    PSF_FAKE_REJECT=scaling_governor terminate; expect_rc 1
    expect_err "some changes could not be undone"
    [[ -e $R/$STATE ]] || fail "state file must stay for a second try"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__already_set_up__exit_5_with_its_env() {
    new_case; v2_tree
    init; expect_rc 0
    snapshot
    init --cpu 1; expect_rc 5
    expect_err "isolation is already set up"
    expect_out "PSF_CPU=3"
    expect_unchanged
}

test_init__cpu_option__reserves_that_cpu() {
    new_case; v2_tree
    init --cpu 1; expect_rc 0
    expect_out "PSF_CPU=1"
    expect_file $V2/psf/cpuset.cpus 1
    expect_file sys/devices/system/cpu/cpu1/cpufreq/scaling_governor performance
    expect_file $GOV3 powersave
}

test_init__bad_options__exit_2() {
    new_case; v2_tree; snapshot
    init --frobnicate; expect_rc 2; expect_err "unknown option '--frobnicate'"
    init --cpu x; expect_rc 2; expect_err "--cpu wants a CPU number, not 'x'"
    init --cpu=1x; expect_rc 2; expect_err "--cpu wants a CPU number, not '1x'"
    init --cpu; expect_rc 2; expect_err "--cpu needs a number"
    init --cpu 9; expect_rc 2; expect_err "CPU 9 is not one the cpuset hierarchy offers ('0-3')"
    run init_environment --root "$TMP/does-not-exist"; expect_rc 2; expect_err "is not a directory"
    expect_unchanged
    expect_no_state
}

test_init__not_root__exit_3_unavailable() {
    new_case; v2_tree; snapshot
    FAKE_UID=1000 init; expect_rc 3
    expect_err "not root (uid 1000)"
    expect_err "CPU isolation is not possible here; nothing changed"
    expect_out "PSF_ISOLATION=none"
    expect_out "PSF_ISOLATION_REASON=not-root"
    expect_unchanged
}

test_init__one_cpu__exit_3_unavailable() {
    new_case 1; v2_tree; put $V2/cpuset.cpus.effective 0; snapshot
    init; expect_rc 3
    expect_err "only 1 CPU online ('0')"
    expect_out "PSF_ISOLATION_REASON=single-cpu"
    expect_unchanged
}

test_init__container__exit_3_unless_allowed() {
    new_case; v2_tree
    : > "$R/.dockerenv"; snapshot
    init; expect_rc 3
    expect_err "running in a container (/.dockerenv exists)"
    expect_out "PSF_ISOLATION_REASON=container"
    expect_unchanged
    init --allow-container; expect_rc 0
    expect_err "going on as --allow-container asks"
    rm "$R/.dockerenv"; mkdir -p "$R/proc/1"; printf 'PATH=/bin\0container=podman\0' > "$R/proc/1/environ"
    terminate; expect_rc 0
    init; expect_rc 3
    expect_err "pid 1 has 'container=' in its environment"
    rm -r "$R/proc/1"; : > "$R/run/.containerenv"
    init; expect_rc 3
    expect_err "/run/.containerenv exists"
}

test_init__vm_with_dockerenv__dry_run_plans_isolation() {
    local c=sys/fs/cgroup/cpuset pid
    new_case 2; vm_like_this_one
    put $c/cpuset.cpus 0-1; put $c/docker/cpuset.cpus 0-1; put $c/docker/c1/cpuset.cpus 0
    snapshot
    init --dry-run; expect_rc 0
    expect_unchanged
    expect_err "/.dockerenv exists, but this process is in the kernel's initial pid and cgroup namespaces"
    expect_no_err "error"
    expect_err "dry-run: mkdir $R/$c/psf_system"
    expect_err "dry-run: write '0' > $R/$c/psf_system/cpuset.cpus"
    expect_err "dry-run: write '1' > $R/$c/psf/cpuset.cpus"
    expect_err "dry-run: write '0' > $R/$c/docker/cpuset.cpus (was '0-1')"
    for pid in 1 2 3 50; do
        expect_err "dry-run: move task $pid: $R/$c/tasks -> $R/$c/psf_system/tasks"
    done
    expect_out "PSF_ISOLATION=cpuset-v1"
    expect_out "PSF_CPU=1"
    expect_out "PSF_DRY_RUN=1"
    # and for real (on the fake tree), then undone byte for byte
    init; expect_rc 0
    expect_file $c/psf/cpuset.cpus 1
    expect_file $c/psf_system/tasks "$(printf '1\n2\n3\n50')"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__kthreadd_is_pid_2__counts_as_the_kernels_pid_namespace() {
    # Without readable namespace links, pid 2 being kthreadd with no parent
    # shows the kernel's initial pid namespace (its pid 1 is the kernel's init).
    new_case; v1_mounted; : > "$R/.dockerenv"
    put proc/2/status "$(printf 'Name:\tkthreadd\nState:\tS (sleeping)\nPPid:\t0')"
    snapshot
    init --dry-run; expect_rc 0
    expect_err "/.dockerenv exists, but this process is in the kernel's initial"
    put proc/2/status "$(printf 'Name:\tkthreadd\nState:\tS (sleeping)\nPPid:\t1')"
    init --dry-run; expect_rc 3
    expect_err "running in a container (/.dockerenv exists)"
    expect_out "PSF_ISOLATION_REASON=container"
}

test_init__container_own_namespaces__exit_3_with_reasons() {
    new_case; v2_tree; : > "$R/.dockerenv"
    namespaces 4026532301 4026532302 $INIT_CGROUP_NS
    snapshot
    init; expect_rc 3
    expect_err "in pid namespace pid:[4026532301], not the kernel's initial one (pid:[$INIT_PID_NS])"
    expect_err "in cgroup namespace cgroup:[4026532302] (pid 1 is in cgroup:[$INIT_CGROUP_NS]), not the kernel's initial one"
    expect_out "PSF_ISOLATION_REASON=pid-namespace,cgroup-namespace"
    expect_unchanged
    # --allow-container does not make a subtree the whole hierarchy
    init --allow-container; expect_rc 3
    expect_err "--allow-container cannot help"
    expect_unchanged
    # no container file needed to refuse: the namespaces decide
    rm "$R/.dockerenv"; snapshot
    init; expect_rc 3
    expect_out "PSF_ISOLATION_REASON=pid-namespace,cgroup-namespace"
    expect_unchanged
}

test_init__container_sharing_pid_namespace_only__exit_3() {
    new_case; v2_tree; namespaces $INIT_PID_NS 4026532302; snapshot
    init; expect_rc 3
    expect_out "PSF_ISOLATION_REASON=cgroup-namespace"
    expect_no_err "pid namespace"
    expect_unchanged
}

test_init__container_host_cgroupns_partial_read_only_mount__exit_3() {
    # docker --pid=host --cgroupns=host: the kernel's namespaces, but its
    # cgroup mount shows only its own cgroup, read-only.
    new_case; v1_mounted; : > "$R/.dockerenv"
    namespaces $INIT_PID_NS $INIT_CGROUP_NS
    mountinfo /sys/fs/cgroup/cpuset /docker/0123abcd ro,nosuid,nodev,noexec,relatime
    snapshot
    init; expect_rc 3
    expect_err "the cpuset hierarchy at /sys/fs/cgroup/cpuset is mounted from its cgroup /docker/0123abcd, not from its root"
    expect_err "the cpuset hierarchy at /sys/fs/cgroup/cpuset is mounted read-only"
    expect_out "PSF_ISOLATION_REASON=cgroup-subtree,cgroup-read-only"
    expect_unchanged
    # without mountinfo, /proc/mounts still shows a read-only mount
    rm "$R/proc/self/mountinfo"
    sed -i 's/ rw,/ ro,/' "$R/proc/mounts"
    init; expect_rc 3
    expect_out "PSF_ISOLATION_REASON=cgroup-read-only"
}

test_init__no_cgroup_fs__exit_3_unavailable() {
    new_case; snapshot
    init; expect_rc 3
    expect_err "no cpuset controller"
    expect_out "PSF_ISOLATION_REASON=no-cpuset"
    expect_unchanged
}

test_init__v2_without_cpuset_controller__exit_3() {
    new_case; v2_tree; put $V2/cgroup.controllers "cpu io memory pids"; snapshot
    init; expect_rc 3
    expect_err "no cpuset controller"
    expect_unchanged
}

test_init__no_constant_tsc__exit_4() {
    new_case; v2_tree; cpuinfo 4 "fpu tsc nonstop_tsc"; snapshot
    init; expect_rc 4
    expect_err "no invariant TSC: CPU flag 'constant_tsc' missing in $R/proc/cpuinfo (0 of 4 CPUs have it)"
    expect_err "cannot time kernels reliably with RDTSC; nothing changed"
    expect_out "PSF_ISOLATION_REASON=no-invariant-tsc"
    expect_unchanged
}

test_init__no_nonstop_tsc_on_one_cpu__exit_4() {
    new_case; v2_tree
    cpuinfo 4 "fpu tsc constant_tsc nonstop_tsc"
    sed -i '0,/nonstop_tsc/s/ nonstop_tsc//' "$R/proc/cpuinfo"
    snapshot
    init; expect_rc 4
    expect_err "CPU flag 'nonstop_tsc' missing in $R/proc/cpuinfo (3 of 4 CPUs have it)"
    expect_unchanged
}

test_init__not_x86__exit_4() {
    new_case; v2_tree
    printf 'processor\t: 0\nFeatures\t: fp asimd\n\nprocessor\t: 1\nFeatures\t: fp asimd\n' > "$R/proc/cpuinfo"
    init; expect_rc 4
    expect_err "has no 'flags' lines: not an x86 CPU?"
}

test_init__no_posix_timers__exit_4() {
    new_case; v2_tree; snapshot
    FAKE_POSIX_TIMERS=undefined init; expect_rc 4
    expect_err "no POSIX timers: 'getconf _POSIX_TIMERS' says 'undefined'"
    expect_out "PSF_ISOLATION_REASON=no-posix-timers"
    FAKE_POSIX_MONOTONIC=-1 init; expect_rc 4
    expect_err "'getconf _POSIX_MONOTONIC_CLOCK' says '-1'"
    expect_unchanged
}

test_init__several_checks_fail__reports_all_timing_wins() {
    new_case 1; cpuinfo 1 "fpu tsc"; snapshot
    FAKE_UID=1000 init; expect_rc 4
    expect_err "'constant_tsc' missing"
    expect_err "'nonstop_tsc' missing"
    expect_err "not root (uid 1000)"
    expect_err "only 1 CPU online"
    expect_err "no cpuset controller"
    expect_out "PSF_ISOLATION_REASON=no-invariant-tsc,not-root,single-cpu,no-cpuset"
    expect_unchanged
}

test_init__smt_sibling__warns() {
    new_case; v2_tree
    put sys/devices/system/cpu/cpu3/topology/thread_siblings_list "1,3"
    init; expect_rc 0
    expect_err "CPU 3 shares its core with CPU 1 (SMT)"
}

test_init__no_cpufreq__leaves_governor_alone() {
    new_case; v2_tree; rm -r "$R"/sys/devices/system/cpu/cpu*/cpufreq; snapshot
    init; expect_rc 0
    expect_err "no cpufreq for CPU 3"
    expect_out "PSF_GOVERNOR=none"
    terminate; expect_rc 0
    expect_unchanged
}

test_init__psf_sysroot_env__same_as_root_option() {
    new_case; v2_tree; snapshot
    RC=0; PSF_SYSROOT=$R "$SCRIPTS/init_environment.sh" --dry-run > "$O/out" 2> "$O/err" || RC=$?
    expect_rc 0
    expect_out "PSF_CGROUP=$R/$V2/psf"
    expect_unchanged
}

test_scripts__test_mode_without_root__refuse() {
    # Dry runs and read-only calls, so even a broken guard changes nothing.
    local s
    for s in init_environment terminate_environment show_cpu_assignment; do
        RC=0
        "$SCRIPTS/$s.sh" --dry-run > "$TMP/guard.out" 2> "$TMP/guard.err" || RC=$?
        [[ $RC == 2 ]] || fail "$s without --root: exit $RC, expected 2"
        grep -qF "PSF_TEST_MODE=1 but no fake root" "$TMP/guard.err" || fail "$s: no refusal message"
    done
    # run_isolated joins a cgroup before anything else; only try it when no
    # real isolation is set up, so a broken guard still could not join one.
    if [[ ! -e /run/psf/isolation.state ]]; then
        RC=0; "$SCRIPTS/run_isolated.sh" true 2> "$TMP/guard.err" || RC=$?
        [[ $RC == 125 ]] || fail "run_isolated without --root: exit $RC, expected 125"
        grep -qF "PSF_TEST_MODE=1 but no fake root" "$TMP/guard.err" || fail "run_isolated: no refusal message"
    fi
    RC=0; "$SCRIPTS/init_environment.sh" --root / --dry-run 2> "$TMP/guard.err" > /dev/null || RC=$?
    [[ $RC == 2 ]] || fail "--root / is the real system and must be refused in test mode"
}

test_show__lists_cgroups_and_processes_reads_only() {
    new_case; v2_tree cpuset-enabled
    fake_proc 1 systemd 0-3 0
    fake_proc 42 "ksoftirqd/3" 3 3 kthread
    fake_proc 300 "sshd: x" 0-2 1
    put proc/1/cgroup "0::/init.scope"
    put proc/42/cgroup "0::/"
    init; expect_rc 0
    snapshot
    run show_cpu_assignment; expect_rc 0
    expect_unchanged
    expect_out "reserved CPU: 3 (cgroup2, cgroup $R/$V2/psf, partition isolated, governor performance)"
    expect_out "governor of CPU 3: performance"
    grep -qE '^/psf +3 +- +isolated +0$' "$O/out" || { show_output; fail "no line for /psf"; }
    grep -qE '^/system.slice/ssh.service +2 ' "$O/out" || { show_output; fail "no line for ssh.service"; }
    grep -qE '^1 +user +0 +0-3 +/init.scope +systemd$' "$O/out" || { show_output; fail "pid 1 not listed"; }
    grep -qE '^42 +\[k\] +3 +3 +/ +ksoftirqd/3$' "$O/out" || { show_output; fail "kthread not listed"; }
    [[ $(grep -oE '^(1|42) ' "$O/out" | tr -d ' ' | tr '\n' ' ') == "1 42 " ]] || fail "processes not in pid order"
    ! grep -q '^300 ' "$O/out" || fail "pid 300 is not allowed on CPU 3"
    expect_err "2 of 3 processes may run on CPU 3"
    run show_cpu_assignment --print-env; expect_rc 0
    expect_out "PSF_CPU=3"
    expect_out "PSF_CGROUP_PROCS=$R/$V2/psf/cgroup.procs"
    expect_unchanged
}

test_show__no_state__print_env_exit_3() {
    new_case; v1_mounted; snapshot
    run show_cpu_assignment --print-env; expect_rc 3
    expect_out "PSF_ISOLATION=none"
    run show_cpu_assignment; expect_rc 0
    expect_out "reserved CPU: none"
    grep -qE '^/docker/c1 +2-3 ' "$O/out" || { show_output; fail "no line for docker/c1"; }
    # the same --cpu parsing as init_environment (scripts/lib/isolation.sh)
    run show_cpu_assignment --cpu abc; expect_rc 2; expect_err "--cpu wants a CPU number, not 'abc'"
    run show_cpu_assignment --cpu; expect_rc 2; expect_err "--cpu needs a number"
    expect_unchanged
}

test_run_isolated__joins_cgroup_then_runs_command() {
    new_case; v2_tree
    init; expect_rc 0
    # The command is exec'd, so the pid it prints is the one written.
    run run_isolated -- sh -c 'echo "pid=$$"; exit 7'; expect_rc 7
    local pid
    pid=$(sed -n 's/^pid=//p' "$O/out")
    [[ -n $pid ]] || fail "command did not run"
    expect_file $V2/psf/cgroup.procs "$pid"
    expect_err "running without taskset"
    terminate; expect_rc 0
    grep -qx "$pid" "$R/$V2/cgroup.procs" || fail "terminate should move pid $pid back to the root cgroup"
    [[ ! -e $R/$V2/psf ]] || fail "psf not removed"
}

test_run_isolated__not_set_up__exit_125() {
    new_case; v2_tree
    run run_isolated true; expect_rc 125
    expect_err "no CPU is reserved"
}

test_shellcheck__scripts_are_clean() {
    command -v shellcheck > /dev/null || { echo "  shellcheck not installed"; exit 77; }
    # every script users and the grading server run, with the parts they
    # source (.shellcheckrc at the top says where those are)
    shellcheck -x "$SCRIPTS"/*.sh "$SCRIPTS"/lib/*.sh "$HERE/isolation_test.sh" "$HERE/calibrate_isolated.sh"
}

test_shellcheck__tests_and_bench_are_clean() {
    command -v shellcheck > /dev/null || { echo "  shellcheck not installed"; exit 77; }
    # every shell script of the tests and benchmarks, the parts they
    # source, and CI's entry point: a finding fails here, and one meant is
    # a `# shellcheck disable=SCnnnn` beside it, with its reason
    local files=()
    mapfile -d '' -t files < <(find "$REPO/tests" "$REPO/bench" -name '*.sh' -type f -print0 | sort -z)
    (( ${#files[@]} > 50 )) || { echo "  only ${#files[@]} scripts found under tests/ and bench/"; return 1; }
    shellcheck -x "${files[@]}" "$REPO/.ci/run"
}

# ---------------------------------------------------------------- runner

passed=0 failed=0 skipped=0 skipped_names=""
run_case() {
    local name=$1 rc
    set +e
    ( set -e; "$name" ) > "$TMP/$name.log" 2>&1
    rc=$?
    set -e
    case $rc in
        0) passed=$((passed + 1)); echo "ok   $name" ;;
        77) skipped=$((skipped + 1)); skipped_names="$skipped_names $name"; echo "skip $name"; sed 's/^/    /' "$TMP/$name.log" ;;
        *) failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/    /' "$TMP/$name.log" ;;
    esac
}

for t in $(declare -F | awk '{print $3}' | grep '^test_'); do
    if [[ -n ${1:-} && $t != *"$1"* ]]; then continue; fi
    run_case "$t"
done

if [[ -s $FORBIDDEN_LOG ]]; then
    failed=$((failed + 1))
    echo "FAIL the scripts called commands that act on the real system:"
    sed 's/^/    /' "$FORBIDDEN_LOG"
fi

# A case that could not run (shellcheck missing) makes the whole script a
# skip (77), its reason the last line: tests/run_test.sh fails it under CI
# and says so loudly elsewhere, rather than a pass that checked less.
(( skipped )) && echo "$skipped skipped:$skipped_names"
echo "$passed passed, $failed failed"
(( failed == 0 )) || exit 1
(( skipped == 0 )) || exit 77
