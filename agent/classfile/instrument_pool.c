/*
 * instrument_pool.c - the constant-pool entries a rewritten class's probes
 * need, appended after the input's pool at their first use: the probe
 * class, each probe method's name, descriptor, NameAndType and Methodref
 * (probe_ref), the Integers of ids past 32767 (ins_cp_add); and which calls
 * the rewriter recognizes by their Methodref (System.arraycopy, the
 * natives that return a new array). Part of the rewriter (instrument.c);
 * pure C.
 */
#include "instrument_impl.h"

/* Append a constant-pool entry (tag, body); its index, or 0 when the pool is
 * full (an error). */
uint16_t ins_cp_add(rewriter *w, uint8_t tag, const uint8_t *body, size_t n)
{
    if (w->cp_count >= 65535) {
        errmsg_set(w->err, w->errlen, "the constant pool would pass 65535 entries with the probes' constants");
        return 0;
    }
    put1(&w->cp, tag);
    put(&w->cp, body, n);
    return (uint16_t)w->cp_count++;
}

static const char *probe_name(const rewriter *w, int k);
static const char *probe_desc(const rewriter *w, int k);

static void name_add(rewriter *w, const char *s)
{
    for (unsigned k = 0; k < w->nnames; k++)
        if (strcmp(w->names[k], s) == 0)
            return;
    w->names[w->nnames++] = s;
}

/* Every name and descriptor a probe may need, each with an equal Utf8 of
 * the input's pool where there is one: one pass over the pool (a search
 * per name was a fifth of the rewriter's time). */
_Static_assert(MAX_UTF8 <= 64, "names_init's masks hold a bit a name");

static void names_init(rewriter *w)
{
    name_add(w, w->opt->probe_class);
    name_add(w, "java/lang/Object");
    for (int k = 0; k < PR_COUNT; k++)
        if (probe_name(w, k) != NULL) {
            name_add(w, probe_name(w, k));
            name_add(w, probe_desc(w, k));
        }
    /* the names by their length (modulo 64): an entry is compared with
     * the few names of its length only */
    size_t len[MAX_UTF8];
    uint64_t by_len[64] = {0};
    for (unsigned k = 0; k < w->nnames; k++) {
        len[k] = strlen(w->names[k]);
        by_len[len[k] % 64] |= (uint64_t)1 << k;
    }
    const cpool *cp = &w->cf->cp;
    for (uint16_t i = 1; i < cp->count; i++) {
        cp_str u;
        if (cp_utf8_slot(cp, i, &u) != 0)
            continue;
        for (uint64_t m = by_len[u.len % 64]; m != 0; m &= m - 1) {
            unsigned k = 0;
            while (!(m >> k & 1))
                k++;
            if (w->name_at[k] == 0 && u.len == len[k] && memcmp(u.ptr, w->names[k], u.len) == 0)
                w->name_at[k] = i;
        }
    }
}

/*
 * A Utf8 entry holding s, a probe's name or descriptor: one of the input's
 * own (a descriptor such as (I)V is often there already), else one added
 * before, else a new one. Every entry added costs start-up twice over: the
 * JVM retransforms the classes loaded before the agent's hook, and HotSpot
 * merges the old and the new pool by a linear search of the old pool for
 * each added entry. 0 with the error set when the pool is full.
 */
static uint16_t cp_utf8_ref(rewriter *w, const char *s)
{
    if (w->nnames == 0)
        names_init(w);
    unsigned k = 0;
    while (k < w->nnames && strcmp(w->names[k], s) != 0)
        k++;
    if (k == w->nnames) {
        errmsg_set(w->err, w->errlen, "internal error: %s is no probe's name", s);
        return 0;
    }
    if (w->name_at[k] != 0)
        return w->name_at[k];
    size_t n = strlen(s);
    if (n > 65535) {
        errmsg_set(w->err, w->errlen, "a probe name of %zu bytes does not fit a constant", n);
        return 0;
    }
    uint8_t len[2];
    be_put_u16(len, (uint16_t)n);
    uint16_t i = ins_cp_add(w, CP_UTF8, len, 2);
    if (i == 0)
        return 0;
    put(&w->cp, s, n);
    w->name_at[k] = i;
    return i;
}

static uint16_t cp_add_refs(rewriter *w, uint8_t tag, uint16_t a, uint16_t b, int two)
{
    if (a == 0 || (two && b == 0))
        return 0;
    uint8_t body[4];
    be_put_u16(body, a);
    be_put_u16(body + 2, b);
    return ins_cp_add(w, tag, body, two ? 4 : 2);
}

/* The name and descriptor of probe method k (PR_*): the name is the
 * option's, NULL when the option is not set. */
static const char *probe_name(const rewriter *w, int k)
{
    const ins_options *o = w->opt;
    switch (k) {
    case PR_BLOCK: return o->probe_method;
    case PR_ENTRY: return o->entry_method;
    case PR_EXIT: return o->exit_method;
    case PR_ROOT_ENTRY: return o->root_entry_method;
    case PR_ROOT_EXIT: return o->root_exit_method;
    case PR_OTHER_ENTRY: return o->other_entry_method;
    case PR_ENTRY_BLOCK: return o->other_entry_block_method;
    case PR_ARRAY: return o->array_method;
    case PR_COPY: case PR_COPIED: return o->copy_method;
    case PR_MADE: case PR_MADE_LEVELS: return o->made_method;
    case PR_CALL: return o->call_method;
    case PR_RETURN: return o->return_method;
    case PR_NEW: return o->new_method;
    case PR_FOLD: return o->fold_method;
    default: return o->branch_method;
    }
}

static const char *probe_desc(const rewriter *w, int k)
{
    switch (k) {
    case PR_BLOCK: case PR_ENTRY_BLOCK: case PR_CALL: case PR_RETURN: case PR_NEW:
        return w->opt->consts ? "(II)V" : "(I)V";
    case PR_FOLD: return "(III)V";
    case PR_BRANCH + BR_INT1: return "(III)V";
    case PR_BRANCH + BR_INT2: return "(IIII)V";
    case PR_BRANCH + BR_REF1: return "(Ljava/lang/Object;II)V";
    case PR_BRANCH + BR_REF2: return "(Ljava/lang/Object;Ljava/lang/Object;II)V";
    case PR_ARRAY: case PR_MADE_LEVELS: return "(Ljava/lang/Object;II)V";
    case PR_MADE: return "(Ljava/lang/Object;I)V";
    case PR_COPIED: return "()V";
    default: return "(I)V";
    }
}

/* The Methodref of probe method k (PR_*), added at its first use: the
 * probe class (Utf8 name and Class, the first time), Utf8 name and
 * descriptor (see cp_utf8_ref), NameAndType, Methodref. 0 with the error
 * set when the pool is full. */
static uint16_t probe_ref(rewriter *w, int k)
{
    if (w->refs[k] != 0)
        return w->refs[k];
    if (probe_name(w, k) == NULL) {
        errmsg_set(w->err, w->errlen, "internal error: probe %d used without its option", k);
        return 0;
    }
    /* two probes of one name and descriptor are one method: one Methodref */
    for (int j = 0; j < PR_COUNT; j++)
        if (w->refs[j] != 0 && probe_name(w, j) != NULL && strcmp(probe_name(w, j), probe_name(w, k)) == 0 &&
            strcmp(probe_desc(w, j), probe_desc(w, k)) == 0)
            return w->refs[k] = w->refs[j];
    if (w->probe_cls == 0)
        w->probe_cls = cp_add_refs(w, CP_CLASS, cp_utf8_ref(w, w->opt->probe_class), 0, 0);
    uint16_t name = cp_utf8_ref(w, probe_name(w, k));
    uint16_t desc = name != 0 ? cp_utf8_ref(w, probe_desc(w, k)) : 0;
    uint16_t nat = cp_add_refs(w, CP_NAME_AND_TYPE, name, desc, 1);
    w->refs[k] = w->probe_cls != 0 ? cp_add_refs(w, CP_METHODREF, w->probe_cls, nat, 1) : 0;
    return w->refs[k];
}

uint16_t ins_object_class(rewriter *w)
{
    if (w->object_cls != 0)
        return w->object_cls;
    const cpool *cp = &w->cf->cp;
    for (uint16_t i = 1; i < cp->count; i++) {
        cp_str name;
        if (cp_tag(cp, i) == CP_CLASS && cp_class_name(cp, i, &name) == 0 && str_is(name, "java/lang/Object"))
            return w->object_cls = i;
    }
    return w->object_cls = cp_add_refs(w, CP_CLASS, cp_utf8_ref(w, "java/lang/Object"), 0, 0);
}

/* invokestatic of probe method k; -1 when its Methodref cannot be added. */
int ins_emit_invoke(rewriter *w, buf *code, int k)
{
    uint16_t ref = probe_ref(w, k);
    if (ref == 0)
        return -1;
    put1(code, BC_INVOKESTATIC);
    put2(code, ref);
    return 0;
}

/* 1 when the instruction at code[pc] is invokestatic System.arraycopy. */
int ins_is_arraycopy(const rewriter *w, const uint8_t *code, uint32_t pc)
{
    cp_str owner, name, desc;
    return code[pc] == BC_INVOKESTATIC &&
           cp_member_ref(&w->cf->cp, be_u16(code + pc + 1), &owner, &name, &desc) == 0 &&
           str_is(owner, "java/lang/System") && str_is(name, "arraycopy") &&
           str_is(desc, "(Ljava/lang/Object;ILjava/lang/Object;II)V");
}

int ins_makes_array(const cpool *cp, const uint8_t *code, uint32_t pc)
{
    cp_str owner, name, desc;
    uint8_t op = code[pc];
    if ((op != BC_INVOKEVIRTUAL && op != BC_INVOKESTATIC) ||
        cp_member_ref(cp, be_u16(code + pc + 1), &owner, &name, &desc) != 0)
        return 0;
    if (op == BC_INVOKEVIRTUAL)
        return owner.len > 1 && owner.ptr[0] == '[' && str_is(name, "clone") && str_is(desc, "()Ljava/lang/Object;")
                   ? INS_MAKES_ONE
                   : 0;
    if (!str_is(owner, "java/lang/reflect/Array"))
        return 0;
    if (str_is(name, "newArray") && str_is(desc, "(Ljava/lang/Class;I)Ljava/lang/Object;"))
        return INS_MAKES_ONE;
    if (str_is(name, "multiNewArray") && str_is(desc, "(Ljava/lang/Class;[I)Ljava/lang/Object;"))
        return INS_MAKES_LEVELS;
    return 0;
}

int ins_icmp_as_if(const rewriter *w, uint8_t op)
{
    return w->opt->icmp_as_if && ins_branch_form(op) == BR_INT2;
}

int ins_null_as_int(const rewriter *w, uint8_t op)
{
    return w->opt->null_as_int && ins_branch_form(op) == BR_REF1;
}

int ins_branch_form(uint8_t op)
{
    if (op >= 0x99 && op <= 0x9e)
        return BR_INT1;
    if (op >= 0x9f && op <= 0xa4)
        return BR_INT2;
    if (op == 0xa5 || op == 0xa6)
        return BR_REF2;
    return BR_REF1;     /* ifnull, ifnonnull */
}
