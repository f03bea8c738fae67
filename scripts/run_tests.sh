#!/usr/bin/env bash
# run_tests.sh - the second command of the README (and what CI runs): install
# what is missing, build with warnings as errors, run every test: cmocka unit
# tests plain and under ASan+UBSan, integration tests with real JVM runs, and
# the scorer and calibrator under valgrind.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/install_deps.sh"
make -C "$ROOT" -j"$(nproc)" WERROR=1 test-build
make -C "$ROOT" WERROR=1 test
make -C "$ROOT" WERROR=1 valgrind
make -C "$ROOT" WERROR=1 fuzz-ci
