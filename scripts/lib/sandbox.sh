# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# sandbox.sh - where the program runs: bubblewrap when it works (or is
# required), and the guard that makes the run die with get_score.sh
# (sourced by scripts/get_score.sh; bash).
#
# start_probes asks early, in the background, whether setpriv and bwrap
# work here; setup_guard and decide_sandbox read the answers. sandbox_binds
# lists what the sandbox shows and refuses a key file the program could
# read. docs/hidden-work.md says why paths inside are the same every run.
#
# Reads: SANDBOX, EUID, JAVA, AGENT, cp_abs_parts, abs_classpath, KEY_FILE,
#   SANDBOX_EARLY_REALS (resolve_paths, scripts/lib/classpath.sh).
# Sets: PROBE_FD, PDEATH, GUARD, SANDBOXED, SANDBOX_BINDS, SANDBOX_CP,
#   SANDBOX_WORK, JVM_CLASSPATH, JDK_HOME, SANDBOX_SYSTEM_BINDS,
#   SANDBOX_EARLY_PATHS.

# start_probes: whether setpriv and bubblewrap work, asked in the background.
start_probes() {
  # Whether setpriv can set a parent-death signal (PDEATH, setup_guard) and whether
  # bubblewrap works here (a sandbox of its own that runs true: some ms) are
  # asked in the background too, by one job (each job is a fork of this
  # script), and answered where they are used: a line each, in that order,
  # "works" or not. Both are asked at once first, bubblewrap started by
  # setpriv (a process fewer); only when that fails, each on its own.
  PROBE_FD=""
  ask_pdeath=0 ask_bwrap=0
  command -v setpriv >/dev/null 2>&1 && ask_pdeath=1
  [ "$SANDBOX" != off ] && command -v bwrap >/dev/null 2>&1 && ask_bwrap=1
  if [ "$ask_pdeath$ask_bwrap" != 00 ]; then
    exec {PROBE_FD}< <(
      exec </dev/null
      if [ "$ask_pdeath$ask_bwrap" = 11 ] && setpriv --pdeathsig KILL \
        bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent true >/dev/null 2>&1; then
        printf 'works\nworks\n'
        exit 0
      fi
      if [ "$ask_pdeath" = 1 ] && setpriv --pdeathsig KILL true >/dev/null 2>&1; then echo works; else echo no; fi
      if [ "$ask_bwrap" = 1 ] &&
        bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent true >/dev/null 2>&1; then
        echo works
      else
        echo no
      fi
    )
  fi

}

# setup_guard: PDEATH and GUARD, from start_probes' first answer.
setup_guard() {
  # A parent-death signal ends the run's processes when their parent dies,
  # even by SIGKILL (see run_once).
  # (whether setpriv can: asked in the background, at the start)
  PDEATH=()
  pdeath_works=""
  [ -z "$PROBE_FD" ] || read -r -u "$PROBE_FD" pdeath_works
  [ "$pdeath_works" != works ] || PDEATH=(setpriv --pdeathsig KILL)
  # GUARD COMMAND...: COMMAND, started in the background by this script, dies
  # with it. The parent-death signal is set first, then the guard checks that
  # its parent is still this script, so a death before the signal was set is
  # not missed either. The signal survives exec (of setsid, bwrap, head: none
  # of them forks first or is set-user-ID). The check is a POSIX sh's, which
  # starts in about half of bash's time (one guard is on the way to the JVM).
  GUARD=()
  # shellcheck disable=SC2016 # the guard's own $PPID and $1, expanded by its sh
  [ ${#PDEATH[@]} -gt 0 ] &&
    GUARD=("${PDEATH[@]}" -- sh -c '[ "$PPID" = "$1" ] || exit 70; shift; exec "$@"' psf-guard "$$")
}

# decide_sandbox: SANDBOXED, from start_probes' second answer and --sandbox.
decide_sandbox() {
  # bubblewrap: the whole file system read-only, one private writable work
  # directory, no network, its own PID namespace, /dev/random and /dev/urandom
  # read as zeros (so SecureRandom repeats), and the sandbox dies with us.
  # (The key's check is answered first: a key that cannot be used is refused,
  # or its warning printed, before anything is said about the sandbox; then
  # the cost table's, so that a bad table is reported after an unusable key.)
  finish_key
  finish_table
  SANDBOXED=0
  bwrap_works=""
  if [ -n "$PROBE_FD" ]; then
    read -r -u "$PROBE_FD" bwrap_works
    exec {PROBE_FD}<&-
  fi
  if [ "$bwrap_works" = works ]; then
    SANDBOXED=1
  elif [ "$SANDBOX" = require ]; then
    fail sandbox_unavailable "--sandbox require: bubblewrap is missing or cannot create namespaces here"
  elif [ "$SANDBOX" = auto ] && [ "$EUID" -eq 0 ]; then
    # As root, unsandboxed code can rewrite the JDK through /proc/self/fd.
    fail sandbox_unavailable "refusing to run a program as root without a sandbox (bubblewrap is missing or not permitted); install bubblewrap, run as another user, or pass --sandbox off for code you trust"
  elif [ "$SANDBOX" = auto ]; then
    echo "get_score.sh: warning: no sandbox (bubblewrap is missing or not permitted here): the program runs with resource limits only, with the network and write access to whatever this user may write" >&2
  fi
}

# bind_sources BWRAP_ARGS...: the source of each bind among them, in
# BIND_SOURCES.
BIND_SOURCES=()
bind_sources() {
  BIND_SOURCES=()
  while [ $# -gt 1 ]; do
    case $1 in
      --ro-bind | --bind | --dev-bind) BIND_SOURCES+=("$2") ;;
    esac
    shift
  done
}

# sandbox_early_paths: SANDBOX_SYSTEM_BINDS, what the sandbox shows of the
# system, read-only: its programs and libraries and the few files of /etc
# the JVM reads; not the rest of the host: no /home, no other runs' scratch
# directories under /tmp, no /etc/shadow. And SANDBOX_EARLY_PATHS, the paths
# the check of the key file resolves (sandbox_binds): the key file, then the
# sources of those binds and PSF's build (the agent's directory), which
# resolve_paths resolves with the launcher and the class path, in one
# realpath (the JDK's home and the class path's entries are resolved paths
# already, and so are the directories above them). Empty without a sandbox
# to run in or a key to keep out of it.
SANDBOX_SYSTEM_BINDS=()
SANDBOX_EARLY_PATHS=()
sandbox_early_paths() {
  local d f
  SANDBOX_SYSTEM_BINDS=(--ro-bind /usr /usr --dev /dev --tmpfs /tmp
    --dev-bind /dev/zero /dev/random --dev-bind /dev/zero /dev/urandom)
  for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
    [ -e "$d" ] && SANDBOX_SYSTEM_BINDS+=(--ro-bind "$d" "$d")
  done
  for f in /etc/ld.so.cache /etc/ld.so.conf /etc/ld.so.conf.d /etc/passwd /etc/group /etc/nsswitch.conf \
    /etc/localtime /etc/java-* /etc/ssl/certs; do
    [ -e "$f" ] && SANDBOX_SYSTEM_BINDS+=(--ro-bind "$f" "$f")
  done
  SANDBOX_EARLY_PATHS=()
  [ "$SANDBOX" != off ] && [ -n "$KEY_FILE" ] || return 0
  bind_sources "${SANDBOX_SYSTEM_BINDS[@]}"
  SANDBOX_EARLY_PATHS=("$KEY_FILE" "${BIND_SOURCES[@]}")
  dir_of "$AGENT"
  SANDBOX_EARLY_PATHS+=("$DIR_OF")
}

# sandbox_binds: what the sandbox shows; the key file must not be in it.
sandbox_binds() {
  # What the sandbox shows, read-only: the system's part
  # (sandbox_early_paths), the JDK, PSF's build and the class path.
  SANDBOX_BINDS=("${SANDBOX_SYSTEM_BINDS[@]}")
  # (JAVA is resolved, readlink -f: its directory's parent is the JDK's home,
  # no cd into it and pwd in a fork needed)
  dir_of "$JAVA"
  dir_of "$DIR_OF"
  JDK_HOME=$DIR_OF
  dir_of "$AGENT"
  SANDBOX_BINDS+=(--ro-bind "$JDK_HOME" "$JDK_HOME" --ro-bind "$DIR_OF" "$DIR_OF")
  # Every path the program can see is the same in every run (README:
  # docs/hidden-work.md, "Values that differ between runs"): inside the sandbox the class path entries appear as
  # $SANDBOX_CP/0, 1, ... (a file as N.jar) and the work directory, which is
  # also the JVM's working directory, HOME and temp directory's parent, as
  # $SANDBOX_WORK, wherever they are on the host. Unsandboxed runs see the
  # host's paths, which differ from run to run.
  SANDBOX_CP=/psf/cp
  SANDBOX_WORK=/psf/work
  JVM_CLASSPATH=$abs_classpath
  if [ "$SANDBOXED" = 1 ]; then
    JVM_CLASSPATH=""
    i=0
    for part in "${cp_abs_parts[@]}"; do
      inner=$SANDBOX_CP/$i
      [ -d "$part" ] || inner=$inner.jar
      SANDBOX_BINDS+=(--ro-bind "$part" "$inner")
      JVM_CLASSPATH=${JVM_CLASSPATH:+$JVM_CLASSPATH:}$inner
      i=$((i + 1))
    done
  fi
  # The server key stays out of the sandbox: a key file under a path the
  # sandbox shows (the JDK, PSF's build, a class-path entry, /usr, ...) would
  # let the program read it and sign whatever it likes.
  # The key and every bind's source are resolved together, NUL-separated,
  # so that any path comes back whole: by resolve_paths' realpath, with the
  # launcher and the class path, where it could resolve them
  # (SANDBOX_EARLY_REALS: the key, the system's sources, PSF's build; the
  # JDK's home and the class path's entries are resolved already); else by
  # one realpath here (not a process per path), whose count, when it does
  # not add up, refuses the run.
  if [ "$SANDBOXED" = 1 ] && [ -n "$KEY_FILE" ]; then
    resolved=()
    if [ ${#SANDBOX_EARLY_REALS[@]} -gt 0 ] && [ "${SANDBOX_EARLY_PATHS[0]}" = "$KEY_FILE" ]; then
      # (in the order of the binds: the build's directory after the JDK's)
      n=${#SANDBOX_EARLY_REALS[@]}
      resolved=("${SANDBOX_EARLY_REALS[@]:0:n-1}" "$JDK_HOME" "${SANDBOX_EARLY_REALS[n - 1]}" "${cp_abs_parts[@]}")
    else
      bind_sources "${SANDBOX_BINDS[@]}"
      mapfile -d '' -t resolved < <(realpath -m -z -- "$KEY_FILE" "${BIND_SOURCES[@]}")
      [ ${#resolved[@]} -eq $((${#BIND_SOURCES[@]} + 1)) ] ||
        fail internal_error "cannot resolve the key file and the sandbox's paths"
    fi
    key_real=${resolved[0]}
    for shown in "${resolved[@]:1}"; do
      case $key_real in
        "$shown" | "$shown"/*)
          fail usage "the key file '$KEY_FILE' is inside '$shown', which the sandbox shows to the program: keep it elsewhere" ;;
      esac
    done
  fi
}
