#!/usr/bin/env bash
# check.sh - every program of this corpus finds the same top words of the same
# text, correctly (tools/WordCountCheck.java), with the same checksum.
set -eu
exec "$(dirname "${BASH_SOURCE[0]}")/../tools/check_corpus.sh" WordCountCheck "$(dirname "${BASH_SOURCE[0]}")"
