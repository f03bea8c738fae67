/*
 * profile_contexts.c - the profile's <contexts>: every thread's
 * calling-context tree (contexts.c) merged into one, keyed by method name
 * and the caller's source line, cut to at most PSF_PROFILE_CONTEXTS_MAX frames, written as a
 * flat list of frames in a fixed order (docs/profile-format.md, "Calling
 * contexts").
 *
 * Flat, with ids and parents, rather than nested: a recursion through two
 * methods can make the tree as deep as it is large, deeper than XML readers
 * nest by default.
 */
#include "agent.h"
#include "writer.h"
#include "profile_format.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A context of the merged tree. */
typedef struct mnode {
    const char *name;           /* the method, as in <methods>; NULL for the root */
    uint32_t line;              /* the caller's line of the call; 0 unknown */
    uint8_t program;            /* a method of the program's classes */
    uint32_t parent;
    uint64_t n[BUCKETS], other[BUCKETS];
    uint64_t incl;              /* both buckets, with everything below it */
    uint32_t *kids, nkids, capkids;
    uint32_t keep;              /* the nearest kept node: itself when kept */
    uint32_t id;                /* its id in the profile, preorder from 1 */
} mnode;

typedef struct merged {
    mnode *v;
    uint32_t n, cap;
    int bad;
} merged;

static int add(uint64_t *acc, uint64_t v)
{
    if (*acc > UINT64_MAX - v)
        return 1;
    *acc += v;
    return 0;
}

/* The child of p named (name, line), created when missing; UINT32_MAX on OOM. */
static uint32_t child(merged *t, uint32_t p, const char *name, uint32_t line, uint8_t program)
{
    for (uint32_t k = 0; k < t->v[p].nkids; k++) {
        mnode *c = &t->v[t->v[p].kids[k]];
        if (c->line == line && strcmp(c->name, name) == 0) {
            c->program |= program;
            return t->v[p].kids[k];
        }
    }
    if (t->n == t->cap) {
        mnode *v = grow_cap(t->v, &t->cap, 256, sizeof *v);
        if (v == NULL)
            return UINT32_MAX;
        t->v = v;
    }
    mnode *pp = &t->v[p];
    if (pp->nkids == pp->capkids) {
        uint32_t *k = grow_cap(pp->kids, &pp->capkids, 4, sizeof *k);
        if (k == NULL)
            return UINT32_MAX;
        pp->kids = k;
    }
    uint32_t i = t->n++;
    pp->kids[pp->nkids++] = i;
    t->v[i] = (mnode){name, line, program, p, {0, 0}, {0, 0}, 0, NULL, 0, 0, 0, 0};
    return i;
}

/* The source line of offset `site` of method index mi (lines cached per
 * method in lc); 0 when unknown. */
static uint32_t site_line(agent *a, uint32_t **lc, int *bad, uint32_t mi, uint32_t site)
{
    if (mi >= a->nmethods || site == CTX_NONE || site >= a->methods[mi]->code_len)
        return 0;
    if (lc[mi] == NULL && (lc[mi] = profile_offset_lines(a, a->methods[mi])) == NULL) {
        *bad = 1;
        return 0;
    }
    return lc[mi][site];
}

/* Add one thread's tree into t. */
static void merge_thread(agent *a, merged *t, uint32_t **lc, const ctx_tree *c)
{
    uint32_t *map = malloc((c->nnodes ? c->nnodes : 1) * sizeof *map);
    if (map == NULL) {
        t->bad = 1;
        return;
    }
    map[0] = 0;
    for (int b = 0; b < BUCKETS; b++) {
        t->bad |= add(&t->v[0].n[b], c->nodes[0].n[b]);
        t->bad |= add(&t->v[0].other[b], c->nodes[0].other[b]);
    }
    /* a node's parent was created before it: its index is lower */
    for (uint32_t i = 1; i < c->nnodes && !t->bad; i++) {
        const ctx_node *x = &c->nodes[i];
        if (x->method >= a->nmethods || x->parent >= i) {
            t->bad = 1;
            break;
        }
        const ctx_node *px = &c->nodes[x->parent];
        uint32_t line = px->method == CTX_NONE ? 0 : site_line(a, lc, &t->bad, px->method, x->site);
        const method_info *m = a->methods[x->method];
        uint32_t k = child(t, map[x->parent], m->name, line, m->program);
        if (k == UINT32_MAX) {
            t->bad = 1;
            break;
        }
        map[i] = k;
        for (int b = 0; b < BUCKETS; b++) {
            t->bad |= add(&t->v[k].n[b], x->n[b]);
            t->bad |= add(&t->v[k].other[b], x->other[b]);
        }
    }
    free(map);
}

static int cmp_u64_desc(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a > b ? -1 : a < b;
}

static const merged *sort_tree;

/* Children in the order they are written: method name, then line. */
static int cmp_kid(const void *x, const void *y)
{
    const mnode *a = &sort_tree->v[*(const uint32_t *)x], *b = &sort_tree->v[*(const uint32_t *)y];
    int c = strcmp(a->name, b->name);
    return c != 0 ? c : (a->line > b->line) - (a->line < b->line);
}

/*
 * Keep at most PSF_PROFILE_CONTEXTS_MAX contexts: those with the most bytecodes (their own
 * and everything below them), the ones with more than the (PSF_PROFILE_CONTEXTS_MAX+1)-th
 * largest count. A parent has at least its children's count, so the kept
 * ones form a tree; a context cut off is added, with everything below it,
 * to the `other` of its nearest kept ancestor. Contexts that executed
 * nothing are dropped.
 */
static void prune(merged *t)
{
    for (uint32_t i = t->n; i-- > 0;) {
        mnode *x = &t->v[i];
        for (int b = 0; b < BUCKETS; b++)
            t->bad |= add(&x->incl, x->n[b]) | add(&x->incl, x->other[b]);
        if (i > 0)
            t->bad |= add(&t->v[x->parent].incl, x->incl);
    }
    uint64_t cut = 0; /* kept: incl > cut */
    if (t->n - 1 > PSF_PROFILE_CONTEXTS_MAX) {
        uint64_t *vals = malloc((t->n - 1) * sizeof *vals);
        if (vals == NULL) {
            t->bad = 1;
            return;
        }
        for (uint32_t i = 1; i < t->n; i++)
            vals[i - 1] = t->v[i].incl;
        qsort(vals, t->n - 1, sizeof *vals, cmp_u64_desc);
        cut = vals[PSF_PROFILE_CONTEXTS_MAX];
        free(vals);
    }
    t->v[0].keep = 0;
    for (uint32_t i = 1; i < t->n; i++) {
        mnode *x = &t->v[i];
        uint32_t up = t->v[x->parent].keep;
        if (x->incl > cut && up == x->parent) {
            x->keep = i;
            continue;
        }
        x->keep = up;
        for (int b = 0; b < BUCKETS; b++)
            t->bad |= add(&t->v[up].other[b], x->n[b]) | add(&t->v[up].other[b], x->other[b]);
    }
}

/* Write node i's kept children and their subtrees, preorder, numbering
 * them from *next. Iterative: the tree can be as deep as it is large. */
static int write_frames(xmlTextWriterPtr w, merged *t, uint32_t *next)
{
    int bad = 0;
    uint32_t *stack = malloc((t->n + 1) * sizeof *stack), top = 0;
    if (stack == NULL)
        return 1;
    sort_tree = t;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].nkids > 1) /* a leaf has no array to sort (qsort(NULL, 0) is undefined) */
            qsort(t->v[i].kids, t->v[i].nkids, sizeof *t->v[i].kids, cmp_kid);
    /* push the root's children in reverse, so the first is written first */
    for (uint32_t k = t->v[0].nkids; k-- > 0;)
        stack[top++] = t->v[0].kids[k];
    while (top > 0) {
        mnode *x = &t->v[stack[--top]];
        if (x->keep != (uint32_t)(x - t->v))
            continue;
        x->id = (*next)++;
        char buf[32];
        bad |= xmlTextWriterStartElement(w, BAD_CAST "frame") < 0;
        snprintf(buf, sizeof buf, "%u", x->id);
        bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST buf) < 0;
        snprintf(buf, sizeof buf, "%u", x->parent == 0 ? 0u : t->v[x->parent].id);
        bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "parent", BAD_CAST buf) < 0;
        bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "method", BAD_CAST x->name) < 0;
        snprintf(buf, sizeof buf, "%u", x->line);
        bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "line", BAD_CAST buf) < 0;
        if (x->program)
            bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "program", BAD_CAST "true") < 0;
        static const char *const an[4] = {"work", "overhead", "other_work", "other_overhead"};
        const uint64_t v4[4] = {x->n[0], x->n[1], x->other[0], x->other[1]};
        for (int j = 0; j < 4; j++) {
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)v4[j]);
            bad |= xmlTextWriterWriteAttribute(w, BAD_CAST an[j], BAD_CAST buf) < 0;
        }
        bad |= xmlTextWriterEndElement(w) < 0;
        for (uint32_t k = x->nkids; k-- > 0;)
            stack[top++] = x->kids[k]; /* every node is pushed once: at most t->n */
    }
    free(stack);
    return bad;
}

/*
 * Write <contexts>: every thread's tree merged, cut to PSF_PROFILE_CONTEXTS_MAX frames.
 * Returns 0, or 1 when a count overflowed, memory ran out or a tree was
 * inconsistent (the profile is then not `ok`: the caller's status).
 */
int profile_contexts(agent *a, xmlTextWriterPtr w)
{
    merged t = {calloc(256, sizeof(mnode)), 1, 256, 0};
    uint32_t **lc = calloc(a->nmethods ? a->nmethods : 1, sizeof *lc);
    if (t.v == NULL || lc == NULL) {
        free(t.v);
        free(lc);
        return 1;
    }
    for (thread_state *ts = a->threads; ts != NULL && !t.bad; ts = ts->next)
        if (ts->ctx.nodes != NULL)
            merge_thread(a, &t, lc, &ts->ctx);
    if (!t.bad)
        prune(&t);
    int bad = t.bad;
    char buf[32];
    bad |= xmlTextWriterStartElement(w, BAD_CAST "contexts") < 0;
    snprintf(buf, sizeof buf, "%u", (unsigned)PSF_PROFILE_CONTEXTS_MAX);
    bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "limit", BAD_CAST buf) < 0;
    /* bytecodes no frame holds: cut-off top-level calls (and steps counted
     * before a frame was known, which the step path does not make) */
    static const char *const an[2] = {"other_work", "other_overhead"};
    for (int b = 0; b < BUCKETS; b++) {
        uint64_t v = t.v[0].other[b];
        bad |= add(&v, t.v[0].n[b]);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
        bad |= xmlTextWriterWriteAttribute(w, BAD_CAST an[b], BAD_CAST buf) < 0;
    }
    uint32_t next = 1;
    if (!t.bad)
        bad |= write_frames(w, &t, &next);
    bad |= xmlTextWriterEndElement(w) < 0;
    for (uint32_t i = 0; i < t.n; i++)
        free(t.v[i].kids);
    free(t.v);
    for (uint32_t i = 0; i < a->nmethods; i++)
        free(lc[i]);
    free(lc);
    return bad;
}
