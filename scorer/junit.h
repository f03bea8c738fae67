/*
 * junit.h - a scoring attempt as a JUnit XML report.
 *
 * Grading servers and CI systems read JUnit XML test reports and show them
 * without glue code. One attempt is one test case, named by the scored
 * method: it passes when the method was scored and its score is within the
 * instructor's budget (--max-score N, or --max-ratio R times the score of a
 * reference profile), and fails otherwise, with the score, the budget and
 * the status in the failure's message. The file follows the common JUnit
 * schema (tests/fixtures/junit/junit.xsd checks it).
 */
#ifndef PSF_JUNIT_H
#define PSF_JUNIT_H

#include <stdint.h>

#include "err.h"
#include "score.h"

typedef struct junit_case {
    const char *label;          /* the submission's name, or NULL */
    const char *method;         /* the test case's name; NULL: "unknown method" */
    const char *status_word;    /* "ok" when scored */
    const char *message;        /* why not scored; NULL when scored */
    const score_result *res;    /* NULL unless scored */
    const char *unit;           /* the cost table's unit */
    int has_max_score;          /* budget: score <= max_score */
    uint64_t max_score;
    int has_max_ratio;          /* budget: score <= ratio x ref_score */
    uint64_t ratio_micro;       /* the ratio in millionths */
    uint64_t ref_score;         /* the reference profile's score */
    const char *judged_by;      /* how the run's output was judged (expect_output, check, junit);
                                 * NULL: not judged (property output_checked false) */
} junit_case;

/* 1 when the case passes: scored, and within its budget if it has one. */
int junit_passed(const junit_case *c);

/* Write the report to path through a temporary file beside it and a
 * rename, so a reader sees no file or a whole one. On failure returns -1
 * with err (ST_INTERNAL_ERROR) naming the file. */
int junit_write_file(const char *path, const junit_case *c, psf_err *err);

#endif
