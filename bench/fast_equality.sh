#!/usr/bin/env bash
# fast_equality.sh - does the fast counting engine give the step engine's
# profile on the fidelity corpora?
#
# For every program of the corpora (bench/fidelity/NAME: programs, sorting,
# strings, wordcount, paths, editdistance; each a directory of classes with
# `public static long run()` and a `main` that calls it), runs the agent
# directly twice, engine=step and engine=fast, on NAME.run from NAME's main,
# with get_score.sh's pinned flags, the JDK's flags of scripts/lib/jdk.sh
# and get_score.sh's heap, as bench/fidelity.sh scores them, and compares
# every field from <summary> on (the `fields` of
# tests/integration/fast_engine.sh). One line a program:
#   same      both status ok, every field identical (the work it counted;
#             "output differs" if the program printed something else, as
#             NativeHash does: identity hash codes are not the same from
#             one JVM setup to the next, and not a count)
#   fallback  the fast engine refused the run (status fallback): its reason
#   differ    both ok, the fields differ: the number of differing lines
#             and the first lines of the diff, step (<) against fast (>)
#   error     a run failed (no profile, a status other than ok/fallback,
#             the timeout): what it said
# then the counts per corpus and in all. Exits 0 when nothing differs, 1
# when any program is `differ` or `error`, 2 on a usage error. The java
# is $JAVA_HOME/bin/java when JAVA_HOME is set (as bench/fidelity.sh), else
# the one on PATH; the classes are compiled with its javac (--release 17).
# Everything goes to a temporary directory, removed at the end; the JVMs
# run in it. About 2 minutes for all 116 programs on 2 cores (JDK 17),
# most of it the step engine.
#
# Usage: bench/fast_equality.sh [--corpora LIST] [--jobs N] [--timeout S]
#                               [--keep DIR] [PROGRAM...]
#        make bench-equality [CORPORA=programs,sorting]
# --corpora: comma-separated corpus names under bench/fidelity (default
# all of them); --jobs: programs at a time (1 or 2, default 2: the machine
# has two cores); --timeout: seconds a run may take (default 600);
# --keep DIR: copy the profiles of the programs that are not `same` there;
# PROGRAM...: only these (class names, or CORPUS/NAME).
set -eu

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
CORPORA=""
JOBS=2
TIMEOUT=600
KEEP=""
while [ $# -gt 0 ]; do
  case $1 in
    --corpora) CORPORA=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "fast_equality.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case $JOBS in 1 | 2) ;; *) echo "fast_equality.sh: --jobs is 1 or 2 (the machine has two cores)" >&2; exit 2 ;; esac
case $TIMEOUT in '' | *[!0-9]* | 0) echo "fast_equality.sh: --timeout needs a positive number of seconds" >&2; exit 2 ;; esac
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP"
  KEEP=$(cd "$KEEP" && pwd)
fi
if [ -z "$CORPORA" ]; then
  for d in "$ROOT"/bench/fidelity/*/; do
    d=$(basename "$d")
    [ "$d" != tools ] && compgen -G "$ROOT/bench/fidelity/$d/*.java" >/dev/null && CORPORA=${CORPORA:+$CORPORA,}$d
  done
fi
IFS=, read -r -a CORPUS_LIST <<<"$CORPORA"
for c in "${CORPUS_LIST[@]}"; do
  { [ "$c" != tools ] && compgen -G "$ROOT/bench/fidelity/$c/*.java" >/dev/null; } ||
    { echo "fast_equality.sh: no corpus bench/fidelity/$c" >&2; exit 2; }
done

JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac
[ -e "$BUILD/libpsfagent.so" ] || { echo "fast_equality.sh: $BUILD/libpsfagent.so is missing: run it as 'make bench-equality'" >&2; exit 1; }
command -v timeout >/dev/null || { echo "fast_equality.sh: needs timeout (coreutils)" >&2; exit 1; }
. "$ROOT/scripts/lib/jdk.sh"
FEATURE=$(psf_jdk_feature "$JAVA")
[ -n "$FEATURE" ] || { echo "fast_equality.sh: cannot tell the version of $JAVA" >&2; exit 1; }
psf_jdk_supported "$FEATURE" || echo "fast_equality.sh: WARNING: PSF does not score with JDK $FEATURE ($PSF_SUPPORTED_JDKS)" >&2
JDK_VERSION=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p' | head -n 1)
# the flags of a scored run: get_score.sh's pinned flags, the JDK's, its heap
mapfile -t FLAGS < <(sed -n '/^PINNED_FLAGS=(/,/^)/p' "$ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')
mapfile -t JDK_FLAGS < <(psf_jdk_flags "$FEATURE")
HEAP=$(sed -n 's/^DEFAULT_HEAP=//p' "$ROOT/scripts/get_score.sh" | head -n 1)
if [ "${#FLAGS[@]}" -lt 5 ] || [ -z "$HEAP" ]; then
  echo "fast_equality.sh: cannot read PINNED_FLAGS and DEFAULT_HEAP from scripts/get_score.sh" >&2
  exit 1
fi
FLAGS+=("${JDK_FLAGS[@]}" "-Xms$HEAP" "-Xmx$HEAP")
# and the JIT flags of get_score.sh's runs (either engine)
mapfile -t JIT_FLAGS < <(sed -n '/^JIT_FLAGS=(/,/^)/p' "$ROOT/scripts/get_score.sh" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')

TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-equality.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"   # the JVMs' working directory (hs_err files, anything a program writes)

# the programs, "corpus name" a line, filtered by the PROGRAM arguments
: >"$TMP/programs"
for c in "${CORPUS_LIST[@]}"; do
  mkdir -p "$TMP/classes/$c"
  "$JAVAC" --release 17 -d "$TMP/classes/$c" "$ROOT/bench/fidelity/$c"/*.java
  for f in "$ROOT/bench/fidelity/$c"/*.java; do
    p=$(basename "$f" .java)
    if [ $# -gt 0 ]; then
      want=0
      for a in "$@"; do [ "$a" = "$p" ] || [ "$a" = "$c/$p" ] && want=1; done
      [ "$want" = 1 ] || continue
    fi
    echo "$c $p" >>"$TMP/programs"
  done
done
[ -s "$TMP/programs" ] || { echo "fast_equality.sh: no program matches $*" >&2; exit 2; }

# status PROFILE, message PROFILE (one line), fields PROFILE (as
# tests/integration/fast_engine.sh: every line from <summary> on)
status() { sed -n 's/.*<psf-profile[^>]* status="\([a-z_]*\)".*/\1/p' "$1" 2>/dev/null | head -n 1; }
message() {
  awk '/<message>/ { on = 1 } on { print } /<\/message>/ { exit }' "$1" 2>/dev/null |
    tr '\n' ' ' | sed 's/.*<message>//; s/<\/message>.*//; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g; s/  */ /g'
}
fields() { awk '/<summary/ { on = 1 } on' "$1"; }
work() { sed -n 's/.*<summary [^>]*work="\([0-9]*\)".*/\1/p' "$1" 2>/dev/null | head -n 1; }
short() { cut -c "1-${1}"; }

# run ENGINE CORPUS PROGRAM: one run; leaves $D/ENGINE.xml, .out, .err,
# .rc and .s (wall seconds)
run() {
  local e=$1 c=$2 p=$3 t0 t1 rc=0
  t0=$EPOCHREALTIME
  timeout -k 10 "$TIMEOUT" "$JAVA" "${FLAGS[@]}" "${JIT_FLAGS[@]}" \
    "-agentpath:$BUILD/libpsfagent.so=method=$p.run,out=$D/$e.xml,engine=$e" \
    -cp "$TMP/classes/$c" "$p" </dev/null >"$D/$e.out" 2>"$D/$e.err" || rc=$?
  t1=$EPOCHREALTIME
  echo "$rc" >"$D/$e.rc"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' >"$D/$e.s"
}

# failed ENGINE: why that run gave no usable profile, one line
failed() {
  local e=$1 rc st
  rc=$(cat "$D/$e.rc")
  st=$(status "$D/$e.xml")
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "$e: timed out after $TIMEOUT s"
  elif [ -z "$st" ]; then
    echo "$e: no profile (exit $rc: $(tail -n 3 "$D/$e.err" | tr '\n' ' ' | short 200))"
  else
    echo "$e: status $st: $(message "$D/$e.xml" | short 200)"
  fi
}

# one CORPUS PROGRAM: runs both engines, writes the result to
# $TMP/result/CORPUS.PROGRAM (first line: the line of the table; then any
# indented details) and a progress line to stderr
one() {
  local c=$1 p=$2 cls detail="" extra="" ss sf
  D=$TMP/run/$c.$p
  mkdir -p "$D"
  run step "$c" "$p"
  run fast "$c" "$p"
  ss=$(status "$D/step.xml")
  sf=$(status "$D/fast.xml")
  if [ "$ss" != ok ]; then
    cls=error detail=$(failed step)
  elif [ "$sf" = fallback ]; then
    # shortened: without the common preamble and the methods' descriptors
    cls=fallback detail=$(message "$D/fast.xml" | sed -E 's/^engine=fast cannot count this run exactly: //;
      s/\([^)]*\)(\[*L[^;]*;|\[*[VZBCSIJFD])//g' | short 200)
  elif [ "$sf" != ok ]; then
    cls=error detail=$(failed fast)
  elif ! grep -q '<psf-profile[^>]* engine="fast"' "$D/fast.xml"; then
    cls=error detail="fast: the profile is not marked engine=\"fast\""
  else
    fields "$D/step.xml" >"$D/step.fields"
    fields "$D/fast.xml" >"$D/fast.fields"
    if cmp -s "$D/step.fields" "$D/fast.fields"; then
      cls=same detail="work $(work "$D/step.xml")"
      # not a difference of the counts (identity hash codes differ from
      # one JVM setup to another), but worth seeing
      cmp -s "$D/step.out" "$D/fast.out" ||
        detail="$detail; output differs: step $(head -c 40 "$D/step.out" | tr '\n' ' ' | sed 's/ *$//'), fast $(head -c 40 "$D/fast.out" | tr '\n' ' ' | sed 's/ *$//')"
    else
      cls=differ
      detail="work step $(work "$D/step.xml") fast $(work "$D/fast.xml"); $(diff "$D/step.fields" "$D/fast.fields" | grep -c '^[<>]') lines differ"
      extra=$(diff "$D/step.fields" "$D/fast.fields" | head -n 12 | short 200 | sed 's/^/    /')
    fi
  fi
  {
    printf '%-12s %-24s %-8s step %6ss fast %5ss  %s\n' "$c" "$p" "$cls" "$(cat "$D/step.s")" "$(cat "$D/fast.s")" "$detail"
    [ -z "$extra" ] || printf '%s\n' "$extra"
  } >"$TMP/result/$c.$p"
  head -n 1 "$TMP/result/$c.$p" >&2
  if [ -n "$KEEP" ] && [ "$cls" != same ]; then
    cp "$D/step.xml" "$KEEP/$c.$p.step.xml" 2>/dev/null || true
    cp "$D/fast.xml" "$KEEP/$c.$p.fast.xml" 2>/dev/null || true
  fi
  rm -rf "$D"
}
export -f one run failed status message fields work short
export TMP BUILD JAVA TIMEOUT KEEP
export FLAGS_STR="${FLAGS[*]}"   # no flag holds a space
mkdir -p "$TMP/result" "$TMP/run"

START=$EPOCHREALTIME
echo "# bench/fast_equality.sh $(date -u '+%Y-%m-%d %H:%M UTC'): JDK $JDK_VERSION ($("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p' | head -n 1))"
echo "# PSF $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" status --porcelain -- agent common 2>/dev/null | grep -q . && echo ' (agent/ or common/ modified)'), agent $BUILD/libpsfagent.so; corpora ${CORPORA}; $JOBS at a time"
echo "# each: NAME.run from NAME's main, engine=step then engine=fast, pinned flags + JDK $FEATURE flags + -Xmx$HEAP + ${JIT_FLAGS[*]}; times are wall seconds"
for c in "${CORPUS_LIST[@]}"; do
  # shellcheck disable=SC2016 # expanded by the child shell
  awk -v c="$c" '$1 == c' "$TMP/programs" |
    xargs -P "$JOBS" -L 1 bash -c 'read -r -a FLAGS <<<"$FLAGS_STR"; one "$@"' _ ||
    echo "fast_equality.sh: a run of $c failed outside the engines (see above)" >&2
  for f in "$TMP/result/$c".*; do [ -e "$f" ] && cat "$f"; done
done

# the counts, per corpus and in all
echo
for c in "${CORPUS_LIST[@]}" all; do
  if [ "$c" = all ]; then files=("$TMP"/result/*); else files=("$TMP/result/$c".*); fi
  [ -e "${files[0]}" ] || continue
  head -q -n 1 "${files[@]}" | awk -v c="$c" '{ n[$3]++; t++ }
      / output differs: / { o++ }
    END { printf "summary %-12s %3d programs: same %d, fallback %d, differ %d, error %d", c, t, n["same"], n["fallback"], n["differ"], n["error"]
          printf o ? " (%d same with another output)\n" : "\n", o }'
done
awk -v a="$START" -v b="$EPOCHREALTIME" 'BEGIN { printf "# %.0f s\n", b - a }'
! head -q -n 1 "$TMP"/result/* | awk '$3 == "differ" || $3 == "error" { bad = 1 } END { exit !bad }'
