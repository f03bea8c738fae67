/*
 * write_all.h - all of a buffer written to a file descriptor, through short
 * writes and EINTR (the agent's result channel, psf-score --batch's answers).
 */
#ifndef PSF_WRITE_ALL_H
#define PSF_WRITE_ALL_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

/* 0 when all n bytes of p are written to fd, -1 otherwise. */
static inline int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

#endif
