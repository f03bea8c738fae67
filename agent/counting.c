/*
 * counting.c - the measured extent: where counting starts, the per-bytecode
 * path, where it ends.
 *
 * Idle, the JVM runs at full speed: the only armed event is a breakpoint at
 * offset 0 of the target method. When a thread hits it outside a measured
 * extent, that thread alone gets SingleStep and FramePop events, and a frame
 * pop is requested for the outermost target frame; when that frame pops (by
 * return or by exception) both events are switched off again for the thread.
 *
 * HotSpot posts no SingleStep for the location of the breakpoint whose
 * callback enabled stepping, so on_breakpoint counts that first bytecode by
 * hand. Recursive invocations are inside the extent and get their own step.
 *
 * The per-step path (count_step) is: a direct-mapped per-thread cache lookup
 * of the method, one opcode read from the method's cached bytecodes, two
 * counter increments, and for offsets that name a dependency one more. It
 * allocates nothing, takes no lock and calls no JVMTI function, except on the
 * first step into a method (cache miss) and at the entry of an overhead root.
 */
#include "agent.h"
#include "bytecode.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local thread_state *tls;

static uint32_t cache_slot(jmethodID id)
{
    uintptr_t v = (uintptr_t)id;
    return (uint32_t)((v >> 3) ^ (v >> 15)) & (MCACHE_SIZE - 1);
}

static char *thread_name(agent *a, jthread thread)
{
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    if (jvmti_check(a, (*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info), "GetThreadInfo") != 0)
        return strdup("?");
    return xstrdup_jvmti(a, info.name);
}

static thread_state *ts_get(agent *a, jthread thread)
{
    if (tls != NULL)
        return tls;
    thread_state *ts = calloc(1, sizeof *ts);
    if (ts == NULL) {
        agent_fail(a, "out of memory for thread state");
        return NULL;
    }
    ts->thread_name = thread_name(a, thread);
    lock_enter(a);
    ts->next = a->threads;
    a->threads = ts;
    lock_exit(a);
    tls = ts;
    return ts;
}

/* Grow the per-key counters to cover every key interned so far. Called with
 * no lock; reads keys.count under the lock. */
static int ts_cover_keys(agent *a, thread_state *ts)
{
    lock_enter(a);
    uint32_t need = a->keys.count;
    lock_exit(a);
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

/* Cache miss: find or build the method's info and this thread's counters. */
static mcache_entry *cache_fill(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method)
{
    method_info *m = methods_get(a, jni, method);
    if (m == NULL)
        return NULL;
    if (m->index >= ts->hist_cap) {
        uint32_t cap = ts->hist_cap ? ts->hist_cap : 1024;
        while (cap <= m->index)
            cap *= 2;
        uint64_t **h = realloc(ts->hist, cap * sizeof *h);
        if (h == NULL)
            goto oom;
        memset(h + ts->hist_cap, 0, (cap - ts->hist_cap) * sizeof *h);
        ts->hist = h;
        ts->hist_cap = cap;
    }
    if (ts->hist[m->index] == NULL) {
        ts->hist[m->index] = calloc(BUCKETS * 256, sizeof(uint64_t));
        if (ts->hist[m->index] == NULL)
            goto oom;
    }
    if (ts_cover_keys(a, ts) != 0)
        goto oom;
    mcache_entry *e = &ts->cache[cache_slot(method)];
    e->id = method;
    e->m = m;
    e->hist = ts->hist[m->index];
    return e;
oom:
    agent_fail(a, "out of memory for counters");
    return NULL;
}

/* A step arrives at offset 0 of a method that may open an overhead frame. */
static void root_enter(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m)
{
    if (ts->bucket == BUCKET_OVERHEAD)
        return; /* already inside one: callees belong to it */
    if (m->root == ROOT_IF_UPCALL && (bc_flags(ts->prev_op) & BCF_INVOKE))
        return; /* the method itself called loadClass: that is work */
    if (jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, 0), "NotifyFramePop") != 0)
        return;
    ts->bucket = BUCKET_OVERHEAD;
    ts->root_method = method;
    ts->saved_prev_op = ts->prev_op;
}

/* Count one bytecode: the one at `loc` in `method`, about to execute. */
static inline void count_step(agent *a, thread_state *ts, JNIEnv *jni, jthread thread,
                              jmethodID method, jlocation loc)
{
    mcache_entry *e = &ts->cache[cache_slot(method)];
    if (e->id != method) {
        e = cache_fill(a, ts, jni, method);
        if (e == NULL)
            return;
    }
    const method_info *m = e->m;
    if ((uint64_t)loc >= m->code_len)
        return;
    if (ts->pend_key != 0) {
        /* The previous step was an invoke: if the caller resumes right after
         * it, the callee ran no bytecode (native or interpreter intrinsic). */
        if (method == ts->pend_method && loc == ts->pend_next)
            ts->native[ts->pend_key - 1] = 1;
        ts->pend_key = 0;
    }
    if (loc == 0 && m->root != ROOT_NONE)
        root_enter(a, ts, thread, method, m);
    uint8_t op = m->code[loc];
    int b = ts->bucket;
    e->hist[b * 256 + op]++;
    ts->n[b]++;
    ts->prev_op = op;
    if (m->dep != NULL) {
        uint32_t k = m->dep[loc];
        if (k != 0) {
            ts->dep[b][k - 1]++;
            if (op >= BC_INVOKEVIRTUAL && op <= BC_INVOKEINTERFACE) {
                ts->pend_key = k;
                ts->pend_method = method;
                ts->pend_next = loc + (op == BC_INVOKEINTERFACE ? 5 : 3);
            }
        }
    }
}

void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc)
{
    (void)jvmti;
    thread_state *ts = tls;
    if (ts == NULL || !ts->measuring)
        return;
    count_step(&g_agent, ts, jni, thread, method, loc);
}

static int set_thread_events(agent *a, jvmtiEventMode mode, jthread thread)
{
    jvmtiEnv *jv = a->jvmti;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_FRAME_POP, thread),
                    "SetEventNotificationMode(FRAME_POP)") != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, thread),
                    "SetEventNotificationMode(SAMPLED_OBJECT_ALLOC)") != 0)
        return -1;
    return jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_SINGLE_STEP, thread),
                       "SetEventNotificationMode(SINGLE_STEP)");
}

void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc)
{
    agent *a = &g_agent;
    (void)jvmti;
    if (a->dead || method != a->target || loc != 0)
        return;
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring)
        return; /* recursion: the nested invocation gets its own step */
    if (set_thread_events(a, JVMTI_ENABLE, thread) != 0 ||
        jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, 0), "NotifyFramePop") != 0) {
        set_thread_events(a, JVMTI_DISABLE, thread);
        return;
    }
    ts->measuring = 1;
    ts->bucket = BUCKET_WORK;
    ts->n[0] = ts->n[1] = 0;
    ts->pend_key = 0;
    ts->prev_op = BC_INVOKESTATIC; /* the method was entered by a call */
    count_step(a, ts, jni, thread, method, loc); /* no SingleStep comes for this location */
}

/* Append an invocation record (takes the lock). */
static void record_invocation(agent *a, thread_state *ts, const char *end)
{
    lock_enter(a);
    if (a->ninvocations == a->invocations_cap) {
        uint32_t cap = a->invocations_cap ? a->invocations_cap * 2 : 16;
        invocation *v = realloc(a->invocations, cap * sizeof *v);
        if (v == NULL) {
            lock_exit(a);
            agent_fail(a, "out of memory for invocation records");
            return;
        }
        a->invocations = v;
        a->invocations_cap = cap;
    }
    invocation *inv = &a->invocations[a->ninvocations++];
    inv->thread = strdup(ts->thread_name ? ts->thread_name : "?");
    inv->n[0] = ts->n[0];
    inv->n[1] = ts->n[1];
    inv->end = end;
    lock_exit(a);
}

void JNICALL on_frame_pop(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jboolean by_exception)
{
    agent *a = &g_agent;
    (void)jvmti;
    (void)jni;
    thread_state *ts = tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    if (ts->bucket == BUCKET_OVERHEAD) {
        if (method == ts->root_method) {
            ts->bucket = BUCKET_WORK;
            ts->root_method = NULL;
            ts->prev_op = ts->saved_prev_op; /* the bytecode that triggered it is still executing */
        }
        return;
    }
    if (method != a->target)
        return;
    set_thread_events(a, JVMTI_DISABLE, thread);
    ts->measuring = 0;
    ts->pend_key = 0;
    record_invocation(a, ts, by_exception ? "exception" : "return");
}

/* The dependency key of an array class, remembered in the class's tag. */
static uint32_t array_key(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jlong tag = 0;
    if (jvmti_check(a, (*jv)->GetTag(jv, klass, &tag), "GetTag") != 0)
        return 0;
    if ((tag >> TAG_KIND_SHIFT) == TAG_ARRAY_KEY)
        return (uint32_t)(tag & TAG_INDEX_MASK);
    char *sig = NULL;
    if (jvmti_check(a, (*jv)->GetClassSignature(jv, klass, &sig, NULL), "GetClassSignature") != 0)
        return 0;
    char elem[1024];
    uint32_t k = 0;
    if (sig[0] == '[' && name_from_signature(sig, 1, elem, sizeof elem) != 0) {
        lock_enter(a);
        k = keys_intern(&a->keys, KEY_ARRAY, elem);
        lock_exit(a);
        if (k != 0)
            jvmti_check(a, (*jv)->SetTag(jv, klass, ((jlong)TAG_ARRAY_KEY << TAG_KIND_SHIFT) | k), "SetTag");
    }
    (*jv)->Deallocate(jv, (unsigned char *)sig);
    return k;
}

/*
 * With -XX:-UseTLAB and a sampling interval of 0, HotSpot reports every
 * allocation through SampledObjectAlloc, on the allocating thread. Arrays
 * allocated while a newarray/anewarray/multianewarray executes in a measured
 * extent are charged with their exact length, however it was computed.
 */
void JNICALL on_sampled_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jclass klass, jlong size)
{
    agent *a = &g_agent;
    (void)jvmti;
    (void)thread;
    (void)size;
    thread_state *ts = tls;
    if (a->dead || ts == NULL || !ts->measuring || !(bc_flags(ts->prev_op) & BCF_NEWARRAY))
        return;
    uint32_t k = array_key(a, klass);
    if (k == 0 || (k > ts->dep_cap && ts_cover_keys(a, ts) != 0))
        return;
    jsize len = (*jni)->GetArrayLength(jni, (jarray)obj);
    ts->dep[ts->bucket][k - 1]++;
    ts->elems[ts->bucket][k - 1] += (uint64_t)len;
}

void counting_finish(agent *a)
{
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->measuring) {
            record_invocation(a, ts, "incomplete");
            ts->measuring = 0;
        }
}

void counting_free(agent *a)
{
    thread_state *ts = a->threads;
    while (ts != NULL) {
        thread_state *next = ts->next;
        for (uint32_t i = 0; i < ts->hist_cap; i++)
            free(ts->hist[i]);
        free(ts->hist);
        for (int b = 0; b < BUCKETS; b++) {
            free(ts->dep[b]);
            free(ts->elems[b]);
        }
        free(ts->native);
        free(ts->thread_name);
        free(ts);
        ts = next;
    }
    a->threads = NULL;
    for (uint32_t i = 0; i < a->ninvocations; i++)
        free(a->invocations[i].thread);
    free(a->invocations);
    a->invocations = NULL;
    a->ninvocations = a->invocations_cap = 0;
}
