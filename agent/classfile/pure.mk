# Pure agent modules (cpool, classfile, names): their cmocka unit
# tests and the Java fixtures those tests read. Included by agent/agent.mk,
# before tests/unit/unit.mk turns UNIT_TESTS into build rules.

JAVAP ?= $(JAVA_HOME)/bin/javap

# Java fixtures: compiled with javac --release 17 into $(BUILD)/fixtures/unit
# (module-info.java makes it a named module, so the pool of module-info.class
# holds Module and Package entries). Next to each X.class goes X.javap, the
# `javap -c -p` listing that test_classfile compares its own decoding with.
# The stamp stands for the whole tree, which one javac run produces.
PURE_FIXTURE_SRCS  := $(wildcard tests/fixtures/unit/*.java tests/fixtures/unit/psf/fixtures/*.java)
PURE_FIXTURE_DIR   := $(BUILD)/fixtures/unit
PURE_FIXTURE_STAMP := $(PURE_FIXTURE_DIR)/.stamp

$(PURE_FIXTURE_STAMP): $(PURE_FIXTURE_SRCS)
	rm -rf $(PURE_FIXTURE_DIR)
	mkdir -p $(PURE_FIXTURE_DIR)
	$(JAVAC) --release 17 -d $(PURE_FIXTURE_DIR) $(PURE_FIXTURE_SRCS)
	set -e; cd $(PURE_FIXTURE_DIR) && for c in $$(find . -name '*.class'); do \
	  $(JAVAP) -c -p "$$c" > "$${c%.class}.javap"; done
	touch $@

UNIT_TESTS += cpool classfile names probename

UNIT_SRCS_cpool     := agent/classfile/cpool.c
UNIT_DEPS_cpool     := $(PURE_FIXTURE_STAMP)
UNIT_SRCS_classfile := agent/classfile/classfile.c agent/classfile/cpool.c $(COMMON_TABLE_SRCS)
UNIT_DEPS_classfile := $(PURE_FIXTURE_STAMP)
UNIT_SRCS_names     := agent/classfile/names.c
UNIT_SRCS_probename := agent/classfile/probename.c

# Class files of Java 25 (major version 69), committed with their javap
# listings so test_classfile reads them whatever JDK builds PSF. Regenerate
# with a JDK 25: make jdk25-class-fixtures JDK25_HOME=/path/to/jdk-25
JDK25_HOME ?= /usr/lib/jvm/temurin-25-jdk-amd64
.PHONY: jdk25-class-fixtures
jdk25-class-fixtures:
	rm -f tests/fixtures/jdk25/*.class tests/fixtures/jdk25/*.javap
	$(JDK25_HOME)/bin/javac --release 25 -d tests/fixtures/jdk25 tests/fixtures/jdk25/Shapes.java
	set -e; cd tests/fixtures/jdk25 && for c in *.class; do $(JDK25_HOME)/bin/javap -c -p "$$c" > "$${c%.class}.javap"; done
