/*
 * report.h - the student report: one self-contained HTML page about one
 * scored (or failed) submission.
 *
 * For a student who wants to know why their solution costs what it does:
 * the score and predicted time, the methods that cost the most, what the
 * code spends its bytecodes on in plain words (reading array elements,
 * comparisons, method calls, creating objects, ...), and, against a
 * reference profile (the instructor's or the leader's), where the two
 * differ most. Inline style only; nothing loaded from elsewhere.
 */
#ifndef PSF_REPORT_H
#define PSF_REPORT_H

#include <stdio.h>

#include "output.h"

/* oc: the submission (oc->res NULL when not scored); ref: the reference
 * (scored), or NULL. */
void report_html(FILE *f, const options *o, const cost_table *t, const outcome *oc, const outcome *ref);

/* The plain-words group of an opcode mnemonic ("reading array elements"),
 * and a one-line explanation of it. */
const char *report_opcode_group(const char *mnemonic, const char **explain);

#endif
