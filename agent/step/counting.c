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
 * HotSpot posts no SingleStep either for a location equal to the last one
 * (jvmtiEnvThreadState.cpp: a repeated step is "just not posted"). Two
 * consecutive steps share a location when a method calls itself right
 * before a return and its callee returns from that same return (the caller
 * resumes at it: `down(n - 1); return;`, a quicksort's last recursive call),
 * and in a goto to itself (an endless loop). The first is counted by
 * tail_returns, the second stops the program as over the bytecode limit.
 *
 * The per-step path (count_step) is: a direct-mapped per-thread cache lookup
 * of the method, one opcode read from the method's cached bytecodes, four
 * counter increments (by opcode, by offset, by calling context, the total),
 * for offsets that name a dependency one more, and after a conditional
 * branch one update of the thread's simulated predictor (branchpred.h). At
 * offset 0 and after a return, the calling context changes (contexts.c:
 * a hash probe in a preallocated pool, no allocation). It allocates nothing, takes no lock and calls no JVMTI
 * function, except on the first step into a method (cache miss), at the
 * entry of an overhead root, at a return right after a self-call
 * (tail_returns: the chain's length from the calling contexts, which keep
 * each frame's call site; one GetStackTrace or more where they cannot, with
 * a stack deeper than CTX_DEPTHS), and the first time a getstatic,
 * putstatic or invokestatic of a program's method executes (clinit.c: a
 * class of the program's may need initializing; one byte test after that).
 *
 * A thread the scheduler runs (sched.c: the method started threads) pays
 * one more compare per step, and takes sched.c's slow path when its turn
 * is over or not yet its own.
 *
 * It calls clinit.c, methods.c, fast.c, linkage.c and sched.c directly;
 * they call it back only through a->hooks (agent.h) and read the thread's
 * state from state.c (agent_self), and the end of a run at a limit goes up
 * to vmentry.c through a->hooks.finish.
 */
#include "agent.h"
#include "bytecode.h"
#include "mutf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* The slot of method id in a thread's direct-mapped method cache. */
static uint32_t cache_slot(jmethodID id)
{
    uintptr_t v = (uintptr_t)id;
    return (uint32_t)((v >> 3) ^ (v >> 15)) & (MCACHE_SIZE - 1);
}

/* A malloc'd UTF-8 copy of the thread's name, "?" when JVMTI cannot say. */
static char *thread_name(agent *a, jthread thread)
{
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    if (jvmti_check(a, (*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info), "GetThreadInfo") != 0)
        return strdup("?");
    return xstrdup_jvmti(a, info.name);
}

/* The calling thread's state, created and registered on its first use;
 * NULL (reported) when out of memory. */
static thread_state *ts_get(agent *a, jthread thread)
{
    if (agent_tls != NULL)
        return agent_tls;
    thread_state *ts = calloc(1, sizeof *ts);
    if (ts == NULL) {
        agent_fail(a, "out of memory for thread state");
        return NULL;
    }
    ts->bp = malloc(BUCKETS * sizeof *ts->bp);
    if (ts->bp == NULL) {
        free(ts);
        agent_fail(a, "out of memory for thread state");
        return NULL;
    }
    for (int b = 0; b < BUCKETS; b++)
        bp_init(&ts->bp[b]);
    ts->thread_name = thread_name(a, thread);
    ts->grant = ts->budget = 1; /* the first step asks for a grant */
    lock_enter(a);
    ts->next = a->threads;
    a->threads = ts;
    lock_exit(a);
    agent_tls = ts;
    return ts;
}

/* Grow the per-key counters to cover every key interned so far. Called with
 * no lock; reads keys.count under the lock. */
static int ts_cover_keys(agent *a, thread_state *ts)
{
    lock_enter(a);
    uint32_t need = a->keys.count;
    lock_exit(a);
    return ts_keys_grow(ts, need);
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
        ts->hist[m->index] = calloc(HIST_OPS + (size_t)BUCKETS * m->code_len, sizeof(uint64_t));
        if (ts->hist[m->index] == NULL)
            goto oom;
    }
    if (ts_cover_keys(a, ts) != 0)
        goto oom;
    mcache_entry *e = &ts->cache[cache_slot(method)];
    e->id = method;
    e->m = m;
    e->hist = ts->hist[m->index];
    e->off = e->hist + HIST_OPS;
    return e;
oom:
    agent_fail(a, "out of memory for counters");
    return NULL;
}

/*
 * Measured code calls Thread.start(): tag the Thread object, so that the new
 * thread is counted from its first bytecode however late it gets to run
 * (ThreadStart comes on the new thread, possibly after the method returned),
 * and enforce the thread limit here, in the thread that asked.
 */
static void thread_start_seen(agent *a, thread_state *ts, JNIEnv *jni, jthread thread)
{
    jobject started = NULL;
    if (ts->bucket == BUCKET_OVERHEAD ||
        jvmti_check(a, (*a->jvmti)->GetLocalObject(a->jvmti, thread, 0, 0, &started), "GetLocalObject") != 0 ||
        started == NULL)
        return;
    jvmti_check(a, (*a->jvmti)->SetTag(a->jvmti, started, (jlong)TAG_STARTED_THREAD << TAG_KIND_SHIFT), "SetTag");
    (*jni)->DeleteLocalRef(jni, started);
    lock_enter(a);
    uint64_t n = ++a->threads_started;
    lock_exit(a);
    if (a->opts.max_threads != 0 && n > a->opts.max_threads) {
        char msg[160];
        snprintf(msg, sizeof msg, "the method started more than %llu threads (the limit)",
                 (unsigned long long)a->opts.max_threads);
        limit_stop(a, jni, thread, "thread_limit", msg);
    }
}

/* A step arrives at offset 0 of a method that may open an overhead frame. */
static void root_enter(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m)
{
    if (ts->bucket == BUCKET_OVERHEAD)
        return; /* already inside one: callees belong to it */
    if (m->root == ROOT_IF_UPCALL && ((bc_flags(ts->prev_op) & BCF_INVOKE) || ts->prev_method == method))
        return; /* called by the measured code, or a loop back to offset 0: that is work */
    if (jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, 0), "NotifyFramePop") != 0)
        return;
    ts->bucket = BUCKET_OVERHEAD;
    ts->root_method = method;
    ts->saved_prev_op = ts->prev_op;
    ts->root_mark_top = ts->ctx.mark_top; /* its frame was just pushed (context_step) */
    ts->root_mark_count = ts->ctx.mark_count;
}

/* max_bytecodes holds for the method as a whole: every thread it runs on, all
 * invocations. Threads do not touch the shared total on every step: each
 * counts down a grant of up to LIMIT_GRANT steps, then adds the grant to the
 * total and gets the next, never more than the steps left before the limit
 * plus one. Returns 1 when the total has passed the limit. One thread alone
 * stops on exactly the step after the limit; several may pass it by up to a
 * grant each. */
#define LIMIT_GRANT 65536

/* Add a thread's counted steps to the shared total; the new total. */
static uint64_t limit_add(agent *a, uint64_t steps)
{
    return atomic_fetch_add_explicit(&a->counted, steps, memory_order_relaxed) + steps;
}

/* 1 when a total of `total` steps is over max_bytecodes (0: no limit). */
static int limit_passed(const agent *a, uint64_t total)
{
    return a->opts.max_bytecodes != 0 && total > a->opts.max_bytecodes;
}

/* Stop the program with status bytecode_limit (limit_stop: does not return
 * when the JVM halts). */
static void bytecode_limit_stop(agent *a, JNIEnv *jni, jthread thread)
{
    char msg[160];
    snprintf(msg, sizeof msg, "the method executed more than %llu bytecodes (the limit)",
             (unsigned long long)a->opts.max_bytecodes);
    /* the fast engine knows the run passed the limit (or may have: its
     * probes count whole blocks), not at which bytecode; the step engine
     * stops at the one after the limit, and its profile is the result */
    if (a->opts.engine == AGENT_ENGINE_FAST)
        fast_problem(a, "%s, and only the step engine stops exactly where the limit is", msg);
    limit_stop(a, jni, thread, "bytecode_limit", msg);
}

/* A goto to itself: no step is posted for it again, and nothing else runs
 * in the frame, so it would spin uncounted until the wall-clock limit. It
 * executes more bytecodes than any limit: stop now. (goto_w to itself is
 * left to the clock: javac emits goto_w only for jumps beyond 32 KB.) */
static void endless_loop_stop(agent *a, JNIEnv *jni, jthread thread, const method_info *m, jlocation loc)
{
    if (a->opts.max_bytecodes == 0)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "the method executed more than %llu bytecodes (the limit): an endless loop,"
             " a goto to itself at offset %u of %s", (unsigned long long)a->opts.max_bytecodes,
             (unsigned)loc, m->name);
    limit_stop(a, jni, thread, "bytecode_limit", msg);
}

/* The thread used up its grant: report it and take the next. */
static int limit_grant(agent *a, thread_state *ts)
{
    uint64_t total = limit_add(a, ts->grant);
    if (limit_passed(a, total))
        return 1;
    uint64_t left = a->opts.max_bytecodes != 0 ? a->opts.max_bytecodes - total + 1 : LIMIT_GRANT;
    ts->grant = ts->budget = left < LIMIT_GRANT ? left : LIMIT_GRANT;
    return 0;
}

/* A thread stops counting (its extent ended, or the helper thread ends):
 * hand back what it counted of its grant, so the total stays exact, and
 * stop the program if that passes the limit. The next step asks anew. */
static void limit_return(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    uint64_t total = limit_add(a, ts->grant - ts->budget);
    ts->grant = ts->budget = 1;
    if (limit_passed(a, total))
        bytecode_limit_stop(a, jni, thread);
}

/* The step after a conditional branch at ts->prev_loc of m: it went to loc.
 * Feeds the outcome to the thread's predictor and counts it. */
static inline void branch_outcome(thread_state *ts, const method_info *m, jlocation loc, int b)
{
    uint32_t pc = (uint32_t)ts->prev_loc;
    if ((uint64_t)pc + 3 > m->code_len)
        return;
    int32_t target = (int32_t)pc + (int16_t)(uint16_t)((m->code[pc + 1] << 8) | m->code[pc + 2]);
    int taken;
    if (loc == (jlocation)pc + 3)
        taken = 0;
    else if (loc == (jlocation)target)
        taken = 1;
    else
        return; /* not the step after it (cannot happen: the branch throws nothing) */
    ts->br[b][BR_EXECUTED]++;
    ts->br[b][BR_TAKEN] += (uint64_t)taken;
    ts->br[b][BR_MISPREDICTED] += (uint64_t)bp_branch(&ts->bp[b], bp_site(m->bp_seed, pc), taken);
}

/* The step is the first of a Java method's frame, entered by an invoke:
 * count the entry, and how close it came after the previous one. */
static inline void method_entry(thread_state *ts, int b)
{
    uint64_t now = ts->n[0] + ts->n[1];
    ts->calls[b][CALL_ENTRIES]++;
    if (!ts->entry_far)
        ts->calls[b][CALL_CLOSE] += call_closeness(now - ts->entry_at);
    ts->entry_at = now;
    ts->entry_far = 0;
}

/* Count k more executions of the bytecode of the last step, op at loc (no
 * branch, no dependency: a return). Returns 1 when that passed the bytecode
 * limit. */
static int count_more(agent *a, thread_state *ts, uint64_t *hist, uint8_t op, jlocation loc, uint64_t k)
{
    int b = ts->bucket;
    hist[b * 256 + op] += k;
    hist[HIST_OPS + OFF_SLOT(loc, b)] += k;
    ts->ctx.cur[b] += k;
    ts->n[b] += k;
    while (k > 0) {
        uint64_t d = k < ts->budget ? k : ts->budget;
        ts->budget -= d;
        k -= d;
        if (ts->budget == 0 && limit_grant(a, ts))
            return 1;
    }
    return 0;
}

/*
 * The step at `loc` of m is a return that follows a call of a method named
 * like m (m->tail). If the callers' frames are m's own, stopped at that
 * call, each of them resumes at this same return and HotSpot posts no step
 * for it (see the top of this file): count them here. No JVMTI call on
 * other steps.
 *
 * The callers are read in batches that grow fourfold (16 frames, then 64,
 * 256, ...), each starting below the last: a GetStackTrace costs the
 * frames it skips plus the frames it returns, so a chain of L such callers
 * costs between L and about 6L frames walked (about 1.4L when the stack
 * ends below the chain) in log4(L/16) calls, whatever the depth of the
 * stack, and a return with no such caller costs one call of 16 frames.
 * Batches of one fixed size would cost L^2/32 frames for a chain: scoring
 * time would grow with the depth of the recursion. The frame buffer grows
 * with the longest chain the thread has met (ts->tail_frames).
 */
#define TAIL_FIRST 16

/* The frames below the top that are `method` resuming at `call`, read from
 * the stack in growing batches (above): their number, or -1 (reported). */
static int64_t stacked_callers(agent *a, thread_state *ts, jthread thread, jmethodID method, jlocation call)
{
    uint64_t callers = 0;
    jint depth = 1, want = TAIL_FIRST;
    for (;;) {
        if ((uint32_t)want > ts->tail_cap) {
            jvmtiFrameInfo *f = realloc(ts->tail_frames, (size_t)want * sizeof *f);
            if (f == NULL) {
                agent_fail(a, "out of memory for the frames of a chain of tail calls");
                return -1;
            }
            ts->tail_frames = f;
            ts->tail_cap = (uint32_t)want;
        }
        jvmtiFrameInfo *frames = ts->tail_frames;
        jint n = 0, i = 0;
        jvmtiError err = (*a->jvmti)->GetStackTrace(a->jvmti, thread, depth, want, frames, &n);
        if (err == JVMTI_ERROR_ILLEGAL_ARGUMENT)
            n = 0; /* no frame that deep: the bottom of the thread's stack (Thread.run calling run()) */
        else if (jvmti_check(a, err, "GetStackTrace") != 0)
            return -1;
        while (i < n && frames[i].method == method && frames[i].location == call)
            i++;
        callers += (uint64_t)i;
        if (i < want || want > INT32_MAX / 8 - depth)
            return (int64_t)callers;
        depth += want;
        want *= 4;
    }
}

static void tail_returns(agent *a, thread_state *ts, JNIEnv *jni, jthread thread, jmethodID method,
                         const method_info *m, uint64_t *hist, jlocation loc)
{
    jlocation call = -1;
    for (uint32_t i = 0; i < m->ntail; i++)
        if (m->tail[2 * i + 1] == (uint32_t)loc)
            call = m->tail[2 * i];
    if (call < 0)
        return;
    /* The calling contexts keep a direct recursion as one run, with the call
     * site that entered each frame: they say it without a walk of the stack
     * (which costs more per frame the deeper the stack), and the stack is
     * read where they cannot. */
    int64_t callers = ctx_tail_callers(ts, m->index, (uint32_t)call);
    if (callers < 0)
        callers = stacked_callers(a, ts, thread, method, call);
    if (callers <= 0)
        return;
    /* the callers are frames of this method resuming at this return: the
     * context of this one (a direct recursion stays in its node) */
    int stop = count_more(a, ts, hist, m->code[loc], loc, (uint64_t)callers);
    ctx_leave(ts, (uint64_t)callers);
    if (stop)
        bytecode_limit_stop(a, jni, thread);
}

/* A step at offset 0 or after a return (count_step): leave the frame that
 * returned, enter the one that began. A step at 0 right after a return in
 * another method is the JVM calling in (Thread.exit after run): both. */
static void context_step(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m,
                         jlocation loc)
{
    int ret = (uint8_t)(ts->prev_op - BC_IRETURN) <= BC_RETURN - BC_IRETURN;
    if (ret)
        ctx_leave(ts, 1);
    if (loc == 0 && (ret || method != ts->prev_method || (bc_flags(ts->prev_op) & BCF_INVOKE)))
        ctx_enter(a, ts, thread, method, m, ts->prev_method, ts->prev_loc);
}

/* A carrier thread is about to run a virtual thread's code (one started
 * before the method: the method's own are refused at their start) while
 * the method runs, code JVMTI posts no steps for to this agent: refused,
 * on any thread, counted or not. */
static void virtual_mount_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts)
{
    char msg[256];
    snprintf(msg, sizeof msg,
             "a virtual thread started before the method ran while it ran (on carrier thread '%s'): "
             "work on virtual threads is not counted",
             ts != NULL && ts->thread_name != NULL ? ts->thread_name : "?");
    limit_stop(a, jni, thread, "virtual_threads", msg);
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
         * it, the callee ran no bytecode (native or interpreter intrinsic),
         * and the arrays allocated meanwhile are the native call's: they are
         * charged as allocations, and their elements also count as elements
         * the call handled (an array's clone copies every one of them). */
        if (method == ts->pend_method && loc == ts->pend_next) {
            ts->native[ts->pend_key - 1] = 1;
            /* it returned through a fence: how close after the last entry? */
            if (ts->pend_fence && !ts->entry_far)
                ts->calls[ts->bucket][CALL_FENCE_NATIVE] += call_closeness(ts->n[0] + ts->n[1] - ts->entry_at);
            for (int i = 0; i < ts->npend; i++) {
                ts->dep[ts->bucket][ts->pend[i].key - 1] += ts->pend[i].allocations;
                ts->elems[ts->bucket][ts->pend[i].key - 1] += ts->pend[i].elements;
                ts->elems[ts->bucket][ts->pend_key - 1] += ts->pend[i].elements;
            }
        }
        ts->pend_key = 0;
        ts->npend = 0;
    }
    /* a frame began (offset 0, entered by an invoke or by the JVM; not a
     * loop back to 0) or ended (the last step was a return): the calling
     * context changes; other steps pay two compares */
    if (loc == 0 || (uint8_t)(ts->prev_op - BC_IRETURN) <= BC_RETURN - BC_IRETURN)
        context_step(a, ts, thread, method, m, loc);
    if (loc == 0 && m->root != ROOT_NONE) {
        if (m->root == ROOT_THREAD_START) {
            thread_start_seen(a, ts, jni, thread);
            if (!ts->measuring)
                return; /* the thread limit stopped the program */
        } else if (m->root == ROOT_VIRTUAL_START) {
            /* A virtual thread runs mounted on a carrier, where JVMTI posts
             * no steps to an agent without virtual-thread support: its work
             * would vanish from the count. Refused before it starts. */
            limit_stop(a, jni, thread, "virtual_threads",
                       "the method started a virtual thread (Thread.ofVirtual, a virtual-thread executor): "
                       "work on virtual threads is not counted");
            return;
        } else if (m->root == ROOT_VIRTUAL_MOUNT) {
            virtual_mount_stop(a, jni, thread, ts);
            return;
        } else {
            root_enter(a, ts, thread, method, m);
        }
    }
    uint8_t op = m->code[loc];
    /* the program's code is work, also where the JVM runs it on the method's
     * behalf inside its own overhead (a JDK initializer instantiating a
     * class named in a system property: docs/hidden-work.md) */
    int b = ts->bucket == BUCKET_OVERHEAD && m->program ? BUCKET_WORK : ts->bucket;
    if (bp_is_conditional(ts->prev_op) && ts->prev_method == method)
        branch_outcome(ts, m, loc, b);
    else if (loc == 0 && (bc_flags(ts->prev_op) & BCF_INVOKE))
        method_entry(ts, b);
    /* an allocation (a locked compare-and-swap on eden): how close after the
     * last entry, counting both (the entry's own first bytecode can be it)?
     * new, newarray, anewarray are 0xbb..0xbd: compares, no table lookup */
    if ((uint8_t)(op - BC_NEW) <= BC_ANEWARRAY - BC_NEW || op == BC_MULTIANEWARRAY) {
        ts->arr_method = method; /* the arrays it makes, until it is done (step_arrays_thrown) */
        ts->arr_loc = loc;
        ts->narr = 0;
        ts->arr_overflow = 0;
        if (!ts->entry_far)
            ts->calls[b][CALL_FENCE_ALLOC] += call_closeness(ts->n[0] + ts->n[1] - ts->entry_at + 1);
    }
    e->hist[b * 256 + op]++;
    e->off[OFF_SLOT(loc, b)]++;
    ts->ctx.cur[b]++;
    ts->n[b]++;
    ts->prev_op = op;
    ts->prev_method = method;
    ts->prev_loc = loc;
    if (--ts->budget == 0 && limit_grant(a, ts)) {
        bytecode_limit_stop(a, jni, thread);
        return;
    }
    if (m->ntail != 0 && (bc_flags(op) & BCF_RETURN)) {
        tail_returns(a, ts, jni, thread, method, m, e->hist, loc);
        return;
    }
    if (op == BC_GOTO && (uint64_t)loc + 3 <= m->code_len && m->code[loc + 1] == 0 && m->code[loc + 2] == 0) {
        endless_loop_stop(a, jni, thread, m, loc);
        return;
    }
    uint32_t v;
    if (m->dep != NULL && (v = m->dep[loc]) != 0) {
        uint32_t k = DEP_KEY(v);
        if (k != 0) {
            ts->dep[b][k - 1]++;
            if (op >= BC_INVOKEVIRTUAL && op <= BC_INVOKEINTERFACE) {
                ts->pend_key = k;
                ts->pend_fence = !(v & DEP_NO_FENCE);
                ts->pend_method = method;
                ts->pend_next = loc + (op == BC_INVOKEINTERFACE ? 5 : 3);
            }
        }
        /* the first time here: a static access of the JDK's, whose
         * resolution may run an initializer hidden from stepping */
        if ((v & DEP_WATCH) && atomic_load_explicit(&m->watch_site[loc], memory_order_relaxed))
            linkage_watch(a, ts, thread, method, m, loc);
    }
    if (m->init_site != NULL && atomic_load_explicit(&m->init_site[loc], memory_order_relaxed)) {
        clinit_site(a, ts, jni, method, m, loc); /* first time here: a class of the program's to initialize? */
        if (op == BC_INVOKEDYNAMIC)
            linkage_open(a, ts, thread, method, loc); /* its linkage must run none of the program's code */
    }
}

static int borrow_begin(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc);


/* SingleStep: count one bytecode on a measuring, unpaused thread; on any
 * other thread, a step of a bystander (bystanders.c). */
void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc)
{
    (void)jvmti;
    thread_state *ts = agent_tls;
    if (ts != NULL && ts->measuring) {
        /* a thread the scheduler runs (sched.c): its turn over, or not its turn */
        if (ts->sched_slot != 0 &&
            (--ts->sched_quantum == 0 ||
             atomic_load_explicit(&g_agent.sched.turn, memory_order_acquire) != (int32_t)ts->sched_slot ||
             g_agent.sched.check)) {
            sched_step(&g_agent, jni, ts);
            if (g_agent.dead)
                return; /* the run ended while it waited for its turn (the holder's limit stop reads the totals) */
        }
        if (ts->link_method != NULL)
            linkage_close(&g_agent, ts, thread); /* the call site is linked */
        if (!ts->paused)
            count_step(&g_agent, ts, jni, thread, method, loc);
        return;
    }
    if (ts != NULL && ts->sched_slot != 0) {
        sched_step(&g_agent, jni, ts); /* uncounted, it still takes turns with the threads it started */
        return;
    }
    /* a thread that is not counted: a bystander watched while an extent
     * runs; the program's code there is counted (borrow_begin) */
    if (g_agent.dead)
        return;
    /* its state made, a class read the first time: the agent's CPU time,
     * not the thread's work (bystanders.c judges that) */
    jlong t0 = ts == NULL ? bystanders_self_cpu() : 0;
    if (ts == NULL && (ts = ts_get(&g_agent, thread)) == NULL)
        return;
    mcache_entry *e = &ts->cache[cache_slot(method)];
    if (e->id != method) {
        if (t0 == 0)
            t0 = bystanders_self_cpu();
        e = cache_fill(&g_agent, ts, jni, method);
    }
    if (t0 != 0)
        bystanders_agent_cpu(ts, t0);
    if (e == NULL)
        return;
    if (loc == 0 && e->m->root == ROOT_VIRTUAL_MOUNT &&
        __atomic_load_n(&g_agent.active_extents, __ATOMIC_RELAXED) > 0) {
        virtual_mount_stop(&g_agent, jni, thread, ts);
        return;
    }
    if (bystanders_step(&g_agent, jni, thread, ts, e->m->program) &&
        borrow_begin(&g_agent, jni, thread, ts, method, loc) != 0)
        bystanders_charge(&g_agent, jni, thread, ts); /* no frame of the program's on its stack */
}

/* Switch the per-thread events of an extent (FramePop, SampledObjectAlloc,
 * Exception, ExceptionCatch, SingleStep) on or off for thread (state ts); 0, or -1
 * (reported). With engine=fast, the thread's probes take the place of
 * SingleStep and ExceptionCatch; SampledObjectAlloc stays for the arrays natives allocate. */
static int set_thread_events(agent *a, jvmtiEventMode mode, jthread thread, thread_state *ts)
{
    jvmtiEnv *jv = a->jvmti;
    int fast = a->opts.engine == AGENT_ENGINE_FAST;
    /* a window left open (an exception from the resolution ended the
     * extent before the next step): method entries would keep the thread
     * interpreted and their events coming (the thread's own: another
     * thread's state is its own to change) */
    if (mode == JVMTI_DISABLE && ts != NULL && ts == agent_tls && ts->link_method != NULL)
        linkage_close(a, ts, thread);
    if (fast && mode == JVMTI_DISABLE && fast_thread(a, ts, thread, 0) != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_FRAME_POP, thread),
                    "SetEventNotificationMode(FRAME_POP)") != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, thread),
                             "SetEventNotificationMode(SAMPLED_OBJECT_ALLOC)") != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_EXCEPTION, thread),
                    "SetEventNotificationMode(EXCEPTION)") != 0)
        return -1;
    if (!fast && jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_EXCEPTION_CATCH, thread),
                             "SetEventNotificationMode(EXCEPTION_CATCH)") != 0)
        return -1;
    if (fast)
        return mode == JVMTI_ENABLE ? fast_thread(a, ts, thread, 1) : 0;
    return jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_SINGLE_STEP, thread),
                       "SetEventNotificationMode(SINGLE_STEP)");
}

/* Switch counting on for this thread, at a method entered as if called
 * (an extent, or code of the method's class that runs before it). With
 * notify_pop, the frame now at the top ends it when it pops. */
static int start_counting(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int notify_pop)
{
    if (set_thread_events(a, JVMTI_ENABLE, thread, ts) != 0 ||
        (notify_pop && jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, 0), "NotifyFramePop") != 0)) {
        set_thread_events(a, JVMTI_DISABLE, thread, ts);
        return -1;
    }
    if (ts->ref == NULL)
        ts->ref = (*jni)->NewGlobalRef(jni, thread);
    return 0;
}

/* The counters a counted span starts from, after bystanders_counting;
 * its calling contexts start at the root. */
static void start_span(agent *a, thread_state *ts)
{
    ctx_start(a, ts);
    ts->measuring = 1;
    ts->bucket = BUCKET_WORK;
    ts->n[0] = ts->n[1] = 0;
    ts->pend_key = 0;
    ts->npend = 0;
    ts->prev_op = BC_INVOKESTATIC; /* entered by a call */
    ts->entry_far = 1;
    ts->prev_method = NULL;        /* (not the last span's last step) */
    ts->prev_loc = -1;
}

/* Switch counting off for this thread at the end of a span. Returns -1
 * when the bytecode limit stopped the program meanwhile. */
static int stop_counting(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    set_thread_events(a, JVMTI_DISABLE, thread, ts);
    limit_return(a, jni, thread, ts);
    if (a->result_written)
        return -1; /* the limit stopped the program */
    bystanders_counting(a, ts, thread, 0);
    ts->measuring = 0;
    ts->pend_key = 0;
    ts->npend = 0;
    sched_extent_end(a, jni, thread, ts); /* threads it started still run: it keeps its turns */
    return 0;
}

static void resume_idle_helpers(agent *a);

/* ts's counts, zeroed then, go to invocation inv (0-based), or, while that
 * one still runs, to the next one recorded (pre_n). `unscheduled`: they
 * ran on a thread the method did not start, which nothing schedules, so
 * how much of them falls inside the method's run can vary (lock held). */
static void charge_counts(agent *a, thread_state *ts, uint32_t inv, int unscheduled)
{
    int recorded = inv < a->ninvocations;
    uint64_t *to = recorded ? a->invocations[inv].n : a->pre_n;
    for (int b = 0; b < BUCKETS; b++)
        to[b] += ts->n[b];
    if (unscheduled)
        *(recorded ? &a->invocations[inv].unscheduled : &a->pre_unscheduled) += ts->n[BUCKET_WORK];
    ts->n[0] = ts->n[1] = 0;
}

/* A helper no longer counted (a daemon stopped at its extent's end) begins
 * to count for something else: what it counted as a helper stays with the
 * invocation that started it. */
static void helper_fold(agent *a, thread_state *ts)
{
    if (!ts->helper)
        return;
    lock_enter(a);
    charge_counts(a, ts, ts->inv_index, 0);
    lock_exit(a);
    ts->helper = ts->daemon = ts->idle_helper = 0;
}

/* What a bystander counted in the program's code (borrow_begin) goes to
 * the invocation it counted for; to the next one recorded while that one
 * still runs. After the span ended (or the extents' end stopped it). */
static void borrow_fold(agent *a, thread_state *ts)
{
    if (ts->borrow_method == NULL)
        return;
    lock_enter(a);
    charge_counts(a, ts, ts->borrow_inv, 1);
    lock_exit(a);
    ts->borrow_method = NULL;
}

/* The depth of the outermost frame of the program's on the calling
 * thread's stack; -1 when there is none (or JVMTI cannot say). */
static jint outermost_program_frame(agent *a, JNIEnv *jni)
{
    jvmtiFrameInfo fr[256];
    jint found = -1;
    for (jint start = 0;; start += 256) {
        jint n = 0;
        if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, start, 256, fr, &n) != JVMTI_ERROR_NONE || n <= 0)
            return found;
        for (jint i = 0; i < n; i++) {
            const method_info *m = methods_get(a, jni, fr[i].method);
            if (m != NULL && m->program)
                found = start + i;
        }
        if (n < 256)
            return found;
    }
}

/* The calling contexts of frames root..0 of the calling thread, outermost
 * first, as if counting had entered each of them. */
static void borrow_contexts(agent *a, thread_state *ts, JNIEnv *jni, jthread thread, jint root)
{
    jmethodID caller = NULL;
    jlocation call = -1;
    jvmtiFrameInfo fr[256];
    for (jint top = root; top >= 0; top -= 256) {
        jint lo = top >= 255 ? top - 255 : 0, n = 0;
        if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, lo, top - lo + 1, fr, &n) != JVMTI_ERROR_NONE)
            return;
        for (jint i = n - 1; i >= 0; i--) {
            const method_info *m = methods_get(a, jni, fr[i].method);
            if (m == NULL)
                return;
            ctx_enter(a, ts, thread, fr[i].method, m, caller, call);
            caller = fr[i].method;
            call = fr[i].location;
        }
    }
}

/*
 * A bystander, a thread the method did not start that is stepped while an
 * extent runs (bystanders.c), executes a bytecode of the program's, or of
 * the JDK's that the program's code may have called: from here it is
 * counted, for the invocation running, until the outermost frame of the
 * program's on its stack returns (borrow_end) or the last running extent
 * ends (extents_end). So the program's code counts while the
 * method runs on every thread, with everything it calls: work handed to a
 * thread started before the method, finalize(), a Cleaner's action. The
 * JDK's code such a thread runs outside the program's frames (a pool
 * waking up, the Finalizer's loop) is not: bystanders.c watches it.
 * Returns -1, counting nothing, when no frame of the program's is on the
 * stack. Its own CPU time is the agent's, not the thread's.
 */
static int borrow_begin(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc)
{
    jlong t0 = bystanders_self_cpu();
    jint root = outermost_program_frame(a, jni);
    jmethodID root_method = NULL;
    jlocation root_loc = 0;
    if (root < 0 ||
        (*a->jvmti)->GetFrameLocation(a->jvmti, NULL, root, &root_method, &root_loc) != JVMTI_ERROR_NONE) {
        bystanders_agent_cpu(ts, t0);
        return -1;
    }
    helper_fold(a, ts);
    borrow_fold(a, ts); /* a span the extents' end stopped */
    if (start_counting(a, jni, thread, ts, 0) != 0) {
        bystanders_agent_cpu(ts, t0);
        return 0;
    }
    if (jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, root), "NotifyFramePop") != 0) {
        set_thread_events(a, JVMTI_DISABLE, thread, ts);
        bystanders_agent_cpu(ts, t0);
        return 0;
    }
    lock_enter(a);
    ts->borrow_inv = a->ninvocations; /* the invocation running: recorded at its end */
    lock_exit(a);
    ts->borrow_method = root_method;
    bystanders_look(a, ts); /* below this frame, nothing of the program's is left to look for */
    bystanders_agent_cpu(ts, t0);
    bystanders_counting(a, ts, thread, 1);
    start_span(a, ts);
    borrow_contexts(a, ts, jni, thread, root);
    ts->prev_op = 0; /* nothing called it: it was running already (or returned to from the JDK) */
    ts->prev_method = method;
    __atomic_store_n(&ts->borrow_live, 1, __ATOMIC_RELEASE);
    count_step(a, ts, jni, thread, method, loc);
    return 0;
}

/* The span borrow_begin started stops being counted (lock not held):
 * on its own thread when its frame pops, or on the thread whose extent
 * ended last; whichever comes first. */
static int borrow_stop(agent *a, thread_state *ts, jthread thread)
{
    if (!__atomic_exchange_n(&ts->borrow_live, 0, __ATOMIC_ACQ_REL))
        return 0;
    set_thread_events(a, JVMTI_DISABLE, thread, ts);
    bystanders_counting(a, ts, thread, 0);
    ts->measuring = 0;
    return 1;
}

/* The frame a bystander began to count in returns: what it counted goes to
 * its invocation, and while extents still run it is watched again (the
 * agent's work from the counting's end on is not the thread's). */
static void borrow_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    int stopped = borrow_stop(a, ts, thread);
    jlong t0 = bystanders_self_cpu();
    if (stopped)
        limit_return(a, jni, thread, ts);
    if (a->result_written)
        return; /* the limit stopped the program */
    borrow_fold(a, ts);
    lock_enter(a);
    int active = a->active_extents > 0;
    lock_exit(a);
    if (active)
        bystanders_sentry_on(a, thread);
    bystanders_agent_cpu(ts, t0);
}

/* The method is entered on this thread: open an extent (or let a
 * recursion be). The step engine's breakpoint at its offset 0 and the fast
 * engine's entry probe (counting_fast_begin) come here; 1 when an extent
 * was opened. */
static int extent_begin(agent *a, JNIEnv *jni, jthread thread)
{
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring)
        return 0; /* recursion: the nested invocation gets its own step */
    /* a helper no longer counted (a daemon stopped at its extent's end)
     * calls the method itself: it now opens an extent of its own */
    helper_fold(a, ts);
    borrow_fold(a, ts);
    int fast = a->opts.engine == AGENT_ENGINE_FAST;
    /* the fast engine's exit probe ends the extent: no frame pop (which
     * would keep the thread in the interpreter) */
    if (start_counting(a, jni, thread, ts, !fast) != 0)
        return 0;
    lock_enter(a);
    if (a->active_extents++ == 0) { /* a new allowance for bystanders' bytecodes */
        atomic_store_explicit(&a->sentry_steps, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&a->sentry_gen, 1, memory_order_relaxed);
    }
    lock_exit(a);
    bystanders_note(a, jni, ts, thread);
    bystanders_counting(a, ts, thread, 1);
    start_span(a, ts);
    ts->last_exception[0] = '\0';
    resume_idle_helpers(a);
    return 1;
}

/* Breakpoint: at the method's entry, open an extent on this thread (or
 * let a recursion be); any other breakpoint is clinit.c's. */
void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc)
{
    agent *a = &g_agent;
    (void)jvmti;
    if (a->dead || gcrefs_breakpoint(a, jni, thread, method))
        return;
    if (a->opts.engine == AGENT_ENGINE_FAST)
        fast_hidden_breakpoint(a, agent_tls, method); /* a hidden class's method (fast.c); clinit.c's may share it */
    if (method != a->target || loc != 0) {
        clinit_breakpoint(a, jni, thread, agent_tls, method, loc); /* the method's class is initialized */
        return;
    }
    if (extent_begin(a, jni, thread))
        count_step(a, agent_tls, jni, thread, method, loc); /* no SingleStep comes for this location */
}

/* engine=fast: the method's entry probe on a thread that is not counting
 * (fast.c, hooks.fast_begin): open an extent there. Block 0's probe, which
 * runs next, counts the first block. The thread's stack depth at the
 * method's frame (below begin0 and Probe.enter) tells later whether an
 * exception leaves the extent. */
void counting_fast_begin(agent *a, JNIEnv *jni, jthread thread)
{
    if (!extent_begin(a, jni, thread))
        return;
    thread_state *ts = agent_tls;
    jint frames = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") == 0)
        ts->fast_base = frames - 2;
    fast_set_depth(a, ts, 1);
}

/*
 * Code of the method's own class that runs before the method, outside any
 * extent (clinit.c): its static initializer, and the constructor that makes
 * the instance an instance method runs on. It is counted like an extent of
 * its own, whose counts go to the next invocation recorded. `frame`: the
 * initializer or constructor; at_entry: this is the breakpoint at its
 * offset 0, which gets no step of its own, and the frame's pop ends the
 * count; otherwise the caller runs the initializer and ends the count.
 */
static void extents_end(agent *a, JNIEnv *jni);

/* Start counting this thread outside an invocation (see above); 0, or -1
 * when it is already counting or cannot start. */
int pre_extent_begin(agent *a, JNIEnv *jni, jthread thread, jmethodID frame, int at_entry)
{
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring)
        return -1;
    if (start_counting(a, jni, thread, ts, at_entry) != 0)
        return -1;
    /* an extent for the threads it starts: they are counted, daemons too,
     * while it runs (on_thread_start), and watched afterwards */
    lock_enter(a);
    a->active_extents++;
    lock_exit(a);
    bystanders_counting(a, ts, thread, 1);
    start_span(a, ts);
    ts->pre_method = frame;
    if (at_entry && a->opts.engine == AGENT_ENGINE_STEP)
        count_step(a, ts, jni, thread, frame, 0); /* engine=fast: block 0's probe counts it */
    return 0;
}

/* End the count pre_extent_begin started on this thread; its steps wait
 * in a->pre_n for the next invocation recorded. */
void pre_extent_end(agent *a, JNIEnv *jni, jthread thread)
{
    thread_state *ts = agent_tls;
    if (ts == NULL || ts->pre_method == NULL)
        return;
    if (stop_counting(a, jni, thread, ts) != 0)
        return;
    lock_enter(a);
    for (int b = 0; b < BUCKETS; b++)
        a->pre_n[b] += ts->n[b];
    a->active_extents--;
    lock_exit(a);
    ts->pre_method = NULL;
    extents_end(a, jni);
    bystanders_release(a, jni);
}

/* Append an invocation record (takes the lock). */
static void record_invocation(agent *a, thread_state *ts, const char *end, const char *exception)
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
    for (int b = 0; b < BUCKETS; b++) {
        inv->n[b] += a->pre_n[b]; /* its class's initializer, its instance's constructor (clinit.c) */
        a->pre_n[b] = 0;
    }
    inv->unscheduled = a->pre_unscheduled;
    a->pre_unscheduled = 0;
    inv->end = end;
    inv->exception = exception != NULL && exception[0] != '\0' ? strdup(exception) : NULL;
    a->active_extents--;
    lock_exit(a);
}

/* A thread the measured code started that is not (or no longer) counted:
 * later extents watch it like any thread they did not start (bystanders.c). */
static void watch_from_now(agent *a, jthread thread)
{
    jvmti_check(a, (*a->jvmti)->SetTag(a->jvmti, thread, 0), "SetTag");
    a->foreign_threads = 1;
}

/*
 * The last running extent has ended (nothing to do while another runs):
 * bystanders counted in the program's code stop (borrow_stop), and daemon
 * threads the extents started stop being counted. The
 * JVM waits for other threads, so they are counted to their end; a daemon
 * thread it would cut off at an arbitrary point (a thread pool's idle
 * worker scanning for work, say), which would make the count vary from run
 * to run.
 *
 * A daemon that the scheduler runs (sched.c) keeps its slot, uncounted
 * (idle_helper): it goes on taking turns with the other slots, so where it
 * stands when the next extent begins is the same on every run, and that
 * extent counts it again from there (resume_idle_helpers). So a pool the
 * method started in one call (a parallel stream's workers) does the work of
 * the next call counted, instead of as a thread the method did not start.
 * Without the scheduler (engine=fast, which leaves threaded runs to the
 * step engine; the run's end) it is watched like any other thread.
 */
static void extents_end(agent *a, JNIEnv *jni)
{
    lock_enter(a);
    int others = a->active_extents;
    lock_exit(a);
    if (others > 0)
        return; /* another extent is still running: keep counting */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->borrow_method != NULL && ts->ref != NULL)
            borrow_stop(a, ts, ts->ref); /* its counts are folded on its thread, or at the run's end */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->helper && ts->daemon && ts->measuring && ts->ref != NULL) {
            bystanders_counting(a, ts, ts->ref, 0);
            if (ts->sched_slot != 0 && !a->dead) {
                ts->idle_helper = 1; /* its events stay on: its steps take turns (on_single_step) */
                ts->measuring = 0;
                continue;
            }
            set_thread_events(a, JVMTI_DISABLE, ts->ref, ts);
            sched_leave(a, jni, ts);
            ts->measuring = 0;
            watch_from_now(a, ts->ref);
        }
}

/*
 * An extent begins while daemon helpers of earlier ones wait between
 * extents (extents_end): they are counted again, for this
 * invocation, from the point the schedule left them at. What each counted
 * for the earlier invocation is charged to it first. The extent's thread
 * holds the baton here, so none of them is executing a bytecode.
 */
static void resume_idle_helpers(agent *a)
{
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->idle_helper && ts->helper && ts->ref != NULL) {
            lock_enter(a);
            charge_counts(a, ts, ts->inv_index, 0);
            ts->inv_index = a->ninvocations; /* the invocation now running (recorded at its end) */
            lock_exit(a);
            ts->idle_helper = 0;
            bystanders_counting(a, ts, ts->ref, 1);
            ts->measuring = 1;
        }
}

/* The extent's outermost frame of the method pops (by_exception: an
 * exception leaves it): stop counting and record the invocation. */
static void extent_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int by_exception)
{
    if (ts->helper || stop_counting(a, jni, thread, ts) != 0)
        return;
    bystanders_check(a, jni, ts);
    record_invocation(a, ts, by_exception ? "exception" : "return", by_exception ? ts->last_exception : NULL);
    extents_end(a, jni);
    bystanders_release(a, jni);
}

/* FramePop: the end of an overhead root, of a count before the method
 * (pre_extent_end), or of an outermost invocation, which is recorded. */
void JNICALL on_frame_pop(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jboolean by_exception)
{
    agent *a = &g_agent;
    (void)jvmti;
    thread_state *ts = agent_tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    if (ts->bucket == BUCKET_OVERHEAD) {
        if (method == ts->root_method) {
            ts->bucket = BUCKET_WORK;
            ts->root_method = NULL;
            ts->prev_op = ts->saved_prev_op; /* the bytecode that triggered it is still executing */
            ctx_restore(ts, ts->root_mark_top, ts->root_mark_count);
        }
        return;
    }
    if (ts->borrow_method != NULL) {
        if (method == ts->borrow_method)
            borrow_end(a, jni, thread, ts);
        return;
    }
    if (ts->pre_method != NULL) {
        if (method == ts->pre_method) {
            pre_extent_end(a, jni, thread);
            if (method == a->target_clinit)
                clinit_target_done(a);
        }
        return;
    }
    if (method == a->target)
        extent_end(a, jni, thread, ts, by_exception);
}

/* engine=fast: the exit probe before the return of the extent's outermost
 * frame (fast.c, hooks.fast_end): the extent ends, by return. */
void counting_fast_end(agent *a, JNIEnv *jni, jthread thread)
{
    thread_state *ts = agent_tls;
    if (ts != NULL && ts->measuring && ts->pre_method == NULL)
        extent_end(a, jni, thread, ts, 0);
}

/* engine=fast: a block probe found its thread past its bound (fast.c,
 * hooks.fast_limit): the run passed the limit, or may have. */
void counting_fast_limit(agent *a, JNIEnv *jni, jthread thread)
{
    bytecode_limit_stop(a, jni, thread);
}

/* engine=fast: a block of n bytecodes began on a thread that is not
 * counted while something is (fast.c, hooks.fast_bystander): a bystander,
 * or a thread the method started (the fast engine tags none, and refuses
 * them). Past the bystanders' allowance, counted by whole blocks, the step
 * engine decides (it counts the method's threads and watches the others
 * bytecode by bytecode) and the probes stop asking. */
void counting_fast_bystander(agent *a, JNIEnv *jni, jthread thread, uint32_t n, int program)
{
    thread_state *ts = agent_tls;
    if (a->dead || (ts == NULL && (ts = ts_get(a, thread)) == NULL) || ts->measuring)
        return;
    int by = bystanders_fast_block(a, jni, thread, ts, n, program);
    if (by == BYSTANDER_PROGRAM ||
        (by != 0 && bystanders_look(a, ts) && outermost_program_frame(a, jni) >= 0)) {
        fast_problem(a, "thread '%s', which this engine does not count, ran the program's code (or the JDK's, "
                        "called by it) while the method ran: the step engine counts it",
                     ts->thread_name != NULL ? ts->thread_name : "?");
        fast_unwatch(a, jni);
        return;
    }
    if (by == BYSTANDER_OVER) {
        fast_problem(a, "threads it does not count ran more than %llu bytecodes while the method ran (counted by "
                        "whole blocks): the step engine decides whether the method started them (it counts them) "
                        "or not (hidden work)",
                     (unsigned long long)bystanders_allowance());
        fast_unwatch(a, jni);
    }
}

/* A helper thread (started by the measured code, counted for its whole
 * life) ends: what it counted of its grant goes to the limit's total. */
void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
    agent *a = &g_agent;
    (void)jvmti;
    thread_state *ts = agent_tls;
    if (a->dead)
        return;
    bystanders_thread_end(a, jni, thread);
    if (ts != NULL && ts->sched_slot != 0 && !ts->measuring)
        sched_thread_end(a, jni, ts); /* an uncounted thread that took turns ends */
    if (ts == NULL || !ts->helper || !ts->measuring)
        return;
    sched_thread_end(a, jni, ts); /* the next thread's turn */
    limit_return(a, jni, thread, ts);
    bystanders_counting(a, ts, thread, 0);
    ts->measuring = 0; /* ended: nothing left to stop (extents_end) */
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
        char *utf8 = utf8_dup(elem);
        lock_enter(a);
        k = utf8 ? keys_intern(&a->keys, KEY_ARRAY, utf8) : 0;
        lock_exit(a);
        free(utf8);
        if (k != 0)
            jvmti_check(a, (*jv)->SetTag(jv, klass, ((jlong)TAG_ARRAY_KEY << TAG_KIND_SHIFT) | k), "SetTag");
    }
    (*jv)->Deallocate(jv, (unsigned char *)sig);
    return k;
}

/* The dependency key of an array class, for fast.c (hooks.array_key). */
uint32_t counting_array_key(agent *a, jclass klass)
{
    return array_key(a, klass);
}

/*
 * Whether array key k, allocated while the last step is an array
 * instruction, is that instruction's. An anewarray or multianewarray whose
 * class this class loader has not resolved yet first has HotSpot resolve it:
 * the class loader's Java code, which HotSpot runs without single-stepping
 * (the step engine counts none of its bytecodes, and the fast engine runs it
 * HIDDEN, counting nothing), and the JVM's own work (the String of the
 * name it looks up). The arrays they allocate are theirs, not the
 * instruction's: the instruction's are of the classes it names (every
 * level of a multianewarray) and are allocated in its own frame, at its
 * offset. A newarray resolves nothing.
 */
static int own_array(agent *a, jthread thread, thread_state *ts, uint32_t k)
{
    uint8_t op = ts->prev_op;
    if (op != BC_ANEWARRAY && op != BC_MULTIANEWARRAY)
        return 1;
    /* An instruction that made an array of its own has its class resolved
     * for good: nothing runs at it before its arrays any more (the byte[]
     * of the message of an exception it throws is taken back with the
     * rest, step_arrays_thrown). */
    uint32_t mslot = cache_slot(ts->prev_method);
    uint32_t slot = (mslot ^ (uint32_t)ts->prev_loc) & (OWN_SITES - 1);
    if (ts->own_sites[slot].method == ts->prev_method && ts->own_sites[slot].loc == ts->prev_loc)
        return 1;
    const mcache_entry *e = &ts->cache[mslot];
    const method_info *m = e->id == ts->prev_method ? e->m : NULL;
    uint32_t pc = (uint32_t)ts->prev_loc;
    cp_str c = {0};
    if (m == NULL || m->cls == NULL || !m->cls->cp_ok || ts->prev_loc < 0 || pc + 3u > m->code_len ||
        m->code[pc] != op || cp_class_name(&m->cls->cp, (uint16_t)(m->code[pc + 1] << 8 | m->code[pc + 2]), &c) != 0) {
        agent_fail(a, "the class of the array instruction that made an array cannot be read");
        return 1;
    }
    unsigned dims = op == BC_MULTIANEWARRAY && pc + 3 < m->code_len ? m->code[pc + 3] : 1;
    int named = 0;
    lock_enter(a);
    for (unsigned level = 0; level < dims && !named; level++) {
        char elem[1024], utf8[2048];
        size_t n = name_array_level(op, 0, c.ptr, c.len, level, elem, sizeof elem);
        if (n == 0)
            continue;
        if (n >= sizeof elem || mutf8_to_utf8(elem, n, utf8, sizeof utf8) >= sizeof utf8)
            named = 1; /* a name too long to compare: the frame decides */
        else
            named = keys_find(&a->keys, KEY_ARRAY, utf8) == k;
    }
    lock_exit(a);
    if (!named)
        return 0;
    jmethodID fm = NULL;
    jlocation at = -1;
    if (jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 0, &fm, &at), "GetFrameLocation") != 0)
        return 1; /* reported: the run fails */
    if (fm != ts->prev_method || at != ts->prev_loc)
        return 0;
    ts->own_sites[slot].method = ts->prev_method;
    ts->own_sites[slot].loc = ts->prev_loc;
    return 1;
}

/* An array charged to the array instruction now executing: noted, so that
 * step_arrays_thrown can take it back. */
static void step_array_note(thread_state *ts, uint32_t k, uint64_t len)
{
    uint32_t i = 0;
    while (i < ts->narr && (ts->arr[i].key != k || ts->arr[i].bucket != ts->bucket))
        i++;
    if (i == ts->narr) {
        if (ts->narr == STEP_ARRAYS) {
            ts->arr_overflow = 1;
            return;
        }
        ts->arr[i].key = k;
        ts->arr[i].bucket = ts->bucket;
        ts->arr[i].allocations = ts->arr[i].elements = 0;
        ts->narr++;
    }
    ts->arr[i].allocations++;
    ts->arr[i].elements += len;
}

/*
 * An exception thrown at (method, loc): if that is the allocating
 * instruction stepped last, it made no array. A negative size (or no
 * memory) throws, and by then HotSpot may have allocated arrays all the
 * same (the outer levels of a multianewarray, the byte[] of the
 * exception's message), which the step engine charged to the instruction
 * as it saw them and takes back now: the program got no array, and the
 * fast engine, whose array probe runs after the instruction, counts none.
 */
static void step_arrays_thrown(agent *a, thread_state *ts, jmethodID method, jlocation loc)
{
    if (method != ts->arr_method || loc != ts->arr_loc || (ts->narr == 0 && !ts->arr_overflow))
        return;
    if (ts->arr_overflow)
        agent_fail(a, "an array instruction that threw had made arrays of more than %d kinds", STEP_ARRAYS);
    for (uint32_t i = 0; i < ts->narr; i++) {
        ts->dep[ts->arr[i].bucket][ts->arr[i].key - 1] -= ts->arr[i].allocations;
        ts->elems[ts->arr[i].bucket][ts->arr[i].key - 1] -= ts->arr[i].elements;
    }
    ts->narr = 0;
    ts->arr_overflow = 0;
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
    (void)size;
    thread_state *ts = agent_tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    if (a->opts.engine == AGENT_ENGINE_FAST) {
        /* the array probes count what array instructions make; fast.c
         * looks at arrays a native method made */
        jboolean is_array = JNI_FALSE;
        uint32_t k = jvmti_check(a, (*jvmti)->IsArrayClass(jvmti, klass, &is_array), "IsArrayClass") == 0 &&
                             is_array ? array_key(a, klass) : 0;
        if (k != 0)
            fast_array_alloc(a, jni, thread, ts, obj, k);
        return;
    }
    int direct = (bc_flags(ts->prev_op) & BCF_NEWARRAY) != 0;
    if (!direct && ts->pend_key == 0)
        return; /* not allocated by an array bytecode nor by a native call */
    uint32_t k = array_key(a, klass);
    if (k == 0)
        return; /* not an array */
    if (direct && !own_array(a, thread, ts, k))
        return; /* made while HotSpot resolved the instruction's class (unstepped) */
    if (k > ts->dep_cap && ts_cover_keys(a, ts) != 0) {
        /* an array that cannot be charged: the result must not be ok */
        agent_fail(a, "out of memory for the counters of array allocations");
        return;
    }
    uint64_t len = (uint64_t)(*jni)->GetArrayLength(jni, (jarray)obj);
    if (direct) {
        ts->dep[ts->bucket][k - 1]++;
        ts->elems[ts->bucket][k - 1] += len;
        step_array_note(ts, k, len);
        return;
    }
    int i = 0;
    while (i < ts->npend && ts->pend[i].key != k)
        i++;
    if (i == ts->npend) {
        if (ts->npend == PEND_ALLOCS)
            i = PEND_ALLOCS - 1; /* merge into the last slot's key: rare, and still charged */
        else
            ts->pend[ts->npend++] = (pend_alloc){k, 0, 0};
    }
    ts->pend[i].allocations++;
    ts->pend[i].elements += len;
}

/*
 * engine=fast: an exception thrown inside the extent. The frames it
 * unwinds run no bytecode and no exit probe: the method's frames among
 * them leave its depth, and when the catching frame lies below the
 * extent's outermost frame (or nothing catches it), the extent ends here,
 * by exception, as the step engine's frame pop would end it. `stop` >= 0:
 * the JVM itself takes the exception at the frame of that index from the
 * top (a root frame it entered, fast_exception_fix), which is unwound too.
 */
static void fast_exception(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID catch_method, jint stop)
{
    int depth = fast_depth(a, ts);
    jint frames = 0;
    if (depth <= 0 || jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") != 0)
        return;
    jint inside = frames - ts->fast_base + 1; /* the top frames, down to the outermost frame of the method */
    if (inside <= 0)
        return;
    jvmtiFrameInfo *f = malloc((size_t)inside * sizeof *f);
    jint n = 0;
    if (f == NULL || jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, inside, f, &n), "GetStackTrace") != 0) {
        free(f);
        agent_fail(a, "cannot read the frames an exception unwinds");
        return;
    }
    jint i = 0;
    int popped = 0;
    while (i < n && (stop >= 0 ? i <= stop : catch_method == NULL || f[i].method != catch_method))
        popped += f[i++].method == a->target; /* the catching frame, from the top */
    free(f);
    if ((stop >= 0 || i < n) && depth - popped > 0) {
        fast_set_depth(a, ts, depth - popped); /* caught inside the extent */
        return;
    }
    fast_set_depth(a, ts, 0);
    extent_end(a, jni, thread, ts, 1);
}

/* Exceptions thrown inside an extent: remember the class, so an invocation
 * that ends by exception can say which (StackOverflowError, ...). */
void JNICALL on_exception(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                          jobject exception, jmethodID catch_method, jlocation catch_loc)
{
    agent *a = &g_agent;
    (void)jvmti; (void)thread; (void)catch_method; (void)catch_loc;
    thread_state *ts = agent_tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    jclass k = (*jni)->GetObjectClass(jni, exception);
    char *sig = NULL;
    char name[256] = "";
    if (k != NULL && (*a->jvmti)->GetClassSignature(a->jvmti, k, &sig, NULL) == JVMTI_ERROR_NONE) {
        if (name_from_signature(sig, 0, name, sizeof name) == 0)
            snprintf(name, sizeof name, "%s", sig);
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)sig);
        char *utf8 = utf8_dup(name);
        snprintf(ts->last_exception, sizeof ts->last_exception, "%s", utf8 ? utf8 : name);
        free(utf8);
    }
    if (a->opts.engine == AGENT_ENGINE_STEP)
        step_arrays_thrown(a, ts, method, loc);
    /* where a recursion runs out of stack depends on the size of each frame,
     * which the JIT changes: only the step engine's interpreted frames end
     * it where the step engine's profile says */
    if (a->opts.engine == AGENT_ENGINE_FAST && strcmp(name, "java.lang.StackOverflowError") == 0)
        fast_problem(a, "a StackOverflowError was thrown inside the extent, and where the stack ends depends on "
                        "the sizes of compiled frames");
    jint stop = -1;
    if (a->opts.engine == AGENT_ENGINE_FAST) {
        /* the rest of each block the exception leaves never runs: subtracted
         * (fast.c), in the extent's frames (a helper thread's are all its own) */
        jint frames = 0;
        if (ts->pre_method != NULL)
            fast_problem(a, "an exception was thrown in code of the method's class counted before it");
        else if (jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") == 0)
            stop = fast_exception_fix(a, jni, thread, ts, catch_method, ts->helper ? frames : frames - ts->fast_base + 1);
    }
    if (a->opts.engine == AGENT_ENGINE_FAST && !ts->helper && ts->pre_method == NULL)
        fast_exception(a, jni, thread, ts, catch_method, stop);
}

/* An exception was caught on a counting thread: the frames it unwound are
 * gone from its calling contexts (contexts.c). */
void JNICALL on_exception_catch(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                                jobject exception)
{
    (void)jvmti; (void)jni; (void)loc; (void)exception;
    thread_state *ts = agent_tls;
    if (g_agent.dead || ts == NULL || !ts->measuring || ts->paused)
        return;
    ctx_catch(&g_agent, ts, thread, method);
    /* The stack is the catching frame's now: the step before the handler (a
     * return, when the JVM ran the exception's constructor) must not leave
     * that frame too at the handler's first step (context_step). */
    ts->prev_op = BC_NOP;
}

/*
 * A thread that measured code started (its Thread object was tagged in
 * thread_start_seen) works for that code: it is counted for its whole life,
 * so work handed to it cannot vanish by finishing after the method returned.
 */
void JNICALL on_thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
    agent *a = &g_agent;
    (void)jvmti;
    jlong tag = 0;
    if (a->dead || (*a->jvmti)->GetTag(a->jvmti, thread, &tag) != JVMTI_ERROR_NONE)
        return;
    if ((tag >> TAG_KIND_SHIFT) != TAG_STARTED_THREAD) {
        a->foreign_threads = 1; /* from now on, extents watch the other threads */
        bystanders_thread_start(a, jni, thread); /* and one that starts while they run */
        return;
    }
    lock_enter(a);
    uint32_t inv_index = a->ninvocations; /* the invocation that started it is still running, or the last one */
    if (a->active_extents == 0 && inv_index > 0)
        inv_index--;
    lock_exit(a);
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    int daemon = 0;
    if ((*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info) == JVMTI_ERROR_NONE) {
        daemon = info.is_daemon;
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)info.name);
    }
    lock_enter(a);
    int active = a->active_extents > 0;
    lock_exit(a);
    if (daemon && !active) {
        /* a daemon thread counts only while an extent runs, and this one began too late */
        watch_from_now(a, thread);
        sched_forget(a, jni, thread);
        return;
    }
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring) {
        sched_forget(a, jni, thread);
        return;
    }
    if (set_thread_events(a, JVMTI_ENABLE, thread, ts) != 0) {
        set_thread_events(a, JVMTI_DISABLE, thread, ts);
        sched_forget(a, jni, thread);
        return;
    }
    if (ts->ref == NULL)
        ts->ref = (*jni)->NewGlobalRef(jni, thread);
    ts->daemon = daemon;
    ts->helper = 1;
    ts->inv_index = inv_index;
    ts->bucket = BUCKET_WORK;
    ctx_start(a, ts);
    sched_thread_begins(a, jni, ts, thread); /* its slot, made when it was started */
    ts->prev_op = BC_INVOKEVIRTUAL; /* Thread.run is entered by the JVM as a call */
    ts->entry_far = 1;              /* ... with no entry before it on this thread */
    bystanders_counting(a, ts, thread, 1);
    ts->measuring = 1;
}

/*
 * A limit was exceeded: the result (with the limit's status) goes out now,
 * then the JVM is halted through Runtime.halt, the JVM's own way to stop at
 * once. Runs on the offending thread, inside a JVMTI callback: no exit().
 */
void limit_stop(agent *a, JNIEnv *jni, jthread thread, const char *status, const char *message)
{
    /* this thread counts no more; it stays "measuring" so that the result
     * lists its invocation as incomplete */
    set_thread_events(a, JVMTI_DISABLE, thread, agent_tls);
    lock_enter(a);
    int first = a->stop_status == NULL && !a->result_written;
    if (first) {
        a->stop_status = status;
        snprintf(a->stop_message, sizeof a->stop_message, "%s", message);
    }
    lock_exit(a);
    if (!first)
        return;
    /* The JVM's end (VMDeath on another thread) may have begun writing the
     * result since the check above: halting now would cut it off (the run
     * then ended with exit 97 and no result). That thread ends the run. */
    if (!a->hooks.finish(a, jni))
        return;
    jclass rt = (*jni)->FindClass(jni, "java/lang/Runtime");
    jmethodID get = rt ? (*jni)->GetStaticMethodID(jni, rt, "getRuntime", "()Ljava/lang/Runtime;") : NULL;
    jmethodID halt = rt ? (*jni)->GetMethodID(jni, rt, "halt", "(I)V") : NULL;
    jobject runtime = get ? (*jni)->CallStaticObjectMethod(jni, rt, get) : NULL;
    if (runtime != NULL && halt != NULL)
        (*jni)->CallVoidMethod(jni, runtime, halt, 97);
    /* Only reached if halt failed (a SecurityManager refusing it, no stack
     * left): the result is out, and the program must not run on uncounted. */
    (*jni)->ExceptionClear(jni);
    fprintf(stderr, "psf-agent: Runtime.halt failed after %s; ending the process\n", status);
    _exit(97);
}

/* Is the current thread inside Runtime.halt or Runtime.exit? */
static const char *exit_kind_of_current(agent *a, JNIEnv *jni)
{
    jvmtiFrameInfo frames[64];
    jint n = 0;
    if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, 0, 64, frames, &n) != JVMTI_ERROR_NONE)
        return NULL;
    const char *kind = NULL;
    for (jint i = 0; i < n && kind == NULL; i++) {
        char *name = NULL, *sig = NULL;
        jclass k = NULL;
        if ((*a->jvmti)->GetMethodName(a->jvmti, frames[i].method, &name, NULL, NULL) != JVMTI_ERROR_NONE)
            continue;
        if ((*a->jvmti)->GetMethodDeclaringClass(a->jvmti, frames[i].method, &k) == JVMTI_ERROR_NONE &&
            (*a->jvmti)->GetClassSignature(a->jvmti, k, &sig, NULL) == JVMTI_ERROR_NONE &&
            strcmp(sig, "Ljava/lang/Runtime;") == 0) {
            if (strcmp(name, "halt") == 0)
                kind = "halt_in_method";
            else if (strcmp(name, "exit") == 0)
                kind = "exit_in_method";
        }
        if (sig)
            (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)sig);
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)name);
        if (k != NULL)
            (*jni)->DeleteLocalRef(jni, k);
    }
    return kind;
}

/* Switch off the step events of every other measuring thread, so that the
 * totals read next stop moving. */
void counting_quiesce(agent *a)
{
    thread_state *self = agent_tls;
    sched_off(a); /* threads waiting for their turn go on, uncounted */
    if (a->opts.engine == AGENT_ENGINE_FAST)
        fast_quiesce(a); /* every thread's probes off, their totals read */
    lock_enter(a);
    thread_state *list = a->threads;
    lock_exit(a);
    static const jvmtiEvent events[] = {JVMTI_EVENT_SINGLE_STEP, JVMTI_EVENT_FRAME_POP,
                                        JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, JVMTI_EVENT_EXCEPTION,
                                        JVMTI_EVENT_EXCEPTION_CATCH};
    for (thread_state *ts = list; ts != NULL; ts = ts->next)
        if (ts != self && ts->ref != NULL && ts->measuring)
            for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) /* a thread that ended: nothing to stop */
                (void)(*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, events[i], ts->ref);
}

/* At the run's end: record invocations still running as incomplete, and
 * charge pre-method counts and helper threads' counts to invocations. */
void counting_finish(agent *a, JNIEnv *jni)
{
    thread_state *self = agent_tls;
    if (self != NULL && self->measuring && !self->helper && self->pre_method == NULL)
        a->exit_kind = exit_kind_of_current(a, jni);
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->borrow_method != NULL) {
            borrow_fold(a, ts); /* a bystander's count in the program's code is no invocation */
            ts->measuring = 0;
        }
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->measuring && ts->pre_method != NULL) {
            /* the JVM ended in code of the method's class that runs before
             * it (a constructor calling System.exit): not an invocation */
            for (int b = 0; b < BUCKETS; b++)
                a->pre_n[b] += ts->n[b];
            ts->measuring = 0;
            ts->pre_method = NULL;
        } else if (ts->measuring && !ts->helper) {
            record_invocation(a, ts, "incomplete", NULL);
            ts->measuring = 0;
        }
    /* a constructor that ran after the last invocation: charged to it, so
     * the totals agree (there is always one when the result is ok) */
    if (a->ninvocations > 0) {
        for (int b = 0; b < BUCKETS; b++) {
            a->invocations[a->ninvocations - 1].n[b] += a->pre_n[b];
            a->pre_n[b] = 0;
        }
        a->invocations[a->ninvocations - 1].unscheduled += a->pre_unscheduled;
        a->pre_unscheduled = 0;
    }
    /* the work of threads an invocation started belongs to that invocation */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->helper && ts->inv_index < a->ninvocations)
            for (int b = 0; b < BUCKETS; b++)
                a->invocations[ts->inv_index].n[b] += ts->n[b];
    if (a->opts.engine == AGENT_ENGINE_FAST)
        fast_collect(a, jni); /* the probes' hits into the method counters profile.c reads */
}
/* System.arraycopy copied `length` elements (natives.c, through
 * a->hooks.arraycopy): on a measured thread, charge them to its invoke key,
 * in the bucket of the code that called it. */
void counting_arraycopy(agent *a, JNIEnv *jni, jint length)
{
    thread_state *ts = agent_tls;
    if (ts == NULL || !ts->measuring || length <= 0 || (*jni)->ExceptionCheck(jni))
        return;
    /* Only the copy the step path just saw invoked: code HotSpot runs
     * without single-stepping (a class initializer it hides) copies arrays
     * too, and its invoke was never counted. */
    uint32_t k = a->arraycopy_key;
    if (k != 0 && k <= ts->dep_cap && ts->pend_key == k)
        ts->elems[ts->bucket][k - 1] += (uint64_t)length;
}

/* A native of bulk.c handled n elements: charge them to its invoke key, in
 * the bucket of the code that called it, when that invoke is the one the
 * step path just counted (as counting_arraycopy); with engine=fast, when
 * its caller's invoke has that key (fast.c). */
void counting_charge_elements(agent *a, uint32_t k, uint64_t n)
{
    thread_state *ts = agent_tls;
    if (a->opts.engine == AGENT_ENGINE_FAST) {
        if (ts != NULL && ts->measuring && n > 0 && k != 0)
            fast_charge_elements(a, ts, k, n); /* no step path: fast.c finds the call */
        return;
    }
    if (ts != NULL && ts->measuring && n > 0 && k != 0 && k <= ts->dep_cap && ts->pend_key == k)
        ts->elems[ts->bucket][k - 1] += n;
}
