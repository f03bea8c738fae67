#!/usr/bin/env bash
# adversarial_natives.sh - JDK natives whose work grows with their input are
# charged by size (agent/runtime/bulk.c; docs/hidden-work.md, "Natives charged by
# size"): the NativeSize fixture hands 100,000 and then 1,000,000 bytes to
# one native call, and the invoke of that native must carry exactly that
# many elements in the profile; with a price per element ten times the
# bytes cost ten times the per-element part; without one the native is
# listed as missing. (Checksums and compression: adversarial.sh, Bulk.)
set -eu
. "$(dirname "$0")/lib.sh"
adversarial_setup
P=$TEST_TMP/p.xml
FEATURE=$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p;q')

# score MODE N [COSTS]: JSON in $TEST_TMP/out, the profile in $P, exit code echoed
score() {
  "$GS" --classpath "$FX" --main NativeSize --method NativeSize.work --json --costs "${3:-none}" --sandbox require \
    --profile-out "$P" -- "$1" "$2" >"$TEST_TMP/out" 2>"$TEST_TMP/err" && echo 0 || echo $?
}
# elements NAME: the elements of the work bucket's invokes whose key contains NAME(
elements() {
  xpath "$P" "sum(/psf-profile/dependencies[@bucket='work']/invoke[contains(@method,'$1(')]/@elements)"
}

# MODE:NATIVE (the part of the invoke key before its signature; JDK 17 and
# 25 spell some differently, hence contains). Every mode's native handles
# exactly N bytes (N chars for intern, N elements for newarray), in one call
# or, for reads, in calls that add up to N.
for spec in put:Unsafe.copyMemory0 get:Unsafe.copyMemory0 swap:Unsafe.copySwapMemory0 fill:Unsafe.setMemory0 \
  fos:FileOutputStream.writeBytes fis:FileInputStream.readBytes rafw:RandomAccessFile.writeBytes \
  rafr:RandomAccessFile.readBytes chw:FileDispatcherImpl.write0 chr:FileDispatcherImpl.read0 \
  dict:Deflater.setDictionary intern:String.intern newarray:Array.newArray copy:UnixCopyFile.transfer \
  mload:MappedMemoryUtils.load0 mloaded:MappedMemoryUtils.isLoaded0 mforce:MappedMemoryUtils.force0; do
  mode=${spec%%:*} native=${spec#*:}
  if [ "$mode" = copy ] && [ "$FEATURE" != 17 ]; then
    continue # JDK 17's copy native; later JDKs copy through others (bulk.c)
  fi
  got=""
  for n in 100000 1000000; do
    rc=$(score "$mode" "$n")
    e=$(elements "$native")
    # RandomAccessFile's natives are readBytes0/writeBytes0 in later JDKs
    case $mode in rafw | rafr) e=$((e + $(elements "${native}0"))) ;; esac
    got="$got $rc:$e"
  done
  expect_eq "natives by size: $mode ($native): 100 KB then 1 MB, exactly those elements" "$got" " 0:100000 0:1000000"
done

# A directory's listing: File.list of 100 and then 1000 files made by main.
# JDK 17 calls the native through java.io.FileSystem.list, later JDKs reach
# UnixFileSystem.list0. Its elements: the entries returned, plus what the
# native allocates (as for every native): the JDK's C code collects the
# names in an array of 16 that it doubles when full and copies into one of
# the exact length at the end (100: 16+32+64+128+100 = 340; 1000:
# 16+...+1024 + 1000 = 3032), and one byte per character of each name
# ("f0".."f99": 290 bytes; to "f999": 3890): 100+340+290 = 730 and
# 1000+3032+3890 = 7922.
declare -A other fill_of
got=""
for n in 100 1000; do
  rc=$(score list "$n")
  got="$got $rc:$(($(elements FileSystem.list) + $(elements UnixFileSystem.list0)))"
done
expect_eq "natives by size: list (File.list): 100 then 1000 entries, the entries and the native's arrays" "$got" " 0:730 0:7922"

# StackWalker: work N calls deep walks N + 1 frames of walkDeep, work and
# main, N + 3 frames (the JVM skips StackWalker's own frames above them and
# the lambda's hidden class frames). The first batch comes with
# callStackWalk, charged per call: SMALL_BATCH (8) less the slots the JDK
# reserves, 6 frames on JDK 17 (START_POS 2) and 7 on 25 (RESERVED_ELEMENTS
# 1); fetchStackFrames fills the other N + 3 - 6 (or - 7) in batches of 12,
# 24, 32, ... frames, and is charged by the frames filled.
case $FEATURE in 17) first=6 ;; *) first=7 ;; esac
got="" want=""
for n in 100 1000; do
  rc=$(score walk "$n")
  got="$got $rc:$(elements AbstractStackWalker.fetchStackFrames)"
  want="$want 0:$((n + 3 - first))"
done
expect_eq "natives by size: walk (StackWalker): 103 then 1003 frames, the batches after the first" "$got" "$want"

# Reflection's member lists are charged by what the native allocates (as
# for every native): getDeclaredMethods0 of a class of k methods named
# psf00, psf01, ... (no parameters, no exceptions) makes a Method[k], k
# empty Class[] for parameter and exception types, and one new String per
# name (no JDK class interns these): its byte[] of 5 Latin-1 bytes. k = 2:
# 2 + 2 * 5 = 12; k = 12: 12 + 12 * 5 = 72.
got=""
for n in 2 12; do
  rc=$(score methods "$n")
  got="$got $rc:$(elements Class.getDeclaredMethods0)"
done
expect_eq "natives by size: methods (getDeclaredMethods0): 2 then 12 methods, the arrays and names it makes" "$got" " 0:12 0:72"

# Classes defined from bytes: Lookup.defineHiddenClass of the class file
# of Members2 and then Members12 (as the build wrote them) reaches
# ClassLoader.defineClass0, charged by the class file's bytes.
got="" want=""
for n in 2 12; do
  rc=$(score define "$n")
  got="$got $rc:$(elements ClassLoader.defineClass0)"
  want="$want 0:$(stat -c %s "$FX/NativeSize\$Members$n.class")"
done
expect_eq "natives by size: define (defineClass0): the class file's bytes" "$got" "$want"

# Another thread's stack trace is charged by its frames through what the
# native allocates: a StackTraceElement[] of one element per frame (JDK 17:
# in a StackTraceElement[][] of one thread, dumpThreads; later JDKs:
# getStackTrace0), plus the strings of names that thread's frames use for
# the first time, the same at any depth. A thread waiting 900 frames deeper
# costs exactly 900 elements more.
native=Thread.getStackTrace0
[ "$FEATURE" = 17 ] && native=Thread.dumpThreads
declare -A other fill_of
got=""
for n in 100 1000; do
  rc=$(score other "$n")
  other[$n]=$(elements "$native")
  got="$got $rc"
done
expect_eq "natives by size: other ($native): scored" "$got" " 0 0"
[ "${other[100]}" -gt 101 ] && pass "natives by size: other ($native): at least the 101 frames of waitDeep (${other[100]})" ||
  fail "natives by size: other ($native): at least the frames of waitDeep" "${other[100]} elements"
expect_eq "natives by size: other ($native): 900 frames deeper, 900 elements more" "$((other[1000] - other[100]))" 900

# Stack traces cost by depth: a Throwable made N + 1 calls deep below work
# has N + 3 frames (deep x N+1, work, main); its getStackTrace clones an
# array of N + 3 elements and fills N + 3 StackTraceElements. The native
# fillInStackTrace's elements are the frames plus the arrays HotSpot's
# backtrace allocates while it runs (allocations inside a native call are
# its elements too): more than N + 3, and growing with N.
for n in 50 500; do
  rc=$(score trace "$n")
  expect_eq "natives by size: trace $n: scored" "$rc" 0
  expect_eq "natives by size: trace $n: the trace's array holds the frames" \
    "$(xpath "$P" "/psf-profile/dependencies[@bucket='work']/invoke[@method='[Ljava.lang.StackTraceElement;.clone()Ljava/lang/Object;']/@elements")" \
    "$((n + 3))"
  fill=$(elements Throwable.fillInStackTrace)
  [ "$fill" -gt "$((n + 3))" ] && pass "natives by size: trace $n: fillInStackTrace charged by depth ($fill)" ||
    fail "natives by size: trace $n: fillInStackTrace charged by depth" "$fill elements"
  fill_of[$n]=$fill
done
[ "${fill_of[500]}" -ge "$((fill_of[50] * 8))" ] && pass "natives by size: fillInStackTrace grows with depth (${fill_of[50]}, ${fill_of[500]})" ||
  fail "natives by size: fillInStackTrace grows with depth" "${fill_of[50]} then ${fill_of[500]}"

# Priced per element: 10x the bytes cost exactly 900,000 more at 1 per byte;
# without a price per element the native is missing (the score approximate).
KEY='jdk.internal.misc.Unsafe.copyMemory0(Ljava/lang/Object;JLjava/lang/Object;JJ)V'
sed "s|</costs>|  <invoke method=\"$KEY\" cost=\"10\" cost_per_element=\"1\"/>\n</costs>|" \
  "$PSF_ROOT/config/costs-uncalibrated.xml" >"$TEST_TMP/priced.xml"
score put 100000 "$TEST_TMP/priced.xml" >/dev/null
small=$(jq -r .score "$TEST_TMP/out")
score put 1000000 "$TEST_TMP/priced.xml" >/dev/null
large=$(jq -r .score "$TEST_TMP/out")
expect_eq "natives by size: a direct buffer's put of 10x the bytes costs 900000 more" "$((large - small))" 900000
sed "s|</costs>|  <invoke method=\"$KEY\" cost=\"10\"/>\n</costs>|" \
  "$PSF_ROOT/config/costs-uncalibrated.xml" >"$TEST_TMP/per-call.xml"
rc=$(score put 100000 "$TEST_TMP/per-call.xml")
expect_eq "natives by size: copyMemory0 priced per call only is missing" \
  "$rc/$(jq -r --arg k "invoke:$KEY" '.missing | any(. == $k)' "$TEST_TMP/out")" "0/true"

finish
