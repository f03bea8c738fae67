/*
 * nnls.c - Lawson-Hanson active-set NNLS on top of a Householder QR
 * least-squares solver for the current passive set (see nnls.h).
 */
#include "nnls.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int nnls_lsq_subset(const double *a, const double *b, size_t m, size_t n,
                    const size_t *cols, size_t k, double *z)
{
    double *q = malloc((m * k + m + 1) * sizeof *q);
    size_t *piv = malloc((k + 1) * sizeof *piv);
    unsigned char *use = calloc(k + 1, 1);
    double *r;
    size_t row = 0;

    if (!q || !piv || !use) {
        free(q); free(piv); free(use);
        return -2;
    }
    r = q + m * k;
    for (size_t i = 0; i < m; i++) {
        r[i] = b[i];
        for (size_t j = 0; j < k; j++)
            q[i * k + j] = a[i * n + cols[j]];
    }
    for (size_t j = 0; j < k; j++) {
        double cn = 0, norm = 0, alpha, vn2 = 0;
        z[j] = 0;
        for (size_t i = 0; i < m; i++)
            cn += q[i * k + j] * q[i * k + j];   /* rows above `row` already reduced: |col| is kept */
        for (size_t i = row; i < m; i++)
            norm += q[i * k + j] * q[i * k + j];
        cn = sqrt(cn);
        norm = sqrt(norm);
        /* What is left below the pivot row is what this column adds to the
         * span of the earlier ones; nothing left means it is dependent. */
        if (row >= m || norm <= 1e-10 * cn || norm < DBL_MIN)
            continue;
        alpha = q[row * k + j] > 0 ? -norm : norm;
        q[row * k + j] -= alpha;                 /* v = x - alpha e1, stored in place */
        for (size_t i = row; i < m; i++)
            vn2 += q[i * k + j] * q[i * k + j];
        for (size_t c = j + 1; c <= k; c++) {    /* c == k: the right-hand side */
            double s = 0;
            for (size_t i = row; i < m; i++)
                s += q[i * k + j] * (c < k ? q[i * k + c] : r[i]);
            s = 2 * s / vn2;
            for (size_t i = row; i < m; i++) {
                if (c < k)
                    q[i * k + c] -= s * q[i * k + j];
                else
                    r[i] -= s * q[i * k + j];
            }
        }
        q[row * k + j] = alpha;                  /* R's diagonal */
        use[j] = 1;
        piv[j] = row++;
    }
    for (size_t jj = k; jj-- > 0;) {
        double s;
        if (!use[jj])
            continue;
        s = r[piv[jj]];
        for (size_t c = jj + 1; c < k; c++)
            if (use[c])
                s -= q[piv[jj] * k + c] * z[c];
        z[jj] = s / q[piv[jj] * k + jj];
    }
    free(q); free(piv); free(use);
    return 0;
}

/* w = A^T (b - A x) */
static void gradient(const double *a, const double *b, size_t m, size_t n,
                     const double *x, double *resid, double *w)
{
    for (size_t i = 0; i < m; i++) {
        double s = b[i];
        for (size_t j = 0; j < n; j++)
            s -= a[i * n + j] * x[j];
        resid[i] = s;
    }
    for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++)
            s += a[i * n + j] * resid[i];
        w[j] = s;
    }
}

int nnls_solve(const double *a, const double *b, size_t m, size_t n,
               double *x, int max_iter)
{
    double *w, *resid, *z;
    size_t *pset;
    unsigned char *in_p, *blocked;
    size_t np = 0;
    double anorm = 0, tol;
    int iter = 0, rc = 0;

    if (!a || !b || !x || m == 0 || n == 0)
        return -2;
    w = malloc(n * sizeof *w);
    resid = malloc(m * sizeof *resid);
    z = malloc(n * sizeof *z);
    pset = malloc(n * sizeof *pset);
    in_p = calloc(n, 1);
    blocked = calloc(n, 1);
    if (!w || !resid || !z|| !pset || !in_p || !blocked) {
        rc = -2;
        goto out;
    }
    memset(x, 0, n * sizeof *x);
    for (size_t i = 0; i < m * n; i++)
        anorm = fmax(anorm, fabs(a[i]));
    tol = 10 * DBL_EPSILON * anorm * (double)(m > n ? m : n) * (anorm > 0 ? 1 : 0);

    for (;;) {
        size_t t = n;
        double best = 0;
        gradient(a, b, m, n, x, resid, w);
        for (size_t j = 0; j < n; j++) {
            if (!in_p[j] && !blocked[j] && w[j] > tol && w[j] > best) {
                best = w[j];
                t = j;
            }
        }
        if (t == n)
            break;                         /* Kuhn-Tucker conditions hold */
        if (++iter > max_iter) {
            rc = -1;
            break;
        }
        in_p[t] = 1;
        pset[np++] = t;
        for (int first = 1;; first = 0) {
            int all_pos = 1;
            double alpha = 1;
            if (nnls_lsq_subset(a, b, m, n, pset, np, z) != 0) {
                rc = -2;
                goto out;
            }
            /* A new column that cannot move the fit in its positive
             * direction (dependent on the passive set): park it. */
            if (first && z[np - 1] <= 0) {
                in_p[t] = 0;
                np--;
                blocked[t] = 1;
                break;
            }
            for (size_t k = 0; k < np; k++)
                if (z[k] <= 0) {
                    double xj = x[pset[k]];
                    double den = xj - z[k];
                    double al = den > 0 ? xj / den : 0;
                    all_pos = 0;
                    if (al < alpha)
                        alpha = al;
                }
            if (all_pos) {
                for (size_t k = 0; k < np; k++)
                    x[pset[k]] = z[k];
                memset(blocked, 0, n);     /* progress made: reconsider parked columns */
                break;
            }
            for (size_t k = 0; k < np; k++)
                x[pset[k]] += alpha * (z[k] - x[pset[k]]);
            /* Drop passive columns that reached zero (keeping the order). */
            {
                size_t keep = 0;
                for (size_t k = 0; k < np; k++) {
                    if (x[pset[k]] <= tol) {
                        x[pset[k]] = 0;
                        in_p[pset[k]] = 0;
                    } else {
                        pset[keep++] = pset[k];
                    }
                }
                np = keep;
            }
            if (np == 0)
                break;
            if (++iter > max_iter) {
                rc = -1;
                goto out;
            }
        }
    }
out:
    free(w); free(resid); free(z); free(pset); free(in_p); free(blocked);
    return rc;
}
