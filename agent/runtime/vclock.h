/*
 * vclock.h - the virtual clock (vclock.c, clock=virtual): a
 * thread's nanoseconds advance by a fixed tick per read.
 */
#ifndef PSF_VCLOCK_H
#define PSF_VCLOCK_H

#include "agent.h"

long long vclock_tick(void);               /* advance this thread's virtual clock; its nanoseconds */

#endif
