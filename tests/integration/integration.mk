# Integration tests: real JVM runs of the agent and get_score.sh on fixtures
# under tests/fixtures/agent/. Other components append their own targets to
# `integration` in their fragments (integration-scorer, ...).
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
integration: integration-agent integration-adversarial
integration-agent: all examples $(AGENT_FIXTURE_STAMP)
	@set -e; for t in tests/integration/agent_*.sh; do echo "== $$t"; PSF_BUILD=$(BUILD) bash $$t; done
integration-adversarial: all $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP)
	@set -e; for t in tests/integration/adversarial*.sh; do echo "== $$t"; PSF_BUILD=$(BUILD) bash $$t; done
	@echo "== tests/integration/adversarial.sh, every run with --engine step"; \
	PSF_BUILD=$(BUILD) PSF_TEST_ENGINE=step bash tests/integration/adversarial.sh

# Core isolation scripts, run against fake cgroup trees only.
.PHONY: integration-isolation
integration: integration-isolation
integration-isolation:
	@echo "== tests/integration/isolation_test.sh"; bash tests/integration/isolation_test.sh

# The HTML pages (leaderboard, report), JUnit reports and batch scoring:
# real browser checks in headless Chromium, screenshots kept under
# $(BUILD)/artifacts/.
.PHONY: integration-reports
integration: integration-reports
integration-reports: all examples
	@set -e; for t in tests/integration/reports_*.sh; do echo "== $$t"; rc=0; PSF_BUILD=$(BUILD) bash $$t || rc=$$?; \
	  if [ $$rc -eq 77 ]; then echo "   skipped"; elif [ $$rc -ne 0 ]; then echo "   FAILED ($$rc)"; exit 1; fi; done

# The block rewriter on real class files in a real JVM (agent/instrument.mk).
.PHONY: integration-instrument
integration: integration-instrument
integration-instrument: all $(AGENT_FIXTURE_STAMP) $(PSF_REWRITE) $(PROBE_FIXTURE_STAMP)
	@echo "== tests/integration/instrument_jvm.sh"; rc=0; PSF_BUILD=$(BUILD) bash tests/integration/instrument_jvm.sh || rc=$$?; \
	  if [ $$rc -eq 77 ]; then echo "   skipped"; elif [ $$rc -ne 0 ]; then exit 1; fi

# The class files the JVM tests run, for scripts/self_test.sh --full.
.PHONY: integration-fixtures
integration-fixtures: $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP)

# The self-test on the default JDK (a pass, and a JDK whose javac emits other
# code failed), then the JDK-dependent suites on JDK 25: under
# /usr/lib/jvm/temurin-25-jdk-amd64 or PSF_JDK25_HOME; without one the
# summary says loudly that JDK 25 went untested.
.PHONY: integration-jdk
integration: integration-jdk
integration-jdk: all examples $(AGENT_FIXTURE_STAMP) $(ADV_FIXTURE_STAMP) $(PSF_REWRITE) $(PROBE_FIXTURE_STAMP)
	@set -e; for t in tests/integration/jdk_*.sh; do echo "== $$t"; rc=0; PSF_BUILD=$(BUILD) bash $$t || rc=$$?; \
	  if [ $$rc -eq 77 ]; then echo "   SKIPPED: $$t did not run (see its output above)"; elif [ $$rc -ne 0 ]; then echo "   FAILED ($$rc)"; exit 1; fi; done

# The fast counting engine against the step engine (agent/fast.c).
.PHONY: integration-fast
integration: integration-fast
integration-fast: all $(AGENT_FIXTURE_STAMP)
	@echo "== tests/integration/fast_engine.sh"; rc=0; PSF_BUILD=$(BUILD) bash tests/integration/fast_engine.sh || rc=$$?; \
	  if [ $$rc -eq 77 ]; then echo "   skipped"; elif [ $$rc -ne 0 ]; then exit 1; fi
