#!/usr/bin/env bash
# shellcheck disable=SC2016 # Java's nested classes' names ($) in single quotes
# agent_counts.sh - the agent's profiles on fixtures whose counts are derived
# by hand from their bytecode (javap -c), not from earlier runs.
# PSF_AGENT_FIXTURES names another directory of the same fixtures' class
# files (scripts/self_test.sh compiles them with the javac of the JDK tested).
set -eu
. "$(dirname "$0")/lib.sh"
FX=${PSF_AGENT_FIXTURES:-$PSF_BUILD/fixtures/agent}
P=$TEST_TMP/p.xml

op() { xpath "$P" "/psf-profile/opcodes[@bucket='$1']/opcode[@name='$2']/@count"; }

# --- Loops.sum(n): 0 iconst_0, 1 istore_1, 2 iconst_0, 3 istore_2, then the test
# at 4 iload_2, 5 iload_0, 6 if_icmpge runs n+1 times, the body 9 iload_1,
# 10 iload_2, 11 iadd, 12 istore_1, 13 iinc, 16 goto runs n times, and
# 19 iload_1, 20 ireturn once: 4 + 3(n+1) + 6n + 2 = 9n + 9.
for n in 0 1 10 1000; do
  run_agent "$P" Loops.sum "$FX" Loops "$n"
  expect_eq "loops: sum($n) work = 9n+9" "$(xpath "$P" /psf-profile/summary/@work)" $((9 * n + 9))
done
expect_eq "loops: status ok" "$(xpath "$P" /psf-profile/@status)" ok
expect_eq "loops: iload_2 = 2n+1" "$(op work iload_2)" 2001
expect_eq "loops: if_icmpge = n+1" "$(op work if_icmpge)" 1001
expect_eq "loops: iinc = n" "$(op work iinc)" 1000
expect_eq "loops: istore_1 = n+1" "$(op work istore_1)" 1001
expect_eq "loops: ireturn = 1" "$(op work ireturn)" 1
expect_eq "loops: 11 distinct opcodes" "$(xpath "$P" "count(/psf-profile/opcodes[@bucket='work']/opcode)")" 11
expect_eq "loops: no overhead" "$(xpath "$P" /psf-profile/summary/@overhead)" 0
# Lines (LineNumberTable of sum: line 4 at 0, 5 at 2, 6 at 9, 5 again at 13,
# 7 at 19): line 4 runs iconst_0 istore_1 once; line 5 iconst_0 istore_2
# once, the test (4 iload_2, 5 iload_0, 6 if_icmpge) n+1 times and 13 iinc,
# 16 goto n times: 5n+5; line 6 the body's 4 bytecodes n times: 4n; line 7
# iload_1 ireturn once. n = 1000.
SUM="/psf-profile/methods/method[@name='Loops.sum(I)I']"
line() { xpath "$P" "$SUM/line[@number='$1']/@work"; }
lop() { xpath "$P" "$SUM/line[@number='$1']/opcode[@name='$2']/@work"; }
expect_eq "loops: lines 4 5 6 7" "$(xmllint --xpath "$SUM/line/@number" "$P" | grep -o '[0-9]\+' | tr '\n' ' ')" "4 5 6 7 "
expect_eq "loops: line 4 = 2" "$(line 4)" 2
expect_eq "loops: line 5 = 5n+5" "$(line 5)" 5005
expect_eq "loops: line 6 = 4n" "$(line 6)" 4000
expect_eq "loops: line 7 = 2" "$(line 7)" 2
expect_eq "loops: line 5 iload_2 = n+1 (the test)" "$(lop 5 iload_2)" 1001
expect_eq "loops: line 6 iload_2 = n (the body)" "$(lop 6 iload_2)" 1000
expect_eq "loops: line 5 iinc = n" "$(lop 5 iinc)" 1000
expect_eq "loops: line 5 opcodes" "$(xpath "$P" "count($SUM/line[@number='5']/opcode)")" 7
# Branches: the if_icmpge at 6 falls through n times and is taken once (the
# exit). The simulated predictor (common/branchpred.h) starts at strongly not
# taken with an empty history that not-taken outcomes keep empty: every
# fall-through is predicted, the exit is the one miss.
br() { xpath "$P" "/psf-profile/branches[@bucket='$1']/@$2"; }
expect_eq "loops: conditional branches = n+1" "$(br work conditional)" 1001
expect_eq "loops: taken once" "$(br work taken)" 1
expect_eq "loops: mispredicted once (the exit)" "$(br work mispredicted)" 1
expect_eq "loops: no overhead branches" "$(br overhead conditional)" 0

# --- Branches.doWhile(100): one backward if_icmplt, taken 99 times, then not.
# From the empty predictor (common/branchpred.h) the taken outcomes meet 12
# fresh counters while the history fills (0, 1, 3, ... 0x7ff: 12 misses),
# then the counter for history 0xfff needs two taken outcomes to predict
# taken (2 misses) and saturates; the final fall-through at 0xfff is
# predicted taken: 15 misses.
run_agent "$P" Branches.doWhile "$FX" Branches doWhile 100
expect_eq "do-while: conditional = n" "$(br work conditional)" 100
expect_eq "do-while: taken = n-1 (backward)" "$(br work taken)" 99
expect_eq "do-while: mispredicted = 12 + 2 + 1" "$(br work mispredicted)" 15

# --- Branches.init(300): a class initializer of the program's own inside the
# method is work, branches included, and absent when main ran it first.
# <clinit>: k < 40 tested 41 times (taken once, the exit), (k & 1) != 0
# tested 40 times (ifeq taken for the 20 even k): 81 and 21. Its bytecodes:
# 2 + 3*41 (test) + 4*40 (and) + 4*20 (odd++) + 2*40 (iinc goto) + 1 = 446.
# init: i < n tested 301 times (taken once), i % 3 == 0 tested 300 times
# (ifne taken for the 200 i not divisible by 3): 601 and 201.
run_agent "$P" Branches.init "$FX" Branches init 300
expect_eq "init inside: work conditional = 601 + 81" "$(br work conditional)" 682
expect_eq "init inside: work taken = 201 + 21" "$(br work taken)" 222
expect_eq "init inside: no overhead branches" "$(br overhead conditional)" 0
inside=$(xpath "$P" //summary/@work)
run_agent "$P" Branches.init "$FX" Branches initBefore 300
expect_eq "init before: work conditional" "$(br work conditional)" 601
expect_eq "init before: work taken" "$(br work taken)" 201
expect_eq "init before: no overhead branches" "$(br overhead conditional)" 0
expect_eq "init inside: work = before + 446 (Table.<clinit>)" "$inside" $(($(xpath "$P" //summary/@work) + 446))

# --- Fib.fib(20): 10,946 base calls (iload_0 iconst_2 if_icmpge iload_0 goto
# ireturn = 6) and 10,945 recursive calls (iload_0 iconst_2 if_icmpge iload_0
# iconst_1 isub invokestatic iload_0 iconst_2 isub invokestatic iadd ireturn =
# 13). Recursion is one outermost invocation.
run_agent "$P" Fib.fib "$FX" Fib 20
expect_eq "fib: work = 10946*6 + 10945*13" "$(xpath "$P" /psf-profile/summary/@work)" 207961
expect_eq "fib: one outermost invocation" "$(xpath "$P" /psf-profile/summary/@invocations)" 1
expect_eq "fib: invokestatic = 2*10945" "$(op work invokestatic)" 21890
expect_eq "fib: goto = base calls" "$(op work goto)" 10946
expect_eq "fib: iconst_2 = 21891 + 10945" "$(op work iconst_2)" 32836
expect_eq "fib: invoke key counted" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/invoke[@method='Fib.fib(I)I']/@count")" 21890
expect_eq "fib: per-method breakdown" "$(xpath "$P" "/psf-profile/methods/method[@name='Fib.fib(I)I']/@work")" 207961
# every call tests n < 2 once: taken (to the recursive part) in the 10,945
# recursive calls, not taken in the 10,946 base calls
expect_eq "fib: conditional branches = calls" "$(br work conditional)" 21891
expect_eq "fib: taken = recursive calls" "$(br work taken)" 10945

# --- TailRec: a method that calls itself right before a return resumes at
# that return; when its callee returned from the same one, HotSpot posts no
# step for it (same method and location as the last step) and the agent
# counts it when the callee's frame pops. down(n): n frames of iload_0 ifne
# iload_0 iconst_1 isub invokestatic return (7) and one of iload_0 ifne
# return (3); without the fix n - 1 returns were lost.
run_agent "$P" TailRec.down "$FX" TailRec down 10
expect_eq "tail calls: down(10) = 7n+3" "$(xpath "$P" /psf-profile/summary/@work)" 73
expect_eq "tail calls: a return a frame" "$(op work return)" 11
expect_eq "tail calls: ended by return" "$(xpath "$P" "/psf-profile/invocations/invocation[1]/@end")" return
# its lines (15 at 0, 16 at 5, 17 at 11): line 15 iload_0 ifne in n+1 frames
# and the last frame's return (2n+3), line 16 4n, line 17 the n returns at
# 11, n-1 of them never posted (counted by tail_returns)
DOWN="/psf-profile/methods/method[@name='TailRec.down(I)V']"
expect_eq "tail calls: down(10) line 15 = 2n+3" "$(xpath "$P" "$DOWN/line[@number='15']/@work")" 23
expect_eq "tail calls: down(10) line 16 = 4n" "$(xpath "$P" "$DOWN/line[@number='16']/@work")" 40
expect_eq "tail calls: down(10) line 17 = n returns" "$(xpath "$P" "$DOWN/line[@number='17']/opcode[@name='return']/@work")" 10
# Deep chains: the callers are read in batches of 16, 64, 256, ... frames
# (step/step.c tail_returns); down(n)'s chain holds n - 1 callers, so 17 and
# 81 fill the first one and two batches exactly, and 5000 crosses five.
for n in 17 18 81 5000; do
  run_agent "$P" TailRec.down "$FX" TailRec down "$n"
  expect_eq "tail calls: down($n) = 7n+3" "$(xpath "$P" /psf-profile/summary/@work)" $((7 * n + 3))
  expect_eq "tail calls: down($n) returns = n+1" "$(op work return)" $((n + 1))
done
# count(n, acc): 10 a frame (... iload_1 iconst_1 iadd invokestatic ireturn),
# iload_0 ifne iload_1 ireturn for the last: 10n + 4; its ireturn at 5 differs
# from the callers' at 15, so only n - 1 of them were lost
run_agent "$P" TailRec.count "$FX" TailRec count 1000
expect_eq "tail calls: count(1000) = 10n+4" "$(xpath "$P" /psf-profile/summary/@work)" 10004
expect_eq "tail calls: an ireturn a frame" "$(op work ireturn)" 1001
run_agent "$P" TailRec.count "$FX" TailRec count 5000
expect_eq "tail calls: count(5000) = 10n+4" "$(xpath "$P" /psf-profile/summary/@work)" 50004
# both(n): 2^n - 1 frames call twice (11 bytecodes), 2^n leaves (3); only the
# second call precedes the return: 11 * 1023 + 3 * 1024 for n = 10
run_agent "$P" TailRec.both "$FX" TailRec both 10
expect_eq "tail calls: both(10) = 11(2^n-1) + 3*2^n" "$(xpath "$P" /psf-profile/summary/@work)" 14325
expect_eq "tail calls: both(10) returns = frames" "$(op work return)" 2047
# Walker.walk(n), an interface's default method through invokeinterface (5
# bytes): n frames of iload_1 ifne aload_0 iload_1 iconst_1 isub
# invokeinterface ireturn (8), the last iload_1 ifne iconst_0 goto ireturn (5)
# returns from the callers' very ireturn at 17: without the fix all n lost
run_agent "$P" 'TailRec$Walker.walk' "$FX" TailRec walk 100
expect_eq "tail calls: interface walk(100) = 8n+5" "$(xpath "$P" /psf-profile/summary/@work)" 805
expect_eq "tail calls: walk ireturns" "$(op work ireturn)" 101
# unwind(n): thrower(n) = 6n + 4 (its n tail frames are unwound by the
# exception: no ireturn runs, none is added), the handler, then down(n) =
# 7n + 3, and unwind's own 11 (iconst_0 istore_1 iload_0 invokestatic
# astore_2 iconst_m1 istore_1 iload_0 invokestatic iload_1 ireturn)
run_agent "$P" TailRec.unwind "$FX" TailRec unwind 10
expect_eq "tail calls: unwound by an exception, then down = 11 + 64 + 73" "$(xpath "$P" /psf-profile/summary/@work)" 148
expect_eq "tail calls: unwound frames run no ireturn" "$(op work ireturn)" 1
# spin(): `for (;;) { }` is a goto to itself, whose steps HotSpot posts once:
# it would spin uncounted until the wall clock ran out. It stops at once as
# over the bytecode limit (1 bytecode counted: the goto).
timeout 60 "$JAVA" "${PINNED_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=TailRec.spin,out=$P,max_bytecodes=1000000" \
  -cp "$FX" TailRec spin 0 >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || true
expect_eq "endless goto: bytecode limit" "$(xpath "$P" /psf-profile/@status)" bytecode_limit
expect_match "endless goto: says where" "$(xpath "$P" "/psf-profile/message")" "goto to itself at offset 0 of TailRec.spin"

# --- PoolTwice: a pool worker counted as a helper in invocation 1 and stopped
# at its end may run the method itself in invocation 2: it must open an
# extent of its own (recorded, closed), not one that never ends (which
# credited its later work to invocation 1) and not count as a hidden thread
# for work it is counted for. Whether the worker or main runs a task is the
# pool's choice, so the run is checked for what must hold either way: ok,
# every invocation ended by return, and invocation 1 costs what one call
# alone costs, within 5% (the pool's threads take turns in a fixed order, so
# both repeat: 13,337 and 13,338 here; an extent that never ends, or a helper
# still counted for invocation 1 when invocation 2 runs, credits invocation
# 1 with invocation 2's work: 84,958, or 16,132 to 20,114).
run_agent "$P" PoolTwice.target "$FX" PoolTwice 1
once=$(xpath "$P" "/psf-profile/invocations/invocation[1]/@work")
run_agent "$P" PoolTwice.target "$FX" PoolTwice 2
expect_eq "pool twice: ok" "$(xpath "$P" /psf-profile/@status)" ok
expect_eq "pool twice: every invocation returned" \
  "$(xpath "$P" "count(/psf-profile/invocations/invocation[@end!='return'])")" 0
first=$(xpath "$P" "/psf-profile/invocations/invocation[1]/@work")
if [ -n "$once" ] && [ -n "$first" ] && [ $((first * 20)) -le $((once * 21)) ] && [ $((first * 20)) -ge $((once * 19)) ]; then
  pass "pool twice: invocation 1 within 5% of one call's work ($first vs $once)"
else
  fail "pool twice: invocation 1 within 5% of one call's work" "$first vs $once"
fi

# --- Exceptions: caught(1) = iload_0 ifle getstatic athrow + handler astore_1
# iconst_1 ireturn = 7; caught(0) = iload_0 ifle iconst_0 ireturn = 4;
# escape() = getstatic athrow = 2, ending by exception.
run_agent "$P" Exceptions.caught "$FX" Exceptions
expect_eq "exceptions: two invocations" "$(xpath "$P" /psf-profile/summary/@invocations)" 2
expect_eq "exceptions: caught inside = 7" "$(xpath "$P" "/psf-profile/invocations/invocation[1]/@work")" 7
expect_eq "exceptions: not thrown = 4" "$(xpath "$P" "/psf-profile/invocations/invocation[2]/@work")" 4
expect_eq "exceptions: summed = 11" "$(xpath "$P" /psf-profile/summary/@work)" 11
expect_eq "exceptions: ended by return" "$(xpath "$P" "/psf-profile/invocations/invocation[1]/@end")" return
run_agent "$P" Exceptions.escape "$FX" Exceptions
expect_eq "exceptions: escaping = 2" "$(xpath "$P" /psf-profile/summary/@work)" 2
expect_eq "exceptions: ended by exception" "$(xpath "$P" "/psf-profile/invocations/invocation[1]/@end")" exception
expect_eq "exceptions: athrow counted" "$(op work athrow)" 1

# --- Overloads: a bare name with two overloads is ambiguous; a descriptor picks.
run_agent "$P" Overloads.twice "$FX" Overloads
expect_eq "overloads: bare name ambiguous" "$(xpath "$P" /psf-profile/@status)" ambiguous_method
expect_eq "overloads: candidates listed" "$(xpath "$P" "concat(/psf-profile/candidates/candidate[1]/@descriptor,' ',/psf-profile/candidates/candidate[2]/@descriptor)")" "(I)I (J)J"
run_agent "$P" 'Overloads.twice(J)J' "$FX" Overloads
expect_eq "overloads: (J)J invoked twice" "$(xpath "$P" /psf-profile/summary/@invocations)" 2
expect_eq "overloads: lload_0 lload_0 ladd lreturn, twice" "$(xpath "$P" /psf-profile/summary/@work)" 8
expect_eq "overloads: ladd = 2" "$(op work ladd)" 2
expect_eq "overloads: resolved descriptor" "$(xpath "$P" /psf-profile/target/@descriptor)" "(J)J"
run_agent "$P" 'Overloads.twice(I)I' "$FX" Overloads
expect_eq "overloads: (I)I invoked once" "$(xpath "$P" /psf-profile/summary/@work)" 4
run_agent "$P" Overloads.never "$FX" Overloads
expect_eq "overloads: never invoked" "$(xpath "$P" /psf-profile/@status)" not_invoked
run_agent "$P" Overloads.missing "$FX" Overloads
expect_eq "overloads: no such method" "$(xpath "$P" /psf-profile/@status)" method_not_found
run_agent "$P" NoSuchClass.m "$FX" Overloads
expect_eq "class never loaded" "$(xpath "$P" /psf-profile/@status)" class_not_loaded

# --- Calls: method entries (the step at offset 0 after an invoke) and how
# close each follows the previous one: the sum of 100 - (bytecodes since the
# previous entry) over entries fewer than 100 bytecodes after it.
calls() { xpath "$P" "/psf-profile/calls[@bucket='$1']/@$2"; }
# chain(n): chain's own entry has no previous one. Its bytecodes 0..10 before
# the first call of sf are iconst_0 istore_1 iconst_0 istore_2 iload_2 iload_0
# if_icmpge iload_1 invokestatic (9): 91. Each later call follows sf's
# iload_0 iconst_1 iadd ireturn and istore_1 iinc goto iload_2 iload_0
# if_icmpge iload_1 invokestatic (12): 88.
for n in 1 2 10; do
  run_agent "$P" Calls.chain "$FX" Calls chain "$n"
  expect_eq "calls: chain($n) entries = n+1" "$(calls work entries)" $((n + 1))
  expect_eq "calls: chain($n) close = 91 + 88(n-1)" "$(calls work close)" $((91 + 88 * (n - 1)))
done
expect_eq "calls: none in overhead" "$(calls overhead entries)" 0
run_agent "$P" Calls.chain "$FX" Calls chain 0
expect_eq "calls: chain(0) has its own entry only" "$(calls work entries) $(calls work close)" "1 0"
# spread(n): work's body runs 2 + 3*21 + 6*20 + 2 = 187 bytecodes, so only
# the first call (9 bytecodes after spread's entry) is close.
run_agent "$P" Calls.spread "$FX" Calls spread 50
expect_eq "calls: spread(50) entries" "$(calls work entries)" 51
expect_eq "calls: spread(50) close: the first call only" "$(calls work close)" 91
# natives(n): System.identityHashCode is native (no frame of bytecodes, no
# entry); Object.<init> is entered 5 bytecodes after natives' entry
# (iconst_0 istore_1 new dup invokespecial): 95.
run_agent "$P" Calls.natives "$FX" Calls natives 100
expect_eq "calls: natives(100) entries: itself and Object.<init>" "$(calls work entries)" 2
expect_eq "calls: natives(100) close" "$(calls work close)" 95
# Fences: native calls and allocations, with the closeness of the bytecodes
# from the last method entry to the call's invoke or the allocation, both
# included (common/calls.h). natives' new is the third bytecode from its own
# entry: 97. The first identityHashCode call is the tenth from
# Object.<init>'s entry (its return, astore_2 iconst_0 istore_3 iload_3
# iload_0 if_icmpge iload_1 aload_2 invokestatic): 90; each later one 12
# further (iconst_1 iand iadd istore_1 iinc goto and the six before the
# call): 78, 66, ... 6, then none: 90 + 78 + ... + 6 = 384.
expect_eq "calls: natives(100) fence_native" "$(calls work fence_native)" 384
expect_eq "calls: natives(100) fence_alloc" "$(calls work fence_alloc)" 97
# chain(n) calls no native and allocates nothing.
run_agent "$P" Calls.chain "$FX" Calls chain 10
expect_eq "calls: chain(10) no fence" "$(calls work fence_native) $(calls work fence_alloc)" "0 0"
# fence(): sf's entry, its 4 bytecodes, then istore_2 aload_0 iconst_0
# aload_1 iconst_0 bipush invokestatic: 11 to the arraycopy (89); iconst_4
# and newarray: 13 to the allocation (87).
run_agent "$P" Calls.fence "$FX" Calls fence 0
expect_eq "calls: fence() fence_native" "$(calls work fence_native)" 89
expect_eq "calls: fence() fence_alloc" "$(calls work fence_alloc)" 87
# allocs(): iconst_2 iconst_3 multianewarray (3rd from the method's own
# entry: 97), astore_0 iconst_2 anewarray (6th: 94).
run_agent "$P" Calls.allocs "$FX" Calls allocs 0
expect_eq "calls: allocs() fence_alloc" "$(calls work fence_alloc)" 191
# intrinsic(): Math.sqrt runs no bytecode but is an interpreter intrinsic,
# no native wrapper: no fence (it is still a native="true" call). The
# arraycopy after it is the 15th bytecode from sf's entry (sf's 4, istore_2
# iload_2 i2d invokestatic dstore_3 aload_0 iconst_0 aload_1 iconst_0 bipush
# invokestatic): 85.
run_agent "$P" Calls.intrinsic "$FX" Calls intrinsic 0
expect_eq "calls: intrinsic() fence_native: the arraycopy only" "$(calls work fence_native)" 85
expect_eq "calls: intrinsic() Math.sqrt is native=true" \
  "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/invoke[@method='java.lang.Math.sqrt(D)D']/@native")" true
expect_eq "calls: fence() none in overhead" "$(calls overhead fence_native) $(calls overhead fence_alloc)" "0 0"
# Entries: a static initializer of the program's, run at the method's first
# touch of its class. One run at an invokestatic or getstatic is run by the
# agent as if the instruction called it (agent/runtime/clinit.c): its first bytecode
# is an entry, and the callee of the invokestatic is one too, after it.
# viaCall: its own entry (0), invokestatic, ByCall.<clinit> entered 1 after
# it (99), its bipush putstatic return, ByCall.get entered 3 after that
# (97). viaGet: its own entry, getstatic, ByGet.<clinit> 1 after it (99).
# One that `new` runs is stepped by HotSpot right after the new, which is no
# invoke: no entry. viaNew: its own entry, new (an allocation 1 after the
# entry: 99), ByNew.<clinit>'s 3, dup, invokespecial, ByNew.<init> entered 6
# after viaNew's (94), aload_0 invokespecial, Object.<init> 2 after (98).
run_agent "$P" Entries.viaCall "$FX" Entries call
expect_eq "calls: an initializer run at invokestatic is an entry, and so is the callee" \
  "$(xpath "$P" /psf-profile/summary/@work) $(calls work entries) $(calls work close)" "7 3 196"
run_agent "$P" Entries.viaGet "$FX" Entries get
expect_eq "calls: an initializer run at getstatic is an entry" \
  "$(xpath "$P" /psf-profile/summary/@work) $(calls work entries) $(calls work close)" "5 2 99"
run_agent "$P" Entries.viaNew "$FX" Entries new
expect_eq "calls: an initializer that new runs is no entry" \
  "$(xpath "$P" /psf-profile/summary/@work) $(calls work entries) $(calls work close) $(calls work fence_alloc)" "13 3 192 99"
# viaGetThenNew: its own entry, getstatic, BeforeNew.<clinit> entered 1
# after it (99) and its 3 bytecodes, istore_0 iconst_1, then newarray, the
# 6th bytecode from the initializer's entry: 94 (10 + 3 bytecodes).
run_agent "$P" Entries.viaGetThenNew "$FX" Entries getnew
expect_eq "calls: an allocation's fence counts from the entry of the initializer a static access ran" \
  "$(xpath "$P" /psf-profile/summary/@work) $(calls work entries) $(calls work close) $(calls work fence_alloc)" "13 2 99 94"

# --- Constants: an ldc or ldc_w of a class constant is a dependency
# (<ldc constant="class">), one of a number or a string is not.
# mixed(n): 0..3 (4), the test at 4 iload_2 5 iload_0 6 if_icmpge n+1 times,
# the body 9 ldc (class) 11 astore_3 12 ldc (String) 14 astore 16 ldc (int)
# 18 istore 20 aload_3 21 ldc (class [I) 23 if_acmpeq (falls through) 26 aload
# 28 ifnonnull (taken) 36 iinc 39 iinc 42 goto n times (14), 45 iload_1
# 46 ireturn: 4 + 3(n+1) + 14n + 2 = 17n + 9, of them 4n ldc, 2n of a class.
ldc() { xpath "$P" "/psf-profile/dependencies[@bucket='$1']/ldc[@constant='class']/@count"; }
for n in 1 100; do
  run_agent "$P" Constants.mixed "$FX" Constants mixed "$n"
  expect_eq "constants: mixed($n) work = 17n+9" "$(xpath "$P" /psf-profile/summary/@work)" $((17 * n + 9))
  expect_eq "constants: mixed($n) ldc = 4n" "$(op work ldc)" $((4 * n))
  expect_eq "constants: mixed($n) ldc of a class = 2n" "$(ldc work)" $((2 * n))
done
expect_eq "constants: one ldc key" "$(xpath "$P" "count(//dependencies/ldc)")" 1
# Scored with every opcode at 1 (the uncalibrated table): 1709 bytecodes plus
# the 200 class constants at <ldc constant="class">'s price, 60 each; a table
# without that price charges its default (1) and names the key missing.
sed 's|</costs>|  <ldc constant="class" cost="60"/>\n</costs>|' "$PSF_ROOT/config/costs-uncalibrated.xml" >"$TEST_TMP/ldc.costs.xml"
expect_eq "constants: scored with the ldc price" \
  "$("$PSF_BUILD/psf-score" --costs "$TEST_TMP/ldc.costs.xml" --score-only "$P")" "~$((1709 + 200 * 60))"
expect_eq "constants: without it, the default and ldc:class missing" \
  "$("$PSF_BUILD/psf-score" --costs "$PSF_ROOT/config/costs-uncalibrated.xml" --json "$P" | jq -c '[.score, .missing]')" \
  '[1909,["ldc:class"]]'
expect_eq "constants: the 200 class constants in JSON" \
  "$("$PSF_BUILD/psf-score" --json "$P" | jq .class_constants)" 200
run_agent "$P" Constants.mixed "$FX" Constants mixed 0
expect_eq "constants: mixed(0) loads no class" "$(xpath "$P" "count(//dependencies/ldc)")" 0
# wide(n): the class constant's index is above 255 (pad() comes first), so
# 9 ldc_w 12 ifnull 15 iinc 18 iinc 21 goto: 4 + 3(n+1) + 5n + 2 = 8n + 9.
run_agent "$P" Constants.wide "$FX" Constants wide 50
expect_eq "constants: wide(50) work = 8n+9" "$(xpath "$P" /psf-profile/summary/@work)" 409
expect_eq "constants: wide(50) ldc_w = n" "$(op work ldc_w)" 50
expect_eq "constants: wide(50) ldc_w of a class = n" "$(ldc work)" 50

# --- Nested classes are named Outer$Inner: iload_0 iload_0 imul ireturn.
run_agent "$P" 'Nested$Inner.square' "$FX" Nested
expect_eq "nested: Outer\$Inner.square = 4" "$(xpath "$P" /psf-profile/summary/@work)" 4

# --- Array sizes, however computed (make(n), javap: 41 bytecodes, plus
# size() = iconst_5 ireturn): int[n] and new int[n][4] (n more int arrays of
# 4), long[field=7], char[size()=5], byte[3n+1], String[2], int[][] of n.
arr() { xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='$1']/@$2"; }
for n in 0 3 100; do
  run_agent "$P" ArraySizes.make "$FX" ArraySizes "$n"
  expect_eq "arrays($n): work = 41 + 2" "$(xpath "$P" /psf-profile/summary/@work)" 43
  if [ "$n" -eq 0 ]; then want_int_allocs=1; else want_int_allocs=$((n + 1)); fi
  expect_eq "arrays($n): int allocations" "$(arr int allocations)" "$want_int_allocs"
  expect_eq "arrays($n): int elements = n + 4n" "$(arr int elements)" $((5 * n))
  expect_eq "arrays($n): long[field]" "$(arr long elements)" 7
  expect_eq "arrays($n): char[size()]" "$(arr char elements)" 5
  expect_eq "arrays($n): byte[3n+1]" "$(arr byte elements)" $((3 * n + 1))
  expect_eq "arrays($n): String[2]" "$(arr java.lang.String elements)" 2
  expect_eq "arrays($n): int[][] outer of n" "$(arr 'int[]' elements)" "$n"
  expect_eq "arrays($n): multianewarray once" "$(op work multianewarray)" 1
done

# --- An array of a class not loaded yet (ArrayLoad): the anewarray of one(n)
# and the multianewarray of grid(n) first have the application class loader
# load the class, Java code HotSpot runs without single-stepping, which
# allocates arrays of its own (byte[], int[]), and so does the JVM (the
# String of the name). Only the instruction's arrays are charged: one(5)
# (iload_0 anewarray astore_1 aload_1 arraylength ireturn: 6) makes one
# Later[5]; grid(5) (iload_0 iconst_2 multianewarray astore_1 aload_1
# arraylength ireturn: 7) one Cell[][] of 5 and five Cell[] of 2.
arrays_of() { xpath "$P" "concat(count(/psf-profile/dependencies/array), ' ', sum(/psf-profile/dependencies/array/@allocations), ' ', sum(/psf-profile/dependencies/array/@elements))"; }
run_agent "$P" ArrayLoad.one "$FX" ArrayLoad one 5
expect_eq "arrayload: one(5) work = 6" "$(xpath "$P" /psf-profile/summary/@work)" 6
expect_eq "arrayload: one(5) Later[5]" "$(arr 'ArrayLoad$Later' allocations) $(arr 'ArrayLoad$Later' elements)" "1 5"
expect_eq "arrayload: one(5) no other array (keys, allocations, elements)" "$(arrays_of)" "1 1 5"
run_agent "$P" ArrayLoad.grid "$FX" ArrayLoad grid 5
expect_eq "arrayload: grid(5) work = 7" "$(xpath "$P" /psf-profile/summary/@work)" 7
expect_eq "arrayload: grid(5) Cell[][5]" "$(arr 'ArrayLoad$Cell[]' allocations) $(arr 'ArrayLoad$Cell[]' elements)" "1 5"
expect_eq "arrayload: grid(5) five Cell[2]" "$(arr 'ArrayLoad$Cell' allocations) $(arr 'ArrayLoad$Cell' elements)" "5 10"
expect_eq "arrayload: grid(5) no other array (keys, allocations, elements)" "$(arrays_of)" "2 6 15"

# --- Array instructions that throw (ArrayThrows): a negative size makes no
# array, though HotSpot allocates the outer level of new byte[2][-1] (a
# byte[][] of 2; Object[][] of 2 for objects) and the message's byte[] ("-1",
# a byte[2]) before it throws; none of those is charged. What each of
# ints, bytes, objects and explicit(-1) charges is the exception's stack
# trace: Throwable's constructor calls fillInStackTrace, whose native
# (java_lang_Throwable::fill_in_stack_trace) fills one chunk of a backtrace
# for the frames (2 here, fewer than a chunk's 32): a head Object[] of one
# slot per field (methods, bcis, mirrors, names, next, hidden: 6 on JDK 17;
# from JDK 19 on a 7th, the continuation scopes), a short[32] of methods,
# an int[32] of bytecode indexes, an Object[32] of mirrors and a long[32]
# of names (symbols, a long each on a 64-bit JVM). The message "-1" of
# explicit is a constant (ldc, no array). Object: 2 allocations, 32 + 6 or 7.
# (the JVM that ran says which: the profile's jvm/@version, not the JDK's
# release file, which a stand-in JDK may word otherwise)
run_agent "$P" "ArrayThrows.explicit" "$FX" ArrayThrows explicit -1
vm_feature=$(xpath "$P" "/psf-profile/jvm/@version" | sed 's/^\([0-9]*\).*/\1/')
if [ "${vm_feature:-0}" -ge 19 ]; then head=7; else head=6; fi
want_arrays="<array elem=\"int\" allocations=\"1\" elements=\"32\"/> <array elem=\"java.lang.Object\" allocations=\"2\" elements=\"$((32 + head))\"/> <array elem=\"long\" allocations=\"1\" elements=\"32\"/> <array elem=\"short\" allocations=\"1\" elements=\"32\"/>"
for m in explicit ints bytes objects; do
  run_agent "$P" "ArrayThrows.$m" "$FX" ArrayThrows "$m" -1
  expect_eq "arraythrows: $m(-1) charges the stack trace's arrays, none of its own" \
    "$(sed -n 's/.*\(<array [^>]*>\).*/\1/p' "$P" | sort | paste -sd' ' -)" "$want_arrays"
  expect_eq "arraythrows: $m(-1) returns -1" "$(cat "$TEST_TMP/program.out")" -1
done
run_agent "$P" ArrayThrows.bytes "$FX" ArrayThrows bytes 3
expect_eq "arraythrows: bytes(3) one byte[][2] and two byte[3] (keys, allocations, elements)" "$(arrays_of)" "2 3 8"

# --- Class initializers: init() = new dup invokespecial astore_0 aload_0
# getfield getstatic iadd ireturn (9) + Lazy.<init> (aload_0 invokespecial
# aload_0 iconst_1 putfield return = 6) + Object.<init> (return) = 16.
# Lazy.<clinit> (iconst_3 newarray putstatic getstatic iconst_0 iconst_1
# iastore return = 8), triggered by `new`, which HotSpot steps, and
# Quiet.<clinit> (bipush putstatic return = 3), triggered by getstatic, which
# HotSpot hides and the agent runs itself (agent/runtime/clinit.c): the program's
# own initializers are work, 16 + 8 + 3 = 27.
run_agent "$P" ClassInit.init "$FX" ClassInit
expect_eq "clinit: work = 27" "$(xpath "$P" /psf-profile/summary/@work)" 27
expect_eq "clinit: no overhead" "$(xpath "$P" /psf-profile/summary/@overhead)" 0
expect_eq "clinit: Lazy.<clinit> is work (8)" "$(xpath "$P" "/psf-profile/methods/method[@name='ClassInit\$Lazy.<clinit>()V']/@work")" 8
expect_eq "clinit: Quiet.<clinit> is work (3)" "$(xpath "$P" "/psf-profile/methods/method[@name='ClassInit\$Quiet.<clinit>()V']/@work")" 3
expect_eq "clinit: its array is work" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='int']/@elements")" 3
expect_eq "clinit: new keyed by class" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/new[@class='ClassInit\$Lazy']/@count")" 1
expect_eq "clinit: program output unchanged" "$(cat "$TEST_TMP/program.out")" 43

# --- StaticWork: the program's initializers are work whichever instruction
# first touches the class; the JVM's semantics are kept (javap -c):
# get: getstatic ireturn (2) + ByGet.<clinit>: 4 + 3*11 (test) + 6*10 (body)
# + 3 = 100.
run_agent "$P" StaticWork.get "$FX" StaticWork get
expect_eq "static work: getstatic runs ByGet.<clinit> counted (2 + 100)" "$(xpath "$P" /psf-profile/summary/@work)" 102
expect_eq "static work: ByGet.<clinit> = 100" "$(xpath "$P" "/psf-profile/methods/method[@name='StaticWork\$ByGet.<clinit>()V']/@work")" 100
expect_eq "static work: get prints 45" "$(cat "$TEST_TMP/program.out")" 45
run_agent "$P" StaticWork.get "$FX" StaticWork getBefore
expect_eq "static work: initialized before the method: 2" "$(xpath "$P" /psf-profile/summary/@work)" 2
# put: iconst_1 putstatic getstatic ireturn (4) + ByPut.<clinit> (3).
run_agent "$P" StaticWork.put "$FX" StaticWork put
expect_eq "static work: putstatic (4 + 3)" "$(xpath "$P" /psf-profile/summary/@work)" 7
# call: invokestatic ireturn (2) + ByCall.<clinit> (3) + f: getstatic ireturn (2).
run_agent "$P" StaticWork.call "$FX" StaticWork call
expect_eq "static work: invokestatic (2 + 3 + 2)" "$(xpath "$P" /psf-profile/summary/@work)" 7
# make: 7 own + ByNew.<clinit> (3) + ByNew.<init> (6) + Object.<init> (1).
run_agent "$P" StaticWork.make "$FX" StaticWork make
expect_eq "static work: new (7 + 3 + 7)" "$(xpath "$P" /psf-profile/summary/@work)" 17
# inherited: getstatic Sub.TABLE arraylength ireturn (3) + Base.<clinit>
# (iconst_4 newarray putstatic return = 4); Sub.<clinit> must not run.
run_agent "$P" StaticWork.inherited "$FX" StaticWork inherited
expect_eq "static work: Sub.TABLE initializes Base only (3 + 4)" "$(xpath "$P" /psf-profile/summary/@work)" 7
expect_eq "static work: Sub.<clinit> not in the method" "$(xpath "$P" "count(/psf-profile/methods/method[@name='StaticWork\$Sub.<clinit>()V'])")" 0
expect_eq "static work: Base's array" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='int']/@elements")" 4
# viaInterface: Impl.SQUARES is declared by the interface Constants (3 +
# Constants.<clinit>: iconst_3 newarray, then 3 x (dup index value iastore),
# putstatic return = 16).
run_agent "$P" StaticWork.viaInterface "$FX" StaticWork viaInterface
expect_eq "static work: a field of a superinterface (3 + 16)" "$(xpath "$P" /psf-profile/summary/@work)" 19
# fails: the initializer throws; the method still sees the
# ExceptionInInitializerError at its getstatic (and catches it: -1).
# Fails.<clinit>: getstatic ifne new dup ldc invokespecial athrow = 7.
run_agent "$P" StaticWork.fails "$FX" StaticWork fails
expect_eq "static work: a failing initializer: the program output is unchanged" "$(cat "$TEST_TMP/program.out")" -1
expect_eq "static work: a failing initializer: status ok" "$(xpath "$P" /psf-profile/@status)" ok
expect_eq "static work: Fails.<clinit> counted (7)" "$(xpath "$P" "/psf-profile/methods/method[@name='StaticWork\$Fails.<clinit>()V']/@work")" 7
expect_eq "static work: fails() own: getstatic astore_0 iconst_m1 ireturn" "$(xpath "$P" "/psf-profile/methods/method[@name='StaticWork.fails()I']/@work")" 4

# --- OwnInit / MainInit: the initializer of the method's own class runs
# before the method, outside its extent; it is counted and charged to the
# first invocation, whichever way the class is initialized (javap -c).
# Solution.<clinit>: iconst_5 newarray putstatic iconst_0 istore_0 (5), the
# test iload_0 iconst_5 if_icmpge 6 times (18), the body getstatic iload_0
# iload_0 iload_0 imul iastore iinc goto 5 times (40), return: 64.
# solve: getstatic iload_0 iaload ireturn = 4.
own() { xpath "$P" "concat(/psf-profile/@status,' ',/psf-profile/summary/@work,' ',/psf-profile/summary/@overhead,' ',/psf-profile/invocations/invocation[1]/@work)"; }
run_agent "$P" 'OwnInit$Solution.solve' "$FX" OwnInit static
expect_eq "own class: invokestatic from main: first call 4 + 64, second 4" "$(own)" "ok 72 0 68"
expect_eq "own class: its array is work" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/array[@elem='int']/@elements")" 5
expect_eq "own class: program output unchanged" "$(cat "$TEST_TMP/program.out")" 25
run_agent "$P" 'OwnInit$Solution.solve' "$FX" OwnInit field
expect_eq "own class: first touched by a getstatic in main (4 + 64)" "$(own)" "ok 68 0 68"
# Made.<clinit>: bipush putstatic return (3), run by `new` (HotSpot steps it);
# then the constructor: aload_0 invokespecial return + Object.<init> (4);
# solve: getstatic iload_1 iadd ireturn.
run_agent "$P" 'OwnInit$Made.solve' "$FX" OwnInit new
expect_eq "own class: initialized by new (4 + 3 + 4)" "$(own)" "ok 11 0 11"
# Built.<init>: aload_0 invokespecial (2) + Object.<init> (1) + aload_0
# iconst_4 newarray putfield iconst_0 istore_1 (6), the test 5 times (15),
# the body aload_0 getfield iload_1 iconst_3 iload_1 imul iastore iinc goto
# 4 times (36), return: 61; solve: aload_0 getfield iload_1 iaload ireturn.
# The constructor that makes the instance is charged to the next call.
run_agent "$P" 'OwnInit$Built.solve' "$FX" OwnInit ctor
expect_eq "own class: one instance, two calls: the constructor goes to the first (5 + 61, 5)" \
  "$(own) $(xpath "$P" "/psf-profile/invocations/invocation[2]/@work")" "ok 71 0 66 5"
expect_eq "own class: constructor output" "$(cat "$TEST_TMP/program.out")" 9
run_agent "$P" 'OwnInit$Built.solve' "$FX" OwnInit ctors
expect_eq "own class: an instance per call: each call gets its constructor" \
  "$(own) $(xpath "$P" "/psf-profile/invocations/invocation[2]/@work")" "ok 132 0 66 66"
# Derived extends Pre (the program's): `new Derived()` initializes Pre first,
# before anything of Derived runs. Pre.<clinit>: iconst_3 newarray putstatic
# getstatic iconst_2 bipush iastore return (8); Derived.<init> aload_0
# invokespecial return + Pre.<init> (3) + Object.<init> (1) = 7; solve 4.
run_agent "$P" 'OwnInit$Derived.solve' "$FX" OwnInit super
expect_eq "own class: a superclass's initializer is counted (8 + 7 + 4)" "$(own)" "ok 19 0 19"
# The JVM ends in a constructor before the method ever runs: never invoked,
# not "System.exit in the method".
run_agent "$P" 'OwnInit$Quits.solve' "$FX" OwnInit quit
expect_eq "own class: exit in the constructor before any call: not_invoked" "$(xpath "$P" /psf-profile/@status)" not_invoked
# A caller that builds its input out of the method's class: the first 1000
# constructions are counted, then no more (agent/runtime/clinit.c: each costs a
# switch of the thread to interpreter-only mode and back).
run_agent "$P" 'OwnInit$Built.solve' "$FX" OwnInit many 1000
expect_eq "own class: 1000 constructions before the call are counted (1000 x 61 + 5)" "$(own)" "ok 61005 0 61005"
run_agent "$P" 'OwnInit$Built.solve' "$FX" OwnInit many 5000
expect_eq "own class: beyond 1000 they are not" "$(own)" "ok 61005 0 61005"
run_agent "$P" 'OwnInit$Built.solve' "$FX" OwnInit ctorAfter
expect_eq "own class: a constructor after the last call goes to it (the totals agree)" "$(own)" "ok 127 0 127"
expect_eq "own class: that profile scores" "$("$PSF_BUILD/psf-score" --score-only "$P")" 127
run_agent "$P" 'OwnInit$Solution.solve' "$FX" OwnInit reflect
expect_eq "own class: initialized by Class.forName (4 + 64)" "$(own)" "ok 68 0 68"
expect_eq "own class: reflection output" "$(cat "$TEST_TMP/program.out")" 4
run_agent "$P" 'OwnInit$Failing.solve' "$FX" OwnInit fails
expect_eq "own class: a failing initializer: the caller still gets ExceptionInInitializerError" "$(cat "$TEST_TMP/program.out")" "initializer failed"
expect_eq "own class: a failing initializer: never invoked" "$(xpath "$P" /psf-profile/@status)" not_invoked
# MainInit.<clinit>: invokestatic putstatic return (3) + build: iconst_3
# newarray astore_0 aload_0 iconst_1 iconst_4 iastore aload_0 areturn (9),
# run by the launcher; get: 4.
run_agent "$P" MainInit.get "$FX" MainInit
expect_eq "own class: the main class (4 + 12)" "$(own)" "ok 16 0 16"

# --- Diamond / LongDesc: breakpoints set twice, descriptors over 1 KB.
run_agent "$P" 'Diamond$Solution.solve' "$FX" Diamond diamond
expect_eq "diamond: an interface reached twice among the supertypes: ok" "$(xpath "$P" /psf-profile/@status)" ok
run_agent "$P" 'Diamond$Sol2.solve' "$FX" Diamond base
expect_eq "diamond: a supertype initializer starting with a watched access: ok" "$(xpath "$P" /psf-profile/@status)" ok
run_agent "$P" LongDesc.viaShort "$FX" LongDesc short
short=$(xpath "$P" /psf-profile/summary/@work)
run_agent "$P" LongDesc.viaLong "$FX" LongDesc long
# the same initializer and body; the call pushes 60 aconst_null more
expect_eq "long descriptor: the initializer counted (short + 60)" "$(xpath "$P" /psf-profile/summary/@work)" $((short + 60))

# --- Daemon: work(n) is iconst_0 istore_1 iconst_0 istore_2, then per
# iteration iload_2 iload_0 if_icmpge iload_1 iload_2 bipush irem iadd
# istore_1 iinc goto (11), then the last iload_2 iload_0 if_icmpge and iload_1
# ireturn: 11n + 9, so work(1000000) is 11,000,009 wherever it runs: in the
# initializer, or in a thread the initializer starts and joins, daemon or
# not. Worker.run is getstatic iconst_0 ldc invokestatic iastore return (6).
for mode in plain:Plain nondaemon:NonDaemon sneaky:Sneaky; do
  run_agent "$P" "Daemon\$${mode#*:}.solve" "$FX" Daemon "${mode%%:*}"
  expect_eq "initializer's threads: ${mode%%:*} ok" "$(xpath "$P" /psf-profile/@status)" ok
  expect_eq "initializer's threads: ${mode%%:*}: work(1000000) = 11n + 9" \
    "$(xpath "$P" "/psf-profile/methods/method[@name='Daemon.work(I)I']/@work")" 11000009
  if [ "${mode%%:*}" != plain ]; then
    expect_eq "initializer's threads: ${mode%%:*}: Worker.run = 6" \
      "$(xpath "$P" "/psf-profile/methods/method[@name='Daemon\$Worker.run()V']/@work")" 6
  fi
done

# --- String concatenation (invokedynamic): the method's own bytecodes are
# iload_0 invokedynamic areturn; the rest is JDK code, the same each call.
run_agent "$P" Concat.cat "$FX" Concat
expect_eq "concat: three invocations" "$(xpath "$P" /psf-profile/summary/@invocations)" 3
expect_eq "concat: own bytecodes = 3 per call" "$(xpath "$P" "/psf-profile/methods/method[@name='Concat.cat(I)Ljava/lang/String;']/@work")" 9
expect_eq "concat: indy site keyed" "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/invokedynamic[@site='makeConcatWithConstants(I)Ljava/lang/String;']/@count")" 3
first=$(xpath "$P" "/psf-profile/invocations/invocation[1]/@work")
expect_eq "concat: 2nd call = 1st call" "$(xpath "$P" "/psf-profile/invocations/invocation[2]/@work")" "$first"
expect_eq "concat: 3rd call = 1st call" "$(xpath "$P" "/psf-profile/invocations/invocation[3]/@work")" "$first"
expect_eq "concat: hidden-class names normalized" "$(grep -c '/0x[1-9a-f]' "$P" || true)" 0


# --- Intrinsics.calls(n): calls of JDK methods with bytecode that the JIT
# replaces by intrinsics once it compiles their caller; the interpreter runs
# their bytecode, and so do the JIT's tiers with the intrinsics of
# psf_jdk_intrinsics off (fast_engine.sh compares the engines on it).
# calls: iconst_0 istore_1 iconst_0 istore_2, the test (iload_2 iload_0
# if_icmpge) n+1 times, the body (iload_1 iload_2 invokestatic iadd istore_1
# iinc goto) n times, iload_1 ireturn: 10n + 9. step(i): 15 bytecodes, no
# branch. Math.min(i & 15, 7): iload_0 iload_1 if_icmpgt iload_0 goto ireturn
# (6) when i & 15 <= 7, iload_0 iload_1 if_icmpgt iload_1 ireturn (5) else:
# 5.5n for n a multiple of 16. Objects.checkIndex(i & 7, 8): iload_0 iload_1
# aconst_null invokestatic ireturn (5), Preconditions.checkIndex in bounds:
# iload_0 iflt iload_0 iload_1 if_icmplt iload_0 ireturn (7). Integer.bitCount:
# 42, no branch. In all 10n + 9 + 15n + 5.5n + 12n + 42n = 84.5n + 9.
run_agent "$P" Intrinsics.calls "$FX" Intrinsics 100000
expect_eq "intrinsics: calls(100000) work = 84.5n+9" "$(xpath "$P" /psf-profile/summary/@work)" 8450009
mwork() { xpath "$P" "/psf-profile/methods/method[@name='$1']/@work"; }
expect_eq "intrinsics: Math.min 5.5n, Preconditions.checkIndex 7n, Integer.bitCount 42n" \
  "$(mwork 'java.lang.Math.min(II)I') $(mwork 'jdk.internal.util.Preconditions.checkIndex(IILjava/util/function/BiFunction;)I') $(mwork 'java.lang.Integer.bitCount(I)I')" \
  "550000 700000 4200000"

# --- Bad agent options stop the JVM with a message naming the option.
if "$JAVA" -XX:-UseTLAB "-agentpath:$PSF_BUILD/libpsfagent.so=method=Loops.sum,out=$P,colour=red" \
  -cp "$FX" Loops 1 >/dev/null 2>"$TEST_TMP/err"; then
  fail "unknown option: JVM does not start"
else
  pass "unknown option: JVM does not start"
fi
expect_match "unknown option: named" "$(cat "$TEST_TMP/err")" "unknown option 'colour'"
expect_eq "unknown option: profile says bad_options" "$(xpath "$P" /psf-profile/@status)" bad_options
# engine=fast (test profiles only; refused with result_fd): tests/integration/fast_engine.sh
if "$JAVA" "-agentpath:$PSF_BUILD/libpsfagent.so=method=Loops.sum,out=$P" -cp "$FX" Loops 1 >/dev/null 2>"$TEST_TMP/err"; then
  fail "without -XX:-UseTLAB: JVM does not start"
else
  pass "without -XX:-UseTLAB: JVM does not start"
fi
expect_match "without -XX:-UseTLAB: says why" "$(cat "$TEST_TMP/err")" "UseTLAB"
# The program's own arguments are not JVM flags, however they look: an
# argument -XX:+UseTLAB after the main class neither stops the agent nor
# lands in the profile's flags, and a control character cannot break the XML.
run_agent "$P" Loops.sum "$FX" Loops 10 -XX:+UseTLAB "$(printf -- '-Xbad\001')"
expect_eq "program arguments like flags: agent runs" "$(xpath "$P" /psf-profile/@status)" ok
expect_eq "program arguments like flags: not in the profile's flags" \
  "$(xpath "$P" "contains(/psf-profile/jvm/@flags, '+UseTLAB') or contains(/psf-profile/jvm/@flags, 'bad')")" false

finish
