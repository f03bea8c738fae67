/*
 * replace.h - what a whole-file write (a temporary file renamed over the
 * path) may replace: the psf-score outputs (scorer/outfile.c) and the
 * calibrator's table and report (calibrate/outpath.c) follow one rule.
 */
#ifndef PSF_REPLACE_H
#define PSF_REPLACE_H

#include <string.h>
#include <sys/stat.h>

/* Whether PATH is /dev/null, spelled so: the output is discarded, never a temporary file in /dev. */
static inline int replace_discards(const char *path)
{
    return strcmp(path, "/dev/null") == 0;
}

/*
 * Whether something other than a regular file is at PATH now (a directory,
 * FIFO, device, socket or symbolic link): not ours to rename over. Asked
 * again right before each rename.
 */
static inline int replace_refused(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

#endif
