/*
 * status.c - the one table that maps status words to exit codes.
 *
 * Every way a scoring attempt can end has its own word and its own exit
 * code, so a grading server can tell them apart without parsing messages:
 * 3..6 the class or method was not there or not run to the end, 8..25, 27,
 * 29 and 31 the program failed in a particular way, a limit stopped it or it
 * did what cannot be counted, 32 and 33 its output or its tests judged it
 * wrong, 34 a result ranked only when judged was not, 35 the counted code
 * depended on the garbage collector, 30 the fast engine asks for the step engine (get_score.sh runs
 * that, so it never ends with it), 2, 7, 26 and 28 input that is refused, 70
 * (EX_SOFTWARE) a fault of PSF itself. The agent writes the words marked
 * in_profile; scripts/get_score.sh decides the others.
 * `psf-score --status-table` prints this table, and the README copies it.
 */
#include "status.h"

#include <string.h>

static const struct {
    psf_status st;
    const char *word;
    int exit_code;
    int in_profile;   /* may be written by the agent as <psf-profile status> */
    const char *meaning;
} status_table[] = {
    { ST_OK,                  "ok",                  0,  1, "scored" },
    { ST_USAGE,               "usage",               2,  0, "bad command line" },
    { ST_BAD_OPTIONS,         "bad_options",         2,  1, "the agent refused its options (e.g. a method spec that does not parse)" },
    { ST_CLASS_NOT_LOADED,    "class_not_loaded",    3,  1, "the method's class was never loaded" },
    { ST_CLASS_NOT_FOUND,     "class_not_found",     3,  0, "a class path entry or the main class is missing" },
    { ST_METHOD_NOT_FOUND,    "method_not_found",    4,  1, "the class has no such method (or it is native or abstract)" },
    { ST_AMBIGUOUS_METHOD,    "ambiguous_method",    4,  1, "a bare name with several overloads; add a descriptor" },
    { ST_NOT_INVOKED,         "not_invoked",         5,  1, "the method exists but was never called" },
    { ST_INCOMPLETE,          "incomplete",          6,  1, "another thread ended the JVM while the method ran" },
    { ST_BAD_INPUT,           "bad_input",           7,  0, "a cost table or profile is missing, unreadable, invalid or of another version" },
    { ST_PROGRAM_FAILED,      "program_failed",      8,  0, "the program failed (non-zero exit, no result)" },
    { ST_EXCEPTION,           "exception",           9,  1, "an exception escaped the method" },
    { ST_STACK_OVERFLOW,      "stack_overflow",      10, 1, "the method's calls nested past the stack every engine allows, or a StackOverflowError was thrown inside it" },
    { ST_OUT_OF_MEMORY,       "out_of_memory",       11, 1, "an OutOfMemoryError escaped the method" },
    { ST_EXIT_IN_METHOD,      "exit_in_method",      12, 1, "the method called System.exit" },
    { ST_HALT_IN_METHOD,      "halt_in_method",      13, 1, "the method called Runtime.halt" },
    { ST_TIMEOUT,             "timeout",             14, 0, "the run took longer than --timeout" },
    { ST_DEADLOCK,            "deadlock",            15, 0, "the run timed out in a Java-level deadlock" },
    { ST_CRASHED,             "crashed",             16, 0, "the JVM crashed (killed by a signal)" },
    { ST_BYTECODE_LIMIT,      "bytecode_limit",      17, 1, "the method executed more than --max-bytecodes" },
    { ST_THREAD_LIMIT,        "thread_limit",        18, 1, "the method started more than --max-threads threads" },
    { ST_OUTPUT_LIMIT,        "output_limit",        19, 0, "the program printed more than --max-output bytes" },
    { ST_UNSTABLE,            "unstable",            20, 0, "--runs gave different scores" },
    { ST_SANDBOX_UNAVAILABLE, "sandbox_unavailable", 21, 0, "--sandbox require, but bubblewrap does not work here" },
    { ST_NO_MAIN,             "no_main",             22, 0, "the main class has no main method" },
    { ST_BAD_CLASS_FILE,      "bad_class_file",      23, 0, "a class file is corrupt, truncated or too new" },
    { ST_JDK_NOT_FOUND,       "jdk_not_found",       24, 0, "no java at JAVA_HOME or on PATH, or one of a JDK other than 17, 21 or 25" },
    { ST_HIDDEN_THREADS,      "hidden_threads",      25, 1, "a thread the method did not start worked for it outside the program's code (uncounted)" },
    { ST_UNVERIFIED,          "unverified",          26, 0, "a profile or result is unsigned, edited or signed with another key" },
    { ST_VIRTUAL_THREADS,     "virtual_threads",     27, 1, "a virtual thread (JDK 21+) ran while the method ran: its work is not counted" },
    { ST_JDK_NOT_VERIFIED,    "jdk_not_verified",    28, 0, "a supported JDK that PSF's CI does not check (21) and that has not passed scripts/self_test.sh --full here" },
    { ST_UNSCHEDULABLE,       "unschedulable",       29, 1, "a thread of a method that starts threads did I/O that waits for another thread (a pipe, a socket, a selector)" },
    { ST_FALLBACK,            "fallback",            30, 1, "the fast engine cannot count this run exactly (message: why); get_score.sh runs it again with the step engine" },
    { ST_HIDDEN_WORK,         "hidden_work",         31, 1, "the program's code ran where the JVM hides it from counting (linking a call site, a JDK initializer the JDK's code reached)" },
    { ST_WRONG_OUTPUT,        "wrong_output",        32, 0, "the program's output is not the expected one (--expect-output), its checker refused it (--check), or code other than main ended the JVM" },
    { ST_TESTS_FAILED,        "tests_failed",        33, 0, "a JUnit test failed or was aborted (the launcher's summary), the launcher printed no summary, or code other than it ended the JVM" },
    { ST_NOT_JUDGED,          "not_judged",          34, 0, "psf-score --rank --require-checked: the result's output was not judged in its scored run" },
    { ST_GC_DEPENDENT,        "gc_dependent",        35, 1, "counted code took a reference the garbage collector enqueued, or the collector cleared one of the program's references while counted code ran: its work depends on when the collector ran" },
    { ST_AGENT_ERROR,         "agent_error",         70, 1, "the agent failed (a JVMTI call, memory)" },
    { ST_INTERNAL_ERROR,      "internal_error",      70, 0, "a fault of PSF itself" },
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

const char *status_meaning(psf_status st)
{
    for (unsigned i = 0; i < N_STATUS; i++)
        if (status_table[i].st == st)
            return status_table[i].meaning;
    return "an unknown status";
}

void status_print_table(FILE *out)
{
    for (unsigned i = 0; i < N_STATUS; i++)
        fprintf(out, "  %3d  %-20s %s\n", status_table[i].exit_code, status_table[i].word, status_table[i].meaning);
}
