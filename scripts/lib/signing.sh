# shellcheck shell=bash disable=SC2034,SC2153,SC2154
# (SC2034, SC2153, SC2154: get_score.sh's parts set variables the others read.)
# signing.sh - the key that signs get_score.sh's results and the submission's
# identity it signs them for (sourced by scripts/get_score.sh; bash).
#
# The key is checked (psf-score --init-key) and the submission's digests
# taken (psf-score --submission-digests) in the background, by the batch of
# early questions (scripts/lib/scorer.sh), while the JDK, the cost table and
# the sandbox are seen to; their answers are read where they are first
# needed. docs/trust-model.md explains what is signed.
#
# Reads: SCORER, abs_classpath, MAIN, METHOD, PROGRAM_ARGS, JAVA_REAL,
#   COSTS_SHA256, JUDGED_BY, PSF_KEY_FILE, XDG_CONFIG_HOME, HOME.
# Sets: KEY_FILE (absolute; empty when results are unsigned), KEY_PENDING,
#   KEY_NAMED, SUBMISSION_DIGESTS, SUBMISSION, SUBMISSION_PENDING.

# --- signed results ----------------------------------------------------------------
# Kept profiles and JSON results are signed (psf-score --sign, HMAC-SHA256)
# with a key the grading server owns, for the submission's identity: digests
# of the class path's contents, the main class and method, the program's
# arguments, the JDK and the cost table. See docs/trust-model.md.
#
# The key file: --key-file, else $PSF_KEY_FILE, else psf/result.key under
# $XDG_CONFIG_HOME (default ~/.config), created (0600) when missing. A key
# file that was named and cannot be used is a usage error; when the default
# place cannot hold one, results are unsigned, with a warning. Only the key named here reaches psf-score.
# psf-score --init-key (a few ms) is asked early (ask_early) from here on,
# answered while the JDK, the table and the scratch directory are seen to,
# and its answer is read (finish_key) before the sandbox is decided, or first
# of all by a failure (fail): a key that cannot be used is refused before
# anything else is, as when it was checked here.
KEY_PENDING="" # the key check's answer is still to be read (finish_key)
KEY_NAMED=1    # the key file was named (--key-file, PSF_KEY_FILE)
# name_key: KEY_FILE (absolute) and KEY_NAMED, named before the paths are
# resolved (the sandbox's check resolves the key's with them, resolve_paths);
# prepare_key: the default key's directory made, the key's check asked.
name_key() {
  [ -n "$KEY_FILE" ] || KEY_FILE=${PSF_KEY_FILE:-}
  unset PSF_KEY_FILE
  if [ -z "$KEY_FILE" ]; then
    KEY_NAMED=0
    KEY_FILE=${XDG_CONFIG_HOME:-${HOME:-/nonexistent}/.config}/psf/result.key
  fi
  abs_path KEY_FILE "$KEY_FILE"
}
prepare_key() {
  # shellcheck disable=SC2174 # private: the key's own directory; its parents as the user keeps them
  [ "$KEY_NAMED" = 1 ] || [ -d "${KEY_FILE%/*}" ] || mkdir -p -m 700 "${KEY_FILE%/*}" 2>/dev/null
  ask_early key merge --init-key --key-file "$KEY_FILE"
  KEY_PENDING=1
}
finish_key() {
  [ -n "$KEY_PENDING" ] || return 0
  KEY_PENDING=""
  scorer_answer key --init-key --key-file "$KEY_FILE"
  if [ "$ANSWER_RC" != 0 ]; then
    scorer_says "$ANSWER_OUT"
    # (reported unsigned, as it was before the submission was known; and
    # before the cost table's answer, which is not read then: the key's
    # check comes first, scripts/lib/scorer.sh)
    SUBMISSION_PENDING="" SUBMISSION=""
    [ "$KEY_NAMED" = 1 ] && { TABLE_PENDING=""; fail usage "the key file cannot be used: $SAYS"; }
    echo "get_score.sh: warning: results are not signed: $SAYS (give --key-file)" >&2
    KEY_FILE=""
  fi
}
# The submission's digests (psf-score --submission-digests, scorer/submission.h),
# the signed fields on one line: of what the class path holds (a jar by its
# bytes, a directory by every regular file's path and bytes and every link's
# target; the text this script used to take with find, sort and sha256sum),
# the main class, the method, the program's arguments and the JDK (the
# launcher's resolved path, JAVA_REAL, and the release file beside it).
digest_fields() {
  exec "$SCORER" --submission-digests --classpath "$abs_classpath" --main "$MAIN" --method "$METHOD" \
    --jdk "$JAVA_REAL" -- "${PROGRAM_ARGS[@]}"
}
# Reading the whole class path takes a while: the digests are asked early
# (ask_digests), from as soon as the key is named, and taken while the
# checks and the sandbox's set-up go on; their answer is read
# (submission_digests) when it is first needed: by a failure that is
# reported signed, else just before the program runs, so the digests are of
# the class path as it was before the program could touch it. (What the
# scorer cannot read it says on the caller's stderr, as it reads.)
ask_digests() {
  ask_early digests pass --submission-digests --classpath "$abs_classpath" --main "$MAIN" --method "$METHOD" \
    --jdk "$JAVA_REAL" -- "${PROGRAM_ARGS[@]}"
}
# SUBMISSION_DIGESTS: the submission's digests as signed fields.
submission_digests() {
  local fields="" hex='[0-9a-f]{64}'
  SUBMISSION_DIGESTS=""
  [ -n "$KEY_FILE" ] || return 0
  if early_line digests; then
    fields=$ANSWER_OUT
  else
    fields=$(digest_fields)
  fi
  [[ $fields =~ ^classpath_sha256=$hex\ main_sha256=$hex\ method_sha256=$hex\ args_sha256=$hex\ jdk_sha256=$hex$ ]] ||
    fail internal_error "cannot take the digests of the submission"
  SUBMISSION_DIGESTS=$fields
}
# SUBMISSION: the fields psf-score signs (sign.h: name=value tokens): the
# digests, the cost table's and how the output is judged (judged_by:
# expect_output, check, junit or none; scripts/lib/judge.sh, which adds the
# verdict on a wrong output). (Set only once the JDK and the table passed
# their checks, SUBMISSION_PENDING: an error before then is reported
# unsigned, as it always was; from then on fail() sets it first.)
SUBMISSION_PENDING=""
submission_fields() {
  SUBMISSION_PENDING=""
  finish_table
  [ -n "$KEY_FILE" ] || return 0
  [ -n "$SUBMISSION_DIGESTS" ] || submission_digests
  SUBMISSION="$SUBMISSION_DIGESTS costs_sha256=${COSTS_SHA256:-none} judged_by=$JUDGED_BY"
}
# A signed copy of profile SRC at DEST (a plain copy when results are unsigned).
sign_copy() {
  if [ -z "$KEY_FILE" ]; then
    cp -- "$1" "$2"
  else
    "$SCORER" --sign --key-file "$KEY_FILE" --submission "$SUBMISSION" "$1" >"$2"
  fi
}
# sign_copy_or_fail SRC DEST: sign_copy, or the run ends as internal_error
# "cannot sign the profile", with psf-score's reason when it signed
# (scorer_why); what it said on stderr is passed on either way.
sign_copy_or_fail() {
  local rc=0
  sign_copy "$1" "$2" 2>"$SCRATCH/sign.err" || rc=$?
  [ ! -s "$SCRATCH/sign.err" ] || cat -- "$SCRATCH/sign.err" >&2
  [ "$rc" -ne 0 ] || return 0
  [ -n "$KEY_FILE" ] || fail internal_error "cannot sign the profile"
  scorer_why "$rc" "$SCRATCH/sign.err"
  fail internal_error "cannot sign the profile: $WHY"
}
