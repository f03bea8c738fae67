/*
 * instrument.h - a class-file rewriter that puts a block probe at the start
 * of every basic block of every method.
 *
 * Pure C, no JVM: the fast counting engine (fast/registry.c) calls it from the JVMTI
 * ClassFileLoadHook; the unit tests, the fuzz target and a test driver feed
 * it bytes. The probe is
 *
 *     sipush ID        (ldc_w #Integer ID when ID > 32767)
 *     invokestatic PROBE_CLASS.PROBE_METHOD(I)V
 *
 * six bytes before each block's first instruction, so a probe count times
 * the block's histogram (blocks.h) reproduces the bytecodes the block ran.
 *
 * With options.branch_method, each conditional branch (always the last
 * instruction of its block) is preceded by a branch probe that sees the
 * branch's operands and so its outcome, without any new control flow:
 *
 *     dup | dup2       (the operands the branch is about to compare)
 *     bipush OPCODE    (the branch's opcode, 0x99..0xa6, 0xc6, 0xc7, which
 *                       bipush sign-extends: the probe reads OPCODE & 0xff)
 *     sipush ID        (ldc_w #Integer ID past 32767: the id of its block)
 *     invokestatic PROBE_CLASS.BRANCH_METHOD with one of the descriptors
 *       (III)V                                  if<cond>
 *       (IIII)V                                 if_icmp<cond>
 *       (Ljava/lang/Object;II)V                 ifnull, ifnonnull
 *       (Ljava/lang/Object;Ljava/lang/Object;II)V  if_acmp<cond>
 *
 * nine bytes; max_stack then grows by four instead of one. Probes of one
 * name and descriptor (options naming the same method) share one
 * Methodref.
 *
 * With options.icmp_as_if as well, an if_icmp<cond> gets the if<cond>
 * probe instead, (III)V, on the sign of the difference of its operands,
 * taken exactly in longs, and the if<cond> opcode that tests that sign as
 * the if_icmp<cond> tests its operands:
 *
 *     dup2; i2l; dup2_x1; pop2; i2l; lcmp   (a b -> a b sign(b - a))
 *     bipush OPCODE'   (ifeq, ifne, ifgt, ifle, iflt, ifge for
 *                       if_icmpeq .. if_icmple)
 *     sipush ID; invokestatic PROBE_CLASS.BRANCH_METHOD(III)V
 *
 * fourteen bytes; max_stack grows by five. A class then needs no (IIII)V
 * probe: fewer constant-pool entries.
 *
 * With options.null_as_int, an ifnull or ifnonnull gets the if<cond>
 * probe too, on whether the value is an object:
 *
 *     dup; instanceof java/lang/Object   (0 for null, 1 for an object)
 *     bipush OPCODE'   (ifeq for ifnull, ifne for ifnonnull)
 *     sipush ID; invokestatic PROBE_CLASS.BRANCH_METHOD(III)V
 *
 * twelve bytes, and no (Ljava/lang/Object;II)V branch probe: the Class
 * entry of java/lang/Object is the input's own where it has one. Resolving
 * it runs no Java code only where the class's loader is the boot loader
 * (another loader may be asked to load java.lang.Object): the fast engine
 * sets it for the boot loader's classes alone.
 *
 * With options.entry_method, the new code starts with an entry probe
 * (sipush/ldc_w of block 0's id, invokestatic PROBE_CLASS.ENTRY_METHOD(I)V)
 * before block 0's probe; jumps to offset 0 land after it, so it runs once
 * per call, never for a loop at the top of the method.
 *
 * With options.exit_method, every return instruction (ireturn .. return) is
 * preceded by an exit probe, sipush/ldc_w of block 0's id and invokestatic
 * PROBE_CLASS.EXIT_METHOD(I)V, after its block's probe when the return
 * starts a block; offsets of the return (a frame, a range) map to what
 * comes first. options.calls_filter limits entry and exit probes to the
 * methods it chooses (the fast engine's measured method). Where it returns
 * 2, the method gets the same probes calling ROOT_ENTRY_METHOD and
 * ROOT_EXIT_METHOD instead (the fast engine's overhead roots); with
 * options.root_exit_not, the root exit probe pushes ~ID (bitwise not:
 * negative, sipush down to -32768, else ldc_w of an Integer of its own),
 * so that ROOT_EXIT_METHOD may be ROOT_ENTRY_METHOD, one Methodref for
 * both, the sign saying which probe runs. With root_exit_not,
 * options.root_via_entry_block, options.consts and
 * options.other_entry_block_method, both root probes call
 * OTHER_ENTRY_BLOCK_METHOD(II)V instead, with ~INS_ROOT_CONST after the
 * id (sipush: three bytes more each), a constant no entry-block probe
 * passes (below), so that the root probes add no entry to the pool. With
 * options.other_entry_method, every other method (calls_filter returns 0)
 * gets an entry probe calling OTHER_ENTRY_METHOD and no exit probe, so
 * every method has exactly one entry probe. With
 * options.other_entry_block_method as well, such a method where nothing
 * jumps to offset 0 (block 0 starts only on entry) gets one probe there
 * calling OTHER_ENTRY_BLOCK_METHOD with block 0's id instead of the entry
 * probe and block 0's probe.
 *
 * With options.array_method, every array instruction (newarray, anewarray,
 * multianewarray) is followed by an array probe that sees the array it
 * made, so it runs only when the instruction allocated:
 *
 *     dup              (the new array)
 *     bipush DIMS      (1, or multianewarray's dimensions: the probe reads DIMS & 0xff)
 *     sipush SITE      (ldc_w #Integer SITE past 32767)
 *     invokestatic PROBE_CLASS.ARRAY_METHOD(Ljava/lang/Object;II)V
 *
 * nine bytes. Array sites are numbered from options.first_site in code
 * order, DIMS of them per instruction (one per level a multianewarray makes:
 * site + level). max_stack grows by four, as with branch probes.
 *
 * With options.copy_method, every invokestatic of
 * java/lang/System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V
 * is preceded by a copy probe that sees the length it is given and
 * followed by one that runs only when the copy returned:
 *
 *     dup; invokestatic PROBE_CLASS.COPY_METHOD(I)V     (the length)
 *     invokestatic java/lang/System.arraycopy(...)
 *     invokestatic PROBE_CLASS.COPY_METHOD()V
 *
 * four bytes before and three after.
 *
 * With options.made_method, every call of a native that returns a new
 * array, invokevirtual of an array class's clone()Ljava/lang/Object;,
 * invokestatic java/lang/reflect/Array.newArray(Ljava/lang/Class;I)Ljava/lang/Object;
 * and Array.multiNewArray,
 * is followed by a probe that sees the array it returned:
 *
 *     dup; sipush SITE (ldc_w past 32767); invokestatic PROBE_CLASS.MADE_METHOD(Ljava/lang/Object;I)V
 *
 * seven bytes, with one array site of its own, numbered in code order
 * with the array instructions' sites. After invokestatic
 * java/lang/reflect/Array.multiNewArray(Ljava/lang/Class;[I)Ljava/lang/Object;,
 * whose levels the probe must walk, it is
 *
 *     dup; iconst_1; sipush SITE; invokestatic PROBE_CLASS.MADE_METHOD(Ljava/lang/Object;II)V
 *
 * eight bytes.
 *
 * With options.call_method and options.return_method, every invokevirtual,
 * invokespecial, invokestatic and invokeinterface is preceded by a call
 * probe and followed by a return probe, both with the invoke's call site:
 *
 *     sipush SITE (ldc_w #Integer SITE past 32767); invokestatic PROBE_CLASS.CALL_METHOD(I)V
 *     invoke...
 *     sipush SITE (the same Integer past 32767); invokestatic PROBE_CLASS.RETURN_METHOD(I)V
 *
 * six bytes each; the return probe runs only when the call returned. Call
 * sites are numbered from options.first_call in code order, one per invoke
 * (a numbering of their own). The call probe comes right before the invoke
 * (after any copy probe), the return probe right after it (before any copy
 * or made probe after it). Their Methodrefs are added at the class's first
 * invoke.
 *
 * With options.new_method, every new is followed by a new probe, which
 * runs only when it allocated (the uninitialized object stays on the stack
 * under the probe's operand):
 *
 *     new #C; sipush SITE (ldc_w past 32767); invokestatic PROBE_CLASS.NEW_METHOD(I)V
 *
 * six bytes, with a call site numbered in code order with the invokes'.
 * With options.consts, the block probe, the merged entry-block probe, the
 * call probe, the return probe and the new probe push a second int after
 * their id (sipush, three bytes more each; descriptor (II)V), so that the
 * probe the JIT inlines adds constants instead of reading the agent's
 * tables:
 *
 *     block and entry-block probes: the block's lengths,
 *         INS_LEN_PACK(bytecodes, first segment's bytecodes, alloc),
 *         both lengths in 1..INS_LEN_MAX, else 0 (the probe reads its table);
 *         0 too for a block that is a goto to itself (bc_goto_self)
 *     return and new probes: the segment after their instruction,
 *         INS_SEG_PACK(bytecodes, alloc, options.program), bytecodes in
 *         0..INS_SEG_MAX, else 0
 *
 * (segments: blocks.h, blk_segment; alloc: an allocation ends the segment).
 * The entry-block probe pushes ~LENGTHS and the new probe ~SEGMENT
 * (bitwise not: a negative sipush), and the call probe INS_CALL_CONST
 * (between 0 and the segments, which have bit 14 set), so that a probe
 * class can give them the names of the block and return probes, one
 * method each: the constant, which the JIT folds, says which probe runs.
 * With options.calls_not as well, the call, return and new probes push
 * ~SITE instead of SITE (bitwise not: negative, sipush down to -32768,
 * else ldc_w of an Integer of its own, the call probe's shared with its
 * return probe's), so that CALL_METHOD, RETURN_METHOD and NEW_METHOD may
 * be PROBE_METHOD, one Methodref for all: the probe takes a negative id
 * with any constant but ~INS_ROOT_CONST (the root exit probe's, whose
 * ~ROOT no segment's constant, bit 14 set or 0, nor ~ of one, equals)
 * for theirs.
 *
 * With options.fold_method as well as branch_method, a conditional branch
 * whose two successors have no other way in (blk_ways_in) gets no branch
 * probe: each successor's block probe calls FOLD_METHOD(III)V instead,
 *
 *     sipush ID; sipush LENGTHS (0 without consts); sipush ~OUTCOME
 *
 * (negative, so that FOLD_METHOD may share the name of the if<cond> branch
 * probe, whose third argument, a block id, is not), with
 * OUTCOME = INS_FOLD_PACK(site, taken): the outcome that leads to the
 * block and the branch's site, bp_site(options.branch_seed's seed of the
 * method, the branch's original offset) (common/branchpred.h) cut to the
 * predictor's index bits. Nothing runs between the branch and that probe,
 * so the outcome reaches the predictor in the same order as from a branch
 * probe.
 *
 * Everything that holds code offsets is relocated: branches, switches, the
 * exception table, LineNumberTable, LocalVariableTable,
 * LocalVariableTypeTable and StackMapTable. The rest of the class file is
 * copied byte for byte; the constant pool only grows at its end, so every
 * existing index keeps its meaning. See docs/fast-engine.md.
 */
#ifndef PSF_INSTRUMENT_H
#define PSF_INSTRUMENT_H

#include <stddef.h>
#include <stdint.h>

#include "blocks.h"
#include "classfile.h"
#include "cpool.h"

#define INS_PROBE_LEN 6         /* bytes of one block probe */
#define INS_BRANCH_PROBE_LEN 9  /* bytes of one branch probe */
#define INS_ICMP_EXTRA_LEN 5    /* bytes an if_icmp<cond>'s probe adds with options.icmp_as_if */
#define INS_NULL_EXTRA_LEN 3    /* bytes an ifnull's or ifnonnull's probe adds with options.null_as_int */
#define INS_ARRAY_PROBE_LEN 9   /* bytes of one array probe */
#define INS_COPY_PROBE_LEN 4    /* bytes of the copy probe before System.arraycopy */
#define INS_COPIED_PROBE_LEN 3  /* bytes of the copy probe after it */
#define INS_MADE_PROBE_LEN 7    /* bytes of the probe after a native that returns a new array */
#define INS_MADE_LEVELS_PROBE_LEN 8 /* ... after Array.multiNewArray */
#define INS_CALL_PROBE_LEN 6    /* bytes of the call probe before an invoke */
#define INS_RETURN_PROBE_LEN 6  /* bytes of the return probe after it */
#define INS_NEW_PROBE_LEN 6     /* bytes of the new probe after a new */
#define INS_CONST_LEN 3         /* bytes of a probe's constant argument (options.consts, fold_method) */

/* The probes' constants (options.consts, fold_method; mirrored in agent/fast/probe/java/lang/Probe.java). */
#define INS_LEN_MAX 127u
#define INS_LEN_PACK(len, seg, alloc) ((unsigned)(len) | (unsigned)(seg) << 7 | (unsigned)(alloc) << 14)
#define INS_SEG_MAX 4095u
#define INS_SEG_PACK(len, alloc, program) \
    ((unsigned)(len) | (unsigned)(alloc) << 12 | (unsigned)(program) << 13 | 1u << 14)
#define INS_FOLD_PACK(site, taken) (((unsigned)(site) & 0x3fffu) | (unsigned)(taken) << 14)
#define INS_CALL_CONST 1u       /* the call probe's constant: no segment packs to it */
/* The root probes' constant with options.root_via_entry_block, ~ of it
 * pushed: lengths no block packs to (a block has a bytecode at least). */
#define INS_ROOT_CONST (1u << 7)

typedef struct ins_options {
    const char *probe_class;    /* internal name of the probe class, e.g. "psf/Probe"; no class naming it in its pool is rewritten */
    const char *probe_method;   /* its static method taking the block id, descriptor (I)V
                                   ((II)V with consts) */
    uint32_t first_id;          /* id of the class's first probe; ids stay below 2^31 */
    const char *branch_method;  /* NULL, or the probe class's static methods, all of this
                                   name, called before each conditional branch (below) */
    const char *entry_method;   /* NULL, or the probe class's static method (I)V called
                                   with block 0's id when the method is entered (below) */
    const char *exit_method;    /* NULL, or the probe class's static method (I)V called
                                   with block 0's id right before every return (below) */
    int (*calls_filter)(void *ctx, cp_str name, cp_str desc);
                                /* NULL: entry and exit probes go into every method;
                                   else only into methods for which it returns 1
                                   (entry_method, exit_method) or 2 (root_entry_method,
                                   root_exit_method; none when those are NULL) */
    void *calls_ctx;            /* passed to calls_filter */
    const char *array_method;   /* NULL, or the probe class's static method
                                   (Ljava/lang/Object;II)V called after each array
                                   instruction with the array, DIMS and its site (above) */
    uint32_t first_site;        /* the class's first array site; sites stay below 2^31 */
    const char *copy_method;    /* NULL, or the probe class's static methods (I)V and ()V
                                   called before and after System.arraycopy (above) */
    const char *made_method;    /* NULL, or the probe class's static methods
                                   (Ljava/lang/Object;I)V and (Ljava/lang/Object;II)V called
                                   after a native that returns a new array (above) */
    const char *root_entry_method; /* NULL, or the entry and exit probes' methods, (I)V as */
    const char *root_exit_method;  /* above, for the methods calls_filter returns 2 for */
    int root_exit_not;          /* the root exit probe passes ~(block 0's id) (above) */
    int root_via_entry_block;   /* with root_exit_not: the root probes call other_entry_block_method (above) */
    const char *call_method;    /* NULL, or the probe class's static methods (I)V called with */
    const char *return_method;  /* the call site before and after every invoke other than
                                   invokedynamic (both or neither, above; the return probe
                                   (II)V with consts) */
    uint32_t first_call;        /* the class's first call site; sites stay below 2^31 */
    const char *other_entry_method; /* NULL, or the probe class's static method (I)V called
                                   with block 0's id on entry to every method calls_filter
                                   returns 0 for, as the entry probe (no exit probe) */
    const char *new_method;     /* NULL, or the probe class's static method (I)V ((II)V with
                                   consts) called after every new with its call site
                                   (numbered with the invokes') */
    const char *other_entry_block_method; /* NULL, or the probe class's static method (I)V
                                   ((II)V with consts) that
                                   does OTHER_ENTRY_METHOD's and PROBE_METHOD's work in one
                                   call: it replaces both probes at offset 0 of such a method
                                   when no branch, switch or handler lands on offset 0 */
    int consts;                 /* block, entry-block, call, return and new probes pass a constant
                                   too (above): their descriptors are (II)V */
    int calls_not;              /* with consts: the call, return and new probes pass ~site (above) */
    int program;                /* with consts: the program flag of INS_SEG_PACK */
    const char *fold_method;    /* NULL, or the probe class's static method (III)V that takes a
                                   branch's outcome in its successors' block probes (above) */
    uint32_t (*branch_seed)(void *ctx, cp_str name, cp_str desc);
                                /* with fold_method: the method's seed of its branch sites
                                   (bp_seed of the name the profile gives it); NULL: 0 */
    void *seed_ctx;             /* passed to branch_seed */
    int (*reserve)(void *ctx, uint32_t ids, uint32_t sites, uint32_t calls, uint32_t *first_id,
                   uint32_t *first_site, uint32_t *first_call);
                                /* NULL: each method's probe ids, array sites and call sites
                                   follow the last method's, from first_id, first_site and
                                   first_call; else each method that is instrumented asks for
                                   its own (the engine rewrites classes on two threads at
                                   once), and -1 fails the class; the result's next_id,
                                   next_site and next_call are then first_id, first_site and
                                   first_call */
    void *reserve_ctx;          /* passed to reserve */
    int icmp_as_if;             /* with branch_method: if_icmp<cond> probes call the if<cond>
                                   probe (III)V on the sign of b - a (above) */
    int null_as_int;            /* with branch_method: ifnull and ifnonnull probes call the
                                   if<cond> probe (III)V on instanceof java/lang/Object (above) */
} ins_options;

/* Whether the invoke at code[pc] (cp: its class's pool) calls a native
 * that returns a new array: INS_MAKES_ONE for an array's clone() or
 * Array.newArray, INS_MAKES_LEVELS for Array.multiNewArray, else 0. */
enum { INS_MAKES_ONE = 1, INS_MAKES_LEVELS = 2 };
int ins_makes_array(const cpool *cp, const uint8_t *code, uint32_t pc);

/* Where one original instruction went (instrumented methods). */
typedef struct ins_pc {
    uint32_t old;               /* its offset in the original code */
    uint32_t start;             /* new offset of its probes (= at when it has none) */
    uint32_t at;                /* new offset of the instruction itself */
    uint32_t after;             /* new offset of its return, array, after-copy or made probe;
                                   without one, of what follows it */
} ins_pc;

/* What happened to one method. */
enum {
    INS_METHOD_NO_CODE = 0,     /* abstract or native: nothing to do */
    INS_METHOD_DONE,            /* instrumented */
    INS_METHOD_TOO_LARGE,       /* its code would pass 65535 bytes: copied unchanged */
    INS_METHOD_REFUSED          /* a construct the rewriter does not relocate: copied unchanged */
};

typedef struct ins_method {
    cp_str name, desc;          /* point into the input class file */
    int status;                 /* INS_METHOD_* */
    char why[160];              /* for TOO_LARGE and REFUSED: a sentence saying why */
    blk_table blocks;           /* every method with code: its blocks, instrumented or not */
    uint32_t first_id;          /* DONE: block i has probe id first_id + i */
    uint32_t first_site, nsites; /* DONE with array probes: its array sites, in code order */
    uint32_t first_call, ncalls; /* DONE with call or new probes: its call sites (invokes with call
                                   probes, news with new probes), in code order */
    uint32_t old_len, new_len;  /* code_length before and after (new_len = old_len unless DONE) */
    uint16_t old_max_stack, new_max_stack;
    ins_pc *pcs;                /* DONE: owned, one per instruction, in code order */
    uint32_t npcs;
    uint8_t calls;              /* DONE: 0 no entry and exit probes, 1 entry_method and exit_method,
                                   2 root_entry_method and root_exit_method, 3 other_entry_method */
} ins_method;

typedef struct ins_result {
    cp_str class_name;          /* this_class, internal form (points into the input) */
    uint8_t *bytes;             /* owned: the rewritten class file */
    size_t len;
    ins_method *methods;        /* owned: one per method, in class-file order */
    uint16_t nmethods;
    uint32_t next_id;           /* the first id not used: first_id of the next class */
    uint32_t next_site;         /* the first array site not used: first_site of the next class */
    uint32_t next_call;         /* the first call site not used: first_call of the next class */
    uint32_t ndone, nskipped;   /* methods instrumented; methods TOO_LARGE or REFUSED */
} ins_result;

/*
 * Rewrite the class file in[0..len). Returns 0 and fills *r (free with
 * ins_free; its names point into `in`, which must outlive it). A method the
 * rewriter cannot instrument is copied unchanged and reported in
 * r->methods[i] (status and why), never truncated, so a caller that needs
 * every method instrumented checks r->nskipped. Returns -1 with a message
 * in err, *r empty, when the input is malformed (any structure out of
 * bounds, code that does not decode, offsets off instruction boundaries, an
 * inconsistent StackMapTable), when it is the probe class itself, or when
 * the constant pool or the probe ids would overflow.
 */
int ins_rewrite(const uint8_t *in, size_t len, const ins_options *opt, ins_result *r,
                char *err, size_t errlen);

/* The same for a class its caller has parsed: cf is cf_parse's result for
 * in[0..len) (the engine parses every class it rewrites anyway), read
 * only, and must outlive r as in does. */
int ins_rewrite_parsed(const classfile *cf, const uint8_t *in, size_t len, const ins_options *opt,
                       ins_result *r, char *err, size_t errlen);
void ins_free(ins_result *r);

/*
 * The probes the fast engine puts into every class (agent/fast/registry.c),
 * by the names and descriptors of its probe class
 * (agent/fast/probe/java/lang/Probe.java): *o is set whole, with the probe
 * class's internal name PROBE_CLASS, PROGRAM (a class of the program's: its
 * segments say so, and System.arraycopy gets the program's copy probes) and
 * BOOT (a class of the boot loader: ifnull and ifnonnull go through
 * instanceof Object). The caller adds what depends on the run: the first
 * id and sites, calls_filter (which methods get the measured method's
 * entry and exit probes, a root's, or, returning 0, the other entry
 * probe), branch_seed and reserve. Without a calls_filter every method is
 * taken for the measured one, whose entry_method and exit_method are not
 * set here: no method gets an entry probe (psf-rewrite -A passes a filter
 * returning 0, as the fast engine's does for most methods).
 */
void ins_fast_options(ins_options *o, const char *probe_class, int program, int boot);

/*
 * The original offset of what runs at new offset pc of an instrumented
 * method (a location JVMTI reports in rewritten code): the instruction pc
 * lies in, or, when pc lies in a probe, the instruction the probe precedes,
 * with *in_probe set (an exception there was thrown before that instruction
 * ran); in a probe after an instruction (return, array, after-copy, made),
 * the instruction it follows, with *in_probe set (that instruction ran). -1 when the method is not instrumented or pc is past its code.
 */
int64_t ins_original_offset(const ins_method *m, uint32_t pc, int *in_probe);

#endif
