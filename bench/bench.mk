# Benchmarks: ratios measured side by side in one run, never timed assertions.
BENCH_DIR := $(BUILD)/bench

$(BENCH_DIR)/libbareagent.so: bench/bare_agent.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -shared $(JNI_CFLAGS) -o $@ $<

$(BENCH_DIR)/java/.stamp: $(wildcard bench/java/*.java)
	@mkdir -p $(@D)
	$(JAVAC) -d $(@D) $^
	touch $@

.PHONY: bench bench-step
bench: bench-step
bench-step: $(AGENT_SO) $(BENCH_DIR)/libbareagent.so $(BENCH_DIR)/java/.stamp
	bench/step_overhead.sh $(REPEAT)

.PHONY: bench-profile
bench: bench-profile
bench-profile: $(AGENT_SO) $(BENCH_DIR)/java/.stamp
	bench/step_profile.sh

# Scoring time against recursion depth: the same bytecodes at depths 10 to 5000.
.PHONY: bench-depth
bench: bench-depth
bench-depth: $(AGENT_SO) $(BENCH_DIR)/java/.stamp
	bench/recursion_depth.sh $(REPEAT)

# The fast counting engine against the step engine and the plain JIT run.
.PHONY: bench-fast
bench: bench-fast
bench-fast: $(AGENT_SO) $(AGENT_FIXTURE_STAMP) $(BENCH_DIR)/java/.stamp
	bench/fast_engine.sh $(REPEAT)

# The whole get_score.sh run with --engine fast against --engine step.
.PHONY: bench-scoring
bench: bench-scoring
bench-scoring: all $(BENCH_DIR)/java/.stamp
	bench/fast_scoring.sh $(REPEAT)

# The target of a scoring run within 2x of plain java: the whole get_score.sh --engine fast run against the
# plain java run of the same program (a merge sort of 100,000 Integers), and
# where the scoring run's time goes.
.PHONY: bench-plain
bench: bench-plain
bench-plain: all $(BENCH_DIR)/java/.stamp
	bench/fast_plain.sh $(REPEAT)

# The fast engine under JIT configurations: get_score.sh's flags for it
# against the JVM's default JIT (PSF_JIT_CONFIGS adds others).
.PHONY: bench-jit
bench: bench-jit
bench-jit: $(AGENT_SO) $(AGENT_FIXTURE_STAMP) $(BENCH_DIR)/java/.stamp
	bench/fast_jit.sh $(REPEAT)

# The fast engine's profile against the step engine's on the fidelity
# corpora, program by program (bench/fast_equality.sh; CORPORA=a,b for
# some). Not part of `bench`: it is a check (exit 1 when a program differs)
# and takes minutes.
.PHONY: bench-equality
bench-equality: $(AGENT_SO)
	bench/fast_equality.sh $(if $(CORPORA),--corpora $(CORPORA))

# Its benchmark page, rendered from the current recorded results (one per JDK).
EQUALITY_RESULTS := bench/fidelity/results/equality-jdk17-2026-12-07.txt bench/fidelity/results/equality-generic-jdk17-2026-12-07.txt bench/fidelity/results/equality-jdk25-2026-12-07.txt bench/fidelity/results/equality-generic-jdk25-2026-12-07.txt
.PHONY: bench-equality-page
bench-equality-page:
	bench/fast_equality.sh --page docs/bench/fast-equality.md --render $(EQUALITY_RESULTS)

# What get_score.sh adds to a scored run, beside the JVM's own time.
.PHONY: bench-gs
bench: bench-gs
bench-gs: all $(AGENT_FIXTURE_STAMP)
	bench/get_score_overhead.sh $(REPEAT)

# The fast engine's work in instructions (callgrind): a figure that repeats
# where wall times drift. PSF_BUILD_B=dir compares a second build's agent.
# Not part of `bench`: it needs valgrind and takes minutes.
.PHONY: bench-instructions
bench-instructions: $(AGENT_SO) $(BENCH_DIR)/java/.stamp
	bench/fast_instructions.sh $(N)

# The fidelity benchmark page, rendered from the current recorded results
# (the shipped tables on JDK 17 and 25, and the four task corpora).
FIDELITY_RESULTS := $(addprefix bench/fidelity/results/,jdk17-2026-11-27/programs jdk17-2026-11-27/sorting \
  jdk25-2026-11-27/programs jdk25-2026-11-27/sorting tasks-2026-11-27/strings tasks-2026-11-27/wordcount \
  tasks-2026-11-27/paths tasks-2026-11-27/editdistance)
.PHONY: bench-fidelity-page
bench-fidelity-page:
	bench/fidelity.sh --page docs/bench/fidelity.md --render $(FIDELITY_RESULTS)
