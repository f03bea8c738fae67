# Code shared by the agent and the host-side tools, so that agent/, scorer/
# and calibrate/ depend on common/ and not on each other:
#  - the tables and formats all three read: the JVMS opcode table
#    (bytecode.c/.h), the class file's big-endian numbers (bytes.h), the
#    method-entry closeness (calls.h), the simulated branch predictor
#    (branchpred.h) and the profile format's version (profile_format.h);
#  - authenticated result records (HMAC-SHA256, libcrypto) and
#    build/psf-receive.
COMMON_TABLE_SRCS := common/bytecode.c
COMMON_TABLE_HDRS := common/bytecode.h common/bytes.h common/calls.h common/branchpred.h common/profile_format.h

CRYPTO_CFLAGS := $(shell pkg-config --cflags libcrypto 2>/dev/null)
CRYPTO_LIBS   := $(shell pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto)
PSF_RECEIVE   := $(BUILD)/psf-receive

all: $(PSF_RECEIVE)

$(PSF_RECEIVE): common/psf_receive.c common/mac.c common/mac.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CRYPTO_CFLAGS) -Icommon -o $@ common/psf_receive.c common/mac.c $(CRYPTO_LIBS) $(LDFLAGS)

UNIT_TESTS += bytecode branchpred
UNIT_SRCS_bytecode := $(COMMON_TABLE_SRCS)

UNIT_TESTS += mac cpu_ident
UNIT_SRCS_cpu_ident := common/cpu_ident.c
UNIT_SRCS_mac := common/mac.c
UNIT_LIBS_mac := $(CRYPTO_LIBS)
