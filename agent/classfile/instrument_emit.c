/*
 * instrument_emit.c - the rewritten code of one method, at the offsets the
 * layout gave (instrument.c ins_layout_pass): each instruction with its
 * branches and switches re-aimed (emit_insn), the probes around it
 * (emit_probe, emit_branch_probe, emit_array_probe, and the entry, exit,
 * copy, call, return, new and made probes in ins_emit_code_attr), and the
 * whole new Code attribute with its grown max_stack (ins_stack_growth); its
 * tables are instrument_tables.c's. Part of the rewriter (instrument.c);
 * pure C.
 */
#include "instrument_impl.h"

/* Push a probe id: sipush, or ldc_w of an Integer (three bytes either way);
 * *k, when not NULL, is an Integer entry already holding id (0: none yet;
 * the one added is stored there). */
static int emit_id_k(method_ctx *c, buf *code, uint32_t id, uint16_t *k)
{
    if (id <= INT16_MAX) {
        put1(code, 0x11);   /* sipush */
        put2(code, id);
    } else {
        uint16_t e = k != NULL ? *k : 0;
        if (e == 0) {
            uint8_t v[4];
            be_put_u32(v, id);
            e = ins_cp_add(c->w, CP_INTEGER, v, 4);
            if (e == 0)
                return -1;
            if (k != NULL)
                *k = e;
        }
        put1(code, BC_LDC_W);
        put2(code, e);
    }
    return 0;
}

static int emit_id(method_ctx *c, buf *code, uint32_t id)
{
    return emit_id_k(c, code, id, NULL);
}

/* Push ~id (options.root_exit_not, options.calls_not): sipush down to
 * -32768, else ldc_w of an Integer (three bytes either way, as emit_id_k),
 * *k the one added for an earlier exit of the method or the call probe of
 * the same invoke (0: none yet). */
static int emit_not_id(method_ctx *c, buf *code, uint32_t id, uint16_t *k)
{
    if (id <= INT16_MAX) {
        put1(code, 0x11);   /* sipush */
        put2(code, ~id & 0xffffu);
        return 0;
    }
    if (*k == 0) {
        uint8_t v[4];
        be_put_u32(v, ~id);
        *k = ins_cp_add(c->w, CP_INTEGER, v, 4);
        if (*k == 0)
            return -1;
    }
    put1(code, BC_LDC_W);
    put2(code, *k);
    return 0;
}

/* Push a probe's constant (below 32768): sipush. */
static void emit_const(buf *code, unsigned v)
{
    put1(code, 0x11);   /* sipush */
    put2(code, v);
}

/* Block b's lengths for its probe's constant (options.consts): 0 when a
 * length does not fit or the block is a goto to itself, and the probe
 * reads the agent's table. */
static unsigned block_lengths(const method_ctx *c, uint32_t b)
{
    const blk_table *t = &c->im->blocks;
    int alloc;
    uint32_t seg = blk_segment(t, c->m->code, b, t->blocks[b].start, &alloc);
    uint32_t len = t->blocks[b].ninsns;
    if (bc_goto_self(c->m->code, c->m->code_len, t->blocks[b].start))
        return 0; /* a goto to itself: the probe reads the table, where the fast engine marks it (limit.c) */
    return len <= INS_LEN_MAX && seg <= INS_LEN_MAX ? INS_LEN_PACK(len, seg, alloc) : 0;
}

/* The segment after instruction i of block b, for its return or new
 * probe's constant: 0 when its length does not fit. */
static unsigned segment_after(const method_ctx *c, uint32_t b, const insn *i)
{
    const blk_table *t = &c->im->blocks;
    int alloc;
    uint32_t n = blk_segment(t, c->m->code, b, i->old + i->len, &alloc);
    return n <= INS_SEG_MAX ? INS_SEG_PACK(n, alloc, c->w->opt->program != 0) : 0;
}

/* Emit the probe that leads block b (id): the block probe, or the fold
 * probe with the outcome that leads to it. */
static int emit_probe(method_ctx *c, buf *code, uint32_t id, uint32_t b, const insn *i)
{
    if (emit_id(c, code, id))
        return -1;
    if (c->cst || i->fold)
        emit_const(code, c->cst ? block_lengths(c, b) : 0);
    if (i->fold)
        emit_const(code, ~(unsigned)i->fold_arg & 0xffffu);       /* negative: see instrument.h */
    return ins_emit_invoke(c->w, code, i->fold ? PR_FOLD : PR_BLOCK);
}

/* Emit the branch probe before the conditional branch `op` that ends block id. */
static int emit_branch_probe(method_ctx *c, buf *code, uint8_t op, uint32_t id)
{
    int form = ins_branch_form(op);
    put1(code, form == BR_INT2 || form == BR_REF2 ? 0x5c : 0x59);   /* dup2 : dup */
    if (ins_icmp_as_if(c->w, op)) {
        /* a b -> a b sign(b - a): i2l, dup2_x1, pop2, i2l, lcmp; then the
         * if<cond> that holds for that sign when the if_icmp<cond> holds
         * for a and b (a < b: b - a > 0) */
        static const uint8_t as_if[6] = {0x99, 0x9a, 0x9d, 0x9e, 0x9b, 0x9c};
        static const uint8_t sign[5] = {0x85, 0x5d, 0x58, 0x85, 0x94};
        put(code, sign, sizeof sign);
        op = as_if[op - 0x9f];
        form = BR_INT1;
    } else if (ins_null_as_int(c->w, op)) {
        /* v -> v (v instanceof Object): 0 for null, 1 for an object; then
         * ifeq for ifnull, ifne for ifnonnull */
        uint16_t object = ins_object_class(c->w);
        if (object == 0)
            return -1;
        put1(code, 0xc1);
        put2(code, object);
        op = op == 0xc6 ? 0x99 : 0x9a;
        form = BR_INT1;
    }
    put1(code, 0x10);                                               /* bipush */
    put1(code, op);
    return emit_id(c, code, id) || ins_emit_invoke(c->w, code, PR_BRANCH + form) ? -1 : 0;
}

/* Emit the array probe after an array instruction: the new array, its
 * levels and its first site. */
static int emit_array_probe(method_ctx *c, buf *code, uint8_t dims, uint32_t site)
{
    put1(code, 0x59);   /* dup */
    put1(code, 0x10);   /* bipush: sign-extends, the probe reads dims & 0xff */
    put1(code, dims);
    return emit_id(c, code, site) || ins_emit_invoke(c->w, code, PR_ARRAY) ? -1 : 0;
}

static void emit_insn(method_ctx *c, const insn *i, buf *out)
{
    const uint8_t *code = c->m->code;
    const uint8_t *p = code + i->old;
    uint8_t op = p[0];
    if (i->kind == K_PLAIN) {
        put_short(out, p, i->len);
    } else if (i->kind == K_BR16 || i->kind == K_BR32) {
        int64_t target = (int64_t)i->old + (i->kind == K_BR16 ? be_s16(p + 1) : be_s32(p + 1));
        int32_t d = (int32_t)((int64_t)map_target(c, (uint32_t)target) - i->nw);
        if (i->kind == K_BR16 && !i->wide) {
            put1(out, op);
            put2(out, (uint16_t)d);
        } else if (i->kind == K_BR16 && is_cond(op)) {
            put1(out, invert(op));      /* over the goto_w, to the fall-through */
            put2(out, 8);
            put1(out, 0xc8);
            put4(out, (uint32_t)(d - 3));
        } else {
            put1(out, op == 0xa7 || op == 0xc8 ? 0xc8 : 0xc9);
            put4(out, (uint32_t)d);
        }
    } else { /* switch: new padding, offsets relative to the new place */
        put1(out, op);
        uint32_t pad = ((i->nw + 4) & ~3u) - i->nw - 1;
        for (uint32_t k = 0; k < pad; k++)
            put1(out, 0);
        const uint8_t *ops = code + ((i->old + 4) & ~3u);
#define REL(q) put4(out, (uint32_t)((int64_t)map_target(c, (uint32_t)((int64_t)i->old + be_s32(q))) - i->nw))
        REL(ops);
        if (op == BC_TABLESWITCH) {
            put(out, ops + 4, 8);
            int64_t n = (int64_t)be_s32(ops + 8) - be_s32(ops + 4) + 1;
            for (int64_t k = 0; k < n; k++)
                REL(ops + 12 + 4 * k);
        } else {
            put(out, ops + 4, 4);
            int64_t n = be_s32(ops + 4);
            for (int64_t k = 0; k < n; k++) {
                put(out, ops + 8 + 8 * k, 4);
                REL(ops + 8 + 8 * k + 4);
            }
        }
#undef REL
    }
}

/* How much max_stack grows: the block probe pushes one value, two with
 * its constant, three as a fold probe; a return or new probe two with its
 * constant above what the instruction left; a branch probe pushes up to
 * four above the operands it duplicates (five for an if_icmp<cond>'s with
 * icmp_as_if); an array probe three above the array (whose instruction
 * took at least one operand). */
unsigned ins_stack_growth(const rewriter *w)
{
    const ins_options *o = w->opt;
    if (o->branch_method != NULL && o->icmp_as_if)
        return 5;   /* a b a b bL a bL, at its highest */
    if (o->branch_method != NULL || o->array_method != NULL || o->copy_method != NULL || o->made_method != NULL)
        return 4;
    return o->consts ? 2 : 1;   /* fold probes need branch_method */
}

/* Emit the whole new Code attribute into out: its head, then the code and
 * the tables straight after it, then the attribute's length patched in. */
int ins_emit_code_attr(method_ctx *c, buf *out)
{
    const cf_method *m = c->m;
    size_t head = out->len;
    put(out, c->w->in + m->code_attr_off, 2);  /* attribute_name_index: "Code" */
    put4(out, 0);                               /* attribute_length, below */
    put2(out, (unsigned)m->max_stack + ins_stack_growth(c->w));
    put2(out, m->max_locals);
    put4(out, c->new_len);
    size_t code_at = out->len;
    buf code = *out;            /* the code goes on at the end of out */
    uint32_t block = 0, site = c->im->first_site, call = c->im->first_call;
    uint16_t notk = 0;          /* the root exit probes' Integer of ~id, past 32767 */
    int cnot = c->cst && c->w->opt->calls_not; /* the call, return and new probes pass ~site */
    for (uint32_t k = 0; k < c->n; k++) {
        if (k == 0 && c->entry) {   /* the entry probe: id of block 0 (and its lengths when merged) */
            if (emit_id(c, &code, c->im->first_id))
                goto fail;
            if (c->merged && c->cst)
                emit_const(&code, ~block_lengths(c, 0) & 0xffffu);    /* negative: see instrument.h */
            if (c->root_cst)
                emit_const(&code, ~INS_ROOT_CONST & 0xffffu);
            if (ins_emit_invoke(c->w, &code, c->merged ? PR_ENTRY_BLOCK : c->entry_probe))
                goto fail;
        }
        if (k == 0 && c->merged) {  /* block 0's probe is the entry probe */
            block++;
        } else if (c->in[k].leader) {
            if (emit_probe(c, &code, c->im->first_id + block, block, &c->in[k]))
                goto fail;
            block++;
        }
        /* a conditional branch ends the block whose probe came last */
        if (c->in[k].branch_probe &&
            emit_branch_probe(c, &code, m->code[c->in[k].old], c->im->first_id + block - 1))
            goto fail;
        if (c->in[k].exit_probe) {  /* the exit probe: id of block 0, as the entry probe */
            int not = (c->exit_probe == PR_ROOT_EXIT || c->root_cst) && c->w->opt->root_exit_not;
            if ((not ? emit_not_id(c, &code, c->im->first_id, &notk) : emit_id(c, &code, c->im->first_id)))
                goto fail;
            if (c->root_cst)
                emit_const(&code, ~INS_ROOT_CONST & 0xffffu);
            if (ins_emit_invoke(c->w, &code, c->exit_probe))
                goto fail;
        }
        if (c->in[k].copy_probe) {  /* the length, the last argument */
            put1(&code, 0x59);      /* dup */
            if (ins_emit_invoke(c->w, &code, PR_COPY))
                goto fail;
        }
        uint16_t callk = 0;         /* the call site's Integer past 32767, for both probes */
        if (c->in[k].call_probe) {
            if ((cnot ? emit_not_id(c, &code, call, &callk) : emit_id_k(c, &code, call, &callk)))
                goto fail;
            if (c->cst)
                emit_const(&code, INS_CALL_CONST);
            if (ins_emit_invoke(c->w, &code, PR_CALL))
                goto fail;
        }
        emit_insn(c, &c->in[k], &code);
        if (c->in[k].call_probe) {  /* reached only when the call returned */
            if ((cnot ? emit_not_id(c, &code, call++, &callk) : emit_id_k(c, &code, call++, &callk)))
                goto fail;
            if (c->cst)
                emit_const(&code, segment_after(c, block - 1, &c->in[k]));
            if (ins_emit_invoke(c->w, &code, PR_RETURN))
                goto fail;
        }
        if (c->in[k].new_probe) {   /* reached only when new allocated */
            uint16_t newk = 0;      /* its site's Integer of ~site past 32767 */
            if ((cnot ? emit_not_id(c, &code, call++, &newk) : emit_id(c, &code, call++)))
                goto fail;
            if (c->cst)
                emit_const(&code, ~segment_after(c, block - 1, &c->in[k]) & 0xffffu);  /* negative: see instrument.h */
            if (ins_emit_invoke(c->w, &code, PR_NEW))
                goto fail;
        }
        if (c->in[k].copy_probe) {  /* reached only when the copy returned */
            if (ins_emit_invoke(c->w, &code, PR_COPIED))
                goto fail;
        }
        if (c->in[k].array_probe) {
            if (emit_array_probe(c, &code, c->in[k].dims, site))
                goto fail;
            site += c->in[k].dims;
        }
        if (c->in[k].made_probe) {  /* the new array the call returned, (levels,) its site */
            int levels = c->in[k].made_probe == INS_MAKES_LEVELS;
            put1(&code, 0x59);      /* dup */
            if (levels)
                put1(&code, 0x04);  /* iconst_1: walk the levels */
            if (emit_id(c, &code, site++) || ins_emit_invoke(c->w, &code, levels ? PR_MADE_LEVELS : PR_MADE))
                goto fail;
        }
    }
    *out = code;
    if (out->oom || out->len - code_at != c->new_len) {
        errmsg_set(c->w->err, c->w->errlen, out->oom ? "out of memory for rewritten code"
                   : "internal error: laid out %u bytes of code, emitted %zu", c->new_len, out->len - code_at);
        return -1;
    }
    ins_tables_emit(c, out);
    if (out->oom) {
        errmsg_set(c->w->err, c->w->errlen, "out of memory for a rewritten Code attribute");
        return -1;
    }
    be_put_u32(out->p + head + 2, (uint32_t)(out->len - head - 6));
    return 0;
fail:
    *out = code;
    return -1;
}
