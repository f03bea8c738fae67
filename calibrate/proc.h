/*
 * proc.h - child processes of the calibrator: JVM runs with their output in
 * files, a few at a time, or one with its stdout read line by line; and
 * the stop on a signal, which ends them first.
 */
#ifndef PSF_PROC_H
#define PSF_PROC_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* An argument vector under construction (owned strings, NULL-terminated). */
typedef struct argvec {
    char **v;
    size_t n, cap;
} argvec;

void argv_push(argvec *a, const char *s);
void argv_pushf(argvec *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(argvec *a);
/* A copy of a (strings copied). */
void argv_copy(argvec *dst, const argvec *src);

/* One command for proc_run_many. */
typedef struct proc_job {
    argvec argv;            /* owned by the caller */
    const char *out_path;   /* stdout and stderr go here */
    int exit_code;          /* out: exit status, 128 + signal, or -1 if it could not start */
} proc_job;

/*
 * Run jobs with at most `parallel` at once; calls progress(done, n, ctx)
 * after each job ends (progress may be NULL). Returns the number of jobs
 * whose exit code is not 0.
 */
size_t proc_run_many(proc_job *jobs, size_t n, int parallel,
                     void (*progress)(size_t done, size_t n, void *ctx), void *ctx);

/* Start argv with stdout on a pipe (stderr to err_path, or inherited when
 * NULL). Returns a stream to read, or NULL; *pid receives the child. */
FILE *proc_open_read(const argvec *argv, const char *err_path, pid_t *pid);

/* Wait for a child started by proc_open_read; closes f. Returns the exit code. */
int proc_close(FILE *f, pid_t pid);

/* Run argv with stdout and stderr to out_path (or /dev/null when NULL);
 * returns the exit code, -1 if it could not start. */
int proc_run(const argvec *argv, const char *out_path);

/* From now on SIGINT, SIGTERM and SIGHUP (those not ignored) stop the
 * calibrator in order instead of ending it: the running children get
 * SIGTERM (SIGKILL after a second signal), no new child starts (the
 * functions above fail as if it could not start), and a blocked wait or
 * read returns early. The caller notices with proc_stopped, removes what
 * it made and ends with proc_reraise. */
void proc_stop_on_signals(void);

/* The signal that stopped the calibrator, or 0. */
int proc_stopped(void);

/* When a signal stopped the calibrator: end the process by that signal,
 * with its default action (the exit status says so). Else nothing. */
void proc_reraise(void);

#endif
