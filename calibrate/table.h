/*
 * table.h - write a calibrated cost table (config/costs.xml format,
 * docs/cost-table.md; schema config/costs.xsd).
 */
#ifndef PSF_TABLE_H
#define PSF_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "cpu_ident.h"
#include "model.h"

typedef struct table_meta {
    const cpu_ident *cpu;       /* model name, vendor, family, model, stepping; may be NULL */
    uint64_t tsc_hz;            /* measured TSC rate */
    const char *jdk_version;    /* java.runtime.version of the timed JVM */
    const char *jvm_flags;      /* the flags the kernels were timed with */
    const char *date;           /* "2025-11-22T14:03:00Z" */
    double fit_r2;              /* clamped to [0, 1] */
    int isolated;               /* timed on an isolated core */
    const char *report;         /* file name of the report, for a comment; may be NULL */
} table_meta;

/*
 * Format a price the schema and the scorer accept: a non-negative decimal
 * with at most 6 decimal places, trailing zeros dropped, clamped to
 * [0, 1e9] (NaN becomes 0). buf needs 32 bytes.
 */
void table_format_price(double v, char *buf, size_t cap);

/* Escape text for a double-quoted XML attribute into buf (truncates). */
void table_escape_attr(const char *s, char *buf, size_t cap);

/*
 * Write the table: every valid opcode (the cost of its group), one <array>
 * per element type the fit saw, one <invoke> per priced method the fit saw,
 * and <default> = default_cost. Returns 0, or -1 on a write error.
 */
int table_write(FILE *f, const model *m, const fit_result *fr, const table_meta *meta,
                double default_cost, double unseen_group_cost);

#endif
