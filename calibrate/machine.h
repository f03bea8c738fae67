/*
 * machine.h - what the calibrator records about the machine besides the
 * CPU's identity and TSC rate (common/cpu_ident.h): whether its
 * time-stamp counter is usable, and the date.
 */
#ifndef PSF_MACHINE_H
#define PSF_MACHINE_H

#include <stddef.h>
#include <stdint.h>

/* 1 when /proc/cpuinfo lists flag (e.g. "constant_tsc"), 0 otherwise. */
int machine_has_cpu_flag(const char *flag);

/* The current time as "2025-11-22T14:03:00Z" (21 bytes). */
void machine_utc_now(char *buf, size_t cap);

#endif
