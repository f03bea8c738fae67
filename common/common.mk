# Code shared by the agent and the host-side tools: authenticated result
# records (HMAC-SHA256, libcrypto) and build/psf-receive.
CRYPTO_CFLAGS := $(shell pkg-config --cflags libcrypto 2>/dev/null)
CRYPTO_LIBS   := $(shell pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto)
PSF_RECEIVE   := $(BUILD)/psf-receive

all: $(PSF_RECEIVE)

$(PSF_RECEIVE): common/psf_receive.c common/mac.c common/mac.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CRYPTO_CFLAGS) -Icommon -o $@ common/psf_receive.c common/mac.c $(CRYPTO_LIBS) $(LDFLAGS)

UNIT_TESTS += mac
UNIT_SRCS_mac := common/mac.c
UNIT_LIBS_mac := $(CRYPTO_LIBS)
