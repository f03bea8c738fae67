#!/bin/sh
# scorer_table_machine.sh - a score made with a table from another CPU or
# JDK says so, in the JSON and in the summary; one from this machine does not.
#
# tests/fixtures/scorer/zen5.costs.xml rewritten with this machine's CPU
# identity and TSC rate (as psf-score reports them under table_machine.here)
# must match; copies with another cpu_family, another JDK, or without the
# identity attributes (as tables written before them) must not.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
command -v jq >/dev/null 2>&1 || { echo "jq not installed"; exit 77; }
grep -q '^cpu family' /proc/cpuinfo 2>/dev/null || { echo "no x86 /proc/cpuinfo"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks: $2"; }; }
hasnt() { ! grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 has: $2"; }; }

# This machine as psf-score sees it (any calibrated table will do).
"$SCORE" --costs $F/zen5.costs.xml --json $F/basic.profile.xml >"$TMP/probe.json" || true
h() { jq -r ".table_machine.here.$1" "$TMP/probe.json"; }
VENDOR=$(h cpu_vendor) FAMILY=$(h cpu_family) MODEL=$(h cpu_model_number) STEPPING=$(h cpu_stepping)
TSC_HZ=$(( $(h tsc_mhz) * 1000000 ))
expect "here: family from /proc/cpuinfo" "$FAMILY" "$(sed -n 's/^cpu family[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)"
expect "here: vendor from /proc/cpuinfo" "$VENDOR" "$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)"

# A table of this machine, for the JDK that wrote basic.profile.xml.
sed -e "s/cpu_vendor=\"[^\"]*\"/cpu_vendor=\"$VENDOR\"/" -e "s/cpu_family=\"[^\"]*\"/cpu_family=\"$FAMILY\"/" \
    -e "s/cpu_model_number=\"[^\"]*\"/cpu_model_number=\"$MODEL\"/" \
    -e "s/cpu_stepping=\"[^\"]*\"/cpu_stepping=\"$STEPPING\"/" -e "s/tsc_hz=\"[0-9]*\"/tsc_hz=\"$TSC_HZ\"/" \
    $F/zen5.costs.xml >"$TMP/here.xml"
"$SCORE" --costs "$TMP/here.xml" --json $F/basic.profile.xml >"$TMP/here.json"
expect "this machine: matches" "$(jq -r .table_machine_matches "$TMP/here.json")" true
expect "this machine: no differences" "$(jq -r '.table_machine.differences | length' "$TMP/here.json")" 0
expect "this machine: no command" "$(jq -r .table_machine.calibrate_command "$TMP/here.json")" null
expect "this machine: table records family" "$(jq -r .cost_table.calibration.cpu_family "$TMP/here.json")" "$FAMILY"
"$SCORE" --costs "$TMP/here.xml" $F/basic.profile.xml >"$TMP/here.txt"
hasnt "$TMP/here.txt" "another machine"
hasnt "$TMP/here.txt" "calibrate this machine"

# The same table from another CPU family: false, the reason, the command.
OTHER=$((FAMILY + 1))
sed "s/cpu_family=\"$FAMILY\"/cpu_family=\"$OTHER\"/" "$TMP/here.xml" >"$TMP/family.xml"
"$SCORE" --costs "$TMP/family.xml" --json $F/basic.profile.xml >"$TMP/family.json"
j() { jq -r "$1" "$TMP/family.json"; }
expect "other family: matches" "$(j .table_machine_matches)" false
expect "other family: reasons" "$(j '.table_machine.differences | join("|")')" "cpu family $OTHER in the table, $FAMILY here"
expect "other family: command" "$(j .table_machine.calibrate_command)" scripts/calibrate_machine.sh
expect "other family: score unchanged" "$(j .score)" "$(jq -r .score "$TMP/here.json")"
expect "other family: keys sorted" "$(jq -c 'keys_unsorted == (keys_unsorted | sort)' "$TMP/family.json")" true
"$SCORE" --costs "$TMP/family.xml" $F/basic.profile.xml >"$TMP/family.txt"
has "$TMP/family.txt" "approximate time: the table was calibrated on another machine (cpu family $OTHER in the table, $FAMILY here)"
has "$TMP/family.txt" "ranks of scores made with this table on one machine are not affected"
has "$TMP/family.txt" "calibrate this machine: scripts/calibrate_machine.sh"
# --score-only stays one number
expect "other family: score-only" "$("$SCORE" --costs "$TMP/family.xml" --score-only $F/basic.profile.xml)" \
  "$("$SCORE" --costs "$TMP/here.xml" --score-only $F/basic.profile.xml)"

# Another JDK than the profile's.
sed 's/jdk_version="[^"]*"/jdk_version="21.0.5+11"/' "$TMP/here.xml" >"$TMP/jdk.xml"
"$SCORE" --costs "$TMP/jdk.xml" --json $F/basic.profile.xml >"$TMP/jdk.json"
expect "other JDK: matches" "$(jq -r .table_machine_matches "$TMP/jdk.json")" false
expect "other JDK: reason" "$(jq -r '.table_machine.differences[0]' "$TMP/jdk.json")" \
  "JDK 21.0.5+11 in the table, 17.0.15+6-Debian-1deb12u1 here"

# A table without the identity attributes (as written before them): it
# loads; with this machine's TSC rate nothing differs, but the CPU is unknown.
sed 's/ cpu_vendor="[^"]*" cpu_family="[^"]*" cpu_model_number="[^"]*" cpu_stepping="[^"]*"//' "$TMP/here.xml" >"$TMP/old.xml"
! grep -q cpu_family "$TMP/old.xml" || fail "old.xml still has cpu_family"
"$SCORE" --costs "$TMP/old.xml" --json $F/basic.profile.xml >"$TMP/old.json"
expect "old table: matches unknown" "$(jq -r .table_machine_matches "$TMP/old.json")" null
expect "old table: unchecked family" "$(jq -r '.table_machine.unchecked | index("cpu family: the table does not record it") != null' "$TMP/old.json")" true
"$SCORE" --costs "$TMP/old.xml" $F/basic.profile.xml >"$TMP/old.txt"
has "$TMP/old.txt" "approximate time: the table does not say which CPU calibrated it"

# The built-in table predicts no time: nothing checked.
"$SCORE" --json $F/basic.profile.xml >"$TMP/builtin.json"
expect "built-in: matches" "$(jq -r .table_machine_matches "$TMP/builtin.json")" null
expect "built-in: table_machine" "$(jq -r .table_machine "$TMP/builtin.json")" null
# The TSC rate measured beforehand (--measure-tsc, as get_score.sh does while
# the JVM runs) and handed over with --tsc-hz: the same rate, the same verdict.
MEASURED=$("$SCORE" --measure-tsc)
# (two measurements: within 1 MHz, as either may round the other way)
d=$(( (MEASURED + 500000) / 1000000 - $(h tsc_mhz) ))
[ "${d#-}" -le 1 ] || fail "measure-tsc: $MEASURED Hz, scoring measured $(h tsc_mhz) MHz"
"$SCORE" --costs "$TMP/here.xml" --json --tsc-hz "$MEASURED" $F/basic.profile.xml >"$TMP/given.json"
expect "tsc-hz: matches" "$(jq -r .table_machine_matches "$TMP/given.json")" true
expect "tsc-hz: here" "$(jq -r .table_machine.here.tsc_mhz "$TMP/given.json")" "$(h tsc_mhz)"
# a given rate is the one compared: half of it differs
"$SCORE" --costs "$TMP/here.xml" --json --tsc-hz "$((MEASURED / 2))" $F/basic.profile.xml >"$TMP/half.json"
expect "tsc-hz half: matches" "$(jq -r .table_machine_matches "$TMP/half.json")" false
expect "tsc-hz half: reason" "$(jq -r '.table_machine.differences[0]' "$TMP/half.json")" \
  "TSC $(h tsc_mhz) MHz in the table, $(( (MEASURED / 2 + 500000) / 1000000 )) MHz here"
echo "ok: table_machine"
