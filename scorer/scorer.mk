# The scorer: build/psf-score (C11, libxml2), its unit tests, integration
# tests and valgrind run.
#
# psf-score is built from scorer/*.c, the opcode table in agent/bytecode.c,
# and the two XSD schemas, which scorer/embed.sh turns into a C file so the
# binary validates with exactly the schemas it was built with.

PSF_SCORE          := $(BUILD)/psf-score
SCORER_SCHEMAS_C   := $(BUILD)/scorer/schemas.c
SCORER_CORE_SRCS   := scorer/err.c scorer/fixed.c scorer/xmlload.c scorer/costs.c \
                      scorer/profile.c scorer/sha256.c scorer/status.c agent/bytecode.c \
                      $(SCORER_SCHEMAS_C)
SCORER_SRCS        := scorer/main.c scorer/options.c scorer/score.c scorer/rank.c \
                      scorer/json.c scorer/output.c $(SCORER_CORE_SRCS)

all: $(PSF_SCORE)

$(SCORER_SCHEMAS_C): config/costs.xsd config/profile.xsd scorer/embed.sh
	@mkdir -p $(@D)
	sh scorer/embed.sh psf_costs_xsd config/costs.xsd psf_profile_xsd config/profile.xsd > $@.tmp
	mv $@.tmp $@

$(PSF_SCORE): $(SCORER_SRCS) $(wildcard scorer/*.h) agent/bytecode.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iscorer -Iagent $(XML_CFLAGS) -o $@ $(SCORER_SRCS) $(XML_LIBS) $(LDFLAGS)

