/*
 * calibrate.h - one calibration run: generate and compile the kernels,
 * count them under the agent, time them, fit, write the table and report.
 */
#ifndef PSF_CALIBRATE_H
#define PSF_CALIBRATE_H

#include <stdint.h>

#include "cpu_ident.h"
#include "histo.h"
#include "kernels.h"
#include "model.h"

typedef struct calib_options {
    int quick;              /* --quick: the KF_QUICK kernels, shorter timing */
    int no_isolate;         /* --no-isolate: never try run_isolated.sh */
    int jit;                /* --jit: time the kernels with the JIT (no -Xint), an experiment */
    int jobs;               /* parallel counting JVMs (never for timing) */
    int passes;             /* timing passes over all kernels (0: mode default) */
    int max_left_out;       /* entries the table may lack for noise (model_price_work) */
    const char *out;        /* the table to write */
    const char *report;     /* the report to write */
    const char *keys_file;  /* --keys FILE or NULL */
    const char *kernels;    /* --kernels NAME,...: the quick subset and these built-in kernels, or NULL */
    const char *build;      /* build directory: libpsfagent.so, libpsfrdtsc.so, calibrate/harness */
    const char *root;       /* repository root: scripts/, config/costs.xsd */
    const char *work;       /* keep intermediate files here (NULL: a temporary directory) */
    int refit;              /* --refit: read counts and timings kept in work, measure nothing */
    const char *java_home;  /* NULL: java and javac from PATH */
} calib_options;

/* What was measured for one kernel. */
typedef struct kresult {
    int ok;                 /* counted and timed */
    histo iter;             /* exact histogram of one iteration */
    double bytecodes;       /* bytecodes per iteration */
    long n1, n2;            /* timed iteration counts */
    uint64_t t1, t2;        /* minimum ticks for n1 and n2 (best pass) */
    int rounds;             /* timing rounds in the best pass */
    double cycles;          /* measured cycles per iteration (lowest over passes) */
    double pass_lo, pass_hi;/* lowest and highest per-pass figure: run-to-run spread */
    int passes;             /* passes that timed this kernel */
    double predicted;       /* the fitted model's cycles per iteration */
    double *x;              /* owned: feature row */
} kresult;

/* Everything the report needs. */
typedef struct calib_run {
    const calib_options *opt;
    kernel_set ks;
    kresult *res;           /* one per kernel */
    model m;
    fit_result fit;
    cpu_ident cpu;          /* vendor, family, model, stepping, model name */
    uint64_t tsc_hz;
    double tsc_spread;
    int tsc_flags_ok;
    char jdk[128];
    char jvm_flags[512];
    char date[32];
    int isolated;
    char isolation_note[512];
    uint64_t timer_ticks;   /* back-to-back ticks() calls, minimum */
    double default_cost;
    double unseen_group_cost;
    double holdout_median, holdout_worst, train_median, train_worst;
    int passes;             /* timing passes run */
    int extra_passes_left;  /* passes a refused fit may still add */
    int passes_added;       /* of them, added because a fit priced work at 0 */
    int refit_kept;         /* --refit: timing passes the work directory holds */
    double spread_median, spread_worst;   /* per-kernel pass_hi / pass_lo - 1 */
    char spread_worst_name[64];
    char holdout_worst_name[64];
    size_t n_holdout, n_train;
    double seconds;         /* wall time of the whole run */
    char skipped_keys[4096];/* --keys entries no kernel could be made for */
} calib_run;

/* Run a calibration. Returns 0, or 1 with a message already printed. */
int calibrate_run(const calib_options *opt);

/* Write the human-readable report. */
void report_write(FILE *f, const calib_run *r);

#endif
