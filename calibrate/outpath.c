/*
 * outpath.c - the calibrator's output paths (see outpath.h).
 */
#include "outpath.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outpath_check(const char *opt, const char *path, char *msg, size_t n)
{
    struct stat st;
    size_t len = strlen(path);

    if (replace_discards(path))
        return 0;
    if (len == 0 || path[len - 1] == '/') {
        snprintf(msg, n, "%s '%s' names a directory, not a file", opt, path);
        return -1;
    }
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            snprintf(msg, n, "%s '%s' is a symbolic link; give the path of a regular file", opt, path);
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            snprintf(msg, n, "%s '%s' is a directory, not a file", opt, path);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(msg, n, "%s '%s' is not a regular file (a FIFO, device or socket is never replaced)", opt,
                     path);
            return -1;
        }
    } else if (errno != ENOENT) {
        snprintf(msg, n, "%s '%s': %s", opt, path, strerror(errno));
        return -1;
    }
    /* the directory the temporary file and the rename need */
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? strdup(".") : slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
    if (dir == NULL)
        abort();
    int rc = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(msg, n, "%s '%s': the directory '%s' does not exist", opt, path, dir);
        rc = -1;
    } else if (access(dir, W_OK | X_OK) != 0) {
        snprintf(msg, n, "%s '%s': the directory '%s' is not writable", opt, path, dir);
        rc = -1;
    }
    free(dir);
    return rc;
}
