#!/usr/bin/env bash
# get_score.sh - score one Java method: run the program under the counting
# agent with a pinned, deterministic JVM configuration, then weight the
# profile with a cost table.
#
# This is what a grading server calls (non-interactively, many at once) and
# what a person types. It writes nothing into the working directory: the
# JVM runs in a private scratch directory that is removed at exit. With
# --json, stdout carries exactly one JSON object and nothing else; the
# program's own output goes to stderr (or --program-output FILE).
#
# Every outcome has a status word and an exit code; the table lives in one
# place, scorer/status.c, and is printed by `get_score.sh --help` and in the
# README ("Status and exit codes"). Errors found here are reported through
# `psf-score --status-json` so that all JSON has one writer.
#
# This file is the order of the steps; what each step does is in a part
# under scripts/lib/, sourced here (its header says what it holds and which
# variables it reads and sets). The order matters beyond the obvious: what
# can be asked early (the JDK's version, the cost table's check, whether
# setpriv and bubblewrap work, the key's check, the submission's digests,
# the TSC rate) starts in the background and is read where it is needed, and
# an error is reported as the first check that meets it always reported it.
set -u

# dir_of PATH: what `dirname -- PATH` prints, in DIR_OF, by the shell itself
# (each dirname was a fork and an exec): PATH without its last component and
# the slashes before it; "." when PATH has no slash, "/" when only the root
# is left.
dir_of() {
  local p=$1
  while [[ $p == */ ]]; do p=${p%/}; done
  case $p in
    "") DIR_OF=/ ;;
    */*)
      p=${p%/*}
      while [[ $p == */ ]]; do p=${p%/}; done
      DIR_OF=${p:-/} ;;
    *) DIR_OF=. ;;
  esac
}

# PSF_ROOT: the directory above this script's, as `cd "$DIR_OF/.." && pwd`
# names it (the logical path, its links kept). When the script's directory
# is named without ".." and "//" (as it nearly always is), that is the
# name's own parent, taken by the shell itself (a relative name put after
# $PWD, as cd does, and its "." steps dropped); else cd and pwd name it, in
# the fork of a command substitution.
dir_of "${BASH_SOURCE[0]}"
root_of() {
  local p=$DIR_OF
  case $p in /*) ;; *) p=${PWD:-}/$p ;; esac
  while [[ $p == */./* ]]; do p=${p//\/.\//\/}; done
  [[ $p == */. ]] && p=${p%/.}
  PSF_ROOT=""
  case $p in /*/*) ;; *) return 1 ;; esac
  case $p in *//* | */.. | */../* | */) return 1 ;; esac
  [ -d "$p" ] || return 1
  PSF_ROOT=${p%/*}
}
root_of || PSF_ROOT=$(cd "$DIR_OF/.." && pwd)
BUILD=${PSF_BUILD:-$PSF_ROOT/build}
# absolute: the JVM needs an absolute -agentpath, and the run changes directory
case $BUILD in /*) ;; *) BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || BUILD=$PWD/${PSF_BUILD} ;; esac
AGENT=$BUILD/libpsfagent.so
SCORER=$BUILD/psf-score
RECEIVER=$BUILD/psf-receive
# The JVM configuration and the limits stay here, in this file, where the
# tests and the benchmarks read them (tests/integration/lib.sh, bench/).
#
# The JVM flags every scored run uses, and why (docs/determinism.md):
#   -XX:-UseTLAB                  every allocation reaches the agent: exact array sizes
#   -XX:+UseSerialGC              no parallel GC threads whose count depends on the machine
#   -XX:ActiveProcessorCount=1    thread pools, GC and compiler threads sized the same everywhere
#   -XX:-UseDynamicNumberOfCompilerThreads  compiler threads created at start, always the same number
#   -Xshare:auto                  the JDK's class-data-sharing archive, when it has one: without
#                                 it, start-up races change the main thread's identity hash codes
#                                 (2 runs in 15 differed here); the profile records whether it was used
#   -Xms/-Xmx                     the same heap everywhere: GC timing and SoftReference clearing
#   -XX:SoftRefLRUPolicyMSPerMB=100000000  a soft reference is cleared only when the heap is all
#                                 but full, never because of the wall-clock time since its last use
#   -Xss256m                      every Java thread's stack (main's too: the launcher runs main on a
#                                 thread of this size), the same for both engines: sixteen times the
#                                 modelled stack that decides where a counted recursion ends
#                                 (agent/core/stackmodel.h; 123,361 frames of the smallest method);
#                                 reserved, touched only as deep as the program goes
#                                 (docs/determinism.md, "The stack"). VMEM_KB makes room for it
#   -Duser.* -Dfile.encoding ... the same locale, time zone and encodings everywhere
#   -XX:DisableIntrinsic=...      clock reads reach the agent's virtual clock even from compiled code
#   -XX:...Size caps              memory outside the heap is bounded too (code cache, metaspace, direct)
#   -Xlog:jni+resolve=off         the agent re-binds System's natives; the JVM would warn on stdout
#   -XX:+DisableAttachMechanism   no agent can attach to the JVM (not even the program to itself)
#   -XX:-UseCRC32Intrinsics -XX:-UseCRC32CIntrinsics  the interpreter runs CRC32 and CRC32C as
#                                 stubs no native binding sees: CRC32 then calls its native, which
#                                 the agent charges by size, and CRC32C runs as bytecode
#   -XX:-UsePerfData              no hsperfdata counters (real times of JIT, GC, class loading) the
#                                 program could read, and no file in /tmp
#   (not --limit-modules: it would keep sun.misc.Unsafe out, but it also switches the CDS
#    archive off, and with it determinism; see -Xshare:auto. The agent disarms Unsafe instead.)
# shellcheck disable=SC2054 # commas inside single flags (-XX:CompileCommand=...)
PINNED_FLAGS=(
  -XX:-UseTLAB
  -XX:+UseSerialGC
  -XX:ActiveProcessorCount=1
  -XX:-UseDynamicNumberOfCompilerThreads
  -XX:SoftRefLRUPolicyMSPerMB=100000000
  -Xshare:auto
  -Xss256m
  -Duser.language=en -Duser.country=US -Duser.variant=
  -Duser.timezone=UTC
  -Dfile.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -Dsun.stderr.encoding=UTF-8
  -Dsun.jnu.encoding=UTF-8
  -XX:+UnlockDiagnosticVMOptions -XX:DisableIntrinsic=_nanoTime,_currentTimeMillis
  -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=256m -XX:CompressedClassSpaceSize=128m
  -XX:MaxDirectMemorySize=64m
  -Xlog:jni+resolve=off
  -XX:+DisableAttachMechanism
  -XX:-UsePerfData
  -XX:-UseCRC32Intrinsics -XX:-UseCRC32CIntrinsics
)
# The JIT of every scoring run, set for the fast engine (docs/fast-engine.md, "The JIT"):
#   -XX:TieredStopAtLevel=1       C1 without profiling, no C2: C2 compiles the probe-heavy code
#                                 slowly (often not before a short run ends), and until then the
#                                 probes are calls from C1's profiling code
#   -XX:C1MaxInlineSize=200       C1 inlines the probes' bodies (the largest hot one has 167 bytes)
#   -XX:CICompilerCount=2         the two compiler threads the step engine's runs get (ergonomic,
#                                 with ActiveProcessorCount=1); C1 alone would get one on JDK 25,
#                                 and each compiler thread takes a thread id and draws from the
#                                 sequence that seeds identity hash codes
# They change no count (the probes count, in every tier; the step engine counts in the
# interpreter), and thread ids and identity hash codes stay as with the default JIT. Both
# engines' runs get them: the program can read its JVM's command line (/proc/self/cmdline,
# RuntimeMXBean, VM options), which must not depend on the engine that counts it.
JIT_FLAGS=(
  -XX:TieredStopAtLevel=1
  -XX:C1MaxInlineSize=200
  -XX:CICompilerCount=2
)
# Limits a grading server can rely on (each one has an option):
DEFAULT_HEAP=512m
DEFAULT_TIMEOUT=60                # seconds of wall clock for the whole JVM run
DEFAULT_MAX_BYTECODES=300000000   # about 30 s of single-stepping
DEFAULT_MAX_THREADS=64            # threads the measured code may start
DEFAULT_MAX_OUTPUT=1048576        # bytes of program output (stdout + stderr)
MAX_RESULT_BYTES=67108864         # the agent's result channel (a profile is far smaller)

# The parts, found beside this script wherever it is called from. Those the
# arguments need come first; the others once the arguments passed, so that a
# usage error or --help is as quick as when this was one file (bash reads a
# script only as far as it runs). A part that cannot be read (an incomplete
# copy of PSF) ends the run as internal_error, exit code 70: before the
# arguments are parsed by part_missing, as fail does when psf-score is
# missing; after, by fail itself.
# part_missing PART ARGS...: PART of scripts/lib cannot be read; ARGS are the
# script's, for --json.
part_missing() {
  local part=$1 arg
  shift
  echo "get_score.sh: PSF is incomplete: no $PSF_ROOT/scripts/lib/$part" >&2
  for arg in "$@"; do
    [ "$arg" = -- ] && break
    if [ "$arg" = --json ]; then
      printf '{"status":"internal_error","score":null,"message":"PSF is incomplete: no scripts/lib/%s"}\n' "$part"
      break
    fi
  done
  exit 70
}
# shellcheck source=lib/jdk.sh # the JDK policy, shared with the tests
# shellcheck source=lib/jdk.sh
. "$PSF_ROOT/scripts/lib/jdk.sh" || part_missing jdk.sh "$@"
# shellcheck source=lib/judge.sh # the scored run's output judged
# shellcheck source=lib/judge.sh
. "$PSF_ROOT/scripts/lib/judge.sh" || part_missing judge.sh "$@"
# shellcheck source=lib/outputs.sh # fail (error result, exit code), output files
# shellcheck source=lib/outputs.sh
. "$PSF_ROOT/scripts/lib/outputs.sh" || part_missing outputs.sh "$@"
# shellcheck source=lib/options.sh # the command line, --help
# shellcheck source=lib/options.sh
. "$PSF_ROOT/scripts/lib/options.sh" || part_missing options.sh "$@"

# --- arguments: all checked before anything runs ------------------------------
parse_args "$@"
check_args
[ "$CHECK_OPTIONS" = 0 ] || { check_outputs; check_options_compare; exit 0; }
RUN_ENGINE=$ENGINE  # the engine of the next run: fast falls back to step for good
FALLBACK=""         # why it did

# shellcheck source=lib/scorer.sh # psf-score asked in the background, the cost table
# shellcheck source=lib/scorer.sh
. "$PSF_ROOT/scripts/lib/scorer.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/scorer.sh"
# shellcheck source=lib/classpath.sh # the class path resolved
# shellcheck source=lib/classpath.sh
. "$PSF_ROOT/scripts/lib/classpath.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/classpath.sh"
# shellcheck source=lib/signing.sh # the key, the submission's digests
# shellcheck source=lib/signing.sh
. "$PSF_ROOT/scripts/lib/signing.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/signing.sh"
# shellcheck source=lib/jdk_check.sh # which java, and whether it may score
# shellcheck source=lib/jdk_check.sh
. "$PSF_ROOT/scripts/lib/jdk_check.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/jdk_check.sh"
# shellcheck source=lib/scratch.sh # scratch directory, traps, sweeper
# shellcheck source=lib/scratch.sh
. "$PSF_ROOT/scripts/lib/scratch.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/scratch.sh"
# shellcheck source=lib/sandbox.sh # bubblewrap, the run's guard
# shellcheck source=lib/sandbox.sh
. "$PSF_ROOT/scripts/lib/sandbox.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/sandbox.sh"
# shellcheck source=lib/run.sh # the JVM runs, the fast engine's fallback
# shellcheck source=lib/run.sh
. "$PSF_ROOT/scripts/lib/run.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/run.sh"
# shellcheck source=lib/result.sh # the result scored and printed
# shellcheck source=lib/result.sh
. "$PSF_ROOT/scripts/lib/result.sh" || fail internal_error "PSF is incomplete: no $PSF_ROOT/scripts/lib/result.sh"

# --- what can start early starts in the background -------------------------------
name_key            # the key file named (its path is resolved with the others)
sandbox_early_paths # what the sandbox shows of the system; the paths its key check resolves
start_jdk_probe     # the JDK's version (without a release file); the cost table's check asked;
                    # the launcher, the class path and the paths above resolved
start_probes        # whether setpriv and bubblewrap work here
check_outputs
resolve_classpath
prepare_key         # the key's check asked
# The submission's digests need neither the JDK's version nor the cost
# table: they are asked now (while the version probe runs, if one does),
# with the launcher resolved above and used from here on.
SUBMISSION_DIGESTS=""
[ -z "$JAVA_REAL" ] || [ -z "$KEY_FILE" ] || ask_digests
ask_tsc             # this machine's TSC rate, for the result
start_answers       # all of them, of one psf-score (scripts/lib/scorer.sh)

# --- the JDK and the cost table; from here on an error is reported signed -----
# (the table's check answers while the scratch directory is made: its answer
# is read where the sandbox is decided, or by an earlier failure)
check_jdk
SUBMISSION_PENDING=1
heap_kb "$HEAP"
# the address space: the heap, 2 GiB for the JVM's own, and a stack of
# PINNED_FLAGS' -Xss for each thread the program may start and for the
# JVM's own Java threads (16: main, reference handler, finalizer, ...)
VMEM_KB=$HEAP_KB
for f in "${PINNED_FLAGS[@]}"; do
  case $f in -Xss*) heap_kb "${f#-Xss}"; VMEM_KB=$((VMEM_KB + (MAX_THREADS + 16) * HEAP_KB)) ;; esac
done
heap_kb "$HEAP"
VMEM_KB=$((VMEM_KB + 2 * 1024 * 1024))

# --- scratch directory, guard, sandbox ---------------------------------------------
setup_scratch
setup_guard
decide_sandbox      # (reads the key's check first)
sandbox_binds

# --- the runs and the result -------------------------------------------------------
score_options
# (the submission's digests, taken in the background since the key was
# ready, are read now at the latest: before the program runs)
[ -z "$SUBMISSION_PENDING" ] || submission_fields
run_all
print_result
