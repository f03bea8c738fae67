/*
 * profile.c - adds up every thread's counters and writes the profile
 * (docs/profile-format.md) with libxml2's text writer.
 *
 * The file is written under a temporary name in the target's directory and
 * renamed into place, so a reader sees no file or a whole one. Everything is
 * sorted, and hidden-class addresses are normalized (names.c), so the same
 * run gives the same bytes.
 */
#include "agent.h"
#include "engine.h"
#include "writer.h"
#include "bytecode.h"
#include "profile_format.h"

#include <inttypes.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytecodes of one opcode on one source line of a method. */
typedef struct lrec {
    uint32_t line;          /* 0: offsets the LineNumberTable does not cover, or no table */
    uint8_t op;
    uint64_t n[BUCKETS];
} lrec;

typedef struct msum {
    const char *name;
    uint64_t hist[BUCKETS][256];
    uint64_t n[BUCKETS];
    lrec *lines;            /* owned, sorted by line then mnemonic once merged */
    uint32_t nlines;
} msum;

typedef struct totals {
    uint64_t op[BUCKETS][256];
    uint64_t n[BUCKETS];
    uint64_t *dep[BUCKETS], *elems[BUCKETS];
    uint64_t br[BUCKETS][BR_KINDS];
    uint64_t calls[BUCKETS][CALL_KINDS];
    uint8_t *native;
    msum *methods;      /* merged by name, sorted for output */
    uint32_t nmethods;
} totals;

static int cmp_name(const void *x, const void *y)
{
    return strcmp(((const msum *)x)->name, ((const msum *)y)->name);
}

static int cmp_weight(const void *x, const void *y)
{
    const msum *a = x, *b = y;
    for (int k = 0; k < BUCKETS; k++)
        if (a->n[k] != b->n[k])
            return a->n[k] > b->n[k] ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int u64_add(uint64_t *acc, uint64_t v)
{
    if (*acc > UINT64_MAX - v)
        return -1;
    *acc += v;
    return 0;
}

/* Order of lrec: line, then the opcode's mnemonic (the order they are written in). */
static int cmp_lrec(const void *x, const void *y)
{
    const lrec *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    const char *na = bc_mnemonic(a->op), *nb = bc_mnemonic(b->op);
    return strcmp(na ? na : "", nb ? nb : "");
}

/* Sort m's line records and add up those of one line and opcode. */
static int lines_merge(msum *m)
{
    int bad = 0;
    qsort(m->lines, m->nlines, sizeof *m->lines, cmp_lrec);
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->nlines; i++) {
        if (k > 0 && m->lines[k - 1].line == m->lines[i].line && m->lines[k - 1].op == m->lines[i].op) {
            for (int b = 0; b < BUCKETS; b++)
                bad |= u64_add(&m->lines[k - 1].n[b], m->lines[i].n[b]);
        } else {
            m->lines[k++] = m->lines[i];
        }
    }
    m->nlines = k;
    return bad ? -1 : 0;
}

/* Every thread's offset counters of method mi, as line records in m.
 * Returns 0, or -1 on overflow / OOM. */
static int lines_build(agent *a, const method_info *mi, msum *m)
{
    size_t len = (size_t)BUCKETS * mi->code_len;
    uint64_t *off = calloc(len ? len : 1, sizeof *off);
    if (off == NULL)
        return -1;
    int bad = 0, any = 0;
    for (thread_state *ts = a->threads; ts; ts = ts->next) {
        if (mi->index >= ts->hist_cap || ts->hist[mi->index] == NULL)
            continue;
        const uint64_t *h = ts->hist[mi->index] + HIST_OPS;
        for (size_t i = 0; i < len; i++) {
            bad |= u64_add(&off[i], h[i]);
            any |= h[i] != 0;
        }
    }
    if (!any) {
        free(off);
        return bad ? -1 : 0;
    }
    uint32_t *line = profile_offset_lines(a, mi);
    m->lines = calloc(mi->code_len, sizeof *m->lines);
    if (line == NULL || m->lines == NULL) {
        free(line);
        free(off);
        return -1;
    }
    for (uint32_t o = 0; o < mi->code_len; o++) {
        uint64_t w = off[OFF_SLOT(o, BUCKET_WORK)], v = off[OFF_SLOT(o, BUCKET_OVERHEAD)];
        if (w + v == 0)
            continue;
        m->lines[m->nlines++] = (lrec){line[o], mi->code[o], {w, v}};
    }
    free(line);
    free(off);
    return bad | lines_merge(m);
}

/* Sum every thread's counters. Returns 0, or -1 on overflow / OOM. */
static int totals_build(agent *a, totals *t)
{
    memset(t, 0, sizeof *t);
    /* every other thread was quiesced (counting_quiesce): the tables no longer grow */
    uint32_t nk = a->keys.count ? a->keys.count : 1;
    for (int b = 0; b < BUCKETS; b++) {
        t->dep[b] = calloc(nk, sizeof(uint64_t));
        t->elems[b] = calloc(nk, sizeof(uint64_t));
        if (!t->dep[b] || !t->elems[b])
            return -1;
    }
    t->native = calloc(nk, 1);
    msum *all = calloc(a->nmethods ? a->nmethods : 1, sizeof *all);
    if (!t->native || !all)
        return -1;
    int bad = 0;
    for (uint32_t i = 0; i < a->nmethods; i++) {
        all[i].name = a->methods[i]->name;
        bad |= lines_build(a, a->methods[i], &all[i]);
    }
    for (thread_state *ts = a->threads; ts; ts = ts->next) {
        for (uint32_t i = 0; i < ts->hist_cap && i < a->nmethods; i++) {
            const uint64_t *h = ts->hist[i];
            if (h == NULL)
                continue;
            for (int b = 0; b < BUCKETS; b++)
                for (int op = 0; op < 256; op++)
                    bad |= u64_add(&all[i].hist[b][op], h[b * 256 + op]);
        }
        for (uint32_t k = 0; k < ts->dep_cap && k < a->keys.count; k++) {
            for (int b = 0; b < BUCKETS; b++) {
                bad |= u64_add(&t->dep[b][k], ts->dep[b][k]);
                bad |= u64_add(&t->elems[b][k], ts->elems[b][k]);
            }
            t->native[k] |= ts->native[k];
        }
        for (int b = 0; b < BUCKETS; b++) {
            for (int k = 0; k < BR_KINDS; k++)
                bad |= u64_add(&t->br[b][k], ts->br[b][k]);
            for (int k = 0; k < CALL_KINDS; k++)
                bad |= u64_add(&t->calls[b][k], ts->calls[b][k]);
        }
    }
    /* merge methods whose normalized names coincide (hidden classes) */
    qsort(all, a->nmethods, sizeof *all, cmp_name);
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->nmethods; i++) {
        if (n > 0 && strcmp(all[n - 1].name, all[i].name) == 0) {
            for (int b = 0; b < BUCKETS; b++)
                for (int op = 0; op < 256; op++)
                    bad |= u64_add(&all[n - 1].hist[b][op], all[i].hist[b][op]);
            if (all[i].nlines > 0) {
                msum *d = &all[n - 1];
                lrec *l = realloc(d->lines, ((size_t)d->nlines + all[i].nlines) * sizeof *l);
                if (l == NULL) {
                    bad = 1;
                } else {
                    memcpy(l + d->nlines, all[i].lines, all[i].nlines * sizeof *l);
                    d->lines = l;
                    d->nlines += all[i].nlines;
                    bad |= lines_merge(d);
                }
            }
            free(all[i].lines);
            all[i].lines = NULL;
        } else {
            if (n != i)
                all[n] = all[i];
            n++;
        }
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        for (int b = 0; b < BUCKETS; b++)
            for (int op = 0; op < 256; op++) {
                bad |= u64_add(&all[i].n[b], all[i].hist[b][op]);
                bad |= u64_add(&t->op[b][op], all[i].hist[b][op]);
            }
        if (all[i].n[0] + all[i].n[1] > 0)
            all[kept++] = all[i];
        else
            free(all[i].lines);
    }
    for (int b = 0; b < BUCKETS; b++)
        for (int op = 0; op < 256; op++)
            bad |= u64_add(&t->n[b], t->op[b][op]);
    qsort(all, kept, sizeof *all, cmp_weight);
    t->methods = all;
    t->nmethods = kept;
    return bad ? -1 : 0;
}

static void totals_free(totals *t)
{
    for (int b = 0; b < BUCKETS; b++) {
        free(t->dep[b]);
        free(t->elems[b]);
    }
    free(t->native);
    for (uint32_t i = 0; i < t->nmethods; i++)
        free(t->methods[i].lines);
    free(t->methods);
}

/* libxml2 writer helpers: every call's result is folded into one flag. */
typedef struct xw {
    xmlTextWriterPtr w;
    int bad;
} xw;

static void x_start(xw *x, const char *el)
{
    x->bad |= xmlTextWriterStartElement(x->w, BAD_CAST el) < 0;
}

static void x_end(xw *x)
{
    x->bad |= xmlTextWriterEndElement(x->w) < 0;
}

static void x_attr(xw *x, const char *name, const char *value)
{
    x->bad |= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) < 0;
}

static void x_attr_u64(xw *x, const char *name, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    x_attr(x, name, buf);
}

static const char *bucket_name(int b)
{
    return b == BUCKET_WORK ? "work" : "overhead";
}

static void write_opcodes(xw *x, const totals *t, int b)
{
    /* sorted by mnemonic */
    const char *names[256];
    int ops[256], n = 0;
    for (int op = 0; op < 256; op++)
        if (t->op[b][op] > 0) {
            names[n] = bc_mnemonic((uint8_t)op);
            ops[n++] = op;
        }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1] ? names[j - 1] : "", names[j] ? names[j] : "") > 0; j--) {
            const char *tn = names[j]; names[j] = names[j - 1]; names[j - 1] = tn;
            int to = ops[j]; ops[j] = ops[j - 1]; ops[j - 1] = to;
        }
    x_start(x, "opcodes");
    x_attr(x, "bucket", bucket_name(b));
    for (int i = 0; i < n; i++) {
        x_start(x, "opcode");
        x_attr(x, "name", names[i] ? names[i] : "unknown");
        x_attr_u64(x, "count", t->op[b][ops[i]]);
        x_end(x);
    }
    x_end(x);
}

static const char *const KIND_ELEMENT[KEY_KINDS] = {"new", "invoke", "invokedynamic", "array", "ldc"};

static agent *sort_agent; /* qsort has no context argument in C11 */

static int cmp_key(const void *x, const void *y)
{
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    const key_table *k = &sort_agent->keys;
    int c = strcmp(KIND_ELEMENT[k->kind[i]], KIND_ELEMENT[k->kind[j]]);
    return c != 0 ? c : strcmp(k->names[i], k->names[j]);
}

static void write_branches(xw *x, const totals *t, int b)
{
    x_start(x, "branches");
    x_attr(x, "bucket", bucket_name(b));
    x_attr_u64(x, "conditional", t->br[b][BR_EXECUTED]);
    x_attr_u64(x, "taken", t->br[b][BR_TAKEN]);
    x_attr_u64(x, "mispredicted", t->br[b][BR_MISPREDICTED]);
    x_end(x);
}

static void write_calls(xw *x, const totals *t, int b)
{
    x_start(x, "calls");
    x_attr(x, "bucket", bucket_name(b));
    x_attr_u64(x, "entries", t->calls[b][CALL_ENTRIES]);
    x_attr_u64(x, "close", t->calls[b][CALL_CLOSE]);
    x_attr_u64(x, "fence_native", t->calls[b][CALL_FENCE_NATIVE]);
    x_attr_u64(x, "fence_alloc", t->calls[b][CALL_FENCE_ALLOC]);
    x_end(x);
}

static void write_dependencies(xw *x, agent *a, const totals *t, int b, const uint32_t *order)
{
    x_start(x, "dependencies");
    x_attr(x, "bucket", bucket_name(b));
    for (uint32_t i = 0; i < a->keys.count; i++) {
        uint32_t k = order[i];
        if (t->dep[b][k] == 0)
            continue;
        int kind = a->keys.kind[k];
        x_start(x, KIND_ELEMENT[kind]);
        switch (kind) {
        case KEY_NEW:
            x_attr(x, "class", a->keys.names[k]);
            x_attr_u64(x, "count", t->dep[b][k]);
            break;
        case KEY_INVOKE:
            x_attr(x, "method", a->keys.names[k]);
            x_attr_u64(x, "count", t->dep[b][k]);
            if (t->native[k])
                x_attr(x, "native", "true");
            if (t->elems[b][k] > 0) /* arraycopy: copied; other natives: allocated */
                x_attr_u64(x, "elements", t->elems[b][k]);
            break;
        case KEY_INDY:
            x_attr(x, "site", a->keys.names[k]);
            x_attr_u64(x, "count", t->dep[b][k]);
            break;
        case KEY_LDC:
            x_attr(x, "constant", a->keys.names[k]);
            x_attr_u64(x, "count", t->dep[b][k]);
            break;
        default:
            x_attr(x, "elem", a->keys.names[k]);
            x_attr_u64(x, "allocations", t->dep[b][k]);
            x_attr_u64(x, "elements", t->elems[b][k]);
            break;
        }
        x_end(x);
    }
    x_end(x);
}

/* A method's <line> children: its bytecodes by source line, each with its
 * opcodes (the records are sorted by line, then mnemonic). */
static void write_lines(xw *x, const msum *m)
{
    for (uint32_t i = 0; i < m->nlines;) {
        uint32_t j = i;
        uint64_t n[BUCKETS] = {0, 0};
        for (; j < m->nlines && m->lines[j].line == m->lines[i].line; j++)
            for (int b = 0; b < BUCKETS; b++)
                n[b] += m->lines[j].n[b]; /* at most the method's own counts: no overflow */
        x_start(x, "line");
        x_attr_u64(x, "number", m->lines[i].line);
        x_attr_u64(x, "work", n[0]);
        x_attr_u64(x, "overhead", n[1]);
        for (uint32_t k = i; k < j; k++) {
            x_start(x, "opcode");
            x_attr(x, "name", bc_mnemonic(m->lines[k].op) ? bc_mnemonic(m->lines[k].op) : "unknown");
            x_attr_u64(x, "work", m->lines[k].n[0]);
            x_attr_u64(x, "overhead", m->lines[k].n[1]);
            x_end(x);
        }
        x_end(x);
        i = j;
    }
}

static void write_methods(xw *x, const totals *t)
{
    x_start(x, "methods");
    for (uint32_t i = 0; i < t->nmethods; i++) {
        const msum *m = &t->methods[i];
        x_start(x, "method");
        x_attr(x, "name", m->name);
        x_attr_u64(x, "work", m->n[0]);
        x_attr_u64(x, "overhead", m->n[1]);
        /* opcodes by mnemonic: walk the sorted mnemonic order */
        const char *prev = "";
        for (;;) {
            int best = -1;
            for (int op = 0; op < 256; op++) {
                if (m->hist[0][op] + m->hist[1][op] == 0)
                    continue;
                const char *nm = bc_mnemonic((uint8_t)op);
                if (nm == NULL || strcmp(nm, prev) <= 0)
                    continue;
                if (best < 0 || strcmp(nm, bc_mnemonic((uint8_t)best)) < 0)
                    best = op;
            }
            if (best < 0)
                break;
            x_start(x, "opcode");
            x_attr(x, "name", bc_mnemonic((uint8_t)best));
            x_attr_u64(x, "work", m->hist[0][best]);
            x_attr_u64(x, "overhead", m->hist[1][best]);
            x_end(x);
            prev = bc_mnemonic((uint8_t)best);
        }
        write_lines(x, m);
        x_end(x);
    }
    x_end(x);
}

int profile_write(agent *a, const char *status, const char *message)
{
    totals t;
    int overflow = totals_build(a, &t) != 0;
    if (overflow && strcmp(status, "ok") == 0) {
        status = "agent_error";
        message = "a counter overflowed or memory ran out while adding up the counts";
    }
    uint32_t *order = calloc(a->keys.count ? a->keys.count : 1, sizeof *order);
    if (order == NULL) {
        totals_free(&t);
        return -1;
    }
    for (uint32_t i = 0; i < a->keys.count; i++)
        order[i] = i;
    sort_agent = a;
    qsort(order, a->keys.count, sizeof *order, cmp_key);

    xmlBufferPtr mem = xmlBufferCreate();
    xw x = {mem ? xmlNewTextWriterMemory(mem, 0) : NULL, 0};
    if (x.w == NULL) {
        fprintf(stderr, "psf-agent: out of memory for the profile\n");
        if (mem)
            xmlBufferFree(mem);
        free(order);
        totals_free(&t);
        return -1;
    }
    xmlTextWriterSetIndent(x.w, 1);
    xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
    x.bad |= xmlTextWriterStartDocument(x.w, "1.0", "UTF-8", NULL) < 0;
    x_start(&x, "psf-profile");
    x_attr(&x, "version", PSF_PROFILE_VERSION);
    x_attr(&x, "status", status);
    if (a->engine->profile_attr != NULL)
        x_attr(&x, "engine", a->engine->profile_attr); /* fast: the same counts as step's (docs/fast-engine.md) */

    x_start(&x, "target");
    x_attr(&x, "spec", a->opts.method ? a->opts.method : "");
    if (a->spec.class_internal) {
        char cls[1024];
        name_binary(a->spec.class_internal, strlen(a->spec.class_internal), cls, sizeof cls);
        x_attr(&x, "class", cls);
        x_attr(&x, "name", a->spec.name);
    }
    if (a->target_desc)
        x_attr(&x, "descriptor", a->target_desc);
    x_end(&x);
    if (a->ambiguous && a->ncandidates > 0) {
        x_start(&x, "candidates");
        for (int i = 0; i < a->ncandidates; i++) {
            x_start(&x, "candidate");
            x_attr(&x, "descriptor", a->candidates[i]);
            x_end(&x);
        }
        x_end(&x);
    }
    if (message != NULL && strcmp(status, "ok") != 0)
        x.bad |= xmlTextWriterWriteElement(x.w, BAD_CAST "message", BAD_CAST message) < 0;

    x_start(&x, "jvm");
    x_attr(&x, "version", a->vm_version ? a->vm_version : "unknown");
    x_attr(&x, "vendor", a->vm_vendor ? a->vm_vendor : "unknown");
    x_attr(&x, "flags", a->vm_flags ? a->vm_flags : "");
    if (a->vm_info)
        x_attr(&x, "info", a->vm_info);
    x_end(&x);

    if (a->end.by != NULL) { /* how the JVM ended (vmentry.c record_end) */
        x_start(&x, "end");
        x_attr(&x, "by", a->end.by);
        if (a->end.thread[0] != '\0')
            x_attr(&x, "thread", a->end.thread);
        if (a->end.caller[0] != '\0')
            x_attr(&x, "caller", a->end.caller);
        if (a->end.entry)
            x_attr(&x, "entry", "true");
        x_end(&x);
    }

    x_start(&x, "summary");
    x_attr_u64(&x, "invocations", a->ninvocations);
    x_attr_u64(&x, "work", t.n[0]);
    x_attr_u64(&x, "overhead", t.n[1]);
    x_attr_u64(&x, "threads", a->threads_started);
    x_end(&x);

    x_start(&x, "invocations");
    for (uint32_t i = 0; i < a->ninvocations; i++) {
        x_start(&x, "invocation");
        x_attr_u64(&x, "index", i + 1);
        x_attr(&x, "thread", a->invocations[i].thread ? a->invocations[i].thread : "?");
        x_attr_u64(&x, "work", a->invocations[i].n[0]);
        x_attr_u64(&x, "overhead", a->invocations[i].n[1]);
        x_attr(&x, "end", a->invocations[i].end);
        if (a->invocations[i].unscheduled != 0)
            x_attr_u64(&x, "unscheduled", a->invocations[i].unscheduled);
        if (a->invocations[i].exception)
            x_attr(&x, "exception", a->invocations[i].exception);
        x_end(&x);
    }
    x_end(&x);
    for (int b = 0; b < BUCKETS; b++)
        write_opcodes(&x, &t, b);
    for (int b = 0; b < BUCKETS; b++)
        write_dependencies(&x, a, &t, b, order);
    for (int b = 0; b < BUCKETS; b++)
        write_branches(&x, &t, b);
    for (int b = 0; b < BUCKETS; b++)
        write_calls(&x, &t, b);
    write_methods(&x, &t);
    /* a fallback profile is read for its status and message only, and the
     * fast engine may have stopped keeping its calling contexts consistent
     * where it found what it cannot count (a hidden class's frames) */
    if (strcmp(status, "fallback") != 0)
        x.bad |= profile_contexts(a, x.w);
    x_end(&x);
    x.bad |= xmlTextWriterEndDocument(x.w) < 0;
    xmlFreeTextWriter(x.w);
    free(order);
    totals_free(&t);

    int rc = -1;
    if (x.bad)
        fprintf(stderr, "psf-agent: composing the profile failed\n");
    else
        rc = result_emit(a, (const char *)xmlBufferContent(mem), (size_t)xmlBufferLength(mem));
    xmlBufferFree(mem);
    return rc;
}
