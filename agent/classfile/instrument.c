/*
 * instrument.c - a class-file rewriter that puts a block probe at the start
 * of every basic block of every method.
 *
 * The input is parsed with cf_parse (classfile.h), which checks the whole
 * structure and records where each Code attribute lies; each method's code
 * is split with blk_analyze (blocks.h), which checks every instruction and
 * every target. Then, per method:
 *
 *  1. Layout. Offsets are assigned with a probe before each block leader;
 *     a 16-bit branch whose new distance no longer fits is widened (goto and
 *     jsr to goto_w and jsr_w, if<cond> L to if<!cond> +8; goto_w L) and the
 *     layout is redone until nothing more widens (widening only grows code,
 *     so this ends). Switch padding follows the new offsets.
 *  2. Checks that may refuse the method (it is then copied unchanged and
 *     reported): code past 65535 bytes, max_stack already 65535, a Code
 *     attribute that holds offsets the rewriter does not know, a widened
 *     conditional branch whose fall-through has no stack map frame (the new
 *     goto_w would need a frame the rewriter cannot compute).
 *  3. Emission, with every code offset mapped: an offset that starts a block
 *     maps to its probe (a branch to a block runs the probe; an exception
 *     range and a line number take the probe in; a stack map frame holds
 *     before the probe, which changes no local and leaves the stack as it
 *     found it), any other instruction offset to the instruction's new place.
 *     Uninitialized(offset) in a frame names a `new` instruction itself.
 *
 * With an entry probe, offset 0 first runs the entry probe, then block 0's
 * probe; every jump to offset 0 (a loop at the top of the method) lands on
 * the block probe, so the entry probe counts calls only.
 *
 * max_stack grows by one (the probe pushes its id on whatever the stack
 * holds at the block start), by two with the probes' constants
 * (options.consts), by four with branch probes. The constant pool
 * grows at its end: the probe's Methodref (six entries), the entry probe's
 * (three more), the branch probes' four (thirteen more) and the array
 * probe's (four more) when asked for, and an Integer for each id or array
 * site above 32767 (one per probe that pushes it).
 *
 * With array probes, each newarray, anewarray and multianewarray is followed
 * by a probe that passes the new array, the levels the instruction makes and
 * its first site (emit_array_probe): it runs only when the instruction
 * allocated. A jump to the next instruction lands past it, and an exception
 * in it maps back to the array instruction as "in a probe". With copy
 * probes, each invokestatic System.arraycopy is preceded by one that sees
 * the length and followed by one that runs only when the copy returned
 * (their Methodrefs are added at the class's first arraycopy). With made
 * probes, each call of an array's clone() or Array.newArray is followed by
 * one that passes the array it returned and a site of its own. With call
 * probes, each invoke but invokedynamic is preceded by a call probe and
 * followed by a return probe, both passing its call site (their Methodrefs
 * added at the class's first invoke; past 32767 both push the same
 * Integer). With options.consts the block, entry-block, return and new
 * probes push a constant after their id (instrument.h), and with
 * options.fold_method a conditional branch whose successors have no other
 * way in has no branch probe: its outcome goes to the successors' probes
 * (fold_branches).
 *
 * Choices:
 *  - Malformed input fails the whole class (-1): the JVM would reject it too.
 *    A well-formed method the rewriter does not handle is left as it is and
 *    reported, so the caller can fall back to the step engine.
 *  - The Code attribute's own tables keep their meaning at the new offsets
 *    (instrument_tables.c).
 *
 * The files: this one lays each method out (layout_pass), decides its
 * probes (build_insns, fold_branches) and rewrites the class
 * (ins_rewrite_parsed); instrument_pool.c adds the probes' constant-pool
 * entries; instrument_emit.c emits the new code; instrument_tables.c checks
 * and relocates the Code attribute's tables; instrument_impl.h is what they
 * share and no one else reads.
 */
#include "instrument_impl.h"
#include "branchpred.h"

#include <stdlib.h>
#include <string.h>

/* 1 when a Utf8 entry of the pool holds `name` (as a class name, in a
 * descriptor or a signature, or inside any other string). */
static int pool_names(const cpool *cp, const char *name)
{
    size_t n = strlen(name);
    for (uint16_t i = 1; i < cp->count; i++) {
        cp_str s;
        if (cp_tag(cp, i) != CP_UTF8 || cp_utf8(cp, i, &s) != 0 || s.len < n)
            continue;
        for (size_t k = 0; k + n <= s.len; k++)
            if (s.ptr[k] == name[0] && memcmp(s.ptr + k, name, n) == 0)
                return 1;
    }
    return 0;
}

static uint32_t switch_len(const insn *i, uint32_t at)
{
    uint32_t old_ops = (i->old + 4) & ~3u;
    uint32_t body = i->len - (old_ops - i->old);
    uint32_t new_ops = (at + 4) & ~3u;
    return new_ops - at + body;
}

/* Lay the code out with the current widening; returns 1 when some 16-bit
 * branch does not reach and got widened (lay out again). */
static int layout_pass(method_ctx *c)
{
    const uint8_t *code = c->m->code;
    uint32_t pos = 0;
    for (uint32_t k = 0; k < c->n; k++) {
        insn *i = &c->in[k];
        i->start = pos;
        if (k == 0 && c->entry)     /* the entry probe: run on entry, jumped over */
            pos += INS_PROBE_LEN + (c->merged ? c->cst : 0);
        i->target = pos;
        if (i->leader && !(k == 0 && c->merged))
            pos += INS_PROBE_LEN + (c->cst || i->fold ? INS_CONST_LEN : 0) + (i->fold ? INS_CONST_LEN : 0);
        if (i->branch_probe)
            pos += INS_BRANCH_PROBE_LEN;
        if (i->exit_probe)
            pos += INS_PROBE_LEN;
        if (i->copy_probe)
            pos += INS_COPY_PROBE_LEN;
        if (i->call_probe)
            pos += INS_CALL_PROBE_LEN + c->cst;
        i->nw = pos;
        switch (i->kind) {
        case K_BR16:
            pos += !i->wide ? 3 : is_cond(code[i->old]) ? 8 : 5;
            break;
        case K_SWITCH:
            pos += switch_len(i, pos);
            break;
        default:
            pos += i->len;
        }
        if (i->array_probe)
            pos += INS_ARRAY_PROBE_LEN;
        if (i->call_probe)
            pos += INS_RETURN_PROBE_LEN + c->cst;
        if (i->new_probe)
            pos += INS_NEW_PROBE_LEN + c->cst;
        if (i->copy_probe)
            pos += INS_COPIED_PROBE_LEN;
        if (i->made_probe)
            pos += i->made_probe == INS_MAKES_LEVELS ? INS_MADE_LEVELS_PROBE_LEN : INS_MADE_PROBE_LEN;
    }
    c->new_len = pos;
    int widened = 0;
    for (uint32_t k = 0; k < c->n; k++) {
        insn *i = &c->in[k];
        if (i->kind != K_BR16 || i->wide)
            continue;
        int64_t target = (int64_t)i->old + s2(code + i->old + 1);
        int64_t d = (int64_t)map_target(c, (uint32_t)target) - i->nw;
        if (d < INT16_MIN || d > INT16_MAX) {
            i->wide = 1;
            widened = 1;
        }
    }
    return widened;
}

/* Refuse the method: it stays as it is. */
int refuse(method_ctx *c, int status, const char *fmt, ...)
{
    c->im->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->im->why, sizeof c->im->why, fmt, ap);
    va_end(ap);
    return 1;
}

/* The instruction list and the old-offset index of a method's code. */
static int build_insns(method_ctx *c)
{
    const cf_method *m = c->m;
    const blk_table *t = &c->im->blocks;
    c->at = malloc((size_t)m->code_len * sizeof *c->at);
    c->frame_at = calloc(m->code_len, 1);
    uint32_t n = 0;
    for (uint32_t pc = 0; pc < m->code_len; pc++)
        n += (t->mark[pc] & BLK_MARK_INSN) != 0;
    c->in = calloc(n, sizeof *c->in);
    if (c->at == NULL || c->frame_at == NULL || c->in == NULL) {
        errmsg_set(c->w->err, c->w->errlen, "out of memory for %u instructions", n);
        return -1;
    }
    for (uint32_t pc = 0; pc < m->code_len; pc++) {
        c->at[pc] = NO_INSN;
        if (!(t->mark[pc] & BLK_MARK_INSN))
            continue;
        insn *i = &c->in[c->n];
        c->at[pc] = c->n++;
        uint8_t op = m->code[pc];
        i->old = pc;
        i->len = bc_insn_length(m->code, m->code_len, pc); /* nonzero: blk_analyze decoded it */
        i->leader = (t->mark[pc] & BLK_MARK_LEADER) != 0;
        i->branch_probe = c->w->opt->branch_method != NULL && is_cond(op);
        i->exit_probe = c->exit && (bc_flags(op) & BCF_RETURN) != 0;
        if (c->w->opt->array_method != NULL && (bc_flags(op) & BCF_NEWARRAY)) {
            i->array_probe = 1;
            i->dims = op == BC_MULTIANEWARRAY ? m->code[pc + 3] : 1;
            c->sites += i->dims;
        }
        int makes = c->w->opt->made_method != NULL ? ins_makes_array(&c->w->cf->cp, m->code, pc) : 0;
        if (makes) {
            i->made_probe = (uint8_t)makes;
            c->sites++;
        }
        if (c->w->opt->call_method != NULL && c->w->opt->return_method != NULL && op >= BC_INVOKEVIRTUAL &&
            op <= BC_INVOKEINTERFACE) {
            i->call_probe = 1;
            c->calls++;
        }
        if (c->w->opt->new_method != NULL && op == BC_NEW) {
            i->new_probe = 1;
            c->calls++;
        }
        if (c->w->opt->copy_method != NULL && is_arraycopy(c->w, m->code, pc)) {
            i->copy_probe = 1;
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
    return 0;
}

/*
 * Folded branches (options.fold_method): each conditional branch whose
 * target and fall-through are two blocks with no other way in loses its
 * branch probe, and both successors' probes become fold probes with the
 * outcome that leads to them. -1 when out of memory.
 */
static int fold_branches(method_ctx *c)
{
    const ins_options *o = c->w->opt;
    const blk_table *t = &c->im->blocks;
    if (o->fold_method == NULL || o->branch_method == NULL || t->nblocks < 2)
        return 0;
    uint32_t *ways = malloc((size_t)t->nblocks * sizeof *ways);
    if (ways == NULL) {
        errmsg_set(c->w->err, c->w->errlen, "out of memory for %u blocks", t->nblocks);
        return -1;
    }
    blk_ways_in(t, c->m->code, c->m->exc, c->m->exc_count, ways);
    uint32_t seed = 0;
    int seeded = 0;     /* the seed is asked for at the first branch that folds */
    for (uint32_t b = 0; b + 1 < t->nblocks; b++) {
        const blk_block *bb = &t->blocks[b];
        if (bb->end_kind != BLK_END_COND)
            continue;
        int32_t taken = blk_find(t, (uint32_t)((int64_t)bb->last + s2(c->m->code + bb->last + 1)));
        uint32_t fall = b + 1;
        if (taken < 0 || (uint32_t)taken == fall || ways[taken] != 1 || ways[fall] != 1)
            continue;
        if (!seeded && o->branch_seed != NULL)
            seed = o->branch_seed(o->seed_ctx, c->m->name, c->m->desc);
        seeded = 1;
        uint32_t site = bp_site(seed, bb->last);
        insn *ti = &c->in[c->at[t->blocks[taken].start]], *fi = &c->in[c->at[t->blocks[fall].start]];
        ti->fold = fi->fold = 1;
        ti->fold_arg = (uint16_t)INS_FOLD_PACK(site, 1);
        fi->fold_arg = (uint16_t)INS_FOLD_PACK(site, 0);
        c->in[c->at[bb->last]].branch_probe = 0;
    }
    free(ways);
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
    int rc = -1;
    if (build_insns(&c))
        goto done;
    /* the merged probe, where block 0 starts only on entry: no branch,
     * switch, jsr or handler lands on offset 0 */
    if (c.entry && im->calls == 3 && w->opt->other_entry_block_method != NULL && c.n > 0 && c.in[0].leader &&
        !(im->blocks.mark[0] & BLK_MARK_TARGET)) {
        c.merged = 1;
        for (uint16_t e = 0; e < m->exc_count; e++)
            if (rd2(m->exc + 8 * e + 4) == 0)
                c.merged = 0;
    }
    if (fold_branches(&c))
        goto done;
    rc = attrs_check(&c);
    if (rc != 0)
        goto done;
    /* widening only grows the code, and each pass widens one more branch or
     * stops: at most n + 1 passes */
    while (layout_pass(&c))
        ;
    rc = 1;
    for (uint32_t k = 0; k < c.n; k++) {
        const insn *i = &c.in[k];
        if (i->kind == K_BR16 && i->wide && is_cond(m->code[i->old])) {
            uint32_t next = i->old + 3;
            int framed = next < m->code_len && c.frame_at[next];
            if (w->cf->major >= 50 && !framed) {
                refuse(&c, INS_METHOD_REFUSED, "the conditional branch at offset %u must be widened, "
                       "and no stack map frame follows it", i->old);
                goto done;
            }
        }
    }
    if (c.new_len > MAX_CODE) {
        refuse(&c, INS_METHOD_TOO_LARGE, "its %u bytes of code would grow to %u with the probes "
               "(65535 at most)", m->code_len, c.new_len);
        goto done;
    }
    if (m->max_stack > 65535 - stack_growth(w)) {
        refuse(&c, INS_METHOD_REFUSED, "max_stack is %u; the probes need %u more slots (65535 at most)",
               m->max_stack, stack_growth(w));
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
    if (emit_code_attr(&c, out)) {
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
    im->new_max_stack = (uint16_t)(m->max_stack + stack_growth(w));
    rc = 0;
done:
    free(c.in);
    free(c.at);
    free(c.frame_at);
    return rc;
}

int64_t ins_original_offset(const ins_method *m, uint32_t pc, int *in_probe)
{
    if (in_probe)
        *in_probe = 0;
    if (m == NULL || m->status != INS_METHOD_DONE || m->npcs == 0 || pc >= m->new_len)
        return -1;
    uint32_t lo = 0, hi = m->npcs;  /* pcs[lo].start <= pc < pcs[hi].start */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->pcs[mid].start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    if (in_probe)
        *in_probe = pc < m->pcs[lo].at || pc >= m->pcs[lo].after;
    return m->pcs[lo].old;
}

void ins_free(ins_result *r)
{
    if (r == NULL)
        return;
    free(r->bytes);
    for (uint32_t k = 0; k < r->nmethods; k++) {
        blk_free(&r->methods[k].blocks);
        free(r->methods[k].pcs);
    }
    free(r->methods);
    memset(r, 0, sizeof *r);
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
    free(w.cp.p);
    free(attrs.p);
    free(attr_at);
    return 0;

fail:
    free(out.p);
    free(w.cp.p);
    free(attrs.p);
    free(attr_at);
    ins_free(r);
    return -1;
}
