/*
 * batch.h - psf-score --batch: several psf-score requests answered by one
 * process (get_score.sh asks its early questions so: the key's check, the
 * cost table's, the submission's digests and the TSC rate).
 *
 *   psf-score --batch [N STDERR ARG1 ... ARGN]...
 *
 * Each request is N arguments, as psf-score would be called with them, and
 * where its stderr goes: "merge" (into its answer, as 2>&1), "pass" (the
 * batch's own stderr) or "drop" (/dev/null). Each runs in a child forked
 * from the batch (the libraries are loaded once, not once a request), all
 * of them at once, and exactly as psf-score ARGS would run: its stdin, its
 * exit code, its output. The answers are written on stdout in the order of
 * the requests, each as soon as it and those before it are complete:
 *
 *   EXIT "\n" OUTPUT "\0"
 *
 * EXIT its exit code in decimal (128 + the signal when a signal ended it, as
 * a shell says), OUTPUT what it wrote on stdout (and stderr, with merge),
 * NUL bytes left out (a shell's command substitution leaves them out too).
 * A request that could not be started gets an empty answer, "\0" alone: the
 * caller asks it on its own then.
 */
#ifndef PSF_BATCH_H
#define PSF_BATCH_H

#include "err.h"

typedef enum batch_stderr { BATCH_ERR_MERGE, BATCH_ERR_PASS, BATCH_ERR_DROP } batch_stderr;

typedef struct batch_req {
    int argc;           /* the request's arguments, argv[0] the program's name */
    char **argv;        /* argc + 1 entries, NULL-terminated; the strings are borrowed */
    batch_stderr err;
} batch_req;

/* The requests in args (the arguments after --batch), each argv[0] prog.
 * Returns the number of requests (0: none) with *reqs to batch_free, or -1
 * with err (ST_USAGE) and nothing to free. */
int batch_parse(const char *prog, int nargs, char **args, batch_req **reqs, psf_err *err);

void batch_free(batch_req *reqs, int n);

/* What one request runs: psf-score's main for argc, argv. */
typedef int (*batch_fn)(int argc, char **argv);

/* Run the n requests, each fn(argc, argv) in a forked child, and write their
 * answers to out_fd in order. With release_stderr, the batch's own stderr
 * is /dev/null once every child is started, so that it holds the caller's
 * stderr no longer than a "pass" request does. Returns 0, or -1 when an
 * answer could not be written whole. */
int batch_run(const batch_req *reqs, int n, batch_fn fn, int out_fd, int release_stderr);

#endif
