/*
 * proc.c - fork/exec helpers (proc.h).
 */
#define _GNU_SOURCE 1
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void argv_push(argvec *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 32;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v)
            abort();
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n] = strdup(s);
    if (!a->v[a->n])
        abort();
    a->v[++a->n] = NULL;
}

void argv_pushf(argvec *a, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    argv_push(a, buf);
}

void argv_free(argvec *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

void argv_copy(argvec *dst, const argvec *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->n; i++)
        argv_push(dst, src->v[i]);
}

static int decode(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

/* Child side: redirect stdout/stderr and exec. Never returns. */
static void child_exec(const argvec *argv, const char *out_path, int out_fd)
{
    int fd = out_fd;
    if (fd < 0) {
        fd = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            _exit(127);
    }
    int in = open("/dev/null", O_RDONLY);
    if (in >= 0) {
        dup2(in, 0);
        close(in);
    }
    dup2(fd, 1);
    dup2(fd, 2);
    execvp(argv->v[0], argv->v);
    _exit(127);
}

static pid_t spawn(const argvec *argv, const char *out_path)
{
    pid_t pid;
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        child_exec(argv, out_path, -1);
    return pid;
}

int proc_run(const argvec *argv, const char *out_path)
{
    int status;
    pid_t pid = spawn(argv, out_path);
    if (pid < 0)
        return -1;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return decode(status);
}

size_t proc_run_many(proc_job *jobs, size_t n, int parallel,
                     void (*progress)(size_t done, size_t n, void *ctx), void *ctx)
{
    pid_t *pids = calloc(n ? n : 1, sizeof *pids);
    size_t next = 0, done = 0, failed = 0;
    int running = 0;

    if (!pids)
        abort();
    if (parallel < 1)
        parallel = 1;
    while (done < n) {
        while (running < parallel && next < n) {
            pids[next] = spawn(&jobs[next].argv, jobs[next].out_path);
            if (pids[next] < 0) {
                jobs[next].exit_code = -1;
                failed++;
                done++;
            } else {
                running++;
            }
            next++;
        }
        if (running == 0)
            continue;
        {
            int status;
            pid_t p = waitpid(-1, &status, 0);
            if (p < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            for (size_t i = 0; i < next; i++)
                if (pids[i] == p) {
                    jobs[i].exit_code = decode(status);
                    pids[i] = 0;
                    if (jobs[i].exit_code != 0)
                        failed++;
                    running--;
                    done++;
                    if (progress)
                        progress(done, n, ctx);
                    break;
                }
        }
    }
    free(pids);
    return failed;
}

FILE *proc_open_read(const argvec *argv, const char *err_path, pid_t *pid)
{
    int fds[2];
    FILE *f;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return NULL;
    fflush(NULL);
    *pid = fork();
    if (*pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return NULL;
    }
    if (*pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0) {
            dup2(in, 0);
            close(in);
        }
        dup2(fds[1], 1);
        if (err_path) {
            int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (e >= 0) {
                dup2(e, 2);
                close(e);
            }
        }
        execvp(argv->v[0], argv->v);
        _exit(127);
    }
    close(fds[1]);
    f = fdopen(fds[0], "r");
    if (!f)
        close(fds[0]);
    return f;
}

int proc_close(FILE *f, pid_t pid)
{
    int status;
    if (f)
        fclose(f);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return decode(status);
}
