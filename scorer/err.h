/*
 * err.h - errors as values, and the few allocation helpers.
 *
 * A failing function fills a psf_err (a status saying what kind of failure
 * and a message for a person, already naming the file and line) and returns
 * -1; only main() prints it and turns it into an exit code.
 */
#ifndef PSF_ERR_H
#define PSF_ERR_H

#include <stddef.h>

#include "status.h"

typedef struct psf_err {
    psf_status status;   /* ST_BAD_INPUT, ST_INTERNAL_ERROR, ... */
    char msg[1024];      /* one line, no trailing newline */
} psf_err;

/* Fill err (if not NULL) with status and a printf-style message; returns -1
 * so callers can write `return psf_fail(err, ...)`. */
int psf_fail(psf_err *err, psf_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* malloc/calloc/realloc/strdup that never return NULL: on exhaustion they
 * print one line and exit 70, since a scorer with no memory cannot report
 * anything more useful. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Grow *arr (of *cap elements of size elsize) so that index `need` fits. */
void xgrow(void **arr, size_t *cap, size_t need, size_t elsize);

#endif
