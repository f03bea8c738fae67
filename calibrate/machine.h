/*
 * machine.h - what the calibrator records about the machine: the CPU model,
 * whether its time-stamp counter is usable, and its measured rate.
 */
#ifndef PSF_MACHINE_H
#define PSF_MACHINE_H

#include <stddef.h>
#include <stdint.h>

/* The first "model name" of /proc/cpuinfo into buf ("unknown" if none). */
void machine_cpu_model(char *buf, size_t cap);

/* 1 when /proc/cpuinfo lists flag (e.g. "constant_tsc"), 0 otherwise. */
int machine_has_cpu_flag(const char *flag);

/*
 * TSC ticks per second: TSC read (tsc.h) against CLOCK_MONOTONIC_RAW over
 * `reps` intervals of `interval_ms`, the median. spread (may be NULL)
 * receives (max - min) / median of the samples.
 */
uint64_t machine_tsc_hz(int reps, int interval_ms, double *spread);

/* The current time as "2025-11-22T14:03:00Z" (21 bytes). */
void machine_utc_now(char *buf, size_t cap);

#endif
