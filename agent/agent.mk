# The counting agent: build/libpsfagent.so
#
# Pure modules (no JVM: cpool, classfile, names, options, blocks, instrument)
# are also linked into cmocka tests; the JVMTI parts are exercised by the
# integration tests under tests/integration/.

AGENT_PURE_SRCS := agent/cpool.c agent/classfile.c agent/names.c agent/blocks.c agent/instrument.c
AGENT_JVM_SRCS  := $(filter-out $(AGENT_PURE_SRCS),$(wildcard agent/*.c))
AGENT_SO        := $(BUILD)/libpsfagent.so

all: $(AGENT_SO)

# Exports only Agent_*; -z defs turns a missing symbol into a build error
# instead of a JVM start failure.
$(AGENT_SO): $(AGENT_PURE_SRCS) $(AGENT_JVM_SRCS) $(wildcard agent/*.h) $(COMMON_TABLE_SRCS) $(COMMON_TABLE_HDRS) common/mac.c common/mac.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden $(JNI_CFLAGS) $(XML_CFLAGS) $(CRYPTO_CFLAGS) -Icommon -shared \
	  -Wl,-z,defs -o $@ $(AGENT_PURE_SRCS) $(AGENT_JVM_SRCS) $(COMMON_TABLE_SRCS) common/mac.c $(XML_LIBS) $(CRYPTO_LIBS) -ldl $(LDFLAGS)

include agent/pure.mk
include agent/instrument.mk

UNIT_TESTS += options
UNIT_SRCS_options := agent/options.c

UNIT_TESTS += mutf8
UNIT_SRCS_mutf8 := agent/mutf8.c
