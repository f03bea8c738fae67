#!/usr/bin/env bash
# score_batch.sh - score every submission of an exercise with the same
# limits and cost table, N at a time on this machine or on several (GNU
# parallel, with its --sshlogin), keep every profile and result, and build
# the leaderboard page and the JUnit reports.
#
# Scores are deterministic, so where a submission runs does not change its
# result: a batch over ssh gives the same files as a batch run here
# (tests/integration/reports_batch.sh checks it). docs/reports.md has the
# layout of --out.
set -u

PSF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PSF_BUILD:-$PSF_ROOT/build}
SCORER=$BUILD/psf-score
JOB=$PSF_ROOT/scripts/lib/batch_job.sh

usage() {
  cat <<'USAGE'
Usage: score_batch.sh --out DIR [options] MANIFEST
       score_batch.sh --out DIR [options] --main CLASS --method SPEC SUBMISSIONS_DIR [-- ARGS...]

Scores every submission and writes into DIR (which must not exist or be empty):
  runs/LABEL/        profile.xml, result.json (get_score.sh --json), junit.xml,
                     program.out, stderr.txt, exit_code
  reports/LABEL.html each scored submission's student report, against --compare
                     PROFILE when given, else against the leader's profile
  leaderboard.html   the leaderboard page, linked to the reports; .csv and .json
  junit.xml          every submission's JUnit test case in one file

MANIFEST: one submission a line, tab-separated: label, class path, main class,
method, sources directory (or -), then the program's arguments; '#' starts a
comment; paths are relative to the manifest's directory; CRLF line ends are
read as LF. Labels are letters, digits, '.', '_' and '-'.
SUBMISSIONS_DIR: each subdirectory NAME is a submission labelled NAME (class path:
NAME/classes if present, else NAME, plus the jars in NAME; sources: NAME/src), and
each NAME.jar one labelled NAME; all share --main, --method and ARGS.

  --out DIR          where everything goes (required)
  -j, --jobs N       runs at a time on each machine (default: this machine's cores)
  --sshlogin LOGIN   run on LOGIN (GNU parallel's --sshlogin: [user@]host, or ':' for
                     this machine); repeat for several machines. Each needs PSF at
                     this same path, the submissions at the same paths, and
                     the JDK at this JAVA_HOME when it is set.
  --ssh CMD          the ssh command for the logins (default: ssh), e.g. 'ssh -F cfg'
  --costs FILE       cost table for every run (default: the one get_score.sh picks
                     for this machine's JDK, docs/jdks.md; 'none')
  --max-score N | --max-ratio R --compare PROFILE
                     the JUnit budget of every submission (get_score.sh --junit)
  --timeout S, --max-bytecodes N, --max-threads N, --heap SIZE, --sandbox MODE
                     limits for every run, as in get_score.sh
  --key-file FILE    the key every run signs with, on every machine (default: the one
                     get_score.sh picks here: $PSF_KEY_FILE, else psf/result.key under
                     $XDG_CONFIG_HOME or ~/.config, created if missing); a key named
                     here or by $PSF_KEY_FILE that cannot be made or read: usage error
  -h, --help         this text

Exit codes: 0 every submission has a result (scored or not: see the leaderboard),
2 usage (also a manifest line, a shared option, the --compare profile or the cost
table refused before anything runs), 70 some run produced no result at all (an ssh or machine failure),
or what the batch needs here is missing (PSF built, GNU parallel, jq, a JDK).
USAGE
}

die() { echo "score_batch.sh: $1" >&2; exit "${2:-2}"; }
abspath() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }

OUT=""
JOBS=""
SSHLOGINS=()
SSH=""
COSTS=""          # empty: the table of this machine's JDK (below)
MAIN=""
METHOD=""
RUN_OPTS=()       # passed to get_score.sh for every submission
COMPARE=""
KEY_FILE=""
POSITIONAL=()
DIR_ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || die "--out needs a DIR"; OUT=$2; shift 2 ;;
    -j|--jobs) [ $# -ge 2 ] || die "$1 needs N"; JOBS=$2; shift 2 ;;
    --sshlogin|-S) [ $# -ge 2 ] || die "--sshlogin needs a LOGIN"; SSHLOGINS+=("$2"); shift 2 ;;
    --ssh) [ $# -ge 2 ] || die "--ssh needs a command"; SSH=$2; shift 2 ;;
    --costs) [ $# -ge 2 ] || die "--costs needs a FILE"; COSTS=$2; shift 2 ;;
    --main) [ $# -ge 2 ] || die "--main needs a CLASS"; MAIN=$2; shift 2 ;;
    --method) [ $# -ge 2 ] || die "--method needs a SPEC"; METHOD=$2; shift 2 ;;
    --compare) [ $# -ge 2 ] || die "--compare needs a PROFILE"; COMPARE=$2; shift 2 ;;
    --key-file) [ $# -ge 2 ] || die "--key-file needs a FILE"; KEY_FILE=$2; shift 2 ;;
    --max-score|--max-ratio|--timeout|--max-bytecodes|--max-threads|--heap|--sandbox)
      [ $# -ge 2 ] || die "$1 needs a value"; RUN_OPTS+=("$1" "$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; DIR_ARGS=("$@"); break ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) POSITIONAL+=("$1"); shift ;;
  esac
done
[ -n "$OUT" ] || die "--out DIR is required (see --help)"
[ ${#POSITIONAL[@]} -eq 1 ] || die "give one MANIFEST or SUBMISSIONS_DIR (see --help)"
[ -z "$JOBS" ] || [[ $JOBS =~ ^[1-9][0-9]{0,3}$ ]] || die "--jobs takes a number from 1 to 9999, not '$JOBS'"
command -v parallel >/dev/null 2>&1 || die "GNU parallel is missing (scripts/install_deps.sh installs it)" 70
command -v jq >/dev/null 2>&1 || die "jq is missing (scripts/install_deps.sh installs it)" 70
[ -x "$SCORER" ] || die "PSF is not built: run make in $PSF_ROOT" 70
if [ -z "$COSTS" ]; then
  # the table get_score.sh would pick for the JDK here (JAVA_HOME, else PATH),
  # named to every run so that all machines and the ranking use the same one
  # shellcheck source=lib/jdk.sh
  . "$PSF_ROOT/scripts/lib/jdk.sh"
  feature=$(psf_jdk_feature "${JAVA_HOME:+$JAVA_HOME/bin/}java" 2>/dev/null)
  [ -n "$feature" ] ||
    die "no java $(if [ -n "${JAVA_HOME:-}" ]; then echo "at JAVA_HOME=$JAVA_HOME"; else echo on PATH; fi): no JDK to pick the cost table for (give one, or --costs FILE)" 70
  IFS=$'\t' read -r COSTS _ < <(psf_jdk_table "$PSF_ROOT" "$feature") ||
    die "no cost table under $PSF_ROOT/config for this machine's JDK" 70
fi
if [ "$COSTS" != none ]; then
  [ -r "$COSTS" ] || die "cannot read the cost table '$COSTS'"
  COSTS=$(abspath "$COSTS")
  # read as every run and the ranking will read it: a bad table is refused
  # here, not in each run and then by the leaderboard
  table_err=$("$SCORER" --check-table --costs "$COSTS" 2>&1 >/dev/null) ||
    die "the cost table is not usable: $(printf '%s\n' "$table_err" | sed -n '1s/^psf-score: //p')"
fi
RUN_OPTS+=(--costs "$COSTS")
if [ -n "$COMPARE" ]; then
  [ -r "$COMPARE" ] || die "cannot read the --compare profile '$COMPARE'"
  COMPARE=$(abspath "$COMPARE")
  RUN_OPTS+=(--compare "$(abspath "$COMPARE")")
fi
# One signing key for every job, on every machine: the one get_score.sh
# would pick here (--key-file, $PSF_KEY_FILE, else psf/result.key under
# $XDG_CONFIG_HOME or ~/.config), created now if missing, and named to each
# job, so that a job on another machine signs as one here does (the file
# must be at the same path there, like PSF and the submissions).
[ -n "$KEY_FILE" ] || KEY_FILE=${PSF_KEY_FILE:-}
KEY_NAMED=${KEY_FILE:+1}
if [ -z "$KEY_FILE" ]; then
  KEY_FILE=${XDG_CONFIG_HOME:-${HOME:-/nonexistent}/.config}/psf/result.key
  # shellcheck disable=SC2174 # private: the key's own directory; its parents as the user keeps them
  mkdir -p -m 700 "$(dirname -- "$KEY_FILE")" 2>/dev/null || true
fi
KEY_FILE=$(abspath "$KEY_FILE")
# The ranking checks every profile with the key the jobs signed with: a
# row is ranked only when that key signed it.
# A key named (--key-file, PSF_KEY_FILE) that cannot be used is refused, as
# get_score.sh refuses it; only the default one is done without.
key_args=()
if key_err=$("$SCORER" --init-key --key-file "$KEY_FILE" 2>&1 >/dev/null); then
  RUN_OPTS+=(--key-file "$KEY_FILE")
  key_args=(--key-file "$KEY_FILE")
elif [ -n "$KEY_NAMED" ]; then
  die "the key file cannot be used: $(printf '%s\n' "$key_err" | sed -n '1s/^psf-score: //p')"
else
  echo "score_batch.sh: warning: no usable key file at $KEY_FILE: each job signs with its own machine's default key, which cannot be checked here: no row of the leaderboard is verified" >&2
fi
# The options every run shares, checked once as get_score.sh checks them (a
# bad one would fail every submission alike): with a stand-in submission and
# the options each job adds (scripts/lib/batch_job.sh); nothing runs.
rc=0
opts_err=$("$PSF_ROOT/scripts/get_score.sh" --check-options --classpath "$PSF_ROOT" --method Submission.method \
  --junit /dev/null --label check "${RUN_OPTS[@]}" 2>&1 >/dev/null) || rc=$?
# (2: an option refused; 7: the --compare profile, which is part of the options)
[ "$rc" = 0 ] || die "$(printf '%s\n' "$opts_err" | sed -n '1s/^get_score.sh: \(usage: \|bad_input: \)\{0,1\}//p')" "$([ "$rc" = 2 ] || [ "$rc" = 7 ] && echo 2 || echo 70)"
[ ! -e "$OUT" ] || [ -d "$OUT" ] || die "--out $OUT is not a directory"
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
  die "--out $OUT exists and is not empty: results are never mixed with an earlier batch's"
fi
# The submissions' lines, read before --out is made: a manifest refused
# leaves --out as it was, for the corrected batch.
LINES=$(mktemp "${TMPDIR:-/tmp}/psf-batch.XXXXXXXX") || die "cannot create a temporary file" 70
trap 'rm -f "$LINES"' EXIT

# --- the submissions, one line each, paths absolute --------------------------
src=${POSITIONAL[0]}
: >"$LINES"
if [ -d "$src" ]; then
  [ -n "$MAIN" ] && [ -n "$METHOD" ] || die "a SUBMISSIONS_DIR needs --main CLASS and --method SPEC"
  base=$(cd "$src" && pwd)
  for entry in "$base"/*; do
    name=$(basename "$entry")
    cp="" sources=-
    if [ -d "$entry" ]; then
      [ -d "$entry/classes" ] && cp=$entry/classes
      for jar in "$entry"/*.jar; do [ -e "$jar" ] && cp=${cp:+$cp:}$jar; done
      [ -n "$cp" ] || cp=$entry
      [ -d "$entry/src" ] && sources=$entry/src
    elif [[ $name == *.jar ]]; then
      cp=$entry
      name=${name%.jar}
    else
      continue
    fi
    printf '%s\t%s\t%s\t%s\t%s' "$name" "$cp" "$MAIN" "$METHOD" "$sources" >>"$LINES"
    for a in "${DIR_ARGS[@]}"; do printf '\t%s' "$a" >>"$LINES"; done
    printf '\n' >>"$LINES"
  done
else
  [ -r "$src" ] || die "cannot read the manifest '$src'"
  [ -z "$MAIN$METHOD" ] && [ ${#DIR_ARGS[@]} -eq 0 ] || die "--main, --method and -- ARGS go with a SUBMISSIONS_DIR; a manifest names them per line"
  base=$(cd "$(dirname "$src")" && pwd)
  n=0
  while IFS= read -r raw || [ -n "$raw" ]; do
    n=$((n + 1))
    raw=${raw%$'\r'}   # a manifest saved with CRLF line ends (a spreadsheet's)
    case $raw in '#'* | '') continue ;; esac
    IFS=$'\t' read -r -a f <<<"$raw"
    [ ${#f[@]} -ge 5 ] || die "$src:$n: expected label, class path, main, method and sources, tab-separated"
    cp=""
    IFS=: read -r -a parts <<<"${f[1]}"
    for p in "${parts[@]}"; do
      case $p in /*) ;; *) p=$base/$p ;; esac
      cp=${cp:+$cp:}$p
    done
    sources=${f[4]}
    case $sources in -|/*) ;; *) sources=$base/$sources ;; esac
    printf '%s\t%s\t%s\t%s\t%s' "${f[0]}" "$cp" "${f[2]}" "${f[3]}" "$sources" >>"$LINES"
    for a in "${f[@]:5}"; do printf '\t%s' "$a" >>"$LINES"; done
    printf '\n' >>"$LINES"
  done <"$src"
fi
mapfile -t LABELS < <(cut -f1 "$LINES")
[ ${#LABELS[@]} -gt 0 ] || die "no submissions in '$src'"
for l in "${LABELS[@]}"; do
  [[ $l =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$ ]] || die "label '$l': use letters, digits, '.', '_' and '-'"
done
dup=$(printf '%s\n' "${LABELS[@]}" | sort | uniq -d | head -n 1)
[ -z "$dup" ] || die "label '$dup' appears twice"
# runs/ made by one mkdir, which fails when it exists: of two batches
# started at once on one --out, only one goes on
if ! mkdir -p -- "$OUT" || ! mkdir -- "$OUT/runs" 2>/dev/null; then
  [ ! -d "$OUT/runs" ] || die "--out $OUT: another batch has just started there: results are never mixed"
  die "cannot create $OUT" 70
fi
OUT=$(cd "$OUT" && pwd)
# (--out is this batch's from here on: a batch refused it never removes
# what is in it, such as the running one's .stream)
trap 'rm -f "$LINES" "$OUT/.stream"' EXIT

# --- the runs ----------------------------------------------------------------------
# PSF_BUILD, and JAVA_HOME where it is set, reach the jobs on other machines
# too (parallel --env): every run uses the JDK the table above belongs to.
export PSF_BUILD=$BUILD
par=(parallel --will-cite --quote --halt never --line-buffer --env PSF_BUILD)
[ -n "${JAVA_HOME:-}" ] && par+=(--env JAVA_HOME)
[ -n "$JOBS" ] && par+=(-j "$JOBS")
[ -n "$SSH" ] && par+=(--ssh "$SSH")
for s in "${SSHLOGINS[@]}"; do par+=(--sshlogin "$s"); done
echo "score_batch.sh: scoring ${#LABELS[@]} submissions${SSHLOGINS[*]:+ on ${SSHLOGINS[*]}}" >&2
"${par[@]}" -a "$LINES" "$JOB" {} "${RUN_OPTS[@]}" >"$OUT/.stream"

# Unpack each job's line: LABEL <tab> base64(gzip(tar of LABEL/)).
while IFS=$'\t' read -r label data; do
  printf '%s\n' "${LABELS[@]}" | grep -qxF -- "$label" || continue
  [ ! -e "$OUT/runs/$label" ] || continue
  printf '%s' "$data" | base64 -d | gunzip | tar -C "$OUT/runs" --no-same-owner -xf - "$label" ||
    echo "score_batch.sh: $label: the result could not be unpacked" >&2
done <"$OUT/.stream"

# --- leaderboard and JUnit --------------------------------------------------------
rank_args=()
scored=()
missing=0
for label in "${LABELS[@]}"; do
  d=$OUT/runs/$label
  if [ ! -s "$d/result.json" ]; then
    missing=1
    rank_args+=(--failed "$label=internal_error:the run produced no result (a failed ssh login or job)")
    continue
  fi
  # The kept profile is named relative to the run's directory: the job's
  # temporary path means nothing here.
  jq -S 'if .profile then .profile = "profile.xml" else . end' "$d/result.json" >"$d/result.json.tmp" &&
    mv "$d/result.json.tmp" "$d/result.json"
  status=$(jq -r '.status' "$d/result.json")
  if [ "$status" = ok ] && [ -s "$d/profile.xml" ]; then
    rank_args+=("$label=runs/$label/profile.xml")
    scored+=("$label")
  else
    rank_args+=(--failed "$label=$status:$(jq -r '.message // ""' "$d/result.json")")
  fi
done
costs_args=()
[ "$COSTS" = none ] || costs_args=(--costs "$COSTS")
cd "$OUT" || exit 70
# One ranking, written three ways: its messages (a row not signed with the
# key, a duplicate submission) are said once, by the first.
"$SCORER" --rank "${costs_args[@]}" "${key_args[@]}" --format html --report-links reports/ "${rank_args[@]}" \
  2> >(grep -vF 'no --key-file or PSF_KEY_FILE' >&2) >leaderboard.html
"$SCORER" --rank "${costs_args[@]}" "${key_args[@]}" --format csv "${rank_args[@]}" 2>/dev/null >leaderboard.csv
"$SCORER" --rank "${costs_args[@]}" "${key_args[@]}" --format json "${rank_args[@]}" 2>/dev/null >leaderboard.json

# The student reports, each against the reference: --compare, else the
# leader (the first ranked in the CSV).
mkdir -p reports
leader=$(awk -F, 'NR == 2 && $1 != "" { print $2 }' leaderboard.csv)
ref=${COMPARE:+$(abspath "$COMPARE")}
[ -n "$ref" ] || [ -z "$leader" ] || ref=$OUT/runs/$leader/profile.xml
# each report shows the submission's own sources line by line (manifest column 5)
declare -A SOURCES=()
while IFS=$'\t' read -r l _ _ _ src _; do
  [ "$src" = - ] || SOURCES[$l]=$src
done <"$LINES"
for label in "${scored[@]}"; do
  cmp=() src=()
  [ -z "$ref" ] || [ "$ref" = "$OUT/runs/$label/profile.xml" ] || cmp=(--compare "$ref")
  [ -z "${SOURCES[$label]:-}" ] || src=(--sources "${SOURCES[$label]}")
  "$SCORER" "${costs_args[@]}" --report "reports/$label.html" --label "$label" "${cmp[@]}" "${src[@]}" \
    "runs/$label/profile.xml" >/dev/null || echo "score_batch.sh: $label: no report" >&2
done

# One JUnit file: every run's <testsuite> under one <testsuites>.
{
  tests=0 failures=0
  for label in "${LABELS[@]}"; do
    [ -s "runs/$label/junit.xml" ] || continue
    tests=$((tests + 1))
    grep -q '<failure' "runs/$label/junit.xml" && failures=$((failures + 1))
  done
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="psf" tests="%d" failures="%d" errors="0">\n' "$tests" "$failures"
  for label in "${LABELS[@]}"; do
    [ -s "runs/$label/junit.xml" ] && sed -n '/^  <testsuite[ >]/,/^  <\/testsuite>/p' "runs/$label/junit.xml"
  done
  printf '</testsuites>\n'
} >junit.xml
"$SCORER" --rank "${costs_args[@]}" "${key_args[@]}" "${rank_args[@]}" 2>/dev/null
echo "score_batch.sh: $OUT/leaderboard.html" >&2
[ "$missing" = 0 ] || exit 70
exit 0
