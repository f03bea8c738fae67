/*
 * model.h - the cost model the calibrator fits, and the fit itself.
 *
 *   cycles per iteration = sum over opcode groups  count x cost(group)
 *                        + sum over array types     allocations x cost + elements x cost_per_element
 *                        + sum over priced methods  calls x cost + elements x cost_per_element
 *                        + other native calls x default cost
 *
 * Opcodes are fitted in groups of opcodes the template interpreter executes
 * alike (all local loads, all int ALU operations, ...): every member of a
 * group gets the group's cost. This keeps the system well determined with a
 * reasonable number of kernels and gives opcodes that no kernel can
 * separate (goto_w, wide forms, jsr/ret) a sound price.
 */
#ifndef PSF_MODEL_H
#define PSF_MODEL_H

#include <stddef.h>

#include "histo.h"

typedef enum {
    FK_OPGROUP,             /* an opcode group: count */
    FK_ARRAY_ALLOC,         /* an array element type: allocations */
    FK_ARRAY_ELEM,          /* an array element type: elements */
    FK_INVOKE,              /* a priced method: calls */
    FK_INVOKE_ELEM,         /* the same method: elements the profile reports (arraycopy) */
    FK_OTHER_NATIVE,        /* native calls to methods the table does not list */
    FK_BRANCH_TAKEN,        /* conditional branches taken, on top of their opcode */
    FK_BRANCH_MISS,         /* conditional branches the simulated predictor got wrong */
    FK_CALL_CLOSE,          /* method entries close after the previous one (<calls close>) */
    FK_FENCE_NATIVE,        /* native calls close after a method entry */
    FK_FENCE_ALLOC,         /* allocations close after a method entry */
    FK_LDC_CLASS,           /* class constants loaded by ldc, on top of the opcode */
    FK_BYTECODE             /* every bytecode (the interpreter's dispatch): folded into
                             * every opcode group's price by model_fit */
} feat_kind;

typedef struct feature {
    feat_kind kind;
    char *name;             /* owned: group, element type or owner.name(descriptor) */
    const char *members;    /* opcode groups: space-separated mnemonics (static) */
} feature;

typedef struct model {
    feature *f;             /* owned */
    size_t nf, cap;
    int op_feature[256];    /* feature of each opcode's group; -1 for invalid opcodes */
} model;

/* The built-in features: every opcode group, the nine array types
 * (eight primitives and "reference"), the priced methods, other natives. */
void model_init(model *m);

/* Add a priced method (invoke key without "invoke:") or array element type;
 * no-op when present. */
void model_add_invoke(model *m, const char *method);
void model_add_array(model *m, const char *elem);

/* Feature vector of a per-iteration histogram into x[0..nf-1]. */
void model_row(const model *m, const histo *h, double *x);

/* Index of a feature by kind and name, or -1. */
int model_find(const model *m, feat_kind kind, const char *name);

void model_free(model *m);

/* A fitted model. */
typedef struct fit_result {
    double *cost;           /* owned: nf costs in cycles, >= 0 */
    unsigned char *seen;    /* owned: nf flags: the feature is non-zero in some fitted row */
    unsigned char *repriced; /* owned: nf flags: priced again by model_price_work, 1 from its own
                              * rows, 2 at the price of an unlisted native's call */
    unsigned char *unpriced; /* owned: nf flags: left out of the table by model_price_work (an
                              * array type or a native its kernels show no work for), set on the
                              * per-call and the per-element feature; UNPRICED_CALL: no cycles for
                              * the calls, UNPRICED_ELEM: no growth with the elements */
    double r2;              /* coefficient of determination over fitted rows */
    double base;            /* the price every bytecode shares, already inside each group's */
    int status;             /* nnls_solve's return */
} fit_result;

/*
 * Fit costs to rows x[i*nf..] with measured cycles y[i]. use[i] is a
 * row's weight: 0 leaves it out, w counts it w times. Rows are also
 * weighted by 1/y so that the fit minimises relative error. A ridge
 * (relative to each column's norm) of strength `ridge` on every feature
 * but the opcode groups and the common bytecode price shares a cost
 * between features that always occur together instead of giving one of
 * them everything; the opcode groups get `group_ridge`, which pulls each
 * group's price toward the price every bytecode shares (FK_BYTECODE, no
 * ridge). That shared price is then folded into every group's price, so
 * out->cost holds whole opcode prices and out->base the shared part.
 * Returns 0 or -1 (out of memory).
 */
int model_fit(const model *m, const double *x, const double *y, const unsigned char *use,
              size_t rows, double ridge, double group_ridge, fit_result *out);

/*
 * No free work (docs/calibration.md, "No price of zero for work"): after
 * model_fit, every feature that is work in a fitted row (an opcode group,
 * an array type's allocation, a native method's call, other natives, class
 * constants) must have a positive price, and so must the per-element price
 * of an array type or native whose fitted rows differ in elements per call
 * (its kernels grow with their input). A price the fit set to zero (below
 * MODEL_PRICE_MIN, which the table would write as 0) is fitted again from
 * that feature's own rows alone: what each row measured beyond the rest of
 * the fitted model, non-negative least squares over the feature's count
 * and elements, rows weighted as in model_fit. When even that leaves a
 * price at zero, the rows show no work for it beyond the rest of their
 * work: the function refuses, *bad_feature and *bad_row naming the feature
 * and the row (the one with the fewest elements a call for a per-call
 * price, the most for a per-element price), a sentence in why. A native
 * that no row exercises alone (never the only native in a row) and whose
 * rows leave nothing for its calls cannot be told from the natives it comes
 * with: it gets the fitted price of a call to an unlisted native
 * (FK_OTHER_NATIVE) when that is positive, instead of a refusal. A per-call
 * price of 0 stays where the per-element price is positive and every call
 * of the feature's rows brings elements.
 * runs_bytecode(name) says which priced methods are not natives (their
 * work is their counted bytecodes, and their extra may be 0); NULL: none.
 * With max_unpriced > 0, an array type or a priced method (an entry the
 * scorer lists as missing when the table lacks it) whose price stays at
 * zero is left out of the table instead (fr->unpriced set on both of its
 * features), up to max_unpriced entries; the next one refuses. Opcode
 * groups, class constants and the unlisted natives' price always refuse.
 * Returns 0 (fr->cost updated; fr->repriced[j] set for each feature fitted
 * again, fr->unpriced for each left out), 1 refused, -1 out of memory.
 */
#define MODEL_PRICE_MIN 0.0000005
enum { UNPRICED_CALL = 1, UNPRICED_ELEM = 2 };
/* The most entries a table may lack for noise (psf-calibrate's default,
 * --max-left-out): a few natives or array types on a noisy machine; more
 * say the timing as a whole is not to be trusted, and the table is
 * refused. */
#define UNPRICED_MAX 3

/* Why the table entry feature j begins (an array type's allocations, a
 * priced method's calls) was left out (UNPRICED_CALL, UNPRICED_ELEM), or 0:
 * also 0 for the per-element feature that shares its entry. */
int model_left_out(const model *m, const fit_result *fr, size_t j);
int model_price_work(const model *m, const double *x, const double *y, const unsigned char *use,
                     size_t rows, int (*runs_bytecode)(const char *name), size_t max_unpriced, fit_result *fr,
                     int *bad_feature, size_t *bad_row, char *why, size_t whylen);

/* Predicted cycles for one row. */
double model_predict(const model *m, const fit_result *fr, const double *x);

void fit_free(fit_result *fr);

#endif
