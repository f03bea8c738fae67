# The calibrator: build/psf-calibrate, build/libpsfrdtsc.so and the Java
# harness it drives (build/calibrate/harness), its unit tests, the quick
# integration test and the valgrind run. docs/calibration.md describes it.

PSF_CALIBRATE     := $(BUILD)/psf-calibrate
PSF_RDTSC_SO      := $(BUILD)/libpsfrdtsc.so
CALIB_HARNESS_DIR := $(BUILD)/calibrate/harness
CALIB_HARNESS     := $(CALIB_HARNESS_DIR)/.stamp
CALIB_CORE_SRCS   := calibrate/nnls.c calibrate/histo.c calibrate/model.c calibrate/costs_keys.c \
                     calibrate/table.c calibrate/kernels.c $(COMMON_TABLE_SRCS) common/cpu_ident.c
CALIB_SRCS        := calibrate/main.c calibrate/calibrate.c calibrate/report.c calibrate/proc.c \
                     calibrate/machine.c calibrate/outpath.c $(CALIB_CORE_SRCS)

all: $(PSF_CALIBRATE) $(PSF_RDTSC_SO) $(CALIB_HARNESS)

$(PSF_CALIBRATE): $(CALIB_SRCS) $(wildcard calibrate/*.h) $(COMMON_TABLE_HDRS) common/cpu_ident.h common/tsc.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icalibrate -Icommon $(XML_CFLAGS) -o $@ $(CALIB_SRCS) $(XML_LIBS) -lm $(LDFLAGS)

# Exports only the JNI entry point; -z defs: no symbol left for the JVM to miss.
$(PSF_RDTSC_SO): calibrate/rdtsc_jni.c common/tsc.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -shared $(JNI_CFLAGS) -Icommon -Wl,-z,defs -o $@ $< $(LDFLAGS)

$(CALIB_HARNESS): $(wildcard calibrate/java/*.java)
	rm -rf $(CALIB_HARNESS_DIR)
	mkdir -p $(CALIB_HARNESS_DIR)
	$(JAVAC) --release 17 -d $(CALIB_HARNESS_DIR) $^
	touch $@

# ---- unit tests (tests/unit/test_calibrate_*.c) ----
UNIT_TESTS += calibrate_nnls calibrate_histo calibrate_table calibrate_proc calibrate_outpath

UNIT_SRCS_calibrate_nnls    := calibrate/nnls.c
UNIT_LIBS_calibrate_nnls    := -lm
UNIT_SRCS_calibrate_histo   := calibrate/histo.c calibrate/model.c calibrate/costs_keys.c \
                               calibrate/nnls.c $(COMMON_TABLE_SRCS)
UNIT_CFLAGS_calibrate_histo := $(XML_CFLAGS)
UNIT_LIBS_calibrate_histo   := $(XML_LIBS) -lm
UNIT_SRCS_calibrate_table   := calibrate/table.c calibrate/model.c calibrate/costs_keys.c \
                               calibrate/nnls.c calibrate/kernels.c $(COMMON_TABLE_SRCS)
UNIT_CFLAGS_calibrate_table := $(XML_CFLAGS)
UNIT_LIBS_calibrate_table   := $(XML_LIBS) -lm
UNIT_SRCS_calibrate_proc    := calibrate/proc.c
UNIT_LIBS_calibrate_proc    := -Wl,--wrap=fdopen
UNIT_SRCS_calibrate_outpath := calibrate/outpath.c

# ---- a quick calibration, and its integration test ----
.PHONY: calibrate calibrate-quick integration-calibrate valgrind-calibrate
calibrate: $(AGENT_SO) $(PSF_CALIBRATE) $(PSF_RDTSC_SO) $(CALIB_HARNESS)
	$(PSF_CALIBRATE)

calibrate-quick: $(AGENT_SO) $(PSF_CALIBRATE) $(PSF_RDTSC_SO) $(CALIB_HARNESS)
	@mkdir -p $(BUILD)/calibrate
	$(PSF_CALIBRATE) --quick --no-isolate --out $(BUILD)/calibrate/costs-quick.xml

INTEGRATION_GROUPS += integration-calibrate
integration-calibrate: all
	@rc=0; for t in tests/integration/calibrate_*.sh; do PSF_BUILD=$(BUILD) $(RUN_TEST) bash $$t || rc=1; done; exit $$rc

# psf-calibrate under valgrind: a --quick run (its JVM children are not
# traced) and the usage errors; any memory error or leak fails. The --quick
# run takes the isolated path through a stand-in run_isolated.sh
# (tests/fixtures/calibrate), which must see every timing JVM.
valgrind: valgrind-calibrate
valgrind-calibrate: $(AGENT_SO) $(PSF_CALIBRATE) $(PSF_RDTSC_SO) $(CALIB_HARNESS)
	@mkdir -p $(BUILD)/calibrate
	@rm -rf $(BUILD)/calibrate/fake-root; mkdir -p $(BUILD)/calibrate/fake-root/scripts $(BUILD)/calibrate/fake-root/config
	cp tests/fixtures/calibrate/run_isolated.sh $(BUILD)/calibrate/fake-root/scripts/
	cp config/costs.xsd $(BUILD)/calibrate/fake-root/config/
	PSF_ROOT=$(BUILD)/calibrate/fake-root valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  $(PSF_CALIBRATE) --quick --passes 1 --out $(BUILD)/calibrate/costs-valgrind.xml
	@# the isolated path: asked once, every timing JVM through it, recorded in the table
	@set -e; log=$(BUILD)/calibrate/fake-root/calls.log; \
	  [ "$$(head -n 1 $$log)" = true ] || { echo "FAIL - psf-calibrate did not ask run_isolated.sh first: $$(head -n 1 $$log)"; exit 1; }; \
	  n=$$(grep -c '^-- .*java .* Time ' $$log || true); \
	  [ "$$n" -ge 1 ] && [ "$$n" -eq "$$(($$(wc -l < $$log) - 1))" ] || { echo "FAIL - not every timing JVM ran through run_isolated.sh:"; cat $$log; exit 1; }; \
	  grep -q 'isolated_core="true"' $(BUILD)/calibrate/costs-valgrind.xml || { echo "FAIL - the table does not say isolated_core=\"true\""; exit 1; }; \
	  echo "ok - isolated path: $$n timing JVM(s) through run_isolated.sh, isolated_core=\"true\""
	valgrind -q --error-exitcode=99 --leak-check=full $(PSF_CALIBRATE) --help > /dev/null
	valgrind -q --error-exitcode=99 --leak-check=full $(PSF_CALIBRATE) --bogus 2> /dev/null; \
	  rc=$$?; [ $$rc -eq 2 ] || { echo "psf-calibrate --bogus: exit $$rc under valgrind, want 2"; exit 1; }
