/*
 * score.h - weighting a profile's counts with a cost table.
 *
 * score = sum over opcodes of count x cost
 *       + sum over dependency keys of count x cost (+ elements x cost_per_element for arrays),
 *         class constants loaded by ldc among them,
 *       + taken and mispredicted conditional branches x their extra price,
 *       + the closeness of method entries (<calls close>) x its extra price,
 * over the work bucket (plus the overhead bucket when asked), in micro-units
 * with 128-bit overflow-checked sums, rounded once at the end to whole units,
 * half up. What is priced and what counts as missing is in
 * docs/cost-table.md ("Approximate scores").
 */
#ifndef PSF_SCORE_H
#define PSF_SCORE_H

#include <stdint.h>

#include "costs.h"
#include "err.h"
#include "fixed.h"
#include "profile_read.h"

typedef enum term_kind { TERM_OPCODE, TERM_ARRAY, TERM_INVOKE, TERM_NEW, TERM_BRANCH, TERM_CALL, TERM_LDC } term_kind;

/* One key's share of the score. */
typedef struct score_term {
    char *key;              /* owned: "opcode:iadd", "array:int", "invoke:...", "new:...", "branch:taken" */
    term_kind kind;
    uint64_t count;         /* executions, calls, news, or array allocations */
    uint64_t elements;      /* arrays: elements allocated; invokes: elements handled (arraycopy) */
    psf_micro cost;         /* price used per count (the default when missing) */
    psf_micro per_element;  /* price used per element (0 when missing) */
    int missing;            /* the table has no price: charged the default */
    psf_u128 contribution;  /* micro-units */
} score_term;

/* One source line's share of a method (profile version 6 and later): the line's
 * bytecodes x opcode prices, priced as its method is. */
typedef struct score_line {
    uint32_t number;        /* 0: bytecode no LineNumberTable entry covers */
    uint64_t bytecodes;
    psf_u128 contribution;  /* micro-units */
} score_line;

/* One method's share: its own bytecodes (not its callees') x opcode prices;
 * its lines add up to it exactly (bytecodes and contribution). */
typedef struct score_method {
    const char *name;       /* borrowed from the profile */
    uint64_t bytecodes;
    psf_u128 contribution;  /* micro-units */
    score_line *lines;      /* owned: by line number; none for a version-5 profile */
    size_t n_lines;
} score_method;

typedef struct score_result {
    int with_overhead;      /* the overhead bucket was added */
    psf_u128 total;         /* exact, micro-units */
    uint64_t score;         /* total rounded half up to whole units */
    psf_u128 opcode_total;  /* part of total from opcodes */
    psf_u128 dep_total;     /* part of total from dependency keys (branch keys included) */
    int approximate;        /* some key was missing, the table is uncalibrated or of another JDK */
    int uncalibrated_table; /* a table from a file with calibrated="false" */
    unsigned table_jdk;     /* feature version the table was calibrated on (0: unknown) */
    unsigned profile_jdk;   /* feature version the profile was counted on (0: unknown) */
    int jdk_mismatch;       /* both known and different: prices from another JDK */
    char **missing;         /* owned: sorted keys charged the default */
    size_t n_missing;
    score_term *terms;      /* owned: opcodes (count > 0), then priced or missing dependency keys */
    size_t n_terms, cap_terms;
    score_method *methods;  /* owned: sorted by contribution (descending), then name */
    size_t n_methods;
} score_result;

/*
 * Score a profile whose status is ok. On failure (a sum that overflows, or a
 * score above 2^64-1 units) returns -1 with err status ST_BAD_INPUT and a
 * message saying "overflow"; r is then empty.
 */
int score_profile(const profile *p, const cost_table *t, int with_overhead,
                  score_result *r, psf_err *err);

void score_free(score_result *r);

/*
 * The feature version of a java.vm.version-style string: the number before
 * the first '.', '+' or '-' ("17.0.15+6-Debian-1deb12u1" is 17, "25+36" is
 * 25), or the second number of the old "1.N" form ("1.8.0_402" is 8).
 * 0 for NULL, an empty string or one that does not start with a number.
 */
unsigned score_jdk_feature(const char *version);

/* Terms sorted for explaining: by contribution (descending), then key. The
 * caller frees the array (not the terms). kind_opcode selects opcode terms
 * (1) or dependency terms (0). */
const score_term **score_top_terms(const score_result *r, int kind_opcode, size_t *n);

#endif
