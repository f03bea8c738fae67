#!/usr/bin/env bash
# run_tests.sh - the second command of the README (and what CI runs): install
# what is missing, build with warnings as errors, run every test: cmocka unit
# tests plain and under ASan+UBSan, integration tests with real JVM runs, and
# the scorer and calibrator under valgrind.
set -eu
case $# in
  0) ;;
  *) case $1 in
       -h|--help) printf '%s\n' "Usage: scripts/run_tests.sh" \
         "Installs what is missing (scripts/install_deps.sh), builds with warnings as errors" \
         "and runs every test: unit, integration, valgrind, fuzz (tens of minutes)." \
         "Exit: 0 every test passed, else the failing step's code."; exit 0 ;;
       *) echo "run_tests.sh: it takes no arguments, not '$1' (see --help)" >&2; exit 2 ;;
     esac ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/install_deps.sh"
make -C "$ROOT" -j"$(nproc)" WERROR=1 test-build
make -C "$ROOT" WERROR=1 test
make -C "$ROOT" WERROR=1 valgrind
make -C "$ROOT" WERROR=1 fuzz-ci
