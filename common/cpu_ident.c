/*
 * cpu_ident.c - the CPU's identity from /proc/cpuinfo and the TSC's rate
 * (cpu_ident.h).
 */
#include "cpu_ident.h"
#include "tsc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The value of a "key<tabs>: value" line into buf, trimmed; 0 if line is not key's. */
static int field(const char *line, size_t len, const char *key, char *buf, size_t cap)
{
    size_t kl = strlen(key), i = kl, vl;
    const char *v;

    if (len < kl || strncmp(line, key, kl) != 0)
        return 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= len || line[i] != ':')
        return 0;
    i++;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    v = line + i;
    vl = len - i;
    while (vl > 0 && (v[vl - 1] == ' ' || v[vl - 1] == '\t' || v[vl - 1] == '\r'))
        vl--;
    if (vl >= cap)
        vl = cap - 1;
    memcpy(buf, v, vl);
    buf[vl] = '\0';
    return 1;
}

/* s into buf, cut to cap - 1 bytes. */
static void copy(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* A decimal number of at most 9 digits, or -1. */
static long decimal(const char *s)
{
    long v = 0;
    size_t n = 0;
    if (!*s)
        return -1;
    for (; *s; s++, n++) {
        if (*s < '0' || *s > '9' || n >= 9)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

void cpu_ident_parse(const char *cpuinfo, cpu_ident *id)
{
    const char *line = cpuinfo;
    int seen_processor = 0;

    memset(id, 0, sizeof *id);
    id->family = id->model = id->stepping = -1;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char v[256];

        if (field(line, len, "processor", v, sizeof v)) {
            if (seen_processor)
                break;      /* the second CPU's block: the first one's fields are enough */
            seen_processor = 1;
        } else if (field(line, len, "vendor_id", v, sizeof v)) {
            copy(id->vendor, sizeof id->vendor, v);
        } else if (field(line, len, "cpu family", v, sizeof v)) {
            id->family = decimal(v);
        } else if (field(line, len, "model name", v, sizeof v)) {
            copy(id->model_name, sizeof id->model_name, v);
        } else if (field(line, len, "model", v, sizeof v)) {
            id->model = decimal(v);
        } else if (field(line, len, "stepping", v, sizeof v)) {
            id->stepping = decimal(v);
        }
        line = nl ? nl + 1 : NULL;
    }
}

void cpu_ident_read(cpu_ident *id)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char *text = NULL;
    size_t len = 0, cap = 0;
    char chunk[4096];
    size_t n;

    if (!f) {
        cpu_ident_parse("", id);
        return;
    }
    /* the first block is a few kB; 64 kB is plenty and bounds the read */
    while (len < 65536 && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            char *t;
            cap = (len + n + 1) * 2;
            t = realloc(text, cap);
            if (!t)
                break;
            text = t;
        }
        memcpy(text + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    cpu_ident_parse(text ? text : "", id);
    free(text);
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

/* A time-stamp counter reading and the time it was taken, bracketed by two
 * clock reads: of a few tries, the one whose clocks lie closest together,
 * so that a preemption between a clock read and the counter read (which
 * would shift a rate measured over a few milliseconds by hundreds of ppm,
 * enough to round a MHz figure the other way) is not taken. */
static void tsc_sample(double *t, uint64_t *c)
{
    double best = -1;
    for (int k = 0; k < 8; k++) {
        double a = now_raw();
        uint64_t x = tsc_read();
        double b = now_raw();
        if (best < 0 || b - a < best) {
            best = b - a;
            *t = (a + b) / 2;
            *c = x;
        }
    }
}

uint64_t cpu_tsc_hz(int reps, int interval_ms, double *spread)
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
        double t0, t1;
        uint64_t c0, c1;
        tsc_sample(&t0, &c0);
        nanosleep(&nap, NULL);
        tsc_sample(&t1, &c1);
        hz[r] = (double)(c1 - c0) / (t1 - t0);
    }
    qsort(hz, (size_t)reps, sizeof *hz, cmp_double);
    med = hz[reps / 2];
    if (spread)
        *spread = med > 0 ? (hz[reps - 1] - hz[0]) / med : 0;
    free(hz);
    return (uint64_t)(med + 0.5);
}
