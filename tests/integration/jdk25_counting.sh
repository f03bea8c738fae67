#!/usr/bin/env bash
# jdk25_counting.sh - two counting suites on JDK 25: the scheduling of
# threaded code (adversarial_sched.sh) and the fast engine's profiles
# against the step engine's (fast_engine.sh), each run with JAVA_HOME at
# JDK 25 and passing.
#
# jdk_25.sh runs the self-test and the other JVM suites on 25 but the
# calibration's (calibrate_jdk25.sh); this part is a script of its own so
# that make test runs it in the other lane, beside jdk_25.sh
# (integration-jdk25 in tests/integration/integration.mk).
# JDK 25 is PSF_JDK25_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64; without
# it the test says so loudly and exits 77.
set -eu
. "$(dirname "$0")/lib.sh"
require_jdk25

suites_on_jdk25 adversarial_sched.sh fast_engine.sh

finish
