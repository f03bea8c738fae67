/*
 * instrument_impl.h - what the files of the class-file rewriter share and
 * no other file reads: instrument.c (the layout, refusals, the map back),
 * instrument_rewrite.c (each method's probes, the entry points),
 * instrument_pool.c (the probes' constant-pool entries), instrument_emit.c
 * (the new code) and instrument_tables.c (the Code attribute's tables).
 * Its face to callers is instrument.h.
 *
 * Pure C, no JVM. The output buffer's writers and the offset maps are
 * static inline here (the big-endian readers are common/bytes.h's): the
 * rewriter runs for every method of every class the JVM loads with
 * engine=fast.
 */
#ifndef PSF_INSTRUMENT_IMPL_H
#define PSF_INSTRUMENT_IMPL_H

#include "instrument.h"
#include "bytecode.h"
#include "bytes.h"
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

static inline void put(buf *b, const void *src, size_t n)
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

/* put_short: n bytes (one instruction of 1 to 3, most are), in place when
 * the buffer has room, without memcpy; more through put. */
static inline void put_short(buf *b, const uint8_t *src, size_t n)
{
    if (n > 3 || b->cap - b->len < 3 || b->oom) {
        put(b, src, n);
        return;
    }
    uint8_t *q = b->p + b->len;
    q[0] = src[0];
    if (n > 1)
        q[1] = src[1];
    if (n > 2)
        q[2] = src[2];
    b->len += n;
}

/* put1 and put2 write in place when the buffer has room: the rewriter
 * emits code a byte or two at a time, for every method of every class the
 * JVM loads, and a call to put (and memcpy) per byte was a visible part of
 * an engine=fast run's start. */
static inline void put1(buf *b, unsigned v)
{
    if (b->len < b->cap && !b->oom) {
        b->p[b->len++] = (uint8_t)v;
        return;
    }
    uint8_t x = (uint8_t)v;
    put(b, &x, 1);
}

static inline void put2(buf *b, unsigned v)
{
    if (b->cap - b->len >= 2 && !b->oom) {
        be_put_u16(b->p + b->len, (uint16_t)v);
        b->len += 2;
        return;
    }
    uint8_t x[2];
    be_put_u16(x, (uint16_t)v);
    put(b, x, 2);
}

static inline void put4(buf *b, uint32_t v)
{
    uint8_t x[4];
    be_put_u32(x, v);
    put(b, x, 4);
}

static inline int str_is(cp_str s, const char *lit)
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
    PR_BRANCH,                  /* four of them, by ins_branch_form (BR_*) */
    PR_ARRAY = PR_BRANCH + 4, PR_COPY, PR_COPIED, PR_MADE, PR_MADE_LEVELS, PR_CALL, PR_RETURN, PR_NEW,
    PR_FOLD,
    PR_COUNT
};

/* At most this many Utf8 entries a probe may need: the probe class's name,
 * java/lang/Object (options.null_as_int) and each probe method's name and
 * descriptor. */
#define MAX_UTF8 (2 + 2 * PR_COUNT)

typedef struct rewriter {
    const uint8_t *in;          /* the input class file */
    const classfile *cf;
    const ins_options *opt;
    buf cp;                     /* constant-pool entries appended after the input's */
    uint32_t cp_count;          /* constant_pool_count with them */
    uint16_t refs[PR_COUNT];    /* the probe methods' Methodrefs (PR_*), 0 until first used */
    uint16_t probe_cls;         /* the probe class's Class entry, 0 until first used */
    uint16_t object_cls;        /* java/lang/Object's Class entry (options.null_as_int), 0 until first used */
    const char *names[MAX_UTF8]; /* every name and descriptor a probe may need (set at the first need) */
    uint16_t name_at[MAX_UTF8];  /* and its Utf8 entry: the input's own, or one added; 0 until either */
    unsigned nnames;            /* 0 until the first need */
    uint32_t next_id;
    uint32_t next_site;         /* the next array site */
    uint32_t next_call;         /* the next call site */
    char *err;
    size_t errlen;
    /* rewrite_method's per-method arrays (method_ctx's at, frame_at and in),
     * kept from one method to the next: grown, never shrunk, freed with
     * the class */
    uint32_t *at;
    uint8_t *frame_at;
    uint32_t code_cap;          /* entries of at and frame_at */
    struct insn *insns;
    uint32_t insns_cap;         /* entries of insns */
} rewriter;
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
    uint32_t calls;             /* call sites: its invokes, with call probes */
    int entry_probe, exit_probe; /* which probes they are (PR_*): the entry/exit or the root pair */
    unsigned cst;               /* INS_CONST_LEN with options.consts, else 0 */
    unsigned root_cst;          /* INS_CONST_LEN when its root probes pass INS_ROOT_CONST, else 0 */
} method_ctx;
/* Where the code for original offset `old` begins in the new code: its entry
 * probe (offset 0), else its block probe, else its branch probe, else the
 * instruction (the code's end for old == code_len). For ranges: exception
 * ranges, line numbers, local variables. */
static inline uint32_t map_start(const method_ctx *c, uint32_t old)
{
    return old == c->m->code_len ? c->new_len : c->in[c->at[old]].start;
}

/* Where a jump to original offset `old` lands: as map_start, but past the
 * entry probe, which only a call runs. For branch, switch and handler
 * targets and stack map frames. */
static inline uint32_t map_target(const method_ctx *c, uint32_t old)
{
    return c->in[c->at[old]].target;
}

/* 1 when original offset `off` starts an instruction. */
static inline int is_insn(const method_ctx *c, uint32_t off)
{
    return off < c->m->code_len && c->at[off] != NO_INSN;
}

/* Where the instruction at original offset `old` itself lands, past every
 * probe in front of it. For offsets that name an instruction, not a place
 * to run from: Uninitialized(offset) in a frame, type annotations. */
static inline uint32_t map_insn(const method_ctx *c, uint32_t old)
{
    return c->in[c->at[old]].nw;
}

static inline int is_cond(uint8_t op)
{
    return (op >= 0x99 && op <= 0xa6) || op == 0xc6 || op == 0xc7;
}

/* if<cond> with the opposite condition. */
static inline uint8_t invert(uint8_t op)
{
    if (op == 0xc6 || op == 0xc7)
        return op ^ 1;
    return (uint8_t)(((op - 0x99) ^ 1) + 0x99);
}
/* instrument.c */
int ins_layout_pass(method_ctx *c);
/* Refuse the method: it stays as it is. */
__attribute__((format(printf, 3, 4)))
int ins_refuse(method_ctx *c, int status, const char *fmt, ...);
int ins_fold_branches(method_ctx *c);

/* instrument_pool.c */
uint16_t ins_cp_add(rewriter *w, uint8_t tag, const uint8_t *body, size_t n);
int ins_emit_invoke(rewriter *w, buf *code, int k);
int ins_is_arraycopy(const rewriter *w, const uint8_t *code, uint32_t pc);
int ins_branch_form(uint8_t op);
/* 1 when the conditional branch op gets the if<cond> probe on its
 * operands' sign (options.icmp_as_if, an if_icmp<cond>). */
int ins_icmp_as_if(const rewriter *w, uint8_t op);
/* The same for ifnull and ifnonnull (options.null_as_int). */
int ins_null_as_int(const rewriter *w, uint8_t op);
/* java/lang/Object's Class entry: the input's own, else added (its Utf8
 * too where the input has none); 0 with the error set when the pool is
 * full. */
uint16_t ins_object_class(rewriter *w);

/* instrument_emit.c */
unsigned ins_stack_growth(const rewriter *w);
int ins_emit_code_attr(method_ctx *c, buf *out);

/* instrument_tables.c */
int ins_attrs_check(method_ctx *c);
void ins_tables_emit(method_ctx *c, buf *body);

#endif
