# The JUnit example (examples/junit/): the exercise and its JUnit 5 tests,
# compiled against Debian's junit5 (scripts/install_deps.sh) into
# $(BUILD)/examples/junit/, scored with its tests by
# tests/integration/agent_junit_exercise.sh.
JUNIT_CONSOLE_JAR   ?= /usr/share/java/junit-platform-console-standalone.jar
EXAMPLES_JUNIT       := $(BUILD)/examples/junit
EXAMPLES_JUNIT_STAMP := $(EXAMPLES_JUNIT)/.stamp

# The first example (examples/Sorting.java), which the README scores,
# compiled into $(BUILD)/examples/.
EXAMPLES_SORTING     := $(BUILD)/examples/Sorting.class

# The batch example (examples/batch/): ten submissions of one exercise,
# compiled with a manifest beside them into $(BUILD)/examples/batch/, ready
# for scripts/score_batch.sh.
EXAMPLES_BATCH       := $(BUILD)/examples/batch
EXAMPLES_BATCH_STAMP := $(EXAMPLES_BATCH)/.stamp

.PHONY: examples
examples: $(EXAMPLES_SORTING) $(EXAMPLES_BATCH_STAMP) $(EXAMPLES_JUNIT_STAMP)
$(EXAMPLES_SORTING): examples/Sorting.java
	@mkdir -p $(@D)
	$(JAVAC) -d $(@D) $<
$(EXAMPLES_BATCH_STAMP): examples/batch/build.sh examples/batch/manifest.tsv $(shell find examples/batch/submissions -name '*.java' 2>/dev/null)
	JAVAC=$(JAVAC) bash examples/batch/build.sh $(EXAMPLES_BATCH)
	touch $@

$(EXAMPLES_JUNIT_STAMP): examples/junit/Digits.java examples/junit/DigitsTest.java
	@test -r $(JUNIT_CONSOLE_JAR) || { echo "examples: $(JUNIT_CONSOLE_JAR) is missing: install junit5 (scripts/install_deps.sh)" >&2; exit 1; }
	rm -rf $(EXAMPLES_JUNIT)
	mkdir -p $(EXAMPLES_JUNIT)
	$(JAVAC) --release 17 -cp $(JUNIT_CONSOLE_JAR) -d $(EXAMPLES_JUNIT) $^
	touch $@
