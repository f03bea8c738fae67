# The block rewriter of the fast counting engine (agent/blocks.c,
# agent/instrument.c: pure C), its unit tests, and the test driver and Java
# probe of its JVM-level test (tests/integration/instrument_jvm.sh, whose
# target is in tests/integration/integration.mk). Included by agent/agent.mk.

UNIT_TESTS += blocks instrument
UNIT_SRCS_blocks     := agent/blocks.c common/bytecode.c
UNIT_SRCS_instrument := agent/instrument.c agent/blocks.c agent/classfile.c agent/cpool.c common/bytecode.c
UNIT_DEPS_instrument := $(PURE_FIXTURE_STAMP)

# psf-rewrite: rewrites one class file, appends its block table to a TSV.
PSF_REWRITE := $(BUILD)/tests/psf-rewrite
$(PSF_REWRITE): tests/tools/psf_rewrite.c agent/instrument.c agent/blocks.c agent/classfile.c agent/cpool.c \
                common/bytecode.c $(wildcard agent/*.h) $(COMMON_TABLE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iagent -Icommon -o $@ tests/tools/psf_rewrite.c agent/instrument.c agent/blocks.c \
	  agent/classfile.c agent/cpool.c common/bytecode.c $(LDFLAGS)

# The probe class (psf.Probe) and the harness (psfrun.*), compiled once.
PROBE_FIXTURE_DIR   := $(BUILD)/fixtures/probe
PROBE_FIXTURE_STAMP := $(PROBE_FIXTURE_DIR)/.stamp
$(PROBE_FIXTURE_STAMP): $(wildcard tests/fixtures/probe/psf/*.java tests/fixtures/probe/psfrun/*.java)
	rm -rf $(PROBE_FIXTURE_DIR)
	mkdir -p $(PROBE_FIXTURE_DIR)
	$(JAVAC) --release 17 -d $(PROBE_FIXTURE_DIR) $^
	touch $@
