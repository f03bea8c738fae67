#!/usr/bin/env bash
# try_example.sh - the first command of the README: install what is missing,
# build PSF and the examples every command of the README uses (the batch and
# the JUnit exercise too), and score the bundled example (two sorts of the
# same 200 numbers).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/install_deps.sh"
make -C "$ROOT" -s all examples
EX=$ROOT/build/examples
for m in bubbleSort insertionSort; do
  echo "== Sorting.$m"
  "$ROOT/scripts/get_score.sh" --classpath "$EX" --main Sorting --method "Sorting.$m" \
    --program-output /dev/null -- 200
done
