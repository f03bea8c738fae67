/*
 * nnls.h - non-negative least squares (Lawson and Hanson, "Solving Least
 * Squares Problems", 1974, chapter 23).
 *
 * Pure C, no allocation visible to the caller beyond what it passes in.
 * The calibrator uses it to find per-opcode costs x >= 0 minimising
 * |A x - b|, where each row of A is a kernel's per-iteration histogram and b
 * its measured cycles per iteration.
 */
#ifndef PSF_NNLS_H
#define PSF_NNLS_H

#include <stddef.h>

/*
 * Solve min |A x - b|_2 subject to x >= 0.
 *   a      m x n matrix, row-major (a[i * n + j]); not modified
 *   b      m right-hand sides; not modified
 *   x      out: n non-negative unknowns
 *   max_iter  bound on outer iterations (3 * n is the textbook choice)
 * Returns 0 on convergence, -1 when the iteration bound was hit (x then
 * holds the last feasible iterate), -2 on bad arguments or out of memory.
 * Columns that are entirely zero get x = 0.
 */
int nnls_solve(const double *a, const double *b, size_t m, size_t n,
               double *x, int max_iter);

/*
 * Unconstrained least squares over a subset of columns: min |A_S z - b|
 * where S = cols[0..k-1]. Householder QR with column checks: a column that
 * is (numerically) dependent on earlier ones gets z = 0. Writes z[0..k-1].
 * Returns 0, or -2 on out of memory. Exposed for tests.
 */
int nnls_lsq_subset(const double *a, const double *b, size_t m, size_t n,
                    const size_t *cols, size_t k, double *z);

#endif
