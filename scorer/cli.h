/*
 * cli.h - the psf-score command line, parsed once into a struct.
 *
 *   psf-score [--costs FILE] [--costs-sha256 HEX] [--unit UNIT] [--json]
 *             [--explain] [--top N] [--with-overhead] [--score-only] PROFILE
 *   psf-score --rank [--costs FILE] [--costs-sha256 HEX] [--unit UNIT]
 *             [--with-overhead] [--format text|csv|json|html] [--report-links PREFIX]
 *             [--failed LABEL=STATUS:MESSAGE ...] LABEL=PROFILE ...
 *   psf-score --status-json STATUS MESSAGE
 * and, with a single PROFILE or --status-json, a JUnit file and a report:
 *   --junit FILE [--max-score N | --max-ratio R --compare PROFILE] [--report FILE.html]
 *   [--label LABEL] [--method SPEC]
 *   psf-score --check-table [--costs FILE] [--compare PROFILE]
 *   psf-score --sign --key-file KEY --submission FIELDS PROFILE
 *   psf-score --signed-copy SIGNED --key-file KEY --submission FIELDS [score options] PROFILE
 *   psf-score --verify [--key-file KEY] [--json] FILE ...
 *   psf-score --init-key --key-file KEY
 *   psf-score --measure-tsc
 *   psf-score --submission-digests --classpath CP --main CLASS --method SPEC --jdk JAVA [-- ARG...]
 *   psf-score --compare-output [--ignore-trailing-space] EXPECTED ACTUAL
 *   psf-score --batch [N merge|pass|drop ARG1 ... ARGN]...   (first: main.c, batch.h)
 *   psf-score --help
 */
#ifndef PSF_CLI_H
#define PSF_CLI_H

#include <stdint.h>

#include "err.h"

typedef enum run_mode { MODE_SCORE, MODE_RANK, MODE_STATUS_JSON, MODE_STATUS_TABLE, MODE_HELP,
                        MODE_CHECK_TABLE, MODE_SIGN, MODE_VERIFY, MODE_INIT_KEY, MODE_MEASURE_TSC,
                        MODE_SUBMISSION_DIGESTS, MODE_COMPARE_OUTPUT } run_mode;
typedef enum out_format { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_HTML } out_format;

typedef struct options {
    run_mode mode;              /* MODE_SCORE unless --rank, --status-json or --help */
    const char *costs;          /* --costs FILE; NULL: the built-in table (opcodes 1, rest 0) */
    char costs_sha256[65];      /* --costs-sha256, lowercased; "" when not given */
    const char *unit;           /* --unit: the table's unit must be this; NULL: any */
    out_format format;          /* --json or --format; FMT_TEXT by default */
    int explain;                /* --explain */
    int with_overhead;          /* --with-overhead: add the overhead bucket */
    int score_only;             /* --score-only: print only the score */
    unsigned long top;          /* --top N: rows per explain list; 10 by default; 0 = all */
    const char *status_word;    /* --status-json STATUS */
    const char *status_message; /* --status-json ... MESSAGE */
    const char *report_links;   /* --report-links PREFIX: link each label to PREFIX<label>.html */
    char **failed;              /* --failed LABEL=STATUS:MESSAGE (borrowed from argv) */
    int n_failed;
    const char *junit;          /* --junit FILE: also write a JUnit XML report there */
    int has_max_score;          /* --max-score given */
    uint64_t max_score;         /* --max-score N: the budget in whole units */
    int has_max_ratio;          /* --max-ratio given */
    uint64_t max_ratio_micro;   /* --max-ratio R in millionths (1.5 -> 1500000) */
    const char *compare;        /* --compare PROFILE: the reference for --max-ratio */
    const char *report;         /* --report FILE: also write the student report (HTML) there */
    const char *label;          /* --label: the submission's name (JUnit report, student report) */
    const char *sources;        /* --sources DIR: the submission's .java files, for the report's lines */
    const char *method;         /* --method: the test case's name when no profile names it;
                                 * with --submission-digests, the submission's method spec */
    const char *classpath;      /* --classpath (--submission-digests): resolved entries, ':'-separated */
    const char *main_class;     /* --main (--submission-digests): the main class */
    const char *jdk;            /* --jdk (--submission-digests): the java launcher's resolved path */
    const char *profile_name;   /* --profile-name: the profile's name in the output; NULL: its path */
    int profile_unnamed;        /* --no-profile-name: the output names no profile (none is kept) */
    const char *fallback;       /* --fallback REASON: why the fast engine fell back (get_score.sh); NULL: it did not */
    const char *key_file;       /* --key-file: the signing key; NULL: $PSF_KEY_FILE or none */
    const char *submission;     /* --submission FIELDS (--sign, --signed-copy): what identifies the submission */
    const char *signed_copy;    /* --signed-copy FILE: PROFILE signed into FILE, and FILE scored; NULL: none */
    uint64_t tsc_hz;            /* --tsc-hz HZ: this machine's TSC rate, measured beforehand
                                 * (--measure-tsc); 0: measured when the output needs it */
    const char *judged_by;      /* --judged-by HOW: how get_score.sh judged the run's output
                                 * (expect_output, check, junit); NULL or "none": not judged.
                                 * A signed result's own judged_by field takes precedence. */
    int ignore_trailing_space;  /* --ignore-trailing-space (--compare-output) */
    int require_checked;        /* --require-checked (--rank): rows whose output was not judged are not ranked */
    char **args;                /* positional arguments (borrowed from argv) */
    int n_args;
} options;

/* Parse argv. On a usage error returns -1 with err status ST_USAGE; o->format
 * is still set when --json or --format json was seen, so the error can be
 * reported as JSON. */
int options_parse(options *o, int argc, char **argv, psf_err *err);

void options_free(options *o);

/* The usage text for --help. */
extern const char options_usage[];

#endif
