# shellcheck shell=bash
# jdk.sh - which JDKs PSF scores with, and what each one needs (sourced; bash).
#
# One place for what depends on the JDK's feature version, shared by
# get_score.sh and the integration tests: which versions are supported, the
# JVM flags a version needs on top of get_score.sh's PINNED_FLAGS, and which
# cost table belongs to it. docs/jdks.md explains the policy.
#
# The functions that answer print their answer; each has a psf_jdk_set_*
# twin that sets variables instead, for get_score.sh, which asks on every
# run and would pay a fork for each command substitution or pipe.
#
# Supported means PSF knows how to pin that JDK's options and refuse its ways
# around the counting (virtual threads, foreign calls). A newer feature
# version is refused by name until it has been looked at: its new options
# and APIs may undo the pinning.

PSF_SUPPORTED_JDKS="17 21 25"

# The supported feature versions that PSF's own CI runs scripts/self_test.sh
# --full on, on every change (tests/integration/jdk_25.sh, make test). Any
# other supported version is trusted on a machine only once the self-test
# has passed there on that very JDK build with this very PSF build: it leaves
# a record (psf_jdk_record) that get_score.sh looks for, and without it the
# JDK is refused as jdk_not_verified.
PSF_VERIFIED_JDKS="17 25"

# psf_jdk_feature JAVA: the feature version (17, 21, 25, ...) of the java
# launcher JAVA: from the release file of its JDK (psf_jdk_feature_release),
# else from java.specification.version as the launcher prints it; empty when
# neither tells.
psf_jdk_feature() {
  local real
  real=$(readlink -f -- "$1" 2>/dev/null) && psf_jdk_feature_release "$real" && return 0
  "$1" -XshowSettings:properties -version 2>&1 | psf_jdk_feature_of
}
# psf_jdk_feature_release REAL: the feature version in JAVA_VERSION of the
# release file of the JDK whose launcher's resolved path is REAL
# (REAL/../../release: "17.0.15" is 17, "1.8.0_402" is 8), printed; fails,
# printing nothing, when there is no such file or line. The JDK's build
# writes it from the same version the launcher reports, and reading it takes
# no JVM start (which is a good part of get_score.sh's own time, and CPU
# that a grading server scoring many submissions at once would spend on
# each of them).
psf_jdk_feature_release() {
  psf_jdk_set_feature_release "$1" || return 1
  printf '%s\n' "$PSF_JDK_FEATURE"
}
# psf_jdk_set_feature_release REAL: the same in PSF_JDK_FEATURE (empty, and
# fails, when there is none).
psf_jdk_set_feature_release() {
  local line v=""
  PSF_JDK_FEATURE=""
  [ -f "${1%/*}/../release" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in JAVA_VERSION=*) v=${line#JAVA_VERSION=} ;; esac
  done <"${1%/*}/../release"
  v=${v//\"/}
  [ "${v%%.*}" = 1 ] && v=${v#1.}
  v=${v%%[!0-9]*}
  [ -n "$v" ] || return 1
  PSF_JDK_FEATURE=$v
}
# psf_jdk_feature_of: the same, read from what `JAVA -XshowSettings:properties
# -version` printed (on stdin), for a caller that starts the launcher itself
# (get_score.sh starts it early, in the background: a JVM start is slow).
psf_jdk_feature_of() {
  sed -n 's/^ *java\.specification\.version = //p' | head -n 1
}

# psf_jdk_supported FEATURE: success when PSF scores with that feature version.
psf_jdk_supported() {
  case " $PSF_SUPPORTED_JDKS " in *" $1 "*) return 0 ;; esac
  return 1
}

# psf_jdk_verified_by_ci FEATURE: success when PSF's CI verifies that version.
psf_jdk_verified_by_ci() {
  case " $PSF_VERIFIED_JDKS " in *" $1 "*) return 0 ;; esac
  return 1
}

# psf_jdk_build_id JAVA: a SHA-256 that names one JDK build: its release file,
# what `java -version` prints and the bytes of its libjvm.so. Another build,
# or the same path with another JVM installed into it, gets another id. The
# JVM option variables are left out of `java -version` (it would print them
# as "Picked up ..."): the id is the JDK's, not the caller's environment's,
# and the scored JVM never sees them (get_score.sh runs it with env -i).
psf_jdk_build_id() {
  local java home jvm
  java=$(readlink -f -- "$1") || return 1
  home=$(dirname -- "$(dirname -- "$java")")
  jvm=$home/lib/server/libjvm.so
  [ -r "$jvm" ] || return 1
  {
    cat "$home/release" 2>/dev/null
    env -u JAVA_TOOL_OPTIONS -u _JAVA_OPTIONS -u JDK_JAVA_OPTIONS "$java" -version 2>&1
    sha256sum <"$jvm"
  } | sha256sum | cut -d' ' -f1
}

# psf_build_id ROOT BUILD: a SHA-256 that names one PSF build: the agent and
# the scripts that choose a scored run's flags. A self-test record holds it,
# so a new PSF build has to pass the self-test again on an unverified JDK.
psf_build_id() {
  local f
  for f in "$2/libpsfagent.so" "$1/scripts/get_score.sh" "$1/scripts/lib/jdk.sh"; do
    [ -r "$f" ] || return 1 # a missing part names no build
  done
  cat -- "$2/libpsfagent.so" "$1/scripts/get_score.sh" "$1/scripts/lib/jdk.sh" | sha256sum | cut -d' ' -f1
}

# psf_state_dir: where PSF keeps what it learned about this machine
# ($PSF_STATE_DIR, else $XDG_STATE_HOME/psf, else ~/.local/state/psf).
psf_state_dir() {
  printf '%s\n' "${PSF_STATE_DIR:-${XDG_STATE_HOME:-${HOME:-/nonexistent}/.local/state}/psf}"
}

# psf_jdk_record JDK_BUILD_ID: the file of the self-test record of that build.
psf_jdk_record() {
  printf '%s/verified-jdks/%s\n' "$(psf_state_dir)" "$1"
}

# psf_jdk_check_record JAVA ROOT BUILD: success when a self-test record says
# that this JDK build passed `self_test.sh --full` with this PSF build; else
# prints why not (one line) and fails.
psf_jdk_check_record() {
  local jdk_id want rec got
  jdk_id=$(psf_jdk_build_id "$1") || { echo "cannot identify the JDK build (no lib/server/libjvm.so beside $1)"; return 1; }
  rec=$(psf_jdk_record "$jdk_id")
  if [ ! -r "$rec" ]; then
    echo "it has not passed PSF's self-test on this machine for this user (no record at $rec; the self-test writes it under \$PSF_STATE_DIR, else ~/.local/state/psf, of whoever runs it)"
    return 1
  fi
  want=$(psf_build_id "$2" "$3") || { echo "cannot identify PSF's build (its agent under $3)"; return 1; }
  got=$(sed -n 's/^psf_build=//p' "$rec" | head -n 1)
  if [ "$got" != "$want" ]; then
    echo "it passed the self-test with another build of PSF (record $rec); PSF changed since"
    return 1
  fi
  return 0
}

# The HotSpot intrinsics a scored run switches off (psf_jdk_intrinsics;
# docs/jdks.md, "Intrinsics"): every library intrinsic of the JDK whose
# method has bytecode (not native, not abstract) and which the interpreter
# runs as bytecode (no special entry in AbstractInterpreter::method_kind:
# those, Math.sin, sqrt, pow, ..., Reference.get, the CRC32C updates, stay on
# and are natives to the step engine in every tier). The JIT puts such an
# intrinsic in place of the method once it compiles a caller, so its
# bytecode would be counted or not depending on the JIT's timing (always by
# the step engine, which interprets; not by the fast engine's probes). Names
# in the order of the JDK's vmIntrinsics.hpp, read from the JDK builds
# themselves (JVMCI's intrinsic table, reflection for native or abstract).
# Left out: the bytecode intrinsics (StringBuilder, boxing, ...: methods
# the JIT treats specially but does not replace; C2's string concatenation
# optimization has a flag of its own, see psf_jdk_flags) and, on 25,
# Continuation.enter (virtual-thread machinery, which PSF refuses). HotSpot
# refuses to start on an unknown name, so a list that does not fit its JDK
# cannot go unseen.
PSF_INTRINSICS_COMMON="
  _fabs _iabs _labs _floor _ceil _rint _datan2 _min _max _addExactI _addExactL
  _decrementExactI _decrementExactL _incrementExactI _incrementExactL _multiplyExactI
  _multiplyExactL _multiplyHigh _negateExactI _negateExactL _subtractExactI _subtractExactL
  _maxF _minF _maxD _minD _dcopySign _fcopySign _dsignum _fsignum _floatToIntBits
  _doubleToLongBits _numberOfLeadingZeros_i _numberOfLeadingZeros_l _numberOfTrailingZeros_i
  _numberOfTrailingZeros_l _bitCount_i _bitCount_l _reverseBytes_i _reverseBytes_l
  _reverseBytes_c _reverseBytes_s _Class_cast _onSpinWait _copyOf _copyOfRange
  _equalsC _equalsB _compressStringC _compressStringB _inflateStringC _inflateStringB
  _toBytesStringU _getCharsStringU _getCharStringU _putCharStringU _compareToL _compareToU
  _compareToLU _compareToUL _indexOfL _indexOfU _indexOfUL _indexOfIL _indexOfIU
  _indexOfIUL _indexOfU_char _indexOfL_char _equalsL _isDigit _isLowerCase _isUpperCase
  _isWhitespace _Preconditions_checkIndex _Preconditions_checkLongIndex _encodeISOArray
  _encodeByteISOArray _encodeAsciiArray _multiplyToLen _squareToLen _mulAdd _montgomeryMultiply
  _montgomerySquare _bigIntegerRightShiftWorker _bigIntegerLeftShiftWorker _vectorizedMismatch
  _aescrypt_encryptBlock _aescrypt_decryptBlock _cipherBlockChaining_encryptAESCrypt
  _cipherBlockChaining_decryptAESCrypt _electronicCodeBook_encryptAESCrypt
  _electronicCodeBook_decryptAESCrypt _counterMode_AESCrypt _md5_implCompress _sha_implCompress
  _sha2_implCompress _sha5_implCompress _sha3_implCompress _digestBase_implCompressMB
  _base64_encodeBlock _base64_decodeBlock _ghash_processBlocks _allocateUninitializedArray
  _storeStoreFence _profileBoolean _isCompileConstant _getReferenceOpaque _getBooleanOpaque
  _getByteOpaque _getShortOpaque _getCharOpaque _getIntOpaque _getLongOpaque _getFloatOpaque
  _getDoubleOpaque _putReferenceOpaque _putBooleanOpaque _putByteOpaque _putShortOpaque
  _putCharOpaque _putIntOpaque _putLongOpaque _putFloatOpaque _putDoubleOpaque
  _getReferenceAcquire _getBooleanAcquire _getByteAcquire _getShortAcquire _getCharAcquire
  _getIntAcquire _getLongAcquire _getFloatAcquire _getDoubleAcquire _putReferenceRelease
  _putBooleanRelease _putByteRelease _putShortRelease _putCharRelease _putIntRelease
  _putLongRelease _putFloatRelease _putDoubleRelease _getShortUnaligned _getCharUnaligned
  _getIntUnaligned _getLongUnaligned _putShortUnaligned _putCharUnaligned _putIntUnaligned
  _putLongUnaligned _compareAndExchangeReferenceAcquire _compareAndExchangeReferenceRelease
  _compareAndExchangeLongAcquire _compareAndExchangeLongRelease _compareAndExchangeIntAcquire
  _compareAndExchangeIntRelease _compareAndSetByte _compareAndExchangeByte
  _compareAndExchangeByteAcquire _compareAndExchangeByteRelease _compareAndSetShort
  _compareAndExchangeShort _compareAndExchangeShortAcquire _compareAndExchangeShortRelease
  _weakCompareAndSetReferencePlain _weakCompareAndSetReferenceAcquire
  _weakCompareAndSetReferenceRelease _weakCompareAndSetReference _weakCompareAndSetLongPlain
  _weakCompareAndSetLongAcquire _weakCompareAndSetLongRelease _weakCompareAndSetLong
  _weakCompareAndSetIntPlain _weakCompareAndSetIntAcquire _weakCompareAndSetIntRelease
  _weakCompareAndSetInt _weakCompareAndSetBytePlain _weakCompareAndSetByteAcquire
  _weakCompareAndSetByteRelease _weakCompareAndSetByte _weakCompareAndSetShortPlain
  _weakCompareAndSetShortAcquire _weakCompareAndSetShortRelease _weakCompareAndSetShort
  _getAndAddInt _getAndAddLong _getAndAddByte _getAndAddShort _getAndSetInt _getAndSetLong
  _getAndSetByte _getAndSetShort _getAndSetReference _VectorUnaryOp _VectorBinaryOp
  _VectorTernaryOp _VectorLoadOp _VectorStoreOp _VectorReductionCoerced _VectorTest _VectorBlend
  _VectorCompare _VectorRearrange _VectorExtract _VectorInsert _VectorBroadcastInt _VectorConvert
  _VectorGatherOp _VectorScatterOp _VectorRebox _VectorMaskOp
"
# JDK 17 only (gone by 25)
PSF_INTRINSICS_17="
  _equalsU _checkIndex _hasNegatives _VectorBroadcastCoerced _VectorShuffleIota
  _VectorShuffleToVector
"
# JDK 25 only (added after 17)
PSF_INTRINSICS_25="
  _unsignedMultiplyHigh _maxL _minL _roundD _roundF _min_strict _max_strict _minF_strict
  _maxF_strict _minD_strict _maxD_strict _floatIsInfinite _floatIsFinite _doubleIsInfinite
  _doubleIsFinite _compareUnsigned_i _compareUnsigned_l _divideUnsigned_i _remainderUnsigned_i
  _divideUnsigned_l _remainderUnsigned_l _compress_i _compress_l _expand_i _expand_l
  _reverse_i _reverse_l _arraySort _arrayPartition _vectorizedHashCode _countPositives
  _galoisCounterMode_AESCrypt _double_keccak _intpoly_montgomeryMult_P256 _intpoly_assign
  _poly1305_processBlocks _chacha20Block _kyberNtt _kyberInverseNtt _kyberNttMult _kyberAddPoly_2
  _kyberAddPoly_3 _kyber12To16 _kyberBarrettReduce _dilithiumAlmostNtt _dilithiumAlmostInverseNtt
  _dilithiumNttMult _dilithiumMontMulByConstant _dilithiumDecomposePoly _loadFence _storeFence
  _sqrt_float16 _fma_float16 _VectorUnaryLibOp _VectorBinaryLibOp _VectorSelectFromTwoVectorOp
  _VectorFromBitsCoerced _VectorLoadMaskedOp _VectorStoreMaskedOp _VectorSelectFrom
  _VectorCompressExpand _IndexVector _IndexPartiallyInUpperRange
"

# psf_jdk_intrinsics FEATURE: the comma-separated names for
# -XX:DisableIntrinsic= on that feature version: 17 and 25 their own lists,
# checked on both (tests/integration/agent_get_score.sh); 21 the names 17
# and 25 share, unchecked here (its self-test starts the JVM with them).
psf_jdk_intrinsics() {
  psf_jdk_set_intrinsics "$1"
  printf '%s\n' "$PSF_JDK_INTRINSICS"
}
# psf_jdk_set_intrinsics FEATURE: the same in PSF_JDK_INTRINSICS.
psf_jdk_set_intrinsics() {
  local ids=$PSF_INTRINSICS_COMMON names IFS=$' \t\n'
  case $1 in
    17) ids="$ids $PSF_INTRINSICS_17" ;;
    25) ids="$ids $PSF_INTRINSICS_25" ;;
  esac
  # (joined by the shell: a paste was a fork and an exec of every scored run)
  # shellcheck disable=SC2206 # word splitting of the lists is meant; no name has a glob character
  names=($ids)
  IFS=,
  PSF_JDK_INTRINSICS="${names[*]}"
}

# psf_jdk_flags FEATURE: the JVM flags, one per line, that a scored run on
# that feature version adds to PINNED_FLAGS (docs/jdks.md, "Flags per JDK"):
#   21+  -Djdk.virtualThreadScheduler.parallelism=1
#        virtual threads run on one carrier, however many CPUs the machine has
#        (ActiveProcessorCount=1 implies it; pinned so it stays true)
#   24+  --illegal-native-access=deny
#        restricted methods (the foreign linker, SymbolLookup.libraryLookup,
#        MemorySegment.reinterpret) and System.loadLibrary throw
#        IllegalCallerException in code on the class path: native code would
#        run uncounted and could reach the agent's memory
#   24+  --sun-misc-unsafe-memory-access=deny
#        sun.misc.Unsafe's memory methods throw even before the agent
#        disarms them (on 17 and 21 the agent's disarming alone holds)
#   24+  -XX:-UseCompactObjectHeaders
#        the default object layout, which the JDK's CDS archive (classes.jsa)
#        was built with: with compact headers a different archive (or none)
#        is used, and without CDS identity hash codes are not repeatable
#   all  -XX:+UnlockDiagnosticVMOptions -XX:DisableIntrinsic=<psf_jdk_intrinsics>
#        the JIT runs the bytecode of every method the interpreter runs as
#        bytecode, instead of an intrinsic (added to PINNED_FLAGS' own list)
#   all  -XX:-OptimizeStringConcat
#        C2 keeps the calls of a StringBuilder chain (it would replace the
#        chain by code of its own, which runs none of their bytecode)
psf_jdk_flags() {
  psf_jdk_set_flags "$1"
  [ ${#PSF_JDK_FLAGS[@]} -eq 0 ] || printf '%s\n' "${PSF_JDK_FLAGS[@]}"
}
# psf_jdk_set_flags FEATURE: the same in the array PSF_JDK_FLAGS.
psf_jdk_set_flags() {
  local v=$1
  PSF_JDK_FLAGS=()
  [[ $v =~ ^[0-9]+$ ]] || return 0
  psf_jdk_set_intrinsics "$v"
  PSF_JDK_FLAGS+=(-XX:+UnlockDiagnosticVMOptions "-XX:DisableIntrinsic=$PSF_JDK_INTRINSICS" -XX:-OptimizeStringConcat)
  if [ "$v" -ge 21 ]; then
    PSF_JDK_FLAGS+=(-Djdk.virtualThreadScheduler.parallelism=1)
  fi
  if [ "$v" -ge 24 ]; then
    PSF_JDK_FLAGS+=(--illegal-native-access=deny --sun-misc-unsafe-memory-access=deny -XX:-UseCompactObjectHeaders)
  fi
}

# psf_jdk_table ROOT FEATURE: prints "PATH<TAB>FEATURE_OF_TABLE" for the cost
# table that belongs to that feature version: config/costs-jdkN.xml for the
# feature version itself when it exists, else the one of the nearest feature
# version that has a table (the newer one on a tie: it shares more of the
# runtime). config/costs.xml is the JDK 17 table.
psf_jdk_table() {
  psf_jdk_set_table "$1" "$2" || return 1
  printf '%s\t%s\n' "$PSF_JDK_TABLE" "$PSF_JDK_TABLE_FEATURE"
}
# psf_jdk_set_table ROOT FEATURE: the same in PSF_JDK_TABLE (the path) and
# PSF_JDK_TABLE_FEATURE (its feature version); both empty, and fails, when
# there is none.
psf_jdk_set_table() {
  local root=$1 want=$2 best="" best_v="" d best_d=""
  local f v
  PSF_JDK_TABLE="" PSF_JDK_TABLE_FEATURE=""
  for f in "$root"/config/costs.xml "$root"/config/costs-jdk*.xml; do
    [ -r "$f" ] || continue
    case ${f##*/} in
      costs.xml) v=17 ;;
      costs-jdk*.xml) v=${f##*/costs-jdk}; v=${v%.xml} ;;
    esac
    [[ $v =~ ^[0-9]+$ ]] || continue
    d=$((v > want ? v - want : want - v))
    if [ -z "$best" ] || [ "$d" -lt "$best_d" ] || { [ "$d" -eq "$best_d" ] && [ "$v" -gt "$best_v" ]; }; then
      best=$f best_v=$v best_d=$d
    fi
  done
  [ -n "$best" ] || return 1
  PSF_JDK_TABLE=$best PSF_JDK_TABLE_FEATURE=$best_v
}
