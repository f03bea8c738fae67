#!/usr/bin/env bash
# fast_engine.sh - the instrumenting counting engine (engine=fast,
# agent/fast/fast.c) against the step engine, in real JVM runs with the JIT on.
#
# For each fixture run below, the agent runs twice with the pinned flags
# (no -Xint): once as the step engine, once with engine=fast. The fast
# profile must say engine="fast", and the two profiles must be identical in
# every field the fast engine holds so far, in both buckets (work and
# overhead): the summary, the invocations one by one, both opcode
# histograms, every method's counts by source line, the dependency keys (new, invoke, invokedynamic, ldc of a
# class) with their native attribute, the conditional branches with the
# simulated predictor's mispredictions, and every method's opcode counts
# (docs/fast-engine.md, "What it guarantees"), the array keys with their
# allocations and elements and the invokes' elements included, the
# calls elements (method entries, closeness, native and allocation
# fences), and the calling contexts (<contexts>, frame by frame: method,
# line, parent, and both buckets' own and folded counts). Runs with a hand-derived total
# (javap -c, derived here or in tests/integration/agent_counts.sh) must give
# it exactly under both engines (the step engine is no oracle for the fast
# one where both could be wrong alike), and so must the
# lines of Loops.sum and of Implicit.run, the array keys of ArraySizes and
# Calls.allocs, the native keys of Calls.holds and Calls.intrinsic, and
# the entries, closeness and fences
# of Calls.holds, Calls.fence, Calls.allocs, Calls.intrinsic,
# Calls.spread and Entries.
# A method that sleeps is refused on JDK 25 (ThreadSleepEvent.isEnabled(),
# which the JVM adds to the class, has no probes) and counted alike on 17.
# ThreadIds must print under the fast engine what it prints under plain java
# (the start's second thread takes no thread id the program would get).
# Exceptions thrown and caught or escaping are compared (with the arrays of
# their stack traces), and class loading and static initializers inside
# the extent (the overhead bucket, and the work HotSpot hides from
# stepping). The arrays reflection's natives make (Reflected: a class's
# constructors and interfaces, its enclosing method from compiled code, a
# class not found) are compared, with their hand counts, and code of
# hidden classes (string concatenation, a lambda's proxy). Runs the fast
# engine cannot count yet (threads the method starts) must be refused (status fallback, with the reason, which
# psf-score reads: exit 30), and so must a run that reads identity hash
# codes a thread of the program made after VMInit drew (their values differ
# between the engines), or any on a JDK other than 17 and 25, and one in which a thread the method
# did not start passes the bystanders' allowance. Runs whose counts depend
# on identity hash codes the method draws or reads (HashReads, Hashing) are
# counted alike on JDK 17 and 25, the codes the program prints included,
# and so in other runs of the same program. Finally psf-score must score a fast profile
# as the step engine's, and a scoring run (result_fd) with engine=fast must
# hold the fast engine's counts, within the bytecode limit and past it. A
# run past the limit must stop under the fast engine on the step engine's
# bytecode with the step engine's partial profile, field for field, and no
# fallback, at limits in loops (every offset, the exact count and one
# less and more), compiled code, callees, exception handlers and
# constructors, after allocations and initializers, in an initializer's
# last block, in a sort whose swap allocates, and at an endless loop's
# goto to itself (with the step engine's message); where the fast engine
# cannot place that stop it falls back, saying why.
# (for shellcheck: the fixtures' nested classes have a $ in their names)
# shellcheck disable=SC2016
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fast.sh"
[ -e "$FX/Loops.class" ] || { echo "skip: $FX is not built (make integration-fast builds it)"; exit 77; }
mkdir -p "$TEST_TMP/cwd"
cd "$TEST_TMP/cwd"

# entries PROFILE: the method entries, work and overhead
entries() { echo "$(xpath "$1" "//calls[@bucket='work']/@entries") $(xpath "$1" "//calls[@bucket='overhead']/@entries")"; }
# closeness PROFILE: the work bucket's close, fence_native and fence_alloc
closeness() { xpath "$1" "concat(//calls[@bucket='work']/@close, ' ', //calls[@bucket='work']/@fence_native, ' ', //calls[@bucket='work']/@fence_alloc)"; }
# natives PROFILE: the invoke keys marked native="true", in either bucket, sorted
natives() { sed -n 's/.*<invoke method="\([^"]*\)"[^>]* native="true".*/\1/p' "$1" | sort -u | paste -sd, -; }

# refused NAME REASON_REGEX SPEC MAIN [ARGS...]: a run the fast engine must
# leave to the step engine (status fallback), with the reason
refused() {
  local name=$1 why=$2 spec=$3 F=$TEST_TMP/fast.xml
  shift 3
  rm -f "$F"
  run_engine "$F" fast "$spec" "$@" || true
  expect_eq "$name: refused: status fallback" "$(xpath "$F" /psf-profile/@status)" fallback
  expect_match "$name: the message says why" "$(xpath "$F" /psf-profile/message)" "$why"
  # psf-score reads the status and reason (exit 30), not refusing the engine's profile
  local rc=0
  "$PSF_BUILD/psf-score" "$F" >"$TEST_TMP/score.out" 2>"$TEST_TMP/score.err" || rc=$?
  expect_eq "$name: psf-score: fallback, exit 30" "$rc" 30
  expect_match "$name: psf-score says why" "$(cat "$TEST_TMP/score.err")" ": fallback: engine=fast cannot count this run exactly: .*($why)"
}

# hashed NAME SPEC MAIN [ARGS...]: a run whose count depends on identity
# hash codes the method draws or reads (docs/fast-engine.md, "Identity hash
# codes"): on JDK 17 and 25, where both engines draw every code alike,
# counted by the fast engine with the step engine's profile (same); on
# other JDKs left to the step engine, saying why
hashed() {
  local name=$1
  shift
  if hash_jdk; then
    same "$name" - "$@"
    expect_eq "$name: the program printed the same identity hash codes under both engines" \
      "$(cat "$TEST_TMP/fast.out")" "$(cat "$TEST_TMP/step.out")"
  else
    refused "$name" 'read identity hash codes.*shown to draw alike on JDK 17 and 25 only' "$@"
  fi
}
# hash_jdk: whether $JAVA is a JDK on which the fast engine counts reads of
# identity hash codes (17, 25)
hash_jdk() {
  case $(psf_jdk_feature "$JAVA") in 17 | 25) return 0 ;; *) return 1 ;; esac
}

# hand counts: tests/integration/agent_counts.sh
same loops-sum 9009 Loops.sum Loops 1000                 # 9n + 9
# its lines by hand (agent_counts.sh: line 4 at 0, 5 at 2, 6 at 9, 5 again
# at 13, 7 at 19): 2, 5n + 5 (the test n + 1 times, iinc and goto n times),
# 4n, 2
SUM="/psf-profile/methods/method[@name='Loops.sum(I)I']"
expect_eq "loops-sum: fast lines 4 5 6 7 = the hand count" \
  "$(for l in 4 5 6 7; do xpath "$TEST_TMP/fast.xml" "$SUM/line[@number='$l']/@work"; done | paste -sd' ' -)" "2 5005 4000 2"
same fib 207961 Fib.fib Fib 20                           # 10946*6 + 10945*13
# the thread ids the program sees: the fast engine's second thread of the
# start's retransformation hands its id back (fast.c retransform_helper)
"$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" -cp "$FX" ThreadIds >"$TEST_TMP/plain.ids"
same thread-ids 4 ThreadIds.last ThreadIds    # lload_0 ldc2_w lrem lreturn
expect_eq "thread-ids: the ids under the fast engine = plain java's" "$(cat "$TEST_TMP/program.out")" \
  "$(cat "$TEST_TMP/plain.ids")"
"$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" \
  "-agentpath:$PSF_BUILD/libpsfagent.so=method=ThreadIds.last,out=$TEST_TMP/v.xml,engine=fast,verbose=1" \
  -cp "$FX" ThreadIds >/dev/null 2>"$TEST_TMP/verbose.err" || true
expect_match "thread-ids: the start's retransformation ran on two threads" "$(cat "$TEST_TMP/verbose.err")" \
  'retransformed on 2 thread'
# the two threads' shares (fast/boot.c): the classes go heaviest first (by
# their methods with bytecode) to the lighter share, and the last ones, of
# a method or two each, even the shares out to within one method
shares=$(sed -n 's/.*retransformed on 2 thread(s).*shares of \([0-9]*\) and \([0-9]*\) methods with bytecode.*/\1 \2/p' \
  "$TEST_TMP/verbose.err")
expect_eq "thread-ids: the start's two shares weigh the same to within one method ($shares)" \
  "$(echo "$shares" | awk 'NF == 2 && $1 > 1000 && $2 > 1000 && $1 - $2 <= 1 && $2 - $1 <= 1 { print "even" }')" even
same tailrec-down 73 TailRec.down TailRec down 10        # 7n + 3
same tailrec-count 10004 TailRec.count TailRec count 1000 # 10n + 4
same branches-dowhile - Branches.doWhile Branches doWhile 100
# random outcomes at eight sites: the predictor's mispredictions depend on
# every site's exact value (method name, offset of the branch)
same branches-random - Branches.random Branches random 5000
# every conditional-branch opcode, taken and not taken
same branches-forms - Branches.forms Branches forms 30
same calls-chain - Calls.chain Calls chain 10
same calls-spread - Calls.spread Calls spread 50
expect_eq "calls-spread: fast entries = the hand count (spread's, 50 of work's)" "$(entries "$TEST_TMP/fast.xml")" "51 0"
# callees, constructors, arrays, the method's own class's initializer and
# constructors (counted before it), recursion with tail calls
same nested 4 'Nested$Inner.square' Nested        # iload_0 iload_0 imul ireturn
same overloads 4 'Overloads.twice(I)I' Overloads  # iload_0 iload_0 iadd ireturn, called once
same diamond - 'Diamond$Solution.solve' Diamond diamond
# 0-3 (4), the test (iload_2 iload_0 if_icmpge) n + 1 times, the body's 14
# (four ldc, two of a class; if_acmpeq, ifnonnull, two iinc, goto) n times,
# iload_1 ireturn: 17n + 9
same constants-mixed 179 Constants.mixed Constants mixed 10
# make's 41 bytecodes (straight code, whatever n) and size()'s iconst_5 ireturn
same arraysizes 43 ArraySizes.make ArraySizes 5
# arrays <- "elem allocations elements" of each array key, by hand
arrays() { sed -n 's/.*<array elem="\([^"]*\)" allocations="\([0-9]*\)" elements="\([0-9]*\)".*/\1 \2 \3/p' "$1" | paste -sd, -; }
# int[5], long[7], char[5], byte[16], String[2], int[5][4] (one int[] of 5,
# five int of 4)
expect_eq "arraysizes: fast array keys = the hand count" "$(arrays "$TEST_TMP/fast.xml")" \
  "byte 1 16,char 1 5,int 6 25,int[] 1 5,java.lang.String 1 2,long 1 7"
same owninit-ctors - 'OwnInit$Built.solve' OwnInit ctors
same owninit-static - 'OwnInit$Solution.solve' OwnInit static
same owninit-field - 'OwnInit$Solution.solve' OwnInit field
same owninit-new - 'OwnInit$Made.solve' OwnInit new
# both(n): 2^n - 1 frames calling twice (11 bytecodes), 2^n leaves
# (iload_0 ifne return: 3): 11 x 1023 + 3 x 1024
same tailrec-both 14325 TailRec.both TailRec both 10
# walk(n): n frames of iload_1 ifne aload_0 iload_1 iconst_1 isub
# invokeinterface ireturn (8), the last iload_1 ifne iconst_0 goto ireturn (5)
same tailrec-walk 805 'TailRec$Walker.walk' TailRec walk 100
same calls-allocs - Calls.allocs Calls allocs 0
# int[2][3] (one int[] of 2, two int of 3), String[2]
expect_eq "calls-allocs: fast array keys = the hand count" "$(arrays "$TEST_TMP/fast.xml")" \
  "int 2 6,int[] 1 2,java.lang.String 1 2"
# multianewarray 3rd from the entry (97), anewarray 6th (94)
expect_eq "calls-allocs: fast fence_alloc = the hand count" "$(xpath "$TEST_TMP/fast.xml" "//calls[@bucket='work']/@fence_alloc")" 191
same calls-fence - Calls.fence Calls fence 0
# the arraycopy 11 after sf's entry (89), newarray 13 after (87)
expect_eq "calls-fence: fast fences = the hand count" \
  "$(xpath "$TEST_TMP/fast.xml" "concat(//calls[@bucket='work']/@fence_native, ' ', //calls[@bucket='work']/@fence_alloc)")" "89 87"
# Calls.natives calls System.identityHashCode, which makes the fast engine
# fall back (below); Calls.holds has the same shape with Thread.holdsLock
same calls-holds - Calls.holds Calls holds 100
# holds' own entry and Object.<init>'s (holdsLock is native: none)
expect_eq "calls-holds: fast entries = the hand count" "$(entries "$TEST_TMP/fast.xml")" "2 0"
# Object.<init> 5 after holds' entry (iconst_0 istore_1 new dup
# invokespecial: 95); the new the 3rd bytecode (97)
expect_eq "calls-holds: fast closeness and allocation fence = the hand count" \
  "$(xpath "$TEST_TMP/fast.xml" "concat(//calls[@bucket='work']/@close, ' ', //calls[@bucket='work']/@fence_alloc)")" "95 97"
# the keys the return probes flagged native: the one native the method calls
expect_eq "calls-holds: fast native keys = the hand list" "$(natives "$TEST_TMP/fast.xml")" \
  "java.lang.Thread.holdsLock(Ljava/lang/Object;)Z"
# System.arraycopy in a loop the JIT compiles (C1, then C2 on stack):
# 200,000 copies of 8 elements
same nativearrays-copies - NativeArrays.copies NativeArrays copies 200000
expect_eq "nativearrays-copies: fast arraycopy elements = the hand count" \
  "$(xpath "$TEST_TMP/fast.xml" "//invoke[starts-with(@method, 'java.lang.System.arraycopy(')]/@elements")" 1600000
# arrays made inside natives, seen by the made probe after the call: an
# int[4] cloned 200,000 times in a loop the JIT compiles, arrays of two
# classes cloned at one call, and Array.newInstance(int.class, 5)
same nativearrays-cloned - NativeArrays.cloned NativeArrays cloned 200000
expect_eq "nativearrays-cloned: fast int arrays and clone elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(xpath "$TEST_TMP/fast.xml" "//invoke[starts-with(@method, '[I.clone(')]/@elements")" \
  "int 200001 800004 800000"
same nativearrays-mixed - NativeArrays.mixed NativeArrays mixed
expect_eq "nativearrays-mixed: fast arrays of both classes and clone elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(xpath "$TEST_TMP/fast.xml" "//invoke[starts-with(@method, '[Ljava.lang.Object;.clone(')]/@elements")" \
  "java.lang.Integer 2 6,java.lang.Object[] 1 2,java.lang.String 2 4 5"
same nativearrays-reflected - NativeArrays.reflected NativeArrays reflected 5
expect_eq "nativearrays-reflected: fast int arrays and newArray elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(xpath "$TEST_TMP/fast.xml" "//invoke[starts-with(@method, 'java.lang.reflect.Array.newArray(')]/@elements")" \
  "int 1 5 5"
# Array.newInstance(int.class, 3, 3): its dimensions int[] {3, 3}, then
# one int[] of 3 and three int of 3 made by multiNewArray (12 elements)
same nativearrays-multi - NativeArrays.multi NativeArrays multi 3
expect_eq "nativearrays-multi: fast arrays and multiNewArray elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(xpath "$TEST_TMP/fast.xml" "//invoke[starts-with(@method, 'java.lang.reflect.Array.multiNewArray(')]/@elements")" \
  "int 4 11,int[] 1 3 12"
# a stack trace printed: Throwable.printStackTrace keeps the causes it
# printed in an IdentityHashMap (System.identityHashCode)
hashed nativearrays-printed NativeArrays.printed NativeArrays printed
# exceptions: the rest of each block they leave is subtracted, in the
# throwing frame and every frame unwound down to the catching one; one that
# escapes ends the extent by exception
# unwind(10): thrower(n) 6n + 4 (no ireturn of its unwound frames), down(n)
# 7n + 3 and unwind's own 11: 64 + 73 + 11
same tailrec-unwind 148 TailRec.unwind TailRec unwind 10
# caught(1): iload_0 ifle getstatic athrow, the handler astore_1 iconst_1
# ireturn (7); caught(0): iload_0 ifle iconst_0 ireturn (4)
same exceptions-caught 11 Exceptions.caught Exceptions
STATUS=exception same exceptions-escape 2 Exceptions.escape Exceptions  # getstatic athrow
same implicit - Implicit.run Implicit 20000              # 23,334 exceptions thrown by the JVM, mid-block
# the lines around the faulting instructions, by hand (n = 20000): div's
# line 7 (iload_0 iload_1 idiv istore_2) runs whole unless b = i % 3 is 0
# (6,667 times), when idiv throws before istore_2: 4n - 6667 = 73333; line 8
# (iload_2 iconst_1 iadd ireturn) 4 x 13,333 = 53332; len's line 12 (aload_0
# arraylength iconst_1 iadd ireturn) stops after arraylength for the 10,000
# nulls: 5n - 3 x 10000 = 70000; at's line 16 (aload_0 iload_1 iaload
# istore_2) stops after iaload for i % 6 in {4, 5} (6,666 times): 4n - 6666
# = 73334, line 17 4 x 13,334 = 53336
IMPL=$(for ml in 'div(II)I 7' 'div(II)I 8' 'len([I)I 12' 'at([II)I 16' 'at([II)I 17'; do
  read -r m l <<<"$ml"
  xpath "$TEST_TMP/fast.xml" "/psf-profile/methods/method[@name='Implicit.$m']/line[@number='$l']/@work"
done | paste -sd' ' -)
expect_eq "implicit: fast lines of div, len and at = the hand count" "$IMPL" "73333 53332 70000 73334 53336"
# a NullPointerException the JVM throws at an invoke of a null receiver,
# caught in the invoking frame: once HotSpot resolved the invoke (the first
# call, "ab"), the exception's constructor runs in plain view, the step
# engine counts it in a context under size at the invoke, and the invoke's
# own call ends there (the handler and the frames after it count in their
# own contexts); size by hand: 5 x (aload_0 invokevirtual ireturn) and
# 5 x (aload_0 invokevirtual astore_1 iconst_m1 ireturn) = 40, and
# NullPointerException.<init> (aload_0 invokespecial return) 5 x 3 = 15
same nullcall-resolved - NullCall.resolved NullCall resolved
expect_eq "nullcall-resolved: size and the constructor by hand, in their contexts" \
  "$(xpath "$TEST_TMP/fast.xml" "concat(//methods/method[@name='NullCall.size(Ljava/lang/String;)I']/@work, ' ', //contexts/frame[@method='NullCall.size(Ljava/lang/String;)I']/@work, ' ', //contexts/frame[@method='java.lang.NullPointerException.<init>()V' and @parent=//contexts/frame[@method='NullCall.size(Ljava/lang/String;)I']/@id]/@work)")" \
  "40 40 15"
# the first such throw at an invoke HotSpot has not resolved yet: it runs the
# constructor while resolving, with single-stepping hidden (the step engine
# counts one construction less), and whether it was resolving cannot be
# told from the frames: the fast engine falls back
refused nullcall-unresolved "the JVM ran an exception's constructor at the invokevirtual at offset 1 of NullCall\\.empty" \
  NullCall.unresolved NullCall unresolved

# --- class loading and static initializers in the extent -------------------
# HotSpot hides single-stepping while it resolves a class constant, a field
# or an invoke, and runs what that loads or initializes with it: neither
# engine counts it (the fast engine runs such a root frame uncounted, from
# where the JVM entered it). A JDK initializer that `new` runs, or that
# clinit.c runs for a static access of the program's, is overhead; the
# program's own initializers are work.
same longdesc-short - LongDesc.viaShort LongDesc short  # loadClass of a class named by invokestatic
# loadClass of the class an anewarray or multianewarray names: its arrays
# and the JVM's are not the instruction's (agent_counts.sh, ArrayLoad)
same arrayload-one 6 ArrayLoad.one ArrayLoad one 5
# array instructions that throw: neither engine charges what HotSpot
# allocated before the throw (agent_counts.sh, ArrayThrows)
same arraythrows-ints - ArrayThrows.ints ArrayThrows ints -1
same arraythrows-bytes - ArrayThrows.bytes ArrayThrows bytes -1
same arraythrows-objects - ArrayThrows.objects ArrayThrows objects -1
same arrayload-grid 7 ArrayLoad.grid ArrayLoad grid 5
expect_eq "arrayload-grid: fast arrays (keys, allocations, elements) = the hand count" \
  "$(xpath "$TEST_TMP/fast.xml" "concat(count(/psf-profile/dependencies/array), ' ', sum(/psf-profile/dependencies/array/@allocations), ' ', sum(/psf-profile/dependencies/array/@elements))")" "2 6 15"
same longdesc-long - LongDesc.viaLong LongDesc long
same constants-wide 409 Constants.wide Constants wide 50  # ldc_w of a class: 8n + 9
# new and getstatic of the program's classes: init's 9, Lazy.<init> 6,
# Object.<init> 1, Lazy.<clinit> 8, Quiet.<clinit> 3
same classinit 27 ClassInit.init ClassInit
# the program's initializers are work: get's getstatic ireturn and
# ByGet.<clinit>'s 4 + 3 x 11 (the test) + 6 x 10 (the body) + 3
same staticwork-get 102 StaticWork.get StaticWork get
same staticwork-getbefore 2 StaticWork.get StaticWork getBefore  # initialized before: getstatic ireturn
same staticwork-put 7 StaticWork.put StaticWork put    # iconst_1 putstatic getstatic ireturn + ByPut.<clinit> 3
same staticwork-call 7 StaticWork.call StaticWork call # invokestatic ireturn + ByCall.<clinit> 3 + f 2
same staticwork-make 17 StaticWork.make StaticWork make # 7 + ByNew.<clinit> 3 + ByNew.<init> 6 + Object.<init> 1
# getstatic Sub.TABLE arraylength ireturn + Base.<clinit> (iconst_4
# newarray putstatic return); Sub.<clinit> does not run
same staticwork-inherited 7 StaticWork.inherited StaticWork inherited
# getstatic Impl.SQUARES arraylength ireturn (3) + Constants.<clinit>: iconst_3 newarray,
# 3 x (dup index value iastore), putstatic return: 16
same staticwork-interface 19 StaticWork.viaInterface StaticWork viaInterface
# an initializer that throws: the JVM keeps the failure's stack trace,
# whose strings StackTraceElement.initStackTraceElements makes
same staticwork-fails - StaticWork.fails StaticWork fails
same maininit - MainInit.get MainInit                     # the main class's initializer, from the launcher
same branches-init - Branches.init Branches init 300
same branches-initbefore - Branches.init Branches initBefore 300
same calls-intrinsic - Calls.intrinsic Calls intrinsic 0
# Math.sqrt, an interpreter intrinsic (no frame: native, without a fence),
# and the arraycopy after it
expect_eq "calls-intrinsic: fast native keys = the hand list" "$(natives "$TEST_TMP/fast.xml")" \
  "java.lang.Math.sqrt(D)D,java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V"
# no fence at Math.sqrt; the arraycopy 15 after sf's entry (85)
expect_eq "calls-intrinsic: fast fence_native = the hand count" "$(xpath "$TEST_TMP/fast.xml" "//calls[@bucket='work']/@fence_native")" 85
# a static initializer of the program's entered at invokestatic, getstatic
# (run by the step engine's clinit.c) and new (stepped by HotSpot): the
# frames the JVM enters itself, whose entries agent_counts.sh counts by hand
# (by hand, agent_counts.sh: viaCall's own entry, ByCall.<clinit>'s 1
# after it (99) and ByCall.get's 3 after that (97); viaGet's and
# ByGet.<clinit>'s 1 after the getstatic (99); viaNew's, ByNew.<init>'s 6
# after it (94) and Object.<init>'s 2 after (98), the new 1 after (99))
same entries-call 7 Entries.viaCall Entries call
expect_eq "entries-call: fast entries = the hand count" "$(entries "$TEST_TMP/fast.xml")" "3 0"
expect_eq "entries-call: fast closeness = the hand count (99 + 97)" "$(xpath "$TEST_TMP/fast.xml" "//calls[@bucket='work']/@close")" 196
same entries-get 5 Entries.viaGet Entries get
expect_eq "entries-get: fast entries = the hand count" "$(entries "$TEST_TMP/fast.xml")" "2 0"
expect_eq "entries-get: fast closeness = the hand count (the getstatic's rest lent)" \
  "$(xpath "$TEST_TMP/fast.xml" "//calls[@bucket='work']/@close")" 99
same entries-new 13 Entries.viaNew Entries new
expect_eq "entries-new: fast entries = the hand count" "$(entries "$TEST_TMP/fast.xml")" "3 0"
expect_eq "entries-new: fast closeness and fences = the hand count" "$(closeness "$TEST_TMP/fast.xml")" "192 0 99"
# a fence counted when its segment began, with an initializer (an entry)
# run by a getstatic before the allocation in that segment: counted again
# from that entry (99; the newarray 6 after it: 94)
same entries-getnew 13 Entries.viaGetThenNew Entries getnew
expect_eq "entries-getnew: fast closeness and fences = the hand count" "$(closeness "$TEST_TMP/fast.xml")" "99 0 94"
# BigInteger.<clinit>, run by `new`: overhead with its own branch predictor
same overhead-big - Overhead.big Overhead
[ "$(xpath "$TEST_TMP/step.xml" /psf-profile/summary/@overhead)" -gt 0 ] &&
  [ "$(xpath "$TEST_TMP/step.xml" "//branches[@bucket='overhead']/@conditional")" -gt 0 ] &&
  pass "overhead-big: the overhead bucket holds bytecodes and branches" ||
  fail "overhead-big: the overhead bucket holds bytecodes and branches" "$(grep '<summary' "$TEST_TMP/step.xml")"

# --- arrays reflection's natives make (Reflected) --------------------------
# charged by the return probe of the native's call, as the step engine
# charges them when the caller resumes right after the invoke: each to its
# key, its elements to that key and to the invoke's
# elements PROFILE PREFIX: the elements of the invoke keys starting with PREFIX
elements() { xpath "$1" "//invoke[starts-with(@method, '$2')]/@elements"; }
# HashMap's Class[3] of interfaces {Map, Cloneable, Serializable} made
# inside Class.getInterfaces0, and getInterfaces' clone of it
same native-interfaces - NativeArrays.interfaces NativeArrays interfaces
expect_eq "native-interfaces: fast Class arrays, getInterfaces0's and clone's elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(elements "$TEST_TMP/fast.xml" java.lang.Class.getInterfaces0) $(elements "$TEST_TMP/fast.xml" '[Ljava.lang.Class;.clone(')" \
  "java.lang.Class 2 6 3 3"
# getDeclaredConstructors0: a Constructor[3] and the parameter types of
# the constructors with parameters, a Class[1] and a Class[2] (the JVM
# reports no allocation for the one without: checked by hand): 6 elements, the
# call's; then copyConstructors' clone of the Constructor[3]
same reflected-ctors - Reflected.ctors Reflected ctors
expect_eq "reflected-ctors: fast arrays and getDeclaredConstructors0's elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(elements "$TEST_TMP/fast.xml" java.lang.Class.getDeclaredConstructors0)" \
  "java.lang.Class 2 3,java.lang.reflect.Constructor 2 6 6"
# getDeclaredConstructors0 makes a Constructor[1], then runs Java code (the
# application class loader's loadClass of the parameter's class): neither
# engine charges the call's arrays, only the clone's Constructor[1] counts;
# nor the elements of defineClass1, charged by size, which runs Java code too
same reflected-needs - Reflected.needs Reflected needs
expect_eq "reflected-needs: fast Constructor arrays, getDeclaredConstructors0's and defineClass1's elements = the hand count" \
  "$(xpath "$TEST_TMP/fast.xml" "//array[@elem='java.lang.reflect.Constructor']/@allocations") [$(elements "$TEST_TMP/fast.xml" java.lang.Class.getDeclaredConstructors0)] [$(elements "$TEST_TMP/fast.xml" java.lang.ClassLoader.defineClass1)]" \
  "1 [] []"
same reflected-interfaces - Reflected.interfaces Reflected interfaces
expect_eq "reflected-interfaces: fast Class arrays = the hand count" "$(arrays "$TEST_TMP/fast.xml")" "java.lang.Class 2 6"
# getEnclosingMethod0 called from compiled code: an Object[3] a call
same reflected-anonymous - Reflected.anonymous Reflected anonymous 20000
expect_eq "reflected-anonymous: fast Object arrays and getEnclosingMethod0's elements = the hand count" \
  "$(arrays "$TEST_TMP/fast.xml") $(elements "$TEST_TMP/fast.xml" java.lang.Class.getEnclosingMethod0)" \
  "java.lang.Object 20000 60000 60000"
expect_match "reflected-anonymous: getEnclosingMethod0 native" "$(natives "$TEST_TMP/fast.xml")" \
  'java\.lang\.Class\.getEnclosingMethod0\(\)'
# Class.forName0 throwing ClassNotFoundException, whose constructor the JVM
# runs (Java code inside the native), twice
same reflected-missing - Reflected.missing Reflected missing
# Method.invoke: invoke0 runs the method (counted), its arrays are none of
# the call's; on JDK 18 and later Method.invoke runs method handles (code of
# hidden classes, counted), whose linkage reads identity hash codes: on
# JDK 17 and 25 (hash_jdk) the fast engine counts it alike; on another JDK
# it may leave it to the step engine for that reason
if ! hash_jdk && [ "$(psf_jdk_feature "$JAVA")" -ge 18 ] &&
  { run_engine "$TEST_TMP/fast.xml" fast Reflected.invoked Reflected invoked 10 || true; } &&
  [ "$(xpath "$TEST_TMP/fast.xml" /psf-profile/@status)" = fallback ]; then
  refused reflected-invoked 'read identity hash codes' Reflected.invoked Reflected invoked 10
else
  same reflected-invoked - Reflected.invoked Reflected invoked 10
fi
# Thread.sleep: on JDK 25 it calls ThreadSleepEvent.isEnabled(), which the
# JVM adds to the class after the ClassFileLoadHook saw its bytes (no
# probes), and the fast engine leaves the run to the step engine, saying
# why; on JDK 17 it is a native and counted alike
case $(psf_jdk_feature "$JAVA") in
  25) refused sleeps 'ThreadSleepEvent.isEnabled\(\)Z, a method the JVM added to a JDK event class' Sleeps.work Sleeps 100 ;;
  *) same sleeps - Sleeps.work Sleeps 100 ;;
esac
# a class's fields or methods looked up: Reflection.filterFields and
# filterMethods look the class up in a Map.of, by its identity hash code
hashed reflected-fields Reflected.fields Reflected fields

# code of hidden classes (fast/hidden.c; more in fast_hidden.sh): string
# concatenation linked inside the method (invokedynamic, StringConcatFactory's
# LambdaForms), and a lambda linked before it whose proxy runs inside:
# apply's loop is 11 bytecodes, the proxy's applyAsInt 3 and x * 2 4 per
# element, and 9 around the loop (18n + 9)
same concat - Concat.cat Concat
same lambdas 189 Lambdas.apply Lambdas

# --- runs the fast engine cannot count yet: refused, with the reason -------
# a thread the method starts (a ForkJoinPool worker), which runs the
# program's lambda: the engine names threads started by the method when it
# collects at the extent's end, unless the worker, counted by no one,
# passes the bystanders' allowance or runs the program's lambda before
# (bystanders.c; which comes first depends on the scheduler, and on JDK 25
# the lambda usually does; the first reason is kept)
refused pooltwice 'Thread\.start\(\)V ran inside the extent: the fast engine does not yet count threads started by the method|threads it does not count ran more than 10000 bytecodes|which this engine does not count, ran the program.s code' \
  PoolTwice.target PoolTwice 2
# a thread the initializer of the method's class starts, counted before the method
# (the fast engine tags no thread at Thread.start, and Thread.start's hit is
# read only when it collects at the extent's end; the worker's first block
# of the program's code, Worker.run's, reaches the bystander probe while the
# initializer waits in join: that reason comes first, and the first is kept)
refused threads "thread 'Thread-0', which this engine does not count, ran the program's code" 'Daemon$NonDaemon.solve' Daemon nondaemon

# --- identity hash codes (docs/fast-engine.md, "Identity hash codes") ---------
# The JVM draws them from a per-thread sequence; both engines draw every
# code alike on the main thread on JDK 17 and 25 (the start draws the codes
# of the classes loaded before VMInit there, startup.c; both engines tag
# the class of every array a counting thread makes but the fast engine's
# own, fast/arrays.c and step/arrays.c), so counts that depend
# on them are the fast engine's, with the program's printed codes the same:
# a HashSet of plain Objects built and walked, enum constants and Objects
# as HashMap keys, Object.toString, reflection first used inside the method,
# classes' codes (the JDK's, drawn at the start, and one loaded inside) in a
# HashSet. On other JDKs each falls back, saying why.
hashed hashing Hashing.work Hashing
hashed identity-hash-native Calls.natives Calls natives 100
hashed hashreads-set HashReads.set HashReads set 2000
if hash_jdk; then
  # and the same in other runs: the fast engine's codes are not the run's
  # draw (before the start drew the classes' codes on the main thread, the
  # fast engine's two retransforming threads gave String.class another code
  # in each run)
  want=$(xpath "$TEST_TMP/step.xml" /psf-profile/summary/@work)
  for i in 1 2; do
    run_engine "$TEST_TMP/again.xml" fast HashReads.set HashReads set 2000 || true
    expect_eq "hashreads-set: fast run $((i + 1)): the step engine's total" \
      "$(xpath "$TEST_TMP/again.xml" /psf-profile/@status) $(xpath "$TEST_TMP/again.xml" /psf-profile/summary/@work)" "ok $want"
  done
fi
hashed hashreads-keys HashReads.keys HashReads keys 500
hashed hashreads-names HashReads.names HashReads names 500
hashed hashreads-reflect HashReads.reflect HashReads reflect 5
hashed hashreads-mirrors HashReads.mirrors HashReads mirrors 300
if hash_jdk; then
  for i in 1 2; do
    run_engine "$TEST_TMP/again.xml" fast HashReads.mirrors HashReads mirrors 300 || true
    expect_eq "hashreads-mirrors: fast run $((i + 1)): the step engine's total and codes" \
      "$(xpath "$TEST_TMP/again.xml" /psf-profile/summary/@work) $(cat "$TEST_TMP/program.out")" \
      "$(xpath "$TEST_TMP/step.xml" /psf-profile/summary/@work) $(cat "$TEST_TMP/step.out")"
  done
  # a thread main started before the method drew the codes the method
  # reads: a thread made after VMInit is seeded from os::random, which each
  # engine's start moves differently, so its codes differ (the step engine
  # counts another total than the fast one would)
  refused hashreads-before 'read identity hash codes.*a thread of the program started after' \
    HashReads.before HashReads before 2000
else
  refused hashreads-before 'read identity hash codes.*shown to draw alike on JDK 17 and 25 only' \
    HashReads.before HashReads before 2000
fi
# a thread the method starts draws codes: refused for the thread
refused hashreads-started 'Thread\.start\(\)V ran inside the extent|which this engine does not count, ran the program.s code' \
  HashReads.started HashReads started 500

# --- threads the method did not start ------------------------------------------
# A worker main started sums N numbers while the method spins until it is
# done. The step engine steps such a bystander and counts the program's
# code it runs while the method runs (agent/core/borrow.c, borrow_begin):
# Worker.run counts 10 bytecodes an iteration, plus 18 around the loop
# when it wakes from its wait (goto, getstatic, ifne, aload_1, monitorexit,
# goto, lconst_0, lstore_1, iconst_0, istore_3; the last test, 3; lload_1,
# putstatic, iconst_1, putstatic, return) when it was waiting before the
# method began; 21 when it began run() after the method set `go` (from
# offset 0: getstatic, dup, astore_1, monitorenter, getstatic, ifne, and on
# as above without the wait's goto); 26 when it began run() after the
# method began and waited once (those 4, getstatic, ifne, getstatic,
# invokevirtual, then the 18). Which one is the OS's choice of when the
# worker starts. The fast engine counts no thread the method did not
# start and leaves the run to the step engine. (The method's spin-wait
# varies: only the worker's count is compared.)
for n in 100000 100; do
  rm -f "$TEST_TMP/step.xml" "$TEST_TMP/fast.xml"
  run_engine "$TEST_TMP/step.xml" step SpinHandOff.handOff SpinHandOff "$n" || true
  run_engine "$TEST_TMP/fast.xml" fast SpinHandOff.handOff SpinHandOff "$n" || true
  expect_eq "bystander, n=$n: the step engine scores it" "$(xpath "$TEST_TMP/step.xml" /psf-profile/@status)" ok
  w=$(xpath "$TEST_TMP/step.xml" "/psf-profile/methods/method[@name='SpinHandOff\$Worker.run()V']/@work")
  case "$w" in
    $((10 * n + 18)) | $((10 * n + 21)) | $((10 * n + 26))) pass "bystander, n=$n: the worker's code is counted ($w)" ;;
    *) fail "bystander, n=$n: the worker's code is counted" "Worker.run work '$w', want 10n+18, 10n+21 or 10n+26" ;;
  esac
  expect_eq "bystander, n=$n: the fast engine falls back" "$(xpath "$TEST_TMP/fast.xml" /psf-profile/@status)" fallback
  expect_match "... saying why" "$(xpath "$TEST_TMP/fast.xml" /psf-profile/message)" \
    "thread 'spin-worker', which this engine does not count, ran the program's code"
done

# --- scored ------------------------------------------------------------------
# psf-score scores a fast profile as it scores the step engine's (the same
# counts, so the same score with the shipped table)
run_engine "$TEST_TMP/step.xml" step Loops.sum Loops 10
run_engine "$TEST_TMP/fast.xml" fast Loops.sum Loops 10
for e in step fast; do
  rc=0
  "$PSF_BUILD/psf-score" --json --costs "$PSF_ROOT/config/costs.xml" "$TEST_TMP/$e.xml" >"$TEST_TMP/score.$e" 2>"$TEST_TMP/score.err" || rc=$?
  expect_eq "psf-score scores a $e profile" "$rc/$(jq -r '"\(.status) \(.engine)"' "$TEST_TMP/score.$e")" "0/ok $e"
done
expect_eq "... with the same score" "$(jq -r .score "$TEST_TMP/score.fast")" "$(jq -r .score "$TEST_TMP/score.step")"
# a scoring run (result_fd): the authenticated record holds the fast
# engine's counts, within the bytecode limit (9n + 9 = 99 for n = 10) and
# past it, where the fast engine stops at the step engine's bytecode, the
# 99th, and halts the JVM
for limit in 99 98; do
  rc=0
  "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=Loops.sum,result_fd=5,key_fd=4,engine=fast,max_bytecodes=$limit" \
    -cp "$FX" Loops 10 4<<<"$(printf '%064d' 0)" 5>"$TEST_TMP/record" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || rc=$?
  printf '%064d' 0 | "$PSF_BUILD/psf-receive" "$TEST_TMP/record" "$TEST_TMP/received.xml" 2>"$TEST_TMP/receive.err" || true
  if [ "$limit" = 99 ]; then
    expect_eq "a scoring run with engine=fast within the limit: the JVM runs the program" "$rc" 0
    expect_eq "... its record holds the fast engine's counts" \
      "$(xpath "$TEST_TMP/received.xml" "concat(/psf-profile/@status, ' ', /psf-profile/@engine, ' ', /psf-profile/summary/@work)")" "ok fast 99"
  else
    expect_eq "a scoring run with engine=fast past the limit: halted (97)" "$rc" 97
    expect_eq "... its record holds the fast engine's counts at the limit" \
      "$(xpath "$TEST_TMP/received.xml" "concat(/psf-profile/@status, ' ', /psf-profile/@engine, ' ', /psf-profile/summary/@work)")" \
      "bytecode_limit fast 99"
  fi
done

# --- the bytecode limit ------------------------------------------------------
# A run past max_bytecodes stops, under the fast engine too, on the
# bytecode the step engine stops on (the limit's + 1st: counted, its key
# not, nothing after it run), with the step engine's partial profile,
# field for field, and no fallback (agent/fast/limit.c,
# docs/fast-engine.md "The bytecode limit").
# limit_same NAME LIMIT SPEC MAIN [ARGS...]: both engines with the limit;
# STATUS: the status both must give (bytecode_limit unless set); TOTAL:
# the bytecodes both count at the stop (the limit + 1 unless set); both
# say the same why
limit_same() {
  local name=$1 limit=$2 spec=$3 main=$4 S=$TEST_TMP/step.xml F=$TEST_TMP/fast.xml
  shift 4
  rm -f "$S" "$F"
  "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=$spec,out=$S,engine=step,max_bytecodes=$limit" \
    -cp "$FX" "$main" "$@" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || true
  "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=$spec,out=$F,engine=fast,max_bytecodes=$limit" \
    -cp "$FX" "$main" "$@" >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || true
  local want=${STATUS:-bytecode_limit}
  expect_eq "limit $name ($limit): step engine $want" "$(xpath "$S" /psf-profile/@status)" "$want"
  expect_eq "... the fast engine too, counting it itself" "$(xpath "$F" "concat(/psf-profile/@status, ' ', /psf-profile/@engine)")" \
    "$want fast"
  if [ "$want" = bytecode_limit ]; then
    expect_eq "... on the bytecode after the limit${TOTAL:+, or at the goto to itself}" \
      "$(xpath "$S" "/psf-profile/summary/@work + /psf-profile/summary/@overhead") $(xpath "$F" "/psf-profile/summary/@work + /psf-profile/summary/@overhead")" \
      "${TOTAL:-$((limit + 1))} ${TOTAL:-$((limit + 1))}"
    expect_eq "... saying the step engine's why" "$(xpath "$F" /psf-profile/message)" "$(xpath "$S" /psf-profile/message)"
  fi
  if diff <(fields "$S") <(fields "$F") >"$TEST_TMP/fields.diff"; then
    pass "... every field the step engine's"
  else
    fail "... every field the step engine's" "$(head -8 "$TEST_TMP/fields.diff")"
  fi
}
# Loops.sum(10), 9n + 9 = 99 bytecodes: every offset of the loop's 9
# bytecodes (48 .. 56), the last bytecode (98), the exact count (99: no
# stop) and one more; a block of straight code, stopped in its probe
for limit in 48 49 50 51 52 53 54 55 56 98; do
  limit_same loops-sum "$limit" Loops.sum Loops 10
done
for limit in 99 100; do
  STATUS=ok limit_same loops-sum "$limit" Loops.sum Loops 10
done
# in a loop the JIT compiled (9n + 9 for n = 1,000,000)
limit_same loops-compiled 8000003 Loops.sum Loops 1000000
# calls: in callees, at their entries and after their returns, on an
# invoke (8: its key not counted)
for limit in 1 4 7 8 11 14 30 60; do
  limit_same calls-chain "$limit" Calls.chain Calls chain 10
done
# a recursion, in a callee many frames deep
for limit in 9 10 11 500 5000; do
  limit_same fib "$limit" Fib.fib Fib 20
done
# exceptions the JVM throws mid-block and their handlers, array loads that
# may throw before the limit's bytecode (the stop waits for the next
# probe), inside an exception's constructor
for limit in 7 13 50 101 333 4567; do
  limit_same implicit "$limit" Implicit.run Implicit 20000
done
limit_same exceptions-caught 3 Exceptions.caught Exceptions
# an array load before a conditional branch in the same block: the branch
# probe ran before the stop was placed, and the predictor is put back
for limit in 103 105 107; do
  limit_same branches-random "$limit" Branches.random Branches random 5000
done
# allocations in the block: array instructions and their arrays
for limit in 5 10 20 30 40 42; do
  limit_same arraysizes "$limit" ArraySizes.make ArraySizes 5
done
limit_same calls-allocs 9 Calls.allocs Calls allocs 0
# a sort whose inner loop allocates (BoxSort.sort({300, 200}), 104
# bytecodes): the compare's aaload and intValue calls, then the swap
# (27 .. 47), Integer.valueOf(200) allocating (48 .. 68: its tests, new,
# dup, iload_0, the constructors of Integer, Number and Object, areturn),
# the aastore after it and on to the loop's test (69 .. 73): the limit
# at the bytecode before each
for limit in 11 20 24 28 32 40 $(seq 46 72) 103; do
  limit_same boxsort "$limit" BoxSort.sort BoxSort
done
# an initializer the JVM runs at a static access, and a frame that
# returned before the next probe
for limit in 2 4 6 12 14 16; do
  limit_same staticwork-make "$limit" StaticWork.make StaticWork make
done
# ClassInit.init, 27 bytecodes: new (1), Lazy.<clinit> (iconst_3 newarray
# putstatic getstatic iconst_0 iconst_1 iastore return: 2 .. 9), dup
# invokespecial (10, 11), Lazy.<init> and Object.<init> (12 .. 18),
# astore_0 aload_0 getfield getstatic (19 .. 22), Quiet.<clinit> (bipush
# putstatic return: 23 .. 25), iadd ireturn (26, 27). An initializer's last
# block after its putstatic (Lazy: getstatic .. return, 5 .. 9; Quiet: its
# return, 25), the stop armed there and placed at the initializer's exit
# probe, and the caller's dup after it (10): the limit at the bytecode
# before each
for limit in 2 $(seq 3 9) 24 25 26; do
  limit_same classinit "$limit" ClassInit.init ClassInit
done
# an endless loop, a goto to itself (`for (;;) { }`), which the step
# engine stops at its first execution under any limit, having counted it
# (agent_counts.sh), with its own message. Endless.run(3): 4 + 3(n + 1)
# + 6n + 2 = 9n + 9 = 36 bytecodes up to the call of stuck, whose iload_0
# iconst_1 iadd putstatic (37 .. 40) come before the goto (41): the limit
# at each of them, at the goto, one past it and far past it
for limit in 36 37 38 39 40; do
  limit_same endless-run "$limit" Endless.run Endless 3
done
for limit in 41 42 1000000; do
  TOTAL=41 limit_same endless-run "$limit" Endless.run Endless 3
done
# the goto at offset 0, the method's only code (Endless.top: 1), and after
# a loop the JIT compiled (9n + 14 for n = 1,000,000)
for limit in 1 7; do
  TOTAL=1 limit_same endless-top "$limit" Endless.top Endless top
done
limit_same endless-compiled 9000012 Endless.run Endless 1000000
TOTAL=9000014 limit_same endless-compiled 9000014 Endless.run Endless 1000000
# where the fast engine cannot place the stop (the limit's bytecode, the
# getstatic (22) or Quiet.<clinit>'s bipush or putstatic (23, 24), after
# the getfield, which may throw, in the segment the stop was armed in, and
# the initializer the agent runs at the getstatic in between), the run falls
# back, saying why, and the step engine's run finds the stop
for limit in 21 22 23; do
  "$JAVA" "${PINNED_FLAGS[@]}" "${JIT_FLAGS[@]}" "-agentpath:$PSF_BUILD/libpsfagent.so=method=ClassInit.init,out=$TEST_TMP/fast.xml,engine=fast,max_bytecodes=$limit" \
    -cp "$FX" ClassInit >"$TEST_TMP/program.out" 2>"$TEST_TMP/program.err" || true
  expect_eq "limit classinit ($limit): the fast engine falls back" "$(xpath "$TEST_TMP/fast.xml" /psf-profile/@status)" fallback
  expect_eq "... saying why" "$(xpath "$TEST_TMP/fast.xml" /psf-profile/message)" \
    "engine=fast cannot count this run exactly: the method executed more than $limit bytecodes (the limit), and the fast engine cannot place the step engine's stop: a frame began or ended between its probe and the limit's bytecode"
done

# --- intrinsics ------------------------------------------------------------
# Math.min, Objects.checkIndex and Integer.bitCount, 300,000 calls of each in
# a method the JIT compiles while it runs (Intrinsics.step): with the JDK's
# intrinsics of methods with bytecode off (psf_jdk_flags, in PINNED_FLAGS)
# the fast engine counts their bytecode in every tier, as the step engine
# does; without those flags it counted 11.1 to 23.3 million (14 runs on 17
# and 25), never the hand count (agent_counts.sh)
same intrinsics-calls 25350009 Intrinsics.calls Intrinsics 300000  # 84.5n + 9
# String.equals, a StringBuilder chain and boxing in a method C2 compiled on
# its own before the run (IntrinsicStrings.text; the CompileCommand keeps C2
# from inlining it into main, which changes no count): the same with C2's
# string concatenation optimization off (psf_jdk_flags); with it on, the
# fast engine missed up to 10.4 million of 19.4 million in 5 runs of 6 on 17
# (the JIT's timing decides whether the optimized code runs in time)
saved=("${PINNED_FLAGS[@]}")
PINNED_FLAGS+=(-XX:CompileCommand=quiet "-XX:CompileCommand=dontinline,IntrinsicStrings::text")
same intrinsics-strings - IntrinsicStrings.strings IntrinsicStrings 40000
PINNED_FLAGS=("${saved[@]}")

finish
