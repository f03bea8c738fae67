/*
 * options.h - the agent's option string, "key=value,key=value".
 *
 * Pure C (no JVM). Parsed once in Agent_OnLoad into a struct with named
 * defaults; every problem is collected into one message so the user sees all
 * of them at once, and the JVM does not start.
 */
#ifndef PSF_OPTIONS_H
#define PSF_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* Which counting engine measures the method (docs/fast-engine.md). */
typedef enum agent_engine {
    AGENT_ENGINE_STEP = 0,      /* the default: single-step every bytecode of the extent */
    AGENT_ENGINE_FAST = 1       /* bytecode instrumentation; refused at load until it holds every profile field */
} agent_engine;

typedef struct agent_options {
    char *method;               /* required: the method spec, see names.h */
    char *out;                  /* the profile file (written atomically); or: */
    int result_fd;              /* -1, or a descriptor for an authenticated result record (needs key_fd) */
    int key_fd;                 /* -1, or a descriptor holding the 64-hex-digit key; read and closed at load */
    uint64_t max_bytecodes;     /* 0 = no limit; else stop the JVM once all threads together counted more */
    uint64_t max_threads;       /* 0 = no limit; else stop once the measured code started more threads */
    int virtual_clock;          /* 1: System.nanoTime/currentTimeMillis read a per-thread virtual clock */
    int deny_processes;         /* 1: starting a process, or loading a native library from outside the JDK, fails */
    int verbose;                /* 0 = only errors on stderr, 1 = progress notes */
    char *progress;             /* NULL, or a file to keep the bytecodes counted so far in (progress.c) */
    agent_engine engine;        /* engine=step|fast; step when not given */
} agent_options;

/*
 * Parse text (may be NULL or empty). Returns 0 when every key is known, every
 * value valid and the required keys are present; otherwise -1 with a message
 * listing each problem in err. The struct is filled with whatever parsed and
 * must be released with agent_options_free in both cases.
 */
int agent_options_parse(agent_options *opts, const char *text, char *err, size_t errlen);
void agent_options_free(agent_options *opts);

#endif
