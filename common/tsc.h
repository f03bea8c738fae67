/*
 * tsc.h - one serialized read of the time-stamp counter, shared by the
 * calibrator, the Java timing harness's JNI library (calibrate/rdtsc_jni.c)
 * and the TSC rate measurement of cpu_ident.c (calibrator and scorer).
 *
 * LFENCE; RDTSC; LFENCE: the first LFENCE waits until every earlier
 * instruction has completed, the second keeps later ones from starting
 * before the read, so the read brackets the timed code on both sides (Linux
 * runs AMD CPUs with LFENCE dispatch-serializing, as Intel's always is).
 * RDTSCP would do the first half, but not every CPU offers it: some
 * hypervisors hide it from CPUID (a family-26 EPYC here executes it but does
 * not announce it), and valgrind then refuses to run it.
 */
#ifndef PSF_TSC_H
#define PSF_TSC_H

#include <stdint.h>

#if !defined(__x86_64__) && !defined(__i386__)
#error "PSF needs an x86 time-stamp counter"
#endif

/* The counter, read with every earlier instruction done and no later one begun. */
static inline uint64_t tsc_read(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

#endif
