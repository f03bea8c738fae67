# The scorer: build/psf-score (C11, libxml2, jansson for JSON output), its
# unit tests, integration tests and valgrind run.
#
# psf-score is built from scorer/*.c, the tables shared with the agent (common/),
# and the two XSD schemas, which scorer/embed.sh turns into a C file so the
# binary validates with exactly the schemas it was built with.

PSF_SCORE          := $(BUILD)/psf-score
JANSSON_CFLAGS     := $(shell pkg-config --cflags jansson 2>/dev/null)
JANSSON_LIBS       := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
SCORER_SCHEMAS_C   := $(BUILD)/scorer/schemas.c
SCORER_CORE_SRCS   := scorer/err.c scorer/fixed.c scorer/xmlload.c scorer/costs.c \
                      scorer/profile_read.c scorer/sha256.c scorer/status.c $(COMMON_TABLE_SRCS) \
                      $(SCORER_SCHEMAS_C)
SCORER_SRCS        := scorer/main.c scorer/cli.c scorer/score.c scorer/rank.c \
                      scorer/json.c scorer/output.c scorer/html.c scorer/leaderboard.c \
                      scorer/junit.c scorer/report.c scorer/report_flame.c scorer/report_fmt.c scorer/report_lines.c scorer/sources.c scorer/outfile.c scorer/machine_check.c common/cpu_ident.c \
                      scorer/sign.c scorer/submission.c scorer/outcmp.c scorer/batch.c common/mac.c $(SCORER_CORE_SRCS)

all: $(PSF_SCORE)

$(SCORER_SCHEMAS_C): config/costs.xsd config/profile.xsd scorer/embed.sh
	@mkdir -p $(@D)
	sh scorer/embed.sh psf_costs_xsd config/costs.xsd psf_profile_xsd config/profile.xsd > $@.tmp
	mv $@.tmp $@

$(PSF_SCORE): $(SCORER_SRCS) $(wildcard scorer/*.h) $(COMMON_TABLE_HDRS) common/cpu_ident.h common/tsc.h \
              common/mac.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iscorer -Icommon $(XML_CFLAGS) $(JANSSON_CFLAGS) $(CRYPTO_CFLAGS) -o $@ $(SCORER_SRCS) $(XML_LIBS) $(JANSSON_LIBS) $(CRYPTO_LIBS) $(LDFLAGS)

# ---- unit tests (tests/unit/test_scorer_*.c) ----
UNIT_TESTS += scorer_fixed scorer_status scorer_json scorer_sha256 scorer_rank \
              scorer_cli scorer_costs scorer_profile scorer_score scorer_html scorer_junit \
              scorer_machine_check scorer_report scorer_sign scorer_outfile scorer_sources \
              scorer_submission scorer_outcmp scorer_batch

UNIT_SRCS_scorer_fixed   := scorer/fixed.c
UNIT_SRCS_scorer_status  := scorer/status.c
UNIT_SRCS_scorer_json    := scorer/json.c scorer/err.c
UNIT_CFLAGS_scorer_json  := $(JANSSON_CFLAGS)
UNIT_LIBS_scorer_json    := $(JANSSON_LIBS)
UNIT_SRCS_scorer_sha256  := scorer/sha256.c
UNIT_SRCS_scorer_sign    := scorer/sign.c scorer/sha256.c scorer/err.c common/mac.c
UNIT_SRCS_scorer_submission := scorer/submission.c scorer/sha256.c scorer/err.c
UNIT_SRCS_scorer_outfile := scorer/outfile.c scorer/err.c
UNIT_SRCS_scorer_outcmp  := scorer/outcmp.c
UNIT_SRCS_scorer_batch   := scorer/batch.c scorer/err.c
UNIT_SRCS_scorer_rank    := scorer/rank.c
UNIT_SRCS_scorer_html    := scorer/html.c
UNIT_SRCS_scorer_sources := scorer/sources.c scorer/err.c
UNIT_SRCS_scorer_report  := scorer/report.c scorer/report_flame.c scorer/report_fmt.c scorer/report_lines.c scorer/sources.c scorer/html.c scorer/leaderboard.c scorer/output.c scorer/json.c scorer/score.c scorer/machine_check.c common/cpu_ident.c \
                            $(SCORER_CORE_SRCS)
UNIT_CFLAGS_scorer_report := $(XML_CFLAGS) $(JANSSON_CFLAGS)
UNIT_LIBS_scorer_report  := $(XML_LIBS) $(JANSSON_LIBS) $(CRYPTO_LIBS)
UNIT_SRCS_scorer_junit   := scorer/junit.c scorer/outfile.c scorer/status.c scorer/fixed.c scorer/err.c
UNIT_CFLAGS_scorer_junit := $(XML_CFLAGS)
UNIT_LIBS_scorer_junit   := $(XML_LIBS)
UNIT_SRCS_scorer_cli := scorer/cli.c scorer/fixed.c scorer/err.c
UNIT_SRCS_scorer_costs   := $(SCORER_CORE_SRCS)
UNIT_SRCS_scorer_profile := $(SCORER_CORE_SRCS)
UNIT_SRCS_scorer_score   := scorer/score.c $(SCORER_CORE_SRCS)
UNIT_SRCS_scorer_machine_check := scorer/machine_check.c common/cpu_ident.c $(SCORER_CORE_SRCS)
UNIT_CFLAGS_scorer_machine_check := $(XML_CFLAGS)
UNIT_LIBS_scorer_machine_check := $(XML_LIBS) $(CRYPTO_LIBS)
UNIT_CFLAGS_scorer_costs   := $(XML_CFLAGS)
UNIT_CFLAGS_scorer_profile := $(XML_CFLAGS)
UNIT_CFLAGS_scorer_score   := $(XML_CFLAGS)
UNIT_LIBS_scorer_costs     := $(XML_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_scorer_profile   := $(XML_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_scorer_score     := $(XML_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_scorer_sha256    := $(CRYPTO_LIBS)
UNIT_LIBS_scorer_sign      := $(CRYPTO_LIBS)
UNIT_LIBS_scorer_submission := $(CRYPTO_LIBS)

# ---- integration tests (no JVM needed: hand-written profiles) ----
SCORER_INTEGRATION := $(sort $(wildcard tests/integration/scorer_*.sh))

.PHONY: integration-scorer valgrind-scorer
INTEGRATION_GROUPS += integration-scorer
integration-scorer: $(PSF_SCORE)
	@rc=0; for t in $(SCORER_INTEGRATION); do PSF_SCORE=$(PSF_SCORE) $(RUN_TEST) sh $$t || rc=1; done; exit $$rc

# psf-score under valgrind on good and bad inputs: any memory error or leak
# fails (exit 99 from valgrind), and each run must still give its exit code.
valgrind: valgrind-scorer
valgrind-scorer: $(PSF_SCORE)
	@PSF_SCORE=$(PSF_SCORE) $(RUN_TEST) sh scorer/valgrind.sh
