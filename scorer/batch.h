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
 *
 * A request's stderr word may also be "files OUT ERR": its stdout and stderr
 * go to the files OUT and ERR, created or truncated (mode 0666 less the
 * umask) by the batch before the request starts, as a shell's >OUT 2>ERR
 * would; its answer's OUTPUT is empty. When either cannot be opened, the
 * request is not started (an empty answer).
 *
 *   psf-score --batch --more [N STDERR ARG1 ... ARGN]...
 *
 * answers the requests on the command line, then reads more requests on
 * stdin, in the same form, each word ended by a NUL byte, up to an empty
 * word (or the end of stdin), and answers them in the same way, after the
 * first ones; a stdin that ends without one, or that holds no valid
 * requests, gets no answers. The requests' own stdin is /dev/null.
 * get_score.sh starts one batch so and keeps it waiting while the JVM runs:
 * the result is scored by a child of a process whose libraries are loaded
 * and whose libcrypto is set up (scorer/main.c), not by a psf-score exec'd
 * after the run.
 */
#ifndef PSF_BATCH_H
#define PSF_BATCH_H

#include "err.h"

typedef enum batch_stderr { BATCH_ERR_MERGE, BATCH_ERR_PASS, BATCH_ERR_DROP, BATCH_ERR_FILES } batch_stderr;

typedef struct batch_req {
    int argc;           /* the request's arguments, argv[0] the program's name */
    char **argv;        /* argc + 1 entries, NULL-terminated; the strings are borrowed */
    batch_stderr err;
    const char *out_path, *err_path; /* BATCH_ERR_FILES: where stdout and stderr go (borrowed) */
} batch_req;

/* The requests in args (the arguments after --batch), each argv[0] prog.
 * Returns the number of requests (0: none) with *reqs to batch_free, or -1
 * with err (ST_USAGE) and nothing to free. */
int batch_parse(const char *prog, int nargs, char **args, batch_req **reqs, psf_err *err);

void batch_free(batch_req *reqs, int n);

/* What one request runs: psf-score's main for argc, argv. */
typedef int (*batch_fn)(int argc, char **argv);

/* batch_run's flags */
#define BATCH_RELEASE_STDERR 1 /* the batch's own stderr is /dev/null once every child is started,
                                  so that it holds the caller's no longer than a "pass" request does */
#define BATCH_STDIN_NULL 2     /* each child's stdin is /dev/null */

/* Run the n requests, each fn(argc, argv) in a forked child, and write their
 * answers to out_fd in order (flags: BATCH_RELEASE_STDERR, BATCH_STDIN_NULL).
 * Returns 0, or -1 when an answer could not be written whole. */
int batch_run(const batch_req *reqs, int n, batch_fn fn, int out_fd, int flags);

/* The words of --more's requests read from in_fd (batch.h, above): each
 * ended by a NUL byte, up to an empty word or the end, at most max_bytes in
 * all. Returns the number of words, with *words (the array and the strings
 * in one block) to free(), or -1 (nothing to free) when in_fd could not be
 * read, ended inside a word, or held more than max_bytes. */
int batch_read_words(int in_fd, size_t max_bytes, char ***words);

#endif
