#!/usr/bin/env bash
#
# run_isolated.sh: run a command on the CPU init_environment.sh reserved.
# Puts itself into the measuring cgroup (v2: cgroup.procs, v1: tasks), then
# exec's the command pinned with taskset to the reserved CPU, so the command
# and everything it starts stay there. See docs/isolation.md.

set -u -o pipefail
# shellcheck source-path=SCRIPTDIR source=lib/isolation.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib/isolation.sh"

usage() {
    cat <<EOF
usage: $ISO_PROG [--root DIR] [--] CMD [ARG...]

Run CMD in the measuring cgroup, pinned to the reserved CPU.
  --root DIR   the tree init_environment.sh was pointed at (tests; also PSF_SYSROOT=DIR)
Exit: CMD's exit status; $ISO_EXIT_RUN_FAILED if $ISO_PROG itself failed (no isolation set up,
      cannot join the cgroup) before running CMD.
EOF
}

main() {
    local cpu cgroup procs hier
    while (( $# )); do
        case $1 in
            --root|--root=*)
                iso_common_option "$@" || { usage >&2; return "$ISO_EXIT_RUN_FAILED"; }
                shift "$ISO_SHIFT"; continue ;;
            -h|--help) usage; return "$ISO_EXIT_OK" ;;
            --) shift; break ;;
            -*) iso_err "unknown option '$1'"; usage >&2; return "$ISO_EXIT_RUN_FAILED" ;;
            *) break ;;
        esac
    done
    if (( $# == 0 )); then
        usage >&2
        return "$ISO_EXIT_RUN_FAILED"
    fi
    iso_setup_root || return "$ISO_EXIT_RUN_FAILED"
    if [[ ! -e $ISO_STATE_FILE ]]; then
        iso_err "no CPU is reserved ($ISO_STATE_FILE missing): run init_environment.sh first, or run the command directly to measure without isolation"
        return "$ISO_EXIT_RUN_FAILED"
    fi
    if ! { cpu=$(iso_state_get cpu) && cgroup=$(iso_state_get cgroup) &&
           procs=$(iso_state_get procs) && hier=$(iso_state_get hierarchy); }; then
        iso_err "state file $ISO_STATE_FILE is incomplete; run terminate_environment.sh and init_environment.sh again"
        return "$ISO_EXIT_RUN_FAILED"
    fi
    ISO_HIER=$ISO_ROOT$hier   # where a fake root's move looks for the pid
    if ! iso_write "$ISO_ROOT$cgroup/$procs" "$$"; then
        iso_err "cannot join the measuring cgroup $ISO_ROOT$cgroup (root needed)"
        return "$ISO_EXIT_RUN_FAILED"
    fi
    if (( ISO_FAKE )); then
        # The fake tree's CPU need not exist here; pinning is for real runs.
        iso_msg "fake root: joined $ISO_ROOT$cgroup/$procs; running without taskset"
        exec "$@"
    fi
    if ! command -v taskset > /dev/null; then
        iso_warn "taskset not found; relying on the cgroup alone to keep the command on CPU $cpu"
        exec "$@"
    fi
    exec taskset -c "$cpu" "$@"
}

main "$@"
