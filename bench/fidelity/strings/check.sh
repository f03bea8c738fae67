#!/usr/bin/env bash
# check.sh - every program of this corpus counts the same patterns in the same
# text, correctly (tools/StringsCheck.java), with the same checksum.
set -eu
exec "$(dirname "${BASH_SOURCE[0]}")/../tools/check_corpus.sh" StringsCheck "$(dirname "${BASH_SOURCE[0]}")"
