#!/usr/bin/env bash
#
# show_cpu_assignment.sh: which CPUs each cgroup (cpuset) holds, and which
# processes may run on the reserved CPU. Reads only; changes nothing.
# With --print-env, prints the KEY=VALUE lines of the isolation in place
# (for a calibrator that did not run init itself). See docs/isolation.md.

set -u -o pipefail
# shellcheck source-path=SCRIPTDIR source=lib/isolation.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib/isolation.sh"

usage() {
    cat <<EOF
usage: $ISO_PROG [--cpu N] [--print-env] [--root DIR]

Show the CPUs of every cgroup/cpuset and the processes allowed on a CPU
(the reserved one, or N).
  --cpu N        list the processes allowed on CPU N
  --print-env    print PSF_CPU=..., PSF_CGROUP=... of the isolation in place
  --root DIR     read the tree under DIR instead of / (tests; also PSF_SYSROOT=DIR)
Exit: 0; with --print-env, 3 if no isolation is set up; 2 usage.
EOF
}

# show_cgroups: one line per cgroup: requested CPUs, effective CPUs, the
# partition type (v2), the number of tasks.
show_cgroups() {
    local dir rel cpus eff part n p=$ISO_V1_PREFIX effname
    printf '%-40s %-12s %-12s %-10s %s\n' CGROUP CPUS EFFECTIVE PARTITION TASKS
    if [[ $ISO_MODE == cgroup2 ]]; then effname=cpuset.cpus.effective; else effname=${p}effective_cpus; fi
    while IFS= read -r dir; do
        rel=/${dir#"$ISO_HIER"}; rel=${rel//\/\//\/}
        if [[ $dir == "$ISO_HIER" && $ISO_MODE == cgroup2 ]]; then
            cpus="(all)"
        else
            cpus=$(cat -- "$dir/${p}cpus" 2>/dev/null) || cpus="-"
            [[ -z $cpus ]] && cpus="(inherit)"
        fi
        eff=$(cat -- "$dir/$effname" 2>/dev/null) || eff="-"
        part=$(cat -- "$dir/cpuset.cpus.partition" 2>/dev/null) || part="-"
        n=$(iso_pids "$dir/$ISO_PROCS_NAME" | wc -l)
        printf '%-40s %-12s %-12s %-10s %s\n' "$rel" "$cpus" "${eff:--}" "$part" "$n"
    done < <(find "$ISO_HIER" -xdev -type d | sort)
}

# show_processes CPU: processes whose allowed CPUs include CPU, with the CPU
# they last ran on and their cpuset. Kernel threads are marked [k]; per-CPU
# ones (allowed on CPU alone) cannot move.
show_processes() {
    local cpu=$1 d pid name allowed stat last flags kind cg total=0 shown=0
    local -a f
    printf '%-8s %-4s %-8s %-12s %-24s %s\n' PID KIND LAST_CPU ALLOWED CPUSET NAME
    for pid in $(cd "$ISO_ROOT/proc" 2>/dev/null && printf '%s\n' [0-9]* | grep -E '^[0-9]+$' | sort -n); do
        d=$ISO_ROOT/proc/$pid
        [[ -r $d/status ]] || continue
        (( total++ ))
        name=$(sed -n 's/^Name:[[:space:]]*//p' "$d/status" 2>/dev/null)
        allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$d/status" 2>/dev/null)
        if [[ -z $allowed ]] || ! iso_cpulist_has "$allowed" "$cpu"; then continue; fi
        # stat: "pid (comm) state ..."; comm may hold spaces, so cut at ") ".
        stat=$(cat -- "$d/stat" 2>/dev/null) || stat=""
        read -r -a f <<< "${stat##*) }"
        last=${f[36]:--}        # field 39, "processor"
        flags=${f[6]:-0}        # field 9; PF_KTHREAD is 0x00200000
        kind=user
        [[ $flags =~ ^[0-9]+$ ]] && (( flags & 0x00200000 )) && kind="[k]"
        # /proc/PID/cgroup: "0::/path" (v2) or "N:...cpuset...:/path" (v1).
        cg=$(awk -F: -v v2="$([[ $ISO_MODE == cgroup2 ]] && echo 1)" '
            v2 && $1 == "0" { print $3; exit }
            !v2 && ("," $2 ",") ~ /,cpuset,/ { print $3; exit }' "$d/cgroup" 2>/dev/null)
        printf '%-8s %-4s %-8s %-12s %-24s %s\n' "$pid" "$kind" "$last" "$allowed" "${cg:--}" "$name"
        (( shown++ ))
    done
    iso_msg "$shown of $total processes may run on CPU $cpu"
}

main() {
    local cpu="" print_env=0
    while (( $# )); do
        iso_common_option "$@" || { usage >&2; return "$ISO_EXIT_USAGE"; }
        if (( ISO_SHIFT )); then shift "$ISO_SHIFT"; continue; fi
        iso_cpu_option "$@" || return "$ISO_EXIT_USAGE"
        if (( ISO_SHIFT )); then cpu=$ISO_CPU; shift "$ISO_SHIFT"; continue; fi
        case $1 in
            --print-env) print_env=1 ;;
            -h|--help) usage; return "$ISO_EXIT_OK" ;;
            *) iso_err "unknown option '$1'"; usage >&2; return "$ISO_EXIT_USAGE" ;;
        esac
        shift
    done
    iso_setup_root || return "$ISO_EXIT_USAGE"

    if (( print_env )); then
        if [[ ! -e $ISO_STATE_FILE ]]; then
            iso_msg "no CPU is reserved ($ISO_STATE_FILE missing)"
            iso_env PSF_ISOLATION none
            return "$ISO_EXIT_UNAVAILABLE"
        fi
        iso_print_state_env || return "$ISO_EXIT_ERROR"
        return "$ISO_EXIT_OK"
    fi

    echo "online CPUs: $(iso_online_cpus 2>/dev/null || echo '?')"
    if [[ -e $ISO_STATE_FILE ]]; then
        echo "reserved CPU: $(iso_state_get cpu || echo '?') ($(iso_state_get mode || echo '?'), cgroup $ISO_ROOT$(iso_state_get cgroup || echo '?'), partition $(iso_state_get partition || echo none), governor $(iso_state_get governor || echo none))"
        [[ -z $cpu ]] && cpu=$(iso_state_get cpu || true)
    else
        echo "reserved CPU: none (no state file $ISO_STATE_FILE)"
    fi
    if [[ -n $cpu ]]; then
        local gov=$ISO_ROOT/sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor
        echo "governor of CPU $cpu: $(cat -- "$gov" 2>/dev/null || echo 'none (no cpufreq)')"
    fi
    echo
    iso_detect_cpuset
    if [[ $ISO_MODE == cpuset-v1-mount && -e $ISO_STATE_FILE ]]; then
        # init mounted it; /proc/mounts of a fake tree cannot say so.
        ISO_MODE=cpuset-v1
    fi
    if [[ -n $ISO_MODE && $ISO_MODE != cpuset-v1-mount && -d $ISO_HIER ]]; then
        echo "cpusets ($ISO_MODE, $ISO_HIER):"
        show_cgroups
    else
        echo "cpusets: no cpuset hierarchy mounted"
    fi
    echo
    if [[ -n $cpu ]]; then
        echo "processes allowed on CPU $cpu:"
        show_processes "$cpu"
    else
        echo "processes: no CPU reserved; --cpu N lists those allowed on CPU N"
    fi
    return "$ISO_EXIT_OK"
}

main "$@"
