/*
 * step.c - the single-step engine (engine=step, the reference): the
 * per-bytecode path, from the SingleStep event to the thread's counters.
 *
 * HotSpot posts no SingleStep for a location equal to the last one
 * (jvmtiEnvThreadState.cpp: a repeated step is "just not posted"). Two
 * consecutive steps share a location when a method calls itself right
 * before a return and its callee returns from that same return (the caller
 * resumes at it: `down(n - 1); return;`, a quicksort's last recursive call),
 * and in a goto to itself (an endless loop). The first is counted by
 * tail_returns, the second stops the program as over the bytecode limit.
 *
 * The per-step path (step_count) is: a direct-mapped per-thread cache lookup
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
 */
#include "bystanders.h"
#include "bytes.h"
#include "clinit.h"
#include "contexts.h"
#include "events.h"
#include "extent.h"
#include "jvmti_util.h"
#include "linkage.h"
#include "methods.h"
#include "scheduler.h"
#include "step.h"
#include "stackmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The slot of method id in a thread's direct-mapped method cache. */
uint32_t step_cache_slot(jmethodID id)
{
    uintptr_t v = (uintptr_t)id;
    return (uint32_t)((v >> 3) ^ (v >> 15)) & (MCACHE_SIZE - 1);
}


/* Cache miss: find or build the method's info and this thread's counters. */
static mcache_entry *cache_fill(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method)
{
    method_info *m = methods_get(a, jni, method);
    if (m == NULL)
        return NULL;
    if (ts_hist(ts, m) == NULL)
        goto oom;
    if (ts_cover_keys(a, ts) != 0)
        goto oom;
    mcache_entry *e = &ts->step.cache[step_cache_slot(method)];
    e->id = method;
    e->m = m;
    e->hist = ts->hist[m->index];
    e->off = e->hist + HIST_OPS;
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
    if (m->root == ROOT_IF_UPCALL && ((bc_flags(ts->prev_op) & BCF_INVOKE) || ts->prev_method == method))
        return; /* called by the measured code, or a loop back to offset 0: that is work */
    if (jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, 0), "NotifyFramePop") != 0)
        return;
    ts->bucket = BUCKET_OVERHEAD;
    ts->root_method = method;
    ts->saved_prev_op = ts->prev_op;
    ts->root_mark_top = ts->ctx.mark_top; /* its frame was just pushed (step_context) */
    ts->root_mark_count = ts->ctx.mark_count;
}



/* The step after a conditional branch at ts->prev_loc of m: it went to loc.
 * Feeds the outcome to the thread's predictor and counts it. */
static inline void branch_outcome(thread_state *ts, const method_info *m, jlocation loc, int b)
{
    uint32_t pc = (uint32_t)ts->prev_loc;
    if ((uint64_t)pc + 3 > m->code_len)
        return;
    int32_t target = (int32_t)pc + be_s16(&m->code[pc + 1]);
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
        ts->calls[b][CALL_CLOSE] += call_closeness(now - ts->step.entry_at);
    ts->step.entry_at = now;
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
 * with the longest chain the thread has met (ts->step.tail_frames).
 */
#define TAIL_FIRST 16

/* The frames below the top that are `method` resuming at `call`, read from
 * the stack in growing batches (above): their number, or -1 (reported). */
static int64_t stacked_callers(agent *a, thread_state *ts, jthread thread, jmethodID method, jlocation call)
{
    uint64_t callers = 0;
    jint depth = 1, want = TAIL_FIRST;
    for (;;) {
        if ((uint32_t)want > ts->step.tail_cap) {
            jvmtiFrameInfo *f = realloc(ts->step.tail_frames, (size_t)want * sizeof *f);
            if (f == NULL) {
                agent_fail(a, "out of memory for the frames of a chain of tail calls");
                return -1;
            }
            ts->step.tail_frames = f;
            ts->step.tail_cap = (uint32_t)want;
        }
        jvmtiFrameInfo *frames = ts->step.tail_frames;
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

/* A step at offset 0 or after a return (step_count): leave the frame that
 * returned, enter the one that began. A step at 0 right after a return in
 * another method is the JVM calling in (Thread.exit after run): both.
 * Returns 1 when the frame that began passes the modelled stack's budget
 * (core/stackmodel.h): the caller stops the run before it counts. */
int step_context(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m,
                 jlocation loc)
{
    int ret = (uint8_t)(ts->prev_op - BC_IRETURN) <= BC_RETURN - BC_IRETURN;
    if (ret)
        ctx_leave(ts, 1);
    if (loc == 0 && (ret || method != ts->prev_method || (bc_flags(ts->prev_op) & BCF_INVOKE)))
        return ctx_enter(a, ts, thread, method, m, ts->prev_method, ts->prev_loc);
    return 0;
}

/* A carrier thread is about to run a virtual thread's code (one started
 * before the method: the method's own are refused at their start) while
 * the method runs, code JVMTI posts no steps for to this agent: refused,
 * on any thread, counted or not; on a bystander past the allowance, which
 * is stepped no more, at the entry bystanders_entry watches. */
void virtual_mount_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts)
{
    char msg[256];
    snprintf(msg, sizeof msg,
             "a virtual thread started before the method ran while it ran (on carrier thread '%s'): "
             "work on virtual threads is not counted",
             ts != NULL && ts->thread_name != NULL ? ts->thread_name : "?");
    limit_stop(a, jni, thread, "virtual_threads", msg);
}

/* Count one bytecode: the one at `loc` in `method`, about to execute. */
inline void step_count(agent *a, thread_state *ts, JNIEnv *jni, jthread thread,
                       jmethodID method, jlocation loc)
{
    mcache_entry *e = &ts->step.cache[step_cache_slot(method)];
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
                ts->calls[ts->bucket][CALL_FENCE_NATIVE] += call_closeness(ts->n[0] + ts->n[1] - ts->step.entry_at);
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
    if ((loc == 0 || (uint8_t)(ts->prev_op - BC_IRETURN) <= BC_RETURN - BC_IRETURN) &&
        step_context(a, ts, thread, method, m, loc)) {
        stack_model_stop(a, jni, thread, ts, m->name, ctx_frames(ts) + 1, ctx_use(ts) + m->frame_cost);
        return;
    }
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
        ts->step.arr_method = method; /* the arrays it makes, until it is done (step_arrays_thrown) */
        ts->step.arr_loc = loc;
        ts->step.narr = 0;
        ts->step.arr_overflow = 0;
        if (!ts->entry_far)
            ts->calls[b][CALL_FENCE_ALLOC] += call_closeness(ts->n[0] + ts->n[1] - ts->step.entry_at + 1);
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
        endless_loop_stop(a, jni, thread, m->name, (uint32_t)loc);
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
            step_count(&g_agent, ts, jni, thread, method, loc);
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
    if (ts == NULL && (ts = ts_get(&g_agent, thread)) == NULL)
        return;
    mcache_entry *e = &ts->step.cache[step_cache_slot(method)];
    if (e->id != method)
        e = cache_fill(&g_agent, ts, jni, method);
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
