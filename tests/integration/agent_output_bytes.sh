#!/usr/bin/env bash
# agent_output_bytes.sh - the program's output passed on by get_score.sh
# byte for byte, and --max-output counted to the byte. A short output is
# measured and passed on by the shell itself (scripts/lib/run.sh,
# output_size; scripts/lib/outputs.sh, copy_output), a long one by stat and
# head: both must give the same bytes and the same verdict, with NUL bytes
# (which end a shell's read) and bytes above 0x7f (more than one byte a
# character in a UTF-8 locale) in the output.
set -eu
. "$(dirname "$0")/lib.sh"
GS=$PSF_ROOT/scripts/get_score.sh
command -v jq >/dev/null || { echo "jq is missing (scripts/install_deps.sh installs it)"; exit 77; }
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac
# a UTF-8 locale where there is one: where the shell counts characters, not bytes
export LC_ALL=C.UTF-8

CWD=$TEST_TMP/cwd
mkdir -p "$CWD" "$TEST_TMP/cp"
cd "$CWD"
# Bytes.main KIND N: N bytes on stdout, then 2 on stderr ("e\n"), and the
# scored method. KIND nul: "x\0" repeated; high: 0x01 to 0xff in turn (no
# NUL); utf8: "\u00e9" in UTF-8 (0xc3 0xa9) repeated, two bytes a character.
cat >"$TEST_TMP/Bytes.java" <<'EOF'
public class Bytes {
    static int work(int n) {
        return n + 1;
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[1]);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = args[0].equals("nul") ? (byte) (i % 2 == 0 ? 'x' : 0)
                : args[0].equals("utf8") ? (byte) (i % 2 == 0 ? 0xc3 : 0xa9) : (byte) (i % 255 + 1);
        System.out.write(b, 0, n);
        System.out.flush();
        System.err.write(new byte[] {'e', '\n'}, 0, 2);
        System.err.flush();
        work(n);
    }
}
EOF
"$JAVAC" --release 17 -d "$TEST_TMP/cp" "$TEST_TMP/Bytes.java"

# expected KIND N: the bytes Bytes prints for KIND N, in $TEST_TMP/want
expected() {
  if [ "$1" = nul ]; then
    head -c "$2" < <(yes x | tr '\n' '\0')
  elif [ "$1" = utf8 ]; then
    head -c "$2" < <(while :; do printf '\303\251'; done)
  else
    local bytes
    # shellcheck disable=SC2046 # (the 255 numbers as words)
    bytes=$(printf '\\0%03o' $(seq 1 255))
    head -c "$2" < <(while :; do printf '%b' "$bytes"; done)
  fi >"$TEST_TMP/want"
  printf 'e\n' >>"$TEST_TMP/want"
}
# check NAME KIND N MAX STATUS: Bytes KIND N under --max-output MAX ends as
# STATUS, and get_score.sh's stderr is the program's output, its first MAX
# bytes
check() {
  local name=$1 kind=$2 n=$3 max=$4 status=$5 got
  expected "$kind" "$n"
  "$GS" --json --costs none --classpath "$TEST_TMP/cp" --method Bytes.work --max-output "$max" -- "$kind" "$n" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err" || true
  got=$(jq -r .status <"$TEST_TMP/out")
  expect_eq "$name: $status" "$got" "$status"
  if cmp -s <(head -c "$max" "$TEST_TMP/want") "$TEST_TMP/err"; then
    pass "$name: the output passed on byte for byte"
  else
    fail "$name: the output passed on byte for byte" "$(wc -c <"$TEST_TMP/err") bytes, $(cmp <(head -c "$max" "$TEST_TMP/want") "$TEST_TMP/err" 2>&1 | head -c 200)"
  fi
}

# short outputs (the shell reads them): 600 + 2 bytes in all
check "short, bytes 1-255, at the limit" high 600 602 ok
check "short, bytes 1-255, a byte over the limit" high 600 601 output_limit
check "short, with NUL bytes, at the limit" nul 600 602 ok
# (300 of the bytes are NULs: counted as characters read, the output would be 302 bytes)
check "short, with NUL bytes, a byte over the limit" nul 600 601 output_limit
check "short, UTF-8, at the limit" utf8 600 602 ok
# (counted as characters in a UTF-8 locale, the output would be 302 bytes)
check "short, UTF-8, a byte over the limit" utf8 600 601 output_limit
# long outputs (more than the shell reads itself: stat and head)
check "long, bytes 1-255, at the limit" high 20000 20002 ok
check "long, bytes 1-255, a byte over the limit" high 20000 20001 output_limit
check "long, with NUL bytes, a byte over the limit" nul 20000 20001 output_limit
# the shell's limit itself: 16,384 bytes read, and one more
check "16384 bytes in all, at the limit" high 16382 16384 ok
check "16385 bytes in all, a byte over the limit" high 16383 16384 output_limit
finish
