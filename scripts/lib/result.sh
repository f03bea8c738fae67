# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# result.sh - the result of the runs: the scorer's options, the scored
# profile signed and scored, --runs compared, the score file and the result
# printed with the scorer's exit code (sourced by scripts/get_score.sh; bash).
#
# Reads: COSTS, COSTS_SHA256, WITH_OVERHEAD, EXPLAIN, JSON, RUNS, scores,
#   first_profile, PROFILE_OUT, FALLBACK, JUDGED_BY, KEY_FILE, SUBMISSION,
#   JUNIT_ARGS, SCORE_FILE, SCRATCH.
# Sets: score_args, view_args (score_options).

# score_options: score_args and view_args, for every psf-score that scores.
score_options() {
  score_args=()
  if [ "$COSTS" != none ]; then
    score_args+=(--costs "$COSTS" --costs-sha256 "$COSTS_SHA256")
  fi
  [ "$WITH_OVERHEAD" = 1 ] && score_args+=(--with-overhead)
  view_args=()
  [ "$EXPLAIN" = 1 ] && view_args+=(--explain)
  [ "$JSON" = 1 ] && view_args+=(--json)
}

# ask_tsc: this machine's TSC rate, asked early (scripts/lib/scorer.sh).
ask_tsc() {
  # The result compares a calibrated table with this machine, whose TSC rate
  # takes psf-score 20 ms of sleeping to measure: measured in the background,
  # with the other early questions, and handed to the scorer that writes the
  # result (--tsc-hz). (Its stderr goes nowhere.)
  [ "$COSTS" = none ] || ask_early tsc drop --measure-tsc
}

# print_result: the result printed; exits with the scorer's code.
print_result() {
  # The score always comes from the authenticated profile in this run's own
  # scratch directory; the kept copy (--profile-out) is only what the output
  # names, since another process may write that path at any time.
  keep_profile "$first_profile"
  # (without --profile-out no profile is kept: the output names none)
  if [ -n "$PROFILE_OUT" ]; then
    view_args+=(--profile-name "$PROFILE_OUT")
  else
    view_args+=(--no-profile-name)
  fi
  if early_line tsc; then
    tsc_hz=$ANSWER_OUT
    # (no rate, 0 when none can be measured: the scorer measures or says so)
    [[ $tsc_hz =~ ^[1-9][0-9]{6,10}$ ]] && view_args+=(--tsc-hz "$tsc_hz")
  fi
  [ -z "$FALLBACK" ] || view_args+=(--fallback "$FALLBACK")
  view_args+=(--judged-by "$JUDGED_BY")
  # What is scored is the signed copy, checked with the key. A single run's
  # copy, unless --profile-out made it already, is made by the scorer that
  # writes the result (--signed-copy: signed as --sign signs, first of all,
  # then scored as if read back), one process instead of two; a profile it
  # cannot sign leaves no copy.
  signed=$first_profile.signed
  if [ "$RUNS" -eq 1 ] && [ -n "$KEY_FILE" ] && [ ! -s "$signed" ]; then
    scored=(--submission "$SUBMISSION" --signed-copy "$signed" "$first_profile")
  else
    [ -s "$signed" ] || sign_copy_or_fail "$first_profile" "$signed"
    scored=("$signed")
  fi
  [ -z "$KEY_FILE" ] || view_args+=(--key-file "$KEY_FILE")

  # (the distinct non-empty scores; one score is counted without a sort and a grep)
  ndistinct=0
  if [ ${#scores[@]} -eq 1 ]; then
    [ -z "${scores[0]}" ] || ndistinct=1
  elif [ ${#scores[@]} -gt 1 ]; then
    ndistinct=$(printf '%s\n' "${scores[@]}" | sort -u | grep -c .)
  fi
  if [ "$ndistinct" -gt 1 ]; then
    fail unstable "the score differed between the $RUNS runs: $(printf '%s\n' "${scores[@]}" | sort -u | tr '\n' ' ')(docs/determinism.md)"
  fi
  if [ "$RUNS" -gt 1 ] && [ "$JSON" = 1 ] && [ "$ndistinct" -eq 1 ]; then
    command -v jq >/dev/null 2>&1 || fail internal_error "--runs with --json needs jq (scripts/install_deps.sh installs it)"
    "$SCORER" "${score_args[@]}" "${view_args[@]}" "${JUNIT_ARGS[@]}" "${scored[@]}" >"$SCRATCH/result.json"
    rc=$?
    jq --argjson runs "$RUNS" '. + {runs: $runs, distinct_scores: 1}' "$SCRATCH/result.json" >"$SCRATCH/result.out" || rc=70
  else
    # (its stderr kept, then passed on: a copy it did not make is reported
    # with what it said, or how it ended). Run by the batch that answered
    # the early questions, which has waited for it (scripts/lib/scorer.sh),
    # else by a psf-score of its own.
    if batch_request "$SCRATCH/result.out" "$SCRATCH/score.err" \
      "${score_args[@]}" "${view_args[@]}" "${JUNIT_ARGS[@]}" "${scored[@]}"; then
      rc=$BATCH_RC
    else
      "$SCORER" "${score_args[@]}" "${view_args[@]}" "${JUNIT_ARGS[@]}" "${scored[@]}" >"$SCRATCH/result.out" 2>"$SCRATCH/score.err"
      rc=$?
    fi
    [ ! -s "$SCRATCH/score.err" ] || cat -- "$SCRATCH/score.err" >&2
    [ -s "$signed" ] || { scorer_why "$rc" "$SCRATCH/score.err"; fail internal_error "cannot sign the profile: $WHY"; }
    if [ "$RUNS" -gt 1 ] && [ "$ndistinct" -eq 1 ]; then echo "runs      $RUNS, all with the same score" >>"$SCRATCH/result.out"; fi
  fi
  # The score file is in place before the result is printed, so that a score
  # file that cannot be written is the one result (with --json, one object).
  if [ -n "$SCORE_FILE" ] && [ "$rc" -eq 0 ]; then
    printf '%s\n' "${scores[0]}" >"$SCRATCH/score"
    publish "$SCRATCH/score" "$SCORE_FILE" --score-file ||
      fail internal_error "cannot write the score file '$SCORE_FILE'"
  elif [ "$rc" -ne 0 ]; then
    drop_score_file
  fi
  trap '' PIPE
  print_file "$SCRATCH/result.out"
  exit "$rc"
}
# scorer_why RC FILE: why a psf-score that exited RC, its stderr in FILE,
# did not do its work, in WHY: the last thing it said ("psf-score: ..."),
# else the signal that ended it (killed on a loaded machine, it says
# nothing), else its exit code.
scorer_why() {
  local line sig
  WHY=""
  while IFS= read -r line; do
    [[ $line == "psf-score: "* ]] && WHY=${line#psf-score: }
  done <"$2"
  [ -z "$WHY" ] || return 0
  if [ "$1" -gt 128 ] && sig=$(kill -l "$1" 2>/dev/null); then
    WHY="psf-score was ended by SIG$sig"
  else
    WHY="psf-score exited $1 without saying why"
  fi
}
# print_file FILE: FILE on stdout; its first 16 KiB by the shell itself (a
# result is text without a NUL byte, and nearly always shorter: a cat was a
# process more), the rest, if any, by a cat (the shell reads a byte at a time
# in effect, some 0.1 s a MiB). A reader that went away is said on stderr and
# changes no exit code, as with cat alone (SIGPIPE is ignored by then).
print_file() {
  local LC_ALL=C out="" fd
  exec {fd}<"$1" || return 0
  IFS= read -r -N 16384 -u "$fd" out
  printf '%s' "$out"
  [ ${#out} -lt 16384 ] || cat <&"$fd"
  exec {fd}<&-
}
