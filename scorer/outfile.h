/*
 * outfile.h - writing a whole output file (a JUnit report, an HTML page)
 * so that a reader sees no file or a complete one.
 */
#ifndef PSF_OUTFILE_H
#define PSF_OUTFILE_H

#include <stddef.h>

#include "err.h"

/* Write len bytes to path through a temporary file beside it (mode 0644)
 * and a rename. Only a regular file (or nothing) at path is replaced: a
 * directory, FIFO, device, socket or symbolic link there is left alone and
 * is an error. "/dev/null" discards: returns 0, writes nothing. On failure
 * returns -1 with err (ST_INTERNAL_ERROR) saying "cannot write the WHAT
 * PATH: reason" and leaves no temporary file. */
int outfile_write(const char *path, const void *bytes, size_t len, const char *what, psf_err *err);

#endif
