# The block rewriter of the fast counting engine (agent/classfile/blocks.c,
# agent/classfile/instrument.c: pure C), its unit tests, and the test driver and Java
# probe of its JVM-level test (tests/integration/instrument_jvm.sh, whose
# target is in tests/integration/integration.mk). Included by agent/agent.mk.

UNIT_TESTS += blocks instrument
UNIT_SRCS_blocks     := agent/classfile/blocks.c common/bytecode.c
UNIT_SRCS_instrument := agent/classfile/instrument.c agent/classfile/blocks.c agent/classfile/classfile.c agent/classfile/cpool.c common/bytecode.c \
                        tests/tools/tann_check.c
UNIT_DEPS_instrument := $(PURE_FIXTURE_STAMP)

# psf-rewrite: rewrites one class file, appends its block table to a TSV.
PSF_REWRITE := $(BUILD)/tests/psf-rewrite
$(PSF_REWRITE): tests/tools/psf_rewrite.c agent/classfile/instrument.c agent/classfile/blocks.c agent/classfile/classfile.c agent/classfile/cpool.c \
                common/bytecode.c $(wildcard agent/classfile/*.h) $(COMMON_TABLE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iagent/classfile -Icommon -o $@ tests/tools/psf_rewrite.c agent/classfile/instrument.c agent/classfile/blocks.c \
	  agent/classfile/classfile.c agent/classfile/cpool.c common/bytecode.c $(LDFLAGS)

# The probe class (psf.Probe) and the harness (psfrun.*), compiled once.
PROBE_FIXTURE_DIR   := $(BUILD)/fixtures/probe
PROBE_FIXTURE_STAMP := $(PROBE_FIXTURE_DIR)/.stamp
$(PROBE_FIXTURE_STAMP): $(wildcard tests/fixtures/probe/psf/*.java tests/fixtures/probe/psfrun/*.java)
	rm -rf $(PROBE_FIXTURE_DIR)
	mkdir -p $(PROBE_FIXTURE_DIR)
	$(JAVAC) --release 17 -d $(PROBE_FIXTURE_DIR) $^
	touch $@
