/*
 * progress.c - the bytecodes counted so far, for a person watching a long
 * run (get_score.sh shows them on a terminal).
 *
 * With the option progress=FILE a plain thread (not a Java thread: it runs
 * no bytecode and is invisible to counting) writes the shared total
 * a->counted, which every counting thread adds to a grant at a time
 * (extent.c), into FILE four times a second: one decimal number padded
 * to 20 digits and a newline, rewritten in place, so a reader sees one
 * number. Nothing on the per-bytecode path changes.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "jvmti_util.h"
#include "progress.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int progress_fd = -1;

/* The writer: runs until the process ends (or the file cannot be written). */
static void *progress_loop(void *arg)
{
    agent *a = arg;
    const struct timespec quarter = { 0, 250000000L };
    char buf[32];
    for (;;) {
        nanosleep(&quarter, NULL);
        uint64_t n = atomic_load_explicit(&a->counted, memory_order_relaxed);
        int len = snprintf(buf, sizeof buf, "%020" PRIu64 "\n", n);
        if (pwrite(progress_fd, buf, (size_t)len, 0) != len)
            return NULL;
    }
}

void progress_start(agent *a)
{
    pthread_t t;
    pthread_attr_t attr;
    if (a->opts.progress == NULL)
        return;
    progress_fd = open(a->opts.progress, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (progress_fd < 0) {
        agent_log(a, "cannot write the progress file %s: no progress shown", a->opts.progress);
        return;
    }
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, progress_loop, a) != 0)
        agent_log(a, "cannot start the progress thread: no progress shown");
    pthread_attr_destroy(&attr);
}
