#!/usr/bin/env bash
# calibrate_jdk25.sh - the calibration suites on JDK 25: a quick calibration
# (calibrate_quick.sh) and the fidelity check of calibrate_machine.sh's quick
# path, each run with JAVA_HOME at JDK 25.
#
# They time kernels, so they run in make test's calibration phase, alone on
# the machine, not in jdk_25.sh, whose lane shares the cores with another:
# a kernel timed beside a second lane can come out at a price of 0, which
# the calibrator refuses.
# JDK 25 is PSF_JDK25_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64; without
# it the test says so loudly and exits 77.
set -eu
. "$(dirname "$0")/lib.sh"
require_jdk25

suites_on_jdk25 calibrate_quick.sh calibrate_machine.sh

finish
