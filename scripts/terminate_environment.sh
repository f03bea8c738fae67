#!/usr/bin/env bash
#
# terminate_environment.sh: undo what init_environment.sh did, exactly and
# only that, by replaying its state file backwards: tasks go back where they
# were, cpusets and governors get their old values, the cgroups init created
# are removed, a cpuset hierarchy it mounted is unmounted, a controller it
# enabled is disabled. Safe to run twice; without a state file there is
# nothing to undo. See docs/isolation.md.

set -u -o pipefail
# shellcheck source-path=SCRIPTDIR source=lib/isolation.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib/isolation.sh"

usage() {
    cat <<EOF
usage: $ISO_PROG [--dry-run] [--root DIR] [-v]

Undo what init_environment.sh changed, as recorded in its state file.
  --dry-run, -n   print every action, change nothing
  --root DIR      act on the tree under DIR instead of / (tests; also PSF_SYSROOT=DIR)
  --verbose, -v   print every action also in a real run
Exit: 0 restored (or nothing to undo), 1 some changes could not be undone
      (the state file keeps them; run again), 2 usage.
EOF
}

main() {
    while (( $# )); do
        iso_common_option "$@" || { usage >&2; return "$ISO_EXIT_USAGE"; }
        if (( ISO_SHIFT )); then shift "$ISO_SHIFT"; continue; fi
        case $1 in
            -h|--help) usage; return "$ISO_EXIT_OK" ;;
            *) iso_err "unknown option '$1'"; usage >&2; return "$ISO_EXIT_USAGE" ;;
        esac
    done
    iso_setup_root || return "$ISO_EXIT_USAGE"
    (( ISO_FAKE )) && iso_msg "using the fake root $ISO_ROOT"

    if [[ ! -e $ISO_STATE_FILE ]]; then
        iso_msg "no state file ($ISO_STATE_FILE): nothing to undo"
        return "$ISO_EXIT_OK"
    fi
    if [[ $(iso_state_get version || true) != "$ISO_STATE_VERSION" ]]; then
        iso_err "$ISO_STATE_FILE is not a version $ISO_STATE_VERSION state file; not touching anything"
        return "$ISO_EXIT_ERROR"
    fi
    if [[ $(id -u) != 0 ]] && (( ! ISO_DRY_RUN )); then
        iso_err "not root (uid $(id -u)): undoing cpuset and governor changes needs root"
        return "$ISO_EXIT_ERROR"
    fi

    if ! iso_undo_journal; then
        iso_err "some changes could not be undone; $ISO_STATE_FILE is kept: fix the cause and run again"
        return "$ISO_EXIT_ERROR"
    fi
    if (( ISO_DRY_RUN )); then
        iso_msg "dry-run: nothing was changed"
        return "$ISO_EXIT_OK"
    fi
    iso_state_end
    iso_msg "isolation undone; the system is as init_environment.sh found it"
    return "$ISO_EXIT_OK"
}

main "$@"
