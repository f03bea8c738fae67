# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# classpath.sh - the submission's class path, checked and resolved before
# anything runs (sourced by scripts/get_score.sh; bash).
#
# Its own part because what it decides is what the sandbox shows
# (scripts/lib/sandbox.sh binds each resolved entry) and what the
# submission's digests cover (scripts/lib/signing.sh).
#
# Reads: CLASSPATH_ARG, SANDBOX_EARLY_PATHS (scripts/lib/sandbox.sh).
# Sets: abs_classpath, cp_abs_parts, JAVA_REAL, CP_REALS and
#   SANDBOX_EARLY_REALS (resolve_paths).

# resolve_paths JAVA: the java launcher JAVA (none when empty), every
# class path entry and the paths the sandbox's check of the key file needs
# (SANDBOX_EARLY_PATHS, scripts/lib/sandbox.sh) resolved by one realpath, not
# a process each: JAVA's path in JAVA_REAL, the entries' in CP_REALS, in
# order, and the sandbox's in SANDBOX_EARLY_REALS. realpath -m resolves them
# all (the key file may not exist yet); the launcher and the entries must
# exist, as realpath -e would have them (for an existing path -e and -m
# resolve alike). When any of them cannot be resolved, all three are left
# empty: the launcher is then resolved on its own (start_jdk_probe), each
# entry too (resolve_classpath), which says which entry failed and how, in
# the order it always did, and the sandbox's paths where the sandbox is set
# up (sandbox_binds). (realpath -e resolves an existing path as readlink -f
# does.)
CP_REALS=()
SANDBOX_EARLY_REALS=()
resolve_paths() {
  local parts=() part all=() n i
  JAVA_REAL="" CP_REALS=() SANDBOX_EARLY_REALS=()
  IFS=: read -r -a parts <<<"$CLASSPATH_ARG"
  for part in "${parts[@]}"; do
    [ -z "$part" ] || all+=("$part")
  done
  [ -z "$1" ] || all=("$1" "${all[@]}")
  n=${#all[@]}
  [ "$n" -gt 0 ] || return 0
  local asked=("${all[@]}")
  mapfile -d '' -t all < <(exec realpath -m -z -- "${asked[@]}" "${SANDBOX_EARLY_PATHS[@]}" 2>/dev/null)
  [ ${#all[@]} -eq $((n + ${#SANDBOX_EARLY_PATHS[@]})) ] || return 0
  for ((i = 0; i < n; i++)); do
    [ -e "${asked[$i]}" ] && [ -e "${all[$i]}" ] || return 0
  done
  SANDBOX_EARLY_REALS=("${all[@]:n}")
  all=("${all[@]:0:n}")
  if [ -n "$1" ]; then
    JAVA_REAL=${all[0]}
    all=("${all[@]:1}")
  fi
  CP_REALS=("${all[@]}")
}

# Class path entries: each must be a regular file (a jar) or a directory,
# named by a path without newline or ':'. The JVM and the sandbox get each
# entry's resolved path. An entry that is itself a symbolic link is allowed
# only when its target lies inside a directory entry of the same class path:
# otherwise `lib.jar -> /etc/shadow` would show that file in the sandbox.
# Sets abs_classpath and cp_abs_parts.
resolve_classpath() {
  local part real dir ok i parts=() reals=() links=() dirs=() n=0
  case $CLASSPATH_ARG in *$'\n'*) fail usage "--classpath contains a newline" ;; esac
  IFS=: read -r -a parts <<<"$CLASSPATH_ARG"
  for part in "${parts[@]}"; do
    [ -n "$part" ] || continue
    [ -e "$part" ] || fail class_not_found "class path entry '$part' does not exist"
    # (resolved already, with the launcher, by resolve_paths when it could)
    if [ ${#CP_REALS[@]} -gt 0 ]; then
      real=${CP_REALS[$n]}
    else
      real=$(exec realpath -e -- "$part" 2>/dev/null) || fail class_not_found "class path entry '$part' cannot be resolved"
    fi
    n=$((n + 1))
    [ -f "$real" ] || [ -d "$real" ] ||
      fail usage "class path entry '$part' is neither a regular file nor a directory"
    case $real in *:*) fail usage "class path entry '$part' resolves to '$real', which contains ':'" ;; esac
    # (a class file is no jar: java would look in it for classes and find none)
    [[ $real != *.class || ! -f $real ]] ||
      fail usage "class path entry '$part' is a class file; give the directory its package starts in"
    reals+=("$real")
    # a link itself (trailing slashes would make the test follow it)
    while [ "${part%/}" != "$part" ] && [ "${part%/}" != "" ]; do part=${part%/}; done
    if [ -L "$part" ]; then
      links+=("$part")
    else
      links+=("")
      [ -d "$real" ] && dirs+=("$real")
    fi
  done
  [ ${#reals[@]} -gt 0 ] || fail usage "--classpath is empty"
  for i in "${!reals[@]}"; do
    [ -n "${links[$i]}" ] || continue
    ok=0
    for dir in "${dirs[@]}"; do
      [[ ${reals[$i]} == "$dir"/* ]] && ok=1
    done
    [ "$ok" = 1 ] ||
      fail usage "class path entry '${links[$i]}' is a symbolic link to '${reals[$i]}', outside the class path's directories"
  done
  cp_abs_parts=("${reals[@]}")
  printf -v abs_classpath '%s:' "${reals[@]}"
  abs_classpath=${abs_classpath%:}
}
