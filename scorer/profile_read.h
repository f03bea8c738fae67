/*
 * profile_read.h - reading a profile written by the counting agent
 * (docs/profile-format.md, version 7; versions 6, without calling
 * contexts, and 5, without lines either, too).
 */
#ifndef PSF_PROFILE_READ_H
#define PSF_PROFILE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "status.h"

enum { BUCKET_WORK = 0, BUCKET_OVERHEAD = 1, N_BUCKETS = 2 };

typedef enum dep_kind { DEP_ARRAY, DEP_INVOKE, DEP_INDY, DEP_NEW, DEP_LDC } dep_kind;

/* <branches>: conditional branches executed, taken, and mispredicted by the
 * agent's simulated predictor. */
enum { PROF_BR_CONDITIONAL = 0, PROF_BR_TAKEN, PROF_BR_MISPREDICTED, PROF_BRANCH_KINDS };

/* <calls>: Java method entries, the sum of their closeness, and the sums of
 * the closeness of native calls and of allocations to the last entry (calls.h). */
enum { PROF_CALL_ENTRIES = 0, PROF_CALL_CLOSE, PROF_CALL_FENCE_NATIVE, PROF_CALL_FENCE_ALLOC, PROF_CALL_KINDS };

typedef struct prof_dep {
    dep_kind kind;
    char *key;              /* owned: class, method, call site, element type or constant kind (ldc) */
    uint64_t count;         /* news, calls, sites executed, array allocations, or class constants loaded */
    uint64_t elements;      /* arrays; invokes that report elements (System.arraycopy), else 0 */
    int native;             /* invokes only: native="true" */
} prof_dep;

typedef struct prof_invocation {
    uint64_t index;
    char *thread;           /* owned */
    uint64_t work, overhead;
    uint64_t unscheduled;   /* of work, counted on threads the method did not start (0 when absent) */
    char *end;              /* owned: "return", "exception" or "incomplete" */
} prof_invocation;

typedef struct prof_mop {
    uint8_t op;
    uint64_t work, overhead;
} prof_mop;

/* <line> of a method (version 6 and later): its bytecodes on one source line. */
typedef struct prof_line {
    uint32_t number;        /* 0: bytecode the LineNumberTable does not cover */
    uint64_t work, overhead;
    prof_mop *ops;          /* owned */
    size_t n_ops, cap_ops;
} prof_line;

typedef struct prof_method {
    char *name;             /* owned: owner.name(descriptor) */
    uint64_t work, overhead;
    prof_mop *ops;          /* owned */
    size_t n_ops, cap_ops;
    prof_line *lines;       /* owned, in file order (by number); none in a version-5 profile */
    size_t n_lines, cap_lines;
} prof_method;

/* <frame> of <contexts> (version 7): one calling context. */
typedef struct prof_frame {
    size_t parent;          /* index + 1 of its parent frame; 0: a top-level frame */
    char *method;           /* owned: owner.name(descriptor), as in <methods> */
    uint32_t line;          /* the caller's source line of the call; 0 unknown */
    int program;            /* a method of the program's own classes */
    uint64_t work, overhead;            /* its own bytecodes */
    uint64_t other_work, other_overhead; /* its callees' bytecodes that have no frame */
} prof_frame;

typedef struct profile {
    char *path;             /* owned: as given */
    psf_status status;
    char *status_word;      /* owned: as written */
    char *message;          /* owned, or NULL */

    char *spec, *cls, *name, *descriptor;   /* owned; descriptor NULL when unresolved */
    char **candidates;      /* owned: descriptors (ambiguous_method) */
    size_t n_candidates, cap_candidates;

    int has_jvm;
    char *jvm_version, *jvm_vendor, *jvm_flags;   /* owned */
    char *engine;           /* owned: the counting engine ("step" when the profile names none) */

    int has_summary;
    uint64_t invocations, work, overhead;

    int has_invocations;
    prof_invocation *inv;   /* owned */
    size_t n_inv, cap_inv;

    int has_opcodes[N_BUCKETS];
    uint64_t opcodes[N_BUCKETS][256];

    int has_deps[N_BUCKETS];
    prof_dep *deps[N_BUCKETS];  /* owned */
    size_t n_deps[N_BUCKETS], cap_deps[N_BUCKETS];

    int has_branches[N_BUCKETS];
    uint64_t branches[N_BUCKETS][PROF_BRANCH_KINDS];

    int has_calls[N_BUCKETS];
    uint64_t calls[N_BUCKETS][PROF_CALL_KINDS];

    int has_lines;          /* version 6 and later: methods carry <line> children */
    int has_contexts;       /* version 7: <contexts> */
    prof_frame *frames;     /* owned, in file order (preorder: a parent before its children) */
    size_t n_frames, cap_frames;
    uint64_t ctx_other[N_BUCKETS]; /* bytecodes no frame holds (<contexts> other_*) */
    int has_methods;
    prof_method *methods;   /* owned, in file order */
    size_t n_methods, cap_methods;
} profile;

/*
 * Load a profile: readable, well-formed, root <psf-profile>, version "7",
 * "6" or "5" (checked before the schema so the message says "version"; a
 * version-6 profile has no <contexts>, a version-5 one no <line> either),
 * the XSD, then opcode mnemonics, 64-bit counts, frame ids and parents
 * and, for status ok, that every section is there and the totals agree
 * (in versions 6 and 7 also: each line's opcodes add up to the line, and each
 * method's lines, opcode by opcode, to the method; in version 7, the
 * frames of <contexts> add up to the summary). On failure p is left empty and err says
 * "FILE:LINE: ..." with ST_BAD_INPUT. A profile whose status is not ok loads
 * successfully; the caller looks at p->status.
 */
int profile_load_file(profile *p, const char *path, psf_err *err);
int profile_load_memory(profile *p, const char *name,
                        const unsigned char *bytes, size_t len, psf_err *err);
void profile_free(profile *p);

/* The resolved method "pkg.Class.name(desc)", or the spec when the target
 * never resolved; the caller frees it. */
char *profile_method(const profile *p);

/* What the invocations counted on threads the method did not start (their
 * unscheduled attributes; saturating): work that can vary between runs. */
uint64_t profile_unscheduled(const profile *p);

#endif
