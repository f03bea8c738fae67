/*
 * submission.h - the digests that identify a submission, which get_score.sh
 * has signed with every result (docs/trust-model.md, "What is signed"):
 *
 *   classpath_sha256  what the class path holds, in order (the listing below)
 *   main_sha256       the main class as given
 *   method_sha256     the method spec as given
 *   args_sha256       the program's arguments, each followed by a NUL byte
 *   jdk_sha256        the java launcher's resolved path, a newline, and the
 *                     bytes of the release file beside its directory
 *
 * The listing is, byte for byte, the text get_score.sh hashed when it took
 * it with find, sort and sha256sum (GNU coreutils 9 and findutils, C
 * locale), so a submission keeps its digest:
 *
 *   for a jar (a regular file):  "file " SHA256 "\n"   ("file \n" when unreadable)
 *   for a directory:             "dir\n", then, when it can be entered and read,
 *     every regular file under it, not following links, sorted by its path
 *     ("./pkg/A.class", bytes compared) as sha256sum prints it:
 *       SHA256 "  " PATH "\n", or "\\" SHA256 "  " PATH "\n" with '\\', '\n'
 *       and '\r' of PATH written as "\\\\", "\\n" and "\\r";
 *     a file that cannot be read has no line (and a message on stderr); when
 *     every file was read, every symbolic link under it as "link PATH ->
 *     TARGET\n", the text cut into lines at '\n' and the lines sorted (bytes
 *     compared).
 *
 * A directory that cannot be opened, or that is its own ancestor (a loop of
 * bind mounts), is skipped with a message on stderr, as find skips it.
 */
#ifndef PSF_SUBMISSION_H
#define PSF_SUBMISSION_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

/* The listing of a class path (resolved entries, ':'-separated; empty
 * entries are skipped) into *text (malloc'd, *len bytes, NUL-terminated).
 * Problems reading it go to errs as they would have from find and
 * sha256sum (one line each, prefixed "psf-score: ") and only change the
 * listing as they changed it; returns -1 with err only when out of file
 * descriptors or the text would not fit in memory. */
int submission_classpath_listing(const char *classpath, char **text, size_t *len, FILE *errs,
                                 psf_err *err);

/* What identifies one submission (see above). */
typedef struct submission {
    const char *classpath;   /* resolved entries, ':'-separated */
    const char *main_class;  /* --main as given */
    const char *method;      /* --method as given */
    const char *jdk;         /* the java launcher's resolved path */
    char *const *args;       /* the program's arguments */
    int n_args;
} submission;

/* The five digests as signed fields, "classpath_sha256=... main_sha256=...
 * method_sha256=... args_sha256=... jdk_sha256=...", into out (n bytes;
 * SUBMISSION_DIGESTS_LEN suffice). Returns 0, or -1 with err. */
#define SUBMISSION_DIGESTS_LEN 420
int submission_digests(const submission *s, char *out, size_t n, FILE *errs, psf_err *err);

#endif
