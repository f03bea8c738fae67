/*
 * jvmti_util.c - the one place JVMTI failures are checked and reported, the
 * agent's log, the raw-monitor lock, and the release of memory JVMTI
 * allocated.
 *
 * A failed call is logged with the call's name and JVMTI's error name, and
 * the first one is kept in a->error so the profile reports status
 * agent_error instead of a count that silently misses something. Callbacks
 * never exit(): they record and return.
 */
#include "agent.h"
#include "jvmti_util.h"
#include "mutf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL_LINES 20

/* A failure that repeats in a loop (a call the agent makes on every pass)
 * would fill the program's output with one line until get_score.sh ends
 * the run as output_limit, hiding the agent_error it is: the first
 * FAIL_LINES failures are logged, then one line says the rest are not. */
static void vrecord(agent *a, const char *fmt, va_list ap)
{
    char msg[512];
    unsigned n = atomic_fetch_add_explicit(&a->failures, 1, memory_order_relaxed);
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (n < FAIL_LINES)
        fprintf(stderr, "psf-agent: %s\n", msg);
    else if (n == FAIL_LINES)
        fprintf(stderr, "psf-agent: more failures than %d; the rest are not logged (the first is the profile's "
                        "message)\n", FAIL_LINES);
    if (a->error[0] == '\0')
        snprintf(a->error, sizeof a->error, "%s", msg);
}

void agent_fail(agent *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(a, fmt, ap);
    va_end(ap);
}

void agent_log(agent *a, const char *fmt, ...)
{
    if (!a->opts.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "psf-agent: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int jvmti_check(agent *a, jvmtiError err, const char *call)
{
    if (err == JVMTI_ERROR_NONE)
        return 0;
    char *name = NULL;
    if (a->jvmti == NULL || (*a->jvmti)->GetErrorName(a->jvmti, err, &name) != JVMTI_ERROR_NONE)
        name = NULL;
    agent_fail(a, "JVMTI %s failed: %s (%d)", call, name ? name : "unknown error", (int)err);
    if (name != NULL)
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)name);
    return -1;
}

void jvmti_free(agent *a, void *p)
{
    if (p != NULL)
        jvmti_check(a, (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)p), "Deallocate");
}

void lock_enter(agent *a)
{
    jvmti_check(a, (*a->jvmti)->RawMonitorEnter(a->jvmti, a->lock), "RawMonitorEnter");
}

void lock_exit(agent *a)
{
    jvmti_check(a, (*a->jvmti)->RawMonitorExit(a->jvmti, a->lock), "RawMonitorExit");
}

char *utf8_dup(const char *mutf8)
{
    size_t len = strlen(mutf8);
    /* printable ASCII, as nearly every name is, converts to itself: the
     * rewriter names every method of every class the JVM loads */
    size_t ascii = 0;
    while (ascii < len && (unsigned char)mutf8[ascii] >= 0x20 && (unsigned char)mutf8[ascii] < 0x7f)
        ascii++;
    if (ascii == len) {
        char *out = malloc(len + 1);
        if (out != NULL)
            memcpy(out, mutf8, len + 1);
        return out;
    }
    size_t need = mutf8_to_utf8(mutf8, len, NULL, 0);
    char *out = malloc(need + 1);
    if (out != NULL)
        mutf8_to_utf8(mutf8, len, out, need + 1);
    return out;
}

char *xstrdup_jvmti(agent *a, char *s)
{
    if (s == NULL)
        return NULL;
    char *copy = utf8_dup(s);
    jvmti_free(a, s);
    if (copy == NULL)
        agent_fail(a, "out of memory");
    return copy;
}
