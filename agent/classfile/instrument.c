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
 *  - StackMapTable frames are re-encoded with their new deltas: same and
 *    same_locals_1_stack_item frames take their extended forms when the delta
 *    passes 63; no frame is added or removed.
 *  - RuntimeVisibleTypeAnnotations and RuntimeInvisibleTypeAnnotations inside
 *    Code (type annotations on local variables, casts, ...) keep their size:
 *    a local variable's range is mapped as in LocalVariableTable (its probes
 *    taken in), an instruction's offset (instanceof, new, checkcast, an
 *    invoke, a method reference) to the instruction itself, as
 *    Uninitialized(offset) in a frame, never to a probe in front of it; an
 *    exception table index is unchanged. The JVM does not read these
 *    attributes, so one the rewriter cannot walk (a target that is not on
 *    code, an offset inside an instruction, element values nested deeper
 *    than TA_MAX_DEPTH) refuses the method instead of failing the class.
 */
#include "instrument.h"
#include "branchpred.h"
#include "bytecode.h"
#include "classfile.h"
#include "errmsg.h"

#include <stdlib.h>
#include <string.h>

#define NO_INSN UINT32_MAX
#define MAX_CODE 65535u
#define MAX_ID 0x7fffffffu

/* ---- a growable output buffer ------------------------------------------ */

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
    int oom;                    /* an allocation failed: contents are incomplete */
} buf;

static void put(buf *b, const void *src, size_t n)
{
    if (b->oom || n == 0)
        return;
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap - b->len < n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

/* put1 and put2 write in place when the buffer has room: the rewriter
 * emits code a byte or two at a time, for every method of every class the
 * JVM loads, and a call to put (and memcpy) per byte was a visible part of
 * an engine=fast run's start. */
static void put1(buf *b, unsigned v)
{
    if (b->len < b->cap && !b->oom) {
        b->p[b->len++] = (uint8_t)v;
        return;
    }
    uint8_t x = (uint8_t)v;
    put(b, &x, 1);
}

static void put2(buf *b, unsigned v)
{
    if (b->cap - b->len >= 2 && !b->oom) {
        b->p[b->len++] = (uint8_t)(v >> 8);
        b->p[b->len++] = (uint8_t)v;
        return;
    }
    uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 2);
}

static void put4(buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 4);
}

static uint16_t rd2(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd4(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int32_t s4(const uint8_t *p)
{
    uint32_t v = rd4(p);
    return v <= INT32_MAX ? (int32_t)v : -(int32_t)(~v) - 1;
}

static int16_t s2(const uint8_t *p)
{
    uint16_t v = rd2(p);
    return v <= INT16_MAX ? (int16_t)v : (int16_t)(-(int32_t)(uint16_t)~v - 1);
}

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

static int str_is(cp_str s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.ptr, lit, n) == 0;
}

/* ---- the rewriter's state ---------------------------------------------- */

/* Which branch probe a conditional branch takes: PR_BRANCH + this. */
enum { BR_INT1, BR_INT2, BR_REF1, BR_REF2 };

/* The probe methods a rewritten class may call, each a Methodref of the
 * probe class added to the pool at its first use (rewriter.refs). */
enum {
    PR_BLOCK, PR_ENTRY, PR_EXIT, PR_ROOT_ENTRY, PR_ROOT_EXIT, PR_OTHER_ENTRY, PR_ENTRY_BLOCK,
    PR_BRANCH,                  /* four of them, by branch_form (BR_*) */
    PR_ARRAY = PR_BRANCH + 4, PR_COPY, PR_COPIED, PR_MADE, PR_MADE_LEVELS, PR_CALL, PR_RETURN, PR_NEW,
    PR_FOLD,
    PR_COUNT
};

/* At most this many Utf8 entries a probe may need: the probe class's name
 * and each probe method's name and descriptor. */
#define MAX_UTF8 (1 + 2 * PR_COUNT)

typedef struct rewriter {
    const uint8_t *in;          /* the input class file */
    const classfile *cf;
    const ins_options *opt;
    buf cp;                     /* constant-pool entries appended after the input's */
    uint32_t cp_count;          /* constant_pool_count with them */
    uint16_t refs[PR_COUNT];    /* the probe methods' Methodrefs (PR_*), 0 until first used */
    uint16_t probe_cls;         /* the probe class's Class entry, 0 until first used */
    const char *names[MAX_UTF8]; /* every name and descriptor a probe may need (set at the first need) */
    uint16_t name_at[MAX_UTF8];  /* and its Utf8 entry: the input's own, or one added; 0 until either */
    unsigned nnames;            /* 0 until the first need */
    uint32_t next_id;
    uint32_t next_site;         /* the next array site */
    uint32_t next_call;         /* the next call site */
    char *err;
    size_t errlen;
} rewriter;

/* Append a constant-pool entry (tag, body); its index, or 0 when the pool is
 * full (an error). */
static uint16_t cp_add(rewriter *w, uint8_t tag, const uint8_t *body, size_t n)
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
static void names_init(rewriter *w)
{
    name_add(w, w->opt->probe_class);
    for (int k = 0; k < PR_COUNT; k++)
        if (probe_name(w, k) != NULL) {
            name_add(w, probe_name(w, k));
            name_add(w, probe_desc(w, k));
        }
    size_t len[MAX_UTF8];
    for (unsigned k = 0; k < w->nnames; k++)
        len[k] = strlen(w->names[k]);
    const cpool *cp = &w->cf->cp;
    for (uint16_t i = 1; i < cp->count; i++) {
        cp_str u;
        if (cp_utf8(cp, i, &u) != 0)
            continue;
        for (unsigned k = 0; k < w->nnames; k++)
            if (w->name_at[k] == 0 && u.len == len[k] && memcmp(u.ptr, w->names[k], u.len) == 0)
                w->name_at[k] = i;
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
    uint8_t len[2] = {(uint8_t)(n >> 8), (uint8_t)n};
    if (n > 65535) {
        errmsg_set(w->err, w->errlen, "a probe name of %zu bytes does not fit a constant", n);
        return 0;
    }
    uint16_t i = cp_add(w, CP_UTF8, len, 2);
    if (i == 0)
        return 0;
    put(&w->cp, s, n);
    w->name_at[k] = i;
    return i;
}

static uint16_t cp_add_refs(rewriter *w, uint8_t tag, uint16_t a, uint16_t b, int two)
{
    uint8_t body[4] = {(uint8_t)(a >> 8), (uint8_t)a, (uint8_t)(b >> 8), (uint8_t)b};
    if (a == 0 || (two && b == 0))
        return 0;
    return cp_add(w, tag, body, two ? 4 : 2);
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

/* invokestatic of probe method k; -1 when its Methodref cannot be added. */
static int emit_invoke(rewriter *w, buf *code, int k)
{
    uint16_t ref = probe_ref(w, k);
    if (ref == 0)
        return -1;
    put1(code, BC_INVOKESTATIC);
    put2(code, ref);
    return 0;
}

/* 1 when the instruction at code[pc] is invokestatic System.arraycopy. */
static int is_arraycopy(const rewriter *w, const uint8_t *code, uint32_t pc)
{
    cp_str owner, name, desc;
    return code[pc] == BC_INVOKESTATIC &&
           cp_member_ref(&w->cf->cp, (uint16_t)(code[pc + 1] << 8 | code[pc + 2]), &owner, &name, &desc) == 0 &&
           str_is(owner, "java/lang/System") && str_is(name, "arraycopy") &&
           str_is(desc, "(Ljava/lang/Object;ILjava/lang/Object;II)V");
}

int ins_makes_array(const cpool *cp, const uint8_t *code, uint32_t pc)
{
    cp_str owner, name, desc;
    uint8_t op = code[pc];
    if ((op != BC_INVOKEVIRTUAL && op != BC_INVOKESTATIC) ||
        cp_member_ref(cp, (uint16_t)(code[pc + 1] << 8 | code[pc + 2]), &owner, &name, &desc) != 0)
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

static int branch_form(uint8_t op)
{
    if (op >= 0x99 && op <= 0x9e)
        return BR_INT1;
    if (op >= 0x9f && op <= 0xa4)
        return BR_INT2;
    if (op == 0xa5 || op == 0xa6)
        return BR_REF2;
    return BR_REF1;     /* ifnull, ifnonnull */
}

/* ---- one method --------------------------------------------------------- */

enum { K_PLAIN, K_BR16, K_BR32, K_SWITCH };

typedef struct insn {
    uint32_t old;               /* offset in the original code */
    uint32_t len;               /* original length */
    uint32_t start;             /* new offset of what runs first for it: its probes, if any */
    uint32_t target;            /* new offset a jump to it lands on: start, but after the entry probe */
    uint32_t nw;                /* new offset of the instruction itself */
    uint8_t kind;               /* K_* */
    uint8_t wide;               /* K_BR16 widened */
    uint8_t leader;
    uint8_t branch_probe;       /* a conditional branch preceded by a branch probe */
    uint8_t exit_probe;         /* a return preceded by an exit probe */
    uint8_t array_probe;        /* an array instruction followed by an array probe */
    uint8_t dims;               /* its array sites: the levels it allocates (1, or multianewarray's) */
    uint8_t copy_probe;         /* System.arraycopy between its two copy probes */
    uint8_t made_probe;         /* a native that returns a new array, followed by the made probe:
                                   INS_MAKES_ONE or INS_MAKES_LEVELS */
    uint8_t call_probe;         /* an invoke between a call and a return probe */
    uint8_t new_probe;          /* a new followed by the new probe */
    uint8_t fold;               /* a leader whose probe is the fold probe, with fold_arg */
    uint16_t fold_arg;          /* INS_FOLD_PACK of the branch outcome that leads to it */
} insn;

typedef struct method_ctx {
    rewriter *w;
    const cf_method *m;
    ins_method *im;
    insn *in;                   /* instructions in code order */
    uint32_t n;
    uint32_t *at;               /* at[old offset]: index in `in`, NO_INSN inside an instruction */
    uint32_t new_len;
    const uint8_t *smt;         /* the StackMapTable attribute's body, or NULL */
    uint32_t smt_len;
    uint8_t *frame_at;          /* frame_at[old offset]: 1 when a stack map frame is there */
    int entry, exit;            /* this method gets the entry probe, exit probes (ins_options.calls_filter) */
    int merged;                 /* its entry probe is the merged one: block 0 has no probe of its own */
    uint32_t sites;             /* array sites of its array instructions */
    uint32_t calls;             /* call sites: its invokes but invokedynamic, with call probes */
    int entry_probe, exit_probe; /* which probes they are (PR_*): the entry/exit or the root pair */
    unsigned cst;               /* INS_CONST_LEN with options.consts, else 0 */
} method_ctx;

/* Where the code for original offset `old` begins in the new code: its entry
 * probe (offset 0), else its block probe, else its branch probe, else the
 * instruction (the code's end for old == code_len). For ranges: exception
 * ranges, line numbers, local variables. */
static uint32_t map_start(const method_ctx *c, uint32_t old)
{
    return old == c->m->code_len ? c->new_len : c->in[c->at[old]].start;
}

/* Where a jump to original offset `old` lands: as map_start, but past the
 * entry probe, which only a call runs. For branch, switch and handler
 * targets and stack map frames. */
static uint32_t map_target(const method_ctx *c, uint32_t old)
{
    return c->in[c->at[old]].target;
}

/* 1 when original offset `off` starts an instruction. */
static int is_insn(const method_ctx *c, uint32_t off)
{
    return off < c->m->code_len && c->at[off] != NO_INSN;
}

/* Where the instruction at original offset `old` itself lands, past every
 * probe in front of it. For offsets that name an instruction, not a place
 * to run from: Uninitialized(offset) in a frame, type annotations. */
static uint32_t map_insn(const method_ctx *c, uint32_t old)
{
    return c->in[c->at[old]].nw;
}

static int is_cond(uint8_t op)
{
    return (op >= 0x99 && op <= 0xa6) || op == 0xc6 || op == 0xc7;
}

/* if<cond> with the opposite condition. */
static uint8_t invert(uint8_t op)
{
    if (op == 0xc6 || op == 0xc7)
        return op ^ 1;
    return (uint8_t)(((op - 0x99) ^ 1) + 0x99);
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
__attribute__((format(printf, 3, 4)))
static int refuse(method_ctx *c, int status, const char *fmt, ...)
{
    c->im->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->im->why, sizeof c->im->why, fmt, ap);
    va_end(ap);
    return 1;
}

/* Walk one verification_type_info at p (end: the frame's limit); with out,
 * copy it, mapping an Uninitialized offset. Returns its size, 0 when
 * malformed. */
static size_t vti(const method_ctx *c, const uint8_t *p, const uint8_t *end, buf *out)
{
    if (p >= end)
        return 0;
    uint8_t tag = p[0];
    if (tag <= 6) {
        if (out)
            put1(out, tag);
        return 1;
    }
    if (tag > 8 || end - p < 3)
        return 0;
    uint16_t v = rd2(p + 1);
    if (tag == 8) { /* Uninitialized(offset of the new instruction) */
        if (!is_insn(c, v) || c->m->code[v] != BC_NEW)
            return 0;
        v = (uint16_t)map_insn(c, v);
    }
    if (out) {
        put1(out, tag);
        put2(out, v);
    }
    return 3;
}

/* Walk n verification_type_infos. */
static size_t vtis(const method_ctx *c, const uint8_t *p, const uint8_t *end, uint32_t n, buf *out)
{
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++) {
        size_t s = vti(c, p + total, end, out);
        if (s == 0)
            return 0;
        total += s;
    }
    return total;
}

/*
 * Walk the StackMapTable. Without out: check it (every frame on an
 * instruction start, every type well formed, the body used exactly) and fill
 * c->frame_at. With out: emit it with the new deltas. Returns -1 with a
 * message when malformed.
 */
static int smt_walk(method_ctx *c, buf *out)
{
    const uint8_t *p = c->smt, *end = c->smt + c->smt_len;
    if (c->smt_len < 2)
        goto bad;
    uint32_t n = rd2(p);
    p += 2;
    if (out)
        put2(out, n);
    int64_t old = -1;           /* offset of the previous frame */
    int64_t prev_new = -1;
    for (uint32_t k = 0; k < n; k++) {
        if (p >= end)
            goto bad;
        uint8_t type = *p++;
        uint32_t delta;
        if (type <= 127) {
            delta = type <= 63 ? type : (uint32_t)type - 64;
        } else if (type >= 247) {
            if (end - p < 2)
                goto bad;
            delta = rd2(p);
            p += 2;
        } else {
            goto bad;   /* 128-246 are reserved */
        }
        old = old + 1 + delta;
        if (!is_insn(c, old))
            goto bad;
        if (!out)
            c->frame_at[old] = 1;
        uint32_t at_new = map_target(c, (uint32_t)old);
        uint32_t d = (uint32_t)(at_new - prev_new - 1);
        prev_new = at_new;
        /* the frame's types: how many, and where */
        size_t used;
        if (type <= 63 || type == 251) {
            if (out) {
                if (d <= 63 && type <= 63)
                    put1(out, d);
                else {
                    put1(out, 251);
                    put2(out, d);
                }
            }
            used = 0;
        } else if (type <= 127 || type == 247) {
            if (out) {
                if (d <= 63 && type <= 127)
                    put1(out, 64 + d);
                else {
                    put1(out, 247);
                    put2(out, d);
                }
            }
            used = vti(c, p, end, out);
            if (used == 0)
                goto bad;
        } else if (type <= 250) { /* chop */
            if (out) {
                put1(out, type);
                put2(out, d);
            }
            used = 0;
        } else if (type <= 254) { /* append */
            if (out) {
                put1(out, type);
                put2(out, d);
            }
            used = vtis(c, p, end, type - 251u, out);
            if (used == 0)
                goto bad;
        } else { /* full_frame */
            if (end - p < 2)
                goto bad;
            uint32_t nl = rd2(p);
            if (out) {
                put1(out, type);
                put2(out, d);
                put2(out, nl);
            }
            size_t a = vtis(c, p + 2, end, nl, out);
            if (nl != 0 && a == 0)
                goto bad;
            const uint8_t *q = p + 2 + a;
            if (end - q < 2)
                goto bad;
            uint32_t ns = rd2(q);
            if (out)
                put2(out, ns);
            size_t b = vtis(c, q + 2, end, ns, out);
            if (ns != 0 && b == 0)
                goto bad;
            used = 2 + a + 2 + b;
        }
        p += used;
    }
    if (p != end)
        goto bad;
    return 0;
bad:
    errmsg_set(c->w->err, c->w->errlen, "method %.*s%.*s: malformed StackMapTable",
               (int)c->im->name.len, c->im->name.ptr, (int)c->im->desc.len, c->im->desc.ptr);
    return -1;
}

/* Check an offset table attribute (LineNumberTable: entry 4 bytes, no
 * length; local variable tables: 10 bytes with a length). -1 if malformed. */
static int table_check(const method_ctx *c, const uint8_t *body, uint32_t len, int with_length)
{
    uint32_t esize = with_length ? 10 : 4;
    if (len < 2 || len != 2 + (uint32_t)rd2(body) * esize)
        return -1;
    for (uint32_t k = 0; k < rd2(body); k++) {
        const uint8_t *e = body + 2 + k * esize;
        uint32_t start = rd2(e);
        if (!is_insn(c, start))
            return -1;
        if (with_length) {
            uint32_t end = start + rd2(e + 2);
            if (end != c->m->code_len && !is_insn(c, end))
                return -1;
        }
    }
    return 0;
}

static void table_emit(const method_ctx *c, const uint8_t *body, int with_length, buf *out)
{
    uint32_t esize = with_length ? 10 : 4, n = rd2(body);
    put2(out, n);
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *e = body + 2 + k * esize;
        uint32_t start = rd2(e), ns = map_start(c, start);
        put2(out, ns);
        if (with_length) {
            put2(out, map_start(c, start + rd2(e + 2)) - ns);
            put(out, e + 4, 6);
        } else {
            put(out, e + 2, 2);
        }
    }
}

/* ---- type annotations on code (JVMS 4.7.20) ----------------------------- */

/* Element values nested deeper than this (an array in an array, an
 * annotation in an annotation) refuse the method: the walk recurses, and an
 * attribute from an untrusted class could nest a million levels. javac
 * nests as deep as the source does. */
#define TA_MAX_DEPTH 64

static int ev_walk(const uint8_t **pp, const uint8_t *end, unsigned depth);

/* Walk an annotation at *pp (type_index, its element_value_pairs) and move
 * *pp past it; -1 when it does not fit in end. */
static int ann_walk(const uint8_t **pp, const uint8_t *end, unsigned depth)
{
    const uint8_t *p = *pp;
    if (end - p < 4)
        return -1;
    uint32_t npairs = rd2(p + 2);
    p += 4;
    for (uint32_t k = 0; k < npairs; k++) {
        if (end - p < 2)
            return -1;
        p += 2;     /* element_name_index */
        if (ev_walk(&p, end, depth))
            return -1;
    }
    *pp = p;
    return 0;
}

/* Walk an element_value at *pp and move *pp past it. */
static int ev_walk(const uint8_t **pp, const uint8_t *end, unsigned depth)
{
    const uint8_t *p = *pp;
    if (depth >= TA_MAX_DEPTH || p >= end)
        return -1;
    uint8_t tag = *p++;
    switch (tag) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': case 's': case 'c':
        if (end - p < 2)
            return -1;
        p += 2;
        break;
    case 'e':
        if (end - p < 4)
            return -1;
        p += 4;
        break;
    case '@':
        if (ann_walk(&p, end, depth + 1))
            return -1;
        break;
    case '[': {
        if (end - p < 2)
            return -1;
        uint32_t n = rd2(p);
        p += 2;
        for (uint32_t k = 0; k < n; k++)
            if (ev_walk(&p, end, depth + 1))
                return -1;
        break;
    }
    default:
        return -1;
    }
    *pp = p;
    return 0;
}

static void wr2(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/*
 * Walk a Runtime(In)visibleTypeAnnotations attribute of Code. Without
 * patch: check that it is a list of type annotations on code whose offsets
 * start instructions and whose ranges end on one (or at the code's end).
 * With patch (a copy of body, after layout): write the new offsets into the
 * copy; sizes do not change. 0, or -1 when it cannot be walked.
 */
static int ta_walk(const method_ctx *c, const uint8_t *body, uint32_t len, uint8_t *patch)
{
    const uint8_t *p = body, *end = body + len;
    if (len < 2)
        return -1;
    uint32_t n = rd2(p);
    p += 2;
    for (uint32_t k = 0; k < n; k++) {
        if (p >= end)
            return -1;
        uint8_t target = *p++;
        if (target == 0x40 || target == 0x41) {    /* localvar_target: start_pc, length, index */
            if (end - p < 2)
                return -1;
            uint32_t m = rd2(p);
            p += 2;
            if ((size_t)(end - p) < 6u * m)
                return -1;
            for (uint32_t j = 0; j < m; j++, p += 6) {
                uint32_t start = rd2(p), stop = start + rd2(p + 2);
                if (!is_insn(c, start) || (stop != c->m->code_len && !is_insn(c, stop)))
                    return -1;
                if (patch) {
                    uint32_t ns = map_start(c, start);
                    wr2(patch + (p - body), ns);
                    wr2(patch + (p - body) + 2, map_start(c, stop) - ns);
                }
            }
        } else if (target == 0x42) {                /* catch_target: an exception table index */
            if (end - p < 2)
                return -1;
            p += 2;
        } else if (target >= 0x43 && target <= 0x4b) {  /* offset_target, type_argument_target */
            uint32_t size = target <= 0x46 ? 2 : 3;
            if ((uint32_t)(end - p) < size || !is_insn(c, rd2(p)))
                return -1;
            if (patch)
                wr2(patch + (p - body), map_insn(c, rd2(p)));
            p += size;
        } else {
            return -1;  /* a target on a class, a field or a method's signature */
        }
        if (p >= end || (uint32_t)(end - p - 1) < 2u * p[0])   /* type_path */
            return -1;
        p += 1 + 2u * p[0];
        if (ann_walk(&p, end, 0))
            return -1;
    }
    return p == end ? 0 : -1;
}

static int is_type_annotations(cp_str name)
{
    return str_is(name, "RuntimeVisibleTypeAnnotations") || str_is(name, "RuntimeInvisibleTypeAnnotations");
}

/* Check the Code attribute's own attributes: 0 when all are known and well
 * formed, 1 when the method must be refused, -1 when malformed. Finds the
 * StackMapTable. */
static int attrs_check(method_ctx *c)
{
    const uint8_t *p = c->m->code_attrs;
    for (uint32_t k = 0; k < c->m->code_attr_count; k++) {
        cp_str name;
        /* cf_parse has checked the sizes and the name index */
        if (cp_utf8(&c->w->cf->cp, rd2(p), &name))
            return -1;
        uint32_t len = rd4(p + 2);
        const uint8_t *body = p + 6;
        int bad = 0;
        if (str_is(name, "StackMapTable")) {
            if (c->smt != NULL)
                bad = 1;
            c->smt = body;
            c->smt_len = len;
        } else if (str_is(name, "LineNumberTable")) {
            bad = table_check(c, body, len, 0);
        } else if (str_is(name, "LocalVariableTable") || str_is(name, "LocalVariableTypeTable")) {
            bad = table_check(c, body, len, 1);
        } else if (is_type_annotations(name)) {
            if (ta_walk(c, body, len, NULL))
                return refuse(c, INS_METHOD_REFUSED, "its Code attribute %.*s is not a list of type "
                              "annotations on code the rewriter can relocate", (int)name.len, name.ptr);
        } else {
            return refuse(c, INS_METHOD_REFUSED, "its Code attribute %.*s holds code offsets the "
                          "rewriter does not relocate", (int)name.len, name.ptr);
        }
        if (bad) {
            errmsg_set(c->w->err, c->w->errlen, "method %.*s%.*s: malformed %.*s attribute",
                       (int)c->im->name.len, c->im->name.ptr, (int)c->im->desc.len, c->im->desc.ptr,
                       (int)name.len, name.ptr);
            return -1;
        }
        p += 6 + len;
    }
    if (c->smt != NULL && smt_walk(c, NULL))
        return -1;
    return 0;
}

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
            uint8_t v[4] = {(uint8_t)(id >> 24), (uint8_t)(id >> 16), (uint8_t)(id >> 8), (uint8_t)id};
            e = cp_add(c->w, CP_INTEGER, v, 4);
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

/* Push a probe's constant (below 32768): sipush. */
static void emit_const(buf *code, unsigned v)
{
    put1(code, 0x11);   /* sipush */
    put2(code, v);
}

/* Block b's lengths for its probe's constant (options.consts): 0 when a
 * length does not fit, and the probe reads the agent's table. */
static unsigned block_lengths(const method_ctx *c, uint32_t b)
{
    const blk_table *t = &c->im->blocks;
    int alloc;
    uint32_t seg = blk_segment(t, c->m->code, b, t->blocks[b].start, &alloc);
    uint32_t len = t->blocks[b].ninsns;
    return len <= INS_LEN_MAX && seg <= INS_LEN_MAX ? INS_LEN_PACK(len, seg, alloc) : 0;
}

/* The segment after instruction i, for its return or new probe's constant:
 * 0 when its length does not fit. */
static unsigned segment_after(const method_ctx *c, const insn *i)
{
    const blk_table *t = &c->im->blocks;
    int32_t b = blk_find(t, i->old);
    int alloc;
    uint32_t n = blk_segment(t, c->m->code, (uint32_t)b, i->old + i->len, &alloc);
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
    return emit_invoke(c->w, code, i->fold ? PR_FOLD : PR_BLOCK);
}

/* Emit the branch probe before the conditional branch `op` that ends block id. */
static int emit_branch_probe(method_ctx *c, buf *code, uint8_t op, uint32_t id)
{
    int form = branch_form(op);
    put1(code, form == BR_INT2 || form == BR_REF2 ? 0x5c : 0x59);   /* dup2 : dup */
    put1(code, 0x10);                                               /* bipush */
    put1(code, op);
    return emit_id(c, code, id) || emit_invoke(c->w, code, PR_BRANCH + form) ? -1 : 0;
}

/* Emit the array probe after an array instruction: the new array, its
 * levels and its first site. */
static int emit_array_probe(method_ctx *c, buf *code, uint8_t dims, uint32_t site)
{
    put1(code, 0x59);   /* dup */
    put1(code, 0x10);   /* bipush: sign-extends, the probe reads dims & 0xff */
    put1(code, dims);
    return emit_id(c, code, site) || emit_invoke(c->w, code, PR_ARRAY) ? -1 : 0;
}

static void emit_insn(method_ctx *c, const insn *i, buf *out)
{
    const uint8_t *code = c->m->code;
    const uint8_t *p = code + i->old;
    uint8_t op = p[0];
    if (i->kind == K_PLAIN) {
        put(out, p, i->len);
    } else if (i->kind == K_BR16 || i->kind == K_BR32) {
        int64_t target = (int64_t)i->old + (i->kind == K_BR16 ? s2(p + 1) : s4(p + 1));
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
#define REL(q) put4(out, (uint32_t)((int64_t)map_target(c, (uint32_t)((int64_t)i->old + s4(q))) - i->nw))
        REL(ops);
        if (op == BC_TABLESWITCH) {
            put(out, ops + 4, 8);
            int64_t n = (int64_t)s4(ops + 8) - s4(ops + 4) + 1;
            for (int64_t k = 0; k < n; k++)
                REL(ops + 12 + 4 * k);
        } else {
            put(out, ops + 4, 4);
            int64_t n = s4(ops + 4);
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
 * four above the operands it duplicates; an array probe three above the
 * array (whose instruction took at least one operand). */
static unsigned stack_growth(const rewriter *w)
{
    const ins_options *o = w->opt;
    if (o->branch_method != NULL || o->array_method != NULL || o->copy_method != NULL || o->made_method != NULL)
        return 4;
    return o->consts ? 2 : 1;   /* fold probes need branch_method */
}

/* Emit the whole new Code attribute into out. */
static int emit_code_attr(method_ctx *c, buf *out)
{
    const cf_method *m = c->m;
    buf code = {0};
    uint32_t block = 0, site = c->im->first_site, call = c->im->first_call;
    for (uint32_t k = 0; k < c->n; k++) {
        if (k == 0 && c->entry) {   /* the entry probe: id of block 0 (and its lengths when merged) */
            if (emit_id(c, &code, c->im->first_id))
                goto fail;
            if (c->merged && c->cst)
                emit_const(&code, ~block_lengths(c, 0) & 0xffffu);    /* negative: see instrument.h */
            if (emit_invoke(c->w, &code, c->merged ? PR_ENTRY_BLOCK : c->entry_probe))
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
            if (emit_id(c, &code, c->im->first_id) || emit_invoke(c->w, &code, c->exit_probe))
                goto fail;
        }
        if (c->in[k].copy_probe) {  /* the length, the last argument */
            put1(&code, 0x59);      /* dup */
            if (emit_invoke(c->w, &code, PR_COPY))
                goto fail;
        }
        uint16_t callk = 0;         /* the call site's Integer past 32767, for both probes */
        if (c->in[k].call_probe) {
            if (emit_id_k(c, &code, call, &callk))
                goto fail;
            if (c->cst)
                emit_const(&code, INS_CALL_CONST);
            if (emit_invoke(c->w, &code, PR_CALL))
                goto fail;
        }
        emit_insn(c, &c->in[k], &code);
        if (c->in[k].call_probe) {  /* reached only when the call returned */
            if (emit_id_k(c, &code, call++, &callk))
                goto fail;
            if (c->cst)
                emit_const(&code, segment_after(c, &c->in[k]));
            if (emit_invoke(c->w, &code, PR_RETURN))
                goto fail;
        }
        if (c->in[k].new_probe) {   /* reached only when new allocated */
            if (emit_id(c, &code, call++))
                goto fail;
            if (c->cst)
                emit_const(&code, ~segment_after(c, &c->in[k]) & 0xffffu);  /* negative: see instrument.h */
            if (emit_invoke(c->w, &code, PR_NEW))
                goto fail;
        }
        if (c->in[k].copy_probe) {  /* reached only when the copy returned */
            if (emit_invoke(c->w, &code, PR_COPIED))
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
            if (emit_id(c, &code, site++) || emit_invoke(c->w, &code, levels ? PR_MADE_LEVELS : PR_MADE))
                goto fail;
        }
    }
    if (code.oom || code.len != c->new_len) {
        errmsg_set(c->w->err, c->w->errlen, code.oom ? "out of memory for rewritten code"
                   : "internal error: laid out %u bytes of code, emitted %zu", c->new_len, code.len);
        goto fail;
    }
    buf body = {0};
    put2(&body, (unsigned)m->max_stack + stack_growth(c->w));
    put2(&body, m->max_locals);
    put4(&body, c->new_len);
    put(&body, code.p, code.len);
    put2(&body, m->exc_count);
    for (uint32_t k = 0; k < m->exc_count; k++) {
        const uint8_t *e = m->exc + 8 * k;
        put2(&body, map_start(c, rd2(e)));
        put2(&body, map_start(c, rd2(e + 2)));
        put2(&body, map_target(c, rd2(e + 4)));
        put(&body, e + 6, 2);
    }
    put2(&body, m->code_attr_count);
    const uint8_t *p = m->code_attrs;
    for (uint32_t k = 0; k < m->code_attr_count; k++) {
        cp_str name;
        cp_utf8(&c->w->cf->cp, rd2(p), &name);
        uint32_t len = rd4(p + 2);
        buf a = {0};
        if (str_is(name, "StackMapTable")) {
            smt_walk(c, &a);    /* checked before: cannot fail */
        } else if (is_type_annotations(name)) {
            put(&a, p + 6, len);
            if (!a.oom)
                ta_walk(c, p + 6, len, a.p);    /* checked before: cannot fail */
        } else {
            table_emit(c, p + 6, !str_is(name, "LineNumberTable"), &a);
        }
        put(&body, p, 2);
        put4(&body, (uint32_t)a.len);
        put(&body, a.p, a.len);
        body.oom |= a.oom;
        free(a.p);
        p += 6 + len;
    }
    free(code.p);
    if (body.oom) {
        free(body.p);
        errmsg_set(c->w->err, c->w->errlen, "out of memory for a rewritten Code attribute");
        return -1;
    }
    put(out, c->w->in + m->code_attr_off, 2);  /* attribute_name_index: "Code" */
    put4(out, (uint32_t)body.len);
    put(out, body.p, body.len);
    free(body.p);
    return 0;
fail:
    free(code.p);
    return -1;
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
