#!/usr/bin/env bash
# check.sh - every program of the generic sorting corpus sorts the same
# Integer[] input, sorts it correctly (against Arrays.sort of a copy) and
# returns the same checksum from run(). bench/fidelity.sh runs it before
# scoring this corpus.
set -eu
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac
OUT=$BUILD/bench/fidelity/generic-check
rm -rf "$OUT"
mkdir -p "$OUT"
"$JAVAC" --release 17 -d "$OUT" "$HERE"/*.java "$ROOT"/bench/fidelity/tools/SortingCheck.java
NAMES=()
for f in "$HERE"/*.java; do NAMES+=("$(basename "$f" .java)"); done
"$JAVA" -cp "$OUT" SortingCheck "${NAMES[@]}"
