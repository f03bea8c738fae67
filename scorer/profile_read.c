/*
 * profile_read.c - load and check a version-7 (or 6, or 5) profile (see profile_read.h).
 */
#include "profile_read.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "branchpred.h"
#include "calls.h"
#include "bytecode.h"
#include "fixed.h"
#include "profile_format.h"
#include "schemas.h"
#include "xmlload.h"

/* State of one load: where messages point. */
typedef struct loader {
    const char *name;       /* the file, as given */
    psf_err *err;
} loader;

static char *dup_attr(xmlNodePtr n, const char *attr)
{
    char *v = xml_attr(n, attr);
    char *s = v ? xstrdup(v) : NULL;
    xmlFree(v);
    return s;
}

/* A required count attribute; the schema has checked it is 1-20 digits. */
static int count_attr(loader *ld, xmlNodePtr n, const char *attr, uint64_t *out)
{
    char *v = xml_attr(n, attr);
    int rc = 0;

    if (!v || fixed_parse_u64(v, out) != 0)
        rc = psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: <%s> %s=\"%.40s\" is not an unsigned 64-bit count",
                      ld->name, xmlGetLineNo(n), (const char *)n->name, attr, v ? v : "");
    xmlFree(v);
    return rc;
}

/* The opcode named by attribute "name" of n, or -1 with err filled. */
static int opcode_attr(loader *ld, xmlNodePtr n)
{
    char *mn = xml_attr(n, "name");
    int op = mn ? bc_opcode(mn) : -1;

    if (op < 0 || !(bc_flags((uint8_t)op) & BCF_VALID))
        psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: <opcode name=\"%.100s\">: not a JVMS opcode mnemonic",
                 ld->name, xmlGetLineNo(n), mn ? mn : "");
    xmlFree(mn);
    return op < 0 || !(bc_flags((uint8_t)op) & BCF_VALID) ? -1 : op;
}

static int bucket_of(xmlNodePtr n)
{
    char *b = xml_attr(n, "bucket");
    int k = b && strcmp(b, "overhead") == 0 ? BUCKET_OVERHEAD : BUCKET_WORK;
    xmlFree(b);
    return k;
}

static int load_target(profile *p, xmlNodePtr n)
{
    p->spec = dup_attr(n, "spec");
    p->cls = dup_attr(n, "class");
    p->name = dup_attr(n, "name");
    p->descriptor = dup_attr(n, "descriptor");
    return 0;
}

static int load_candidates(profile *p, xmlNodePtr n)
{
    for (xmlNodePtr c = xml_first_elem(n); c; c = xml_next_elem(c)) {
        xgrow((void **)&p->candidates, &p->cap_candidates, p->n_candidates, sizeof *p->candidates);
        p->candidates[p->n_candidates++] = dup_attr(c, "descriptor");
    }
    return 0;
}

static int load_invocations(loader *ld, profile *p, xmlNodePtr n)
{
    for (xmlNodePtr c = xml_first_elem(n); c; c = xml_next_elem(c)) {
        prof_invocation *iv;
        xgrow((void **)&p->inv, &p->cap_inv, p->n_inv, sizeof *p->inv);
        iv = &p->inv[p->n_inv++];
        memset(iv, 0, sizeof *iv);
        iv->thread = dup_attr(c, "thread");
        iv->end = dup_attr(c, "end");
        if (count_attr(ld, c, "index", &iv->index) != 0 ||
            count_attr(ld, c, "work", &iv->work) != 0 ||
            count_attr(ld, c, "overhead", &iv->overhead) != 0 ||
            (xmlHasProp(c, (const xmlChar *)"unscheduled") && count_attr(ld, c, "unscheduled", &iv->unscheduled) != 0))
            return -1;
        if (iv->unscheduled > iv->work)
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s:%ld: inconsistent profile: <invocation> unscheduled=\"%llu\" exceeds its work (%llu)",
                            ld->name, xmlGetLineNo(c), (unsigned long long)iv->unscheduled,
                            (unsigned long long)iv->work);
    }
    return 0;
}

static int load_opcodes(loader *ld, profile *p, xmlNodePtr n)
{
    int b = bucket_of(n);

    p->has_opcodes[b] = 1;
    for (xmlNodePtr c = xml_first_elem(n); c; c = xml_next_elem(c)) {
        int op = opcode_attr(ld, c);
        if (op < 0 || count_attr(ld, c, "count", &p->opcodes[b][op]) != 0)
            return -1;
    }
    return 0;
}

static int load_branches(loader *ld, profile *p, xmlNodePtr n)
{
    int b = bucket_of(n);

    p->has_branches[b] = 1;
    return count_attr(ld, n, "conditional", &p->branches[b][PROF_BR_CONDITIONAL]) != 0 ||
           count_attr(ld, n, "taken", &p->branches[b][PROF_BR_TAKEN]) != 0 ||
           count_attr(ld, n, "mispredicted", &p->branches[b][PROF_BR_MISPREDICTED]) != 0 ? -1 : 0;
}

static int load_calls(loader *ld, profile *p, xmlNodePtr n)
{
    int b = bucket_of(n);

    p->has_calls[b] = 1;
    return count_attr(ld, n, "entries", &p->calls[b][PROF_CALL_ENTRIES]) != 0 ||
           count_attr(ld, n, "close", &p->calls[b][PROF_CALL_CLOSE]) != 0 ||
           count_attr(ld, n, "fence_native", &p->calls[b][PROF_CALL_FENCE_NATIVE]) != 0 ||
           count_attr(ld, n, "fence_alloc", &p->calls[b][PROF_CALL_FENCE_ALLOC]) != 0 ? -1 : 0;
}

static int load_deps(loader *ld, profile *p, xmlNodePtr n)
{
    int b = bucket_of(n);

    p->has_deps[b] = 1;
    for (xmlNodePtr c = xml_first_elem(n); c; c = xml_next_elem(c)) {
        prof_dep *d;
        xgrow((void **)&p->deps[b], &p->cap_deps[b], p->n_deps[b], sizeof *p->deps[b]);
        d = &p->deps[b][p->n_deps[b]++];
        memset(d, 0, sizeof *d);
        if (xml_is(c, "array")) {
            d->kind = DEP_ARRAY;
            d->key = dup_attr(c, "elem");
            if (count_attr(ld, c, "allocations", &d->count) != 0 ||
                count_attr(ld, c, "elements", &d->elements) != 0)
                return -1;
            continue;
        }
        if (xml_is(c, "invoke")) {
            char *nat = xml_attr(c, "native");
            d->kind = DEP_INVOKE;
            d->key = dup_attr(c, "method");
            d->native = nat && strcmp(nat, "true") == 0;
            xmlFree(nat);
            if (xmlHasProp(c, (const xmlChar *)"elements") &&
                count_attr(ld, c, "elements", &d->elements) != 0)
                return -1;
        } else if (xml_is(c, "invokedynamic")) {
            d->kind = DEP_INDY;
            d->key = dup_attr(c, "site");
        } else if (xml_is(c, "ldc")) {
            d->kind = DEP_LDC;
            d->key = dup_attr(c, "constant");
        } else {
            d->kind = DEP_NEW;
            d->key = dup_attr(c, "class");
        }
        if (count_attr(ld, c, "count", &d->count) != 0)
            return -1;
    }
    return 0;
}

/* One <opcode name work overhead> child, appended to ops. */
static int load_mop(loader *ld, xmlNodePtr o, prof_mop **ops, size_t *n, size_t *cap)
{
    int op = opcode_attr(ld, o);
    if (op < 0)
        return -1;
    xgrow((void **)ops, cap, *n, sizeof **ops);
    prof_mop *mo = &(*ops)[(*n)++];
    mo->op = (uint8_t)op;
    return count_attr(ld, o, "work", &mo->work) != 0 || count_attr(ld, o, "overhead", &mo->overhead) != 0 ? -1 : 0;
}

/* One <line> of method m (version 6 and later). */
static int load_line(loader *ld, profile *p, prof_method *m, xmlNodePtr n)
{
    uint64_t number;
    if (!p->has_lines)
        return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: <line> in a version-" PSF_PROFILE_VERSION_NOLINES
                        " profile (lines are version " PSF_PROFILE_VERSION_NOCONTEXTS " and later)", ld->name, xmlGetLineNo(n));
    if (count_attr(ld, n, "number", &number) != 0)
        return -1;
    if (number > INT32_MAX)
        return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: line number %llu is out of range",
                        ld->name, xmlGetLineNo(n), (unsigned long long)number);
    xgrow((void **)&m->lines, &m->cap_lines, m->n_lines, sizeof *m->lines);
    prof_line *l = &m->lines[m->n_lines++];
    memset(l, 0, sizeof *l);
    l->number = (uint32_t)number;
    if (count_attr(ld, n, "work", &l->work) != 0 || count_attr(ld, n, "overhead", &l->overhead) != 0)
        return -1;
    for (xmlNodePtr o = xml_first_elem(n); o; o = xml_next_elem(o))
        if (load_mop(ld, o, &l->ops, &l->n_ops, &l->cap_ops) != 0)
            return -1;
    return 0;
}

static int load_methods(loader *ld, profile *p, xmlNodePtr n)
{
    p->has_methods = 1;
    for (xmlNodePtr c = xml_first_elem(n); c; c = xml_next_elem(c)) {
        prof_method *m;
        xgrow((void **)&p->methods, &p->cap_methods, p->n_methods, sizeof *p->methods);
        m = &p->methods[p->n_methods++];
        memset(m, 0, sizeof *m);
        m->name = dup_attr(c, "name");
        if (count_attr(ld, c, "work", &m->work) != 0 ||
            count_attr(ld, c, "overhead", &m->overhead) != 0)
            return -1;
        for (xmlNodePtr o = xml_first_elem(c); o; o = xml_next_elem(o)) {
            if (xml_is(o, "line")) {
                if (load_line(ld, p, m, o) != 0)
                    return -1;
                continue;
            }
            if (load_mop(ld, o, &m->ops, &m->n_ops, &m->cap_ops) != 0)
                return -1;
        }
    }
    return 0;
}

/* <contexts> (version 7 only): frames numbered 1, 2, ... in file order,
 * each after its parent, at most PSF_PROFILE_CONTEXTS_MAX. */
static int load_contexts(loader *ld, profile *p, xmlNodePtr n)
{
    if (!p->has_contexts)
        return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: <contexts> in a version-" PSF_PROFILE_VERSION_NOCONTEXTS
                        " or older profile (contexts are version " PSF_PROFILE_VERSION ")", ld->name, xmlGetLineNo(n));
    p->n_frames = 0;
    if (count_attr(ld, n, "other_work", &p->ctx_other[0]) != 0 ||
        count_attr(ld, n, "other_overhead", &p->ctx_other[1]) != 0)
        return -1;
    for (xmlNodePtr c = xml_first_elem(n); c; c = xml_next_elem(c)) {
        uint64_t id, parent, line;
        if (p->n_frames == PSF_PROFILE_CONTEXTS_MAX)
            return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: more than %d <frame> elements", ld->name,
                            xmlGetLineNo(c), PSF_PROFILE_CONTEXTS_MAX);
        if (count_attr(ld, c, "id", &id) != 0 || count_attr(ld, c, "parent", &parent) != 0 ||
            count_attr(ld, c, "line", &line) != 0)
            return -1;
        if (id != p->n_frames + 1 || parent >= id || line > INT32_MAX)
            return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: <frame> id=\"%llu\" parent=\"%llu\" line=\"%llu\": "
                            "frames are numbered 1, 2, ... in order, each after its parent", ld->name,
                            xmlGetLineNo(c), (unsigned long long)id, (unsigned long long)parent,
                            (unsigned long long)line);
        xgrow((void **)&p->frames, &p->cap_frames, p->n_frames, sizeof *p->frames);
        prof_frame *f = &p->frames[p->n_frames++];
        memset(f, 0, sizeof *f);
        f->parent = (size_t)parent;
        f->line = (uint32_t)line;
        f->method = dup_attr(c, "method");
        char *prog = xml_attr(c, "program");
        f->program = prog && (strcmp(prog, "true") == 0 || strcmp(prog, "1") == 0);
        xmlFree(prog);
        if (count_attr(ld, c, "work", &f->work) != 0 || count_attr(ld, c, "overhead", &f->overhead) != 0 ||
            count_attr(ld, c, "other_work", &f->other_work) != 0 ||
            count_attr(ld, c, "other_overhead", &f->other_overhead) != 0)
            return -1;
    }
    return 0;
}

/* Fail unless two totals agree; `where` is the element to point at. */
static int agree(loader *ld, xmlNodePtr where, const char *what, psf_u128 a, psf_u128 b)
{
    char x[48], y[48];
    if (a == b)
        return 0;
    fixed_format_u128(a, x, sizeof x);
    fixed_format_u128(b, y, sizeof y);
    return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: inconsistent profile: %s (%s vs %s)",
                    ld->name, xmlGetLineNo(where), what, x, y);
}

/* Version 6: each line's opcodes add up to the line's work and overhead,
 * and the lines, opcode by opcode, to the method's own histogram. */
static int check_lines(loader *ld, const prof_method *m)
{
    psf_u128 by_op[N_BUCKETS][256], own[N_BUCKETS][256];
    memset(by_op, 0, sizeof by_op);
    memset(own, 0, sizeof own);
    for (size_t i = 0; i < m->n_lines; i++) {
        const prof_line *l = &m->lines[i];
        psf_u128 w = 0, o = 0;
        for (size_t k = 0; k < l->n_ops; k++) {
            w += l->ops[k].work;
            o += l->ops[k].overhead;
            by_op[0][l->ops[k].op] += l->ops[k].work;
            by_op[1][l->ops[k].op] += l->ops[k].overhead;
        }
        if (w != l->work || o != l->overhead)
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: method %.300s, line %u: its opcodes do not add up to its work and overhead",
                            ld->name, m->name, (unsigned)l->number);
    }
    for (size_t k = 0; k < m->n_ops; k++) {
        own[0][m->ops[k].op] += m->ops[k].work;
        own[1][m->ops[k].op] += m->ops[k].overhead;
    }
    if (memcmp(by_op, own, sizeof own) != 0)
        return psf_fail(ld->err, ST_BAD_INPUT,
                        "%s: inconsistent profile: method %.300s: its lines do not add up to its opcodes",
                        ld->name, m->name);
    return 0;
}

/*
 * What a profile with status ok must also satisfy: every section present,
 * and the totals that the format defines as equal are equal. This catches a
 * hand-edited or mis-written profile before it becomes a score.
 */
static int check_ok(loader *ld, profile *p, xmlNodePtr root, xmlNodePtr summary, xmlNodePtr methods,
                    xmlNodePtr contexts)
{
    static const char *const bname[N_BUCKETS] = { "work", "overhead" };
    psf_u128 inv[N_BUCKETS] = { 0 }, hist[N_BUCKETS] = { 0 }, meth[N_BUCKETS] = { 0 };
    psf_u128 per_op[N_BUCKETS][256];

    if (!p->descriptor)
        return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: status ok but <target> has no descriptor",
                        ld->name, xmlGetLineNo(root));
    if (!p->has_jvm || !p->has_summary || !p->has_invocations || !p->has_opcodes[0] || !p->has_opcodes[1] ||
        !p->has_deps[0] || !p->has_deps[1] || !p->has_branches[0] || !p->has_branches[1] ||
        !p->has_calls[0] || !p->has_calls[1] || !p->has_methods)
        return psf_fail(ld->err, ST_BAD_INPUT,
                        "%s:%ld: status ok needs <jvm>, <summary>, <invocations>, <opcodes>, "
                        "<dependencies>, <branches> and <calls> for both buckets, and <methods>",
                        ld->name, xmlGetLineNo(root));
    if (agree(ld, summary, "summary invocations vs <invocation> elements", p->invocations, p->n_inv) != 0)
        return -1;
    if (p->n_inv == 0)
        return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: status ok with no invocation",
                        ld->name, xmlGetLineNo(summary));
    for (size_t i = 0; i < p->n_inv; i++) {
        if (strcmp(p->inv[i].end, "incomplete") == 0)
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: status ok but invocation %llu ended \"incomplete\"",
                            ld->name, (unsigned long long)p->inv[i].index);
        inv[0] += p->inv[i].work;
        inv[1] += p->inv[i].overhead;
    }
    memset(per_op, 0, sizeof per_op);
    for (size_t i = 0; i < p->n_methods; i++) {
        const prof_method *m = &p->methods[i];
        psf_u128 w = 0, o = 0;
        for (size_t k = 0; k < m->n_ops; k++) {
            w += m->ops[k].work;
            o += m->ops[k].overhead;
            per_op[0][m->ops[k].op] += m->ops[k].work;
            per_op[1][m->ops[k].op] += m->ops[k].overhead;
        }
        if (w != m->work || o != m->overhead)
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: method %.300s: its opcodes do not add up to its work and overhead",
                            ld->name, m->name);
        if (p->has_lines && check_lines(ld, m) != 0)
            return -1;
        meth[0] += m->work;
        meth[1] += m->overhead;
    }
    if (p->has_contexts) {
        psf_u128 ctx[N_BUCKETS] = { p->ctx_other[0], p->ctx_other[1] };
        if (contexts == root)
            return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: status ok needs <contexts> in version " PSF_PROFILE_VERSION,
                            ld->name, xmlGetLineNo(root));
        for (size_t i = 0; i < p->n_frames; i++) {
            ctx[0] += (psf_u128)p->frames[i].work + p->frames[i].other_work;
            ctx[1] += (psf_u128)p->frames[i].overhead + p->frames[i].other_overhead;
        }
        if (agree(ld, contexts, "summary work vs the sum of <contexts>", p->work, ctx[0]) != 0 ||
            agree(ld, contexts, "summary overhead vs the sum of <contexts>", p->overhead, ctx[1]) != 0)
            return -1;
    }
    for (int b = 0; b < N_BUCKETS; b++) {
        char what[120];
        uint64_t total = b == 0 ? p->work : p->overhead;
        psf_u128 ifs = 0;   /* conditional-branch bytecodes: a bound for <branches> */
        for (unsigned op = 0; op < 256; op++) {
            hist[b] += p->opcodes[b][op];
            if (bp_is_conditional((uint8_t)op))
                ifs += p->opcodes[b][op];
            if (per_op[b][op] != p->opcodes[b][op]) {
                snprintf(what, sizeof what, "%s count of %s in <opcodes> vs the sum over <methods>",
                         bname[b], bc_mnemonic((uint8_t)op));
                return agree(ld, methods, what, p->opcodes[b][op], per_op[b][op]);
            }
        }
        /* a branch is counted when the step after it shows its outcome */
        const uint64_t *br = p->branches[b];
        if (br[PROF_BR_CONDITIONAL] > ifs)
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: %s <branches> conditional=\"%llu\" but only %llu "
                            "conditional-branch bytecodes", ld->name, bname[b],
                            (unsigned long long)br[PROF_BR_CONDITIONAL], (unsigned long long)ifs);
        if (br[PROF_BR_TAKEN] > br[PROF_BR_CONDITIONAL] || br[PROF_BR_MISPREDICTED] > br[PROF_BR_CONDITIONAL])
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: %s <branches> taken=\"%llu\" mispredicted=\"%llu\": "
                            "more than conditional=\"%llu\"", ld->name, bname[b],
                            (unsigned long long)br[PROF_BR_TAKEN], (unsigned long long)br[PROF_BR_MISPREDICTED],
                            (unsigned long long)br[PROF_BR_CONDITIONAL]);
        /* a class constant is loaded by an ldc or ldc_w bytecode */
        psf_u128 ldcs = (psf_u128)p->opcodes[b][BC_LDC] + p->opcodes[b][BC_LDC_W], classes = 0;
        for (size_t i = 0; i < p->n_deps[b]; i++)
            if (p->deps[b][i].kind == DEP_LDC)
                classes += p->deps[b][i].count;
        if (classes > ldcs)
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: %s <ldc constant=\"class\"> count=\"%llu\" but only %llu "
                            "ldc and ldc_w bytecodes", ld->name, bname[b], (unsigned long long)classes,
                            (unsigned long long)ldcs);
        /* an entry is a step, and comes at least one step after the previous one */
        const uint64_t *ca = p->calls[b];
        if (ca[PROF_CALL_ENTRIES] > total ||
            (psf_u128)ca[PROF_CALL_CLOSE] > (psf_u128)ca[PROF_CALL_ENTRIES] * call_closeness(1))
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: %s <calls> entries=\"%llu\" close=\"%llu\": more entries "
                            "than bytecodes (%llu), or more closeness than %llu an entry", ld->name, bname[b],
                            (unsigned long long)ca[PROF_CALL_ENTRIES], (unsigned long long)ca[PROF_CALL_CLOSE],
                            (unsigned long long)total, (unsigned long long)call_closeness(1));
        /* a fence is a native call or an allocation, each at most as close as an entry */
        psf_u128 natives = 0, allocs = (psf_u128)p->opcodes[b][BC_NEW] + p->opcodes[b][BC_NEWARRAY] +
                                       p->opcodes[b][BC_ANEWARRAY] + p->opcodes[b][BC_MULTIANEWARRAY];
        for (size_t i = 0; i < p->n_deps[b]; i++)
            if (p->deps[b][i].kind == DEP_INVOKE && p->deps[b][i].native)
                natives += p->deps[b][i].count;
        if ((psf_u128)ca[PROF_CALL_FENCE_NATIVE] > natives * call_closeness(1) ||
            (psf_u128)ca[PROF_CALL_FENCE_ALLOC] > allocs * call_closeness(1))
            return psf_fail(ld->err, ST_BAD_INPUT,
                            "%s: inconsistent profile: %s <calls> fence_native=\"%llu\" fence_alloc=\"%llu\": more "
                            "than %llu a native call (%llu) or an allocation (%llu)", ld->name, bname[b],
                            (unsigned long long)ca[PROF_CALL_FENCE_NATIVE], (unsigned long long)ca[PROF_CALL_FENCE_ALLOC],
                            (unsigned long long)call_closeness(1), (unsigned long long)natives,
                            (unsigned long long)allocs);
        snprintf(what, sizeof what, "summary %s vs the sum of <invocation> %s", bname[b], bname[b]);
        if (agree(ld, summary, what, total, inv[b]) != 0)
            return -1;
        snprintf(what, sizeof what, "summary %s vs the sum of the %s histogram", bname[b], bname[b]);
        if (agree(ld, summary, what, total, hist[b]) != 0)
            return -1;
    }
    return 0;
}

static int load_doc(loader *ld, profile *p, xmlDocPtr doc)
{
    xmlNodePtr root = xmlDocGetRootElement(doc), summary = root, methods = root, contexts = root;
    char *version;

    if (!xml_is(root, "psf-profile"))
        return psf_fail(ld->err, ST_BAD_INPUT, "%s:%ld: not a PSF profile: the root element is <%.100s>, not <psf-profile>",
                        ld->name, xmlGetLineNo(root), (const char *)root->name);
    version = xml_attr(root, "version");
    if (!version || (strcmp(version, PSF_PROFILE_VERSION) != 0 && strcmp(version, PSF_PROFILE_VERSION_NOCONTEXTS) != 0 &&
                     strcmp(version, PSF_PROFILE_VERSION_NOLINES) != 0)) {
        psf_fail(ld->err, ST_BAD_INPUT,
                 "%s:%ld: profile format version \"%.40s\"; this scorer reads versions " PSF_PROFILE_VERSION
                 ", " PSF_PROFILE_VERSION_NOCONTEXTS " and " PSF_PROFILE_VERSION_NOLINES " only",
                 ld->name, xmlGetLineNo(root), version ? version : "(none)");
        xmlFree(version);
        return -1;
    }
    p->has_contexts = strcmp(version, PSF_PROFILE_VERSION) == 0;
    p->has_lines = p->has_contexts || strcmp(version, PSF_PROFILE_VERSION_NOCONTEXTS) == 0;
    xmlFree(version);
    char *engine = xml_attr(root, "engine"); /* the schema allows "fast" only; absent: the step engine */
    p->engine = strdup(engine != NULL ? (const char *)engine : "step");
    xmlFree(engine);
    if (p->engine == NULL)
        return psf_fail(ld->err, ST_INTERNAL_ERROR, "out of memory");
    if (xml_validate(doc, ld->name, psf_profile_xsd, psf_profile_xsd_len, ld->err) != 0)
        return -1;

    p->status_word = dup_attr(root, "status");
    p->status = status_from_word(p->status_word);
    for (xmlNodePtr n = xml_first_elem(root); n; n = xml_next_elem(n)) {
        int rc = 0;
        if (xml_is(n, "target"))
            rc = load_target(p, n);
        else if (xml_is(n, "candidates"))
            rc = load_candidates(p, n);
        else if (xml_is(n, "message")) {
            xmlChar *t = xmlNodeGetContent(n);
            p->message = xstrdup(t ? (const char *)t : "");
            xmlFree(t);
        } else if (xml_is(n, "jvm")) {
            p->has_jvm = 1;
            p->jvm_version = dup_attr(n, "version");
            p->jvm_vendor = dup_attr(n, "vendor");
            p->jvm_flags = dup_attr(n, "flags");
        } else if (xml_is(n, "summary")) {
            p->has_summary = 1;
            summary = n;
            if (count_attr(ld, n, "invocations", &p->invocations) != 0 ||
                count_attr(ld, n, "work", &p->work) != 0 ||
                count_attr(ld, n, "overhead", &p->overhead) != 0)
                return -1;
        } else if (xml_is(n, "invocations")) {
            p->has_invocations = 1;
            rc = load_invocations(ld, p, n);
        } else if (xml_is(n, "opcodes"))
            rc = load_opcodes(ld, p, n);
        else if (xml_is(n, "dependencies"))
            rc = load_deps(ld, p, n);
        else if (xml_is(n, "branches"))
            rc = load_branches(ld, p, n);
        else if (xml_is(n, "calls"))
            rc = load_calls(ld, p, n);
        else if (xml_is(n, "methods")) {
            methods = n;
            rc = load_methods(ld, p, n);
        }        else if (xml_is(n, "contexts")) {
            contexts = n;
            rc = load_contexts(ld, p, n);
        }
        if (rc != 0)
            return -1;
    }
    if (p->status == ST_OK)
        return check_ok(ld, p, root, summary, methods, contexts);
    return 0;
}

int profile_load_memory(profile *p, const char *name,
                        const unsigned char *bytes, size_t len, psf_err *err)
{
    loader ld = { name, err };
    xmlDocPtr doc = NULL;
    int rc;

    memset(p, 0, sizeof *p);
    p->path = xstrdup(name);
    rc = xml_parse(name, bytes, len, &doc, err);
    if (rc == 0)
        rc = load_doc(&ld, p, doc);
    xmlFreeDoc(doc);
    if (rc != 0)
        profile_free(p);
    return rc;
}

int profile_load_file(profile *p, const char *path, psf_err *err)
{
    unsigned char *bytes;
    size_t len;
    int rc;

    memset(p, 0, sizeof *p);
    if (xml_read_file(path, &bytes, &len, err) != 0)
        return -1;
    rc = profile_load_memory(p, path, bytes, len, err);
    free(bytes);
    return rc;
}

void profile_free(profile *p)
{
    free(p->path);
    free(p->status_word);
    free(p->message);
    free(p->spec);
    free(p->cls);
    free(p->name);
    free(p->descriptor);
    for (size_t i = 0; i < p->n_candidates; i++)
        free(p->candidates[i]);
    free(p->candidates);
    free(p->jvm_version);
    free(p->engine);
    free(p->jvm_vendor);
    free(p->jvm_flags);
    for (size_t i = 0; i < p->n_inv; i++) {
        free(p->inv[i].thread);
        free(p->inv[i].end);
    }
    free(p->inv);
    for (int b = 0; b < N_BUCKETS; b++) {
        for (size_t i = 0; i < p->n_deps[b]; i++)
            free(p->deps[b][i].key);
        free(p->deps[b]);
    }
    for (size_t i = 0; i < p->n_methods; i++) {
        free(p->methods[i].name);
        free(p->methods[i].ops);
        for (size_t k = 0; k < p->methods[i].n_lines; k++)
            free(p->methods[i].lines[k].ops);
        free(p->methods[i].lines);
    }
    free(p->methods);
    for (size_t i = 0; i < p->n_frames; i++)
        free(p->frames[i].method);
    free(p->frames);
    memset(p, 0, sizeof *p);
}

uint64_t profile_unscheduled(const profile *p)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->n_inv; i++)
        sum = p->inv[i].unscheduled > UINT64_MAX - sum ? UINT64_MAX : sum + p->inv[i].unscheduled;
    return sum;
}

char *profile_method(const profile *p)
{
    if (p->cls && p->name && p->descriptor) {
        size_t n = strlen(p->cls) + strlen(p->name) + strlen(p->descriptor) + 2;
        char *s = xmalloc(n);
        snprintf(s, n, "%s.%s%s", p->cls, p->name, p->descriptor);
        return s;
    }
    return xstrdup(p->spec ? p->spec : "");
}
