#!/usr/bin/env bash
# shellcheck disable=SC2016 # each check is shell code, run later by eval
# calibrate_quick.sh - psf-calibrate --quick --no-isolate writes a calibrated
# table that validates against config/costs.xsd, says isolated_core="false",
# comes with a report holding the hold-out errors, and that psf-score
# accepts (a real JVM run of the agent scored with it), with the keys --keys
# named priced, and another thread's stack trace priced by its frames
# (--kernels other_stack_*); --kernels refuses a name that is no built-in kernel; a
# failed run, and one stopped by SIGTERM, SIGINT or SIGHUP, leave nothing in TMPDIR; and a
# fit that would price work at 0 gets more timing passes before a refusal.
# Exit 77 (skipped) without java/javac, xmllint or an x86 TSC.
set -eu

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${PSF_BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
command -v "$JAVA" > /dev/null || { echo "skip: no java"; exit 77; }
command -v xmllint > /dev/null || { echo "skip: no xmllint"; exit 77; }
command -v jq > /dev/null || { echo "skip: no jq"; exit 77; }
grep -qw tsc /proc/cpuinfo 2>/dev/null || { echo "skip: no time-stamp counter"; exit 77; }
for f in psf-calibrate psf-score libpsfagent.so libpsfrdtsc.so calibrate/harness/Time.class; do
  [ -e "$BUILD/$f" ] || { echo "FAIL - $BUILD/$f is missing (run make)"; exit 1; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/psf-calq.XXXXXXXX")
trap 'rm -rf "$TMP"' EXIT
PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL - $1${2:+ ($2)}"; }
check() { if eval "$2"; then pass "$1"; else fail "$1" "$3"; fi; }

# A work directory that cannot be made is named, before anything runs.
rc=0
"$BUILD/psf-calibrate" --quick --no-isolate --work "$TMP/no/such/dir" --out "$TMP/x.xml" > /dev/null 2> "$TMP/werr" || rc=$?
check "--work in a missing directory: exit 1, named" \
  '[ "$rc" = 1 ] && grep -q "cannot create the work directory $TMP/no/such/dir" "$TMP/werr"' "exit $rc: $(cat "$TMP/werr")"

# The outputs are renamed over their paths once the table is made: what a
# rename would replace that is not a regular file (a link, a directory, a
# device: /dev/null spelled otherwise), and --out and --report naming one
# file, are refused before anything runs (exit 2, no work directory made).
mkdir "$TMP/odir"
ln -s "$TMP/elsewhere.xml" "$TMP/olink.xml"
for bad in "--out $TMP/odir:is a directory" "--out $TMP/olink.xml:is a symbolic link" \
  "--out $TMP/r.xml --report /dev//null:is not a regular file" "--out $TMP/no/such/x.xml:does not exist" \
  "--report $TMP/same.xml --out $TMP/same.xml:name the same file"; do
  args=${bad%%:*}
  rc=0
  # shellcheck disable=SC2086 # the option and its path, split
  TMPDIR=$TMP/odir "$BUILD/psf-calibrate" --quick --no-isolate $args > /dev/null 2> "$TMP/oerr" || rc=$?
  check "$args: refused before the run (exit 2), named" \
    '[ "$rc" = 2 ] && grep -q "${bad#*:}" "$TMP/oerr" && [ -z "$(ls -A "$TMP/odir")" ] &&
     [ ! -e "$TMP/elsewhere.xml" ] && [ ! -e "$TMP/r.xml" ] && [ "$(stat -c %F /dev/null)" = "character special file" ]' \
    "exit $rc: $(cat "$TMP/oerr")"
done

# --kernels names built-in kernels: a name that is none is named, before
# anything runs, and no table is written.
rc=0
"$BUILD/psf-calibrate" --no-isolate --kernels str_region,no_such_kernel --work "$TMP/kw" --out "$TMP/k.xml" > /dev/null 2> "$TMP/kerr" || rc=$?
check "--kernels with an unknown name: exit 1, named, no table" \
  '[ "$rc" = 1 ] && grep -q "no built-in kernel is named .no_such_kernel." "$TMP/kerr" && ! grep -q "str_region'"'"'" "$TMP/kerr" && [ ! -e "$TMP/k.xml" ]' \
  "exit $rc: $(cat "$TMP/kerr")"

# A failed calibration leaves nothing behind: its temporary work directory
# is made under TMPDIR and removed, and the message names it and how to
# keep it. javac cannot run (JAVA_HOME names no JDK), so the run fails once
# it has written the kernels into that directory.
mkdir "$TMP/tmpdir"
rc=0
TMPDIR=$TMP/tmpdir JAVA_HOME=$TMP/no-jdk "$BUILD/psf-calibrate" --quick --no-isolate --out "$TMP/f.xml" \
  > /dev/null 2> "$TMP/ferr" || rc=$?
check "a failed calibration: exit 1, its work directory under TMPDIR named and removed, no table" \
  '[ "$rc" = 1 ] && grep -q "removed the temporary work directory $TMP/tmpdir/psf-calibrate\.[^ /]*; run with --work DIR to keep its files" "$TMP/ferr" &&
   [ -z "$(ls -A "$TMP/tmpdir")" ] && [ ! -e "$TMP/f.xml" ]' \
  "exit $rc: $(cat "$TMP/ferr"); left in TMPDIR: $(ls -A "$TMP/tmpdir")"

# A calibration stopped by SIGTERM, SIGINT or SIGHUP leaves nothing behind
# either: killed once its first counting JVMs have started (their output
# files are in its work directory), it stops them, removes that directory
# and ends by the signal (bash gives 128 + its number: 143, 130, 129). The
# signal has the default disposition (env), whatever this script inherited
# (a background job's SIGINT is ignored). The JVMs name the work directory
# on their command lines; the calibrator waits for them before it ends, so
# none may be left when it has.
for sig in TERM INT HUP; do
  SD=$TMP/tmpdir-$sig
  mkdir "$SD"
  TMPDIR=$SD env --default-signal=$sig "$BUILD/psf-calibrate" --quick --no-isolate --out "$TMP/t.xml" \
    > /dev/null 2> "$TMP/terr" &
  pid=$!
  deadline=$((SECONDS + 120))
  until compgen -G "$SD/psf-calibrate.*/count/*.out" > /dev/null; do
    if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$pid" 2> /dev/null; then break; fi
    sleep 0.1
  done
  started=$(compgen -G "$SD/psf-calibrate.*/count/*.out" | wc -l)
  kill -"$sig" "$pid" 2> /dev/null || true
  rc=0
  { wait "$pid" || rc=$?; } 2> /dev/null # (bash's "Hangup" line for the job)
  jvms=$(pgrep -f -- "$SD/" || true)
  check "a calibration stopped by SIG$sig while it counts: ended by the signal, its JVMs stopped, its work directory removed, no table" \
    '[ "$started" -gt 0 ] && [ "$rc" = $((128 + $(kill -l "$sig"))) ] && grep -q "stopped by SIG$sig" "$TMP/terr" &&
     grep -q "removed the temporary work directory $SD/psf-calibrate\.[^ /]*; run with --work DIR to keep its files" "$TMP/terr" &&
     [ -z "$jvms" ] && [ -z "$(ls -A "$SD")" ] && [ ! -e "$TMP/t.xml" ]' \
    "$started JVM(s) had started; exit $rc: $(cat "$TMP/terr"); JVMs left: ${jvms:-none}; left in TMPDIR: $(ls -A "$SD")"
  for p in $jvms; do kill "$p" 2> /dev/null || true; done # a stop that failed: its JVMs end here
done

# A call with a double argument that runs no bytecode on this JDK and that
# the JDK's shipped table does not price: StrictMath.sinh is a JNI native up
# to JDK 20 (Java code from JDK 21 on); Math.tanh (JDK 24+), Math.cbrt
# (JDK 25+) and Math.fma (a CPU with FMA) are interpreter intrinsics. The
# first of them the agent sees run no bytecode here is the key --keys
# prices below.
. "$ROOT/scripts/lib/jdk.sh"
IFS=$'\t' read -r SHIPPED _ < <(psf_jdk_table "$ROOT" "$(psf_jdk_feature "$JAVA")")
mkdir -p "$TMP/cls"
cat > "$TMP/Loops.java" <<'J'
public class Loops {
    static int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
    static double call(int which, double d) {
        switch (which) {
            case 0: return StrictMath.sinh(d);
            case 1: return Math.tanh(d);
            case 2: return Math.cbrt(d);
            default: return Math.fma(d, d, d);
        }
    }
    static double candidates(int n) { double s = 0; for (int w = 0; w < 4; w++) for (int i = 1; i <= n; i++) s += call(w, i); return s; }
    static double natives(int n, int which) { double s = 0; for (int i = 1; i <= n; i++) s += call(which, i); return s; }
    public static void main(String[] a) {
        System.out.println(sum(1000) + candidates(10) + natives(100, Integer.parseInt(a[0])));
    }
}
J
${JAVA_HOME:+$JAVA_HOME/bin/}javac -d "$TMP/cls" "$TMP/Loops.java"
run_loops() {  # METHOD OUT WHICH
  "$JAVA" -XX:-UseTLAB -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:-UseDynamicNumberOfCompilerThreads -Xshare:off \
    "-agentpath:$BUILD/libpsfagent.so=method=$1,out=$2" -cp "$TMP/cls" Loops "$3" > /dev/null
}
run_loops Loops.candidates "$TMP/c.xml" 0
KEY="" WHICH=""
w=0
for m in java.lang.StrictMath.sinh'(D)D' java.lang.Math.tanh'(D)D' java.lang.Math.cbrt'(D)D' java.lang.Math.fma'(DDD)D'; do
  if [ "$(xmllint --xpath "count(//invoke[@method='$m'][@native='true'])" "$TMP/c.xml")" != 0 ] &&
     [ -z "$(xmllint --xpath "string(/costs/invoke[@method='$m']/@cost)" "$SHIPPED")" ]; then
    KEY=$m WHICH=$w
    break
  fi
  w=$((w + 1))
done
if [ -z "$KEY" ]; then
  fail "an unpriced native call with a double argument on this JDK" \
    "none of sinh, tanh, cbrt, fma runs without bytecode here or $SHIPPED prices them all: add one that does"
  echo "$PASSED passed, $FAILED failed"
  exit 1
fi
echo "# the native call --keys prices on this JDK: $KEY (unpriced in ${SHIPPED##*/})"
KEY_CALL=${KEY%%(*}

# --keys as psf-score --json lists missing keys (JSON quotes and commas): a
# native with a double argument (two kernels, from an array and from the
# loop counter) and an array type.
printf '  "invoke:%s",\n  "array:java.lang.StringBuilder"\n' "$KEY" > "$TMP/keys"
start=$SECONDS
if "$BUILD/psf-calibrate" --quick --no-isolate --keys "$TMP/keys" --kernels other_stack_40,other_stack_400 \
    --out "$TMP/costs.xml" --work "$TMP/work" \
    > "$TMP/out" 2> "$TMP/err"; then
  pass "psf-calibrate --quick exits 0"
else
  fail "psf-calibrate --quick exits 0" "$(tail -n 5 "$TMP/err")"
  echo "$PASSED passed, $FAILED failed"
  exit 1
fi
# its duration is information, not an assertion (a shared machine)
echo "# quick calibration took $((SECONDS - start)) s"
check "table validates against config/costs.xsd" \
  'xmllint --noout --schema "$ROOT/config/costs.xsd" "$TMP/costs.xml" 2> "$TMP/xsd"' "$(cat "$TMP/xsd" 2>/dev/null)"
x() { xmllint --xpath "string($1)" "$TMP/costs.xml" 2>/dev/null; }
check "calibrated=true" '[ "$(x /costs/@calibrated)" = true ]' "$(x /costs/@calibrated)"
check "unit=cycles" '[ "$(x /costs/@unit)" = cycles ]' "$(x /costs/@unit)"
check "isolated_core=false" '[ "$(x /costs/@isolated_core)" = false ]' "$(x /costs/@isolated_core)"
check "tsc_hz measured (> 100 MHz)" '[ "$(x /costs/@tsc_hz)" -gt 100000000 ]' "$(x /costs/@tsc_hz)"
cpuinfo() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -n 1; }
check "cpu_vendor from /proc/cpuinfo" '[ "$(x /costs/@cpu_vendor)" = "$(cpuinfo vendor_id)" ]' "$(x /costs/@cpu_vendor)"
check "cpu_family from /proc/cpuinfo" '[ "$(x /costs/@cpu_family)" = "$(cpuinfo "cpu family")" ]' "$(x /costs/@cpu_family)"
check "cpu_model_number from /proc/cpuinfo" '[ "$(x /costs/@cpu_model_number)" = "$(cpuinfo model)" ]' "$(x /costs/@cpu_model_number)"
check "cpu_stepping from /proc/cpuinfo" '[ "$(x /costs/@cpu_stepping)" = "$(cpuinfo stepping)" ]' "$(x /costs/@cpu_stepping)"
check "every opcode priced (202)" '[ "$(x "count(/costs/opcode)")" = 202 ]' "$(x "count(/costs/opcode)")"
check "array int priced" '[ -n "$(x "/costs/array[@elem=\"int\"]/@cost")" ]' "missing"
check "report beside the table" '[ -s "$TMP/costs-report.txt" ]' "no $TMP/costs-report.txt"
check "report has the hold-out errors" 'grep -q "^hold-out  *median relative error" "$TMP/costs-report.txt"' "no hold-out line"
check "report has the run-to-run timing spread" 'grep -q "^timing spread  *per kernel" "$TMP/costs-report.txt"' "no timing spread line"
check "report says not isolated" 'grep -q "^isolation  *not isolated" "$TMP/costs-report.txt"' "no isolation line"
# The report's contents, not only its lines: what it says of the table and
# this machine agrees with the table and /proc/cpuinfo, and the figures are
# in ranges a working fit gives here and a broken one does not. Seen on this
# shared 2-core machine (quick, not isolated): R^2 0.834, hold-out median
# 10.5% (worst 14.6%), fitted median 5.3%; a fit whose prices all came out
# equal (every price set to their mean after the solve) gave R^2 0 and a
# hold-out median of 1582%. Bounds: R^2 >= 0.5, hold-out median <= 50%,
# each median <= its worst.
R=$TMP/costs-report.txt
rline() { sed -n "s/^$1  *//p" "$R" | head -n 1; }
check "report: the table it describes" '[ "$(rline table)" = "$TMP/costs.xml" ]' "$(rline table)"
check "report: the isolation the table records (not isolated: --no-isolate)" \
  '[ "$(rline isolation)" = "not isolated: --no-isolate" ] && [ "$(x /costs/@isolated_core)" = false ]' "$(rline isolation)"
check "report: this CPU, as the table names it" \
  '[ "$(rline cpu)" = "$(cpuinfo "model name") (vendor $(cpuinfo vendor_id), family $(cpuinfo "cpu family"), model $(cpuinfo model), stepping $(cpuinfo stepping))" ]' \
  "$(rline cpu)"
check "report: the table's tsc_hz" '[ "$(rline tsc | cut -d" " -f1-2)" = "$(x /costs/@tsc_hz) Hz" ]' "$(rline tsc) / $(x /costs/@tsc_hz)"
want_jdk=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
check "report: the JDK that timed ($want_jdk)" '[ "$(rline jdk)" = "$want_jdk" ]' "$(rline jdk)"
# mode: --kernels (the quick set and the two named), T kernels (F fitted,
# H held out): T = F + H, H >= 1
check "report: quick set with --kernels, kernels fitted + held out = all" \
  'rline mode | awk "{ gsub(/[(,)]/, \" \"); exit !(\$1 == \"--kernels\" && \$2 == \$4 + \$6 && \$6 >= 1 && \$4 >= 10) }"' "$(rline mode)"
pct() { rline "$1" | sed -n "s/.*$2 \([0-9.]*\)%, worst \([0-9.]*\)%.*/\1 \2/p"; }
check "report: fit R^2 in [0.5, 1] (0.834 seen here)" \
  'rline fit | awk "{ exit !(\$1 == \"R^2\" && \$2 + 0 >= 0.5 && \$2 + 0 <= 1) }"' "$(rline fit)"
check "report: fitted kernels' median error <= worst" \
  'pct fit "median relative error" | awk "NF == 2 { ok = \$1 <= \$2 } END { exit !ok }"' "$(rline fit)"
check "report: hold-out median error <= 50% (10.5% seen here), <= worst" \
  'pct hold-out "median relative error" | awk "NF == 2 { ok = \$1 <= 50 && \$1 <= \$2 } END { exit !ok }"' "$(rline hold-out)"
check "report: timing spread of 2 or more passes, median <= worst" \
  'rline "timing spread" | awk "{ for (i = 1; i <= NF; i++) if (\$i == \"of\") p = \$(i + 1) } END { exit !(p >= 2) }" &&
   pct "timing spread" "median" | awk "NF == 2 { ok = \$1 <= \$2 } END { exit !ok }"' "$(rline "timing spread")"
# every held-out kernel's row: measured and predicted cycles above 0
check "report: held-out kernels measured and predicted" \
  'awk "/^Held-out kernels/ { on = 1; next } on && /^  h_/ { n++; if (!(\$4 > 0 && \$5 > 0)) bad = 1 } on && /^Fitted/ { on = 0 } END { exit !(n >= 1 && !bad) }" "$R"' \
  "$(sed -n "/^Held-out kernels/,/^Fitted/p" "$R")"
check "warning about isolation on stderr" 'grep -q "without core isolation" "$TMP/err"' "no warning"
check "--keys: the native priced" \
  '[ -n "$(x "/costs/invoke[@method=\"$KEY\"]/@cost")" ]' "missing"
check "--keys: the array type priced" '[ -n "$(x "/costs/array[@elem=\"java.lang.StringBuilder\"]/@cost")" ]' "missing"
check "--keys: both argument sources timed" \
  'grep -qF "d = v[i & 1023]; $KEY_CALL(d" "$TMP/work/Kernels.java" && grep -qF "d = (i & 1023) * 0.01 + 0.005; $KEY_CALL(d" "$TMP/work/Kernels.java"' \
  "$(grep -nF "$KEY_CALL" "$TMP/work/Kernels.java")"

# --kernels other_stack_40,other_stack_400: another thread's stack trace,
# from threads parked 40 and 400 calls deep before the measured call. The
# native behind it on this JDK (dumpThreads on 17, getStackTrace0 later) is
# in the kernel's profile with its frames, and the table prices the frames.
ST=$(sed -n 's/.*<invoke method="\(java\.lang\.Thread\.\(dumpThreads\|getStackTrace0\)([^"]*\)" count="[0-9]*" native="true" elements="[1-9][0-9]*".*/\1/p' \
       "$TMP"/work/count/other_stack_400.*.xml 2>/dev/null | head -n 1)
check "other_stack_400: another thread's stack trace counted with its frames" '[ -n "$ST" ]' \
  "$(grep -h 'Thread\.' "$TMP"/work/count/other_stack_400.*.xml 2>&1 | head -n 3)"
check "other_stack_*: $ST priced per frame" \
  'awk -v p="$(x "/costs/invoke[@method=\"$ST\"]/@cost_per_element")" "BEGIN { exit !(p > 0) }"' \
  "$(grep -F "${ST:-Thread.}" "$TMP/costs.xml" || echo not in the table)"

# psf-score accepts the table, on a real profile
run_loops Loops.sum "$TMP/p.xml" "$WHICH"
rc=0
"$BUILD/psf-score" --costs "$TMP/costs.xml" --score-only "$TMP/p.xml" > "$TMP/score" 2> "$TMP/score.err" || rc=$?
check "psf-score accepts the table (exit 0)" '[ "$rc" = 0 ]' "exit $rc: $(cat "$TMP/score.err")"
check "score is a positive integer, not approximate" 'grep -Eq "^[1-9][0-9]*$" "$TMP/score"' "$(cat "$TMP/score")"
# The key calibrated by --keys: a method calling the native scores exact,
# where the table without it lists the key missing.
run_loops Loops.natives "$TMP/r.xml" "$WHICH"
"$BUILD/psf-score" --costs "$TMP/costs.xml" --json "$TMP/r.xml" > "$TMP/r.json" 2> "$TMP/score.err" || true
check "--keys: a profile calling the native is scored exact" \
  '[ "$(jq -c "[.approximate, .missing]" "$TMP/r.json")" = "[false,[]]" ]' "$(cat "$TMP/r.json" "$TMP/score.err")"
"$BUILD/psf-score" --costs "$SHIPPED" --json "$TMP/r.xml" > "$TMP/r0.json" 2> /dev/null || true
check "--keys: the shipped table lists it missing" \
  '[ "$(jq -c .missing "$TMP/r0.json")" = "[\"invoke:$KEY\"]" ]' "$(jq -c .missing "$TMP/r0.json")"

# The table belongs to this machine and this JDK: a score says so; the same
# table claiming another CPU family says the time is approximate.
"$BUILD/psf-score" --costs "$TMP/costs.xml" --json "$TMP/p.xml" > "$TMP/m.json" 2> /dev/null || true
check "this machine's table: table_machine_matches true" \
  '[ "$(jq -c "[.table_machine_matches, .table_machine.differences]" "$TMP/m.json")" = "[true,[]]" ]' \
  "$(jq -c .table_machine "$TMP/m.json")"
fam=$(x /costs/@cpu_family)
sed "s/cpu_family=\"$fam\"/cpu_family=\"$((fam + 1))\"/" "$TMP/costs.xml" > "$TMP/other.xml"
"$BUILD/psf-score" --costs "$TMP/other.xml" --json "$TMP/p.xml" > "$TMP/o.json" 2> /dev/null || true
check "another family: table_machine_matches false, with the reason" \
  '[ "$(jq -c "[.table_machine_matches, .table_machine.differences]" "$TMP/o.json")" = "[false,[\"cpu family $((fam + 1)) in the table, $fam here\"]]" ]' \
  "$(jq -c .table_machine "$TMP/o.json")"
"$BUILD/psf-score" --costs "$TMP/other.xml" "$TMP/p.xml" > "$TMP/o.txt" 2> /dev/null || true
check "another family: the summary says so and how to calibrate" \
  'grep -q "approximate time: the table was calibrated on another machine (cpu family" "$TMP/o.txt" && grep -q "calibrate this machine: scripts/calibrate_machine.sh" "$TMP/o.txt"' \
  "$(cat "$TMP/o.txt")"

# A fit that would price work at 0 first gets more timing passes, and the
# table is refused only when they do not help. Replayed with --refit from
# this run's own timings: "best" holds each kernel's lowest figure over the
# run's passes (the data its table was fitted on). Passes 1 and 2 are best
# with the kernels --keys made for StringBuilder[] of 1 and 16 elements
# timed at 1.5 times the one of 256 (only these three allocate that type),
# so the elements come out free; pass 3 is best itself, whose lower figures
# the lowest-over-passes figure takes, so the fit after it is the run's
# own. With pass 3 kept, the refit adds it and writes the
# table; without it, the table is refused.
mkdir -p "$TMP/refit"
cp -r "$TMP/work/." "$TMP/refit/"
rm -f "$TMP"/refit/time.*.out
awk '$1 == "K" { c = ($6 - $5) / ($4 - $3); if (!($2 in best) || c < cyc[$2]) { best[$2] = $0; cyc[$2] = c } }
     FNR == NR { line[++n] = $0; name[n] = $1 == "K" ? $2 : "" }
     END { for (i = 1; i <= n; i++) print name[i] != "" ? best[name[i]] : line[i] }' \
  "$TMP"/work/time.*.out > "$TMP/refit/time.3.out"
SB=x_java_lang_StringBuilder
awk -v sb=$SB '$1 == "K" && $2 == sb "_256" { c = ($6 - $5) / ($4 - $3) }
     { line[NR] = $0 }
     END { for (i = 1; i <= NR; i++) { split(line[i], f, " ")
             if (f[1] == "K" && (f[2] == sb "_1" || f[2] == sb "_16"))
               line[i] = sprintf("K %s %d %d %d %.0f %d", f[2], f[3], f[4], f[5], f[5] + 1.5 * c * (f[4] - f[3]), f[7])
             print line[i] } }' "$TMP/refit/time.3.out" > "$TMP/refit/time.1.out"
cp "$TMP/refit/time.1.out" "$TMP/refit/time.2.out"
refit() {  # OUT [ARGS...]: --refit --passes 2 of $TMP/refit, with the run's --keys and --kernels
  local out=$1
  shift
  "$BUILD/psf-calibrate" --quick --no-isolate --keys "$TMP/keys" --kernels other_stack_40,other_stack_400 \
    --refit "$TMP/refit" --passes 2 --out "$TMP/$out.xml" "$@" \
    > /dev/null 2> "$TMP/$out.err"
}
# What the run's own table left out (a price this machine's timing leaves
# at 0 after the added passes: JDK 25's Math.sqrt intrinsic, of a few
# cycles, often is): the refits end with the run's timings and leave it
# out too, before StringBuilder[] (the --keys entries come last, the
# array after the native). While passes can be added, the first price at
# 0 is the one the note names: StringBuilder[]'s only when nothing else
# was.
BASE=$(sed -n 's/^left out  *\([0-9][0-9]*\) entr.*/\1/p' "$TMP/costs-report.txt")
BASE=${BASE:-0}
echo "# the run's own table left out $BASE entries: $(grep -o "left out of the table: .*" "$TMP/err" | head -n 3 | tr '\n' ' ')"
rc=0
refit refit3 || rc=$?
check "a fit pricing StringBuilder[]'s elements at 0: one pass more, then the table (exit 0)" \
  '[ "$rc" = 0 ] && grep -q "timing every kernel once more before refusing" "$TMP/refit3.err" &&
   { [ "$BASE" != 0 ] || grep -q "kernel ${SB}_256 .*does not grow with the elements of .*StringBuilder.*timing every kernel once more before refusing" "$TMP/refit3.err"; } &&
   grep -q "^timing passes  3 (1 added: the fit of the first 2 priced some work at 0)" "$TMP/refit3-report.txt" &&
   [ -s "$TMP/refit3.xml" ]' "exit $rc: $(grep -v "^\[" "$TMP/refit3.err" | tail -n 3)"
prices() { grep -v -e 'tsc_hz=' -e 'report' -e 'date=' "$1"; }
check "... and its prices are the run's own table's (the same timings in the end)" \
  'diff <(prices "$TMP/costs.xml") <(prices "$TMP/refit3.xml") > "$TMP/refit.diff"' "differ: see the diff below"
[ -s "$TMP/refit.diff" ] && head -n 6 "$TMP/refit.diff"
rm "$TMP/refit/time.3.out"
# /dev/null discards an output: the table is still made and validated
# (in the work directory, then removed), and the device stays a device.
rc=0
refit devnull --report /dev/null || rc=$?
check "--report /dev/null: the table written, no report, /dev/null still a device" \
  '[ "$rc" = 0 ] && [ -s "$TMP/devnull.xml" ] && [ ! -e "$TMP/devnull-report.txt" ] &&
   grep -q "the fit and its hold-out errors are in the calibration report" "$TMP/devnull.xml" &&
   [ "$(stat -c %F /dev/null)" = "character special file" ] && ! compgen -G "/dev/null.tmp.*" > /dev/null' \
  "exit $rc: $(grep -v "^\[" "$TMP/devnull.err" | tail -n 3)"
rc=0
"$BUILD/psf-calibrate" --quick --no-isolate --keys "$TMP/keys" --kernels other_stack_40,other_stack_400 \
  --refit "$TMP/refit" --passes 2 --out /dev/null --report "$TMP/devnull2-report.txt" > /dev/null 2> "$TMP/devnull2.err" || rc=$?
check "--out /dev/null: the report written, no table left, /dev/null still a device" \
  '[ "$rc" = 0 ] && [ -s "$TMP/devnull2-report.txt" ] && ! compgen -G "$TMP/refit/table.tmp.*" > /dev/null &&
   [ "$(stat -c %F /dev/null)" = "character special file" ] && ! compgen -G "/dev/null.tmp.*" > /dev/null' \
  "exit $rc: $(grep -v "^\[" "$TMP/devnull2.err" | tail -n 3)"
# Without a pass to add, StringBuilder[] is left out of the table when
# --max-left-out leaves room for it beside what the run's own table left
# out: the table is written without its entry (the scorer prices
# StringBuilder[] as array:reference then, like every reference type a
# table does not list), the warning and the report name it. Without that
# room the table is refused, naming it.
rc=0
refit refit2 --max-left-out $((BASE + 1)) || rc=$?
check "the same without a pass to add: StringBuilder[] left out, the table written (exit 0)" \
  '[ "$rc" = 0 ] && grep -q "^psf-calibrate: warning: array java.lang.StringBuilder (kernels ${SB}_1, ${SB}_16, ${SB}_256): their time does not grow with its elements after 2 timing passes; left out of the table: the scorer prices it as array:reference" "$TMP/refit2.err" &&
   xmllint --noout --schema "$ROOT/config/costs.xsd" "$TMP/refit2.xml" 2> /dev/null &&
   ! grep -q "<array elem=\"java.lang.StringBuilder\"" "$TMP/refit2.xml" && grep -q "<array elem=\"int\"" "$TMP/refit2.xml" &&
   grep -q "^  <!-- left out: array:java.lang.StringBuilder, its kernels showed no work for it" "$TMP/refit2.xml"' \
  "exit $rc: $(grep -v "^\[" "$TMP/refit2.err" | tail -n 3)"
check "... the report names it left out" \
  'grep -q "^left out       $((BASE + 1)) entr\(y\|ies\) without a price after the added passes" "$TMP/refit2-report.txt" &&
   grep -q "^  java.lang.StringBuilder .*\[left out of the table: its kernels. time does not grow with its elements\]" "$TMP/refit2-report.txt"' \
  "$(grep -n "left out" "$TMP/refit2-report.txt")"
# The report's paragraph on what is left out says what the scorer does
# with it: a native's or a primitive array's key is missing (the score
# approximate), an array of references is priced as array:reference (as
# the warning above says), so such a score is not approximate.
para() { sed -n '/^  No work is priced at 0/,/^  System\.arraycopy/p' "$1" | sed '$d' | tr -s ' \n' '  '; }
check "... and its paragraph: natives and primitive arrays approximate, arrays of references priced as array:reference" \
  'para "$TMP/refit2-report.txt" | grep -qF "A score that calls such a native or allocates such a primitive array is approximate (~) and names its key missing; an array of references left out is priced as array:reference (unless reference itself is left out)."' \
  "$(para "$TMP/refit2-report.txt")"
rc=0
refit refit0 --max-left-out "$BASE" || rc=$?
check "the same with --max-left-out $BASE: refused (exit 1), no table" \
  '[ "$rc" = 1 ] && grep -q "error: kernel ${SB}_256 .*so the table would price that work at 0; no table written" "$TMP/refit0.err" &&
   [ ! -e "$TMP/refit0.xml" ]' "exit $rc: $(grep -v "^\[" "$TMP/refit0.err" | tail -n 3)"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
