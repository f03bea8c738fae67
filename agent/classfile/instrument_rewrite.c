/*
 * instrument_rewrite.c - the rewriter's driver: for each method with code,
 * its instructions and the probes each gets (build_insns), the entry
 * probe merged with block 0's where it can be (rewrite_method), the
 * layout and the checks that may refuse it, its probe ids, array sites and
 * call sites, and its new Code attribute; for the class, the checks on the
 * probe class's name, the new constant pool and each rewritten Code
 * attribute swapped in (ins_rewrite, ins_rewrite_parsed). Part of the
 * rewriter (instrument.c opens with how it works); pure C.
 */
#include "instrument_impl.h"

#include <stdlib.h>
#include <string.h>

/* 1 when a Utf8 entry of the pool holds `name` (as a class name, in a
 * descriptor or a signature, or inside any other string). */
static int pool_names(const cpool *cp, const char *name)
{
    size_t n = strlen(name);
    for (uint16_t i = 1; i < cp->count; i++) {
        cp_str s;
        if (cp_utf8_slot(cp, i, &s) != 0 || s.len < n)
            continue;
        /* each place that holds name's first byte */
        const char *q = s.ptr, *last = s.ptr + (s.len - n);
        while (q <= last && (q = memchr(q, name[0], (size_t)(last - q) + 1)) != NULL) {
            if (memcmp(q, name, n) == 0)
                return 1;
            q++;
        }
    }
    return 0;
}

/* The instruction list and the old-offset index of a method's code, in
 * the rewriter's arrays (grown to the largest method so far). */
static int build_insns(method_ctx *c)
{
    rewriter *w = c->w;
    const ins_options *o = w->opt;
    const cf_method *m = c->m;
    const blk_table *t = &c->im->blocks;
    uint32_t n = 0;     /* every instruction is in one block */
    for (uint32_t b = 0; b < t->nblocks; b++)
        n += t->blocks[b].ninsns;
    if (m->code_len > w->code_cap) {
        free(w->at);
        free(w->frame_at);
        w->at = malloc((size_t)m->code_len * sizeof *w->at);
        w->frame_at = malloc(m->code_len);
        w->code_cap = w->at != NULL && w->frame_at != NULL ? m->code_len : 0;
    }
    if (n > w->insns_cap) {
        free(w->insns);
        w->insns = malloc((size_t)n * sizeof *w->insns);
        w->insns_cap = w->insns != NULL ? n : 0;
    }
    if (w->code_cap < m->code_len || w->insns_cap < n) {
        errmsg_set(w->err, w->errlen, "out of memory for %u instructions", n);
        return -1;
    }
    c->at = w->at;
    c->frame_at = w->frame_at;
    c->in = w->insns;
    memset(c->at, 0xff, (size_t)m->code_len * sizeof *c->at);     /* NO_INSN */
    memset(c->frame_at, 0, m->code_len);
    memset(c->in, 0, (size_t)n * sizeof *c->in);
    int calls = o->call_method != NULL && o->return_method != NULL;
    for (uint32_t pc = 0; pc < m->code_len; pc++) {
        uint8_t mark = t->mark[pc];
        if (!(mark & BLK_MARK_INSN))
            continue;
        if (c->n > 0)   /* the instruction before ends here */
            c->in[c->n - 1].len = pc - c->in[c->n - 1].old;
        insn *i = &c->in[c->n];
        c->at[pc] = c->n++;
        uint8_t op = m->code[pc];
        unsigned flags = bc_flags(op);
        i->old = pc;
        i->leader = (mark & BLK_MARK_LEADER) != 0;
        i->branch_probe = o->branch_method != NULL && is_cond(op);
        i->exit_probe = c->exit && (flags & BCF_RETURN) != 0;
        if (o->array_method != NULL && (flags & BCF_NEWARRAY)) {
            i->array_probe = 1;
            i->dims = op == BC_MULTIANEWARRAY ? m->code[pc + 3] : 1;
            c->sites += i->dims;
        }
        if (op >= BC_INVOKEVIRTUAL && op <= BC_INVOKEDYNAMIC) {
            /* only invokevirtual and invokestatic make arrays or copy them */
            int makes = o->made_method != NULL && (op == BC_INVOKEVIRTUAL || op == BC_INVOKESTATIC)
                            ? ins_makes_array(&w->cf->cp, m->code, pc) : 0;
            if (makes) {
                i->made_probe = (uint8_t)makes;
                c->sites++;
            }
            if (calls) {
                i->call_probe = 1;
                c->calls++;
            }
            if (o->copy_method != NULL && op == BC_INVOKESTATIC && ins_is_arraycopy(w, m->code, pc))
                i->copy_probe = 1;
        }
        if (o->new_method != NULL && op == BC_NEW) {
            i->new_probe = 1;
            c->calls++;
        }
        if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7)
            i->kind = K_BR16;
        else if (op == 0xc8 || op == 0xc9)
            i->kind = K_BR32;
        else if (op == BC_TABLESWITCH || op == BC_LOOKUPSWITCH)
            i->kind = K_SWITCH;
        else
            i->kind = K_PLAIN;
    }
    if (c->n > 0)
        c->in[c->n - 1].len = m->code_len - c->in[c->n - 1].old;
    return 0;
}

/*
 * Rewrite one method with code into out (its whole Code attribute). Returns
 * 0 when done, 1 when refused (nothing written; im->status and im->why say
 * why), -1 on malformed input or no memory.
 */
static int rewrite_method(rewriter *w, const cf_method *m, ins_method *im, buf *out)
{
    method_ctx c = {.w = w, .m = m, .im = im};
    int chosen = w->opt->calls_filter == NULL ? 1 : w->opt->calls_filter(w->opt->calls_ctx, m->name, m->desc);
    if (chosen == 2) {  /* an overhead root: the root pair, both or neither */
        c.entry_probe = PR_ROOT_ENTRY;
        c.exit_probe = PR_ROOT_EXIT;
        c.entry = c.exit = w->opt->root_entry_method != NULL && w->opt->root_exit_method != NULL;
        im->calls = c.entry ? 2 : 0;
    } else {
        c.entry_probe = PR_ENTRY;
        c.exit_probe = PR_EXIT;
        c.entry = chosen == 1 && w->opt->entry_method != NULL;
        c.exit = chosen == 1 && w->opt->exit_method != NULL;
        im->calls = c.entry || c.exit ? 1 : 0;
        if (chosen != 1 && w->opt->other_entry_method != NULL) {
            c.entry_probe = PR_OTHER_ENTRY;
            c.entry = 1;
            c.exit = 0;
            im->calls = 3;
        }
    }
    c.cst = w->opt->consts ? INS_CONST_LEN : 0;
    if (chosen == 2 && c.entry && w->opt->root_via_entry_block && w->opt->root_exit_not && w->opt->consts &&
        w->opt->other_entry_block_method != NULL) { /* the root probes through the entry-block method */
        c.root_cst = INS_CONST_LEN;
        c.entry_probe = c.exit_probe = PR_ENTRY_BLOCK;
    }
    int rc = -1;
    if (build_insns(&c))
        goto done;
    /* the merged probe, where block 0 starts only on entry: no branch,
     * switch, jsr or handler lands on offset 0 */
    if (c.entry && im->calls == 3 && w->opt->other_entry_block_method != NULL && c.n > 0 && c.in[0].leader &&
        !(im->blocks.mark[0] & BLK_MARK_TARGET)) {
        c.merged = 1;
        for (uint16_t e = 0; e < m->exc_count; e++)
            if (be_u16(m->exc + 8 * e + 4) == 0)
                c.merged = 0;
    }
    if (ins_fold_branches(&c))
        goto done;
    rc = ins_attrs_check(&c);
    if (rc != 0)
        goto done;
    /* widening only grows the code, and each pass widens one more branch or
     * stops: at most n + 1 passes */
    while (ins_layout_pass(&c))
        ;
    rc = 1;
    for (uint32_t k = 0; k < c.n; k++) {
        const insn *i = &c.in[k];
        if (i->kind == K_BR16 && i->wide && is_cond(m->code[i->old])) {
            uint32_t next = i->old + 3;
            int framed = next < m->code_len && c.frame_at[next];
            if (w->cf->major >= 50 && !framed) {
                ins_refuse(&c, INS_METHOD_REFUSED, "the conditional branch at offset %u must be widened, "
                       "and no stack map frame follows it", i->old);
                goto done;
            }
        }
    }
    if (c.new_len > MAX_CODE) {
        ins_refuse(&c, INS_METHOD_TOO_LARGE, "its %u bytes of code would grow to %u with the probes "
               "(65535 at most)", m->code_len, c.new_len);
        goto done;
    }
    if (m->max_stack > 65535 - ins_stack_growth(w)) {
        ins_refuse(&c, INS_METHOD_REFUSED, "max_stack is %u; the probes need %u more slots (65535 at most)",
               m->max_stack, ins_stack_growth(w));
        goto done;
    }
    if (w->opt->reserve != NULL) {     /* the caller numbers them (instrument.h) */
        if (w->opt->reserve(w->opt->reserve_ctx, im->blocks.nblocks, c.sites, c.calls, &im->first_id,
                            &im->first_site, &im->first_call) != 0) {
            errmsg_set(w->err, w->errlen, "no probe ids, array sites or call sites left for %u blocks",
                       im->blocks.nblocks);
            rc = -1;
            goto done;
        }
    } else {
        if ((uint64_t)w->next_id + im->blocks.nblocks > MAX_ID) {
            errmsg_set(w->err, w->errlen, "probe ids would pass 2^31 - 1");
            rc = -1;
            goto done;
        }
        if ((uint64_t)w->next_site + c.sites > MAX_ID) {
            errmsg_set(w->err, w->errlen, "array sites would pass 2^31 - 1");
            rc = -1;
            goto done;
        }
        if ((uint64_t)w->next_call + c.calls > MAX_ID) {
            errmsg_set(w->err, w->errlen, "call sites would pass 2^31 - 1");
            rc = -1;
            goto done;
        }
        im->first_id = w->next_id;
        im->first_site = w->next_site;
        im->first_call = w->next_call;
        w->next_id += im->blocks.nblocks;
        w->next_site += c.sites;
        w->next_call += c.calls;
    }
    im->nsites = c.sites;
    im->ncalls = c.calls;
    if (ins_emit_code_attr(&c, out)) {
        rc = -1;
        goto done;
    }
    im->pcs = malloc((size_t)c.n * sizeof *im->pcs);
    if (im->pcs == NULL) {
        errmsg_set(w->err, w->errlen, "out of memory for %u instruction offsets", c.n);
        rc = -1;
        goto done;
    }
    for (uint32_t k = 0; k < c.n; k++) {
        const insn *i = &c.in[k];
        uint32_t after = i->array_probe || i->copy_probe || i->made_probe || i->call_probe || i->new_probe
                             ? i->nw + i->len
                         : k + 1 < c.n ? c.in[k + 1].start : c.new_len;
        im->pcs[k] = (ins_pc){i->old, i->start, i->nw, after};
    }
    im->npcs = c.n;
    im->status = INS_METHOD_DONE;
    im->new_len = c.new_len;
    im->new_max_stack = (uint16_t)(m->max_stack + ins_stack_growth(w));
    rc = 0;
done:
    return rc;
}

static void rewriter_free(rewriter *w)
{
    free(w->cp.p);
    free(w->at);
    free(w->frame_at);
    free(w->insns);
}

static int options_bad(const ins_options *opt, char *err, size_t errlen)
{
    if (opt == NULL || opt->probe_class == NULL || opt->probe_method == NULL || opt->first_id > MAX_ID ||
        opt->first_site > MAX_ID || opt->first_call > MAX_ID) {
        errmsg_set(err, errlen, "no probe class and method, or a first id, site or call site past 2^31 - 1");
        return 1;
    }
    return 0;
}

/* What both entry points do first: no message, an empty result, the options checked; 0 or -1. */
static int rewrite_begin(const ins_options *opt, ins_result *r, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (r == NULL)
        return -1;
    memset(r, 0, sizeof *r);
    return options_bad(opt, err, errlen) ? -1 : 0;
}

int ins_rewrite(const uint8_t *in, size_t len, const ins_options *opt, ins_result *r,
                char *err, size_t errlen)
{
    if (rewrite_begin(opt, r, err, errlen))
        return -1;
    classfile cf;
    if (cf_parse(&cf, in, len, err, errlen))
        return -1;
    int rc = ins_rewrite_parsed(&cf, in, len, opt, r, err, errlen);
    cf_free(&cf);
    return rc;
}

int ins_rewrite_parsed(const classfile *cfp, const uint8_t *in, size_t len, const ins_options *opt,
                       ins_result *r, char *err, size_t errlen)
{
    if (rewrite_begin(opt, r, err, errlen))
        return -1;
    const classfile cf = *cfp;   /* a shallow copy: read only, never freed here */
    rewriter w = {.in = in, .cf = &cf, .opt = opt, .cp_count = cf.cp.count, .next_id = opt->first_id,
                  .next_site = opt->first_site, .next_call = opt->first_call, .err = err, .errlen = errlen};
    buf out = {0}, attrs = {0};
    size_t *attr_at = NULL;     /* each rewritten method's Code attribute in attrs: start, end */
    if (str_is(cf.this_name, opt->probe_class)) {
        errmsg_set(err, errlen, "%s is the probe class: it is never instrumented", opt->probe_class);
        goto fail;
    }
    if (pool_names(&cf.cp, opt->probe_class)) {
        errmsg_set(err, errlen, "its constant pool names the probe class %s: only the rewriter may call the probes",
                   opt->probe_class);
        goto fail;
    }
    if (cf.method_count > 0) {
        r->methods = calloc(cf.method_count, sizeof *r->methods);
        attr_at = calloc((size_t)cf.method_count * 2, sizeof *attr_at);
        if (r->methods == NULL || attr_at == NULL) {
            errmsg_set(err, errlen, "out of memory for %u methods", cf.method_count);
            goto fail;
        }
        r->nmethods = cf.method_count;
    }
    for (uint32_t k = 0; k < cf.method_count; k++) {
        const cf_method *m = &cf.methods[k];
        ins_method *im = &r->methods[k];
        im->name = m->name;
        im->desc = m->desc;
        im->old_len = im->new_len = m->code_len;
        im->old_max_stack = im->new_max_stack = m->max_stack;
        if (m->code == NULL)
            continue;
        char berr[160];
        if (blk_analyze(m->code, m->code_len, m->exc, m->exc_count, &im->blocks, berr, sizeof berr)) {
            errmsg_set(err, errlen, "method %.*s%.*s: %s", (int)m->name.len, m->name.ptr,
                       (int)m->desc.len, m->desc.ptr, berr);
            goto fail;
        }
        attr_at[2 * k] = attrs.len;
        int rc = rewrite_method(&w, m, im, &attrs);
        if (rc < 0)
            goto fail;
        attr_at[2 * k + 1] = attrs.len;
        if (rc == 0)
            r->ndone++;
        else
            r->nskipped++;
    }
    if (w.cp.oom || attrs.oom) {
        errmsg_set(err, errlen, "out of memory for the rewritten class");
        goto fail;
    }

    /* header with the new constant_pool_count, the input's pool, the new
     * entries, then the rest with each rewritten Code attribute swapped in */
    put(&out, in, 8);
    put2(&out, w.cp_count);
    put(&out, in + 10, cf.cp_end - 10);
    put(&out, w.cp.p, w.cp.len);
    size_t from = cf.cp_end;
    for (uint32_t k = 0; k < cf.method_count; k++) {
        const cf_method *m = &cf.methods[k];
        if (r->methods[k].status != INS_METHOD_DONE)
            continue;
        put(&out, in + from, m->code_attr_off - from);
        put(&out, attrs.p + attr_at[2 * k], attr_at[2 * k + 1] - attr_at[2 * k]);
        from = m->code_attr_off + m->code_attr_size;
    }
    put(&out, in + from, len - from);
    if (out.oom) {
        errmsg_set(err, errlen, "out of memory for the rewritten class");
        goto fail;
    }
    r->class_name = cf.this_name;
    r->bytes = out.p;
    r->len = out.len;
    r->next_id = w.next_id;
    r->next_site = w.next_site;
    r->next_call = w.next_call;
    rewriter_free(&w);
    free(attrs.p);
    free(attr_at);
    return 0;

fail:
    free(out.p);
    rewriter_free(&w);
    free(attrs.p);
    free(attr_at);
    ins_free(r);
    return -1;
}
