/*
 * state.c - the agent's one context struct (agent.h).
 *
 * Defined apart from vmentry.c, which wires the callbacks, so that the
 * callbacks of the files below it (extent.c, natives.c) reach the state
 * without depending on the entry file; the calling thread's state, which
 * extent.c makes and the files it calls read (fast.c, linkage.c,
 * sched.c), so that none of them calls extent.c back directly. Also what
 * both counting engines (step/, fast/) need to grow a thread's
 * per-key counters.
 */
#include "agent.h"

#include <stdlib.h>
#include <string.h>

agent g_agent;

/* initial-exec: a plain %fs-relative load on the step path instead of a
 * __tls_get_addr call (the variable is tiny, static TLS has room for it).
 * extent.c sets it when it makes a thread's state. */
_Thread_local thread_state *agent_tls __attribute__((tls_model("initial-exec")));

thread_state *agent_self(void)
{
    return agent_tls;
}

int ts_keys_grow(thread_state *ts, uint32_t need)
{
    if (need <= ts->dep_cap)
        return 0;
    uint32_t cap = ts->dep_cap ? ts->dep_cap : 256;
    while (cap < need)
        cap *= 2;
    for (int b = 0; b < BUCKETS; b++) {
        uint64_t *d = realloc(ts->dep[b], cap * sizeof *d);
        if (d == NULL)
            return -1;
        memset(d + ts->dep_cap, 0, (cap - ts->dep_cap) * sizeof *d);
        ts->dep[b] = d;
        uint64_t *e = realloc(ts->elems[b], cap * sizeof *e);
        if (e == NULL)
            return -1;
        memset(e + ts->dep_cap, 0, (cap - ts->dep_cap) * sizeof *e);
        ts->elems[b] = e;
    }
    uint8_t *nat = realloc(ts->native, cap);
    if (nat == NULL)
        return -1;
    memset(nat + ts->dep_cap, 0, cap - ts->dep_cap);
    ts->native = nat;
    ts->dep_cap = cap;
    return 0;
}

uint64_t *ts_hist(thread_state *ts, const method_info *mi)
{
    if (mi->index >= ts->hist_cap) {
        uint32_t cap = ts->hist_cap ? ts->hist_cap : 1024;
        while (cap <= mi->index)
            cap *= 2;
        uint64_t **h = realloc(ts->hist, cap * sizeof *h);
        if (h == NULL)
            return NULL;
        memset(h + ts->hist_cap, 0, (cap - ts->hist_cap) * sizeof *h);
        ts->hist = h;
        ts->hist_cap = cap;
    }
    if (ts->hist[mi->index] == NULL)
        ts->hist[mi->index] = calloc(HIST_OPS + (size_t)BUCKETS * mi->code_len, sizeof(uint64_t));
    return ts->hist[mi->index];
}

void *grow_cap(void *p, uint32_t *cap, uint32_t first, size_t size)
{
    uint32_t n = *cap ? *cap * 2 : first;
    void *v = realloc(p, n * size);
    if (v != NULL)
        *cap = n;
    return v;
}
