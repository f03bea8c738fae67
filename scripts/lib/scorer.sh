# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# scorer.sh - asking psf-score from get_score.sh: in the background while
# other checks go on (bg_scorer, scorer_answer), the cost table's check
# (check_costs), and reading a profile's status (sourced by
# scripts/get_score.sh; bash).
#
# psf-score answers quickly, but each answer is a process: the ones that
# can be asked early are asked in the background and read where they are
# needed, so they cost no wall-clock time of their own.
#
# Reads: SCORER, COSTS, score_args (profile_why).
# Sets: BG_FD, ANSWER_OUT, ANSWER_RC, SAYS, COSTS (absolute), COSTS_SHA256,
#   TABLE_FD, TABLE_CHECKED, TABLE_PENDING, PROFILE_STATUS.

# bg_scorer ARGS...: psf-score ARGS, started in the background (stdin
# /dev/null, its stdout and stderr caught); BG_FD is the descriptor its
# answer is read from (scorer_answer). A failure before then leaves it to end
# by itself: it holds none of the caller's streams.
bg_scorer() {
  exec {BG_FD}< <(
    exec </dev/null
    out=$(exec "$SCORER" "$@" 2>&1)
    printf '%s\n%s' "$?" "$out"
  )
}
# scorer_answer FD ARGS...: what psf-score ARGS answered, as
# out=$("$SCORER" ARGS 2>&1) would have it, in ANSWER_OUT, and its exit code
# in ANSWER_RC: read from FD (bg_scorer's, closed then), or, with FD empty
# or no answer there, asked now.
scorer_answer() {
  local fd=$1 answer=""
  shift
  if [ -n "$fd" ]; then
    IFS= read -r -d '' -u "$fd" answer
    exec {fd}<&-
  fi
  if [[ $answer == *$'\n'* ]]; then
    ANSWER_RC=${answer%%$'\n'*}
    ANSWER_OUT=${answer#*$'\n'}
  else
    ANSWER_OUT=$(exec "$SCORER" "$@" 2>&1)
    ANSWER_RC=$?
  fi
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
# whose release file gave its version), the check starts in the background
# (start_table_check, with the JDK's version probe) and its answer is read
# here; a table that turns out to be another one is checked here, at once.
# check_jdk chooses the table and leaves its answer pending (TABLE_PENDING)
# while the scratch directory and the guard are set up: it is read
# (finish_table) before the key's answer is acted on further (decide_sandbox)
# and before any failure is reported (fail) or a result signed
# (submission_fields), so a table that cannot be used is still reported
# before everything that is checked after the JDK.
COSTS_SHA256=""
TABLE_FD=""      # the background check's answer (bg_scorer)
TABLE_CHECKED="" # the table it checks
TABLE_PENDING="" # the chosen table's answer is still to be read (finish_table)
finish_table() {
  [ -z "$TABLE_PENDING" ] || check_costs
}
start_table_check() {
  abs_path TABLE_CHECKED "$1"
  bg_scorer --check-table --costs "$TABLE_CHECKED"
  TABLE_FD=$BG_FD
}
check_costs() {
  TABLE_PENDING=""
  [ "$COSTS" = none ] && return 0
  abs_path COSTS "$COSTS"
  [ "$TABLE_CHECKED" = "$COSTS" ] || { [ -z "$TABLE_FD" ] || exec {TABLE_FD}<&-; TABLE_FD=""; }
  scorer_answer "$TABLE_FD" --check-table --costs "$COSTS"
  TABLE_FD=""
  if [ "$ANSWER_RC" != 0 ]; then
    scorer_says "$ANSWER_OUT"
    # (reported unsigned, as where the JDK is checked: the table is part of
    # what is signed)
    SUBMISSION_PENDING="" SUBMISSION=""
    fail bad_input "the cost table is not usable: $SAYS"
  fi
  COSTS_SHA256=$ANSWER_OUT
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
