#!/usr/bin/env bash
# check_corpus.sh CHECKER DIR - compile the one-task corpus DIR with the
# checker tools and run CHECKER (e.g. StringsCheck) on every program of it.
# Each corpus' check.sh calls this; bench/fidelity.sh runs check.sh first.
set -eu
CHECKER=$1
DIR=$(cd "$2" && pwd)
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac
OUT=$BUILD/bench/fidelity/$(basename "$DIR")-check
rm -rf "$OUT"
mkdir -p "$OUT"
"$JAVAC" --release 17 -d "$OUT" "$DIR"/*.java "$ROOT/bench/fidelity/tools/CorpusCheck.java" \
  "$ROOT/bench/fidelity/tools/$CHECKER.java"
NAMES=()
for f in "$DIR"/*.java; do NAMES+=("$(basename "$f" .java)"); done
"$JAVA" -cp "$OUT" "$CHECKER" "${NAMES[@]}"
