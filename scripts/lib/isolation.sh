# shellcheck shell=bash disable=SC2034
# (SC2034: the constants and globals here are used by the scripts sourcing it.)
#
# Core isolation for PSF: the functions shared by init_environment.sh,
# terminate_environment.sh, show_cpu_assignment.sh and run_isolated.sh.
# docs/isolation.md describes the design; this file is sourced, never run.
#
# Layout of this file:
#   globals and exit codes
#   messages
#   the system root (real system or a fake tree for tests), common options
#   cpu lists ("0-2,5")
#   reading and writing kernel files, with the fake-kernel emulation
#   the state file (a journal of what init changed) and undoing it
#   checks (timing, privileges, CPUs, container) and cpuset detection
#
# Every function that can fail prints what it attempted and returns non-zero;
# only the scripts' main functions turn failures into exit codes.
#
# Paths: variables hold host paths, i.e. with ISO_ROOT in front. The state
# file stores system paths (ISO_ROOT stripped), so it describes the system,
# not where a test happened to put its tree.

# ---------------------------------------------------------------- globals

# Exit codes of init_environment.sh (and, where they apply, of the others).
readonly ISO_EXIT_OK=0
readonly ISO_EXIT_ERROR=1        # a step failed; init undid what it had done
readonly ISO_EXIT_USAGE=2        # bad option; or PSF_TEST_MODE=1 without --root
readonly ISO_EXIT_UNAVAILABLE=3  # no isolation here: measure without it, record that
readonly ISO_EXIT_TIMING=4       # no invariant TSC or no POSIX timers: RDTSC timing unreliable
readonly ISO_EXIT_ACTIVE=5       # init: isolation already set up (state file exists)
readonly ISO_EXIT_RUN_FAILED=125 # run_isolated.sh itself failed (before exec'ing the command)

readonly ISO_STATE_VERSION=1
readonly ISO_CGROUP_NAME=psf           # the measuring cgroup / cpuset
readonly ISO_SYSTEM_NAME=psf_system    # cgroup v1: where everything else goes
readonly ISO_V1_MOUNT=/dev/cpuset      # where the original scripts mounted cpusets

ISO_PROG=${0##*/}
ISO_PROG=${ISO_PROG%.sh}
ISO_ROOT=""          # prefix of every system path; "" is the running system
ISO_FAKE=0           # 1 with a fake root: plain files stand in for the kernel
ISO_DRY_RUN=0        # 1: print actions, change nothing
ISO_VERBOSE=0        # 1: print every action, also in a real run
ISO_STATE_DIR=""     # host path of the state directory (run/psf under the root)
ISO_STATE_FILE=""    # host path of the state file
ISO_JOURNAL=0        # 1 while init records its actions in the state file

# Filled by iso_detect_cpuset.
ISO_MOUNT=""         # system path where the hierarchy is mounted ("" if not yet)
ISO_MOUNT_OPTS=""    # its options in /proc/mounts
ISO_MODE=""          # cgroup2 | cpuset-v1 | cpuset-v1-mount | "" (none)
ISO_HIER=""          # host path of the hierarchy's root cgroup / cpuset
ISO_V1_PREFIX=""     # cgroup v1 file prefix: "cpuset." or "" (noprefix mounts)
ISO_PROCS_NAME=""    # cgroup.procs (v2) or tasks (v1)

# Filled by the checks: one short machine-readable reason per failed check.
ISO_REASONS=()

# ---------------------------------------------------------------- messages

iso_msg()  { printf '%s: %s\n' "$ISO_PROG" "$*" >&2; }
iso_warn() { printf '%s: warning: %s\n' "$ISO_PROG" "$*" >&2; }
iso_err()  { printf '%s: error: %s\n' "$ISO_PROG" "$*" >&2; }

# iso_action TEXT: announce a change. Always shown in a dry run (that is what
# a dry run is for) and with -v; a real run is otherwise quiet about details.
iso_action() {
    if (( ISO_DRY_RUN )); then
        printf '%s: dry-run: %s\n' "$ISO_PROG" "$*" >&2
    elif (( ISO_VERBOSE )); then
        printf '%s: %s\n' "$ISO_PROG" "$*" >&2
    fi
}

# iso_env KEY VALUE: one machine-readable result line on stdout, safe to eval
# in a POSIX shell: plain values as they are, others single-quoted (paths
# with spaces, say).
iso_env() {
    if [[ $2 =~ ^[A-Za-z0-9_./:,+@%=-]*$ ]]; then
        printf '%s=%s\n' "$1" "$2"
    else
        printf "%s='%s'\n" "$1" "${2//\'/\'\\\'\'}"
    fi
}

# ---------------------------------------------------------------- the root

# iso_common_option ARGS...: handle the options every script takes. Returns
# the number of words consumed (0 if the option is not a common one) in
# ISO_SHIFT; returns 1 on a malformed option.
ISO_SHIFT=0
ISO_ROOT_ARG=""
iso_common_option() {
    ISO_SHIFT=0
    case $1 in
        --root)
            if (( $# < 2 )); then iso_err "--root needs a directory"; return 1; fi
            ISO_ROOT_ARG=$2; ISO_SHIFT=2 ;;
        --root=*) ISO_ROOT_ARG=${1#--root=}; ISO_SHIFT=1 ;;
        --dry-run|-n) ISO_DRY_RUN=1; ISO_SHIFT=1 ;;
        --verbose|-v) ISO_VERBOSE=1; ISO_SHIFT=1 ;;
    esac
    return 0
}

# iso_cpu_option ARGS...: --cpu N or --cpu=N, for the scripts that take it.
# Like iso_common_option: the words consumed in ISO_SHIFT (0 for another
# option), the CPU in ISO_CPU; returns 1 with a message when the value is
# missing or not a CPU number.
ISO_CPU=""
iso_cpu_option() {
    ISO_SHIFT=0
    case $1 in
        --cpu)
            if (( $# < 2 )); then iso_err "--cpu needs a number"; return 1; fi
            ISO_CPU=$2; ISO_SHIFT=2 ;;
        --cpu=*) ISO_CPU=${1#--cpu=}; ISO_SHIFT=1 ;;
        *) return 0 ;;
    esac
    if [[ ! $ISO_CPU =~ ^[0-9]+$ ]]; then
        iso_err "--cpu wants a CPU number, not '$ISO_CPU'"
        return 1
    fi
    return 0
}

# iso_setup_root: settle ISO_ROOT from --root, else PSF_SYSROOT, else the real
# system. A root that resolves to / is the real system. With PSF_TEST_MODE=1
# (the test suite sets it) a script refuses to look at the real system at all.
iso_setup_root() {
    local want=${ISO_ROOT_ARG:-${PSF_SYSROOT:-}} resolved
    if [[ -n $want ]]; then
        if ! resolved=$(cd -- "$want" 2>/dev/null && pwd -P); then
            iso_err "root '$want' is not a directory"
            return 1
        fi
        [[ $resolved == / ]] && resolved=""
        ISO_ROOT=$resolved
    fi
    if [[ -n $ISO_ROOT ]]; then ISO_FAKE=1; else ISO_FAKE=0; fi
    if [[ ${PSF_TEST_MODE:-0} == 1 && $ISO_FAKE == 0 ]]; then
        iso_err "PSF_TEST_MODE=1 but no fake root: refusing to touch the real system (pass --root DIR)"
        return 1
    fi
    ISO_STATE_DIR=$ISO_ROOT/run/psf
    ISO_STATE_FILE=$ISO_STATE_DIR/isolation.state
    return 0
}

# iso_sys PATH: the system path of a host path (ISO_ROOT stripped).
iso_sys() { printf '%s' "${1#"$ISO_ROOT"}"; }

# ---------------------------------------------------------------- cpu lists

# iso_cpulist_expand LIST: "0-2,5" -> "0 1 2 5" on stdout. Returns 1 on a
# malformed list. An empty list expands to nothing.
iso_cpulist_expand() {
    local list=${1//[[:space:]]/} part i out=()
    local -a parts
    IFS=, read -r -a parts <<< "$list"
    for part in "${parts[@]}"; do
        if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
            for (( i = 10#${BASH_REMATCH[1]}; i <= 10#${BASH_REMATCH[2]}; i++ )); do
                out+=("$i")
            done
        elif [[ $part =~ ^[0-9]+$ ]]; then
            out+=("$((10#$part))")
        elif [[ -n $part ]]; then
            return 1
        fi
    done
    printf '%s' "${out[*]}"
}

# iso_cpulist_compress CPU...: "0 1 2 5" -> "0-2,5" (sorted, duplicates gone).
iso_cpulist_compress() {
    local -a cpus
    local c start=-1 prev=-1 ranges=""
    mapfile -t cpus < <(printf '%s\n' "$@" | grep -E '^[0-9]+$' | sort -n -u)
    for c in "${cpus[@]}"; do
        if (( start < 0 )); then
            start=$c
        elif (( c != prev + 1 )); then
            ranges+=$(iso_range "$start" "$prev"),
            start=$c
        fi
        prev=$c
    done
    (( start >= 0 )) && ranges+=$(iso_range "$start" "$prev")
    printf '%s' "$ranges"
}
iso_range() { if (( $1 == $2 )); then printf '%s' "$1"; else printf '%s-%s' "$1" "$2"; fi; }

# iso_cpulist_has LIST CPU: true if CPU is in LIST.
iso_cpulist_has() {
    local c
    for c in $(iso_cpulist_expand "$1"); do
        [[ $c == "$2" ]] && return 0
    done
    return 1
}

# iso_cpulist_without LIST CPU: LIST with CPU removed, compressed.
iso_cpulist_without() {
    local c keep=()
    for c in $(iso_cpulist_expand "$1"); do
        [[ $c == "$2" ]] || keep+=("$c")
    done
    iso_cpulist_compress "${keep[@]}"
}

# ---------------------------------------------------------------- kernel files

# iso_read FILE: the file's content without the trailing newline.
iso_read() {
    local v
    if ! v=$(cat -- "$1" 2>/dev/null); then
        iso_err "cannot read $1"
        return 1
    fi
    printf '%s' "$v"
}

# iso_write FILE VALUE: write VALUE and a newline to FILE in one write, as
# echo does; the kernel interprets it. With a fake root, iso_fake_write
# stands in for the kernel. Never called in a dry run (callers check).
iso_write() {
    local file=$1 value=$2 out
    if (( ISO_FAKE )); then
        iso_fake_write "$file" "$value"
        return
    fi
    if ! out=$( { printf '%s\n' "$value" > "$file"; } 2>&1 ); then
        iso_err "cannot write '$value' to $file: ${out##*: }"
        return 1
    fi
}

# iso_fake_write FILE VALUE: what the kernel would do with the write, on plain
# files, so a test can run init and terminate and compare trees byte for byte:
#  - cgroup.subtree_control takes "+ctrl"/"-ctrl" and lists the enabled set;
#  - cgroup.procs/tasks take a pid and move it: it leaves every other such
#    file of the hierarchy and joins this one (v1 lists are sorted, as here);
#  - PSF_FAKE_REJECT="name[=value] ..." makes writes of VALUE (or of anything)
#    to files called NAME fail with EINVAL, as the kernel refuses things
#    (a kernel thread that cannot move, an unknown partition type);
#  - PSF_FAKE_EXIT="pid ..." makes a task exit just before it is moved: it
#    leaves every procs file and the write fails with ESRCH;
#  - PSF_FAKE_FORK="pid:child ..." makes a task fork just before it is moved:
#    the child appears in the task's cgroup (unless it already is in one);
#  - anything else replaces the file's content.
# Only ever writes below ISO_ROOT; moving a pid never touches a real process.
iso_fake_write() {
    local file=$1 value=$2 name=${1##*/} entry cur f
    case $file in
        "$ISO_ROOT"/*) ;;
        *) iso_err "fake root: refusing to write outside $ISO_ROOT: $file"; return 1 ;;
    esac
    for entry in ${PSF_FAKE_REJECT:-}; do
        if [[ $entry == "$name" || $entry == "$name=$value" ]]; then
            iso_err "cannot write '$value' to $file: Invalid argument (fake kernel)"
            return 1
        fi
    done
    if [[ ($name == cgroup.procs || $name == tasks) && -n $ISO_HIER && -d $ISO_HIER ]]; then
        for entry in ${PSF_FAKE_FORK:-}; do
            [[ ${entry%%:*} == "$value" ]] || continue
            f=$(iso_fake_where "$name" "$value") || continue
            iso_fake_where "$name" "${entry#*:}" > /dev/null && continue
            printf '%s\n' "${entry#*:}" >> "$f"
        done
        for entry in ${PSF_FAKE_EXIT:-}; do
            [[ $entry == "$value" ]] || continue
            while f=$(iso_fake_where "$name" "$value"); do
                cur=$(grep -vx -- "$value" "$f") || true
                if [[ -n $cur ]]; then printf '%s\n' "$cur" > "$f"; else : > "$f"; fi
            done
            iso_err "cannot write '$value' to $file: No such process (fake kernel)"
            return 1
        done
    fi
    case $name in
        cgroup.subtree_control)
            cur=$(cat -- "$file" 2>/dev/null) || cur=""
            cur=" $cur "
            case $value in
                +*) [[ $cur == *" ${value#+} "* ]] || cur=" ${value#+}$cur" ;;
                -*) cur=${cur// ${value#-} / } ;;
            esac
            read -r -a f <<< "$cur"
            printf '%s\n' "${f[*]}" > "$file" ;;
        cgroup.procs|tasks)
            if [[ -n $ISO_HIER && -d $ISO_HIER ]]; then
                while IFS= read -r -d '' f; do
                    [[ $f == "$file" ]] && continue
                    if grep -qx -- "$value" "$f"; then
                        cur=$(grep -vx -- "$value" "$f") || true
                        if [[ -n $cur ]]; then printf '%s\n' "$cur" > "$f"; else : > "$f"; fi
                    fi
                done < <(find "$ISO_HIER" -type f -name "$name" -print0)
            fi
            cur=$( { cat -- "$file" 2>/dev/null; printf '%s\n' "$value"; } | grep -E '^[0-9]+$' | sort -n -u)
            printf '%s\n' "$cur" > "$file" ;;
        *)
            printf '%s\n' "$value" > "$file" ;;
    esac
}

# iso_fake_where NAME PID: the procs file (called NAME) of the fake
# hierarchy that lists PID. Returns 1 if none does.
iso_fake_where() {
    local f
    while IFS= read -r -d '' f; do
        if grep -qx -- "$2" "$f"; then printf '%s' "$f"; return 0; fi
    done < <(find "$ISO_HIER" -type f -name "$1" -print0)
    return 1
}

# iso_rmdir_cgroup DIR: remove a cgroup directory. The kernel removes its
# interface files itself, and refuses (EBUSY) while tasks are in it; a fake
# tree holds plain files, removed first once no procs file lists a task.
iso_rmdir_cgroup() {
    local dir=$1 out f
    if (( ISO_FAKE )); then
        for f in "$dir/cgroup.procs" "$dir/tasks"; do
            if [[ -s $f ]]; then
                iso_err "cannot remove cgroup $dir: Device or resource busy (fake kernel: tasks $(iso_pids "$f" | tr '\n' ' '))"
                return 1
            fi
        done
        find "$dir" -maxdepth 1 -type f -delete
    fi
    if ! out=$(rmdir -- "$dir" 2>&1); then
        iso_err "cannot remove cgroup $dir: ${out##*: }"
        return 1
    fi
}

# iso_pids FILE: the pids listed in a cgroup.procs/tasks file, one a line.
iso_pids() { grep -E '^[0-9]+$' -- "$1" 2>/dev/null || true; }

# ---------------------------------------------------------------- state file
#
# The state file is a journal, one line per change, '|' between fields,
# appended *before* each change is made, so that an interrupted init leaves a
# journal that still undoes everything it did. Lines:
#   key|VALUE                  metadata (version, mode, cpu, cgroup, procs, ...)
#   mkdir|DIR                  a directory init created (the v1 mount point)
#   mkcg|DIR|PROCS             a cgroup init created; PROCS names its procs file
#   set|FILE|OLD|NEW           a kernel file changed from OLD to NEW
#   subtree|FILE|CTRL          +CTRL written to a cgroup.subtree_control
#   move|PID|FROM|TO           a task moved from procs file FROM to TO
#   mount|DIR                  the v1 cpuset hierarchy mounted at DIR
# Paths are system paths. terminate undoes the lines in reverse order.

# iso_journal FIELD...: append one line to the state file (not in a dry run).
iso_journal() {
    (( ISO_DRY_RUN || ! ISO_JOURNAL )) && return 0
    local f line
    for f in "$@"; do
        if [[ $f == *'|'* || $f == *$'\n'* ]]; then
            iso_err "cannot record '$f' in the state file (contains '|' or a newline)"
            return 1
        fi
    done
    line=$(IFS='|'; printf '%s' "$*")
    if ! printf '%s\n' "$line" >> "$ISO_STATE_FILE"; then
        iso_err "cannot append to state file $ISO_STATE_FILE"
        return 1
    fi
}

# iso_state_begin: create the state directory and an empty journal.
iso_state_begin() {
    (( ISO_DRY_RUN || ISO_JOURNAL )) && return 0
    if ! mkdir -p -- "$ISO_STATE_DIR" || ! : > "$ISO_STATE_FILE"; then
        iso_err "cannot create state file $ISO_STATE_FILE"
        return 1
    fi
    ISO_JOURNAL=1
    iso_journal version "$ISO_STATE_VERSION"
}

# iso_state_end: remove the state file, and its directory if now empty.
iso_state_end() {
    rm -f -- "$ISO_STATE_FILE"
    rmdir -- "$ISO_STATE_DIR" 2>/dev/null || true
}

# iso_state_get KEY: the value of a metadata line in the state file.
iso_state_get() {
    local k v
    while IFS='|' read -r k v; do
        if [[ $k == "$1" ]]; then printf '%s' "$v"; return 0; fi
    done < "$ISO_STATE_FILE"
    return 1
}

# iso_print_state_env: the result lines of the isolation the state file records.
iso_print_state_env() {
    local mode cpu cgroup procs
    mode=$(iso_state_get mode) || mode=""
    cpu=$(iso_state_get cpu) || cpu=""
    cgroup=$(iso_state_get cgroup) || cgroup=""
    procs=$(iso_state_get procs) || procs=""
    if [[ -z $mode || -z $cpu || -z $cgroup || -z $procs ]]; then
        iso_err "state file $ISO_STATE_FILE is incomplete (init was interrupted?); run terminate_environment.sh"
        return 1
    fi
    [[ $mode == cpuset-v1-mount ]] && mode=cpuset-v1
    iso_env PSF_ISOLATION "$mode"
    iso_env PSF_CPU "$cpu"
    iso_env PSF_CGROUP "$ISO_ROOT$cgroup"
    iso_env PSF_CGROUP_PROCS "$ISO_ROOT$cgroup/$procs"
    iso_env PSF_PARTITION "$(iso_state_get partition || echo none)"
    iso_env PSF_GOVERNOR "$(iso_state_get governor || echo none)"
}

# ---- actions: each announces itself, journals, then acts (unless dry run)

# iso_do_mkdir DIR: create a plain directory (the v1 mount point).
iso_do_mkdir() {
    iso_action "mkdir $1"
    iso_journal mkdir "$(iso_sys "$1")" || return 1
    (( ISO_DRY_RUN )) && return 0
    mkdir -- "$1" || { iso_err "cannot create directory $1"; return 1; }
}

# iso_do_mkcg DIR: create a cgroup.
iso_do_mkcg() {
    iso_action "mkdir $1"
    iso_journal mkcg "$(iso_sys "$1")" "$ISO_PROCS_NAME" || return 1
    (( ISO_DRY_RUN )) && return 0
    mkdir -- "$1" || { iso_err "cannot create cgroup $1"; return 1; }
}

# iso_do_set FILE VALUE: change an existing kernel file, remembering the old
# value for terminate. Does nothing if FILE already holds VALUE.
iso_do_set() {
    local file=$1 value=$2 old
    old=$(iso_read "$file") || return 1
    [[ $old == "$value" ]] && return 0
    iso_action "write '$value' > $file (was '$old')"
    iso_journal set "$(iso_sys "$file")" "$old" "$value" || return 1
    (( ISO_DRY_RUN )) && return 0
    iso_write "$file" "$value"
}

# iso_do_write FILE VALUE: write a file of a cgroup init created itself; no
# undo needed, removing the cgroup removes it.
iso_do_write() {
    iso_action "write '$2' > $1"
    (( ISO_DRY_RUN )) && return 0
    iso_write "$1" "$2"
}

# iso_do_enable_controller FILE CTRL: "+CTRL" into a cgroup.subtree_control,
# unless CTRL is already enabled there.
iso_do_enable_controller() {
    local file=$1 ctrl=$2 cur
    cur=$(iso_read "$file") || return 1
    [[ " $cur " == *" $ctrl "* ]] && return 0
    iso_action "write '+$ctrl' > $file (was '$cur')"
    iso_journal subtree "$(iso_sys "$file")" "$ctrl" || return 1
    (( ISO_DRY_RUN )) && return 0
    iso_write "$file" "+$ctrl"
}

# iso_do_move PID FROM TO: move a task between cgroups (procs files FROM and
# TO). Fails for tasks the kernel will not move (per-CPU kernel threads).
iso_do_move() {
    local pid=$1 from=$2 to=$3
    iso_action "move task $pid: $from -> $to"
    iso_journal move "$pid" "$(iso_sys "$from")" "$(iso_sys "$to")" || return 1
    (( ISO_DRY_RUN )) && return 0
    iso_write "$to" "$pid" 2>/dev/null
}

# iso_do_mount DIR: mount the cgroup v1 cpuset hierarchy at DIR.
iso_do_mount() {
    iso_action "mount -t cgroup -o cpuset cpuset $1"
    iso_journal mount "$(iso_sys "$1")" || return 1
    (( ISO_DRY_RUN )) && return 0
    if (( ISO_FAKE )); then
        iso_msg "fake root: not mounting; $1 stands for the mounted hierarchy"
        return 0
    fi
    mount -t cgroup -o cpuset cpuset "$1" || { iso_err "cannot mount the cpuset hierarchy at $1"; return 1; }
}

# ---- undo

# iso_move_task PID FROM TO: move a task from procs file FROM to TO. A task
# that is no longer in FROM when the write fails has exited (ESRCH) or been
# moved by someone else meanwhile: nothing is left to move, so that is no
# failure. Returns 1 only if the task is still in FROM.
iso_move_task() {
    local pid=$1 from=$2 to=$3
    iso_write "$to" "$pid" 2>/dev/null && return 0
    iso_pids "$from" | grep -qx -- "$pid" || return 0
    return 1
}

# How often terminate goes over a cgroup again for tasks that appeared (were
# forked there) while it emptied it, and how long it waits between rounds.
ISO_EVACUATE_ROUNDS=20
ISO_EVACUATE_PAUSE=0.05

# iso_evacuate DIR PROCS: move every task in cgroup DIR to its parent, so the
# cgroup can be removed (children forked after init, the measuring process).
# Tasks keep being forked there until the last one has left, so it goes
# over the cgroup again until it is empty, ISO_EVACUATE_ROUNDS times at most.
# Returns 1 if tasks are left (they are named).
iso_evacuate() {
    local dir=$1 procs=$2 parent pid round left
    parent=$(dirname -- "$dir")
    for (( round = 1; round <= ISO_EVACUATE_ROUNDS; round++ )); do
        left=$(iso_pids "$dir/$procs")
        [[ -z $left ]] && return 0
        (( round > 1 )) && iso_action "round $round: tasks appeared in $dir/$procs since the last round"
        for pid in $left; do
            iso_action "move task $pid: $dir/$procs -> $parent/$procs"
            (( ISO_DRY_RUN )) && continue
            iso_move_task "$pid" "$dir/$procs" "$parent/$procs"
        done
        (( ISO_DRY_RUN )) && return 0
        (( ISO_FAKE )) || sleep "$ISO_EVACUATE_PAUSE"
    done
    left=$(iso_pids "$dir/$procs")
    [[ -z $left ]] && return 0
    for pid in $left; do
        iso_err "task $pid ($(cat -- "$ISO_ROOT/proc/$pid/comm" 2>/dev/null || echo "?")) stays in $dir: it cannot be moved to $parent"
    done
    return 1
}

# iso_remove_cgroup DIR PROCS: empty cgroup DIR into its parent and remove it.
# Removal fails (EBUSY) if a task was forked there after the last move, so
# it empties the cgroup again and retries, a few times.
iso_remove_cgroup() {
    local dir=$1 procs=$2 try err=""
    for (( try = 1; try <= 5; try++ )); do
        if ! iso_evacuate "$dir" "$procs"; then
            iso_err "tasks left in $dir that cannot be moved out; it stays"
            return 1
        fi
        iso_action "rmdir $dir"
        (( ISO_DRY_RUN )) && return 0
        err=$(iso_rmdir_cgroup "$dir" 2>&1) && return 0
        [[ -d $dir ]] || return 0
    done
    printf '%s\n' "$err" >&2
    return 1
}

# iso_is_mounted DIR: true if DIR is a mount point according to /proc/mounts.
iso_is_mounted() {
    local mnt
    while read -r _ mnt _; do
        [[ ${mnt//\\040/ } == "$(iso_sys "$1")" ]] && return 0
    done < "$ISO_ROOT/proc/mounts"
    return 1
}

# iso_undo_line LINE: undo one journal line. Every undo checks first whether
# there is anything left to undo, so undoing twice is harmless.
iso_undo_line() {
    local kind a b c d cur
    IFS='|' read -r kind a b c d <<< "$1"
    case $kind in
        mkcg)
            a=$ISO_ROOT$a
            [[ -d $a ]] || return 0
            iso_remove_cgroup "$a" "$b" ;;
        mkdir)
            a=$ISO_ROOT$a
            [[ -d $a ]] || return 0
            iso_action "rmdir $a"
            (( ISO_DRY_RUN )) || rmdir -- "$a" || { iso_err "cannot remove $a"; return 1; } ;;
        set)
            a=$ISO_ROOT$a
            [[ -e $a ]] || { iso_warn "$a is gone; nothing to restore there"; return 0; }
            cur=$(iso_read "$a") || return 1
            [[ $cur == "$b" ]] && return 0
            [[ $cur == "$c" ]] || iso_warn "$a changed since init (now '$cur'); restoring '$b' anyway"
            iso_action "write '$b' > $a"
            (( ISO_DRY_RUN )) || iso_write "$a" "$b" ;;
        subtree)
            a=$ISO_ROOT$a
            [[ -e $a ]] || return 0
            cur=$(iso_read "$a") || return 1
            [[ " $cur " == *" $b "* ]] || return 0
            iso_action "write '-$b' > $a"
            (( ISO_DRY_RUN )) || iso_write "$a" "-$b" ;;
        move)
            b=$ISO_ROOT$b c=$ISO_ROOT$c
            # Only tasks still where init put them go back; a task that has
            # exited, or been moved by someone else since, is left alone.
            iso_pids "$c" | grep -qx -- "$a" || return 0
            iso_action "move task $a: $c -> $b"
            (( ISO_DRY_RUN )) && return 0
            iso_move_task "$a" "$c" "$b" && return 0
            iso_err "cannot move task $a back from $c to $b"
            return 1 ;;
        mount)
            a=$ISO_ROOT$a
            if (( ISO_FAKE )); then
                iso_action "umount $a"
                iso_msg "fake root: not unmounting $a"
                return 0
            fi
            iso_is_mounted "$a" || return 0
            iso_action "umount $a"
            (( ISO_DRY_RUN )) || umount -- "$a" || { iso_err "cannot unmount $a"; return 1; } ;;
        *)  return 0 ;;   # metadata
    esac
}

# iso_undo_journal: undo the state file's lines, last first. Carries on past
# failures so as much as possible is restored; returns how many failed.
iso_undo_journal() {
    local -a lines
    local i failed=0 mode
    mapfile -t lines < "$ISO_STATE_FILE"
    # Fake moves need the hierarchy root to find where a pid is.
    mode=$(iso_state_get hierarchy) && ISO_HIER=$ISO_ROOT$mode
    for (( i = ${#lines[@]} - 1; i >= 0; i-- )); do
        iso_undo_line "${lines[i]}" || (( failed++ ))
    done
    return $(( failed > 0 ))
}

# ---------------------------------------------------------------- checks

# iso_fail REASON MESSAGE: record a failed check.
iso_fail() {
    [[ " ${ISO_REASONS[*]} " == *" $1 "* ]] || ISO_REASONS+=("$1")
    iso_err "$2"
}

# iso_check_timing: the calibrator times kernels with RDTSC and converts ticks
# with a POSIX clock. Needs an invariant TSC (constant rate, and not stopped
# in idle states) on every CPU, and POSIX timers with a monotonic clock.
# Returns 1 if a check failed.
iso_check_timing() {
    local cpuinfo=$ISO_ROOT/proc/cpuinfo flag nflags nwith v ok=0
    if [[ ! -r $cpuinfo ]]; then
        iso_fail no-cpuinfo "cannot read $cpuinfo to check for an invariant TSC"
        ok=1
    else
        nflags=$(grep -c '^flags[[:space:]]*:' "$cpuinfo") || true
        if (( nflags == 0 )); then
            iso_fail no-invariant-tsc "$cpuinfo has no 'flags' lines: not an x86 CPU? RDTSC timing needs an x86 CPU with an invariant TSC"
            ok=1
        fi
        for flag in constant_tsc nonstop_tsc; do
            (( nflags == 0 )) && break
            nwith=$(grep '^flags[[:space:]]*:' "$cpuinfo" | grep -c -w -- "$flag") || true
            if (( nwith < nflags )); then
                iso_fail no-invariant-tsc "no invariant TSC: CPU flag '$flag' missing in $cpuinfo ($nwith of $nflags CPUs have it); RDTSC counts would not be a steady clock"
                ok=1
            fi
        done
    fi
    # getconf answers for the C library that the calibrator runs on. A value
    # > 0 means clock_gettime() and friends are there (_POSIX_TIMERS) and
    # CLOCK_MONOTONIC is (_POSIX_MONOTONIC_CLOCK).
    for flag in _POSIX_TIMERS _POSIX_MONOTONIC_CLOCK; do
        v=$(getconf "$flag" 2>/dev/null) || v=""
        if ! [[ $v =~ ^[0-9]+$ ]] || (( v <= 0 )); then
            iso_fail no-posix-timers "no POSIX timers: 'getconf $flag' says '${v:-nothing}'; clock_gettime/CLOCK_MONOTONIC are needed to calibrate the TSC"
            ok=1
        fi
    done
    return "$ok"
}

# iso_online_cpus: the online CPUs as a list ("0-3").
iso_online_cpus() {
    local sys=$ISO_ROOT/sys/devices/system/cpu d cpus=()
    if [[ -r $sys/online ]]; then
        iso_read "$sys/online"
        return
    fi
    for d in "$sys"/cpu[0-9]*; do
        [[ -d $d ]] && cpus+=("${d##*/cpu}")
    done
    iso_cpulist_compress "${cpus[@]}"
}

# iso_container_evidence: prints the files that say "container", if any.
# They only name how the system was packaged; whether a CPU can be isolated
# is decided by iso_check_kernel_view. Used alone only where the namespaces
# cannot be read.
iso_container_evidence() {
    if [[ -e $ISO_ROOT/.dockerenv ]]; then echo "/.dockerenv exists"; return 0; fi
    if [[ -e $ISO_ROOT/run/.containerenv ]]; then echo "/run/.containerenv exists"; return 0; fi
    if [[ -r $ISO_ROOT/proc/1/environ ]] && tr '\0' '\n' < "$ISO_ROOT/proc/1/environ" 2>/dev/null | grep -q '^container='; then
        echo "pid 1 has 'container=' in its environment"; return 0
    fi
    # systemd-detect-virt looks at the real system: never with a fake root.
    if (( ! ISO_FAKE )) && command -v systemd-detect-virt > /dev/null; then
        local what
        if what=$(systemd-detect-virt --container 2>/dev/null); then
            echo "systemd-detect-virt --container says '$what'"; return 0
        fi
    fi
    return 1
}

# The kernel's initial namespaces have fixed inode numbers, the same on
# every Linux kernel that has them (PROC_PID_INIT_INO and
# PROC_CGROUP_INIT_INO in the kernel's include/linux/proc_ns.h).
readonly ISO_INIT_PID_NS=4026531836
readonly ISO_INIT_CGROUP_NS=4026531835

# iso_ns_inode PID KIND: the inode number of /proc/PID/ns/KIND, whose link
# reads "KIND:[N]". Returns 1 if the link cannot be read.
iso_ns_inode() {
    local link
    link=$(readlink -- "$ISO_ROOT/proc/$1/ns/$2" 2>/dev/null) || return 1
    [[ $link =~ ^$2:\[([0-9]+)\]$ ]] || return 1
    printf '%s' "${BASH_REMATCH[1]}"
}

# iso_kthreadd_is_pid2: true if pid 2 is kthreadd with no parent, which it
# is only in the kernel's initial pid namespace (there pid 1 is the kernel's
# own init); in any other pid namespace only pid 1 has no parent.
iso_kthreadd_is_pid2() {
    local status=$ISO_ROOT/proc/2/status
    [[ -r $status ]] || return 1
    grep -qx $'Name:[[:space:]]*kthreadd' "$status" && grep -qx $'PPid:[[:space:]]*0' "$status"
}

# iso_check_kernel_view: does this process see the kernel's whole cpuset
# hierarchy and every task in it? That is what moving every task off a CPU
# needs, on a host and in a VM alike. It is so when this process is in the
# kernel's initial pid namespace (every task is visible; pid 1 is the
# kernel's init) and initial cgroup namespace (its cgroup root is the
# hierarchy's root), and the hierarchy iso_detect_cpuset found is mounted
# from its root and writable. A container has a pid namespace of its own,
# mostly a cgroup namespace too, or a read-only or partial cgroup mount.
# Returns 0 if every check passed, 1 if one failed (reasons recorded), 2 if
# the namespaces cannot be read (the caller falls back to container files).
iso_check_kernel_view() {
    local ok=0 pid cg cg1 root opts mnt
    if pid=$(iso_ns_inode self pid); then
        if [[ $pid != "$ISO_INIT_PID_NS" ]]; then
            iso_fail pid-namespace "this process is in pid namespace pid:[$pid], not the kernel's initial one (pid:[$ISO_INIT_PID_NS]): the kernel's other tasks are invisible here and cannot be moved off a CPU (a container)"
            ok=1
        fi
    elif ! iso_kthreadd_is_pid2; then
        return 2
    fi
    # No cgroup namespace link: a kernel without cgroup namespaces (before
    # 4.6), where every process sees the hierarchy from its root.
    if cg=$(iso_ns_inode self cgroup) && [[ $cg != "$ISO_INIT_CGROUP_NS" ]]; then
        local also=""
        cg1=$(iso_ns_inode 1 cgroup) && [[ $cg1 != "$cg" ]] && also=" (pid 1 is in cgroup:[$cg1])"
        iso_fail cgroup-namespace "this process is in cgroup namespace cgroup:[$cg]$also, not the kernel's initial one (cgroup:[$ISO_INIT_CGROUP_NS]): its cgroup root is a subtree, and the tasks outside it cannot be moved off a CPU (a container)"
        ok=1
    fi
    if [[ -n $ISO_MOUNT ]]; then
        if iso_mount_root_opts "$ISO_MOUNT"; then
            root=$ISO_MOUNT_ROOT opts=$ISO_MOUNT_OPTS
        else
            root=/ opts=$ISO_MOUNT_OPTS
        fi
        mnt=$ISO_MOUNT
        if [[ $root != / ]]; then
            iso_fail cgroup-subtree "the cpuset hierarchy at $mnt is mounted from its cgroup $root, not from its root: the tasks outside $root cannot be moved off a CPU (a container)"
            ok=1
        fi
        if [[ ,$opts, == *,ro,* ]]; then
            iso_fail cgroup-read-only "the cpuset hierarchy at $mnt is mounted read-only (a container)"
            ok=1
        fi
    fi
    return "$ok"
}

# iso_mount_root_opts MOUNTPOINT: from /proc/self/mountinfo, the root of the
# filesystem mounted there (ISO_MOUNT_ROOT) and the mount's options
# (ISO_MOUNT_OPTS; the last mount at that point, the one on top). Returns 1
# if mountinfo cannot be read or has no such mount.
ISO_MOUNT_ROOT=""
iso_mount_root_opts() {
    local info=$ISO_ROOT/proc/self/mountinfo root mnt opts found=1
    [[ -r $info ]] || return 1
    while read -r _ _ _ root mnt opts _; do
        mnt=${mnt//\\040/ }
        if [[ $mnt == "$1" ]]; then
            ISO_MOUNT_ROOT=${root//\\040/ } ISO_MOUNT_OPTS=$opts found=0
        fi
    done < "$info"
    return "$found"
}

# iso_check_isolation ALLOW_CONTAINER: can this system isolate a CPU at all?
# Returns 1 if not; the reasons are in ISO_REASONS.
iso_check_isolation() {
    local allow_container=$1 ok=0 uid online n why view=0
    uid=$(id -u)
    if [[ $uid != 0 ]]; then
        iso_fail not-root "not root (uid $uid): moving processes between cpusets and setting CPU governors needs root"
        ok=1
    fi
    online=$(iso_online_cpus) || online=""
    n=$(iso_cpulist_expand "$online" | wc -w)
    if (( n < 2 )); then
        iso_fail single-cpu "only $n CPU online ('$online'): a reserved CPU needs at least one other CPU for everything else"
        ok=1
    fi
    if ! iso_detect_cpuset; then
        iso_fail no-cpuset "no cpuset controller: not in a cgroup v2 hierarchy, no cgroup v1 cpuset hierarchy mounted, and $ISO_ROOT/proc/cgroups lists no enabled cpuset controller to mount"
        ok=1
    fi
    iso_check_kernel_view || view=$?
    why=$(iso_container_evidence) || why=""
    case $view in
        0)  [[ -n $why ]] && iso_msg "$why, but this process is in the kernel's initial pid and cgroup namespaces and its cpuset hierarchy is whole and writable (a VM or host with its own kernel): isolating" ;;
        1)  (( allow_container )) && iso_warn "--allow-container cannot help: the checks above show what this process cannot reach"
            ok=1 ;;
        2)  if [[ -n $why ]]; then
                if (( allow_container )); then
                    iso_warn "in a container ($why) and its namespaces cannot be read; going on as --allow-container asks"
                else
                    iso_fail container "running in a container ($why) and $ISO_ROOT/proc/self/ns cannot be read to tell whether it shares the kernel's initial pid and cgroup namespaces (--allow-container if it does)"
                    ok=1
                fi
            fi ;;
    esac
    return "$ok"
}

# iso_detect_cpuset: find the cpuset hierarchy. Prefers cgroup v2 when its
# root offers the cpuset controller; else a mounted v1 cpuset hierarchy; else,
# if the kernel has an unused cpuset controller, a v1 mount at /dev/cpuset
# (as the original scripts did). Sets ISO_MODE, ISO_HIER, ISO_V1_PREFIX,
# ISO_PROCS_NAME. Returns 1 if there is no cpuset controller to use.
iso_detect_cpuset() {
    local mounts=$ISO_ROOT/proc/mounts mnt fstype opts v2="" v2opts="" v1="" v1opts=""
    local name enabled
    ISO_MODE="" ISO_HIER="" ISO_V1_PREFIX="cpuset." ISO_PROCS_NAME="" ISO_MOUNT="" ISO_MOUNT_OPTS=""
    if [[ -r $mounts ]]; then
        while read -r _ mnt fstype opts _; do
            mnt=${mnt//\\040/ }
            case $fstype in
                cgroup2) [[ -z $v2 ]] && v2=$mnt v2opts=$opts ;;
                cgroup|cpuset)
                    if [[ -z $v1 && ( $fstype == cpuset || ,$opts, == *,cpuset,* ) ]]; then
                        v1=$mnt v1opts=$opts
                        [[ $fstype == cpuset ]] && v1opts+=,noprefix
                    fi ;;
            esac
        done < "$mounts"
    fi
    if [[ -n $v2 && -r $ISO_ROOT$v2/cgroup.controllers ]] &&
       [[ " $(cat -- "$ISO_ROOT$v2/cgroup.controllers") " == *" cpuset "* ]]; then
        ISO_MODE=cgroup2 ISO_HIER=$ISO_ROOT$v2 ISO_PROCS_NAME=cgroup.procs
        ISO_MOUNT=$v2 ISO_MOUNT_OPTS=$v2opts
        return 0
    fi
    if [[ -n $v1 ]]; then
        ISO_MODE=cpuset-v1 ISO_HIER=$ISO_ROOT$v1 ISO_PROCS_NAME=tasks
        ISO_MOUNT=$v1 ISO_MOUNT_OPTS=$v1opts
        [[ ,$v1opts, == *,noprefix,* ]] && ISO_V1_PREFIX=""
        return 0
    fi
    if [[ -r $ISO_ROOT/proc/cgroups ]]; then
        while read -r name _ _ enabled; do
            if [[ $name == cpuset && $enabled == 1 ]]; then
                ISO_MODE=cpuset-v1-mount ISO_HIER=$ISO_ROOT$ISO_V1_MOUNT ISO_PROCS_NAME=tasks
                return 0
            fi
        done < "$ISO_ROOT/proc/cgroups"
    fi
    return 1
}

# iso_root_cpus: the CPUs the hierarchy's root cgroup/cpuset has.
iso_root_cpus() {
    if [[ $ISO_MODE == cgroup2 ]]; then
        iso_read "$ISO_HIER/cpuset.cpus.effective"
    else
        iso_read "$ISO_HIER/${ISO_V1_PREFIX}cpus"
    fi
}

# iso_cgroup_dirs DIR: every cgroup below DIR, deepest first, NUL-terminated.
iso_cgroup_dirs() { find "$1" -xdev -mindepth 1 -depth -type d -print0; }
