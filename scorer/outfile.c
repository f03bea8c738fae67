/*
 * outfile.c - atomic whole-file writes (see outfile.h).
 */
#include "outfile.h"
#include "replace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_write(const char *path, const void *bytes, size_t len, const char *what, psf_err *err)
{
    size_t n = strlen(path) + 16;
    char *tmp;
    FILE *f = NULL;
    int rc = 0;

    if (replace_discards(path))
        return 0; /* never a rename over the device */
    tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0 || fchmod(fd, 0644) != 0 || !(f = fdopen(fd, "w"))) {
        rc = psf_fail(err, ST_INTERNAL_ERROR, "cannot write the %s %s: %s", what, path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
    } else {
        int bad = fwrite(bytes, 1, len, f) != len;
        bad |= fclose(f) != 0;
        if (!bad && replace_refused(path)) {
            /* a directory, FIFO, device, socket or link appeared there */
            rc = psf_fail(err, ST_INTERNAL_ERROR, "cannot write the %s %s: it is not a regular file; left alone",
                          what, path);
            unlink(tmp);
        } else if (bad || rename(tmp, path) != 0) {
            rc = psf_fail(err, ST_INTERNAL_ERROR, "cannot write the %s %s: %s", what, path, strerror(errno));
            unlink(tmp);
        }
    }
    free(tmp);
    return rc;
}
