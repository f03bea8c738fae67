/*
 * cpu_ident.h - what identifies the CPU a cost table was calibrated on:
 * vendor, family, model and stepping as /proc/cpuinfo reports them, and
 * the measured rate of the time-stamp counter. The calibrator writes them
 * into a table; the scorer compares a table's with the machine it runs on
 * (scorer/machine_check.c), since prices in cycles hold only for the CPU
 * (and JDK) that measured them.
 */
#ifndef PSF_CPU_IDENT_H
#define PSF_CPU_IDENT_H

#include <stddef.h>
#include <stdint.h>

typedef struct cpu_ident {
    char vendor[64];        /* vendor_id, "AuthenticAMD"; "" when not reported */
    long family;            /* "cpu family"; -1 when not reported */
    long model;             /* "model" (a number); -1 when not reported */
    long stepping;          /* "stepping"; -1 when not reported */
    char model_name[256];   /* "model name", "AMD EPYC"; "" when not reported */
} cpu_ident;

/*
 * Fill id from the text of /proc/cpuinfo (the first processor's block
 * only; later blocks are ignored). Fields the text lacks, or whose value is
 * not a decimal number, stay unknown ("" or -1). Never fails.
 */
void cpu_ident_parse(const char *cpuinfo, cpu_ident *id);

/* cpu_ident_parse of /proc/cpuinfo; every field unknown if it cannot be read. */
void cpu_ident_read(cpu_ident *id);

/*
 * TSC ticks per second: the TSC (tsc.h) against CLOCK_MONOTONIC_RAW over
 * `reps` intervals of `interval_ms`, the median (0 if out of memory).
 * spread (may be NULL) receives (max - min) / median of the samples.
 */
uint64_t cpu_tsc_hz(int reps, int interval_ms, double *spread);

#endif
