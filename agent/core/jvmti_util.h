/*
 * jvmti_util.h - the one place JVMTI failures are checked and reported
 * (jvmti_check, agent_fail), the agent's log, the raw-monitor lock, the
 * release of memory JVMTI allocated (jvmti_free) and the names JVMTI
 * returns in modified UTF-8 copied as UTF-8 (jvmti_util.c).
 */
#ifndef PSF_JVMTI_UTIL_H
#define PSF_JVMTI_UTIL_H

#include "agent.h"

int jvmti_check(agent *a, jvmtiError err, const char *call);
void agent_fail(agent *a, const char *fmt, ...);
void agent_log(agent *a, const char *fmt, ...);
void lock_enter(agent *a);
void lock_exit(agent *a);
void jvmti_free(agent *a, void *p);      /* Deallocate JVMTI memory (NULL: nothing), checked */
char *xstrdup_jvmti(agent *a, char *s);  /* copy (as UTF-8) and Deallocate a JVMTI string */
char *utf8_dup(const char *mutf8);       /* modified UTF-8 to a malloc'd UTF-8 copy */

#endif
