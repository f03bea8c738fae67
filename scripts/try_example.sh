#!/usr/bin/env bash
# try_example.sh - the first command of the README: install what is missing,
# build PSF and the examples every command of the README uses (the batch and
# the JUnit exercise too), and score the bundled example (two sorts of the
# same 200 numbers).
set -eu
case $# in
  0) ;;
  *) case $1 in
       -h|--help) printf '%s\n' "Usage: scripts/try_example.sh" \
         "Installs what is missing (scripts/install_deps.sh), builds PSF and the examples" \
         "and scores examples/Sorting.java's two sorts of the same 200 numbers."; exit 0 ;;
       *) echo "try_example.sh: it takes no arguments, not '$1' (see --help)" >&2; exit 2 ;;
     esac ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/install_deps.sh"
make -C "$ROOT" -s all examples
EX=$ROOT/build/examples
for m in bubbleSort insertionSort; do
  echo "== Sorting.$m"
  "$ROOT/scripts/get_score.sh" --classpath "$EX" --main Sorting --method "Sorting.$m" \
    --program-output /dev/null -- 200
done
