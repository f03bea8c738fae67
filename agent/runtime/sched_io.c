/*
 * sched_io.c - native I/O that would wait for another thread cannot be
 * scheduled (sched.c: the waiting thread would keep the baton): bulk.c's
 * wrappers of the JDK's read, write, accept, connect, poll and selector
 * natives ask sched_io first, which ends the run as unschedulable, naming
 * what and where. Part of the scheduler.
 */
#define _GNU_SOURCE
#include "jvmti_util.h"
#include "sched_impl.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

/* Does this thread hold a slot (bulk.c asks before sched_io)? */
int sched_scheduled(void)
{
    agent *a = &g_agent;
    return a->sched.armed && my_slot(a, self_ts(a)) >= 0;
}

/* What I/O of `kind` on fd (len bytes for a write) would wait for: NULL
 * when it returns at once. */
static const char *io_waits(int fd, enum sched_io kind, jlong len)
{
    if (kind == SCHED_IO_SELECT)
        return "waited in a selector";
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return NULL; /* the JDK reports the bad descriptor */
    if (S_ISSOCK(st.st_mode))
        return kind == SCHED_IO_READ ? "read a socket" : kind == SCHED_IO_WRITE ? "wrote to a socket"
                                                                              : "waited on a socket";
    if (!S_ISFIFO(st.st_mode))
        return NULL; /* files and devices do not wait for threads */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK) != 0)
        return NULL; /* returns at once, with what is there */
    struct pollfd p = {fd, kind == SCHED_IO_READ ? POLLIN : POLLOUT, 0};
    if (kind == SCHED_IO_READ)
        return poll(&p, 1, 0) == 0 ? "read an empty pipe" : NULL; /* data, or the writer gone */
    int queued = 0, size = fcntl(fd, F_GETPIPE_SZ);
    if (size < 0 || ioctl(fd, FIONREAD, &queued) != 0)
        return NULL;
    if (poll(&p, 1, 0) != 0 && (p.revents & (POLLERR | POLLHUP)) != 0)
        return NULL; /* the reader is gone: the write fails at once */
    return len > (jlong)size - queued ? "wrote more to a pipe than it has room for" : NULL;
}

/* A scheduled thread is about to do I/O of `kind` on fd through `native`:
 * if it would wait for another thread, the run ends as unschedulable. */
void sched_io(JNIEnv *jni, int fd, enum sched_io kind, jlong len, const char *native)
{
    agent *a = &g_agent;
    int32_t me = my_slot(a, self_ts(a));
    const char *what = me < 0 ? NULL : io_waits(fd, kind, len);
    if (what == NULL)
        return;
    jthread self = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &self), "GetCurrentThread") != 0)
        return;
    char msg[512];
    int name = (int)strcspn(native, "(");
    snprintf(msg, sizeof msg,
             "thread %d of the method's threads %s in %.*s: I/O that waits for another thread cannot be scheduled "
             "the same way every run",
             me + 1, what, name, native);
    a->hooks.stop(a, jni, self, "unschedulable", msg);
}
