# Integration tests: real JVM runs of the agent and get_score.sh on fixtures
# under tests/fixtures/agent/. Every fragment adds its groups to
# INTEGRATION_GROUPS (integration-scorer, ...); the Makefile makes
# `integration` of them and decides which run side by side in `make test`.
AGENT_FIXTURE_DIR   := $(BUILD)/fixtures/agent
AGENT_FIXTURE_STAMP := $(AGENT_FIXTURE_DIR)/.stamp

$(AGENT_FIXTURE_STAMP): $(wildcard tests/fixtures/agent/*.java)
	rm -rf $(AGENT_FIXTURE_DIR)
	mkdir -p $(AGENT_FIXTURE_DIR)
	$(JAVAC) --release 17 -d $(AGENT_FIXTURE_DIR) $^
	touch $@

ADV_FIXTURE_DIR   := $(BUILD)/fixtures/adversarial
ADV_FIXTURE_STAMP := $(ADV_FIXTURE_DIR)/.stamp

$(ADV_FIXTURE_STAMP): $(wildcard tests/fixtures/adversarial/*.java)
	rm -rf $(ADV_FIXTURE_DIR)
	mkdir -p $(ADV_FIXTURE_DIR)
	$(JAVAC) --release 17 -encoding UTF-8 -nowarn -XDignore.symbol.file -d $(ADV_FIXTURE_DIR) $^ 2>&1 | grep -v -e 'internal proprietary API' -e '^ *\^' -e 'sun.misc.Unsafe' -e 'warning' || true
	test -f $(ADV_FIXTURE_DIR)/Ends.class
	touch $@

.PHONY: integration-agent integration-adversarial
INTEGRATION_GROUPS += integration-agent integration-adversarial
integration-agent: all examples $(AGENT_FIXTURE_STAMP)
	@rc=0; for t in tests/integration/agent_*.sh; do PSF_BUILD=$(BUILD) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc
integration-adversarial: all $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP)
	@rc=0; for t in tests/integration/adversarial*.sh; do PSF_BUILD=$(BUILD) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc
	@echo "# tests/integration/adversarial.sh again, every run with --engine step"; \
	PSF_BUILD=$(BUILD) PSF_TEST_ENGINE=step $(RUN_TEST) bash tests/integration/adversarial.sh

# Core isolation scripts, run against fake cgroup trees only.
.PHONY: integration-isolation
INTEGRATION_GROUPS += integration-isolation
integration-isolation:
	@$(RUN_TEST) bash tests/integration/isolation_test.sh

# The HTML pages (leaderboard, report), JUnit reports and batch scoring:
# real browser checks in headless Chromium, screenshots kept under
# $(BUILD)/artifacts/.
.PHONY: integration-reports
INTEGRATION_GROUPS += integration-reports
integration-reports: all examples
	@rc=0; for t in tests/integration/reports_*.sh; do PSF_BUILD=$(BUILD) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc

# The block rewriter on real class files in a real JVM (agent/classfile/instrument.mk).
.PHONY: integration-instrument
INTEGRATION_GROUPS += integration-instrument
integration-instrument: all $(AGENT_FIXTURE_STAMP) $(PSF_REWRITE) $(PROBE_FIXTURE_STAMP)
	@PSF_BUILD=$(BUILD) $(RUN_TEST) bash tests/integration/instrument_jvm.sh

# The class files the JVM tests run, for scripts/self_test.sh --full.
.PHONY: integration-fixtures
integration-fixtures: $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP)

# The self-test on the default JDK (a pass, and a JDK whose javac emits other
# code failed), then the JDK-dependent suites on JDK 25: under
# /usr/lib/jvm/temurin-25-jdk-amd64 or PSF_JDK25_HOME; without one the
# summary says loudly that JDK 25 went untested. JDK 25's suites are in two
# scripts, one a group, so that make test can run them in its two lanes:
# jdk_25.sh (the self-test and most suites) here, jdk25_counting.sh (the
# scheduling of threads and the fast engine) in integration-jdk25, which
# the jdk_*.sh of this group do not take in.
.PHONY: integration-jdk integration-jdk25
INTEGRATION_GROUPS += integration-jdk integration-jdk25
integration-jdk: all examples $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP) $(PSF_REWRITE) $(PROBE_FIXTURE_STAMP)
	@rc=0; for t in tests/integration/jdk_*.sh; do PSF_BUILD=$(BUILD) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc
integration-jdk25: all $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP)
	@PSF_BUILD=$(BUILD) $(RUN_TEST) bash tests/integration/jdk25_counting.sh

# The fast counting engine against the step engine (agent/fast/fast.c), and
# deep recursion, type annotations on code and a thread the method did not
# start working while it counts (fast_deep.sh, fast_type_annotations.sh,
# fast_overlap.sh) under both, each on the default JDK and JDK 25.
.PHONY: integration-fast
INTEGRATION_GROUPS += integration-fast
integration-fast: all $(AGENT_FIXTURE_STAMP)
	@rc=0; for t in tests/integration/fast_engine.sh tests/integration/fast_deep.sh tests/integration/fast_type_annotations.sh tests/integration/fast_overlap.sh; do PSF_BUILD=$(BUILD) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc

# Code of hidden classes (lambdas, string concatenation, method handles)
# counted by the fast engine as by the step engine, on the default JDK and
# JDK 25 (fast_hidden.sh): a group of its own, so that make test runs it in
# lane B, beside integration-fast's lane A.
.PHONY: integration-fast-hidden
INTEGRATION_GROUPS += integration-fast-hidden
integration-fast-hidden: all $(AGENT_FIXTURE_STAMP)
	@PSF_BUILD=$(BUILD) $(RUN_TEST) bash tests/integration/fast_hidden.sh

# The fidelity corpora's programs compute the right answers (each corpus'
# check.sh), so that the benchmarks that score them compare one task.
.PHONY: integration-corpora
INTEGRATION_GROUPS += integration-corpora
integration-corpora:
	@$(RUN_TEST) bash tests/integration/fidelity_corpora.sh

# The agent's JVM suites once more with the agent built under AddressSanitizer
# and UBSan and loaded by a real JVM (unit-asan covers only the pure modules).
# $(ASAN_DIR) is a build folder like $(BUILD), whose libpsfagent.so is the
# sanitizer build and whose `java` preloads the sanitizer runtime (the JVM is
# not built with it). HotSpot handles SIGSEGV itself, so ASan must leave it
# alone; the JVM's own allocations are not the agent's leaks. A report
# aborts the JVM, which fails the test that ran it.
ASAN_DIR := $(BUILD)/agent-asan
.PHONY: integration-agent-asan
INTEGRATION_GROUPS += integration-agent-asan
integration-agent-asan: all $(AGENT_FIXTURE_STAMP)
	@$(MAKE) --no-print-directory BUILD=$(ASAN_DIR)/build SANITIZER=address,undefined $(ASAN_DIR)/build/libpsfagent.so
	@mkdir -p $(ASAN_DIR)/bin
	@for f in $(BUILD)/*; do case $${f##*/} in libpsfagent.so|agent-asan) ;; *) ln -sfn "$$(readlink -f $$f)" $(ASAN_DIR)/; esac; done
	@ln -sfn "$$(readlink -f $(ASAN_DIR)/build/libpsfagent.so)" $(ASAN_DIR)/libpsfagent.so
	@printf '#!/bin/sh\nLD_PRELOAD=%s ASAN_OPTIONS=handle_segv=0:allow_user_segv_handler=1:detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 exec %s "$$@"\n' \
	  "$$($(CC) -print-file-name=libasan.so)" "$$(readlink -f $$(command -v $(JAVA_HOME)/bin/java))" > $(ASAN_DIR)/bin/java
	@chmod +x $(ASAN_DIR)/bin/java
	@rc=0; for t in tests/integration/agent_counts.sh tests/integration/agent_contexts.sh tests/integration/fast_engine.sh; do \
	  echo "# $$t with the agent under ASan+UBSan"; \
	  env -u JAVA_HOME PATH=$(abspath $(ASAN_DIR))/bin:$$PATH PSF_BUILD=$(abspath $(ASAN_DIR)) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc
