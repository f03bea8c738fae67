/*
 * main.c - psf-calibrate: measure a cost table for this machine.
 *
 * Parses the command line into calib_options and runs calibrate_run().
 * See docs/calibration.md.
 */
#define _GNU_SOURCE 1
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "calibrate.h"
#include "outpath.h"
#include "proc.h"

static void usage(FILE *f)
{
    fputs("Usage: psf-calibrate [--quick] [--no-isolate] [--jit] [--keys FILE] [--out FILE]\n"
          "                     [--report FILE] [--jobs N] [--passes N] [--work DIR]\n"
          "                     [--refit DIR] [--kernels NAME,...] [--max-left-out N]\n"
          "\n"
          "Measures what each bytecode, array allocation and priced native call costs\n"
          "on this machine (TSC cycles in -Xint) and writes a calibrated cost table.\n"
          "\n"
          "  --quick        a subset of kernels and shorter timing (under 2 minutes; CI)\n"
          "  --no-isolate   time without core isolation, without asking run_isolated.sh\n"
          "  --jit          an experiment: time the kernels with the JIT (no -Xint),\n"
          "                 each kernel's minimum after C2 compiled it (docs/fidelity.md)\n"
          "  --keys FILE    also calibrate these keys (one per line, as psf-score lists\n"
          "                 missing keys: invoke:..., array:..., new:...)\n"
          "  --kernels NAME,...  only the quick subset and these built-in kernels, with\n"
          "                 the full timing: prices for a few natives without timing\n"
          "                 every kernel (the quick subset prices their bytecodes)\n"
          "  --out FILE     the table to write (default: config/costs.xml)\n"
          "  --report FILE  the report (default: the table's name with -report.txt)\n"
          "                 (each a regular file or a new name, renamed over the path\n"
          "                 once written; /dev/null discards it)\n"
          "  --jobs N       parallel counting JVMs (default: online CPUs); timing is\n"
          "                 always one JVM at a time\n"
          "  --passes N     timing passes over all kernels (default 10, --quick 2);\n"
          "                 up to 3 more (--quick: 4) when the fit would price some\n"
          "                 work at 0; after them, see --max-left-out\n"
          "  --max-left-out N  the most natives and array types left out of the table\n"
          "                 (scores that use them approximate) when their kernels\n"
          "                 still show no work for them after the added passes;\n"
          "                 one more refuses the table (default 3; 0: refuse at once)\n"
          "  --work DIR     keep generated kernels, profiles, timings and logs in DIR\n"
          "                 (default: a directory under $TMPDIR, else /tmp, removed\n"
          "                 at the end, also when the run fails or a signal stops it)\n"
          "  --refit DIR    fit again from the counts and timings a --work DIR run kept\n"
          "                 (no counting, no timing: for trying model changes); with\n"
          "                 --passes N, the first N passes, the rest as added passes\n"
          "  -h, --help     this text\n"
          "\n"
          "Needs build/libpsfagent.so, build/libpsfrdtsc.so and build/calibrate/harness\n"
          "(run make). java and javac come from JAVA_HOME, else from PATH.\n"
          "Exit: 0 written, 1 failed, 2 usage.\n", f);
}

/* dirname of /proc/self/exe into buf. */
static void exe_dir(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    char *slash;
    if (n <= 0) {
        snprintf(buf, cap, ".");
        return;
    }
    buf[n] = '\0';
    slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
}

int main(int argc, char **argv)
{
    calib_options opt;
    char build[PATH_MAX], root[PATH_MAX + 8], out[PATH_MAX + 32], report[PATH_MAX + 32];
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int rc;

    memset(&opt, 0, sizeof opt);
    opt.jobs = ncpu > 0 ? (int)(ncpu > 8 ? 8 : ncpu) : 1;
    opt.max_left_out = UNPRICED_MAX;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--quick") == 0) {
            opt.quick = 1;
        } else if (strcmp(a, "--no-isolate") == 0) {
            opt.no_isolate = 1;
        } else if (strcmp(a, "--jit") == 0) {
            opt.jit = 1;
        } else if (strcmp(a, "--keys") == 0 && has_value) {
            opt.keys_file = argv[++i];
        } else if (strcmp(a, "--kernels") == 0 && has_value && *argv[i + 1]) {
            opt.kernels = argv[++i];
        } else if (strcmp(a, "--out") == 0 && has_value) {
            opt.out = argv[++i];
        } else if (strcmp(a, "--report") == 0 && has_value) {
            opt.report = argv[++i];
        } else if (strcmp(a, "--work") == 0 && has_value) {
            opt.work = argv[++i];
        } else if (strcmp(a, "--refit") == 0 && has_value) {
            opt.work = argv[++i];
            opt.refit = 1;
        } else if ((strcmp(a, "--jobs") == 0 || strcmp(a, "--passes") == 0) && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 64) {
                fprintf(stderr, "psf-calibrate: %s takes a number from 1 to 64\n", a);
                return 2;
            }
            if (a[2] == 'j')
                opt.jobs = (int)v;
            else
                opt.passes = (int)v;
        } else if (strcmp(a, "--max-left-out") == 0 && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || v < 0 || v > 64) {
                fprintf(stderr, "psf-calibrate: %s takes a number from 0 to 64\n", a);
                return 2;
            }
            opt.max_left_out = (int)v;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "psf-calibrate: unknown option or missing value: '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }

    /* build/ is where the binary is; the repository root is its parent
     * (PSF_BUILD and PSF_ROOT override both). */
    if (getenv("PSF_BUILD"))
        snprintf(build, sizeof build, "%s", getenv("PSF_BUILD"));
    else
        exe_dir(build, sizeof build);
    {
        /* absolute: the JVM wants an absolute library path, and the JVMs
         * do not run in this directory's terms */
        char abs[PATH_MAX];
        if (realpath(build, abs))
            snprintf(build, sizeof build, "%s", abs);
    }
    if (getenv("PSF_ROOT"))
        snprintf(root, sizeof root, "%s", getenv("PSF_ROOT"));
    else
        snprintf(root, sizeof root, "%s/..", build);
    if (!opt.out) {
        snprintf(out, sizeof out, "%s/config/costs.xml", root);
        opt.out = out;
    }
    if (!opt.report) {
        size_t l = strlen(opt.out);
        if (l > 4 && strcmp(opt.out + l - 4, ".xml") == 0)
            snprintf(report, sizeof report, "%.*s-report.txt", (int)(l - 4), opt.out);
        else
            snprintf(report, sizeof report, "%s-report.txt", opt.out);
        opt.report = report;
    }
    {
        /* refused now rather than after the minutes the run takes */
        char msg[PATH_MAX + 160];
        if (outpath_check("--out", opt.out, msg, sizeof msg) != 0 ||
            outpath_check("--report", opt.report, msg, sizeof msg) != 0) {
            fprintf(stderr, "psf-calibrate: %s\n", msg);
            return 2;
        }
        if (!replace_discards(opt.out) && strcmp(opt.out, opt.report) == 0) {
            fprintf(stderr, "psf-calibrate: --out and --report name the same file '%s'\n", opt.out);
            return 2;
        }
    }
    opt.build = build;
    opt.root = root;
    opt.java_home = getenv("JAVA_HOME") && *getenv("JAVA_HOME") ? getenv("JAVA_HOME") : NULL;

    LIBXML_TEST_VERSION
    /* SIGINT, SIGTERM, SIGHUP: the run stops its JVMs, removes its
     * temporary work directory and ends by the signal (proc.h) */
    proc_stop_on_signals();
    rc = calibrate_run(&opt);
    xmlCleanupParser();
    proc_reraise();
    return rc;
}
