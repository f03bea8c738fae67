/*
 * status.c - the one table that maps status words to exit codes.
 *
 * Codes 3..6 and 8..10 are outcomes of the student's program (the class or
 * method was not there, not run, not run to the end, the program failed, an
 * exception escaped the method, a limit stopped it); 7 is input the scorer
 * refuses; 70 (EX_SOFTWARE) is a fault of the tooling itself.
 * class_not_found (the class path or main class is missing, decided by
 * scripts/get_score.sh) shares 3 with class_not_loaded; a future "timeout"
 * belongs with the limits at 10. Keep docs/cost-table.md in step with this table.
 */
#include "status.h"

#include <string.h>

static const struct {
    psf_status st;
    const char *word;
    int exit_code;
    int in_profile;   /* may be written by the agent as <psf-profile status> */
} status_table[] = {
    { ST_OK,                "ok",               0,  1 },
    { ST_USAGE,             "usage",            2,  0 },
    { ST_CLASS_NOT_LOADED,  "class_not_loaded", 3,  1 },
    { ST_METHOD_NOT_FOUND,  "method_not_found", 4,  1 },
    { ST_AMBIGUOUS_METHOD,  "ambiguous_method", 4,  1 },
    { ST_NOT_INVOKED,       "not_invoked",      5,  1 },
    { ST_INCOMPLETE,        "incomplete",       6,  1 },
    { ST_EXIT_IN_METHOD,    "exit_in_method",   6,  1 },
    { ST_HALT_IN_METHOD,    "halt_in_method",   6,  1 },
    { ST_BAD_INPUT,         "bad_input",        7,  0 },
    { ST_CLASS_NOT_FOUND,   "class_not_found",  3,  0 },
    { ST_PROGRAM_FAILED,    "program_failed",   8,  0 },
    { ST_EXCEPTION,         "exception",        9,  1 },
    { ST_STACK_OVERFLOW,    "stack_overflow",   9,  1 },
    { ST_OUT_OF_MEMORY,     "out_of_memory",    9,  1 },
    { ST_BYTECODE_LIMIT,    "bytecode_limit",   10, 1 },
    { ST_THREAD_LIMIT,      "thread_limit",     10, 1 },
    { ST_AGENT_ERROR,       "agent_error",      70, 1 },
    { ST_INTERNAL_ERROR,    "internal_error",   70, 0 },
};

#define N_STATUS (sizeof status_table / sizeof status_table[0])

const char *status_word(psf_status st)
{
    for (unsigned i = 0; i < N_STATUS; i++)
        if (status_table[i].st == st)
            return status_table[i].word;
    return "unknown";
}

psf_status status_from_word(const char *word)
{
    for (unsigned i = 0; word && i < N_STATUS; i++)
        if (strcmp(status_table[i].word, word) == 0)
            return status_table[i].st;
    return ST_UNKNOWN;
}

int status_exit_code(psf_status st)
{
    for (unsigned i = 0; i < N_STATUS; i++)
        if (status_table[i].st == st)
            return status_table[i].exit_code;
    return 70;
}

int status_in_profile(psf_status st)
{
    for (unsigned i = 0; i < N_STATUS; i++)
        if (status_table[i].st == st)
            return status_table[i].in_profile;
    return 0;
}
