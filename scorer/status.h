/*
 * status.h - status words and psf-score exit codes, in one table.
 *
 * A status word names how a scoring attempt ended: the profile's own status
 * (ok, class_not_loaded, ...) or one that the scorer or scripts/get_score.sh
 * decides (usage, bad_input, program_failed, ...). Every exit code psf-score
 * returns comes from status_exit_code(); a new status (timeout, limits) is one
 * new row in status.c.
 */
#ifndef PSF_STATUS_H
#define PSF_STATUS_H

#include <stdio.h>

typedef enum psf_status {
    ST_OK = 0,
    ST_USAGE,
    ST_CLASS_NOT_LOADED,
    ST_METHOD_NOT_FOUND,
    ST_AMBIGUOUS_METHOD,
    ST_NOT_INVOKED,
    ST_INCOMPLETE,
    ST_EXIT_IN_METHOD,
    ST_HALT_IN_METHOD,
    ST_EXCEPTION,
    ST_STACK_OVERFLOW,
    ST_OUT_OF_MEMORY,
    ST_BYTECODE_LIMIT,
    ST_THREAD_LIMIT,
    ST_AGENT_ERROR,
    ST_BAD_INPUT,
    ST_CLASS_NOT_FOUND,
    ST_PROGRAM_FAILED,
    ST_INTERNAL_ERROR,
    ST_BAD_OPTIONS,
    ST_TIMEOUT,
    ST_DEADLOCK,
    ST_CRASHED,
    ST_OUTPUT_LIMIT,
    ST_UNSTABLE,
    ST_SANDBOX_UNAVAILABLE,
    ST_NO_MAIN,
    ST_BAD_CLASS_FILE,
    ST_JDK_NOT_FOUND,
    ST_HIDDEN_THREADS,
    ST_UNVERIFIED,
    ST_VIRTUAL_THREADS,
    ST_JDK_NOT_VERIFIED,
    ST_UNSCHEDULABLE,
    ST_FALLBACK,
    ST_HIDDEN_WORK,
    ST_WRONG_OUTPUT,
    ST_TESTS_FAILED,
    ST_NOT_JUDGED,
    ST_GC_DEPENDENT,
    ST_UNKNOWN          /* a word no row knows; exits like internal_error */
} psf_status;

/* The word of a status ("not_invoked"); "unknown" for ST_UNKNOWN. */
const char *status_word(psf_status st);

/* The status named by word, or ST_UNKNOWN. */
psf_status status_from_word(const char *word);

/* The process exit code for a status (0, 2..25, 70). */
int status_exit_code(psf_status st);

/* The meaning of a status as a phrase for a person ("an exception escaped
 * the method"); "an unknown status" for ST_UNKNOWN. */
const char *status_meaning(psf_status st);

/* Print the whole table (code, word, meaning), one row a line. */
void status_print_table(FILE *out);

/* 1 if the word may appear as a profile's status attribute. */
int status_in_profile(psf_status st);

#endif
