/*
 * rdtsc_jni.c - build/libpsfrdtsc.so: the time-stamp counter for the Java
 * timing harness (calibrate/java/Rdtsc.java), read serialized on both sides
 * (tsc.h). The counter is invariant (constant_tsc, nonstop_tsc) on the
 * machines PSF calibrates on; psf-calibrate checks the flags and measures
 * its rate.
 */
#include <jni.h>
#include <stdint.h>

#include "tsc.h"

JNIEXPORT jlong JNICALL Java_Rdtsc_ticks(JNIEnv *env, jclass cls);

JNIEXPORT jlong JNICALL Java_Rdtsc_ticks(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jlong)tsc_read();
}
