# cmocka unit tests.
#
# A component registers a test in its own fragment:
#   UNIT_TESTS += cpool
#   UNIT_SRCS_cpool := agent/classfile/cpool.c common/bytecode.c
#   UNIT_CFLAGS_cpool := ...        (optional)
#   UNIT_LIBS_cpool := ...          (optional)
#   UNIT_DEPS_cpool := ...          (optional: files the test reads, e.g. class files)
# and writes tests/unit/test_cpool.c. Each test is its own runner, built from
# only the sources it needs, twice: plainly into build/unit/ and with
# AddressSanitizer + UBSan into build/unit-asan/. Tests run from the repository
# root with PSF_BUILD set to the build directory. A test sees the headers of
# the folders its sources come from and common/, nothing else: a scorer or
# calibrator test cannot reach into agent/ where the programs themselves
# cannot.

CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
ASAN_FLAGS    := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# -I flags of test $(1): each folder of its sources, then common/.
unit_includes = $(addprefix -I,$(sort $(patsubst %/,%,$(dir $(UNIT_SRCS_$(1)))))) -Icommon

define unit_test_rules
$(BUILD)/unit/test_$(1): tests/unit/test_$(1).c $$(UNIT_SRCS_$(1)) $$(wildcard agent/*/*.h scorer/*.h calibrate/*.h common/*.h tests/tools/*.h) | $$(UNIT_DEPS_$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) -O1 -g $$(if $$(filter 1,$$(WERROR)),-Werror) $$(call unit_includes,$(1)) $$(CMOCKA_CFLAGS) $$(UNIT_CFLAGS_$(1)) \
	  -o $$@ tests/unit/test_$(1).c $$(UNIT_SRCS_$(1)) $$(UNIT_LIBS_$(1)) $$(CMOCKA_LIBS)
$(BUILD)/unit-asan/test_$(1): tests/unit/test_$(1).c $$(UNIT_SRCS_$(1)) $$(wildcard agent/*/*.h scorer/*.h calibrate/*.h common/*.h tests/tools/*.h) | $$(UNIT_DEPS_$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) -O1 -g $$(if $$(filter 1,$$(WERROR)),-Werror) $$(ASAN_FLAGS) $$(call unit_includes,$(1)) $$(CMOCKA_CFLAGS) $$(UNIT_CFLAGS_$(1)) \
	  -o $$@ tests/unit/test_$(1).c $$(UNIT_SRCS_$(1)) $$(UNIT_LIBS_$(1)) $$(CMOCKA_LIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test_rules,$(t))))

UNIT_BINS      := $(addprefix $(BUILD)/unit/test_,$(UNIT_TESTS))
UNIT_ASAN_BINS := $(addprefix $(BUILD)/unit-asan/test_,$(UNIT_TESTS))

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; PSF_BUILD=$(BUILD) $$t; done

unit-asan: $(UNIT_ASAN_BINS)
	@set -e; for t in $(UNIT_ASAN_BINS); do echo "== $$t (asan+ubsan)"; \
	  PSF_BUILD=$(BUILD) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $$t; done
