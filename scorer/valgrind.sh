#!/bin/sh
# valgrind.sh - run psf-score under valgrind on good and bad inputs.
#
# Every run must be free of memory errors and leaks (valgrind exits 99 if
# not) and still end with the exit code psf-score gives without valgrind.
# Used by `make valgrind` (scorer/scorer.mk); PSF_SCORE names the binary.
set -eu
SCORE=${PSF_SCORE:-build/psf-score}
F=tests/fixtures/scorer
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind not installed (scripts/install_deps.sh installs it)"
    exit 77
fi
failed=0
# expect: the exit code; then the arguments
run() {
    expect=$1
    shift
    rc=0
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
        "$SCORE" "$@" >/dev/null 2>"${TMPDIR:-/tmp}/psf-valgrind.$$" || rc=$?
    if [ "$rc" -ne "$expect" ]; then
        echo "FAIL (exit $rc, want $expect): psf-score $*"
        cat "${TMPDIR:-/tmp}/psf-valgrind.$$"
        failed=1
    else
        echo "ok   (exit $rc): psf-score $*"
    fi
    rm -f "${TMPDIR:-/tmp}/psf-valgrind.$$"
}
run 0 "$F/basic.profile.xml"
run 0 --costs "$F/known.costs.xml" --explain --top 0 "$F/basic.profile.xml"
run 0 --costs "$F/known.costs.xml" --json --explain --with-overhead "$F/basic.profile.xml"
run 0 --costs config/costs.xml --score-only "$F/basic.profile.xml"
run 0 --rank --costs "$F/known.costs.xml" --format json "a=$F/basic.profile.xml" "b=$F/basic.profile.xml"
run 7 --rank --format csv "a=$F/basic.profile.xml" "b=$F/missing.xml" "c=$F/not_invoked.profile.xml"
VG_OUT=$(mktemp -d)
run 0 --rank --costs "$F/known.costs.xml" --format html --report-links r/ "a=$F/basic.profile.xml" \
    "c=$F/not_invoked.profile.xml" --failed "d=timeout:too long"
run 0 --costs "$F/known.costs.xml" --report "$VG_OUT/r.html" --compare "$F/basic.profile.xml" \
    --junit "$VG_OUT/j.xml" --max-ratio 1.5 "$F/basic.profile.xml"
run 5 --report "$VG_OUT/r.html" --junit "$VG_OUT/j.xml" "$F/not_invoked.profile.xml"
run 0 --report "$VG_OUT/r.html" --compare "$F/basic.profile.xml" "$F/contexts.profile.xml"
run 14 --status-json timeout "too long" --report "$VG_OUT/r.html" --junit "$VG_OUT/j.xml" --method A.b
rm -rf "$VG_OUT"
run 5 --json "$F/not_invoked.profile.xml"
run 4 --json "$F/ambiguous.profile.xml"
run 7 --json "$F/version2.profile.xml"
run 7 "$F/truncated.profile.xml"
run 7 --costs "$F/truncated.costs.xml" "$F/basic.profile.xml"
run 7 --costs "$F/negative.costs.xml" --json "$F/basic.profile.xml"
run 7 "$F/no-such-profile.xml"
run 2 --json --bogus
run 8 --status-json program_failed "exit 1"
# signing and checking (scorer/sign.c)
K=$(mktemp -d "${TMPDIR:-/tmp}/psf-valgrind-key.XXXXXXXX")
run 0 --init-key --key-file "$K/key"
"$SCORE" --sign --key-file "$K/key" --submission "classpath_sha256=ab" "$F/basic.profile.xml" >"$K/signed.xml"
"$SCORE" --json --key-file "$K/key" "$K/signed.xml" >"$K/result.json"
run 0 --sign --key-file "$K/key" --submission "classpath_sha256=ab" "$F/basic.profile.xml"
run 0 --json --key-file "$K/key" "$K/signed.xml"
run 26 --json --key-file "$K/key" "$F/basic.profile.xml"
run 26 --verify --key-file "$K/key" "$K/signed.xml" "$K/result.json" "$F/basic.profile.xml"
run 26 --rank --key-file "$K/key" --format json "a=$K/signed.xml" "b=$K/signed.xml" "c=$F/basic.profile.xml"
run 8 --status-json program_failed "exit 1" --key-file "$K/key" --submission "classpath_sha256=ab"
# one process signs and scores (--signed-copy), also a profile it refuses to sign
run 0 --json --key-file "$K/key" --submission "classpath_sha256=ab" --signed-copy "$K/copy.xml" "$F/basic.profile.xml"
run 7 --json --key-file "$K/key" --submission "classpath_sha256=ab" --signed-copy "$K/copy2.xml" "$K/signed.xml"
run 7 --json --key-file "$K/key" --submission "classpath_sha256=ab" --signed-copy "$K/copy3.xml" "$F/truncated.profile.xml"
run 5 --json --key-file "$K/key" --submission "classpath_sha256=ab" --signed-copy "$K/copy4.xml" "$F/not_invoked.profile.xml"
# the submission's digests (scorer/submission.c): a jar, directories with files
# and links, one that is missing
ln -s basic.profile.xml "$K/link"
run 0 --submission-digests --classpath "$F/basic.profile.xml:tests/fixtures:$K:$K/missing" --main M --method M.m \
    --jdk /usr/bin/java -- a "" b
# the output judged (scorer/outcmp.c): equal, different, ignoring trailing
# space; a profile signed with a wrong output's verdict, scored and ranked
printf 'n=3\nSORTED\n' >"$K/want"
printf 'n=3 \nNOT SORTED' >"$K/got"
run 0 --compare-output "$K/want" "$K/want"
run 32 --compare-output "$K/want" "$K/got"
run 32 --compare-output --ignore-trailing-space "$K/want" "$K/got"
run 7 --compare-output "$K/want" "$K/missing"
"$SCORE" --sign --key-file "$K/key" --submission "classpath_sha256=ab judged_by=check output_verdict=wrong_output" \
    "$F/basic.profile.xml" >"$K/verdict.xml"
run 32 --json --key-file "$K/key" "$K/verdict.xml"
run 34 --rank --require-checked --key-file "$K/key" "a=$K/verdict.xml" "b=$K/signed.xml"
# several requests of one process (--batch, scorer/batch.c), each in a child
# under valgrind too: a child with a memory error or a leak answers with
# valgrind's exit code, 99, so the answers' exit codes are checked as well
run 0 --batch 3 merge --init-key --key-file "$K/key" 3 merge --check-table --costs "$F/truncated.costs.xml" \
    1 drop --measure-tsc 9 pass --submission-digests --classpath "$F/basic.profile.xml" --main M --method M.m \
    --jdk /usr/bin/java
run 2 --batch 2 keep --init-key
codes=$(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    "$SCORE" --batch 3 merge --init-key --key-file "$K/key" 3 merge --check-table --costs "$F/truncated.costs.xml" \
    1 drop --measure-tsc 9 pass --submission-digests --classpath "$F/basic.profile.xml" --main M --method M.m \
    --jdk /usr/bin/java 2>/dev/null | tr '\0' '\n' | awk 'prev == "" { printf "%s ", $0 } { prev = $0 }')
if [ "$codes" = "0 7 0 0 " ]; then
    echo "ok   (answers exit $codes): psf-score --batch"
else
    echo "FAIL (answers exit $codes, want 0 7 0 0): psf-score --batch"
    failed=1
fi
rm -rf "$K"
exit $failed
