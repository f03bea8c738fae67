# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# scorer.sh - asking psf-score from get_score.sh: the early questions asked
# of one process in the background while other checks go on (ask_early,
# start_answers, scorer_answer), the cost table's check (check_costs), and
# reading a profile's status (sourced by scripts/get_score.sh; bash).
#
# psf-score answers quickly, but each answer is a process that loads
# libxml2, ICU and libcrypto: the questions that can be asked early (the
# key's check, the cost table's, the submission's digests, this machine's
# TSC rate) are asked of one `psf-score --batch` (scorer/batch.h), which
# answers each as psf-score alone would, all at once in children of its
# own, in the background; each answer is read where it is needed, so they
# cost neither a process each nor wall-clock time of their own.
#
# Reads: SCORER, COSTS, score_args (profile_why).
# Sets: EARLY_ASKED, EARLY_ARGS, EARLY_FD, EARLY_ANSWERS, ANSWER,
#   ANSWER_OUT, ANSWER_RC, SAYS, COSTS (absolute), COSTS_SHA256,
#   TABLE_CHECKED, TABLE_PENDING, PROFILE_STATUS.

# ask_early NAME STDERR ARGS...: psf-score ARGS, asked as NAME of the batch
# that start_answers starts; STDERR is where its stderr goes (merge: into
# its answer, as 2>&1; pass: the caller's; drop: nowhere).
EARLY_ASKED=()  # the names asked, in the batch's order
EARLY_ARGS=()   # the batch's arguments
EARLY_FD=""     # its answers, until the last one asked is read
EARLY_ANSWERS=() # the answers read so far, in order
ask_early() {
  local name=$1 how=$2
  shift 2
  EARLY_ASKED+=("$name")
  EARLY_ARGS+=("$#" "$how" "$@")
}
# start_answers: the batch of what ask_early asked, started in the
# background (its requests' stdin /dev/null; its stderr the caller's only
# for a request asked with pass, and only while that one runs). It is
# started with --more, as a coprocess: once it has answered, it waits on
# BATCH_MORE_FD for the result's request (batch_request), which then costs
# no exec and no loading of libraries after the JVM has ended: scoring
# bench/fast_plain.sh's merge sort's profile so takes about 25 million
# instructions and 7 ms of CPU, against 41 million and 14 ms for a
# psf-score of its own (callgrind; perf stat, median of 15). A failure
# before its answers are read leaves it to end by itself (its stdin ends
# with this script).
BATCH_MORE_FD="" # the batch's stdin, while it waits for batch_request
start_answers() {
  [ ${#EARLY_ASKED[@]} -gt 0 ] || return 0
  local r w
  coproc PSF_BATCH { exec "$SCORER" --batch --more "${EARLY_ARGS[@]}"; }
  # (copies of its ends: bash closes the coprocess's own once it has reaped
  # it, and the last answer may still be unread then)
  r=${PSF_BATCH[0]:-} w=${PSF_BATCH[1]:-}
  [ -n "$r" ] && [ -n "$w" ] || return 0
  exec {EARLY_FD}<&"$r" {BATCH_MORE_FD}>&"$w" {r}<&- {w}>&-
}
# batch_request OUT ERR ARGS...: psf-score ARGS run by the batch that
# start_answers started, as psf-score ARGS >OUT 2>ERR would run, its exit
# code in BATCH_RC (the early answers not read yet are read first: they
# come first). Fails, with nothing run, when no batch waits, when an
# argument is empty (an empty word ends the request, scorer/batch.h), or
# when the batch gave no answer: the caller runs psf-score itself then.
batch_request() {
  local out=$1 err=$2 arg answer sent=0
  shift 2
  [ -n "$BATCH_MORE_FD" ] || return 1
  for arg in "$@"; do [ -n "$arg" ] || return 1; done
  early_answer "${EARLY_ASKED[${#EARLY_ASKED[@]} - 1]}"
  # (a batch that is gone is a write that fails, not this script's end)
  trap '' PIPE
  printf '%s\0' "$#" files "$out" "$err" "$@" "" 2>/dev/null 1>&"$BATCH_MORE_FD" && sent=1
  trap - PIPE
  exec {BATCH_MORE_FD}>&-
  BATCH_MORE_FD=""
  answer=""
  [ "$sent" = 0 ] || IFS= read -r -d '' -u "$EARLY_FD" answer || answer=""
  exec {EARLY_FD}<&-
  EARLY_FD=""
  [[ $answer =~ ^[0-9]+$'\n'$ ]] || return 1
  BATCH_RC=${answer%$'\n'}
}
# early_answer NAME: NAME's answer, "EXIT\nOUTPUT", in ANSWER (the answers
# before it read and kept on the way); fails when NAME was not asked or
# got no answer (the batch could not run it).
early_answer() {
  local i answer
  ANSWER=""
  for i in "${!EARLY_ASKED[@]}"; do
    if [ "$i" -ge ${#EARLY_ANSWERS[@]} ]; then
      answer=""
      [ -z "$EARLY_FD" ] || IFS= read -r -d '' -u "$EARLY_FD" answer || answer=""
      EARLY_ANSWERS+=("$answer")
      # (closed after the last early answer, unless the batch waits for
      # batch_request, whose answer comes after it)
      if [ $((i + 1)) -eq ${#EARLY_ASKED[@]} ] && [ -n "$EARLY_FD" ] && [ -z "$BATCH_MORE_FD" ]; then
        exec {EARLY_FD}<&-
        EARLY_FD=""
      fi
    fi
    if [ "${EARLY_ASKED[$i]}" = "$1" ]; then
      ANSWER=${EARLY_ANSWERS[$i]}
      [[ $ANSWER == *$'\n'* ]]
      return
    fi
  done
  return 1
}
# scorer_answer NAME ARGS...: what psf-score ARGS answered, as
# out=$("$SCORER" ARGS 2>&1) would have it, in ANSWER_OUT, and its exit code
# in ANSWER_RC: the early answer NAME (asked with merge), or, when there is
# none, asked now.
scorer_answer() {
  local name=$1
  shift
  if early_answer "$name"; then
    ANSWER_RC=${ANSWER%%$'\n'*}
    ANSWER_OUT=${ANSWER#*$'\n'}
    # (as a command substitution drops them)
    while [[ $ANSWER_OUT == *$'\n' ]]; do ANSWER_OUT=${ANSWER_OUT%$'\n'}; done
  else
    ANSWER_OUT=$(exec "$SCORER" "$@" 2>&1)
    ANSWER_RC=$?
  fi
}
# early_line NAME: the first line of NAME's early answer's output in
# ANSWER_OUT (empty when it printed none); fails when there is no answer.
early_line() {
  early_answer "$1" || return 1
  ANSWER_OUT=${ANSWER#*$'\n'}
  ANSWER_OUT=${ANSWER_OUT%%$'\n'*}
}
# scorer_says OUT: the first line of psf-score's output OUT without its
# "psf-score: ", in SAYS (empty when the line does not start so).
scorer_says() {
  local line=${1%%$'\n'*}
  SAYS=""
  [[ $line != "psf-score: "* ]] || SAYS=${line#"psf-score: "}
}
# The cost table is read, parsed and validated by the scorer now, not after
# the program ran; the scorer refuses anything but a regular file of bounded
# size, so a FIFO or /dev/zero is refused at once. Sets COSTS_SHA256, which
# scoring later checks, so a table swapped during the run is noticed.
# When the table is known early (--costs FILE, or the default table of a JDK
# whose release file gave its version), its check is asked early
# (ask_table_check, by start_jdk_probe) and its answer is read here; a table
# that turns out to be another one is checked here, at once.
# check_jdk chooses the table and leaves its answer pending (TABLE_PENDING)
# while the scratch directory and the guard are set up: it is read
# (finish_table) before the key's answer is acted on further (decide_sandbox)
# and before any failure is reported (fail) or a result signed
# (submission_fields), so a table that cannot be used is still reported
# before everything that is checked after the JDK.
COSTS_SHA256=""
TABLE_CHECKED="" # the table asked early
TABLE_PENDING="" # the chosen table's answer is still to be read (finish_table)
finish_table() {
  [ -z "$TABLE_PENDING" ] || check_costs
}
# The --compare reference (COMPARE_ABS, scripts/lib/options.sh) is loaded
# and scored with the table in the same check, so a reference that is no
# scored profile is refused before the program runs, not after it.
# table_check_args TABLE: the check's arguments in TABLE_ARGS (TABLE none:
# the reference alone, with the built-in table).
table_check_args() {
  TABLE_ARGS=(--check-table)
  [ "$1" = none ] || TABLE_ARGS+=(--costs "$1")
  if [ -n "$COMPARE_ABS" ]; then
    TABLE_ARGS+=(--compare "$COMPARE_ABS")
    [ "$WITH_OVERHEAD" = 0 ] || TABLE_ARGS+=(--with-overhead)
  fi
}
ask_table_check() {
  TABLE_CHECKED=$1
  [ "$1" = none ] || abs_path TABLE_CHECKED "$1"
  table_check_args "$TABLE_CHECKED"
  ask_early table merge "${TABLE_ARGS[@]}"
}
check_costs() {
  TABLE_PENDING=""
  [ "$COSTS" = none ] && [ -z "$COMPARE_ABS" ] && return 0
  [ "$COSTS" = none ] || abs_path COSTS "$COSTS"
  table_check_args "$COSTS"
  if [ "$TABLE_CHECKED" = "$COSTS" ]; then
    scorer_answer table "${TABLE_ARGS[@]}"
  else
    scorer_answer "" "${TABLE_ARGS[@]}"
  fi
  if [ "$ANSWER_RC" != 0 ]; then
    scorer_says "$ANSWER_OUT"
    # (reported unsigned, as where the JDK is checked: the table is part of
    # what is signed)
    SUBMISSION_PENDING="" SUBMISSION=""
    case $SAYS in
      "--compare"*) refuse_compare "$SAYS" ;;
      *) fail bad_input "the cost table is not usable: $SAYS" ;;
    esac
  fi
  [ "$COSTS" = none ] || COSTS_SHA256=$ANSWER_OUT
}
# The status attribute of profile FILE's root element, in PROFILE_STATUS
# (empty when it has none), read by the shell itself: the root element is
# on the first lines, and a profile can be megabytes (a sed and a head per
# run were two processes more).
profile_status_of() {
  local line re='<psf-profile[^>]* status="([a-z_]*)"'
  PROFILE_STATUS=""
  while IFS= read -r line; do
    case $line in
      *'<psf-profile'*)
        [[ $line =~ $re ]] && PROFILE_STATUS=${BASH_REMATCH[1]}
        return 0 ;;
    esac
  done <"$1"
}
# profile_why PROFILE STATUS: the scorer's reading of a profile's message.
profile_why() {
  local why
  why=$("$SCORER" "${score_args[@]}" "$1" 2>&1 >/dev/null | head -n 1)
  why=${why#"psf-score: "}
  why=${why#"$1: "}
  printf '%s' "${why#"$2: "}"
}
