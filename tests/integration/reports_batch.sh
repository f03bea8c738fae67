#!/usr/bin/env bash
# reports_batch.sh - scripts/score_batch.sh on the bundled batch
# (examples/batch: ten submissions of one exercise, packages and jars among
# them), once on this machine and once through an ssh login to 127.0.0.1
# (a private sshd on a loopback port, throwaway host and user keys): both
# give the same files, byte for byte; every submission has its profile,
# result and JUnit case; the leaderboard lists them in score order, the
# failure with its status; each result equals get_score.sh run alone.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
BATCH=$PSF_BUILD/examples/batch
[ -f "$BATCH/manifest.tsv" ] || { echo "the batch example is not built (make examples)"; exit 77; }
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel not installed"; exit 77; }

SSHD_PID=""
cleanup() {
  if [ -n "$SSHD_PID" ]; then kill "$SSHD_PID" 2>/dev/null || true; wait "$SSHD_PID" 2>/dev/null || true; fi
  [ -z "${MADE_PRIVSEP:-}" ] || rmdir /run/sshd 2>/dev/null || true
  rm -rf "$TEST_TMP"
}
trap cleanup EXIT

LOCAL=$TEST_TMP/local
"$PSF_ROOT/scripts/score_batch.sh" --out "$LOCAL" -j 2 "$BATCH/manifest.tsv" >"$TEST_TMP/local.txt" 2>"$TEST_TMP/local.err" || fail "local batch" "$(tail -3 "$TEST_TMP/local.err")"

mapfile -t labels < <(grep -v '^#' "$BATCH/manifest.tsv" | cut -f1)
expect_eq "the example has at least 8 submissions" "$([ ${#labels[@]} -ge 8 ] && echo yes)" yes
for l in "${labels[@]}"; do
  [ -s "$LOCAL/runs/$l/result.json" ] && [ -s "$LOCAL/runs/$l/junit.xml" ] || fail "$l: result and junit kept"
done
expect_eq "every scored submission kept its profile" \
  "$(for l in "${labels[@]}"; do [ "$(jq -r .status "$LOCAL/runs/$l/result.json")" != ok ] || [ -s "$LOCAL/runs/$l/profile.xml" ] || echo "$l"; done)" ""
if xmllint --noout --schema "$PSF_ROOT/tests/fixtures/junit/junit.xsd" "$LOCAL/junit.xml" 2>"$TEST_TMP/xsd.err"; then
  pass "the batch's JUnit file is valid"
else
  fail "the batch's JUnit file is valid" "$(head -2 "$TEST_TMP/xsd.err")"
fi
expect_eq "one test case per submission" "$(xpath "$LOCAL/junit.xml" 'count(//testcase)')" "${#labels[@]}"

# The jobs sign with the batch's key and the ranking checks with it: every
# scored row is verified, and nothing warns about keys or signatures.
expect_eq "the batch says nothing of keys or signatures" \
  "$(grep -ciE 'key|signature|unverified' "$TEST_TMP/local.err" || true)" 0
expect_eq "every scored row is verified" \
  "$(tr -d '\r' <"$LOCAL/leaderboard.csv" | awk -F, 'NR > 1 && $1 != "" { print $7 }' | sort -u)" verified
expect_eq "every scored row is ranked" \
  "$(tr -d '\r' <"$LOCAL/leaderboard.csv" | awk -F, 'NR > 1 && $1 != "" { n++ } END { print n }')" \
  "$(for l in "${labels[@]}"; do [ "$(jq -r .status "$LOCAL/runs/$l/result.json")" = ok ] && echo "$l"; done | grep -c .)"

# The leaderboard's order is the scores' order; ivan's off-by-one fails.
csv_scores=$(awk -F, 'NR > 1 && $1 != "" { print $3 }' "$LOCAL/leaderboard.csv" | tr -d '\r')
expect_eq "leaderboard sorted by score" "$csv_scores" "$(printf '%s\n' "$csv_scores" | sort -n)"
expect_eq "ivan fails with an exception" "$(jq -r .status "$LOCAL/runs/ivan/result.json")" exception
expect_match "ivan is listed as failed" "$(tr -d '\r' <"$LOCAL/leaderboard.csv")" $'\n,ivan,,false,exception,java.lang.ArrayIndexOutOfBoundsException'
expect_same_scores "alice and judy (the same bytecode) tie" \
  "$(jq -r .score "$LOCAL/runs/alice/result.json")" "$(jq -r .score "$LOCAL/runs/judy/result.json")"
expect_match "a jar submission in a package is scored" "$(jq -r '[.status, .method] | join(" ")' "$LOCAL/runs/erin/result.json")" \
  '^ok erin\.sorting\.Sorter\.sort\(\[I\)V$'

# Every link of the leaderboard reaches a report; ivan (not scored) has none.
links=$(grep -o 'href="[^"]*"' "$LOCAL/leaderboard.html" | sed 's/^href="//; s/"$//')
expect_eq "one report link per scored submission" "$(echo "$links" | grep -c .)" "$(grep -c '^[0-9]' <(tr -d '\r' <"$LOCAL/leaderboard.csv"))"
for l in $links; do [ -s "$LOCAL/$l" ] || fail "link $l reaches its report"; done
expect_eq "no report for a failed run" "$([ -e "$LOCAL/reports/ivan.html" ] && echo yes || echo no)" no
# Every report shows its submission's source line by line (manifest column 5):
# the file found by class and package, in a jar's submission too.
for l in $links; do
  grep -q '<table class="src" data-file="[^"]*Sorter.java">' "$LOCAL/$l" || fail "$l shows the submission's source"
done
expect_eq "erin's report (a package, a jar) shows its file" \
  "$(grep -o '<table class="src" data-file="[^"]*"' "$LOCAL/reports/erin.html")" '<table class="src" data-file="erin/sorting/Sorter.java"'
if browser_available; then
  browser_shot "$LOCAL/leaderboard.html" "$ARTIFACTS/batch-leaderboard.png" 1000,820 || fail "leaderboard screenshot"
  browser_shot "$LOCAL/reports/alice.html" "$ARTIFACTS/batch-report-alice.png" 1000,1300 || fail "report screenshot"
  browser_dom "$LOCAL/leaderboard.html" "$TEST_TMP/lb.html" || fail "leaderboard dom"
  expect_eq "the browser shows the ranks in order" "$(html_column "$TEST_TMP/lb.html" ranking 1 | tr -d '()tie' | tr '\n' ' ')" \
    "$(awk -F, 'NR > 1 && $1 != "" { printf "%s ", $1 }' <(tr -d '\r' <"$LOCAL/leaderboard.csv"))"
  expect_eq "the browser lists the failure" "$(html_column "$TEST_TMP/lb.html" failed 2)" exception
  browser_dom "$LOCAL/reports/alice.html" "$TEST_TMP/alice.html" || fail "report dom"
  expect_eq "alice's compare (line 6) is a costly line, with its code" \
    "$(html_xpath "$TEST_TMP/alice.html" "normalize-space(//table[@class='src']//tr[@data-line='6'][@class='hot']/td[4])")" \
    "if (a[j] > a[j + 1]) {"
  expect_eq "alice's unrun main has no share" \
    "$(html_xpath "$TEST_TMP/alice.html" "normalize-space(//table[@class='src']//tr[@data-line='16']/td[2])")" ""
  expect_eq "alice's report compares with the leader" \
    "$(html_xpath "$TEST_TMP/alice.html" 'string(//div[@id="ratio"]/div[@class="what"])')" \
    "your score against the reference's $(awk -F, 'NR == 2 { print $3 }' <(tr -d '\r' <"$LOCAL/leaderboard.csv"))"
fi

# One submission alone gives the batch's result.
"$PSF_ROOT/scripts/get_score.sh" --json --classpath "$BATCH/bob/classes" --main edu.bob.Sorter \
  --method edu.bob.Sorter.sort --profile-out "$TEST_TMP/bob.xml" -- 300 >"$TEST_TMP/bob.json" 2>/dev/null || true
expect_same_scores "bob alone: same score" "$(jq -r .score "$TEST_TMP/bob.json")" "$(jq -r .score "$LOCAL/runs/bob/result.json")"
if cmp -s "$TEST_TMP/bob.xml" "$LOCAL/runs/bob/profile.xml"; then pass "bob alone: same profile"; else fail "bob alone: same profile"; fi

# A submissions directory: a classes directory, a jar, and a submission in
# a package that the shared --main does not name.
mkdir -p "$TEST_TMP/subs"
cp -r "$BATCH/alice" "$BATCH/bob" "$TEST_TMP/subs/"
cp "$BATCH/carol/carol.jar" "$TEST_TMP/subs/"
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/dir" --main Sorter --method Sorter.sort "$TEST_TMP/subs" -- 300 \
  >/dev/null 2>"$TEST_TMP/dir.err" || fail "directory batch" "$(tail -3 "$TEST_TMP/dir.err")"
expect_same_scores "directory batch: same scores as the manifest's" \
  "$(jq -r '[.score] | @tsv' "$TEST_TMP/dir/runs/alice/result.json" "$TEST_TMP/dir/runs/carol/result.json" | tr '\n' ' ')" \
  "$(jq -r '[.score] | @tsv' "$LOCAL/runs/alice/result.json" "$LOCAL/runs/carol/result.json" | tr '\n' ' ')"
expect_eq "directory batch: the wrong main class is a failure" "$(jq -r .status "$TEST_TMP/dir/runs/bob/result.json")" class_not_found
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/dir" --main Sorter --method Sorter.sort "$TEST_TMP/subs" >/dev/null 2>&1 || rc=$?
expect_eq "an earlier batch's directory is never reused" "$rc" 2

# A machine that cannot be reached: every run is listed as internal_error,
# and the batch exits 70.
printf 'Host psf-nowhere\n  HostName 127.0.0.1\n  Port 1\n  BatchMode yes\n  ConnectTimeout 5\n' >"$TEST_TMP/nowhere.cfg"
grep -v '^#' "$BATCH/manifest.tsv" | head -n 2 >"$TEST_TMP/two.tsv"
sed -i "s|\t\([a-z]*\)/|\t$BATCH/\1/|g" "$TEST_TMP/two.tsv"
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/nowhere" --ssh "ssh -F $TEST_TMP/nowhere.cfg" \
  --sshlogin psf-nowhere "$TEST_TMP/two.tsv" >/dev/null 2>&1 || rc=$?
expect_eq "unreachable machine: exit 70" "$rc" 70
expect_eq "unreachable machine: runs listed as internal_error" \
  "$(tr -d '\r' <"$TEST_TMP/nowhere/leaderboard.csv" | awk -F, 'NR > 1 { printf "%s:%s ", $2, $5 }')" \
  "alice:internal_error bob:internal_error "

# A manifest with a bad line is refused before --out is made, so the
# corrected manifest can have that --out; the batch's own temporary file is
# gone either way.
{ cat "$TEST_TMP/two.tsv"; printf 'carol carol.jar Sorter Sorter.sort - 300\n'; } >"$TEST_TMP/bad.tsv"
mkdir -p "$TEST_TMP/btmp"
rc=0
TMPDIR=$TEST_TMP/btmp "$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/retry" "$TEST_TMP/bad.tsv" >/dev/null 2>"$TEST_TMP/retry.err" || rc=$?
expect_eq "a manifest line without tabs: usage error naming the line" "$rc $(cat "$TEST_TMP/retry.err")" \
  "2 score_batch.sh: $TEST_TMP/bad.tsv:3: expected label, class path, main, method and sources, tab-separated"
expect_eq "a manifest line without tabs: --out not made" "$([ -e "$TEST_TMP/retry" ] && echo made || echo absent)" absent
# (corrected in a spreadsheet, which saved it with CRLF line ends: the
# programs' last arguments are still "300", not "300\r")
sed 's/$/\r/' "$TEST_TMP/two.tsv" >"$TEST_TMP/crlf.tsv"
rc=0
TMPDIR=$TEST_TMP/btmp "$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/retry" "$TEST_TMP/crlf.tsv" >/dev/null 2>"$TEST_TMP/retry.err" || rc=$?
expect_eq "the corrected manifest, CRLF line ends: scored into that --out" \
  "$rc $(jq -r .status "$TEST_TMP/retry/runs/alice/result.json" "$TEST_TMP/retry/runs/bob/result.json" | tr '\n' ' ')" "0 ok ok "
expect_eq "the batch left nothing in TMPDIR" "$(find "$TEST_TMP/btmp" -mindepth 1 | wc -l)" 0
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/two.tsv" "$TEST_TMP/two.tsv" >/dev/null 2>"$TEST_TMP/retry.err" || rc=$?
expect_eq "--out naming a file: usage error saying so" "$rc $(cat "$TEST_TMP/retry.err")" \
  "2 score_batch.sh: --out $TEST_TMP/two.tsv is not a directory"
# The options every run shares are checked once, before anything is made:
# a bad value or cost table is a usage error, not every submission failing
# alike under exit 0 (the table: with an empty leaderboard).
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/badopt" --timeout abc "$TEST_TMP/two.tsv" >/dev/null 2>"$TEST_TMP/badopt.err" || rc=$?
expect_eq "--timeout abc: usage error saying why, nothing made" \
  "$rc $([ -e "$TEST_TMP/badopt" ] && echo made) $(cat "$TEST_TMP/badopt.err")" \
  "2  score_batch.sh: --timeout takes a whole number above 0, not 'abc'"
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/badopt" --costs "$PSF_ROOT/README.md" "$TEST_TMP/two.tsv" >/dev/null 2>"$TEST_TMP/badopt.err" || rc=$?
expect_eq "--costs README.md: usage error saying why, nothing made" \
  "$rc $([ -e "$TEST_TMP/badopt" ] && echo made) $(cat "$TEST_TMP/badopt.err")" \
  "2  score_batch.sh: the cost table is not usable: $PSF_ROOT/README.md:1: malformed XML: Start tag expected, '<' not found"
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/badopt" --compare "$PSF_ROOT/README.md" "$TEST_TMP/two.tsv" >/dev/null 2>"$TEST_TMP/badopt.err" || rc=$?
expect_eq "--compare README.md: usage error saying why, nothing made" \
  "$rc $([ -e "$TEST_TMP/badopt" ] && echo made) $(cat "$TEST_TMP/badopt.err")" \
  "2  score_batch.sh: the --compare profile is not usable: $PSF_ROOT/README.md:1: malformed XML: Start tag expected, '<' not found"
# Two batches on one --out, the second past its check that --out is empty
# when the first makes it (its manifest, a FIFO, is written only then): the
# second is refused, and the first's results are left as they were.
mkfifo "$TEST_TMP/late.tsv"
mkdir -p "$TEST_TMP/t2"
TMPDIR=$TEST_TMP/t2 "$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/twice" "$TEST_TMP/late.tsv" >/dev/null 2>"$TEST_TMP/twice.2.err" &
second=$!
for _ in $(seq 600); do [ -z "$(ls -A "$TEST_TMP/t2")" ] || break; sleep 0.05; done
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/twice" "$TEST_TMP/two.tsv" >/dev/null 2>"$TEST_TMP/twice.1.err" || rc=$?
cat "$TEST_TMP/two.tsv" >"$TEST_TMP/late.tsv"
rc2=0
wait "$second" || rc2=$?
expect_eq "two batches on one --out: the second, past its emptiness check, refused" \
  "$rc $rc2 $(cat "$TEST_TMP/twice.2.err")" "0 2 score_batch.sh: --out $TEST_TMP/twice: another batch has just started there: results are never mixed"
expect_eq "two batches on one --out: the first's results as it left them" \
  "$(jq -r .status "$TEST_TMP/twice/runs/alice/result.json" "$TEST_TMP/twice/runs/bob/result.json" 2>&1 | tr '\n' ' ')" "ok ok "
# No JDK here to pick the table for: said once, not every submission failing
# as jdk_not_found under exit 0.
rc=0
JAVA_HOME=$TEST_TMP/nojdk "$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/badopt" "$TEST_TMP/two.tsv" >/dev/null 2>"$TEST_TMP/badopt.err" || rc=$?
expect_eq "JAVA_HOME without a JDK: exit 70 saying why, nothing made" \
  "$rc $([ -e "$TEST_TMP/badopt" ] && echo made) $(cat "$TEST_TMP/badopt.err")" \
  "70  score_batch.sh: no java at JAVA_HOME=$TEST_TMP/nojdk: no JDK to pick the cost table for (give one, or --costs FILE)"

# A key named (--key-file, PSF_KEY_FILE) that cannot be made is refused
# before anything runs, as get_score.sh refuses it: a typo in the server's
# key option never gives an unchecked leaderboard.
: >"$TEST_TMP/not-a-dir"
rc=0
"$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/namedsig" --key-file "$TEST_TMP/not-a-dir/result.key" "$TEST_TMP/two.tsv" \
  >/dev/null 2>"$TEST_TMP/namedsig.err" || rc=$?
expect_eq "--key-file that cannot be made: usage error saying why, nothing made" \
  "$rc $([ -e "$TEST_TMP/namedsig" ] && echo made) $(cat "$TEST_TMP/namedsig.err")" \
  "2  score_batch.sh: the key file cannot be used: $TEST_TMP/not-a-dir/result.key: cannot open the key file: Not a directory"
rc=0
PSF_KEY_FILE=$TEST_TMP/not-a-dir/result.key "$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/namedsig" "$TEST_TMP/two.tsv" \
  >/dev/null 2>"$TEST_TMP/namedsig.err" || rc=$?
expect_eq "PSF_KEY_FILE that cannot be made: usage error, nothing made" \
  "$rc $([ -e "$TEST_TMP/namedsig" ] && echo made) $(grep -c 'the key file cannot be used' "$TEST_TMP/namedsig.err")" "2  1"
# The default key cannot be made: the batch says why once, plainly, and the
# rows are listed unsigned (on this machine the jobs' default is that key).
XDG_CONFIG_HOME=$TEST_TMP/not-a-dir "$PSF_ROOT/scripts/score_batch.sh" --out "$TEST_TMP/defaultsig" "$TEST_TMP/two.tsv" \
  >/dev/null 2>"$TEST_TMP/defaultsig.err" || fail "batch without a usable key" "$(tail -3 "$TEST_TMP/defaultsig.err")"
expect_eq "no usable key: said once, plainly" "$(grep -iE 'key|signature|unverified|unchecked' "$TEST_TMP/defaultsig.err" || true)" \
  "score_batch.sh: warning: no usable key file at $TEST_TMP/not-a-dir/psf/result.key: each job signs with its own machine's default key, which cannot be checked here: no row of the leaderboard is verified"
expect_eq "no usable key: the rows are unsigned" \
  "$(tr -d '\r' <"$TEST_TMP/defaultsig/leaderboard.csv" | awk -F, 'NR > 1 { print $2 ":" $7 }' | sort | tr '\n' ' ')" \
  "alice:unsigned bob:unsigned "

# --- the same batch through ssh to 127.0.0.1 -----------------------------------
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh-keygen >/dev/null 2>&1; then
  echo "openssh-server is not installed: the ssh half is skipped"
  finish
  exit 77
fi
K=$TEST_TMP/ssh
mkdir -p "$K"
chmod 700 "$K"
ssh-keygen -q -t ed25519 -N '' -f "$K/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$K/user_key"
cp "$K/user_key.pub" "$K/authorized_keys"
if [ ! -d /run/sshd ] && [ "$(id -u)" -eq 0 ]; then
  mkdir -p /run/sshd && MADE_PRIVSEP=1   # sshd's privilege-separation directory
fi
port=""
for _ in 1 2 3 4 5; do
  p=$((20000 + (RANDOM % 30000)))
  cat >"$K/sshd_config" <<CFG
Port $p
ListenAddress 127.0.0.1
HostKey $K/host_key
PidFile $K/sshd.pid
AuthorizedKeysFile $K/authorized_keys
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
AllowUsers $(id -un)
# GNU parallel opens a connection per job and more of its own; on a loaded
# machine their handshakes overlap past sshd's default MaxStartups (10),
# whose random drops reset connections (kex_exchange_identification)
MaxStartups 100:30:200
CFG
  "$SSHD" -D -e -f "$K/sshd_config" 2>"$K/sshd.log" &
  SSHD_PID=$!
  for _ in $(seq 300); do   # up to 30 s while it lives: a loaded machine starts it slowly
    grep -q 'Server listening' "$K/sshd.log" && break
    kill -0 "$SSHD_PID" 2>/dev/null || break
    sleep 0.1
  done
  if grep -q 'Server listening' "$K/sshd.log"; then port=$p; break; fi
  kill "$SSHD_PID" 2>/dev/null || true; wait "$SSHD_PID" 2>/dev/null || true; SSHD_PID=""
done
if [ -z "$port" ]; then
  echo "sshd did not start: $(tail -2 "$K/sshd.log")"
  finish
  exit 77
fi
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$K/host_key.pub")" >"$K/known_hosts"
cat >"$K/ssh_config" <<CFG
Host psf-batch-test
  HostName 127.0.0.1
  Port $port
  User $(id -un)
  IdentityFile $K/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $K/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
CFG
expect_eq "ssh login to the private sshd" "$(ssh -F "$K/ssh_config" psf-batch-test echo logged-in 2>&1)" logged-in

REMOTE=$TEST_TMP/remote
"$PSF_ROOT/scripts/score_batch.sh" --out "$REMOTE" -j 2 --ssh "ssh -F $K/ssh_config" --sshlogin psf-batch-test \
  "$BATCH/manifest.tsv" >"$TEST_TMP/remote.txt" 2>"$TEST_TMP/remote.err" ||
  fail "ssh batch" "$(tail -3 "$TEST_TMP/remote.err"; echo "sshd said:"; grep -v 'Accepted publickey\|session opened\|session closed\|Received disconnect\|Disconnected from' "$K/sshd.log" | tail -8)"
expect_eq "the jobs ran through the ssh login" "$(grep -c 'Accepted publickey' "$K/sshd.log" | awk '$1 > 1 { print "yes" }')" yes
if diff -r "$LOCAL" "$REMOTE" >"$TEST_TMP/diff.txt"; then
  pass "local and ssh batches give identical files"
else
  fail "local and ssh batches give identical files" "$(head -5 "$TEST_TMP/diff.txt")"
fi
expect_eq "identical leaderboards on stdout" "$(cat "$TEST_TMP/remote.txt")" "$(cat "$TEST_TMP/local.txt")"
finish
