/*
 * report_lines.h - the student report's source lines (report_lines.c).
 */
#ifndef PSF_REPORT_LINES_H
#define PSF_REPORT_LINES_H

#include <stdio.h>

#include "output.h"

/* The report's lines: with o->sources each line of the
 * submission's files with its share, else the costliest lines by number;
 * against ref, the lines where the two differ most. */
void report_lines(FILE *f, const options *o, const outcome *oc, const outcome *ref);

#endif
