#!/usr/bin/env bash
# fast_plain.sh - the target of a scoring run within 2x of plain java: the whole `scripts/get_score.sh
# --json --engine fast` run of a merge sort of 100,000 Integers
# (bench/java/EngineBench.java) against the plain `java` run of the same
# program, side by side, and where the scoring run's time goes.
#
# Each round runs, in turn:
#   plain     java -cp ... EngineBench mergeSort 100000, the JDK's defaults
#   fast      get_score.sh --json --engine fast (sandbox, signing, psf-score)
#   step      get_score.sh --json --engine step, for reference (PSF_BENCH_STEP=0: left out)
# and, for the breakdown, the JVM alone as get_score.sh starts it (its
# environment, flags and heap; no sandbox, no signing):
#   jvm       no agent                                   (jvm-1: mergeSort 1)
#   agent     the agent, engine=fast, profile to a file  (agent-1: mergeSort 1)
#   idle      the agent, engine=fast, measuring a method the program never
#             calls: every class rewritten, the probes run, nothing counted
# then, untimed: `agent` with the JVM's class-loading log (-Xlog:class+load,
# uptime stamps: the probe class defined at VMInit, the end of the
# retransformation of the classes loaded before, the main class and the
# sort's class loaded, the JVM's shutdown), and get_score.sh traced (bash
# -x, a time stamp a command: when it starts the JVM, when it has waited for
# it). Prints the median wall time of each command and, but for
# get_score.sh's (its sandbox's processes are not its children), its CPU
# time (user + sys, /usr/bin/time); the ratios fast/plain, fast/jvm and
# step/fast taken round by round (pairs keep a ratio meaningful while the
# machine's speed drifts); the breakdown: medians of each round's
# differences and of the stamps (get_score.sh's own share from the traced
# run: its sandboxed JVM, the result on a pipe, is not quite the `agent`
# run, and the difference of their whole runs is no measure of it); and,
# where perf works (PSF_BENCH_PERF=0: not asked), one agent-1 and one agent
# run's perf samples by shared object and by thread. Both engines must give
# the same score (it says so when they do not).
# The machine is shared and noisy: read the medians and the ratios, not
# one run. Not a test: nothing here passes or fails.
#
# What it prints is also written, with the machine, its load, the date,
# the JDK and PSF's commit, to the benchmark page docs/bench/fast-plain.md
# (--page FILE: elsewhere; --no-page: nowhere).
#
# Usage: bench/fast_plain.sh [--page FILE | --no-page] [REPEAT]   (default 15:
#        on a shared 2-core machine, two 5-round runs minutes apart gave
#        fast/plain 3.68 and 5.52; about 5 minutes)
#        make bench-plain
set -eu
. "$(dirname "$0")/lib.sh"
bench_page_opt docs/bench/fast-plain.md "$@"
shift "$PAGE_SHIFT"
REPEAT=${1:-15}
N=100000
BB=$BUILD/bench/java
bench_need bench-plain "$BUILD/libpsfagent.so" "$BUILD/psf-score" "$BB/EngineBench.class" /usr/bin/time
command -v jq >/dev/null || { echo "fast_plain.sh: jq is missing" >&2; exit 1; }
bench_tmp
cd "$TMP"
mapfile -t FLAGS < <(gs_array PINNED_FLAGS)
mapfile -t JIT < <(gs_array JIT_FLAGS)
mapfile -t JDK_FLAGS < <(jdk_flags)
HEAP=$(sed -n 's/^DEFAULT_HEAP=\([0-9a-z]*\).*/\1/p' "$GS")
# the JVM as get_score.sh starts it (scripts/lib/run.sh): its environment,
# its flags, its heap; no sandbox, no signing
JVM=(env -i PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC HOME="$TMP" MALLOC_ARENA_MAX=8
  "$(command -v "$JAVA")" "${FLAGS[@]}" "${JDK_FLAGS[@]}" "${JIT[@]}" "-Xms$HEAP" "-Xmx$HEAP")
# a key of this bench's own, so that no key of the user's is created or used
KEY=$TMP/result.key

# wall KIND COMMAND...: one run; appends its wall seconds to $TMP/KIND and
# its CPU seconds (user + sys, /usr/bin/time) to $TMP/KIND.cpu, its output
# to $TMP/KIND.out (a failed run is said, and still counted)
wall() {
  local kind=$1 t0 rc=0
  shift
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%U %S' -o "$TMP/time" "$@" >"$TMP/$kind.out" 2>&1 || rc=$?
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", b - a }' >>"$TMP/$kind"
  awk 'NF == 2 { u = $1; s = $2 } END { printf "%.2f\n", u + s }' "$TMP/time" >>"$TMP/$kind.cpu"
  [ "$rc" -eq 0 ] || echo "warning: $kind: exit code $rc: $(head -c 200 "$TMP/$kind.out")" >&2
}
PLAIN=("$JAVA" -cp "$BB" EngineBench mergeSort "$N")
SCORE=("$GS" --json --key-file "$KEY" --classpath "$BB" --main EngineBench --method EngineBench.mergeSort)
# agent_opt METHOD: the agent measuring METHOD, engine=fast, the profile to a file
agent_opt() {
  echo "-agentpath:$BUILD/libpsfagent.so=method=$1,out=$TMP/profile.xml,clock=virtual,processes=deny,engine=fast"
}

# stamp FILE TEXT [last]: the uptime (s) of the first line of the
# class-loading log FILE that holds TEXT; of the last one with `last`
stamp() {
  awk -v s="$2" -v last="${3:-}" \
    'index($0, s) { t = substr($1, 2) + 0; if (!last) { print t; exit } } END { if (last) print t }' "$1"
}
# logged: one agent run with the class-loading log; appends its stamps to
# $TMP/log.NAME
logged() {
  local log=$TMP/classload.log
  "${JVM[@]}" "-Xlog:class+load=info:file=$log:uptime" "$(agent_opt EngineBench.mergeSort)" -cp "$BB" \
    EngineBench mergeSort "$N" >/dev/null 2>&1 || true
  stamp "$log" ' java.lang.Probe' >>"$TMP/log.vminit"
  stamp "$log" ' source: __VM_RedefineClasses__' last >>"$TMP/log.retransformed"
  stamp "$log" ' EngineBench source:' >>"$TMP/log.main"
  stamp "$log" " EngineBench\$MergeSort source:" >>"$TMP/log.sort"
  stamp "$log" ' java.lang.Shutdown source:' >>"$TMP/log.shutdown"
}
# traced: one get_score.sh --engine fast run under bash -x, a time stamp a
# command; appends to $TMP/trace.parts the seconds from the start to the
# JVM's start (the script has its process id), from there until it is back
# from waiting for it, and from there to the end
traced() {
  local t0 trace=$TMP/trace
  t0=$EPOCHREALTIME
  # (PS4 is set inside: bash run as root takes none from the environment)
  # shellcheck disable=SC2016 # expanded by that bash
  bash -c 'PS4="+\${EPOCHREALTIME} "; set -x; . "$0" "$@"' "${SCORE[@]}" --engine fast -- mergeSort "$N" \
    >/dev/null 2>"$trace" || true
  local t1=$EPOCHREALTIME
  awk -v t0="$t0" -v t1="$t1" '
    /^\++[0-9]/ { sub(/^\++/, ""); t = $1 + 0
                  if ($2 == "local" && $3 ~ /^jvm_pid=/ && !jvm) jvm = t
                  if ($2 ~ /^RUN_RC=/ && !back) back = t }
    END { printf "%.4f %.4f %.4f\n", jvm - t0, back - jvm, t1 - back }' "$trace" >>"$TMP/trace.parts"
}

KINDS=(plain fast jvm jvm-1 agent agent-1 idle)
[ "${PSF_BENCH_STEP:-1}" = 0 ] || KINDS+=(step)
for k in "${KINDS[@]}"; do : >"$TMP/$k"; done
"${SCORE[@]}" --engine fast -- mergeSort "$N" >/dev/null 2>&1 || true # warm-up: the key, the file cache
for _ in $(seq "$REPEAT"); do
  wall plain "${PLAIN[@]}"
  wall fast "${SCORE[@]}" --engine fast -- mergeSort "$N"
  wall jvm "${JVM[@]}" -cp "$BB" EngineBench mergeSort "$N"
  wall jvm-1 "${JVM[@]}" -cp "$BB" EngineBench mergeSort 1
  wall agent "${JVM[@]}" "$(agent_opt EngineBench.mergeSort)" -cp "$BB" EngineBench mergeSort "$N"
  wall agent-1 "${JVM[@]}" "$(agent_opt EngineBench.mergeSort)" -cp "$BB" EngineBench mergeSort 1
  wall idle "${JVM[@]}" "$(agent_opt EngineBench.notCalled)" -cp "$BB" EngineBench mergeSort "$N"
  [ "${PSF_BENCH_STEP:-1}" = 0 ] || wall step "${SCORE[@]}" --engine step -- mergeSort "$N"
  logged
  traced
done

sf=$(jq -r .score "$TMP/fast.out" 2>/dev/null || echo none)
engine=$(jq -r '.engine + (if .fallback then " (fell back: " + .fallback[0:90] + ")" else "" end)' "$TMP/fast.out" 2>/dev/null || echo "?")
if [ -s "$TMP/step" ]; then
  ss=$(jq -r .score "$TMP/step.out" 2>/dev/null || echo none)
  [ "$sf" = "$ss" ] || echo "warning: --engine fast scored $sf, --engine step $ss" >&2
fi
# ratio A B: the median of A's and B's round-by-round ratio
ratio() { paste -d' ' "$TMP/$1" "$TMP/$2" | awk '{ print $1 / $2 }' | median; }
# diff A B: the median of A - B, round by round
diff_med() { paste -d' ' "$TMP/$1" "$TMP/$2" | awk '{ print $1 - $2 }' | median; }
m() { median <"$TMP/$1"; }
col() { awk -v c="$1" '{ print $c }' "$TMP/trace.parts" | median; }

bench_page_begin "$PAGE_FILE" "Benchmark: the fast engine's scoring run against the plain java run" \
  "bench/fast_plain.sh $REPEAT"
printf 'MergeSort of %s Integers (EngineBench.mergeSort), score %s, engine of the fast run: %s\n\n' "$N" "$sf" "$engine"
printf '%-8s %8s %8s   %s\n' command "wall s" "cpu s" "what runs"
# row KIND TEXT: KIND's median wall and CPU seconds (get_score.sh's runs: no
# CPU, their sandbox's processes are not its children's)
row() {
  local cpu=-
  case $1 in fast | step) ;; *) cpu=$(printf '%.2f' "$(m "$1.cpu")") ;; esac
  printf '%-8s %8.3f %8s   %s\n' "$1" "$(m "$1")" "$cpu" "$2"
}
row plain "java -cp . EngineBench mergeSort $N (the JDK's defaults)"
row fast "get_score.sh --json --engine fast"
row jvm "the JVM with get_score.sh's flags, no agent"
row jvm-1 "the same, mergeSort 1"
row agent "the JVM with get_score.sh's flags and the agent (engine=fast)"
row agent-1 "the same, mergeSort 1"
row idle "the agent measuring a method the program never calls"
[ ! -s "$TMP/step" ] || row step "get_score.sh --json --engine step"
printf '\n%-44s %8s\n' ratio median
printf '%-44s %8.2f\n' "fast / plain (the target: 2 or less)" "$(ratio fast plain)" \
  "fast / jvm (get_score.sh's flags, no agent)" "$(ratio fast jvm)" \
  "jvm / plain (get_score.sh's flags alone)" "$(ratio jvm plain)"
[ ! -s "$TMP/step" ] || printf '%-44s %8.2f\n' "step / fast" "$(ratio step fast)"

printf '\nwhere the fast run goes (medians of each round'"'"'s difference)          wall s    cpu s\n'
# part TEXT A [B]: the median of A (- B) in wall and in CPU seconds
part() {
  local w c
  if [ -n "${3:-}" ]; then
    w=$(diff_med "$2" "$3")
    c=$([ "$2" = fast ] && echo - || printf '%.2f' "$(diff_med "$2.cpu" "$3.cpu")")
  else
    w=$(m "$2") c=$(printf '%.2f' "$(m "$2.cpu")")
  fi
  printf '  %-62s %8.3f %8s\n' "$1" "$w" "$c"
}
part "JVM start and exit, get_score.sh's flags (jvm-1)" jvm-1
part "the program's own work, no agent (jvm - jvm-1)" jvm jvm-1
part "the agent's fixed cost (agent-1 - jvm-1)" agent-1 jvm-1
part "the program's work with the agent (agent - agent-1)" agent agent-1
part "  of which counting: the extent's probes on (agent - idle)" agent idle
printf '\nthe agent run, by the class-loading log (median uptime s of each stamp)\n'
printf '  %-62s %8.3f\n' \
  "VMInit: the probe class defined" "$(m log.vminit)" \
  "the classes loaded before VMInit retransformed" "$(m log.retransformed)" \
  "the main class loaded" "$(m log.main)" \
  "the sort's class loaded (the measured method starts)" "$(m log.sort)" \
  "the JVM shuts down (the method and main have returned)" "$(m log.shutdown)"
paste -d' ' "$TMP/log.vminit" "$TMP/log.retransformed" | awk '{ print $2 - $1 }' >"$TMP/retransform"
printf '  %-62s %8.3f\n' "  the retransformation (its median length)" "$(m retransform)"
printf '\nget_score.sh --engine fast traced (bash -x; median s, slower than untraced)\n'
printf '  %-62s %8.3f\n' \
  "before the JVM: arguments, JDK, key, digests, sandbox set-up" "$(col 1)" \
  "the JVM in its sandbox, until the script has waited for it" "$(col 2)" \
  "after the JVM: the result received, psf-score, JSON printed" "$(col 3)"
awk '{ print $1 + $3 }' "$TMP/trace.parts" >"$TMP/script"
printf '  %-62s %8.3f\n' "  get_score.sh's own share: before + after" "$(m script)"
if command -v perf >/dev/null && [ "${PSF_BENCH_PERF:-1}" != 0 ]; then
  printf '\nthe agent runs by perf samples (cpu-clock), %% of each run'"'"'s samples by shared object and by thread\n'
  printf '  %-26s %9s %9s\n' "" agent-1 agent
  for n in 1 "$N"; do
    perf record -q -e cpu-clock -F 2000 -o "$TMP/perf.$n" "${JVM[@]}" "$(agent_opt EngineBench.mergeSort)" \
      -cp "$BB" EngineBench mergeSort "$n" >/dev/null 2>&1 || true
    # (the threads' names: comm, 15 characters)
    perf report -i "$TMP/perf.$n" --sort comm,dso --stdio 2>/dev/null | awk '
      /^ *[0-9.]+%/ { p = $1 + 0; t = $0; sub(/ +$/, "", t); sub(/^ *[0-9.]+% +/, "", t)
                      if (match(t, / +\[JIT\] tid [0-9]+$/)) d = "[JIT] (compiled code)"
                      else { match(t, / +[^ ]+$/); d = substr(t, RSTART); sub(/^ +/, "", d) }
                      t = substr(t, 1, RSTART - 1)
                      s[d] += p; c["thread " t] += p }
      END { for (d in s) printf "%s\t%.1f\n", d, s[d]; for (t in c) printf "%s\t%.1f\n", t, c[t] }' |
      sort >"$TMP/dso.$n"
  done
  join -t "$(printf '\t')" -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$TMP/dso.1" "$TMP/dso.$N" | sort -t "$(printf '\t')" -k3,3gr >"$TMP/dso"
  grep -v '^thread ' "$TMP/dso" | awk -F '\t' '$2 >= 1 || $3 >= 1 { printf "  %-26s %9.1f %9.1f\n", $1, $2, $3 }'
  grep '^thread ' "$TMP/dso" | awk -F '\t' '$2 >= 1 || $3 >= 1 { printf "  %-26s %9.1f %9.1f\n", $1, $2, $3 }'
fi
echo "(medians over $REPEAT round(s); ratios (of wall times) and differences: medians of each round's)"
bench_page_end "Each round runs, in turn, the plain program (\`java\` with the JDK's defaults, no agent), \`scripts/get_score.sh --json --engine fast\` (sandbox, signing and \`psf-score\` included), the same JVM as get_score.sh starts it but alone (no sandbox) with and without the agent, at 100,000 elements and at 1 (the difference is the program's work), the agent measuring a method that is never called (every class rewritten, the probes idle), and \`--engine step\` for reference; then, untimed, an agent run with the JVM's class-loading log and a traced get_score.sh run, for the stamps. The perf rows are shares of one run's samples: in \`agent-1\`, \`libpsfagent.so\` is mostly the rewriting of classes (the ClassFileLoadHook) and \`libjvm.so\` mostly HotSpot's class loading and retransformation (its merge of the old and new constant pools); in \`agent\`, \`[JIT]\` is the program's compiled code with its probes. The machine is shared: its speed drifts from minute to minute, so read the ratios, taken round by round, rather than single times; wall times under load run at several times the CPU times." \
  "Why the fast engine costs what it costs: [the fast engine](../fast-engine.md); the script's own share on a small method: [get-score-overhead.md](get-score-overhead.md)."
