# The counting agent: build/libpsfagent.so
#
# One folder per part (docs/development.md, "Source folders"): core/ (the
# state, the entry points, the options), step/ and fast/ (the two counting
# engines), profile/ (what a profile holds and how it is written), runtime/
# (the JVM's and the JDK's work the engines charge alike) and classfile/
# (pure C, no JVM: class files, names, the block rewriter). Every folder's
# headers are on the include path of every agent file.
#
# Pure modules (classfile/, options) are also linked into cmocka tests; the
# JVMTI parts are exercised by the integration tests under tests/integration/.

AGENT_DIRS      := $(sort $(patsubst %/,%,$(dir $(wildcard agent/*/*.c agent/*/*.h))))
AGENT_INCLUDES  := $(addprefix -I,$(AGENT_DIRS))
AGENT_HDRS      := $(wildcard agent/*/*.h)
AGENT_PURE_SRCS := $(wildcard agent/classfile/*.c)
AGENT_JVM_SRCS  := $(filter-out $(AGENT_PURE_SRCS),$(wildcard agent/*/*.c))
AGENT_SO        := $(BUILD)/libpsfagent.so

all: $(AGENT_SO)

# The fast engine's probe class (agent/fast/boot.c renames it and defines it in
# the boot loader at VMInit), compiled for every JDK the agent runs on and
# embedded as bytes. It is compiled as a class of java.base
# (--patch-module), in java.lang: not --release, which allows neither that
# nor the JDK's own annotations (@DontInline, @Hidden), which the JVM
# honours for classes of the boot loader.
AGENT_PROBE_DIR := $(BUILD)/agent/probe
AGENT_PROBE_C   := $(BUILD)/agent/probe_class.c
$(AGENT_PROBE_C): agent/fast/probe/java/lang/Probe.java scorer/embed.sh
	rm -rf $(AGENT_PROBE_DIR)
	mkdir -p $(AGENT_PROBE_DIR)
	$(JAVAC) -source 11 -target 11 -Xlint:-options --patch-module java.base=agent/fast/probe \
	  -d $(AGENT_PROBE_DIR) agent/fast/probe/java/lang/Probe.java
	sh scorer/embed.sh psf_probe_class $(AGENT_PROBE_DIR)/java/lang/Probe.class > $@.tmp
	mv $@.tmp $@

# Exports only Agent_*; -z defs turns a missing symbol into a build error
# instead of a JVM start failure.
$(AGENT_SO): $(AGENT_PURE_SRCS) $(AGENT_JVM_SRCS) $(AGENT_HDRS) $(COMMON_TABLE_SRCS) $(COMMON_TABLE_HDRS) common/mac.c common/mac.h $(AGENT_PROBE_C)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden $(JNI_CFLAGS) $(XML_CFLAGS) $(CRYPTO_CFLAGS) $(AGENT_INCLUDES) -Icommon -shared \
	  -Wl,-z,defs -o $@ $(AGENT_PURE_SRCS) $(AGENT_JVM_SRCS) $(AGENT_PROBE_C) $(COMMON_TABLE_SRCS) common/mac.c $(XML_LIBS) $(CRYPTO_LIBS) -ldl $(LDFLAGS)

include agent/classfile/pure.mk
include agent/classfile/instrument.mk

UNIT_TESTS += options
UNIT_SRCS_options := agent/core/options.c

UNIT_TESTS += mutf8
UNIT_SRCS_mutf8 := agent/classfile/mutf8.c

# the failure log; the agent's state struct needs the JDK's headers
UNIT_TESTS += jvmti_util
UNIT_SRCS_jvmti_util := agent/core/jvmti_util.c agent/classfile/mutf8.c
UNIT_CFLAGS_jvmti_util := $(JNI_CFLAGS) $(AGENT_INCLUDES)

# keys.c is pure C (keys.h): no JVM
UNIT_TESTS += keys
UNIT_SRCS_keys := agent/profile/keys.c

# The probe class's fields, methods and natives the fast engine binds by
# name (agent/fast/probe_fields.h) against the compiled Probe.class.
UNIT_TESTS += probe_fields
UNIT_SRCS_probe_fields := agent/classfile/classfile.c agent/classfile/cpool.c
UNIT_CFLAGS_probe_fields := -Iagent/fast
UNIT_DEPS_probe_fields := $(AGENT_PROBE_C)
