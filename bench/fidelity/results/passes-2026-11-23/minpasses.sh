#!/usr/bin/env bash
# minpasses.sh K DIR... - how far a kernel's lowest figure over K timing
# passes lies above its lowest over all the passes in DIR.../time.*.out.
#
# Every pass file has one line a kernel: `K name n1 n2 t1 t2 rounds`, and
# (t2 - t1) / (n2 - n1) is its cycles per iteration in that pass. For a
# kernel timed in N passes with sorted figures x_1 <= ... <= x_N, the lowest
# of K passes drawn at random is x_i with probability C(N-i, K-1) / C(N, K);
# this prints the median, 90th and 99th percentile of x_i / x_1 - 1 over all
# kernels and draws (exact, no sampling), and how many kernels spread more
# than 30% (x_N / x_1 > 1.3).
set -eu
[ $# -ge 2 ] || { echo "usage: minpasses.sh K DIR..." >&2; exit 2; }
K=$1; shift
for d in "$@"; do cat "$d"/time.*.out; done | awk -v K="$K" '
function lchoose(n, k) { return (k < 0 || k > n) ? -1e300 : lgamma_(n + 1) - lgamma_(k + 1) - lgamma_(n - k + 1) }
function lgamma_(x,   s, i) { s = 0; for (i = 2; i < x; i++) s += log(i); return s }
$1 == "K" { v[$2] = v[$2] " " ($6 - $5) / ($4 - $3) }
END {
  nk = 0; m = 0; wide = 0
  for (k in v) {
    n = split(substr(v[k], 2), x, " ")
    for (i = 1; i <= n; i++) x[i] += 0
    # insertion sort
    for (i = 2; i <= n; i++) { t = x[i]; j = i - 1; while (j >= 1 && x[j] > t) { x[j + 1] = x[j]; j-- } x[j + 1] = t }
    if (n < K) { printf "%s: %d passes, fewer than %d\n", k, n, K > "/dev/stderr"; exit 1 }
    N = n; nk++
    if (x[n] / x[1] > 1.3) wide++
    for (i = 1; i <= n - K + 1; i++) {
      w = exp(lchoose(n - i, K - 1) - lchoose(n, K))
      m++; dev[m] = x[i] / x[1] - 1; wt[m] = w
    }
  }
  # weighted quantiles: sort by deviation
  for (i = 2; i <= m; i++) { t = dev[i]; u = wt[i]; j = i - 1; while (j >= 1 && dev[j] > t) { dev[j + 1] = dev[j]; wt[j + 1] = wt[j]; j-- } dev[j + 1] = t; wt[j + 1] = u }
  split("0.5 0.9 0.99", q, " "); acc = 0; qi = 1
  for (i = 1; i <= m && qi <= 3; i++) {
    acc += wt[i] / nk
    while (qi <= 3 && acc >= q[qi] - 1e-12) { r[qi] = dev[i]; qi++ }
  }
  printf "%d kernels, %d passes each; lowest of %d: median %.1f%%, 90th %.1f%%, 99th %.1f%% above the lowest of all; %d kernels spread over 30%%\n", nk, N, K, 100 * r[1], 100 * r[2], 100 * r[3], wide
}'
