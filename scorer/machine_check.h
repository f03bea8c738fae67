/*
 * machine_check.h - does a calibrated table belong to this machine?
 *
 * A table's prices are TSC cycles measured on one CPU with one JDK, and its
 * predicted times hold for that CPU and JDK only; ranks of submissions
 * scored with one table on one machine do not depend on it (every one is
 * priced alike). The check compares what the table records (cpu_vendor,
 * cpu_family, cpu_model_number, cpu_stepping, tsc_hz, jdk_version) with the
 * machine psf-score runs on and the JDK that wrote the profile, and says
 * in words what differs. It only decides; output.c formats the result.
 */
#ifndef PSF_MACHINE_CHECK_H
#define PSF_MACHINE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "costs.h"
#include "cpu_ident.h"

#define MC_MAX_NOTES 8
#define MC_NOTE_LEN 256

/* A table's TSC rate and this machine's agree within this fraction. */
#define MC_TSC_TOLERANCE 0.01

/* The command that calibrates the machine psf-score runs on (docs/calibration.md). */
#define MC_CALIBRATE_COMMAND "scripts/calibrate_machine.sh"

typedef enum mc_verdict {
    MC_NOT_CHECKED = 0,     /* built-in or uncalibrated table: no time predicted, nothing to check */
    MC_MATCHES,             /* every recorded field equals this machine's */
    MC_DIFFERS,             /* some recorded field differs: differences[] says which */
    MC_UNKNOWN              /* nothing differs, but the table or this machine leaves the CPU unknown */
} mc_verdict;

/* This machine, as the caller found it. */
typedef struct machine_here {
    cpu_ident cpu;          /* cpu_ident_read() */
    uint64_t tsc_hz;        /* cpu_tsc_hz(); 0 when unknown */
    const char *jdk;        /* the profile's JVM version (java.vm.version); NULL when it has none */
} machine_here;

typedef struct machine_check {
    mc_verdict verdict;
    size_t n_differences;
    char differences[MC_MAX_NOTES][MC_NOTE_LEN];   /* "cpu family 25 in the table, 26 here" */
    size_t n_unchecked;
    char unchecked[MC_MAX_NOTES][MC_NOTE_LEN];     /* what could not be compared, and why */
} machine_check;

/*
 * Compare table t with this machine. A field is compared when both sides
 * know it: the CPU's vendor, family, model and stepping exactly, the TSC
 * rate within MC_TSC_TOLERANCE, the JDK version exactly. Fields one side
 * lacks are listed in unchecked[]. The verdict is MC_DIFFERS when anything
 * compared differs; else MC_UNKNOWN when the CPU's family and model could
 * not be compared (a table written without them, or no /proc/cpuinfo);
 * else MC_MATCHES. Built-in and uncalibrated tables: MC_NOT_CHECKED.
 */
void machine_check_table(const cost_table *t, const machine_here *here, machine_check *out);

/*
 * The notes behind a verdict in one line for a page: the differences
 * joined by "; " for MC_DIFFERS, what could not be compared for
 * MC_UNKNOWN, "" otherwise. Cut short (still terminated) when buf is too
 * small. Returns buf.
 */
char *machine_check_reasons(const machine_check *mc, char *buf, size_t n);

#endif
