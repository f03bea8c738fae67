#!/usr/bin/env bash
# build.sh OUT - compile the batch example's submissions into OUT: each one
# into OUT/NAME/classes, packaged as OUT/NAME/NAME.jar when the manifest
# names a jar, its sources copied to OUT/NAME/src, and the manifest beside
# them, so that `scripts/score_batch.sh --out DIR OUT/manifest.tsv` scores
# the batch. Called by `make examples`.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
JAVAC=${JAVAC:-javac}
JAR=${JAR:-$(dirname "$(readlink -f "$(command -v "$JAVAC")")")/jar}
rm -rf "$OUT"
mkdir -p "$OUT"
while IFS=$'\t' read -r label cp _ _ _ _; do
  case $label in '#'* | '') continue ;; esac
  mkdir -p "$OUT/$label/classes"
  cp -r "$HERE/submissions/$label/src" "$OUT/$label/src"
  mapfile -t sources < <(find "$OUT/$label/src" -name '*.java' | sort)
  "$JAVAC" --release 17 -d "$OUT/$label/classes" "${sources[@]}"
  case $cp in
    *.jar) "$JAR" --create --file "$OUT/$cp" -C "$OUT/$label/classes" . && rm -rf "$OUT/$label/classes" ;;
  esac
done <"$HERE/manifest.tsv"
cp "$HERE/manifest.tsv" "$OUT/manifest.tsv"
