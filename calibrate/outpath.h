/*
 * outpath.h - the calibrator's output paths (--out, --report), checked
 * before a run that takes minutes rather than after it.
 *
 * A table and a report are written to a temporary file beside the path and
 * renamed over it, so a reader sees the old file or the whole new one. A
 * rename replaces whatever the path names, so only a regular file (or
 * nothing) is replaced; "/dev/null" asks for the output to be discarded
 * (the table is still written and validated, in the work directory).
 */
#ifndef PSF_CALIBRATE_OUTPATH_H
#define PSF_CALIBRATE_OUTPATH_H

#include <stddef.h>

#include "replace.h" /* replace_discards, replace_refused: asked again before each rename */

/*
 * Whether PATH may be written: /dev/null, or a path that is no symbolic
 * link, directory, FIFO, device or socket, in a directory that exists and
 * is writable. 0, or -1 with the reason in MSG (N bytes), naming OPT (the
 * option that gave the path).
 */
int outpath_check(const char *opt, const char *path, char *msg, size_t n);

#endif
