#!/usr/bin/env bash
# check.sh - every program of this corpus finds the same edit distances of the
# same pairs, correctly (tools/EditDistanceCheck.java), with the same checksum.
set -eu
exec "$(dirname "${BASH_SOURCE[0]}")/../tools/check_corpus.sh" EditDistanceCheck "$(dirname "${BASH_SOURCE[0]}")"
