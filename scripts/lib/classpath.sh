# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# classpath.sh - the submission's class path, checked and resolved before
# anything runs (sourced by scripts/get_score.sh; bash).
#
# Its own part because what it decides is what the sandbox shows
# (scripts/lib/sandbox.sh binds each resolved entry) and what the
# submission's digests cover (scripts/lib/signing.sh).
#
# Reads: CLASSPATH_ARG. Sets: abs_classpath, cp_abs_parts.

# Class path entries: each must be a regular file (a jar) or a directory,
# named by a path without newline or ':'. The JVM and the sandbox get each
# entry's resolved path. An entry that is itself a symbolic link is allowed
# only when its target lies inside a directory entry of the same class path:
# otherwise `lib.jar -> /etc/shadow` would show that file in the sandbox.
# Sets abs_classpath and cp_abs_parts.
resolve_classpath() {
  local part real dir ok i parts=() reals=() links=() dirs=()
  case $CLASSPATH_ARG in *$'\n'*) fail usage "--classpath contains a newline" ;; esac
  IFS=: read -r -a parts <<<"$CLASSPATH_ARG"
  for part in "${parts[@]}"; do
    [ -n "$part" ] || continue
    [ -e "$part" ] || fail class_not_found "class path entry '$part' does not exist"
    real=$(exec realpath -e -- "$part" 2>/dev/null) || fail class_not_found "class path entry '$part' cannot be resolved"
    [ -f "$real" ] || [ -d "$real" ] ||
      fail usage "class path entry '$part' is neither a regular file nor a directory"
    case $real in *:*) fail usage "class path entry '$part' resolves to '$real', which contains ':'" ;; esac
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
