# The block rewriter of the fast counting engine (agent/classfile/blocks.c,
# agent/classfile/instrument*.c: pure C), its unit tests, and the test driver and Java
# probe of its JVM-level test (tests/integration/instrument_jvm.sh, whose
# target is in tests/integration/integration.mk). Included by agent/agent.mk.

# The rewriter and what it reads: its five files (instrument.c opens with
# which holds what), blocks, the class-file parser. The unit test, the fuzz
# target (tests/fuzz/fuzz.mk) and psf-rewrite link these.
INSTRUMENT_SRCS := agent/classfile/instrument.c agent/classfile/instrument_rewrite.c agent/classfile/instrument_pool.c \
                   agent/classfile/instrument_emit.c \
                   agent/classfile/instrument_tables.c agent/classfile/blocks.c agent/classfile/classfile.c \
                   agent/classfile/cpool.c common/bytecode.c

UNIT_TESTS += blocks instrument
UNIT_SRCS_blocks     := agent/classfile/blocks.c common/bytecode.c
UNIT_SRCS_instrument := $(INSTRUMENT_SRCS) tests/tools/tann_check.c
UNIT_DEPS_instrument := $(PURE_FIXTURE_STAMP)

# psf-rewrite: rewrites one class file, appends its block table to a TSV.
PSF_REWRITE := $(BUILD)/tests/psf-rewrite
$(PSF_REWRITE): tests/tools/psf_rewrite.c $(INSTRUMENT_SRCS) $(wildcard agent/classfile/*.h) $(COMMON_TABLE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iagent/classfile -Icommon -o $@ tests/tools/psf_rewrite.c $(INSTRUMENT_SRCS) $(LDFLAGS)

# The probe class (psf.Probe) and the harness (psfrun.*), compiled once.
PROBE_FIXTURE_DIR   := $(BUILD)/fixtures/probe
PROBE_FIXTURE_STAMP := $(PROBE_FIXTURE_DIR)/.stamp
$(PROBE_FIXTURE_STAMP): $(wildcard tests/fixtures/probe/psf/*.java tests/fixtures/probe/psfrun/*.java)
	rm -rf $(PROBE_FIXTURE_DIR)
	mkdir -p $(PROBE_FIXTURE_DIR)
	$(JAVAC) --release 17 -d $(PROBE_FIXTURE_DIR) $^
	touch $@
