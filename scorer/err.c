/*
 * err.c - psf_fail() and allocation helpers (see err.h).
 */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int psf_fail(psf_err *err, psf_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->status = status;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void out_of_memory(void)
{
    fputs("psf-score: out of memory\n", stderr);
    exit(70);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

void xgrow(void **arr, size_t *cap, size_t need, size_t elsize)
{
    if (need < *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap <= need) {
        if (ncap > ((size_t)-1) / 2 / elsize)
            out_of_memory();
        ncap *= 2;
    }
    *arr = xrealloc(*arr, ncap * elsize);
    *cap = ncap;
}
