# The counting agent: build/libpsfagent.so
#
# Pure modules (no JVM: cpool, classfile, names, options, blocks, instrument)
# are also linked into cmocka tests; the JVMTI parts are exercised by the
# integration tests under tests/integration/.

AGENT_PURE_SRCS := agent/cpool.c agent/classfile.c agent/names.c agent/blocks.c agent/instrument.c agent/probename.c
AGENT_JVM_SRCS  := $(filter-out $(AGENT_PURE_SRCS),$(wildcard agent/*.c))
AGENT_SO        := $(BUILD)/libpsfagent.so

all: $(AGENT_SO)

# The fast engine's probe class (agent/fast.c renames it and defines it in
# the boot loader at VMInit), compiled for every JDK the agent runs on and
# embedded as bytes. It is compiled as a class of java.base
# (--patch-module), in java.lang: not --release, which allows neither that
# nor the JDK's own annotations (@DontInline, @Hidden), which the JVM
# honours for classes of the boot loader.
AGENT_PROBE_DIR := $(BUILD)/agent/probe
AGENT_PROBE_C   := $(BUILD)/agent/probe_class.c
$(AGENT_PROBE_C): agent/probe/java/lang/Probe.java scorer/embed.sh
	rm -rf $(AGENT_PROBE_DIR)
	mkdir -p $(AGENT_PROBE_DIR)
	$(JAVAC) -source 11 -target 11 -Xlint:-options --patch-module java.base=agent/probe \
	  -d $(AGENT_PROBE_DIR) agent/probe/java/lang/Probe.java
	sh scorer/embed.sh psf_probe_class $(AGENT_PROBE_DIR)/java/lang/Probe.class > $@.tmp
	mv $@.tmp $@

# Exports only Agent_*; -z defs turns a missing symbol into a build error
# instead of a JVM start failure.
$(AGENT_SO): $(AGENT_PURE_SRCS) $(AGENT_JVM_SRCS) $(wildcard agent/*.h) $(COMMON_TABLE_SRCS) $(COMMON_TABLE_HDRS) common/mac.c common/mac.h $(AGENT_PROBE_C)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden $(JNI_CFLAGS) $(XML_CFLAGS) $(CRYPTO_CFLAGS) -Icommon -shared \
	  -Wl,-z,defs -o $@ $(AGENT_PURE_SRCS) $(AGENT_JVM_SRCS) $(AGENT_PROBE_C) $(COMMON_TABLE_SRCS) common/mac.c $(XML_LIBS) $(CRYPTO_LIBS) -ldl $(LDFLAGS)

include agent/pure.mk
include agent/instrument.mk

UNIT_TESTS += options
UNIT_SRCS_options := agent/options.c

UNIT_TESTS += mutf8
UNIT_SRCS_mutf8 := agent/mutf8.c

# keys.c includes agent.h, which includes jvmti.h: no JVM runs
UNIT_TESTS += keys
UNIT_SRCS_keys := agent/keys.c
UNIT_CFLAGS_keys := $(JNI_CFLAGS)
