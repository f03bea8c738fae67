/*
 * contexts.c - the calling-context tree of each counting thread: which call
 * path executed which bytecodes, so that a report can charge the JDK's work
 * to the line of the student's code that called it (docs/profile-format.md,
 * "Calling contexts").
 *
 * The step path (step/step.c) adds every bytecode to the counters that
 * ts->ctx.cur points at, and calls in here only where it already sees a
 * frame begin or end: a step at offset 0 entered by an invoke or by the JVM
 * (ctx_enter), a step after a return bytecode (ctx_leave), an exception
 * caught (ctx_catch), and the end of an overhead root or of an initializer
 * clinit.c ran (ctx_restore). None of these allocates: every thread's pool
 * of CTX_NODES nodes, its hash slots and its stack of runs are allocated
 * once, when the thread first counts.
 *
 * Bounded and deterministic: a method that calls itself directly stays in
 * its node (a run of frames), and once the pool is full, a call that needs
 * a new node is counted in its caller's node as `other` (with everything it
 * calls), so the tree a thread builds depends on its path alone.
 *
 * The stack of runs also holds the thread's modelled stack use
 * (core/stackmodel.h): each run keeps the use of the frames below it and
 * its frames' cost, the folded run (its frames are of different methods)
 * the use of its first k frames in fold_use[k]. The use is a function of
 * the stack alone, so whatever pops frames (a return, an exception, a
 * restore) drops their use with them; ctx_enter checks it against the
 * budget with a few integer operations.
 */
#include "agent.h"
#include "contexts.h"
#include "jvmti_util.h"
#include "stackmodel.h"

#include <stdlib.h>
#include <string.h>

#define CTX_SLOTS (2 * CTX_NODES) /* power of two */

/* The hash slot to start probing at for the child (parent, method, site). */
static uint32_t slot_of(uint32_t parent, uint32_t method, uint32_t site)
{
    uint32_t h = parent * 0x9E3779B1u ^ method * 0x85EBCA77u ^ site * 0xC2B2AE3Du;
    h ^= h >> 15;
    return h & (CTX_SLOTS - 1);
}

/* Point cur at the counters of the current run. */
static void ctx_point(ctx_tree *c)
{
    const ctx_run *r = &c->stack[c->top];
    c->cur = r->folded ? c->nodes[r->node].other : c->nodes[r->node].n;
}

/* Allocate the pool once (0, or -1 reported) and put the stack at the root:
 * called when a span of counting starts on the thread. */
int ctx_start(agent *a, thread_state *ts)
{
    ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL) {
        c->nodes = calloc(CTX_NODES, sizeof *c->nodes);
        c->slots = calloc(CTX_SLOTS, sizeof *c->slots);
        c->stack = calloc(CTX_NODES + 1, sizeof *c->stack);
        c->entered_at = calloc(CTX_DEPTHS, sizeof *c->entered_at);
        /* (untouched pages of it take no memory: most threads never fold deep) */
        c->fold_use = calloc(SM_MAX_FRAMES + 1, sizeof *c->fold_use);
        if (c->nodes == NULL || c->slots == NULL || c->stack == NULL || c->entered_at == NULL ||
            c->fold_use == NULL) {
            ctx_free(ts);
            c->cur = c->sink;
            agent_fail(a, "out of memory for the calling-context tree");
            return -1;
        }
        c->nodes[0] = (ctx_node){CTX_NONE, CTX_NONE, CTX_NONE, {0, 0}, {0, 0}};
        c->nnodes = 1;
    }
    c->top = 0;
    c->stack[0] = (ctx_run){0, 1, 0, 0, NULL, 0, 0};
    ctx_point(c);
    return 0;
}

/* The modelled use of run r's frames (not those below it). */
static uint64_t run_use(const ctx_tree *c, const ctx_run *r)
{
    if (r->folded)
        return r->count <= SM_MAX_FRAMES ? c->fold_use[r->count] : UINT32_MAX;
    return (uint64_t)r->count * r->cost;
}

/* The thread's modelled stack use now, in words. */
uint64_t ctx_use(const thread_state *ts)
{
    const ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL)
        return 0;
    const ctx_run *r = &c->stack[c->top];
    return r->below + run_use(c, r);
}

/* The frames on the thread's calling contexts (the root's run is none). */
uint32_t ctx_frames(const thread_state *ts)
{
    const ctx_tree *c = &ts->ctx;
    uint64_t n = 0;
    if (c->nodes != NULL)
        for (uint32_t i = 1; i <= c->top; i++)
            n += c->stack[i].count;
    return n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
}

/* The child of `parent` for (method, site), created when missing; CTX_NONE
 * when the pool is full. */
static uint32_t child_of(ctx_tree *c, uint32_t parent, uint32_t method, uint32_t site)
{
    uint32_t s = slot_of(parent, method, site);
    for (;;) {
        uint32_t v = c->slots[s];
        if (v == 0)
            break;
        const ctx_node *n = &c->nodes[v - 1];
        if (n->parent == parent && n->method == method && n->site == site)
            return v - 1;
        s = (s + 1) & (CTX_SLOTS - 1);
    }
    if (c->nnodes == CTX_NODES)
        return CTX_NONE;
    uint32_t i = c->nnodes++;
    c->nodes[i] = (ctx_node){parent, method, site, {0, 0}, {0, 0}};
    c->slots[s] = i + 1; /* at most half the slots are used: the probe ends */
    return i;
}

/* The child of `parent` for (method, site), made when missing: for the fast
 * engine, which builds the tree from its probes' (fast.c). CTX_NONE when the
 * pool is full or was never allocated. */
uint32_t ctx_child(thread_state *ts, uint32_t parent, uint32_t method, uint32_t site)
{
    ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL || parent >= c->nnodes)
        return CTX_NONE;
    return child_of(c, parent, method, site);
}

/*
 * A frame of `method` (m) begins on the thread, its last step at offset
 * `site` of `site_method`: the call's site when that is the current
 * frame's method, else not known (the JVM entered it after a frame it
 * left, whose offsets are not the caller's). Its bytecodes go to the
 * child context for (m, site), or stay in the current node when m calls
 * itself directly or the current run is folded. The first frame of a span
 * asks the JVM for its depth (one GetFrameCount a span), which ctx_catch
 * needs to find the frame that caught an exception. Returns 1, the stack
 * unchanged, when the frame would take the modelled stack use past the
 * budget (stackmodel.h): the caller stops the run.
 */
int ctx_enter(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m,
              jmethodID site_method, jlocation site)
{
    ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL)
        return 0;
    ctx_run *r = &c->stack[c->top];
    uint64_t used = run_use(c, r), cost = m->frame_cost;
    if (r->below + used + cost > SM_BUDGET_WORDS)
        return 1;
    if (site_method == NULL || (c->top > 0 && !r->folded && r->method != site_method))
        site = -1;
    c->mark_top = c->top;
    c->mark_count = r->count;
    if (r->folded || (c->top > 0 && c->nodes[r->node].method == m->index)) {
        uint32_t d = r->depth + r->count; /* the new frame's depth */
        if (!r->folded && d < CTX_DEPTHS)
            c->entered_at[d] = site >= 0 && site <= UINT16_MAX ? (uint16_t)site : UINT16_MAX;
        r->count++;
        if (r->folded && r->count <= SM_MAX_FRAMES) /* within the budget, it is */
            c->fold_use[r->count] = (uint32_t)(used + cost);
        return 0;
    }
    if (c->top == CTX_NODES) { /* cannot happen (see stack): counted in the current run */
        r->count++;
        return 0;
    }
    uint32_t depth = r->depth + r->count;
    if (c->top == 0) {
        jint n = 0;
        depth = jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &n), "GetFrameCount") == 0 && n > 0
                    ? (uint32_t)n : 1;
    }
    uint32_t s = site >= 0 && (uint64_t)site < UINT32_MAX ? (uint32_t)site : CTX_NONE;
    uint32_t child = child_of(c, r->node, m->index, s);
    ctx_run *next = &c->stack[++c->top]; /* stack holds every node once plus one folded run */
    uint32_t below = (uint32_t)(r->below + used);
    if (child == CTX_NONE) {
        *next = (ctx_run){r->node, 1, depth, 1, method, below, 0};
        c->fold_use[1] = (uint32_t)cost;
    } else {
        *next = (ctx_run){child, 1, depth, 0, method, below, (uint32_t)cost};
    }
    ctx_point(c);
    return 0;
}

/* The top frame is of `method` (a methods index): how many frames below
 * it resume at offset `call` of the same method, read from the run of its
 * direct recursion (each frame's entering call site) without a walk of the
 * stack; -1 when the run cannot say (contexts not kept, a folded run, a
 * stack deeper than CTX_DEPTHS). Frames below the run are not the method's
 * own callers. */
int64_t ctx_tail_callers(const thread_state *ts, uint32_t method, uint32_t call)
{
    const ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL || c->top == 0)
        return -1;
    const ctx_run *r = &c->stack[c->top];
    if (r->folded || c->nodes[r->node].method != method || r->count == 0 ||
        (uint64_t)r->depth + r->count > CTX_DEPTHS)
        return -1;
    int64_t n = 0;
    for (uint32_t d = r->depth + r->count - 1; d > r->depth && c->entered_at[d] == call; d--)
        n++;
    return n;
}

/* `frames` frames returned: the callers' contexts count again. */
void ctx_leave(thread_state *ts, uint64_t frames)
{
    ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL)
        return;
    while (frames > 0 && c->top > 0) {
        ctx_run *r = &c->stack[c->top];
        if (r->count > frames) {
            r->count -= (uint32_t)frames;
            break;
        }
        frames -= r->count;
        c->top--;
    }
    ctx_point(c);
}

/* Put the stack back to a mark taken before a push (mark_top, mark_count):
 * the frames pushed since ended without a return the step path saw. */
void ctx_restore(thread_state *ts, uint32_t top, uint32_t count)
{
    ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL || top > c->top)
        return;
    c->top = top;
    c->stack[top].count = count;
    ctx_point(c);
}

/*
 * An exception thrown in a callee was caught in `method`: the frames above
 * it are gone. The catching frame is the one whose JVM depth is the
 * thread's frame count now. Depths are counted from the span's first frame
 * one a call; a native frame between two Java frames (reflection) is not
 * seen, so when the run found is not of `method`, the nearest run of it
 * from the top is taken instead.
 */
void ctx_catch(agent *a, thread_state *ts, jthread thread, jmethodID method)
{
    ctx_tree *c = &ts->ctx;
    if (c->nodes == NULL || c->top == 0)
        return;
    jint n = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &n), "GetFrameCount") != 0)
        return;
    uint32_t depth = n > 0 ? (uint32_t)n : 0, r = c->top;
    while (r > 1 && c->stack[r].depth > depth)
        r--;
    ctx_run *run = &c->stack[r];
    if (run->folded || run->method == method) {
        if (depth >= run->depth && depth - run->depth + 1 < run->count)
            run->count = depth - run->depth + 1;
    } else {
        for (r = c->top; r > 0 && (c->stack[r].folded || c->stack[r].method != method); r--)
            ;
        if (r == 0)
            return; /* not a frame we know: leave the stack as it is */
    }
    c->top = r;
    ctx_point(c);
}

/* The stack as it is now, for ctx_restore. */
void ctx_mark(const thread_state *ts, uint32_t *top, uint32_t *count)
{
    *top = ts->ctx.top;
    *count = ts->ctx.stack != NULL ? ts->ctx.stack[ts->ctx.top].count : 0;
}

/* Free the thread's pool. */
void ctx_free(thread_state *ts)
{
    free(ts->ctx.nodes);
    free(ts->ctx.slots);
    free(ts->ctx.stack);
    free(ts->ctx.entered_at);
    free(ts->ctx.fold_use);
    ts->ctx.fold_use = NULL;
    ts->ctx.nodes = NULL;
    ts->ctx.slots = NULL;
    ts->ctx.stack = NULL;
    ts->ctx.entered_at = NULL;
    ts->ctx.nnodes = 0;
}
