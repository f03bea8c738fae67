/*
 * histo.h - a kernel's histogram as the counting agent wrote it: the work
 * bucket's opcode counts and dependencies (docs/profile-format.md), and the
 * per-iteration difference of two such histograms.
 *
 * The calibrator runs each kernel twice under the agent, with n1 and n2
 * loop iterations; (h(n2) - h(n1)) / (n2 - n1) is the exact histogram of one
 * iteration, with everything outside the loop cancelled.
 */
#ifndef PSF_HISTO_H
#define PSF_HISTO_H

#include <stddef.h>

typedef enum { HDEP_ARRAY, HDEP_INVOKE, HDEP_NEW } hdep_kind;

typedef struct hdep {
    hdep_kind kind;
    char *key;              /* owned: element type, owner.name(descriptor) or class */
    double count;           /* allocations, calls or news */
    double elements;        /* arrays; invokes that report elements (arraycopy) */
    int native;             /* invokes: native="true" */
} hdep;

typedef struct histo {
    double op[256];         /* opcode counts, indexed by opcode */
    double br_taken;        /* conditional branches taken (<branches>) */
    double br_mispredicted; /* and mispredicted by the agent's simulated predictor */
    double call_close;      /* closeness of method entries (<calls close>) */
    double fence_native;    /* closeness of native calls after a method entry (<calls fence_native>) */
    double fence_alloc;     /* closeness of allocations after a method entry (<calls fence_alloc>) */
    double ldc_class;       /* class constants loaded by ldc (<ldc constant="class">) */
    hdep *deps;             /* owned */
    size_t n_deps, cap_deps;
} histo;

/*
 * Read a profile from memory. Only status="ok" profiles are accepted.
 * Returns 0, or -1 with a sentence in err (histo left empty, safe to free).
 */
int histo_parse(histo *h, const char *bytes, size_t len, char *err, size_t errlen);

/* The same from a file. */
int histo_read_file(histo *h, const char *path, char *err, size_t errlen);

/* out = (b - a) / iterations; keys missing on one side count as 0. A
 * dependency that ends up zero is dropped. out must not alias a or b. */
void histo_diff(histo *out, const histo *a, const histo *b, double iterations);

/* Add (or find) a dependency; returns it. */
hdep *histo_dep(histo *h, hdep_kind kind, const char *key);

/* Find a dependency or NULL. */
const hdep *histo_find(const histo *h, hdep_kind kind, const char *key);

/* Total bytecodes. */
double histo_total(const histo *h);

void histo_free(histo *h);

#endif
