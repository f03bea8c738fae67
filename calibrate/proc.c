/*
 * proc.c - fork/exec helpers (proc.h).
 *
 * Stopping on a signal: SIGINT, SIGTERM and SIGHUP (each unless it was
 * ignored when the calibrator started) run on_signal, which does only what
 * is async-signal-safe: it records the first signal and sends every running
 * child SIGTERM (SIGKILL on a signal after that), reading their pids from
 * a table of sig_atomic_t. The main path adds a pid to the table right
 * after fork (and signals the child itself when the signal came before
 * that), and takes it out before it reaps the child, so that the handler
 * never signals a pid the system has given to another process. The
 * handler runs without SA_RESTART: a wait for a child or a read of its
 * output returns EINTR. From then on no child starts (spawn refuses), the
 * running ones are waited for as they end, the caller removes what it made
 * and calls proc_reraise, which ends the process by the same signal with
 * its default action.
 */
#define _GNU_SOURCE 1
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* --jobs is at most 64, and a child read line by line never runs beside them. */
#define MAX_CHILDREN 64
_Static_assert(sizeof(pid_t) <= sizeof(sig_atomic_t), "a pid fits in a sig_atomic_t");

static volatile sig_atomic_t stop_signal;          /* the first stopping signal, or 0 */
static volatile sig_atomic_t children[MAX_CHILDREN]; /* running children's pids; 0: a free slot */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])
static int handled[N_STOP_SIGNALS];                /* the handler is installed for stop_signals[i] */

static void on_signal(int sig)
{
    int e = errno, again = stop_signal != 0;
    if (!again)
        stop_signal = sig;
    for (int i = 0; i < MAX_CHILDREN; i++) {
        pid_t p = (pid_t)children[i];
        if (p > 0)
            kill(p, again ? SIGKILL : SIGTERM);
    }
    errno = e;
}

void proc_stop_on_signals(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_STOP_SIGNALS; i++)
        sigaddset(&sa.sa_mask, stop_signals[i]);
    sa.sa_flags = 0; /* no SA_RESTART: a blocked wait returns EINTR */
    for (size_t i = 0; i < N_STOP_SIGNALS; i++) {
        /* ignored (nohup, a background job's SIGINT): it stays ignored */
        if (sigaction(stop_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        handled[i] = sigaction(stop_signals[i], &sa, NULL) == 0;
    }
}

int proc_stopped(void)
{
    return (int)stop_signal;
}

void proc_reraise(void)
{
    int sig = (int)stop_signal;
    sigset_t set;
    if (sig == 0)
        return;
    signal(sig, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

/* A free slot of children, or -1 (errno EAGAIN). */
static int slot_free(void)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == 0)
            return i;
    errno = EAGAIN;
    return -1;
}

/* The parent's side of fork: pid runs in slot i (when fork succeeded). */
static void child_started(int i, pid_t pid)
{
    if (pid <= 0)
        return;
    children[i] = (sig_atomic_t)pid;
    if (stop_signal != 0) /* came between fork and the line above: the handler did not see pid */
        kill(pid, SIGTERM);
}

/* The child's side of fork: the signals the parent handles get their
 * default action back (exec would do so too), so that one sent to the
 * child before exec ends it. */
static void child_signals(void)
{
    for (size_t i = 0; i < N_STOP_SIGNALS; i++)
        if (handled[i])
            signal(stop_signals[i], SIG_DFL);
}

/* Wait for the child pid (-1: any child) to end, take it out of children,
 * then reap it: its pid, or -1 (errno EINTR when a signal came first). */
static pid_t reap(pid_t pid, int *status)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(pid < 0 ? P_ALL : P_PID, pid < 0 ? 0 : (id_t)pid, &si, WEXITED | WNOWAIT) != 0)
        return -1;
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == (sig_atomic_t)si.si_pid)
            children[i] = 0;
    while (waitpid(si.si_pid, status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return si.si_pid;
}

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
    child_signals();
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

/* Start argv, or -1: fork failed, or a signal stopped the calibrator (errno EINTR). */
static pid_t spawn(const argvec *argv, const char *out_path)
{
    pid_t pid;
    int slot = slot_free();
    if (slot < 0)
        return -1;
    if (stop_signal != 0) {
        errno = EINTR;
        return -1;
    }
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        child_exec(argv, out_path, -1);
    child_started(slot, pid);
    return pid;
}

int proc_run(const argvec *argv, const char *out_path)
{
    int status;
    pid_t pid = spawn(argv, out_path);
    if (pid < 0)
        return -1;
    while (reap(pid, &status) < 0)
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
    if (parallel > MAX_CHILDREN)
        parallel = MAX_CHILDREN;
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
            pid_t p = reap(-1, &status);
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
                    if (progress && stop_signal == 0) /* stopped: the jobs not started count as done */
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
    int fds[2], slot = slot_free();
    FILE *f;
    if (slot < 0 || stop_signal != 0 || pipe2(fds, O_CLOEXEC) != 0)
        return NULL;
    fflush(NULL);
    *pid = fork();
    if (*pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return NULL;
    }
    if (*pid == 0) {
        child_signals();
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
    child_started(slot, *pid);
    close(fds[1]);
    f = fdopen(fds[0], "r");
    if (!f) {
        /* no reader: the child is stopped and reaped, not left running in its slot */
        int saved = errno;
        close(fds[0]);
        kill(*pid, SIGTERM);
        proc_close(NULL, *pid);
        errno = saved;
    }
    return f;
}

int proc_close(FILE *f, pid_t pid)
{
    int status;
    if (f)
        fclose(f);
    while (reap(pid, &status) < 0)
        if (errno != EINTR)
            return -1;
    return decode(status);
}
