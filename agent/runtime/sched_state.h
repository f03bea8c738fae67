/*
 * sched_state.h - the scheduler's state, part of the agent's (agent.h: the
 * step path reads its turn without a call). Only the scheduler's files
 * (sched*.c, runtime/sched.c says how it works) change it; its slots'
 * type is theirs (sched_impl.h).
 */
#ifndef PSF_SCHED_STATE_H
#define PSF_SCHED_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* sched.c: the baton the counted threads pass (docs/determinism.md). */
typedef struct sched_state {
    pthread_mutex_t mutex;      /* guards everything here (see sched_impl.h for why not a raw monitor) */
    pthread_cond_t cond;        /* the baton moved */
    int armed;                  /* a counted thread started a thread: monitor events on */
    volatile int off;           /* the run ends: nobody waits any more */
    struct sched_slot *slots;   /* in creation order (sched_impl.h) */
    uint32_t n, cap;
    int32_t holder;             /* the slot that may run, -1: none ready */
    int32_t last;               /* the last holder: where the next sched_pick starts from when none was */
    _Atomic int32_t turn;       /* holder + 1, read without the lock on the step path */
    volatile int check;         /* a transition to look at on every step (a thread's end blocked on a monitor) */
    int32_t entering;           /* the slot whose release decides now (sched_release), -1: none */
} sched_state;

#endif
