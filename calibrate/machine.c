/*
 * machine.c - CPU model, TSC flags and rate (machine.h).
 */
#include "machine.h"
#include "tsc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


void machine_cpu_model(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[1024];
    snprintf(buf, cap, "unknown");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *v = strchr(line, ':');
            if (v) {
                v++;
                v += strspn(v, " \t");
                v[strcspn(v, "\n")] = '\0';
                snprintf(buf, cap, "%s", v);
            }
            break;
        }
    }
    fclose(f);
}

int machine_has_cpu_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int found = 0;
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *save = NULL, *tok;
        if (strncmp(line, "flags", 5) != 0)
            continue;
        for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n", &save); tok;
             tok = strtok_r(NULL, " \t\n", &save))
            if (strcmp(tok, flag) == 0) {
                found = 1;
                break;
            }
        break;
    }
    fclose(f);
    return found;
}

static double now_raw(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

uint64_t machine_tsc_hz(int reps, int interval_ms, double *spread)
{
    double *hz;
    double med;
    if (reps < 1)
        reps = 1;
    hz = calloc((size_t)reps, sizeof *hz);
    if (!hz)
        return 0;
    for (int r = 0; r < reps; r++) {
        struct timespec nap = { interval_ms / 1000, (long)(interval_ms % 1000) * 1000000L };
        double t0 = now_raw();
        uint64_t c0 = tsc_read();
        double t1;
        uint64_t c1;
        nanosleep(&nap, NULL);
        t1 = now_raw();
        c1 = tsc_read();
        hz[r] = (double)(c1 - c0) / (t1 - t0);
    }
    qsort(hz, (size_t)reps, sizeof *hz, cmp_double);
    med = hz[reps / 2];
    if (spread)
        *spread = med > 0 ? (hz[reps - 1] - hz[0]) / med : 0;
    free(hz);
    return (uint64_t)(med + 0.5);
}

void machine_utc_now(char *buf, size_t cap)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
