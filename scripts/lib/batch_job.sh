#!/usr/bin/env bash
# batch_job.sh LINE [get_score.sh options...] - one submission of a batch
# (scripts/score_batch.sh), on this machine or on a machine GNU parallel
# reached by ssh.
#
# LINE is one manifest line with absolute paths: label, class path, main
# class, method, sources, program arguments, separated by tabs. The job
# scores it with get_score.sh (JSON result, kept profile, program output,
# JUnit report) in a private temporary directory and prints one line on
# stdout: the label, a tab, and the directory LABEL/ as a gzip'd tar in
# base64. Everything the submission produced travels back in that line, so
# the machine that runs it needs only PSF at the same path and the
# submission's files; nothing is left behind. Exits 0 whenever the line was
# printed, whatever the score's status (that is in result.json).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
line=$1
shift
IFS=$'\t' read -r -a f <<<"$line"
label=${f[0]}
case $label in '' | .* | */*) echo "batch_job.sh: bad label '$label'" >&2; exit 2 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/psf-batch.XXXXXXXX") || exit 70
trap 'rm -rf "$tmp"' EXIT
d=$tmp/$label
mkdir "$d" || exit 70
"$ROOT/scripts/get_score.sh" --json --classpath "${f[1]}" --main "${f[2]}" --method "${f[3]}" \
  --profile-out "$d/profile.xml" --program-output "$d/program.out" --junit "$d/junit.xml" --label "$label" \
  "$@" -- "${f[@]:5}" >"$d/result.json" 2>"$d/stderr.txt"
echo "$?" >"$d/exit_code"
printf '%s\t' "$label"
tar -C "$tmp" -cf - "$label" | gzip -n | base64 -w0 || exit 70
echo
