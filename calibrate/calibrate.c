/*
 * calibrate.c - the calibration run (calibrate.h).
 *
 * 1. Generate Kernels.java from the kernel table and compile it against the
 *    harness (build/calibrate/harness: PsfKernels, Count, Time, Rdtsc).
 * 2. Count: every kernel under the counting agent at 64 and 128 iterations,
 *    `jobs` JVMs at a time; the difference / 64 is one iteration's exact
 *    histogram (setup, call and agent start cancel).
 * 3. Time: one JVM per pass runs every kernel without the agent, in -Xint
 *    with the pinned flags, on the isolated core when there is one; it
 *    reports minimum ticks at two iteration counts per kernel, whose
 *    difference is one iteration times (n2 - n1) with the timer reads and
 *    the call cancelled. Passes run one after another, never in parallel;
 *    each kernel keeps its lowest per-iteration figure.
 * 4. Fit costs by weighted NNLS on the training kernels, predict the held-out
 *    ones, write the table (atomically) and the report.
 */
#define _GNU_SOURCE 1
#include "calibrate.h"
#include "costs_keys.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include "machine.h"
#include "outpath.h"
#include "proc.h"
#include "table.h"

/* The pinned flags of scripts/get_score.sh, plus -Xint: kernels are timed
 * in the JVM configuration that scores are meant to predict. */
static const char *const pinned_flags[] = {
    "-Xint", "-XX:-UseTLAB", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1",
    "-XX:-UseDynamicNumberOfCompilerThreads", "-Xshare:off", "-Xss1m", "-Xms512m", "-Xmx512m",
    "-Duser.language=en", "-Duser.country=US", "-Duser.timezone=UTC", "-Dfile.encoding=UTF-8",
    "-XX:+UnlockDiagnosticVMOptions", "-XX:-UseCRC32Intrinsics", "-XX:-UseCRC32CIntrinsics",
};
#define N_PINNED (sizeof pinned_flags / sizeof pinned_flags[0])

/* Timing runs only: touch the whole heap at start. Otherwise the first pass
 * through eden pays the kernel's page faults (thousands of cycles per page),
 * and an allocation kernel's price would depend on which kernels ran before
 * it. Scores predict steady-state costs. */
#define TIMING_EXTRA_FLAG "-XX:+AlwaysPreTouch"
/* --jit: a kernel faster than this per iteration had its work deleted by C2 */
#define JIT_DELETED_CYCLES 0.5


static int tty;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;
    if (tty)
        fputs("\r\033[K", stderr);
    fputs("psf-calibrate: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* A progress line: rewritten in place on a terminal, every 10% otherwise. */
static void progress(const char *what, size_t done, size_t n, const char *detail)
{
    static size_t last_decile = (size_t)-1;
    if (tty) {
        fprintf(stderr, "\r\033[K[%s] %zu/%zu %s", what, done, n, detail ? detail : "");
        if (done == n)
            fputc('\n', stderr);
        fflush(stderr);
    } else {
        size_t dec = n ? done * 10 / n : 10;
        if (dec != last_decile || done == n) {
            fprintf(stderr, "[%s] %zu/%zu %s\n", what, done, n, detail ? detail : "");
            last_decile = dec;
        }
        if (done == n)
            last_decile = (size_t)-1;
    }
}

static void count_progress(size_t done, size_t n, void *ctx)
{
    (void)ctx;
    progress("count", done, n, "agent runs");
}

static char *path_join(const char *a, const char *b)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", a, b) < 0)
        abort();
    return p;
}

/* Whether `name` is one of the comma-separated names of list (NULL: none). */
static int name_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void java_tool(const calib_options *opt, const char *tool, char *buf, size_t cap)
{
    if (opt->java_home)
        snprintf(buf, cap, "%s/bin/%s", opt->java_home, tool);
    else
        snprintf(buf, cap, "%s", tool);
}

/* Write Kernels.java for ks into dir and compile it. 0 on success. */
static int compile_kernels(const calib_options *opt, const kernel_set *ks, const char *dir,
                           const char *harness, const char *log)
{
    char javac[1024];
    char *src = path_join(dir, "Kernels.java"), *classes = path_join(dir, "classes");
    FILE *f = fopen(src, "w");
    argvec a = { 0 };
    int rc;

    if (!f) {
        free(src);
        free(classes);
        return -1;
    }
    kernels_write_java(ks, f, opt->jit);
    fclose(f);
    mkdir(classes, 0755);
    java_tool(opt, "javac", javac, sizeof javac);
    argv_push(&a, javac);
    argv_push(&a, "-nowarn");
    argv_push(&a, "-cp");
    argv_push(&a, harness);
    argv_push(&a, "-d");
    argv_push(&a, classes);
    argv_push(&a, src);
    rc = proc_run(&a, log);
    argv_free(&a);
    free(src);
    free(classes);
    return rc;
}

/* Kernels for --keys: one key per line ("invoke:...", "array:...", "new:...");
 * blank lines and lines starting with '#' are skipped. */
static void add_key_kernels(calib_run *r, model *m)
{
    FILE *f = fopen(r->opt->keys_file, "r");
    char line[2048];
    if (!f) {
        note("warning: cannot read --keys file %s: %s", r->opt->keys_file, strerror(errno));
        return;
    }
    while (fgets(line, sizeof line, f)) {
        char why[512];
        char *k = line + strspn(line, " \t\"[,");
        k[strcspn(k, "\"\n\r,]")] = '\0';
        if (!*k || *k == '#')
            continue;
        if (kernels_for_key(&r->ks, k, why, sizeof why) != 0) {
            size_t l = strlen(r->skipped_keys);
            snprintf(r->skipped_keys + l, sizeof r->skipped_keys - l, "  %s\n", why);
            note("warning: %s", why);
            continue;
        }
        if (strncmp(k, "invoke:", 7) == 0)
            model_add_invoke(m, k + 7);
        else if (strncmp(k, "array:", 6) == 0)
            model_add_array(m, k + 6);
        else
            note("warning: %s: new keys are timed but the cost model has no term for them; see the report", k);
    }
    fclose(f);
}

/* Compile; when that fails and there are --keys kernels, find and drop the
 * ones javac rejects (each is tried alone) and compile again. */
static int build_kernels(calib_run *r, const char *work, const char *harness)
{
    char *log = path_join(work, "javac.log");
    int rc = compile_kernels(r->opt, &r->ks, work, harness, log);
    if (rc != 0 && !proc_stopped()) {
        kernel_set keep = { 0 };
        char *trial = path_join(work, "trial");
        mkdir(trial, 0755);
        for (size_t k = 0; k < r->ks.n; k++) {
            kernel *kn = &r->ks.v[k];
            if (kn->flags & KF_EXTRA) {
                kernel_set one = { 0 };
                char *tlog = path_join(trial, "javac.log");
                kernels_add(&one, kn->name, kn->flags, kn->setup, kn->body);
                if (compile_kernels(r->opt, &one, trial, harness, tlog) != 0) {
                    size_t l = strlen(r->skipped_keys);
                    snprintf(r->skipped_keys + l, sizeof r->skipped_keys - l,
                             "  kernel %s: javac rejects `%s` (not public, not static, or no such class)\n",
                             kn->name, kn->body);
                    note("warning: dropping kernel %s: javac rejects `%s`", kn->name, kn->body);
                    kernels_free(&one);
                    free(tlog);
                    continue;
                }
                kernels_free(&one);
                free(tlog);
            }
            kernels_add(&keep, kn->name, kn->flags, kn->setup, kn->body);
        }
        free(trial);
        kernels_free(&r->ks);
        r->ks = keep;
        rc = compile_kernels(r->opt, &r->ks, work, harness, log);
        if (rc != 0 && !proc_stopped())
            note("error: javac failed on the generated kernels; see %s", log);
    }
    free(log);
    return rc;
}

static void java_cmd(const calib_run *r, argvec *a, const char *cp, int timing)
{
    char java[1024];
    java_tool(r->opt, "java", java, sizeof java);
    argv_push(a, java);
    for (size_t i = 0; i < N_PINNED; i++)
        if (!(timing && r->opt->jit && strcmp(pinned_flags[i], "-Xint") == 0))   /* --jit: compiled kernels */
            argv_push(a, pinned_flags[i]);
    if (timing)
        argv_push(a, TIMING_EXTRA_FLAG);
    argv_push(a, "-cp");
    argv_push(a, cp);
}

static int count_kernels(calib_run *r, const char *work, const char *cp, const char *agent)
{
    size_t n = r->ks.n, failed;
    proc_job *jobs = calloc(2 * n, sizeof *jobs);
    char **paths = calloc(2 * n, sizeof *paths);
    char *dir = path_join(work, "count");
    int rc = 0, stopped;

    if (!jobs || !paths)
        abort();
    mkdir(dir, 0755);
    for (size_t k = 0; k < n; k++)
        for (int s = 0; s < 2; s++) {
            proc_job *j = &jobs[2 * k + s];
            int iters = KERNEL_PERIOD(r->ks.v[k].flags) * (s ? 2 : 1);
            char *prof, *out;
            if (asprintf(&prof, "%s/%s.%d.xml", dir, r->ks.v[k].name, iters) < 0 ||
                asprintf(&out, "%s/%s.%d.out", dir, r->ks.v[k].name, iters) < 0)
                abort();
            java_cmd(r, &j->argv, cp, 0);
            argv_pushf(&j->argv, "-agentpath:%s=method=Kernels.k_%s,out=%s", agent, r->ks.v[k].name, prof);
            argv_push(&j->argv, "Count");
            argv_push(&j->argv, r->ks.v[k].name);
            argv_pushf(&j->argv, "%d", iters);
            j->out_path = out;
            paths[2 * k + s] = prof;
        }
    if (r->opt->refit) {
        /* the profiles of an earlier run with --work */
        failed = 0;
        for (size_t i = 0; i < 2 * n; i++) {
            jobs[i].exit_code = file_exists(paths[i]) ? 0 : 1;
            failed += jobs[i].exit_code != 0;
        }
    } else {
        failed = proc_run_many(jobs, 2 * n, r->opt->jobs, count_progress, NULL);
    }
    /* stopped by a signal: nothing to read, nothing to say (the caller stops) */
    stopped = proc_stopped() != 0;
    if (failed && !stopped)
        note("warning: %zu counting runs failed (their kernels are left out; see %s)", failed, dir);
    for (size_t k = 0; k < n && !stopped; k++) {
        histo a, b;
        char err[512];
        kresult *kr = &r->res[k];
        if (jobs[2 * k].exit_code != 0 || jobs[2 * k + 1].exit_code != 0)
            continue;
        if (histo_read_file(&a, paths[2 * k], err, sizeof err) != 0) {
            note("warning: kernel %s: %s: %s", r->ks.v[k].name, paths[2 * k], err);
            continue;
        }
        if (histo_read_file(&b, paths[2 * k + 1], err, sizeof err) != 0) {
            note("warning: kernel %s: %s: %s", r->ks.v[k].name, paths[2 * k + 1], err);
            histo_free(&a);
            continue;
        }
        histo_diff(&kr->iter, &a, &b, KERNEL_PERIOD(r->ks.v[k].flags));
        kr->bytecodes = histo_total(&kr->iter);
        kr->ok = kr->bytecodes > 0;
        if (!kr->ok)
            note("warning: kernel %s: no bytecodes per iteration", r->ks.v[k].name);
        histo_free(&a);
        histo_free(&b);
    }
    for (size_t i = 0; i < 2 * n; i++) {
        argv_free(&jobs[i].argv);
        free((char *)jobs[i].out_path);
        free(paths[i]);
    }
    free(jobs);
    free(paths);
    free(dir);
    for (size_t k = 0; k < n; k++)
        if (r->res[k].ok)
            return rc;
    if (stopped)
        return 1;
    note("error: no kernel could be counted (is %s working?)", agent);
    return 1;
}

/* Decide whether the timing JVM runs on an isolated core. */
static void check_isolation(calib_run *r, const char *work, argvec *prefix)
{
    char *script = path_join(r->opt->root, "scripts/run_isolated.sh");
    char *log = path_join(work, "isolation.log");
    argvec a = { 0 };
    int rc;

    r->isolated = 0;
    if (r->opt->no_isolate) {
        snprintf(r->isolation_note, sizeof r->isolation_note, "not isolated: --no-isolate");
        note("warning: timing without core isolation (--no-isolate)");
        goto out;
    }
    if (!file_exists(script)) {
        snprintf(r->isolation_note, sizeof r->isolation_note, "not isolated: %s is missing", script);
        note("warning: timing without core isolation (%s is missing)", script);
        goto out;
    }
    argv_push(&a, script);
    argv_push(&a, "true");
    rc = proc_run(&a, log);
    if (proc_stopped())
        goto out;
    if (rc == 0) {
        r->isolated = 1;
        snprintf(r->isolation_note, sizeof r->isolation_note, "isolated: timed through scripts/run_isolated.sh");
        argv_push(prefix, script);
        argv_push(prefix, "--");
    } else {
        char msg[400] = "";
        FILE *f = fopen(log, "r");
        if (f) {
            if (!fgets(msg, sizeof msg, f))
                msg[0] = '\0';
            fclose(f);
            msg[strcspn(msg, "\n")] = '\0';
        }
        snprintf(r->isolation_note, sizeof r->isolation_note,
                 "not isolated: run_isolated.sh exited %d (%.300s)", rc, msg);
        note("warning: timing without core isolation: %s", msg[0] ? msg : "run_isolated.sh failed");
        note("         (set it up with scripts/init_environment.sh where that is allowed; docs/isolation.md)");
    }
out:
    argv_free(&a);
    free(script);
    free(log);
}

/* One timing pass over every counted kernel. */
static int time_pass(calib_run *r, const argvec *prefix, const char *cp, const char *rdtsc,
                     int pass, int passes, const char *work)
{
    const int quick = r->opt->quick;
    /* ticks per timed call, rounds: min, max, and rounds without a new minimum */
    uint64_t target = (uint64_t)((double)r->tsc_hz * (quick ? 0.0012 : 0.004));
    int min_reps = quick ? 5 : 10, max_reps = quick ? 25 : 60, stable = quick ? 5 : 10;
    argvec a = { 0 };
    FILE *f;
    pid_t pid;
    char line[1024], what[32], *errlog, *outlog;
    FILE *keep = NULL;          /* the raw timing output, kept for --refit */
    size_t total = 0, done = 0;
    int rc;

    for (size_t k = 0; k < r->ks.n; k++)
        total += r->res[k].ok;
    for (size_t i = 0; i < prefix->n; i++)
        argv_push(&a, prefix->v[i]);
    {
        argvec j = { 0 };
        java_cmd(r, &j, cp, 1);
        for (size_t i = 0; i < j.n; i++)
            argv_push(&a, j.v[i]);
        argv_free(&j);
    }
    argv_pushf(&a, "-Dpsf.rdtsc=%s", rdtsc);
    argv_push(&a, "Time");
    argv_pushf(&a, "%llu", (unsigned long long)target);
    argv_pushf(&a, "%d", min_reps);
    argv_pushf(&a, "%d", max_reps);
    argv_pushf(&a, "%d", stable);
    for (size_t k = 0; k < r->ks.n; k++)
        if (r->res[k].ok)
            argv_pushf(&a, "%s/%d", r->ks.v[k].name, KERNEL_PERIOD(r->ks.v[k].flags));
    if (asprintf(&errlog, "%s/time.%d.err", work, pass) < 0 ||
        asprintf(&outlog, "%s/time.%d.out", work, pass) < 0)
        abort();
    if (r->opt->refit) {
        /* the timing output an earlier run kept */
        argv_free(&a);
        f = fopen(outlog, "r");
        pid = -1;
        if (!f) {
            note("error: --refit: cannot read %s: %s", outlog, strerror(errno));
            free(errlog);
            free(outlog);
            return 1;
        }
    } else {
        f = proc_open_read(&a, errlog, &pid);
        argv_free(&a);
        if (!f) {
            if (!proc_stopped())
                note("error: cannot start the timing JVM");
            free(errlog);
            free(outlog);
            return 1;
        }
        keep = fopen(outlog, "w");
    }
    snprintf(what, sizeof what, "time %d/%d", pass, passes);
    while (fgets(line, sizeof line, f)) {
        char name[256];
        long n1, n2;
        if (keep)
            fputs(line, keep);
        unsigned long long t1, t2, timer;
        int rounds;
        if (sscanf(line, "JDK %127s", r->jdk) == 1)
            continue;
        if (sscanf(line, "TIMER %llu", &timer) == 1) {
            if (r->timer_ticks == 0 || timer < r->timer_ticks)
                r->timer_ticks = timer;
            continue;
        }
        if (sscanf(line, "K %255s %ld %ld %llu %llu %d", name, &n1, &n2, &t1, &t2, &rounds) == 6) {
            char detail[400];
            for (size_t k = 0; k < r->ks.n; k++) {
                kresult *kr = &r->res[k];
                double c;
                if (strcmp(r->ks.v[k].name, name) != 0)
                    continue;
                c = n2 > n1 && t2 > t1 ? (double)(t2 - t1) / (double)(n2 - n1) : 0;
                if (c > 0) {
                    if (kr->passes == 0 || c < kr->pass_lo)
                        kr->pass_lo = c;
                    if (kr->passes == 0 || c > kr->pass_hi)
                        kr->pass_hi = c;
                    kr->passes++;
                }
                if (c > 0 && (kr->cycles == 0 || c < kr->cycles)) {
                    kr->cycles = c;
                    kr->n1 = n1;
                    kr->n2 = n2;
                    kr->t1 = t1;
                    kr->t2 = t2;
                    kr->rounds = rounds;
                }
                snprintf(detail, sizeof detail, "%-28s %9.1f cycles/iteration", name, c);
                progress(what, ++done, total, detail);
            }
            continue;
        }
        if (strncmp(line, "ERROR", 5) == 0)
            note("warning: timing harness: %s", line);
    }
    if (keep)
        fclose(keep);
    free(outlog);
    if (pid < 0) {
        fclose(f);
        free(errlog);
        return 0;
    }
    rc = proc_close(f, pid);
    if (rc != 0) {
        if (!proc_stopped())
            note("error: the timing JVM exited with %d; see %s", rc, errlog);
        free(errlog);
        return 1;
    }
    free(errlog);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The names of the fitted kernels (use) whose rows x exercise feature j, comma
 * separated, as many as fit in out. */
static void kernels_of(const calib_run *r, const double *x, const unsigned char *use, size_t j, char *out,
                       size_t outlen)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t k = 0; k < r->ks.n && o < outlen; k++) {
        int l;
        if (!use[k] || x[k * r->m.nf + j] <= 0)
            continue;
        l = snprintf(out + o, outlen - o, "%s%s", o ? ", " : "", r->ks.v[k].name);
        if (l < 0 || (size_t)l >= outlen - o) {
            out[o] = '\0';
            break;
        }
        o += (size_t)l;
    }
}

static int fit_and_predict(calib_run *r)
{
    size_t n = r->ks.n, nf = r->m.nf;
    double *x = calloc(n * nf + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
    unsigned char *use = calloc(n + 1, 1);
    double *errs_h = calloc(n + 1, sizeof *errs_h), *errs_t = calloc(n + 1, sizeof *errs_t);
    double inv_sum = 0, inv_n = 0, grp[128];
    size_t nh = 0, nt = 0, ng = 0;

    if (!x || !y || !use || !errs_h || !errs_t)
        abort();
    for (size_t k = 0; k < n; k++) {
        kresult *kr = &r->res[k];
        if (!kr->ok || kr->cycles <= 0)
            continue;
        free(kr->x);            /* a fit again after more passes */
        kr->x = calloc(nf, sizeof *kr->x);
        if (!kr->x)
            abort();
        model_row(&r->m, &kr->iter, kr->x);
        memcpy(&x[k * nf], kr->x, nf * sizeof *x);
        /* relative weight: code shaped like real programs counts 4 times
         * (duplicated rows; the fit weighs each row by 1/measured) */
        y[k] = kr->cycles;
        use[k] = r->ks.v[k].flags & KF_HOLDOUT ? 0 : r->ks.v[k].flags & KF_REAL ? 4 : 1;
    }
    /* ridge 1e-4 relative to each column: shares cost between features that
     * always occur together without moving well-determined ones noticeably;
     * 3 on the opcode groups: each opcode costs the dispatch every bytecode
     * pays unless the kernels clearly say otherwise (docs/calibration.md) */
    fit_free(&r->fit);
    if (model_fit(&r->m, x, y, use, n, 1e-4, 3, &r->fit) != 0)
        abort();
    /* no work priced at zero: a price the fit zeroed is fitted again from
     * its own kernels, or the table is refused with the kernel named */
    {
        int bad_f = -1, prc;
        size_t bad_k = 0;
        char why[512];
        /* entries left out only once the added passes are spent */
        prc = model_price_work(&r->m, x, y, use, n, costs_runs_bytecode,
                               r->extra_passes_left > 0 ? 0 : (size_t)r->opt->max_left_out, &r->fit, &bad_f, &bad_k, why,
                               sizeof why);
        if (prc < 0)
            abort();
        if (prc > 0) {
            if (r->extra_passes_left > 0)
                note("kernel %s (%.1f cycles an iteration): %s; timing every kernel once more before "
                     "refusing (%d more pass%s at most)", r->ks.v[bad_k].name, y[bad_k], why,
                     r->extra_passes_left, r->extra_passes_left == 1 ? "" : "es");
            else
                note("error: kernel %s (%.1f cycles an iteration): %s, so the table would price that work "
                     "at 0; no table written (calibrate again on a quieter machine, or see docs/calibration.md)",
                     r->ks.v[bad_k].name, y[bad_k], why);
            free(x);
            free(y);
            free(use);
            free(errs_h);
            free(errs_t);
            return -1;
        }
        for (size_t j = 0; j < nf; j++)
            if (model_left_out(&r->m, &r->fit, j)) {
                char kernels[256];
                kernels_of(r, x, use, j, kernels, sizeof kernels);
                int by_reference = r->m.f[j].kind == FK_ARRAY_ALLOC && strcmp(r->m.f[j].name, "reference") != 0 &&
                                   !costs_is_primitive_type(r->m.f[j].name);
                note("warning: %s %s (kernels %s): %s after %d timing passes; left out of the table: %s "
                     "(calibrate again on a quieter machine to price it)",
                     r->m.f[j].kind == FK_ARRAY_ALLOC ? "array" : "invoke", r->m.f[j].name, kernels,
                     r->fit.unpriced[j] == UNPRICED_CALL ? "their time leaves no cycles for its calls beyond the rest "
                                                           "of their work"
                                                         : "their time does not grow with its elements",
                     r->passes,
                     by_reference ? "the scorer prices it as array:reference"
                                  : "a score that uses it is approximate (~) and lists it missing");
            }
        for (size_t j = 0; j < nf; j++)
            if (r->fit.repriced[j])
                note("%s%s: the fit priced it at 0; priced %s at %.3f cycles",
                     r->m.f[j].name, r->m.f[j].kind == FK_INVOKE_ELEM || r->m.f[j].kind == FK_ARRAY_ELEM
                     ? " (per element)" : "",
                     r->fit.repriced[j] == 2 ? "as an unlisted native's call (its kernels cannot separate it)"
                                             : "from its own kernels", r->fit.cost[j]);
    }
    for (size_t k = 0; k < n; k++) {
        kresult *kr = &r->res[k];
        double e;
        if (!kr->x)
            continue;
        kr->predicted = model_predict(&r->m, &r->fit, kr->x);
        e = fabs(kr->predicted - kr->cycles) / kr->cycles;
        if (r->ks.v[k].flags & KF_HOLDOUT) {
            if (e > r->holdout_worst) {
                r->holdout_worst = e;
                snprintf(r->holdout_worst_name, sizeof r->holdout_worst_name, "%s", r->ks.v[k].name);
            }
            errs_h[nh++] = e;
        } else {
            if (e > r->train_worst)
                r->train_worst = e;
            errs_t[nt++] = e;
        }
    }
    r->n_holdout = nh;
    r->n_train = nt;
    r->holdout_median = median(errs_h, nh);
    r->train_median = median(errs_t, nt);
    /* run-to-run spread of the timing: how far each kernel's per-pass
     * figures lie apart (only meaningful with more than one pass) */
    nt = 0;
    for (size_t k = 0; k < n; k++) {
        const kresult *kr = &r->res[k];
        double s;
        if (!kr->x || kr->passes < 2 || kr->pass_lo <= 0)
            continue;
        s = kr->pass_hi / kr->pass_lo - 1;
        if (s > r->spread_worst) {
            r->spread_worst = s;
            snprintf(r->spread_worst_name, sizeof r->spread_worst_name, "%s", r->ks.v[k].name);
        }
        errs_t[nt++] = s;
    }
    r->spread_median = median(errs_t, nt);

    /* default: the fitted price of native calls the table does not list,
     * else the median price of the methods it does list */
    for (size_t j = 0; j < nf; j++) {
        if (r->m.f[j].kind == FK_INVOKE && r->fit.seen[j] && inv_n < 128)
            grp[(size_t)inv_n++] = r->fit.cost[j];
        if (r->m.f[j].kind == FK_OTHER_NATIVE && r->fit.seen[j] && r->fit.cost[j] > 0)
            inv_sum = r->fit.cost[j];
    }
    r->default_cost = inv_sum > 0 ? inv_sum : median(grp, (size_t)inv_n);
    /* an opcode group no kernel reached (only possible with custom kernel
     * sets): the median price of the groups that were reached */
    for (size_t j = 0; j < nf && ng < 128; j++)
        if (r->m.f[j].kind == FK_OPGROUP && r->fit.seen[j])
            grp[ng++] = r->fit.cost[j];
    r->unseen_group_cost = median(grp, ng);
    free(x);
    free(y);
    free(use);
    free(errs_h);
    free(errs_t);
    return 0;
}

/* Validate a written table against config/costs.xsd; 0 when valid or when
 * the schema is not there (then a note says so). */
static int validate_table(const calib_run *r, const char *path)
{
    char *xsd = path_join(r->opt->root, "config/costs.xsd");
    xmlSchemaParserCtxtPtr pc;
    xmlSchemaPtr schema = NULL;
    xmlSchemaValidCtxtPtr vc = NULL;
    xmlDocPtr doc = NULL;
    int rc = 0;

    if (!file_exists(xsd)) {
        note("warning: %s not found: the table was not checked against the schema", xsd);
        free(xsd);
        return 0;
    }
    pc = xmlSchemaNewParserCtxt(xsd);
    schema = pc ? xmlSchemaParse(pc) : NULL;
    if (pc)
        xmlSchemaFreeParserCtxt(pc);
    doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    vc = schema ? xmlSchemaNewValidCtxt(schema) : NULL;
    if (!schema || !doc || !vc || xmlSchemaValidateDoc(vc, doc) != 0) {
        note("error: %s does not validate against %s", path, xsd);
        rc = 1;
    }
    if (vc)
        xmlSchemaFreeValidCtxt(vc);
    if (schema)
        xmlSchemaFree(schema);
    xmlFreeDoc(doc);
    free(xsd);
    return rc;
}

/*
 * The table, validated, and the report, each written beside its path and
 * renamed over it; a path of /dev/null discards the output (the table is
 * still written, in WORK, and validated). A path where something other
 * than a regular file appeared since the start (outpath_check) is left
 * alone, and the run fails.
 */
static int write_outputs(calib_run *r, const char *work)
{
    char *tmp;
    FILE *f;
    table_meta meta;
    const char *rep_base = strrchr(r->opt->report, '/');

    memset(&meta, 0, sizeof meta);
    meta.cpu = &r->cpu;
    meta.tsc_hz = r->tsc_hz;
    meta.jdk_version = r->jdk;
    meta.jvm_flags = r->jvm_flags;
    meta.date = r->date;
    meta.fit_r2 = r->fit.r2;
    meta.isolated = r->isolated;
    meta.report = replace_discards(r->opt->report) ? NULL : rep_base ? rep_base + 1 : r->opt->report;

    if (replace_discards(r->opt->out) ? asprintf(&tmp, "%s/table.tmp.%ld", work, (long)getpid()) < 0
                                      : asprintf(&tmp, "%s.tmp.%ld", r->opt->out, (long)getpid()) < 0)
        abort();
    f = fopen(tmp, "w");
    if (!f) {
        note("error: cannot write %s: %s", tmp, strerror(errno));
        free(tmp);
        return 1;
    }
    if (table_write(f, &r->m, &r->fit, &meta, r->default_cost, r->unseen_group_cost) != 0 ||
        fclose(f) != 0) {
        note("error: writing %s failed", tmp);
        unlink(tmp);
        free(tmp);
        return 1;
    }
    if (validate_table(r, tmp) != 0) {
        note("the invalid table is kept as %s", tmp);
        free(tmp);
        return 1;
    }
    if (replace_discards(r->opt->out)) {
        unlink(tmp);
    } else if (replace_refused(r->opt->out)) {
        note("error: %s is no longer a regular file; left alone (the table is kept as %s)", r->opt->out, tmp);
        free(tmp);
        return 1;
    } else if (rename(tmp, r->opt->out) != 0) {
        note("error: cannot rename %s to %s: %s", tmp, r->opt->out, strerror(errno));
        free(tmp);
        return 1;
    }
    free(tmp);
    if (replace_discards(r->opt->report))
        return 0;
    if (asprintf(&tmp, "%s.tmp.%ld", r->opt->report, (long)getpid()) < 0)
        abort();
    f = fopen(tmp, "w");
    if (!f) {
        note("error: cannot write %s", tmp);
        free(tmp);
        return 1;
    }
    report_write(f, r);
    if (fclose(f) != 0 || replace_refused(r->opt->report) || rename(tmp, r->opt->report) != 0) {
        note("error: cannot write %s%s", r->opt->report,
             replace_refused(r->opt->report) ? ": it is no longer a regular file; left alone" : "");
        unlink(tmp);
        free(tmp);
        return 1;
    }
    free(tmp);
    return 0;
}

/* nftw: each entry, a directory after what it holds. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0;
}

/* dir and everything in it, in this process (no child: it runs after a
 * signal stopped the calibrator too), without following a link. */
static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The name of a signal that stops the calibrator (proc_stop_on_signals). */
static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

/* A new temporary work directory under $TMPDIR (else /tmp), or NULL with
 * errno set. */
static char *make_work_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = path_join(tmp && *tmp ? tmp : "/tmp", "psf-calibrate.XXXXXX");
    if (mkdtemp(dir))
        return dir;
    int e = errno;
    free(dir);
    errno = e;
    return NULL;
}

int calibrate_run(const calib_options *opt)
{
    calib_run r;
    char *work_tmp = NULL;      /* the temporary work directory, without --work */
    char *agent = path_join(opt->build, "libpsfagent.so");
    char *rdtsc = path_join(opt->build, "libpsfrdtsc.so");
    char *harness = path_join(opt->build, "calibrate/harness");
    char *time_class = path_join(harness, "Time.class");
    char *classes = NULL, *cp = NULL;
    const char *work = opt->work;
    argvec prefix = { 0 };
    struct timespec t0, t1;
    int rc = 1, passes;
    size_t off = 0;

    tty = isatty(2);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(&r, 0, sizeof r);
    r.opt = opt;
    model_init(&r.m);

    if (!file_exists(agent) || !file_exists(rdtsc) || !file_exists(time_class)) {
        note("error: %s, %s or %s is missing: run make", agent, rdtsc, time_class);
        goto out;
    }
    cpu_ident_read(&r.cpu);
    r.tsc_flags_ok = machine_has_cpu_flag("constant_tsc") && machine_has_cpu_flag("nonstop_tsc");
    if (!r.tsc_flags_ok)
        note("warning: the CPU does not report constant_tsc and nonstop_tsc: TSC cycles may not be time");
    r.tsc_hz = cpu_tsc_hz(opt->quick ? 3 : 7, opt->quick ? 50 : 100, &r.tsc_spread);
    note("%s (%s family %ld model %ld stepping %ld), TSC %.6f GHz (spread %.2g over %d intervals)",
         r.cpu.model_name[0] ? r.cpu.model_name : "unknown CPU", r.cpu.vendor[0] ? r.cpu.vendor : "unknown vendor",
         r.cpu.family, r.cpu.model, r.cpu.stepping, (double)r.tsc_hz / 1e9,
         r.tsc_spread, opt->quick ? 3 : 7);
    machine_utc_now(r.date, sizeof r.date);
    for (size_t i = 0; i < N_PINNED && off < sizeof r.jvm_flags; i++)
        if (!(opt->jit && strcmp(pinned_flags[i], "-Xint") == 0))
            off += (size_t)snprintf(r.jvm_flags + off, sizeof r.jvm_flags - off, "%s%s", off ? " " : "",
                                    pinned_flags[i]);
    if (off < sizeof r.jvm_flags)
        snprintf(r.jvm_flags + off, sizeof r.jvm_flags - off, " %s", TIMING_EXTRA_FLAG);

    /* kernels */
    {
        kernel_set all;
        kernels_builtin(&all);
        int named_ok = 1;
        for (size_t k = 0; k < all.n; k++)
            if ((!opt->quick && !opt->kernels) || (all.v[k].flags & KF_QUICK) ||
                name_listed(opt->kernels, all.v[k].name))
                kernels_add(&r.ks, all.v[k].name, all.v[k].flags, all.v[k].setup, all.v[k].body);
        /* every name --kernels gives must be a built-in kernel's */
        for (const char *p = opt->kernels; p && *p;) {
            size_t len = strcspn(p, ",");
            int found = 0;
            for (size_t k = 0; k < all.n && !found; k++)
                found = strlen(all.v[k].name) == len && strncmp(all.v[k].name, p, len) == 0;
            if (!found) {
                note("error: --kernels: no built-in kernel is named '%.*s'", (int)len, p);
                named_ok = 0;
            }
            p += len + (p[len] == ',');
        }
        kernels_free(&all);
        if (!named_ok)
            goto out;
    }
    if (opt->keys_file)
        add_key_kernels(&r, &r.m);

    if (!work) {
        work_tmp = make_work_dir();
        if (!work_tmp) {
            note("error: cannot create a work directory: %s", strerror(errno));
            goto out;
        }
        work = work_tmp;
    } else if (mkdir(work, 0755) != 0 && errno != EEXIST) {
        note("error: cannot create the work directory %s: %s", work, strerror(errno));
        goto out;
    }
    if (proc_stopped() || (!opt->refit && build_kernels(&r, work, harness) != 0))
        goto out;
    r.res = calloc(r.ks.n + 1, sizeof *r.res);
    if (!r.res)
        abort();
    classes = path_join(work, "classes");
    if (asprintf(&cp, "%s:%s", harness, classes) < 0)
        abort();
    note("%zu kernels (%s); counting with %d parallel JVMs", r.ks.n,
         opt->kernels ? "quick subset and --kernels" : opt->quick ? "quick subset" : "full set", opt->jobs);
    if (proc_stopped() || count_kernels(&r, work, cp, agent) != 0)
        goto out;

    if (opt->refit)
        snprintf(r.isolation_note, sizeof r.isolation_note, "refit of the timings kept in %s", work);
    else
        check_isolation(&r, work, &prefix);
    if (proc_stopped())
        goto out;
    passes = opt->passes > 0 ? opt->passes : opt->quick ? 2 : 10;
    if (opt->refit) {
        /* as many passes as the earlier run kept, or the first --passes of
         * them; the rest stand for the passes a refused fit adds */
        int want = opt->passes;
        passes = 0;
        for (;;) {
            char *p;
            int there;
            if (asprintf(&p, "%s/time.%d.out", work, passes + 1) < 0)
                abort();
            there = file_exists(p);
            free(p);
            if (!there)
                break;
            passes++;
        }
        r.refit_kept = passes;
        if (want > 0 && want < passes)
            passes = want;
    }
    r.passes = passes;
    for (int p = 1; p <= passes; p++)
        if (time_pass(&r, &prefix, cp, rdtsc, p, passes, work) != 0) {
            if (proc_stopped())
                goto out;
            /* one retry: a JVM can fail to start on a loaded machine */
            note("retrying timing pass %d once", p);
            if (time_pass(&r, &prefix, cp, rdtsc, p, passes, work) != 0)
                goto out;
        }
    /* a fit that would price work at 0 is mostly noise in a few kernels'
     * timing (a lowest figure over two passes is not yet the kernel's):
     * more passes lower them towards it, so the table is refused only when
     * the work still comes out free after them (with --refit: the passes
     * kept beyond --passes) */
    r.extra_passes_left = opt->refit ? r.refit_kept - passes : opt->quick ? 4 : 3;
    for (size_t k = 0; k < r.ks.n; k++)
        if (r.res[k].ok && r.res[k].cycles <= 0) {
            note("warning: kernel %s was not timed", r.ks.v[k].name);
            r.res[k].ok = 0;
        } else if (r.res[k].ok && opt->jit && r.res[k].cycles < JIT_DELETED_CYCLES) {
            /* the fit weighs each kernel by 1/measured: one near 0 would pin every price to 0 */
            note("kernel %s: %.2f cycles per iteration, the compiler deleted its work: not fitted",
                 r.ks.v[k].name, r.res[k].cycles);
            r.res[k].ok = 0;
        }

    if (proc_stopped())
        goto out;
    while (fit_and_predict(&r) != 0) {
        if (proc_stopped() || r.extra_passes_left-- <= 0)
            goto out;
        r.passes++;
        r.passes_added++;
        if (time_pass(&r, &prefix, cp, rdtsc, r.passes, r.passes, work) != 0)
            goto out;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (proc_stopped() || write_outputs(&r, work) != 0)
        goto out;
    note("fit R^2 %.4f over %zu kernels; held out %zu: median error %.1f%%, worst %.1f%% (%s)",
         r.fit.r2, r.n_train, r.n_holdout, 100 * r.holdout_median, 100 * r.holdout_worst,
         r.holdout_worst_name);
    note("wrote %s and %s in %.0f s%s", opt->out, opt->report, r.seconds,
         r.isolated ? "" : " (not isolated)");
    rc = 0;
out:
    if (proc_stopped())
        note("stopped by %s", signal_name(proc_stopped()));
    /* a temporary work directory goes, after a failure and a stop by a
     * signal too: --work keeps the files the messages above name */
    if (work_tmp) {
        remove_tree(work_tmp);
        if (rc != 0)
            note("removed the temporary work directory %s; run with --work DIR to keep its files", work_tmp);
        free(work_tmp);
    }
    argv_free(&prefix);
    for (size_t k = 0; r.res && k < r.ks.n; k++) {
        histo_free(&r.res[k].iter);
        free(r.res[k].x);
    }
    free(r.res);
    kernels_free(&r.ks);
    fit_free(&r.fit);
    model_free(&r.m);
    free(agent);
    free(rdtsc);
    free(harness);
    free(time_class);
    free(classes);
    free(cp);
    return rc;
}
