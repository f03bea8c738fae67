/*
 * vclock.c - the per-thread virtual clock behind clock=virtual.
 *
 * Every read of a clock the agent takes over (System.nanoTime and
 * currentTimeMillis in natives.c, the JVM's uptime in pervalues.c) advances
 * the reading thread's clock by the same step, so the values a program sees
 * are the same in every run. Kept apart so that natives.c and pervalues.c
 * both use it without calling each other.
 */
#include "agent.h"
#include "vclock.h"

#define VCLOCK_STEP_NS 1000LL

static _Thread_local long long vclock_ns __attribute__((tls_model("initial-exec")));

/* Advance this thread's virtual clock by one step; its nanoseconds since
 * the thread's first read (the first read gives one step). */
long long vclock_tick(void)
{
    vclock_ns += VCLOCK_STEP_NS;
    return vclock_ns;
}
