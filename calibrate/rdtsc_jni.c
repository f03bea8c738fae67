/*
 * rdtsc_jni.c - build/libpsfrdtsc.so: the time-stamp counter for the Java
 * timing harness (calibrate/java/Rdtsc.java).
 *
 * RDTSCP waits until every earlier instruction has executed before it reads
 * the counter; the LFENCE after it keeps later instructions from starting
 * before the read. Together they bracket the timed code on both sides.
 * The counter is invariant (constant_tsc, nonstop_tsc) on the machines PSF
 * calibrates on; psf-calibrate checks the flags and measures its rate.
 */
#include <jni.h>
#include <stdint.h>

JNIEXPORT jlong JNICALL Java_Rdtsc_ticks(JNIEnv *env, jclass cls);

JNIEXPORT jlong JNICALL Java_Rdtsc_ticks(JNIEnv *env, jclass cls)
{
    uint32_t lo, hi, aux;
    (void)env;
    (void)cls;
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    __asm__ __volatile__("lfence" : : : "memory");
#else
#error "libpsfrdtsc needs an x86 time-stamp counter"
#endif
    (void)aux;
    return (jlong)(((uint64_t)hi << 32) | lo);
}
