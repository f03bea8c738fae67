# libFuzzer targets for the parsers that read untrusted input:
#
#   fuzz_cpool    agent/classfile/cpool.c (bare constant pools) and agent/classfile/classfile.c
#   fuzz_profile  scorer/profile_read.c (profile XML, libxml2 + XSD)
#   fuzz_costs    scorer/costs.c (cost-table XML, libxml2 + XSD)
#   fuzz_mac      common/mac.c mac_find_record (result streams)
#   fuzz_instrument  agent/classfile/instrument*.c and agent/classfile/blocks.c (class files to rewrite)
#
#   make fuzz-build      build $(BUILD)/fuzz/fuzz_* (clang, libFuzzer, ASan+UBSan)
#   make fuzz-ci         each target for FUZZ_CI_SECONDS over a copy of its
#                        corpus (tests/ is never written); fails on any crash
#   make fuzz            each target for FUZZ_SECONDS over tests/fuzz/corpus/
#                        itself, so new interesting inputs are kept there
#   make fuzz-merge      shrink each corpus to a minimal set with the same coverage
#   FUZZ_TARGETS="cpool mac"   run only these
#
# Seeds live in tests/fuzz/corpus/<target>/, XML dictionaries beside this
# file, and reproducers of bugs found in tests/fuzz/regressions/<target>/
# (every CI run replays them). Crashing inputs go to $(BUILD)/fuzz/artifacts/,
# logs to $(BUILD)/fuzz/<target>.log.
#
# Include after common/common.mk, agent/agent.mk and scorer/scorer.mk: the
# rules below use their INSTRUMENT_SRCS, SCORER_CORE_SRCS and CRYPTO_* when
# they are read.
#
# libFuzzer comes with clang's runtime libraries: on Debian 12 the packages
# are clang and libclang-rt-14-dev (clang-14 only recommends the latter, so an
# install with --no-install-recommends must name it).

FUZZ_CC          ?= clang
FUZZ_DIR         := $(BUILD)/fuzz
FUZZ_TARGETS     ?= cpool profile costs mac instrument
FUZZ_CI_SECONDS  ?= 25
FUZZ_SECONDS     ?= 300
FUZZ_RSS_MB      ?= 2048
FUZZ_TIMEOUT     ?= 10
FUZZ_PACKAGES    := clang libclang-rt-14-dev
FUZZ_SAN         := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS      := $(CSTD) $(WARN) -O1 -g $(FUZZ_SAN) $(if $(filter 1,$(WERROR)),-Werror) \
                    -Icommon -Itests/fuzz

FUZZ_SRCS_cpool   := agent/classfile/cpool.c agent/classfile/classfile.c
FUZZ_SRCS_instrument := $(INSTRUMENT_SRCS) tests/tools/tann_check.c
FUZZ_SRCS_profile := $(SCORER_CORE_SRCS)
FUZZ_SRCS_costs   := $(SCORER_CORE_SRCS)
FUZZ_SRCS_mac     := common/mac.c
FUZZ_FLAGS_profile := $(XML_CFLAGS)
FUZZ_FLAGS_costs   := $(XML_CFLAGS)
FUZZ_FLAGS_mac     := $(CRYPTO_CFLAGS)
FUZZ_LIBS_profile  := $(XML_LIBS) $(CRYPTO_LIBS)
FUZZ_LIBS_costs    := $(XML_LIBS) $(CRYPTO_LIBS)
FUZZ_LIBS_mac      := $(CRYPTO_LIBS)
FUZZ_DICT_profile  := tests/fuzz/profile.dict
FUZZ_DICT_costs    := tests/fuzz/costs.dict

FUZZ_BINS := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))

.PHONY: fuzz-build fuzz-ci fuzz fuzz-merge

# Fails loudly, naming the packages, when clang or its libFuzzer runtime is
# missing: CI must not pass by skipping.
$(FUZZ_DIR)/.toolchain:
	@mkdir -p $(@D)
	@printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' > $(@D)/toolchain.c
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
	  echo "fuzz: $(FUZZ_CC) not found; install $(FUZZ_PACKAGES) (Debian 12) or set FUZZ_CC" >&2; exit 1; }
	@$(FUZZ_CC) $(FUZZ_SAN) -o $(@D)/toolchain $(@D)/toolchain.c 2>$(@D)/toolchain.err || { \
	  cat $(@D)/toolchain.err >&2; \
	  echo "fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer,address,undefined; install $(FUZZ_PACKAGES) (Debian 12)" >&2; exit 1; }
	@touch $@

define fuzz_rules
$(FUZZ_DIR)/fuzz_$(1): tests/fuzz/fuzz_$(1).c $$(FUZZ_SRCS_$(1)) $$(wildcard tests/fuzz/*.h tests/tools/*.h agent/*/*.h scorer/*.h common/*.h) | $(FUZZ_DIR)/.toolchain
	@mkdir -p $$(@D)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) $$(addprefix -I,$$(sort $$(patsubst %/,%,$$(dir $$(FUZZ_SRCS_$(1)))))) $$(FUZZ_FLAGS_$(1)) -o $$@ tests/fuzz/fuzz_$(1).c $$(FUZZ_SRCS_$(1)) $$(FUZZ_LIBS_$(1))
endef
$(foreach t,cpool profile costs mac instrument,$(eval $(call fuzz_rules,$(t))))

fuzz-build: $(FUZZ_BINS)

# One run of target $(1) over corpus dirs $(2) for $(3) seconds. Prints one
# line "fuzz_T: ok, N runs in S s, cov C ft F" or "fuzz_T: FAILED ..." and
# counts it in $(FUZZ_DIR)/failed; a regressions dir is replayed first.
define fuzz_run
t=$(1); log=$(FUZZ_DIR)/fuzz_$$t.log; mkdir -p $(FUZZ_DIR)/artifacts; \
dict=; case $$t in profile) dict=-dict=$(FUZZ_DICT_profile);; costs) dict=-dict=$(FUZZ_DICT_costs);; esac; \
reg=; [ -d tests/fuzz/regressions/$$t ] && reg=tests/fuzz/regressions/$$t; \
rc=0; ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  $(FUZZ_DIR)/fuzz_$$t $$dict -max_total_time=$(3) -rss_limit_mb=$(FUZZ_RSS_MB) -timeout=$(FUZZ_TIMEOUT) \
  -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/$$t- $(2) $$reg >$$log 2>&1 || rc=$$?; \
stats=$$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE)' $$log | tail -1 | sed -E 's/^#([0-9]+).*cov: ([0-9]+) ft: ([0-9]+).*/\1 runs, cov \2 ft \3/'); \
eps=$$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' $$log); \
if [ $$rc -eq 0 ]; then echo "fuzz_$$t: ok, $$stats, $${eps:-?} exec/s"; \
else echo "fuzz_$$t: FAILED (exit $$rc), $$stats; see $$log and $(FUZZ_DIR)/artifacts/"; \
  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' $$log | head -3 | sed 's/^/    /'; echo x >> $(FUZZ_DIR)/failed; fi
endef

fuzz-ci: fuzz-build
	@rm -rf $(FUZZ_DIR)/ci-corpus $(FUZZ_DIR)/failed; mkdir -p $(FUZZ_DIR)/ci-corpus; : > $(FUZZ_DIR)/failed
	@for t in $(FUZZ_TARGETS); do \
	  cp -R tests/fuzz/corpus/$$t $(FUZZ_DIR)/ci-corpus/$$t; \
	  $(call fuzz_run,$$t,$(FUZZ_DIR)/ci-corpus/$$t,$(FUZZ_CI_SECONDS)); \
	done; \
	n=$$(echo $(FUZZ_TARGETS) | wc -w); m=$$(wc -l < $(FUZZ_DIR)/failed); \
	echo "$$((n - m)) passed, $$m failed"; [ $$m -eq 0 ]

fuzz: fuzz-build
	@rm -f $(FUZZ_DIR)/failed; : > $(FUZZ_DIR)/failed
	@for t in $(FUZZ_TARGETS); do \
	  $(call fuzz_run,$$t,tests/fuzz/corpus/$$t,$(FUZZ_SECONDS)); \
	done; \
	n=$$(echo $(FUZZ_TARGETS) | wc -w); m=$$(wc -l < $(FUZZ_DIR)/failed); \
	echo "$$((n - m)) passed, $$m failed"; [ $$m -eq 0 ]

# The named seeds (real inputs, see README.md) always stay; of the inputs
# libFuzzer found (named by their SHA-1) only those that add coverage do.
fuzz-merge: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  c=tests/fuzz/corpus/$$t; m=$(FUZZ_DIR)/merge; rm -rf $$m; mkdir -p $$m/out; \
	  before=$$(ls $$c | wc -l); \
	  for f in $$c/*; do case $${f##*/} in \
	    [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ;; *) cp "$$f" $$m/out/;; esac; done; \
	  $(FUZZ_DIR)/fuzz_$$t -merge=1 $$m/out $$c >$(FUZZ_DIR)/fuzz_$$t.merge.log 2>&1; \
	  for f in $$m/out/*; do case $${f##*/} in \
	    [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ;; \
	    *) rm -f $$m/out/$$(sha1sum < "$$f" | cut -c1-40);; esac; done; \
	  rm -rf $$c; mv $$m/out $$c; \
	  echo "fuzz_$$t: $$before -> $$(ls $$c | wc -l) inputs"; \
	done
