#!/usr/bin/env bash
# check.sh - every program of this corpus finds the same shortest distances in
# the same graph, correctly (tools/ShortestPathCheck.java), with the same checksum.
set -eu
exec "$(dirname "${BASH_SOURCE[0]}")/../tools/check_corpus.sh" ShortestPathCheck "$(dirname "${BASH_SOURCE[0]}")"
