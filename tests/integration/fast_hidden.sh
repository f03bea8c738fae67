#!/usr/bin/env bash
# fast_hidden.sh - code of hidden classes under the fast engine
# (agent/fast/hidden.c), on the default JDK and JDK 25.
#
# Lambdas' proxies, method references, string concatenation
# (StringConcatFactory), stream pipelines and method handles run code of
# hidden classes, which the fast engine rewrites as ClassLoader.defineClass0
# defines them. Each fixture method (tests/fixtures/agent/HiddenCode.java)
# runs under both engines with get_score.sh's flags; the fast engine must
# count it with status ok, no fallback, and the step engine's profile in
# every field from the summary on (the fields of fast_engine.sh). Where a
# total can be derived by hand from javap -c it must be exact under both:
# a lambda linked before the method, 18n + 9, and one linked inside it,
# 18n + 19 (the call site's target adds Invokers$Holder.linkToTargetMethod
# and the LambdaForm that returns the proxy, 4 bytecodes each). The
# student-style word count (split, HashMap.merge with Integer::sum, a
# stream with filter, sorted and collect, the result built with +) is
# counted so on both JDKs (on JDK 25 the reflection that a JDK initializer
# runs inside it hashes Class objects by identity, MethodType's hash code,
# which both engines draw alike: docs/fast-engine.md, "Identity hash
# codes"). Through get_score.sh a
# lambda and string concatenation linked inside the method are counted by
# the fast engine with the step engine's score.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fast.sh"
on_both_jdks HiddenCode

# hidden NAME PATTERN: the step profile of the last `same` counts work in a
# method of a hidden class whose name matches PATTERN (grep -E): the code
# the probes had to count
hidden() {
  local name=$1 pattern=$2 got
  got=$(sed -n 's/^ *<method name="\([^"]*\/0x0\.[^"]*\)" work="[1-9].*/\1/p' "$TEST_TMP/step.xml" | grep -E -c "$pattern" || true)
  [ "$got" -gt 0 ] && pass "$name: counts work in hidden classes ($pattern)" ||
    fail "$name: counts work in hidden classes ($pattern)" "none in $TEST_TMP/step.xml"
}

for jdk in "${JDKS[@]}"; do
  use_java "$jdk/bin/java"
  v=$(psf_jdk_feature "$JAVA")
  # javap -c HiddenCode: applyLinked's loop is iload_3 iload_1 if_icmpge,
  # iload_2 aload_0 iload_3 invokeinterface iadd istore_2 iinc goto (11),
  # the proxy's applyAsInt iload_1 invokestatic ireturn (3) and the lambda's
  # iload_0 iconst_2 imul ireturn (4) per element; iconst_0 istore_2
  # iconst_0 istore_3, the last test and iload_2 ireturn (9): 18n + 9
  same "jdk $v: a lambda linked before the method" 189 HiddenCode.applyLinked HiddenCode linked 10
  hidden "jdk $v: a lambda linked before the method" 'HiddenCode[$][$]Lambda.*applyAsInt'
  # lambda(n): the same loop with the proxy's 3 and x + 1's 4 per element;
  # invokedynamic astore_1 iconst_0 istore_2 iconst_0 istore_3, the last test
  # and iload_2 ireturn (11), and the call site's target (8): 18n + 19
  same "jdk $v: a lambda linked inside the method" 199 HiddenCode.lambda HiddenCode lambda 10
  hidden "jdk $v: a lambda linked inside the method" 'HiddenCode[$][$]Lambda.*applyAsInt'
  # methodRef(n): aload_1 iload_2 iload_3 invokeinterface istore_2 iinc goto
  # and the test (10), the proxy's iload_1 iload_2 invokestatic ireturn (4),
  # Integer.sum's iload_0 iload_1 iadd ireturn (4) per element; 11 + 8 as
  # above: 18n + 19
  same "jdk $v: a method reference (Integer::sum)" 199 HiddenCode.methodRef HiddenCode methodref 10
  hidden "jdk $v: a method reference (Integer::sum)" 'HiddenCode[$][$]Lambda.*applyAsInt'
  same "jdk $v: string concatenation with +" - HiddenCode.concat HiddenCode concat 20
  hidden "jdk $v: string concatenation with +" 'LambdaForm[$]MH|StringConcat'
  expect_eq "jdk $v: string concatenation with +: the program's answer" "$(cat "$TEST_TMP/program.out")" \
    "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,"
  same "jdk $v: a stream pipeline" - HiddenCode.stream HiddenCode stream 30
  hidden "jdk $v: a stream pipeline" 'HiddenCode[$][$]Lambda'
  expect_eq "jdk $v: a stream pipeline: the program's answer" "$(cat "$TEST_TMP/program.out")" 5990
  same "jdk $v: MethodHandle.invokeExact" - HiddenCode.handle HiddenCode handle 10
  hidden "jdk $v: MethodHandle.invokeExact" 'LambdaForm[$]'
  same "jdk $v: a JDK lambda made before the method (Collectors.toList's combiner)" - HiddenCode.archived HiddenCode archived 20
  hidden "jdk $v: a JDK lambda made before the method (Collectors.toList's combiner)" 'Collectors[$][$]Lambda'
  same "jdk $v: the student-style word count" - HiddenCode.wordCount HiddenCode wordcount
  hidden "jdk $v: the student-style word count" 'HiddenCode[$][$]Lambda.*(test|compare|apply)'
  expect_eq "jdk $v: the word count's answer" "$(cat "$TEST_TMP/program.out")" "top=[the, fox] n=8"
done

# get_score.sh (the default engine, fast): a lambda and string
# concatenation linked inside the method are counted by the fast engine,
# no fallback, with the step engine's score
for c in lambda concat; do
  scored_alike "$c" "$FX" HiddenCode "HiddenCode.$c" "$c"
done

finish
