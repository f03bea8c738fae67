#!/usr/bin/env bash
# adversarial_props.sh - the program's code that a JDK initializer runs while
# HotSpot hides single-stepping is refused as hidden_work (31), never scored
# nor handed from one engine to the other (agent/runtime/linkage.c, agent/fast/fast.c;
# docs/hidden-work.md). Props sorts 500 ints in a class of its own that a
# JDK initializer loads from a system property (SelectorProvider's and
# AsynchronousChannelProvider's holders, LogManager, ZoneRulesProvider,
# ForkJoinPool's thread factory from CompletableFuture's initializer), or in
# the getProperty of system properties of its own that SelectorProvider's
# holder reads. Each must end as hidden_work naming the program's method and
# the JDK initializer that ran it, under both engines, on the default JDK
# and on JDK 25 (PSF_JDK25_HOME, default /usr/lib/jvm/temurin-25-jdk-amd64;
# without one, said loudly). The honest sort scores the same everywhere.
set -eu
. "$(dirname "$0")/lib.sh"
adversarial_setup
GSX=$PSF_ROOT/scripts/get_score.sh # each run names its engine

# score JAVA_HOME ENGINE MODE: JSON in $TEST_TMP/out, the exit code echoed
score() {
  JAVA_HOME=$1 "$GSX" --classpath "$FX" --main Props --method Props.sort --engine "$2" --json --costs none \
    --sandbox require -- "$3" 500 >"$TEST_TMP/out" 2>"$TEST_TMP/err" && echo 0 || echo $?
}

# MODE|the program's method|the JDK initializer that runs it
# shellcheck disable=SC2016 # Java's nested classes' names ($) in single quotes
cases='selector|Props$Selector.<clinit>()V|java.nio.channels.spi.SelectorProvider$Holder.<clinit>()V
async|Props$Async.<init>()V|java.nio.channels.spi.AsynchronousChannelProvider$ProviderHolder.<clinit>()V
logging|Props$Manager.<init>()V|java.util.logging.LogManager.<clinit>()V
zone|Props$Zones.<init>()V|java.time.zone.ZoneRulesProvider.<clinit>()V
pool|Props$Factory.<init>()V|java.util.concurrent.ForkJoinPool.<clinit>()V
properties|Props$Sorting.getProperty(Ljava/lang/String;)Ljava/lang/String;|java.nio.channels.spi.SelectorProvider$Holder.<clinit>()V'

# a regular expression matching the string literally
# shellcheck disable=SC2016 # $ in a sed bracket expression
literal() { printf '%s' "$1" | sed 's/[][\.*^$(){}+?|/]/\\&/g'; }

default_and_jdk25

honest=""
for jdk in "${JDKS[@]}"; do
  v=$(psf_jdk_feature "$jdk/bin/java")
  for engine in fast step; do
    rc=$(score "$jdk" "$engine" honest)
    expect_eq "JDK $v, $engine: the honest sort is scored" "$rc/$(jq -r .status "$TEST_TMP/out")" 0/ok
    s=$(jq -r .score "$TEST_TMP/out")
    [ -n "$honest" ] || honest=$s
    expect_eq "JDK $v, $engine: the honest sort scores as everywhere" "$s" "$honest"
    while IFS='|' read -r mode method root; do
      rc=$(score "$jdk" "$engine" "$mode")
      expect_eq "JDK $v, $engine, $mode: refused as hidden_work, exit 31" \
        "$rc/$(jq -r .status "$TEST_TMP/out")/$(jq -r .score "$TEST_TMP/out")" 31/hidden_work/null
      expect_match "JDK $v, $engine, $mode: names the program's method and the JDK initializer" \
        "$(jq -r .message "$TEST_TMP/out")" "^$(literal "$method") ran inside $(literal "$root"), which the JVM ran"
      expect_eq "JDK $v, $engine, $mode: not handed to another engine" "$(jq -r '.fallback // "none"' "$TEST_TMP/out")" none
    done <<<"$cases"
  done
done
finish
