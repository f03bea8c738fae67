#!/usr/bin/env bash
# agent_contexts.sh - the profile's calling contexts (<contexts>) on a
# fixture whose per-context counts are derived by hand from its bytecode
# (javap -c), and the cap on their number.
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
P=$TEST_TMP/p.xml

# frame ATTR PATH...: ATTR of the frame reached from the top by methods
# "M@LINE" (the caller's line), e.g. frame work 'Contexts.run(...)I@0' ...
frame() {
  local attr=$1 parent=0 id=
  shift
  for step in "$@"; do
    id=$(xpath "$P" "/psf-profile/contexts/frame[@parent='$parent' and @method='${step%@*}' and @line='${step##*@}']/@id")
    [ -n "$id" ] || { echo "none"; return; }
    parent=$id
  done
  xpath "$P" "/psf-profile/contexts/frame[@id='$id']/@$attr"
}
# sum of ATTR over every frame
total() { xmllint --xpath "/psf-profile/contexts/frame/@$1" "$P" | grep -o '[0-9]\+' | awk '{s += $1} END {print s + 0}'; }

# --- Contexts.run(n, e) (lines from tests/fixtures/agent/Contexts.java):
# run itself: 0-3 (4), the loop test 4 5 6 (n+1 times), the body 9 10 11
# 14 15 16 19 (7n), 22 23 24, 27 28 29 30, 33 34, 35 36 37 38, the handler
# 46 47 and 50 51: 10n + 24.
# twice, called on line 29: iload_0 invokestatic invokestatic ireturn, n
# times: 4n; leaf, called twice on twice's line 11 (offsets 1 and 4, one
# context by line): iload_0 iconst_1 iadd ireturn, 2n times: 8n.
# Math.max(s, 0), line 30: s >= 0, so iload_0 iload_1 if_icmplt (not
# taken) iload_0 goto ireturn: 6.
# down(3), line 31, one context for the direct recursion: three frames of
# iload_0 ifne iload_0 iconst_1 isub invokestatic, then iconst_1 iadd
# ireturn (9), and down(0) iload_0 ifne iconst_0 ireturn (4): 31.
# fail(1, e), line 33: iload_0 ifle aload_1 athrow (4); the exception is
# caught in run, whose handler runs in run's context.
# In all 22n + 65.
RUN='Contexts.run(ILjava/lang/RuntimeException;)I@0'
n=10
run_agent "$P" Contexts.run "$FX" Contexts $n
expect_eq "contexts: status ok" "$(xpath "$P" /psf-profile/@status)" ok
expect_eq "contexts: version 7" "$(xpath "$P" /psf-profile/@version)" 7
expect_eq "contexts: run = 22n+65" "$(xpath "$P" /psf-profile/summary/@work)" $((22 * n + 65))
expect_eq "contexts: run's own = 10n+24" "$(frame work "$RUN")" $((10 * n + 24))
expect_eq "contexts: run is the program's" "$(frame program "$RUN")" true
expect_eq "contexts: twice from line 29 = 4n" "$(frame work "$RUN" 'Contexts.twice(I)I@29')" $((4 * n))
expect_eq "contexts: leaf from twice's line 11 = 8n (two call sites, one line)" \
  "$(frame work "$RUN" 'Contexts.twice(I)I@29' 'Contexts.leaf(I)I@11')" $((8 * n))
expect_eq "contexts: Math.max from line 30 = 6" "$(frame work "$RUN" 'java.lang.Math.max(II)I@30')" 6
expect_eq "contexts: Math.max is the JDK's" "$(frame program "$RUN" 'java.lang.Math.max(II)I@30')" ""
expect_eq "contexts: down(3) from line 31, recursion in one context = 31" \
  "$(frame work "$RUN" 'Contexts.down(I)I@31')" 31
expect_eq "contexts: no down below down" "$(xpath "$P" "count(/psf-profile/contexts/frame[@method='Contexts.down(I)I'])")" 1
expect_eq "contexts: fail from line 33 = 4 (the handler is run's)" \
  "$(frame work "$RUN" 'Contexts.fail(ILjava/lang/RuntimeException;)I@33')" 4
expect_eq "contexts: six frames" "$(xpath "$P" "count(/psf-profile/contexts/frame)")" 6
expect_eq "contexts: the frames add up to the total" "$(total work)" $((22 * n + 65))
expect_eq "contexts: nothing folded" "$(($(total other_work) + $(xpath "$P" /psf-profile/contexts/@other_work)))" 0
expect_eq "contexts: no overhead" "$(total overhead)" 0
# the scorer checks the sum and reads them
"$PSF_BUILD/psf-score" "$P" >/dev/null || fail "psf-score reads the contexts"

# --- Contexts.deep(n): ping and pong call each other n deep: deep is
# iload_0 invokestatic ireturn (3); each of the n calling frames runs
# iload_0 ifne iload_0 iconst_1 isub invokestatic iconst_1 iadd ireturn
# (9), the last iload_0 ifne iconst_0 goto ireturn (5): 9n + 8. Every
# level is a context of its own: with n = 3000 the thread's pool (2048
# contexts) fills, and the profile keeps the 1000 with the most bytecodes
# below them: deep and the first 999 levels (ping(3000) .. ping(2002)).
# The 999th level runs its own 9 (`work`); its `other` holds the 2002
# levels below it: 2001 calling ones (9 each) and the last (5).
n=3000
run_agent "$P" Contexts.deep "$FX" Contexts $n deep
expect_eq "deep: total = 9n+8" "$(xpath "$P" /psf-profile/summary/@work)" $((9 * n + 8))
expect_eq "deep: 1000 frames kept" "$(xpath "$P" "count(/psf-profile/contexts/frame)")" 1000
expect_eq "deep: the limit is stated" "$(xpath "$P" /psf-profile/contexts/@limit)" 1000
expect_eq "deep: frame 1000 is level 999 (ping)" "$(xpath "$P" "/psf-profile/contexts/frame[@id='1000']/@method")" 'Contexts.ping(I)I'
expect_eq "deep: frame 1000's own" "$(xpath "$P" "/psf-profile/contexts/frame[@id='1000']/@work")" 9
expect_eq "deep: frame 1000's other = the 2002 levels below" \
  "$(xpath "$P" "/psf-profile/contexts/frame[@id='1000']/@other_work")" $((2001 * 9 + 5))
expect_eq "deep: the frames add up to the total" "$(($(total work) + $(total other_work)))" $((9 * n + 8))
cp "$P" "$TEST_TMP/deep1.xml"
run_agent "$P" Contexts.deep "$FX" Contexts $n deep
# the frames counted, and a digest of them: two runs that wrote none do not agree
contexts() { echo "$(xpath "$1" 'count(/psf-profile/contexts/frame)') $(xmllint --xpath /psf-profile/contexts "$1" | sha256sum)"; }
expect_match "deep: the second run's contexts" "$(contexts "$P")" '^[1-9][0-9]* [0-9a-f]{64} '
expect_eq "deep: the same contexts on a second run" "$(contexts "$P")" "$(contexts "$TEST_TMP/deep1.xml")"
"$PSF_BUILD/psf-score" "$P" >/dev/null || fail "psf-score reads 1000 frames"

# --- Fib.fib(20): one context (direct recursion), all 207961 bytecodes.
P=$TEST_TMP/fib.xml
run_agent "$P" Fib.fib "$FX" Fib 20
expect_eq "fib: one frame" "$(xpath "$P" "count(/psf-profile/contexts/frame)")" 1
expect_eq "fib: it holds everything" "$(xpath "$P" "/psf-profile/contexts/frame[1]/@work")" 207961

# --- Implicit.run(3): exceptions the JVM throws (its constructors run, then
# the catch), each caught in run: every call stays under run, at its line.
# div(i, i % 3), line 25: div(0, 0) iload_0 iload_1 idiv (throws) = 3, then
# div(1, 1) and div(2, 2) iload_0 iload_1 idiv istore_2 iload_2 iconst_1
# iadd ireturn = 8 each: 19; the ArithmeticException's constructor below
# div, at its line 7. len(i % 2 == 0 ? null : v), line 30: aload_0
# arraylength (throws) = 2 for i = 0 and 2, aload_0 arraylength iconst_1
# iadd ireturn = 5 for i = 1: 9; the NullPointerException's constructor
# below len, at its line 12. at(v, i % 6), line 35, never out of bounds
# here: aload_0 iload_1 iaload istore_2 iload_2 iconst_2 imul ireturn = 8,
# three times: 24. (Before the handler's first step forgot the
# constructor's return, it left run's frame too: len stood at the top.)
P=$TEST_TMP/implicit.xml
IRUN='Implicit.run(I)I@0'
run_agent "$P" Implicit.run "$FX" Implicit 3
expect_eq "implicit: run at the top, alone" \
  "$(xpath "$P" "count(/psf-profile/contexts/frame[@parent='0'])") $(frame program "$IRUN")" "1 true"
expect_eq "implicit: div from line 25 = 19" "$(frame work "$IRUN" 'Implicit.div(II)I@25')" 19
expect_eq "implicit: len from line 30 = 9" "$(frame work "$IRUN" 'Implicit.len([I)I@30')" 9
expect_eq "implicit: at from line 35 = 24" "$(frame work "$IRUN" 'Implicit.at([II)I@35')" 24
expect_match "implicit: the ArithmeticException made under div, at its line 7" \
  "$(frame work "$IRUN" 'Implicit.div(II)I@25' 'java.lang.ArithmeticException.<init>(Ljava/lang/String;)V@7')" '^[1-9][0-9]*$'
expect_match "implicit: the NullPointerExceptions made under len, at its line 12" \
  "$(frame work "$IRUN" 'Implicit.len([I)I@30' 'java.lang.NullPointerException.<init>()V@12')" '^[1-9][0-9]*$'
expect_eq "implicit: the frames add up to the total" "$(total work)" "$(xpath "$P" /psf-profile/summary/@work)"

# --- StaticWork.fails(): its getstatic (line 75) runs StaticWork$Fails's
# initializer, which throws at line 63 (new, invokespecial, athrow); the
# JVM takes the exception there, then runs its own Java code (the
# ExceptionInInitializerError it throws, its stack trace) before the
# catch in fails. Called from line 63: the IllegalStateException's
# constructor (aload_0 aload_1 invokespecial return = 4) and, when the
# JVM loads ExceptionInInitializerError there, its initializer, entered
# at the throw. Every other frame below the initializer the JVM entered
# from its own code, after another frame of its own ended: no line (0),
# not an offset of that other method read as the initializer's line.
P=$TEST_TMP/fails.xml
# shellcheck disable=SC2016 # Java's nested classes' names ($) in single quotes
FCL='StaticWork$Fails.<clinit>()V@75'
run_agent "$P" StaticWork.fails "$FX" StaticWork fails
expect_eq "fails: the exception's constructor from line 63 = 4" \
  "$(frame work 'StaticWork.fails()I@0' "$FCL" 'java.lang.IllegalStateException.<init>(Ljava/lang/String;)V@63')" 4
expect_match "fails: the ExceptionInInitializerError made below the initializer, at no line" \
  "$(frame work 'StaticWork.fails()I@0' "$FCL" 'java.lang.ExceptionInInitializerError.<init>(Ljava/lang/Throwable;)V@0')" '^[1-9][0-9]*$'
CID=$(xpath "$P" "/psf-profile/contexts/frame[@method='StaticWork\$Fails.<clinit>()V']/@id")
expect_match "fails: the initializer has a frame" "$CID" '^[0-9]+$'
# (count(): a broken expression prints nothing, where an empty set is 0)
expect_eq "fails: below the initializer, line 63 only for calls made there" \
  "$(xpath "$P" "count(/psf-profile/contexts/frame[@parent='$CID' and @line!='0' and not(@method='java.lang.IllegalStateException.<init>(Ljava/lang/String;)V' or @method='java.lang.ExceptionInInitializerError.<clinit>()V')])")" 0
finish
