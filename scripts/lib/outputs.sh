# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# outputs.sh - what get_score.sh writes besides the scorer's result, and how
# it ends on an error (sourced by scripts/get_score.sh; bash).
#
# fail reports an error found before the scorer could report it: one JSON
# object written by psf-score --status-json with --json (so all JSON has one
# writer, and the exit code is the status's, scorer/status.c), a sentence on
# stderr otherwise; signed once the submission is known. The output files
# (--score-file, --program-output, --profile-out, --junit, --report) are
# checked before anything runs (check_outputs) and written after the run
# through a temporary file beside them and a rename (publish), so a reader
# sees the old file or the whole new one; pass_output and keep_profile hand
# on the program's output and the signed profile.
#
# Reads: SCORER, JSON, JUNIT_ARGS, METHOD, MAIN, JUDGED_BY, KEY_PENDING, KEY_FILE,
#   SUBMISSION, SUBMISSION_PENDING, the output options (SCORE_FILE,
#   PROGRAM_OUTPUT, PROFILE_OUT, JUNIT, REPORT), MAX_OUTPUT, RUN_DIR.
# Sets: the output options made absolute, PUBLISH_TMP (the temporary file
#   the exit trap removes), OUTPUT_MODE, DIR_OF (dir_of, get_score.sh).

# Report an error that happened before the scorer could: one JSON object with
# --json (written by the scorer, so all JSON has one writer), the status word
# and a sentence on stderr otherwise. Exits with the status's code.
# Once the submission is known (SUBMISSION), the JSON is signed too.
fail() {
  local status=$1 message=$2 signing=()
  drop_score_file
  [ -z "${KEY_PENDING:-}" ] || finish_key
  [ -z "${TABLE_PENDING:-}" ] || finish_table
  [ -z "${SUBMISSION_PENDING:-}" ] || submission_fields
  [ -n "${SUBMISSION:-}" ] && signing=(--key-file "$KEY_FILE" --submission "$SUBMISSION")
  if [ -x "$SCORER" ]; then
    # a usage error may come before the budget is checked: no JUnit report then
    local junit=()
    [ "$status" = usage ] || junit=("${JUNIT_ARGS[@]}" --method "${METHOD:-${MAIN:-unknown}}" --judged-by "${JUDGED_BY:-none}")
    if [ "$JSON" = 1 ]; then
      "$SCORER" --status-json "$status" "$message" "${junit[@]}" "${signing[@]}"
      exit $?
    fi
    echo "get_score.sh: $status: $message" >&2
    "$SCORER" --status-json "$status" "$message" "${junit[@]}" >/dev/null
    exit $?
  fi
  echo "get_score.sh: $status: $message" >&2
  [ "$JSON" = 1 ] && printf '{"status":"internal_error","score":null,"message":"build/psf-score is missing: run make"}\n'
  exit 70
}

# abs_path NAME PATH: NAME=PATH, made absolute against the working directory,
# trailing newlines dropped (as a command substitution of it dropped them),
# without the fork of a command substitution.
abs_path() {
  local p=$2
  case $p in /*) ;; *) p=$PWD/$p ;; esac
  while [[ $p == *$'\n' ]]; do p=${p%$'\n'}; done
  printf -v "$1" '%s' "$p"
}

# --- outputs and inputs, checked before anything runs ----------------------------
# Each output must be a path the run may write: its directory exists and is
# writable, and it is not a directory, FIFO, device, socket or symbolic link
# (/dev/null is the one special file allowed: "discard"). Results are written
# after the run to a temporary file beside the path and renamed over it
# (publish), so a reader sees the old file or the whole new one.
check_output() {
  local opt=$1 path=$2 dir
  case $path in
    *$'\n'*) fail usage "$opt: a path with a newline is refused" ;;
    */ | */. | */..) fail usage "$opt '$path' names a directory, not a file" ;;
  esac
  [ "$path" = /dev/null ] && return 0
  if [ -L "$path" ]; then
    fail usage "$opt '$path' is a symbolic link; give the path of a regular file"
  elif [ -d "$path" ]; then
    fail usage "$opt '$path' is a directory, not a file"
  elif [ -e "$path" ] && [ ! -f "$path" ]; then
    fail usage "$opt '$path' is not a regular file (a FIFO, device or socket is never written)"
  fi
  dir_of "$path"
  dir=$DIR_OF
  [ -d "$dir" ] || fail usage "$opt '$path': the directory '$dir' does not exist"
  { [ -w "$dir" ] && [ -x "$dir" ]; } || fail usage "$opt '$path': the directory '$dir' is not writable"
}
check_outputs() {
  local named=() opt path other
  for opt in score-file program-output profile-out junit report; do
    case $opt in
      score-file) path=$SCORE_FILE ;;
      program-output) path=$PROGRAM_OUTPUT ;;
      profile-out) path=$PROFILE_OUT ;;
      junit) path=$JUNIT ;;
      report) path=$REPORT ;;
    esac
    [ -n "$path" ] || continue
    check_output "--$opt" "$path"
    # the same file however it is spelled (./x, dir/../x, a linked directory)
    path=$(realpath -m -- "$path")
    for other in "${named[@]}"; do
      [ "$path" = /dev/null ] || [ "${other#*=}" != "$path" ] || fail usage "--$opt and --${other%%=*} name the same file '$path'"
    done
    named+=("$opt=$path")
  done
  [ -z "$SCORE_FILE" ] || abs_path SCORE_FILE "$SCORE_FILE"
  [ -z "$PROGRAM_OUTPUT" ] || abs_path PROGRAM_OUTPUT "$PROGRAM_OUTPUT"
  [ -z "$PROFILE_OUT" ] || abs_path PROFILE_OUT "$PROFILE_OUT"
  OUTPUTS_CHECKED=1
}
# drop_score_file: a run that ends without a score, once its outputs were
# checked (a usage error before leaves them alone), leaves no --score-file:
# an earlier run's score there would read as this run's. (The other outputs
# are replaced by this run's: the profile, the JUnit verdict.)
OUTPUTS_CHECKED=""
drop_score_file() {
  [ -n "$OUTPUTS_CHECKED" ] && [ -n "$SCORE_FILE" ] && [ "$SCORE_FILE" != /dev/null ] || return 0
  [ -f "$SCORE_FILE" ] && [ ! -L "$SCORE_FILE" ] || return 0
  rm -f -- "$SCORE_FILE"
}

# Put the file SRC at the output path DEST (checked by check_output before
# the run): copied to a temporary file beside DEST, then renamed over it, so
# DEST is never half written. The path is looked at once more just before the
# rename: if something other than a regular file appeared there meanwhile,
# nothing is replaced. Returns non-zero, with a message, when DEST was not
# written.
PUBLISH_TMP=""
publish() {
  local src=$1 dest=$2 opt=$3
  [ "$dest" = /dev/null ] && return 0
  dir_of "$dest"
  PUBLISH_TMP=$(mktemp "$DIR_OF/.psf-out.XXXXXXXX") || {
    echo "get_score.sh: $opt: cannot create a file beside '$dest'" >&2
    return 1
  }
  [ -n "$OUTPUT_MODE" ] || printf -v OUTPUT_MODE '%o' $((0666 & ~0$(umask)))
  if cat -- "$src" >"$PUBLISH_TMP" && chmod "$OUTPUT_MODE" "$PUBLISH_TMP"; then
    if [ -L "$dest" ] || { [ -e "$dest" ] && [ ! -f "$dest" ]; }; then
      echo "get_score.sh: $opt: '$dest' is no longer a regular file; left alone" >&2
    elif mv -fT -- "$PUBLISH_TMP" "$dest"; then
      PUBLISH_TMP=""
      return 0
    fi
  fi
  rm -f -- "$PUBLISH_TMP"
  PUBLISH_TMP=""
  echo "get_score.sh: $opt: could not write '$dest'" >&2
  return 1
}
# Files this run creates get the mode a plain redirection would give them.
# (asked of the shell when the first file is written: $(umask) is a fork)
OUTPUT_MODE=""

# The program's output goes to stderr or to --program-output, never stdout;
# at most --max-output bytes of it. (No output needs no head to copy it.)
# (a judged run's stdout first, then its stderr: scripts/lib/judge.sh)
pass_output() {
  local files=()
  [ -s "$RUN_DIR/program.stdout" ] && files+=("$RUN_DIR/program.stdout")
  [ -s "$RUN_DIR/program.out" ] && files+=("$RUN_DIR/program.out")
  if [ -n "$PROGRAM_OUTPUT" ]; then
    if [ ${#files[@]} -gt 0 ]; then
      copy_output "${files[@]}" >"$RUN_DIR/program.kept"
    else
      : >"$RUN_DIR/program.kept"
    fi
    publish "$RUN_DIR/program.kept" "$PROGRAM_OUTPUT" --program-output ||
      fail internal_error "cannot write the program's output to '$PROGRAM_OUTPUT'"
  elif [ ${#files[@]} -gt 0 ]; then
    copy_output "${files[@]}" >&2
  fi
}
# copy_output FILE...: the first --max-output bytes of the FILEs together:
# by the shell itself when output_size (scripts/lib/run.sh) read them all
# once the run had ended (short, no NUL byte), else by a head alone for one
# file, as nearly always (a cat before it was a process more).
copy_output() {
  local LC_ALL=C f text="" read=1
  for f in "$@"; do
    [ -n "${OUTPUT_TEXT[$f]+set}" ] || { read=""; break; }
    text+=${OUTPUT_TEXT[$f]}
  done
  if [ -n "$read" ]; then
    printf '%s' "${text:0:MAX_OUTPUT}"
  elif [ $# -eq 1 ]; then
    head -c "$MAX_OUTPUT" -- "$1"
  else
    cat -- "$@" | head -c "$MAX_OUTPUT"
  fi
}

# Keep the run's profile, signed, at --profile-out, when given and the run
# left one.
keep_profile() {
  [ -n "$PROFILE_OUT" ] && [ -s "$1" ] || return 0
  [ -s "$1.signed" ] || sign_copy_or_fail "$1" "$1.signed"
  publish "$1.signed" "$PROFILE_OUT" --profile-out || fail internal_error "cannot write the profile to '$PROFILE_OUT'"
}
