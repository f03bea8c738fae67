/*
 * errmsg.h - the caller-supplied error buffer of the pure modules.
 *
 * Pure modules report a failure as a sentence in a buffer the caller owns
 * (err, errlen; either may be empty), never by printing or exiting.
 */
#ifndef PSF_ERRMSG_H
#define PSF_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

__attribute__((format(printf, 3, 4)))
static inline void errmsg_set(char *err, size_t errlen, const char *fmt, ...)
{
    if (err == NULL || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

#endif
