#!/bin/sh
# scorer_bad_input.sh - every bad input is refused with a message naming the
# file (and line), a distinct exit code, and no score; profile statuses map
# to their exit codes.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
command -v jq >/dev/null 2>&1 || { echo "jq not installed"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# run CODE STDERR-PATTERN ARGS...: exit code and message; text mode prints
# nothing on stdout.
run() {
    code=$1 pattern=$2
    shift 2
    rc=0
    "$SCORE" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -eq "$code" ] || fail "psf-score $*: exit $rc, want $code ($(cat "$TMP/err"))"
    grep -q -- "$pattern" "$TMP/err" || fail "psf-score $*: stderr '$(cat "$TMP/err")' lacks '$pattern'"
    [ ! -s "$TMP/out" ] || fail "psf-score $*: printed '$(cat "$TMP/out")'"
}

# run_json CODE STATUS ARGS...: one JSON object with that status and score null.
run_json() {
    code=$1 status=$2
    shift 2
    rc=0
    "$SCORE" --json "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -eq "$code" ] || fail "psf-score --json $*: exit $rc, want $code"
    [ "$(jq -r .status "$TMP/out")" = "$status" ] || fail "psf-score --json $*: status $(jq -r .status "$TMP/out")"
    [ "$(jq -r .score "$TMP/out")" = null ] || fail "psf-score --json $*: a score"
    [ "$(jq -s length "$TMP/out")" = 1 ] || fail "psf-score --json $*: not exactly one object"
    [ -n "$(jq -r .message "$TMP/out")" ] || fail "psf-score --json $*: no message"
}

P=$F/basic.profile.xml
# cost tables
run 7 "truncated.costs.xml:15: malformed XML" --costs $F/truncated.costs.xml $P
run 7 "negative.costs.xml:12: <opcode name=\"lreturn\">: cost=\"-3\" is negative" --costs $F/negative.costs.xml $P
run 7 "no-such.xml: cannot open: No such file" --costs $F/no-such.xml $P
run 7 "basic.profile.xml:4: not a cost table" --costs $P $P
run 7 "unit is \"cycles\", not \"bytecodes\"" --costs $F/known.costs.xml --unit bytecodes $P
run 7 "unit is \"bytecodes\", not \"cycles\"" --unit cycles $P
run 7 "sha256 is .*, not 0000" --costs $F/known.costs.xml --costs-sha256 "$(printf '0%.0s' $(seq 64))" $P
run_json 7 bad_input --costs $F/truncated.costs.xml $P
sum=$(sha256sum $F/known.costs.xml | cut -d' ' -f1)
[ "$("$SCORE" --costs $F/known.costs.xml --costs-sha256 "$sum" --score-only $P)" = 436 ] || fail "right sha256 refused"
[ "$("$SCORE" --costs $F/known.costs.xml --unit cycles --score-only $P)" = 436 ] || fail "right unit refused"

# profiles
run 7 "truncated.profile.xml:31: malformed XML" $F/truncated.profile.xml
run 7 "version8.profile.xml:4: profile format version \"8\"; this scorer reads versions 7, 6 and 5 only" $F/version8.profile.xml
run 7 "schema_invalid.profile.xml:9: does not match the schema: .*'end' is required" $F/schema_invalid.profile.xml
run 7 "inconsistent.profile.xml:7: inconsistent profile" $F/inconsistent.profile.xml
run 7 "no-such.profile.xml: cannot open" $F/no-such.profile.xml
run 7 "known.costs.xml:6: not a PSF profile" $F/known.costs.xml
# a JSON result (get_score.sh --json's) given where a profile belongs: said so
printf ' {"status":"ok","score":99}\n' >"$TMP/result.json"
run 7 "result.json: JSON, not XML (it begins with '{')" "$TMP/result.json"
run 7 "result.json: JSON, not XML" --costs "$TMP/result.json" $P
run 7 "tests/fixtures/scorer: not a regular file (a directory)" $F
# a device or FIFO is refused before a byte is read (never waited on)
run 7 "/dev/zero: not a regular file (a device)" /dev/zero
FIFO=$TMP/fifo
mkfifo "$FIFO"
run 7 "not a regular file (a FIFO)" "$FIFO"
run 7 "not a regular file (a FIFO)" --costs "$FIFO" $F/basic.profile.xml
run_json 7 bad_input $F/version8.profile.xml
run_json 7 bad_input $F/no-such.profile.xml

# profile statuses: exit code, and the status word in JSON
run 3 "class_not_loaded: class demo.Sum was never loaded" $F/class_not_loaded.profile.xml
run 4 "method_not_found" $F/method_not_found.profile.xml
run 4 "candidate: demo.Sum.run()J" $F/ambiguous.profile.xml
run 5 "not_invoked: demo.Sum.run(\[I)J was never invoked" $F/not_invoked.profile.xml
run 6 "incomplete" $F/incomplete.profile.xml
run 70 "agent_error: GetMethodName failed" $F/agent_error.profile.xml
run 5 "not_invoked" --score-only $F/not_invoked.profile.xml
run_json 3 class_not_loaded $F/class_not_loaded.profile.xml
run_json 4 method_not_found $F/method_not_found.profile.xml
run_json 4 ambiguous_method $F/ambiguous.profile.xml
[ "$(jq -c .candidates "$TMP/out")" = '["demo.Sum.run()J","demo.Sum.run([I)J"]' ] || fail "candidates"
run_json 5 not_invoked $F/not_invoked.profile.xml
run_json 6 incomplete $F/incomplete.profile.xml
[ "$(jq -r .bytecodes "$TMP/out")" = 3 ] || fail "incomplete: counts so far"
run_json 70 agent_error $F/agent_error.profile.xml

# usage
run 2 "unknown option --bogus" --bogus $P
run 2 "no PROFILE given"
run 2 "give one PROFILE" $P $P
run_json 2 usage --explain --score-only $P

# --status-json: one JSON writer for the scripts
for pair in usage:2 class_not_found:3 class_not_loaded:3 method_not_found:4 not_invoked:5 \
            incomplete:6 bad_input:7 program_failed:8 internal_error:70 agent_error:70 timeout:14 \
            no_such_word:70; do
    word=${pair%:*} code=${pair#*:}
    rc=0
    "$SCORE" --status-json "$word" "said \"$word\"
on two lines" >"$TMP/out" || rc=$?
    [ "$rc" -eq "$code" ] || fail "--status-json $word: exit $rc, want $code"
    [ "$(jq -c . "$TMP/out")" = "{\"message\":\"said \\\"$word\\\"\\non two lines\",\"score\":null,\"status\":\"$word\"}" ] ||
        fail "--status-json $word: $(cat "$TMP/out")"
done
rc=0
"$SCORE" --status-json ok "fine" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--status-json ok should be a usage error"
# a failure that cannot be signed is still one JSON object, saying why
rc=0
PSF_KEY_FILE='' "$SCORE" --status-json timeout "too long" --key-file "$TMP/no-such-dir/key" \
    --submission classpath_sha256=ab >"$TMP/out" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--status-json with a missing key file: exit $rc, want 2"
[ "$(jq -r .status "$TMP/out")" = usage ] || fail "--status-json with a missing key file: $(cat "$TMP/out")"
jq -r .message "$TMP/out" | grep -q "no-such-dir/key" || fail "--status-json with a missing key file: $(cat "$TMP/out")"
rc=0
PSF_KEY_FILE='' "$SCORE" --status-json timeout "too long" --submission classpath_sha256=ab >"$TMP/out" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] && [ "$(jq -r .status "$TMP/out")" = usage ] ||
    fail "--status-json --submission without a key: exit $rc, $(cat "$TMP/out")"
echo "ok"
