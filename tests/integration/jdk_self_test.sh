#!/usr/bin/env bash
# jdk_self_test.sh - scripts/self_test.sh on the default JDK passes with its
# verdict in JSON, and on a JDK whose javac emits other code for a fixture
# (a stand-in javac adds two bytecodes to Loops.sum's loop body) it fails,
# names the count that differs and exits 1. Usage errors and a JAVA_HOME
# without java have their own exit codes.
set -eu
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
ST=$PSF_ROOT/scripts/self_test.sh
REAL_JAVA=$(readlink -f "$(command -v "$JAVA")")
REAL_HOME=$(dirname "$(dirname "$REAL_JAVA")")

# --- the default JDK: pass ----------------------------------------------------------
out=$("$ST" --json 2>"$TEST_TMP/err") && rc=0 || rc=$?
expect_eq "default JDK: exit 0" "$rc" 0
expect_eq "default JDK: verdict pass" "$(jq -r .verdict <<<"$out")" pass
expect_eq "default JDK: its feature version" "$(jq -r .jdk.feature <<<"$out")" "$(psf_jdk_feature "$JAVA")"
expect_eq "default JDK: its home" "$(jq -r .jdk.home <<<"$out")" "$REAL_HOME"
expect_eq "default JDK: supported" "$(jq -r .jdk.supported <<<"$out")" true
expect_eq "default JDK: two suites, none failed" \
  "$(jq -c '[.suites[] | {name, failed}]' <<<"$out")" \
  '[{"name":"hand-derived counts (agent_counts.sh)","failed":0},{"name":"end to end through get_score.sh","failed":0}]'
expect_match "default JDK: the counts ran (> 100 checks)" "$(jq -r '.suites[0].passed' <<<"$out")" '^[1-9][0-9][0-9]+$'
expect_eq "default JDK: end to end passed" "$(jq -r '.suites[1].passed' <<<"$out")" 1
IFS=$'\t' read -r table table_jdk < <(psf_jdk_table "$PSF_ROOT" "$(psf_jdk_feature "$JAVA")")
expect_eq "default JDK: the table get_score.sh picks" "$(jq -r '"\(.cost_table.path) \(.cost_table.jdk_feature)"' <<<"$out")" "$table $table_jdk"

# --- a JDK whose javac compiles Loops.sum differently: fail -------------------------
# s += i becomes s += i + 0 (iconst_0 iadd: 2 more bytecodes per iteration)
FAKE=$TEST_TMP/jdk-other-javac
mkdir -p "$FAKE/bin" "$TEST_TMP/src"
ln -s "$REAL_JAVA" "$FAKE/bin/java"
cat >"$FAKE/bin/javac" <<EOF
#!/usr/bin/env bash
args=()
for a in "\$@"; do
  case \$a in
    */Loops.java) sed 's/s += i;/s += i + 0;/' "\$a" >"$TEST_TMP/src/Loops.java"; args+=("$TEST_TMP/src/Loops.java") ;;
    *) args+=("\$a") ;;
  esac
done
exec "$REAL_HOME/bin/javac" "\${args[@]}"
EOF
chmod +x "$FAKE/bin/javac"
out=$(JAVA_HOME=$FAKE "$ST" 2>"$TEST_TMP/err") && rc=0 || rc=$?
expect_eq "other javac: exit 1" "$rc" 1
expect_match "other javac: the fixture was rewritten" "$(cat "$TEST_TMP/src/Loops.java" 2>/dev/null)" 's \+= i \+ 0;'
expect_match "other javac: names the JDK" "$out" "PSF self-test of JDK [^ ]+ \(feature version [0-9]+\) at $FAKE"
expect_match "other javac: names the count that differs" "$out" "FAIL - loops: sum\(1000\) work = 9n\+9 \(got '11009', want '9009'\)"
expect_match "other javac: end to end differs too" "$out" "FAIL - get_score.sh: Loops.sum\(1000\) scores 9009 bytecodes \(exit 0, got 'ok 11009'"
expect_match "other javac: verdict" "$out" "verdict: FAIL - PSF does not count exactly on JDK"

# --- usage and a JDK that is not there ----------------------------------------------
"$ST" --fast >/dev/null 2>&1 && rc=0 || rc=$?
expect_eq "unknown argument: exit 2" "$rc" 2
JAVA_HOME=$TEST_TMP/nothing "$ST" --json >"$TEST_TMP/none.json" 2>/dev/null && rc=0 || rc=$?
expect_eq "JAVA_HOME without java: exit 3" "$rc" 3
expect_eq "JAVA_HOME without java: cannot_run, said why" "$(jq -r '"\(.verdict): \(.message)"' "$TEST_TMP/none.json")" \
  "cannot_run: JAVA_HOME=$TEST_TMP/nothing holds no bin/java"

finish
