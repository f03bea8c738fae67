#!/usr/bin/env bash
# agent_server_signed.sh - results a grader can verify later: get_score.sh
# signs kept profiles and JSON results with the server's key; psf-score
# --verify and --rank refuse or mark edited, unsigned, foreign-key and
# replayed ones, and flag one submission under two labels. (issue 22, item 7)
set -eu
. "$(dirname "$0")/lib.sh"
FX=$PSF_BUILD/fixtures/agent
GS=$PSF_ROOT/scripts/get_score.sh
PS=$PSF_BUILD/psf-score
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
D=$TEST_TMP/d
mkdir -p "$D"
cd "$TEST_TMP"
export PSF_KEY_FILE=$D/keys/server.key
mkdir -p "$D/keys"
code() { "$@" >"$TEST_TMP/code.out" 2>"$TEST_TMP/code.err" && echo 0 || echo $?; }

# --- signing: the key is made on first use, results carry the submission ------------
"$GS" --json --costs none --classpath "$FX" --method Noisy.work --profile-out "$D/a.xml" -- 10 >"$D/a.json" 2>/dev/null
expect_eq "the key file is created on first use" "$(stat -c %a "$PSF_KEY_FILE")" 600
expect_eq "result: scored" "$(jq -r .score "$D/a.json")" 99
expect_eq "result: verification" "$(jq -r .verification "$D/a.json")" verified
expect_match "result: the class path's digest" "$(jq -r .submission.classpath_sha256 "$D/a.json")" '^[0-9a-f]{64}$'
expect_eq "result: identity fields" "$(jq -r '.submission | keys | join(" ")' "$D/a.json")" \
  "args_sha256 classpath_sha256 costs_sha256 jdk_sha256 judged_by main_sha256 method_sha256"
expect_eq "result: the arguments' digest" "$(jq -r .submission.args_sha256 "$D/a.json")" "$(printf '10\0' | sha256sum | cut -d' ' -f1)"
expect_eq "result: the statement signs the score" "$(jq -r .signature.statement "$D/a.json" | grep -o 'score=[0-9]*')" "score=99"
expect_eq "result: the statement names the kept profile's bytes" \
  "$(jq -r .signature.statement "$D/a.json" | grep -o 'profile_sha256=[0-9a-f]*')" "profile_sha256=$(sha256sum <"$D/a.xml" | cut -d' ' -f1)"
expect_eq "kept profile: ends in its signature line" "$(tail -n 1 "$D/a.xml" | cut -c1-25)" "<!-- psf-signature 1 key="
expect_eq "--verify: the profile and the result" "$(code "$PS" --verify "$D/a.xml" "$D/a.json")" 0
# bob's submission: the same classes and a file of his own
mkdir -p "$D/bob" "$D/carol"
cp -a "$FX"/. "$D/bob/"
echo "bob" >"$D/bob/NOTES"
"$GS" --json --costs none --classpath "$D/bob" --method Noisy.work --profile-out "$D/b.xml" -- 20 >"$D/b.json" 2>/dev/null
expect_eq "another submission: another class-path digest" \
  "$(jq -r '.submission.classpath_sha256 != "'"$(jq -r .submission.classpath_sha256 "$D/a.json")"'"' "$D/b.json")" true
# carol hands in a copy of bob's: another label, the same submission
cp -a "$D/bob"/. "$D/carol/"
"$GS" --json --costs none --classpath "$D/carol" --method Noisy.work --profile-out "$D/c.xml" -- 20 >"$D/c.json" 2>/dev/null
expect_eq "a copied submission: the same class-path digest" \
  "$(jq -r .submission.classpath_sha256 "$D/c.json")" "$(jq -r .submission.classpath_sha256 "$D/b.json")"
# a failure is signed too
"$GS" --json --costs none --classpath "$FX" --method Noisy.work -- 10 3 >"$D/fail.json" 2>/dev/null || true
expect_eq "a failed run's JSON: status" "$(jq -r .status "$D/fail.json")" program_failed
expect_eq "a failed run's JSON: signed" "$(jq -r .signature.statement "$D/fail.json" | cut -d' ' -f1-2)" "status=program_failed score=null"
expect_eq "a failed run's JSON: verifies" "$(code "$PS" --verify "$D/fail.json")" 0

# --- the digests that identify a submission (psf-score --submission-digests) -----------
# The class path's digest is of the text find, sort and sha256sum gave (what
# get_score.sh took before), for names sha256sum escapes, links (one with a
# newline in its name) and a jar.
mkdir -p "$D/tricky/sub" "$D/tricky/empty"
cp -a "$FX"/. "$D/tricky/"
printf 'x' >"$D/tricky/back\\slash"
printf 'y' >"$D/tricky/new"$'\n'"line"
printf 'z' >"$D/tricky/sub/c"$'\r'
ln -s Noisy.class "$D/tricky/link"
ln -s sub "$D/tricky/li"$'\n'"nk"
mkfifo "$D/tricky/fifo"
printf 'jar' >"$D/lib.jar"
listing() { # the class path's listing, as get_score.sh took it with find, sort and sha256sum
  local part
  for part in "$@"; do
    if [ -f "$part" ]; then
      printf 'file %s\n' "$(sha256sum <"$part" | cut -d' ' -f1)"
    else
      printf 'dir\n'
      (cd "$part" && LC_ALL=C find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum -- &&
        LC_ALL=C find . -type l -printf 'link %p -> %l\n' | LC_ALL=C sort)
    fi
  done
}
sha() { sha256sum | cut -d' ' -f1; }
# (Noisy fails on these arguments: a failed run's result carries the digests too)
"$GS" --json --costs none --classpath "$D/lib.jar:$D/tricky" --method Noisy.work -- 10 "a b" "" >"$D/t.json" 2>/dev/null || true
expect_eq "digests: the class path's, of find, sort and sha256sum's listing" \
  "$(jq -r .submission.classpath_sha256 "$D/t.json")" "$(listing "$D/lib.jar" "$D/tricky" | sha)"
expect_eq "digests: the main class's" "$(jq -r .submission.main_sha256 "$D/t.json")" "$(printf Noisy | sha)"
expect_eq "digests: the method's" "$(jq -r .submission.method_sha256 "$D/t.json")" "$(printf Noisy.work | sha)"
expect_eq "digests: the arguments'" "$(jq -r .submission.args_sha256 "$D/t.json")" "$(printf '10\0a b\0\0' | sha)"
J=$(readlink -f "$(command -v java)")
[ -z "${JAVA_HOME:-}" ] || J=$(readlink -f "$JAVA_HOME/bin/java")
expect_eq "digests: the JDK's" "$(jq -r .submission.jdk_sha256 "$D/t.json")" \
  "$( { printf '%s\n' "$J"; cat "${J%/*}/../release" 2>/dev/null; } | sha)"
expect_eq "--submission-digests: the fields get_score.sh signed" \
  "$("$PS" --submission-digests --classpath "$D/lib.jar:$D/tricky" --main Noisy --method Noisy.work --jdk "$J" -- 10 "a b" "")" \
  "$(jq -r '.submission | "classpath_sha256=\(.classpath_sha256) main_sha256=\(.main_sha256) method_sha256=\(.method_sha256) args_sha256=\(.args_sha256) jdk_sha256=\(.jdk_sha256)"' "$D/t.json")"

# --- one process signs and scores: psf-score --signed-copy -------------------------------
# (get_score.sh's last step when no --profile-out kept a signed copy already)
"$GS" --json --costs none --classpath "$FX" --method Noisy.work -- 10 >"$D/a2.json" 2>/dev/null
expect_eq "without --profile-out: scored" "$(jq -r .score "$D/a2.json")" 99
expect_eq "without --profile-out: the result verifies" "$(code "$PS" --verify "$D/a2.json")" 0
expect_eq "without --profile-out: the statement of a run that kept its profile" \
  "$(jq -r .signature.statement "$D/a2.json" | sed 's/ profile_sha256=[0-9a-f]*//')" \
  "$(jq -r .signature.statement "$D/a.json" | sed 's/ profile_sha256=[0-9a-f]*//')"
head -n -1 "$D/a.xml" >"$D/plain.xml" # the profile as psf-receive leaves it
F="classpath_sha256=ab12 main_sha256=cd34 costs_sha256=none"
"$PS" --sign --submission "$F" "$D/plain.xml" >"$D/sign1.xml"
"$PS" --json --profile-name p.xml "$D/sign1.xml" >"$D/sign1.json"
expect_eq "--signed-copy: exit 0" \
  "$(code "$PS" --json --profile-name p.xml --submission "$F" --signed-copy "$D/sign2.xml" "$D/plain.xml")" 0
cp "$TEST_TMP/code.out" "$D/sign2.json"
expect_eq "--signed-copy: the copy is --sign's, byte for byte" "$(cmp "$D/sign1.xml" "$D/sign2.xml" && echo same)" same
expect_eq "--signed-copy: the result is the signed copy's, byte for byte" \
  "$(cmp "$D/sign1.json" "$D/sign2.json" && echo same)" same
expect_eq "--signed-copy: the copy verifies" "$(code "$PS" --verify "$D/sign2.xml")" 0
# a profile --sign refuses (one that is signed already) is refused the same way
"$PS" --sign --submission "$F" "$D/a.xml" >/dev/null 2>"$D/sign3.err" || true
expect_eq "--signed-copy of a signed profile: bad input, as --sign" \
  "$(code "$PS" --json --junit "$D/sign3.junit" --submission "$F" --signed-copy "$D/sign3.xml" "$D/a.xml")" 7
expect_match "--sign of a signed profile: a message" "$(cat "$D/sign3.err")" '[^[:space:]]'
expect_eq "--signed-copy of a signed profile: --sign's message" "$(cat "$TEST_TMP/code.err")" "$(cat "$D/sign3.err")"
expect_eq "--signed-copy of a signed profile: no result, no copy, no report" \
  "$(wc -c <"$TEST_TMP/code.out") $(find "$D" -maxdepth 1 \( -name sign3.xml -o -name sign3.junit \) | wc -l)" "0 0"
# get_score.sh's --signed-copy that leaves no copy: the result names the
# scorer's reason, or the signal that ended it (as on a loaded machine,
# where it says nothing), not only that the profile could not be signed.
# Stand-in builds, the real one but for a psf-score that, asked for
# --signed-copy, says why it cannot, or is killed; the real psf-score
# answers everything else. get_score.sh asks for the result (and its
# --signed-copy) the batch that answered its early questions and waited
# (psf-score --batch --more): the stand-in's batch answers the early
# questions by the real one, then the one request read on its stdin
# (scorer/batch.h: N files OUT ERR ARGS..., each word ended by a NUL, then
# an empty word) as psf-score would, SCRIPT and all. With NOMORE, its
# batch does not wait for it, and get_score.sh runs psf-score for the
# result itself. (No sandbox: it would show the build's files, not the
# links to them.)
standin() { # DIR SCRIPT [OPTION [NOMORE]]: a build in DIR whose psf-score runs SCRIPT on OPTION (--signed-copy)
  mkdir -p "$1"
  for f in "$PSF_BUILD"/*; do ln -s "$(readlink -f "$f")" "$1/"; done
  rm "$1/psf-score"
  {
    printf '#!/usr/bin/env bash\nreal=%q option=%q script=%q nomore=%q\n' "$(readlink -f "$PS")" "${3:---signed-copy}" "$2" "${4:-}"
    cat <<'EOF'
if [ "${1:-} ${2:-}" = "--batch --more" ]; then
  shift 2
  [ -z "$nomore" ] || exec "$real" --batch "$@"
  "$real" --batch "$@" </dev/null || exit
  words=()
  while IFS= read -r -d '' w && [ -n "$w" ]; do words+=("$w"); done
  [ "${words[1]:-}" = files ] || exit 70
  args=("${words[@]:4}")
  case " ${args[*]} " in
    *" $option "*) bash -c "$script" >"${words[2]}" 2>"${words[3]}" ;;
    *) "$real" "${args[@]}" >"${words[2]}" 2>"${words[3]}" ;;
  esac
  printf '%s\n\0' "$?"
  exit 0
fi
case " $* " in *" $option "*) exec bash -c "$script" ;; esac
exec "$real" "$@"
EOF
  } >"$1/psf-score"
  chmod +x "$1/psf-score"
}
standin "$D/says" 'echo "psf-score: the disk went away" >&2; exit 70'
standin "$D/killed" 'kill -KILL $$'
standin "$D/says-alone" 'echo "psf-score: the disk went away" >&2; exit 70' --signed-copy nomore
standin "$D/killed-alone" 'kill -KILL $$' --signed-copy nomore
for how in "" -alone; do
  name="--signed-copy${how:+ (psf-score of its own)}"
  expect_eq "$name that says why: internal error" \
    "$(PSF_BUILD=$D/says$how code "$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work -- 10)" 70
  expect_eq "$name that says why: the result says it" "$(jq -r .message "$TEST_TMP/code.out")" \
    "cannot sign the profile: the disk went away"
  expect_match "$name that says why: said on stderr too" "$(cat "$TEST_TMP/code.err")" $'(^|\n)psf-score: the disk went away(\n|$)'
  expect_eq "$name killed: internal error" \
    "$(PSF_BUILD=$D/killed$how code "$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work -- 10)" 70
  expect_eq "$name killed: the result names the signal" "$(jq -r .message "$TEST_TMP/code.out")" \
    "cannot sign the profile: psf-score was ended by SIGKILL"
done
# The copies signed by psf-score --sign (--profile-out's, and that of a
# run of several) are reported so too.
standin "$D/signsays" 'echo "psf-score: the key went away" >&2; exit 70' --sign
expect_eq "--sign that says why, --profile-out: internal error" \
  "$(PSF_BUILD=$D/signsays code "$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work \
    --profile-out "$D/kept-says.xml" -- 10)" 70
expect_eq "--sign that says why, --profile-out: the result says it" "$(jq -r .message "$TEST_TMP/code.out")" \
  "cannot sign the profile: the key went away"
expect_match "--sign that says why, --profile-out: said on stderr too" "$(cat "$TEST_TMP/code.err")" \
  $'(^|\n)psf-score: the key went away(\n|$)'
expect_eq "--sign that says why, --profile-out: no profile kept" "$([ -e "$D/kept-says.xml" ] && echo kept || echo none)" none
expect_eq "--sign that says why, --runs 2: internal error" \
  "$(PSF_BUILD=$D/signsays code "$GS" --json --costs none --sandbox off --classpath "$FX" --method Noisy.work \
    --runs 2 -- 10)" 70
expect_eq "--sign that says why, --runs 2: the result says it" "$(jq -r .message "$TEST_TMP/code.out")" \
  "cannot sign the profile: the key went away"

# --- what --verify refuses ---------------------------------------------------------------
# edited: one count changed (the profile stays valid and consistent)
sed 's/thread="main"/thread="mein"/' "$D/a.xml" >"$D/edited.xml"
expect_eq "an edited profile: unverified (26)" "$(code "$PS" --verify "$D/edited.xml")" 26
expect_match "an edited profile: says why" "$(cat "$TEST_TMP/code.out")" "does not match its contents"
# unsigned: the body without its line
head -n -1 "$D/a.xml" >"$D/unsigned.xml"
expect_eq "an unsigned profile: unverified" "$(code "$PS" --verify "$D/unsigned.xml")" 26
expect_match "an unsigned profile: says why" "$(cat "$TEST_TMP/code.out")" "carries no signature"
# replayed: the cheaper run's body under the dearer run's signature line
{ head -n -1 "$D/a.xml"; tail -n 1 "$D/b.xml"; } >"$D/replayed.xml"
expect_eq "a signature line moved to another profile: unverified" "$(code "$PS" --verify "$D/replayed.xml")" 26
# another key
"$PS" --init-key --key-file "$D/keys/other.key" >/dev/null
"$PS" --sign --key-file "$D/keys/other.key" --submission "classpath_sha256=0" "$D/unsigned.xml" >"$D/foreign.xml"
expect_eq "a profile signed with another key: unverified" "$(code "$PS" --verify "$D/foreign.xml")" 26
expect_match "another key: says so" "$(cat "$TEST_TMP/code.out")" "another key"
# a result whose score was lowered
jq '.score = 1' "$D/b.json" >"$D/lowered.json"
expect_eq "a result with an edited score: unverified" "$(code "$PS" --verify "$D/lowered.json")" 26
jq 'del(.signature)' "$D/b.json" >"$D/nosig.json"
expect_eq "a result without its signature: unverified" "$(code "$PS" --verify "$D/nosig.json")" 26
expect_eq "--verify --json: one entry per file" \
  "$("$PS" --verify --json "$D/a.xml" "$D/edited.xml" | jq -c '[.[].verified]')" "[true,false]"
expect_eq "--verify without a key: usage" "$(PSF_KEY_FILE='' code "$PS" --verify "$D/a.xml")" 2

# --- --rank: only what the key signed is ranked ----------------------------------------
expect_eq "rank: exit code with unverified rows" \
  "$(code "$PS" --rank --format json alice="$D/a.xml" bob="$D/b.xml" eve="$D/edited.xml" mallory="$D/unsigned.xml" trudy="$D/replayed.xml")" 26
R=$TEST_TMP/code.out
expect_eq "rank: the signed profiles ranked" "$(jq -r '[.entries[] | select(.rank != null) | .label] | join(" ")' "$R")" "alice bob"
expect_eq "rank: edited, unsigned and replayed ones refused" \
  "$(jq -r '[.entries[] | select(.rank == null) | "\(.label):\(.status):\(.verification)"] | join(" ")' "$R")" \
  "eve:unverified:invalid mallory:unverified:unsigned trudy:unverified:invalid"
expect_eq "rank: all signed, exit 0" "$(code "$PS" --rank alice="$D/a.xml" bob="$D/b.xml")" 0
# one submission under two labels: the same profile, and a copied program
code "$PS" --rank --format json alice="$D/a.xml" bob="$D/b.xml" carol="$D/c.xml" dave="$D/a.xml" >/dev/null
expect_eq "rank: a duplicate profile flagged" "$(jq -r '.entries[] | select(.label == "dave") | .duplicate_of' "$R")" alice
expect_eq "rank: a copied submission flagged" "$(jq -r '.entries[] | select(.label == "carol") | .duplicate_of' "$R")" bob
expect_match "rank: flagged on stderr too" "$(cat "$TEST_TMP/code.err")" "carol: the same submission as bob"
# without a key nothing is checked, and every row says so
PSF_KEY_FILE='' code "$PS" --rank --format json alice="$D/a.xml" eve="$D/edited.xml" >/dev/null
expect_eq "rank without a key: rows marked unchecked" "$(jq -r '[.entries[].verification] | join(" ")' "$R")" "unchecked unchecked"
expect_match "rank without a key: a warning" "$(cat "$TEST_TMP/code.err")" "signatures are not checked"

# --- the key file ----------------------------------------------------------------------------
cp "$PSF_KEY_FILE" "$D/keys/open.key"
chmod 644 "$D/keys/open.key"
expect_eq "a key file others may read: usage, before the run" \
  "$(code "$GS" --json --costs none --classpath "$FX" --method Noisy.work --key-file "$D/keys/open.key" --program-output "$D/prog" -- 10)" 2
expect_match "a key file others may read: says why" "$(jq -r .message "$TEST_TMP/code.out")" "chmod 600"
expect_eq "a key file others may read: the program never ran" "$(find "$D/prog" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" 0
expect_eq "a key file in a missing directory: usage" \
  "$(code "$GS" --json --costs none --classpath "$FX" --method Noisy.work --key-file "$D/nodir/k" -- 10)" 2
if sandbox_works "the key-in-sandbox check"; then
  # a key the sandbox would show the program (here: inside its class path)
  mkdir -p "$D/cpkey"
  cp -a "$FX"/. "$D/cpkey/"
  cp -p "$PSF_KEY_FILE" "$D/cpkey/server.key"
  expect_eq "a key file inside the class path: usage, before the run" \
    "$(code "$GS" --json --costs none --sandbox require --classpath "$D/cpkey" --method Noisy.work \
      --key-file "$D/cpkey/server.key" --program-output "$D/prog" -- 10)" 2
  expect_match "a key file inside the class path: says why" "$(jq -r .message "$TEST_TMP/code.out")" "the sandbox shows"
  expect_eq "a key file inside the class path: the program never ran" "$(find "$D/prog" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" 0
  expect_eq "a key file beside the class path: scored" \
    "$(code "$GS" --json --costs none --sandbox require --classpath "$D/cpkey" --method Noisy.work -- 10)" 0
  # the key named through a link into the class path: the link is resolved
  ln -s "$D/cpkey" "$D/cplink"
  expect_eq "a key file named through a link into the class path: usage" \
    "$(code "$GS" --json --costs none --sandbox require --classpath "$D/cpkey" --method Noisy.work \
      --key-file "$D/cplink/server.key" -- 10)" 2
  expect_match "a key file named through a link into the class path: says where" \
    "$(jq -r .message "$TEST_TMP/code.out")" "is inside '[^']*/cpkey', which the sandbox shows"
  # PSF's build, named through a link (PSF_BUILD), is shown too: a key in it
  # is refused however either is named (the build's programs are links to
  # the real ones; the run is refused before anything would start them)
  mkdir -p "$D/build"
  ln -s "$PSF_BUILD/libpsfagent.so" "$PSF_BUILD/psf-score" "$PSF_BUILD/psf-receive" "$D/build/"
  ln -s "$D/build" "$D/buildlink"
  cp -p "$PSF_KEY_FILE" "$D/build/server.key"
  expect_eq "a key file inside PSF's build, named through a link: usage" \
    "$(PSF_BUILD=$D/buildlink code "$GS" --json --costs none --sandbox require --classpath "$FX" --method Noisy.work \
      --key-file "$D/build/server.key" --program-output "$D/prog" -- 10)" 2
  expect_match "a key file inside PSF's build: says where" "$(jq -r .message "$TEST_TMP/code.out")" \
    "is inside '[^']*/build', which the sandbox shows"
  expect_eq "a key file inside PSF's build: the program never ran" "$([ -e "$D/prog" ] && echo ran || echo no)" no
fi

finish
