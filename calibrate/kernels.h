/*
 * kernels.h - the calibration kernels and the Java source generated from them.
 *
 * A kernel is a static Java method `long k_NAME(int n)`: some setup, then a
 * loop of n iterations over a fixed body. Each body repeats exactly with a
 * period that divides 64 iterations, so the counting agent's histograms at
 * two iteration counts that are multiples of 64 differ by an exact multiple
 * of one iteration's histogram, and so do the timings.
 *
 * The built-in table covers every opcode javac emits, every array element
 * type at several sizes, and the native or intrinsic methods the cost table
 * prices. --keys adds generated kernels for further keys.
 */
#ifndef PSF_KERNELS_H
#define PSF_KERNELS_H

#include <stddef.h>
#include <stdio.h>

/* Iterations after which a kernel's body repeats exactly. */
#define KERNEL_PERIOD(flags) ((flags) & KF_LONG ? 4096 : 64)

enum {
    KF_HOLDOUT = 1u << 0,   /* kept out of the fit: validates it */
    KF_QUICK   = 1u << 1,   /* part of --quick */
    KF_EXTRA   = 1u << 2,   /* generated for --keys */
    KF_LONG    = 1u << 3,   /* period of 4096 iterations (random data): counted at 4096 and 8192 */
    KF_REAL    = 1u << 4,   /* shaped like real code: weighs more in the fit */
    KF_WAITERS = 1u << 5    /* id() first starts the parked threads W40 and W400 (outside the
                             * measured call: see Kernels.WAITERS) */
};

typedef struct kernel {
    char *name;             /* owned: Java identifier suffix, k_<name> */
    unsigned flags;         /* KF_* */
    char *setup;            /* owned: Java statements before the loop */
    char *body;             /* owned: Java statements run once per iteration */
} kernel;

typedef struct kernel_set {
    kernel *v;              /* owned */
    size_t n, cap;
} kernel_set;

/* Fill ks with the built-in kernels (all of them; callers filter). */
void kernels_builtin(kernel_set *ks);

/* Append a kernel (strings copied). */
void kernels_add(kernel_set *ks, const char *name, unsigned flags,
                 const char *setup, const char *body);

/*
 * A kernel that exercises one cost-table key ("invoke:pkg.C.m(D)D",
 * "array:pkg.C", "new:pkg.C"), appended to ks. Returns 0, or -1 with a
 * sentence in why when no kernel can be generated for that key (only static
 * methods with primitive or String arguments, reference array types and
 * classes with a public no-argument constructor are supported).
 */
int kernels_for_key(kernel_set *ks, const char *key, char *why, size_t whylen);

/*
 * The names of the local variables that Java statements `stmts` declare at
 * their top level ("int x = 0, y; long[] a = new long[8];" declares x, y and
 * a; statements inside braces, loops and expressions declare none), at most
 * max of them, each at most 63 characters, in order. Returns how many.
 */
size_t kernels_declared(const char *stmts, char (*names)[64], size_t max);

/*
 * Write Kernels.java for the kernels (in order; id = index) to f. With
 * sink set (psf-calibrate --jit), every local a kernel declares is handed
 * to a sink, those of the body at the end of each iteration and those of
 * the setup after the loop, so that a compiler cannot delete the work that
 * computes them (the counts, taken from the same source, include the sinks).
 */
void kernels_write_java(const kernel_set *ks, FILE *f, int sink);

void kernels_free(kernel_set *ks);

#endif
