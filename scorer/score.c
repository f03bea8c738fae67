/*
 * score.c - compute a score and its parts (see score.h).
 */
#include "score.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"

/* A dependency key merged over the buckets being scored. */
typedef struct dep_ref {
    dep_kind kind;
    const char *key;
    uint64_t count, elements;
    int native;
} dep_ref;

static int cmp_dep(const void *a, const void *b)
{
    const dep_ref *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return strcmp(x->key, y->key);
}

static int overflow(psf_err *err, const profile *p)
{
    return psf_fail(err, ST_BAD_INPUT,
                    "%s: overflow: the score does not fit in 64 bits (2^64-1 units)", p->path);
}

static score_term *add_term(score_result *r, term_kind kind, const char *prefix, const char *key)
{
    score_term *t;
    size_t n = strlen(prefix) + strlen(key) + 1;

    xgrow((void **)&r->terms, &r->cap_terms, r->n_terms, sizeof *r->terms);
    t = &r->terms[r->n_terms++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->key = xmalloc(n);
    snprintf(t->key, n, "%s%s", prefix, key);
    return t;
}

/* Price an opcode: the table's, or the default (missing). */
static psf_micro opcode_price(const cost_table *t, unsigned op, int *missing)
{
    *missing = !t->has_opcode[op];
    return t->has_opcode[op] ? t->opcode[op] : t->default_cost;
}

/* A count the score uses: the work bucket's, plus the overhead bucket's with
 * --with-overhead. Returns -1 when the sum does not fit in 64 bits. */
static int scored_count(const score_result *r, uint64_t work, uint64_t overhead, uint64_t *count)
{
    if (r->with_overhead && work > UINT64_MAX - overhead)
        return -1;
    *count = r->with_overhead ? work + overhead : work;
    return 0;
}

static int score_opcodes(const profile *p, const cost_table *t, score_result *r, psf_err *err)
{
    for (unsigned op = 0; op < 256; op++) {
        uint64_t count;
        if (scored_count(r, p->opcodes[BUCKET_WORK][op], p->opcodes[BUCKET_OVERHEAD][op], &count) != 0)
            return overflow(err, p);
        if (count == 0)
            continue;
        const char *mn = bc_mnemonic((uint8_t)op);
        score_term *term = add_term(r, TERM_OPCODE, "opcode:", mn ? mn : "?");
        term->count = count;
        term->cost = opcode_price(t, op, &term->missing);
        if (fixed_mul_add(&term->contribution, count, term->cost) != 0 ||
            fixed_add(&r->opcode_total, term->contribution) != 0)
            return overflow(err, p);
    }
    return 0;
}

/* Price one merged dependency; returns 0 and leaves no term when it costs
 * nothing by rule (an unlisted new or non-native invoke, any invokedynamic).
 * A class constant loaded by ldc is priced by <ldc constant="class">; a table
 * without it charges the default and the score is approximate. */
#define REF_ARRAY_CLONE "[Ljava.lang.Object;.clone()Ljava/lang/Object;"
#define CLONE_SUFFIX ".clone()Ljava/lang/Object;"

static int is_ref_array_clone(const char *key)
{
    size_t n = strlen(key), k = strlen(CLONE_SUFFIX);
    return n > k + 2 && key[0] == '[' && (key[1] == 'L' || key[1] == '[') && strcmp(key + n - k, CLONE_SUFFIX) == 0;
}

static int score_dep(const profile *p, const cost_table *t, const dep_ref *d,
                     score_result *r, psf_err *err)
{
    const cost_entry *e = NULL;
    cost_entry ldc;
    score_term *term;
    static const char *const prefix[] = { "array:", "invoke:", "invokedynamic:", "new:", "ldc:" };
    static const term_kind term_of[] = { TERM_ARRAY, TERM_INVOKE, TERM_NEW /* indy: no term */, TERM_NEW, TERM_LDC };
    int missing = 0;

    if (d->kind == DEP_INDY || t->builtin)
        return 0;
    switch (d->kind) {
    case DEP_ARRAY:
        e = costs_find(&t->arrays, d->key);
        if (!e && !costs_is_primitive(d->key))
            e = costs_find(&t->arrays, "reference");
        missing = !e;
        break;
    case DEP_INVOKE:
        e = costs_find(&t->invokes, d->key);
        /* a clone of an array of references or arrays (the key names the
         * array class, "[Ljava.lang.String;.clone()...") without an entry of
         * its own: priced as Object[]'s, like array:reference */
        if (!e && is_ref_array_clone(d->key))
            e = costs_find(&t->invokes, REF_ARRAY_CLONE);
        /* a native without a price, or one that handled elements (its work
         * grows with them) without a price per element, is never free */
        missing = (!e && d->native) || (d->elements > 0 && (!e || !e->has_per_element));
        break;
    case DEP_NEW:
        e = costs_find(&t->news, d->key);
        break;
    case DEP_LDC:   /* the schema allows constant="class" only */
        ldc = (cost_entry){ .cost = t->ldc_class };
        e = t->has_ldc_class ? &ldc : NULL;
        missing = !e;
        break;
    case DEP_INDY:
        break;
    }
    if (!e && !missing)
        return 0;

    term = add_term(r, term_of[d->kind], prefix[d->kind], d->key);
    term->count = d->count;
    term->elements = d->elements;
    term->missing = missing;
    term->cost = e ? e->cost : t->default_cost;
    term->per_element = e ? e->per_element : 0;
    if (fixed_mul_add(&term->contribution, term->count, term->cost) != 0 ||
        fixed_mul_add(&term->contribution, term->elements, term->per_element) != 0 ||
        fixed_add(&r->dep_total, term->contribution) != 0)
        return overflow(err, p);
    return 0;
}

static int score_deps(const profile *p, const cost_table *t, score_result *r, psf_err *err)
{
    size_t n = 0, cap = p->n_deps[0] + p->n_deps[1];
    dep_ref *refs = xcalloc(cap ? cap : 1, sizeof *refs);
    int rc = 0;

    for (int b = 0; b < (r->with_overhead ? 2 : 1); b++)
        for (size_t i = 0; i < p->n_deps[b]; i++) {
            const prof_dep *d = &p->deps[b][i];
            refs[n++] = (dep_ref){ d->kind, d->key, d->count, d->elements, d->native };
        }
    qsort(refs, n, sizeof *refs, cmp_dep);
    for (size_t i = 0; i < n && rc == 0; ) {
        dep_ref m = refs[i++];
        /* The same key in both buckets: one term. */
        while (i < n && cmp_dep(&m, &refs[i]) == 0) {
            if (m.count > UINT64_MAX - refs[i].count || m.elements > UINT64_MAX - refs[i].elements) {
                rc = overflow(err, p);
                break;
            }
            m.count += refs[i].count;
            m.elements += refs[i].elements;
            m.native |= refs[i].native;
            i++;
        }
        if (rc == 0)
            rc = score_dep(p, t, &m, r, err);
    }
    free(refs);
    return rc;
}

/* One term per kind the table prices (branch:taken, call:close, ...): the
 * work count, and the overhead count with --with-overhead, at its price. */
static int score_kinds(const profile *p, score_result *r, psf_err *err, term_kind term, const char *prefix,
                       const char *(*kind_name)(int), int nkinds, const unsigned char *has,
                       const psf_micro *price, const uint64_t *work, const uint64_t *overhead, const int *index)
{
    for (int k = 0; k < nkinds; k++) {
        uint64_t count;
        if (!has[k])
            continue;
        if (scored_count(r, work[index[k]], overhead[index[k]], &count) != 0)
            return overflow(err, p);
        if (count == 0)
            continue;
        score_term *t = add_term(r, term, prefix, kind_name(k));
        t->count = count;
        t->cost = price[k];
        if (fixed_mul_add(&t->contribution, count, t->cost) != 0 ||
            fixed_add(&r->dep_total, t->contribution) != 0)
            return overflow(err, p);
    }
    return 0;
}

/* Taken and mispredicted conditional branches, at the table's extra price;
 * a table without <branch> entries prices them in the if* opcodes alone. */
static int score_branches(const profile *p, const cost_table *t, score_result *r, psf_err *err)
{
    static const int count_of[BRANCH_KINDS] = { PROF_BR_TAKEN, PROF_BR_MISPREDICTED };
    return score_kinds(p, r, err, TERM_BRANCH, "branch:", costs_branch_kind, BRANCH_KINDS, t->has_branch, t->branch,
                       p->branches[BUCKET_WORK], p->branches[BUCKET_OVERHEAD], count_of);
}

/* How close method entries came after each other, and native calls and
 * allocations after the last entry, at the table's extra prices; a table
 * without a <call kind> prices those in their opcodes and invokes alone. */
static int score_calls(const profile *p, const cost_table *t, score_result *r, psf_err *err)
{
    static const int count_of[CALLK_KINDS] = { PROF_CALL_CLOSE, PROF_CALL_FENCE_NATIVE, PROF_CALL_FENCE_ALLOC };
    return score_kinds(p, r, err, TERM_CALL, "call:", costs_call_kind, CALLK_KINDS, t->has_call, t->call,
                       p->calls[BUCKET_WORK], p->calls[BUCKET_OVERHEAD], count_of);
}

static int cmp_method(const void *a, const void *b)
{
    const score_method *x = a, *y = b;
    if (x->contribution != y->contribution)
        return x->contribution > y->contribution ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* A histogram (a method's or a line's) x opcode prices, added to
 * *bytecodes and *contribution. Returns -1 on overflow. */
static int price_ops(const prof_mop *ops, size_t n, const cost_table *t, int with_overhead,
                     uint64_t *bytecodes, psf_u128 *contribution)
{
    int missing;
    for (size_t k = 0; k < n; k++) {
        uint64_t c = ops[k].work;
        if (with_overhead) {
            if (c > UINT64_MAX - ops[k].overhead)
                return -1;
            c += ops[k].overhead;
        }
        if (*bytecodes > UINT64_MAX - c || fixed_mul_add(contribution, c, opcode_price(t, ops[k].op, &missing)) != 0)
            return -1;
        *bytecodes += c;
    }
    return 0;
}

static int score_methods(const profile *p, const cost_table *t, score_result *r, psf_err *err)
{
    r->methods = xcalloc(p->n_methods ? p->n_methods : 1, sizeof *r->methods);
    r->n_methods = p->n_methods;
    for (size_t i = 0; i < p->n_methods; i++) {
        const prof_method *pm = &p->methods[i];
        score_method *sm = &r->methods[i];
        sm->name = pm->name;
        if (price_ops(pm->ops, pm->n_ops, t, r->with_overhead, &sm->bytecodes, &sm->contribution) != 0)
            return overflow(err, p);
        if (pm->n_lines == 0)
            continue;
        sm->lines = xcalloc(pm->n_lines, sizeof *sm->lines);
        sm->n_lines = pm->n_lines;
        for (size_t k = 0; k < pm->n_lines; k++) {
            score_line *sl = &sm->lines[k];
            sl->number = pm->lines[k].number;
            if (price_ops(pm->lines[k].ops, pm->lines[k].n_ops, t, r->with_overhead, &sl->bytecodes,
                          &sl->contribution) != 0)
                return overflow(err, p);
        }
    }
    if (r->n_methods > 1)
        qsort(r->methods, r->n_methods, sizeof *r->methods, cmp_method);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_missing(score_result *r)
{
    r->missing = xcalloc(r->n_terms ? r->n_terms : 1, sizeof *r->missing);
    for (size_t i = 0; i < r->n_terms; i++)
        if (r->terms[i].missing)
            r->missing[r->n_missing++] = xstrdup(r->terms[i].key);
    /* Terms have distinct keys, so sorting is all that is left to do. */
    qsort(r->missing, r->n_missing, sizeof *r->missing, cmp_str);
}

unsigned score_jdk_feature(const char *version)
{
    unsigned v = 0;
    const char *s = version;
    if (s == NULL || *s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > 100000u)
            return 0;
        v = v * 10u + (unsigned)(*s - '0');
    }
    if (v == 1 && s[0] == '.' && s[1] >= '0' && s[1] <= '9')
        return score_jdk_feature(s + 1);
    return v;
}

int score_profile(const profile *p, const cost_table *t, int with_overhead,
                  score_result *r, psf_err *err)
{
    memset(r, 0, sizeof *r);
    r->with_overhead = with_overhead != 0;
    if (p->status != ST_OK) {
        psf_fail(err, ST_INTERNAL_ERROR, "%s: cannot score a profile with status %s",
                 p->path, p->status_word ? p->status_word : "?");
        return -1;
    }
    if (score_opcodes(p, t, r, err) != 0 || score_deps(p, t, r, err) != 0 ||
        score_branches(p, t, r, err) != 0 || score_calls(p, t, r, err) != 0 || score_methods(p, t, r, err) != 0)
        goto fail;
    r->total = r->opcode_total;
    if (fixed_add(&r->total, r->dep_total) != 0 || fixed_round(r->total, &r->score) != 0) {
        overflow(err, p);
        goto fail;
    }
    collect_missing(r);
    r->uncalibrated_table = !t->builtin && !t->calibrated;
    /* Prices measured on one JDK weight counts from another: the same
     * bytecode can cost differently in another interpreter. */
    r->table_jdk = t->builtin ? 0 : score_jdk_feature(t->jdk_version);
    r->profile_jdk = p->has_jvm ? score_jdk_feature(p->jvm_version) : 0;
    r->jdk_mismatch = r->table_jdk != 0 && r->profile_jdk != 0 && r->table_jdk != r->profile_jdk;
    r->approximate = r->n_missing > 0 || r->uncalibrated_table || r->jdk_mismatch;
    return 0;
fail:
    score_free(r);
    return -1;
}

void score_free(score_result *r)
{
    for (size_t i = 0; i < r->n_terms; i++)
        free(r->terms[i].key);
    free(r->terms);
    for (size_t i = 0; i < r->n_missing; i++)
        free(r->missing[i]);
    free(r->missing);
    for (size_t i = 0; i < r->n_methods; i++)
        free(r->methods[i].lines);
    free(r->methods);
    memset(r, 0, sizeof *r);
}

static int cmp_term(const void *a, const void *b)
{
    const score_term *x = *(const score_term *const *)a, *y = *(const score_term *const *)b;
    if (x->contribution != y->contribution)
        return x->contribution > y->contribution ? -1 : 1;
    return strcmp(x->key, y->key);
}

const score_term **score_top_terms(const score_result *r, int kind_opcode, size_t *n)
{
    const score_term **v = xcalloc(r->n_terms ? r->n_terms : 1, sizeof *v);
    *n = 0;
    for (size_t i = 0; i < r->n_terms; i++)
        if ((r->terms[i].kind == TERM_OPCODE) == (kind_opcode != 0))
            v[(*n)++] = &r->terms[i];
    qsort(v, *n, sizeof *v, cmp_term);
    return v;
}
