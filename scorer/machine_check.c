/*
 * machine_check.c - compare a calibrated table's machine with this one
 * (machine_check.h).
 */
#include "machine_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void note(char (*list)[MC_NOTE_LEN], size_t *n, const char *fmt, ...)
{
    va_list ap;
    if (*n >= MC_MAX_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(list[*n], MC_NOTE_LEN, fmt, ap);
    va_end(ap);
    (*n)++;
}

/* One numeric CPU field: compared when both sides know it. Returns 1 when compared. */
static int cpu_field(machine_check *out, const char *what, long table, long here)
{
    if (table < 0 || here < 0) {
        note(out->unchecked, &out->n_unchecked, "cpu %s: %s", what,
             table < 0 ? "the table does not record it" : "this machine does not report it");
        return 0;
    }
    if (table != here)
        note(out->differences, &out->n_differences, "cpu %s %ld in the table, %ld here", what, table, here);
    return 1;
}

/* A rate in MHz, rounded, for messages that stay the same from run to run. */
static unsigned long long mhz(uint64_t hz)
{
    return (unsigned long long)((hz + 500000) / 1000000);
}

void machine_check_table(const cost_table *t, const machine_here *here, machine_check *out)
{
    int family, model;

    memset(out, 0, sizeof *out);
    if (t->builtin || !t->calibrated)
        return;

    if (!t->cpu_vendor || !here->cpu.vendor[0])
        note(out->unchecked, &out->n_unchecked, "cpu vendor: %s",
             !t->cpu_vendor ? "the table does not record it" : "this machine does not report it");
    else if (strcmp(t->cpu_vendor, here->cpu.vendor) != 0)
        note(out->differences, &out->n_differences, "cpu vendor %s in the table, %s here",
             t->cpu_vendor, here->cpu.vendor);
    family = cpu_field(out, "family", t->cpu_family, here->cpu.family);
    model = cpu_field(out, "model", t->cpu_model_number, here->cpu.model);
    cpu_field(out, "stepping", t->cpu_stepping, here->cpu.stepping);

    if (!t->tsc_hz || !here->tsc_hz) {
        note(out->unchecked, &out->n_unchecked, "TSC rate: %s",
             !t->tsc_hz ? "the table does not record it" : "could not be measured here");
    } else {
        double ratio = (double)here->tsc_hz / (double)t->tsc_hz;
        if (ratio > 1 + MC_TSC_TOLERANCE || ratio < 1 - MC_TSC_TOLERANCE)
            note(out->differences, &out->n_differences, "TSC %llu MHz in the table, %llu MHz here",
                 mhz(t->tsc_hz), mhz(here->tsc_hz));
    }

    if (!t->jdk_version || !here->jdk)
        note(out->unchecked, &out->n_unchecked, "JDK: %s",
             !t->jdk_version ? "the table does not record it" : "the profile does not name its JVM");
    else if (strcmp(t->jdk_version, here->jdk) != 0)
        note(out->differences, &out->n_differences, "JDK %s in the table, %s here", t->jdk_version, here->jdk);

    if (out->n_differences)
        out->verdict = MC_DIFFERS;
    else if (!family || !model)
        out->verdict = MC_UNKNOWN;
    else
        out->verdict = MC_MATCHES;
}

char *machine_check_reasons(const machine_check *mc, char *buf, size_t n)
{
    const char (*list)[MC_NOTE_LEN] = NULL;
    size_t count = 0, used = 0;

    if (!n)
        return buf;
    buf[0] = '\0';
    if (mc->verdict == MC_DIFFERS) {
        list = mc->differences;
        count = mc->n_differences;
    } else if (mc->verdict == MC_UNKNOWN) {
        list = mc->unchecked;
        count = mc->n_unchecked;
    }
    for (size_t i = 0; i < count && used + 1 < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? "; " : "", list[i]);
        if (w < 0)
            break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
    }
    return buf;
}
