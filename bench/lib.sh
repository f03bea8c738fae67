# bench/lib.sh - what the benchmarks under bench/ share, sourced by each:
# where things are (ROOT, BUILD, JAVA, GS), the check that what they run was
# built, a scratch directory removed at exit, get_score.sh's flag arrays and
# the JDK's flags, and the median. Not a benchmark itself.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
GS=$ROOT/scripts/get_score.sh

# bench_need TARGET FILE...: exits 1, naming the first FILE that is missing
# and the make TARGET that builds it. Messages start with the script's name.
bench_need() {
  local target=$1 f
  shift
  for f in "$@"; do
    [ -e "$f" ] || { echo "${0##*/}: $f is missing: run it as 'make $target'" >&2; exit 1; }
  done
}

# bench_tmp: TMP, a scratch directory removed when the script exits.
bench_tmp() {
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
}

# gs_array NAME: the elements of get_score.sh's array NAME (PINNED_FLAGS,
# JIT_FLAGS), one a line: the benchmarks run the JVM as get_score.sh does.
gs_array() {
  sed -n "/^$1=(/,/^)/p" "$GS" | sed '1d;$d' | tr ' ' '\n' | sed '/^$/d'
}

# jdk_flags: the flags get_score.sh adds for JAVA's feature version
# (scripts/lib/jdk.sh: the JIT intrinsics of methods with bytecode off).
jdk_flags() {
  # shellcheck source=../scripts/lib/jdk.sh
  . "$ROOT/scripts/lib/jdk.sh"
  psf_jdk_flags "$(psf_jdk_feature "$JAVA")"
}

# median: the median of the numbers on stdin (the mean of the middle two
# for an even count); median_int rounds that mean down, for integers.
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
median_int() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
