#!/usr/bin/env bash
#
# init_environment.sh: reserve one CPU for PSF's calibrator. Moves everything
# else off that CPU with cpusets (cgroup v2, or cgroup v1 as the original 2013
# scripts did), puts the performance governor on it, and records every change
# in a state file so terminate_environment.sh can undo exactly those.
#
# Prints KEY=VALUE lines on stdout (PSF_CPU, PSF_CGROUP, ...); everything for
# people goes to stderr. Exit codes and the whole design: docs/isolation.md.

set -u -o pipefail
# shellcheck source-path=SCRIPTDIR source=lib/isolation.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib/isolation.sh"

usage() {
    cat <<EOF
usage: $ISO_PROG [--cpu N] [--dry-run] [--allow-container] [--root DIR] [-v]

Reserve CPU N (default: the highest-numbered online CPU) for measuring.
  --cpu N            the CPU to reserve
  --dry-run, -n      print every action, change nothing
  --allow-container  go on where container files (/.dockerenv, ...) exist
                     and /proc/self/ns cannot be read to check that this
                     process shares the kernel's initial pid and cgroup
                     namespaces (where it can, the namespaces decide)
  --root DIR         act on the tree under DIR instead of / (tests; also
                     PSF_SYSROOT=DIR)
  --verbose, -v      print every action also in a real run
Exit: 0 isolated, 1 failed (undone), 2 usage, 3 no isolation possible here,
      4 no invariant TSC / POSIX timers, 5 already isolated.
EOF
}

# setup_v2 CPU ALL: cgroup v2. Enables cpuset below the root, takes CPU out
# of every cgroup that names it, creates the measuring cgroup and makes it a
# partition ("isolated", else "root"), so the kernel keeps every other cgroup
# and the root's own processes off the CPU. Without partitions, restricts the
# top-level cgroups instead (the root cgroup's processes then stay unconfined).
setup_v2() {
    local cpu=$1 all=$2 rest cg dir cur type got partition=none n
    rest=$(iso_cpulist_without "$all" "$cpu")
    cg=$ISO_HIER/$ISO_CGROUP_NAME

    iso_do_enable_controller "$ISO_HIER/cgroup.subtree_control" cpuset || return 1
    restrict_others "$cpu" || return 1

    iso_do_mkcg "$cg" || return 1
    iso_do_write "$cg/cpuset.cpus" "$cpu" || return 1

    for type in isolated root; do
        iso_action "write '$type' > $cg/cpuset.cpus.partition (read back; falls back to the next type if refused)"
        if (( ISO_DRY_RUN )); then partition="$type (if the kernel accepts it)"; break; fi
        if ! iso_write "$cg/cpuset.cpus.partition" "$type" 2>/dev/null; then
            iso_warn "the kernel refuses partition type '$type'"
            continue
        fi
        got=$(iso_read "$cg/cpuset.cpus.partition") || return 1
        if [[ $got == "$type" ]]; then partition=$type; break; fi
        iso_warn "partition type '$type' not valid here: the kernel says '$got'"
    done
    if [[ $partition == none ]]; then
        iso_warn "no cpuset partition possible; restricting the top-level cgroups to CPUs $rest instead"
        [[ -e $cg/cpuset.cpus.partition ]] && { iso_write "$cg/cpuset.cpus.partition" member 2>/dev/null || true; }
        for dir in "$ISO_HIER"/*/; do
            dir=${dir%/}
            [[ $dir == "$cg" || ! -f $dir/cpuset.cpus ]] && continue
            cur=$(iso_read "$dir/cpuset.cpus") || return 1
            [[ -z $cur ]] && { iso_do_set "$dir/cpuset.cpus" "$rest" || return 1; }
        done
        n=$(iso_pids "$ISO_HIER/cgroup.procs" | wc -l)
        (( n > 0 )) && iso_warn "$n processes in the root cgroup can still run on CPU $cpu"
    fi
    iso_journal partition "${partition%% *}" || return 1
    PARTITION=$partition
}

# setup_v1 CPU ALL: cgroup v1 cpusets. The root cpuset always has every CPU,
# so everything in it moves to a new cpuset psf_system with the other CPUs;
# the measuring cpuset psf gets CPU alone, exclusively.
setup_v1() {
    local cpu=$1 all=$2 rest mems cg sys p=$ISO_V1_PREFIX pid moved=0 stuck=0
    rest=$(iso_cpulist_without "$all" "$cpu")
    cg=$ISO_HIER/$ISO_CGROUP_NAME
    sys=$ISO_HIER/$ISO_SYSTEM_NAME
    mems=$(iso_read "$ISO_HIER/${p}mems") || return 1

    restrict_others "$cpu" || return 1

    iso_do_mkcg "$sys" || return 1
    iso_do_write "$sys/${p}cpus" "$rest" || return 1
    iso_do_write "$sys/${p}mems" "$mems" || return 1
    iso_do_mkcg "$cg" || return 1
    iso_do_write "$cg/${p}cpus" "$cpu" || return 1
    iso_do_write "$cg/${p}mems" "$mems" || return 1
    iso_do_write "$cg/${p}cpu_exclusive" 1 || return 1

    for pid in $(iso_pids "$ISO_HIER/tasks"); do
        if iso_do_move "$pid" "$ISO_HIER/tasks" "$sys/tasks"; then
            (( moved++ ))
        else
            (( stuck++ ))
        fi
    done
    (( ISO_DRY_RUN )) && return 0
    iso_msg "moved $moved tasks to $sys; $stuck stayed in the root cpuset (per-CPU kernel threads cannot move)"
}

# restrict_others CPU: take CPU out of every existing cgroup/cpuset that
# lists it in its cpus, deepest first (cgroup v1 requires a child's CPUs to
# stay within its parent's). Fails if a cgroup has CPU alone.
restrict_others() {
    local cpu=$1 dir f cur new
    while IFS= read -r -d '' dir; do
        f=$dir/${ISO_V1_PREFIX}cpus
        [[ -f $f ]] || continue
        cur=$(iso_read "$f") || return 1
        iso_cpulist_has "$cur" "$cpu" || continue
        new=$(iso_cpulist_without "$cur" "$cpu")
        if [[ -z $new ]]; then
            iso_err "cgroup $dir runs on CPU $cpu alone; reserve another CPU with --cpu"
            return 1
        fi
        iso_do_set "$f" "$new" || return 1
    done < <(iso_cgroup_dirs "$ISO_HIER")
}

# set_governor CPU: the performance governor on CPU, where cpufreq exists.
set_governor() {
    local cpu=$1 dir=$ISO_ROOT/sys/devices/system/cpu/cpu$1/cpufreq affected
    GOVERNOR=none
    if [[ ! -f $dir/scaling_governor ]]; then
        iso_msg "no cpufreq for CPU $cpu: frequency governor left alone"
        return 0
    fi
    if [[ -r $dir/scaling_available_governors ]] &&
       [[ " $(cat -- "$dir/scaling_available_governors") " != *" performance "* ]]; then
        iso_warn "CPU $cpu has no 'performance' governor; governor left alone"
        return 0
    fi
    if [[ -r $dir/affected_cpus ]]; then
        affected=$(iso_read "$dir/affected_cpus") || affected=""
        [[ -n $affected && $affected != "$cpu" ]] &&
            iso_warn "CPU $cpu shares its frequency policy with CPUs '$affected': they get the performance governor too"
    fi
    iso_do_set "$dir/scaling_governor" performance || return 1
    GOVERNOR=performance
    iso_journal governor performance
}

# warn_smt CPU: a hyperthread sibling shares the core's execution units.
warn_smt() {
    local f=$ISO_ROOT/sys/devices/system/cpu/cpu$1/topology/thread_siblings_list sib
    [[ -r $f ]] || return 0
    sib=$(iso_cpulist_without "$(iso_read "$f")" "$1")
    [[ -n $sib ]] && iso_warn "CPU $1 shares its core with CPU $sib (SMT): work there can disturb measurements; consider disabling SMT"
    return 0
}

# setup CPU ALL: everything init changes, journaled. Returns 1 on failure.
setup() {
    local cpu=$1 all=$2 name
    for name in "$ISO_CGROUP_NAME" "$ISO_SYSTEM_NAME"; do
        [[ $name == "$ISO_SYSTEM_NAME" && $ISO_MODE == cgroup2 ]] && continue
        if [[ -e $ISO_HIER/$name ]]; then
            iso_err "$ISO_HIER/$name already exists but there is no state file: left over from an earlier run? Remove it (rmdir) first"
            return 1
        fi
    done
    iso_state_begin || return 1
    iso_journal mode "$ISO_MODE" || return 1
    iso_journal hierarchy "$(iso_sys "$ISO_HIER")" || return 1
    iso_journal cpu "$cpu" || return 1
    iso_journal cgroup "$(iso_sys "$ISO_HIER/$ISO_CGROUP_NAME")" || return 1
    iso_journal procs "$ISO_PROCS_NAME" || return 1
    case $ISO_MODE in
        cgroup2) setup_v2 "$cpu" "$all" ;;
        cpuset-v1*) setup_v1 "$cpu" "$all" ;;
    esac || return 1
    set_governor "$cpu"
}

# mount_v1: mount the cpuset hierarchy at /dev/cpuset (journaled).
mount_v1() {
    if [[ ! -d $ISO_HIER ]]; then
        iso_do_mkdir "$ISO_HIER" || return 1
    fi
    iso_do_mount "$ISO_HIER"
}

print_unavailable() {
    iso_env PSF_ISOLATION none
    iso_env PSF_ISOLATION_REASON "$(IFS=,; printf '%s' "${ISO_REASONS[*]}")"
}

main() {
    local cpu="" allow_container=0 all status
    while (( $# )); do
        iso_common_option "$@" || { usage >&2; return "$ISO_EXIT_USAGE"; }
        if (( ISO_SHIFT )); then shift "$ISO_SHIFT"; continue; fi
        iso_cpu_option "$@" || return "$ISO_EXIT_USAGE"
        if (( ISO_SHIFT )); then cpu=$ISO_CPU; shift "$ISO_SHIFT"; continue; fi
        case $1 in
            --allow-container) allow_container=1 ;;
            -h|--help) usage; return "$ISO_EXIT_OK" ;;
            *) iso_err "unknown option '$1'"; usage >&2; return "$ISO_EXIT_USAGE" ;;
        esac
        shift
    done
    iso_setup_root || return "$ISO_EXIT_USAGE"
    (( ISO_FAKE )) && iso_msg "using the fake root $ISO_ROOT"

    if [[ -e $ISO_STATE_FILE ]]; then
        iso_err "isolation is already set up ($ISO_STATE_FILE exists); run terminate_environment.sh first to redo it"
        iso_print_state_env
        return "$ISO_EXIT_ACTIVE"
    fi

    # Every check runs, so one run reports every problem.
    status=$ISO_EXIT_OK
    iso_check_timing || status=$ISO_EXIT_TIMING
    if ! iso_check_isolation "$allow_container" && (( status == ISO_EXIT_OK )); then
        status=$ISO_EXIT_UNAVAILABLE
    fi
    if (( status != ISO_EXIT_OK )); then
        if (( status == ISO_EXIT_TIMING )); then
            iso_msg "this machine cannot time kernels reliably with RDTSC; nothing changed"
        else
            iso_msg "CPU isolation is not possible here; nothing changed: measure without isolation and record that"
        fi
        print_unavailable
        return "$status"
    fi

    # The v1 mount comes first: the CPUs to choose from are read from it.
    PARTITION=none GOVERNOR=none
    if [[ $ISO_MODE == cpuset-v1-mount ]]; then
        iso_msg "no cpuset hierarchy mounted; mounting one at $ISO_V1_MOUNT"
        if ! iso_state_begin || ! mount_v1; then
            rollback; return "$ISO_EXIT_UNAVAILABLE"
        fi
        if (( ISO_DRY_RUN )) && (( ! ISO_FAKE )); then
            iso_msg "dry-run: the hierarchy is not mounted, so the rest cannot be shown"
            return "$ISO_EXIT_OK"
        fi
    fi

    if ! all=$(iso_root_cpus); then rollback; return "$ISO_EXIT_ERROR"; fi
    if [[ -z $cpu ]]; then
        cpu=$(iso_cpulist_expand "$all" | tr ' ' '\n' | tail -n 1)
    elif ! iso_cpulist_has "$all" "$cpu"; then
        iso_err "CPU $cpu is not one the cpuset hierarchy offers ('$all')"
        rollback; return "$ISO_EXIT_USAGE"
    fi
    if [[ $(iso_cpulist_expand "$all" | wc -w) -lt 2 ]]; then
        iso_fail single-cpu "the cpuset hierarchy offers only CPUs '$all': nothing can be moved off a reserved CPU"
        rollback; print_unavailable; return "$ISO_EXIT_UNAVAILABLE"
    fi
    warn_smt "$cpu"

    if ! setup "$cpu" "$all"; then
        iso_err "isolation failed; undoing what was done"
        rollback
        return "$ISO_EXIT_ERROR"
    fi

    iso_msg "CPU $cpu reserved for measuring ($ISO_MODE, cgroup $ISO_HIER/$ISO_CGROUP_NAME)"
    if (( ISO_DRY_RUN )); then
        iso_msg "dry-run: nothing was changed"
    else
        iso_msg "run a command there with: $(dirname -- "$0")/run_isolated.sh CMD...; undo with terminate_environment.sh"
    fi
    [[ $ISO_MODE == cpuset-v1-mount ]] && ISO_MODE=cpuset-v1
    iso_env PSF_ISOLATION "$ISO_MODE"
    iso_env PSF_CPU "$cpu"
    iso_env PSF_CGROUP "$ISO_HIER/$ISO_CGROUP_NAME"
    iso_env PSF_CGROUP_PROCS "$ISO_HIER/$ISO_CGROUP_NAME/$ISO_PROCS_NAME"
    iso_env PSF_PARTITION "${PARTITION%% *}"
    iso_env PSF_GOVERNOR "$GOVERNOR"
    (( ISO_DRY_RUN )) && iso_env PSF_DRY_RUN 1
    return "$ISO_EXIT_OK"
}

# rollback: undo whatever the journal holds, then drop the state file.
rollback() {
    (( ISO_DRY_RUN )) && return 0
    [[ -e $ISO_STATE_FILE ]] || return 0
    if iso_undo_journal; then
        iso_state_end
    else
        iso_err "could not undo everything; $ISO_STATE_FILE keeps the rest for terminate_environment.sh"
    fi
}

PARTITION=none
GOVERNOR=none
main "$@"
