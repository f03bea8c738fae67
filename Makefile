# PSF top-level Makefile.
#
# Each component keeps its rules in its own fragment (agent/agent.mk,
# scorer/scorer.mk, calibrate/calibrate.mk, tests/unit/unit.mk, ...), so the
# pieces can grow independently; this file holds only what they share.
#
#   make                 build everything into build/
#   make test            unit tests (plain and ASan+UBSan) and integration tests
#   make unit            unit tests only
#   make unit-asan       unit tests under AddressSanitizer + UBSan
#   make integration     integration tests (real JVM runs)
#   make valgrind        scorer and calibrator under valgrind
#   make bench           benchmarks under bench/
#   WERROR=1             turn warnings into errors (CI does)
#   SANITIZER=address,undefined   build everything with sanitizers

CC       ?= cc
BUILD    ?= build
JAVA_HOME ?= $(shell dirname $$(dirname $$(readlink -f $$(command -v javac))))
JAVAC    ?= $(JAVA_HOME)/bin/javac

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L
OPT      ?= -O2 -g
CFLAGS   ?=
CFLAGS   += $(CSTD) $(WARN) $(OPT)
ifeq ($(WERROR),1)
CFLAGS   += -Werror
endif
ifneq ($(SANITIZER),)
CFLAGS   += -fsanitize=$(SANITIZER) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS  += -fsanitize=$(SANITIZER)
endif

XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
JNI_CFLAGS := -isystem $(JAVA_HOME)/include -isystem $(JAVA_HOME)/include/linux

.PHONY: all test check unit unit-asan integration valgrind bench clean
all:

include common/common.mk
include agent/agent.mk
include $(wildcard scorer/scorer.mk)
include $(wildcard calibrate/calibrate.mk)
include $(wildcard tests/unit/unit.mk)
include $(wildcard tests/integration/integration.mk)
include $(wildcard bench/bench.mk)
include $(wildcard examples/examples.mk)

# Every test script runs through tests/run_test.sh, which appends its outcome
# to $(TEST_SUMMARY); under CI (CI=true) a skipped script fails the run.
TEST_SUMMARY := $(BUILD)/test-summary.tsv
RUN_TEST     := bash tests/run_test.sh $(TEST_SUMMARY)

# `make test` runs the unit tests, then the integration groups in two lanes
# side by side (each script's output printed whole when it ends, so the
# log reads as if they had run one after the other), then the calibration
# alone: it times kernels, and a second lane on the other core would show
# in its figures. Lane A holds the long groups whose checks are exact
# counts; every other group, a new one included, runs in lane B. The rule:
# each lane's scripts take about half of the two lanes' seconds (the last
# column of $(TEST_SUMMARY)), so that the lanes end together. For that
# JDK 25's suites are split between jdk_25.sh (lane A) and
# jdk25_counting.sh (integration-jdk25, lane B), and jdk_25.sh names each
# suite's seconds; when one lane outgrows the other, move a group or a
# JDK 25 suite across.
TEST_LANE_A := integration-agent-asan integration-jdk integration-fast integration-instrument
TEST_ALONE  := integration-calibrate
TEST_LANE_B  = $(filter-out $(TEST_LANE_A) $(TEST_ALONE),$(INTEGRATION_GROUPS))
.PHONY: test-lane-a test-lane-b
test:
	@mkdir -p $(BUILD); rm -f $(TEST_SUMMARY)
	@$(MAKE) --no-print-directory test-prereqs
	@rc=0; $(MAKE) --no-print-directory -k unit unit-asan || rc=$$?; \
	  PSF_TEST_BUFFER=1 $(MAKE) --no-print-directory -k -j2 test-lane-a test-lane-b || rc=$$?; \
	  $(MAKE) --no-print-directory -k $(TEST_ALONE) || rc=$$?; \
	  bash tests/test_summary.sh $(TEST_SUMMARY) || rc=1; exit $$rc
test-lane-a:
	@$(MAKE) --no-print-directory -k -j1 $(TEST_LANE_A)
test-lane-b:
	@$(MAKE) --no-print-directory -k -j1 $(TEST_LANE_B)
check: test

$(BUILD):
	mkdir -p $@

clean:
	rm -rf $(BUILD)
include $(wildcard tests/fuzz/fuzz.mk)

# Every group a fragment added (make integration runs them one at a time).
integration: $(INTEGRATION_GROUPS)

# Everything `make test`, `make valgrind` and `make fuzz-ci` need, built in
# one go (`make -j2 test-build` compiles side by side). test-prereqs is what
# the tests need; `make test` builds it first, so that its two lanes never
# build the same file at once.
.PHONY: test-build test-prereqs
test-build: test-prereqs $(FUZZ_BINS)
test-prereqs: all examples $(UNIT_BINS) $(UNIT_ASAN_BINS) integration-fixtures $(PSF_REWRITE) $(PROBE_FIXTURE_STAMP)
	@$(MAKE) --no-print-directory BUILD=$(ASAN_DIR)/build SANITIZER=address,undefined $(ASAN_DIR)/build/libpsfagent.so
