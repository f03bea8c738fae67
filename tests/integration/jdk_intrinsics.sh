#!/usr/bin/env bash
# jdk_intrinsics.sh - the intrinsics list of each JDK at hand (the default
# one, and JDK 25 when it is installed: PSF_JDK25_HOME, else
# /usr/lib/jvm/temurin-25-jdk-amd64) is exactly what that JDK build says it
# should be (docs/jdks.md, "Intrinsics"): every library intrinsic whose
# method has bytecode in that JDK and no special interpreter entry, read
# from the JVM itself. The names, in HotSpot's order, from libjvm.so; each
# one's class, method and descriptor from JVMCI's table, native or not by
# reflection (jdk_intrinsics/IntrinsicTable.java). A JDK update that adds an
# intrinsic, or makes a listed method native, fails here; one that removes a
# name stops every run (agent_get_score.sh).
set -eu
. "$(dirname "$0")/lib.sh"

# The intrinsics HotSpot's interpreter runs through entries of its own
# (AbstractInterpreter::method_kind, 17 and 25): never switched off, they
# are natives to the step engine in every tier.
INTERPRETER="_dsin _dcos _dtan _dtanh _dcbrt _dabs _dlog _dlog10 _dpow _dexp _fmaD _fmaF _dsqrt
  _dsqrt_strict _Reference_get _updateCRC32 _updateBytesCRC32 _updateByteBufferCRC32
  _updateBytesCRC32C _updateDirectByteBufferCRC32C _intBitsToFloat _floatToRawIntBits
  _longBitsToDouble _doubleToRawLongBits _float16ToFloat _floatToFloat16 _currentThread _Object_init"
# left out on purpose (scripts/lib/jdk.sh): virtual-thread machinery
LEFT_OUT="_Continuation_enter"

homes=("$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVA")")")")")
J25=${PSF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ ! -x "$J25/bin/java" ]; then
  echo "# no JDK at $J25: only the default JDK checked"
elif [ "$(readlink -f "$J25")" != "${homes[0]}" ]; then
  homes+=("$(readlink -f "$J25")")
fi

X=(--add-modules=jdk.internal.vm.ci --add-exports=jdk.internal.vm.ci/jdk.vm.ci.hotspot=ALL-UNNAMED
  --add-exports=jdk.internal.vm.ci/jdk.vm.ci.runtime=ALL-UNNAMED)
for home in "${homes[@]}"; do
  v=$(psf_jdk_feature "$home/bin/java")
  if ! "$home/bin/java" --list-modules 2>/dev/null | grep -q '^jdk\.internal\.vm\.ci@'; then
    fail "JDK $v at $home: no jdk.internal.vm.ci module (JVMCI), its intrinsics cannot be read"
    continue
  fi
  d=$TEST_TMP/$v
  mkdir -p "$d"
  "$home/bin/javac" "${X[@]}" -d "$d" "$PSF_ROOT/tests/integration/jdk_intrinsics/IntrinsicTable.java"
  "$home/bin/java" -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI "${X[@]}" -cp "$d" IntrinsicTable >"$d/table"
  # vmIntrinsics' names, one string each in libjvm.so from _hashCode (id 1,
  # right after other data, not always a NUL) and _getClass on
  tr '\0' '\n' <"$home/lib/server/libjvm.so" |
    awk '!on && $0 == "_getClass" && prev ~ /_hashCode$/ { on = 1; print "_hashCode" }
         on && !/^_[A-Za-z0-9_]+$/ { exit } on { print } { prev = $0 }' >"$d/names"
  paste "$d/names" "$d/table" >"$d/all"
  expect_eq "JDK $v: a name for every intrinsic of JVMCI's table, in its order" \
    "$(awk -F'\t' '$2 != NR' "$d/all" | head -3)$(wc -l <"$d/names") $(awk -F'\t' '$2 == NR' "$d/all" | wc -l)" \
    "$(wc -l <"$d/table") $(wc -l <"$d/table")"
  expect_eq "JDK $v: _min, _Preconditions_checkIndex and _bitCount_i are the fixtures' methods" \
    "$(awk -F'\t' '$1 == "_min" || $1 == "_Preconditions_checkIndex" || $1 == "_bitCount_i" { printf "%s.%s%s %s;", $3, $4, $5, $6 }' "$d/all")" \
    "java/lang/Math.min(II)I bytecode;java/lang/Integer.bitCount(I)I bytecode;jdk/internal/util/Preconditions.checkIndex(IILjava/util/function/BiFunction;)I bytecode;"
  # the library intrinsics: those before the bytecode intrinsics, which
  # start with the StringBuilder constructors
  # shellcheck disable=SC2086,SC2116 # the names on one line, one space apart
  awk -F'\t' -v skip=" $(echo $INTERPRETER $LEFT_OUT) " '
    $1 == "_StringBuilder_void" { exit }
    $6 == "bytecode" && index(skip, " " $1 " ") == 0 { print $1 }' "$d/all" | sort >"$d/want"
  psf_jdk_intrinsics "$v" | tr , '\n' | sort >"$d/got"
  comm -3 "$d/want" "$d/got" | sed 's/^\t/listed but not wanted: /; s/^_/wanted but not listed: _/' >"$d/diff"
  expect_eq "JDK $v: psf_jdk_intrinsics is every library intrinsic with bytecode and no interpreter entry ($(wc -l <"$d/want"))" \
    "$(wc -l <"$d/diff") differences" "0 differences"
  sed 's/^/  /' "$d/diff"
  expect_eq "JDK $v: no interpreter intrinsic is listed" \
    "$(for i in $INTERPRETER; do grep -x -- "$i" "$d/got" || true; done | tr '\n' ' ')" ""
done

finish
