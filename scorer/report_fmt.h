/*
 * report_fmt.h - the pieces of text both halves of the student report write
 * (report.c: summary, methods, groups; report_lines.c: source lines): Java
 * names in the words of the source, units, share cells. Kept apart so the
 * two halves depend on it and not on each other.
 */
#ifndef PSF_REPORT_FMT_H
#define PSF_REPORT_FMT_H

#include <stdio.h>

#include "fixed.h"

/* "pkg.Cls.name([ILjava/lang/String;)V" as "pkg.Cls.name(int[], String)";
 * the caller frees it. */
char *report_pretty_method(const char *name);

/* Units (rounded half up) of a micro-unit amount, as text in buf. */
const char *report_units(psf_u128 micro, char *buf, size_t cap);

/* Two cells: amount's share of total in per mille as "12.3%", and a bar. */
void report_share_cell(FILE *f, psf_u128 amount, psf_u128 total, const char *cls);

#endif
