/*
 * batch.c - psf-score --batch (see batch.h).
 */
#include "batch.h"
#include "write_all.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

void batch_free(batch_req *reqs, int n)
{
    for (int i = 0; i < n; i++)
        free(reqs[i].argv);
    free(reqs);
}

int batch_parse(const char *prog, int nargs, char **args, batch_req **reqs, psf_err *err)
{
    batch_req *r = NULL;
    size_t cap = 0;
    int n = 0, i = 0;

    *reqs = NULL;
    while (i < nargs) {
        const char *count = args[i], *mode = i + 1 < nargs ? args[i + 1] : NULL;
        long k = 0;
        int skip = 2;   /* the count and the stderr word (and a "files" word's two paths) */
        batch_stderr how;
        /* a count of plain decimal digits, 1 up to what is left */
        for (const char *p = count; *p; p++) {
            if (*p < '0' || *p > '9' || k > nargs) {
                k = -1;
                break;
            }
            k = k * 10 + (*p - '0');
        }
        if (mode && strcmp(mode, "files") == 0)
            skip = 4;
        if (k < 1 || !mode || k > nargs - i - skip) {
            batch_free(r, n);
            return psf_fail(err, ST_USAGE, "--batch: request %d: '%s' is not a count of the arguments that follow "
                            "its stderr word", n + 1, count);
        }
        if (skip == 4)
            how = BATCH_ERR_FILES;
        else if (strcmp(mode, "merge") == 0)
            how = BATCH_ERR_MERGE;
        else if (strcmp(mode, "pass") == 0)
            how = BATCH_ERR_PASS;
        else if (strcmp(mode, "drop") == 0)
            how = BATCH_ERR_DROP;
        else {
            batch_free(r, n);
            return psf_fail(err, ST_USAGE, "--batch: request %d: stderr '%s' is not merge, pass, drop or files", n + 1,
                            mode);
        }
        if (strcmp(args[i + skip], "--batch") == 0) {
            batch_free(r, n);
            return psf_fail(err, ST_USAGE, "--batch: request %d is a --batch itself", n + 1);
        }
        xgrow((void **)&r, &cap, (size_t)n, sizeof *r);
        r[n].argc = (int)k + 1;
        r[n].err = how;
        r[n].out_path = how == BATCH_ERR_FILES ? args[i + 2] : NULL;
        r[n].err_path = how == BATCH_ERR_FILES ? args[i + 3] : NULL;
        r[n].argv = xcalloc((size_t)k + 2, sizeof *r[n].argv);
        r[n].argv[0] = (char *)prog;
        for (long j = 0; j < k; j++)
            r[n].argv[j + 1] = args[i + skip + j];
        n++;
        i += skip + (int)k;
    }
    *reqs = r;
    return n;
}

/* The child of request req: its streams set (with files, the files
 * opened for it as files[0] and files[1]; with stdin_null, stdin
 * /dev/null), fn run, its exit code the child's. Does not return. */
static void run_child(const batch_req *req, batch_fn fn, int out_w, const int files[2], int stdin_null)
{
    if (stdin_null) {
        int nul = open("/dev/null", O_RDONLY);
        if (nul < 0 || dup2(nul, STDIN_FILENO) < 0)
            _exit(70);
        if (nul != STDIN_FILENO)
            close(nul);
    }
    if (req->err == BATCH_ERR_FILES) {
        if (dup2(files[0], STDOUT_FILENO) < 0 || dup2(files[1], STDERR_FILENO) < 0)
            _exit(70);
        for (int j = 0; j < 2; j++)
            if (files[j] > STDERR_FILENO)
                close(files[j]);
    } else if (dup2(out_w, STDOUT_FILENO) < 0)
        _exit(70);
    if (req->err == BATCH_ERR_MERGE) {
        if (dup2(out_w, STDERR_FILENO) < 0)
            _exit(70);
    } else if (req->err == BATCH_ERR_DROP) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul < 0 || dup2(nul, STDERR_FILENO) < 0)
            _exit(70);
        if (nul != STDERR_FILENO)
            close(nul);
    }
    if (out_w != STDOUT_FILENO && out_w != STDERR_FILENO)
        close(out_w);
    exit(fn(req->argc, req->argv));
}


/* Request i's answer: its output read to the end (NUL bytes left out), its
 * exit code, written to out_fd. */
static int answer(pid_t pid, int rfd, int out_fd)
{
    char *buf = NULL, head[16];
    size_t len = 0, cap = 0;
    char chunk[4096];
    int status = 0, code, bad = 0;

    for (;;) {
        ssize_t got = read(rfd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (ssize_t j = 0; j < got; j++) {
            if (chunk[j] == '\0')
                continue;
            xgrow((void **)&buf, &cap, len, 1);
            buf[len++] = chunk[j];
        }
    }
    close(rfd);
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            free(buf);
            return write_all(out_fd, "", 1);   /* no exit code: no answer */
        }
    }
    code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 70;
    snprintf(head, sizeof head, "%d\n", code);
    if (write_all(out_fd, head, strlen(head)) != 0 || (len && write_all(out_fd, buf, len) != 0) ||
        write_all(out_fd, "", 1) != 0)
        bad = 1;
    free(buf);
    return bad ? -1 : 0;
}

/* FILES request req's stdout and stderr files opened, as a shell's
 * >OUT 2>ERR would, in files; -1 (none left open) when either cannot be. */
static int open_files(const batch_req *req, int files[2])
{
    files[0] = open(req->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (files[0] < 0)
        return -1;
    files[1] = open(req->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (files[1] < 0) {
        close(files[0]);
        return -1;
    }
    return 0;
}

int batch_run(const batch_req *reqs, int n, batch_fn fn, int out_fd, int flags)
{
    pid_t *pids;
    int *rfds, bad = 0;

    if (n <= 0)
        return 0;
    pids = xcalloc((size_t)n, sizeof *pids);
    rfds = xcalloc((size_t)n, sizeof *rfds);
    fflush(NULL);   /* nothing buffered is written twice */
    for (int i = 0; i < n; i++) {
        int p[2], files[2] = { -1, -1 };
        pids[i] = -1;
        rfds[i] = -1;
        if (reqs[i].err == BATCH_ERR_FILES && open_files(&reqs[i], files) != 0)
            continue;
        if (pipe(p) != 0) {
            for (int j = 0; j < 2; j++)
                if (files[j] >= 0)
                    close(files[j]);
            continue;
        }
        pids[i] = fork();
        if (pids[i] == 0) {
            /* The child holds nothing of the batch's: not the read ends of
             * the answers before and its own, not the batch's stdout where
             * its own does not replace it, not the batch's memory. */
            close(p[0]);
            for (int j = 0; j < i; j++)
                if (rfds[j] >= 0)
                    close(rfds[j]);
            if (out_fd > STDERR_FILENO)
                close(out_fd);
            free(pids);
            free(rfds);
            run_child(&reqs[i], fn, p[1], files, flags & BATCH_STDIN_NULL);
        }
        for (int j = 0; j < 2; j++)
            if (files[j] >= 0)
                close(files[j]);
        close(p[1]);
        if (pids[i] < 0)
            close(p[0]);
        else
            rfds[i] = p[0];
    }
    if (flags & BATCH_RELEASE_STDERR) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0) {
            dup2(nul, STDERR_FILENO);
            if (nul != STDERR_FILENO)
                close(nul);
        }
    }
    for (int i = 0; i < n; i++) {
        int rc = pids[i] < 0 ? write_all(out_fd, "", 1) : answer(pids[i], rfds[i], out_fd);
        if (rc != 0 && !bad) {
            bad = 1;
            /* the reader went away: the rest is not waited for */
            for (int j = i + 1; j < n; j++)
                if (rfds[j] >= 0)
                    close(rfds[j]);
            break;
        }
    }
    free(pids);
    free(rfds);
    return bad ? -1 : 0;
}

int batch_read_words(int in_fd, size_t max_bytes, char ***words)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int ended = 0;

    *words = NULL;
    /* up to an empty word: a NUL at the start or right after another (what
     * follows it in the same read is not looked at) */
    while (!ended) {
        char chunk[4096];
        ssize_t got = read(in_fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            return -1;
        }
        if (got == 0)
            break;
        for (ssize_t j = 0; j < got && !ended; j++) {
            if (chunk[j] == '\0' && (len == 0 || buf[len - 1] == '\0')) {
                ended = 1;
            } else if (len >= max_bytes) {
                free(buf);
                return -1;
            } else {
                xgrow((void **)&buf, &cap, len, 1);
                buf[len++] = chunk[j];
            }
        }
    }
    if (len > 0 && buf[len - 1] != '\0') {
        free(buf);
        return -1;
    }
    size_t count = 0;
    for (size_t j = 0; j < len; j++)
        count += buf[j] == '\0';
    if (count > INT_MAX - 1) {
        free(buf);
        return -1;
    }
    /* the array, then the strings, in one block */
    char **w = xmalloc((count + 1) * sizeof *w + (len ? len : 1));
    char *text = (char *)(w + count + 1);
    if (len)
        memcpy(text, buf, len);
    free(buf);
    for (size_t j = 0, at = 0; j < count; j++) {
        w[j] = text + at;
        at += strlen(text + at) + 1;
    }
    w[count] = NULL;
    *words = w;
    return (int)count;
}
