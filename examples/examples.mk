# The batch example (examples/batch/): ten submissions of one exercise,
# compiled with a manifest beside them into $(BUILD)/examples/batch/, ready
# for scripts/score_batch.sh.
EXAMPLES_BATCH       := $(BUILD)/examples/batch
EXAMPLES_BATCH_STAMP := $(EXAMPLES_BATCH)/.stamp

.PHONY: examples
examples: $(EXAMPLES_BATCH_STAMP)
$(EXAMPLES_BATCH_STAMP): examples/batch/build.sh examples/batch/manifest.tsv $(shell find examples/batch/submissions -name '*.java' 2>/dev/null)
	JAVAC=$(JAVAC) bash examples/batch/build.sh $(EXAMPLES_BATCH)
	touch $@
