/*
 * cli.c - command-line parsing (see cli.h).
 *
 * Every argument is read first, remembering the first problem; the problem
 * is reported only after parsing finishes, so flags such as --json that
 * decide how to report it are known.
 */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"

const char options_usage[] =
    "usage: psf-score [--costs FILE] [--costs-sha256 HEX] [--unit UNIT] [--json]\n"
    "                 [--explain] [--top N] [--with-overhead] [--score-only] PROFILE\n"
    "       psf-score --rank [--costs FILE] [--costs-sha256 HEX] [--unit UNIT]\n"
    "                 [--with-overhead] [--format text|csv|json|html] [--report-links PREFIX]\n"
    "                 [--failed LABEL=STATUS:MESSAGE ...] [--require-checked] LABEL=PROFILE ...\n"
    "       psf-score --status-json STATUS MESSAGE\n"
    "       psf-score --check-table [--costs FILE] [--costs-sha256 HEX] [--unit UNIT]\n"
    "                 [--compare PROFILE [--with-overhead]]\n"
    "       psf-score --sign --key-file KEY --submission FIELDS PROFILE > SIGNED\n"
    "       psf-score --signed-copy SIGNED --key-file KEY --submission FIELDS [--costs FILE ...] PROFILE\n"
    "       psf-score --verify [--key-file KEY] [--json] FILE ...\n"
    "       psf-score --init-key [--key-file KEY]\n"
    "       psf-score --measure-tsc\n"
    "       psf-score --submission-digests --classpath CP --main CLASS --method SPEC --jdk JAVA [-- ARG...]\n"
    "       psf-score --compare-output [--ignore-trailing-space] EXPECTED ACTUAL\n"
    "       psf-score --batch [--more] [N merge|pass|drop|files OUT ERR ARG1 ... ARGN]...\n"
    "  with one PROFILE or --status-json, also a JUnit XML report and a student report:\n"
    "       --junit FILE [--max-score N | --max-ratio R --compare PROFILE] [--label L] [--method SPEC]\n"
    "       --report FILE.html [--compare PROFILE] [--label L] [--sources DIR]\n"
    "\n"
    "Weights the bytecode counts of a PSF profile with a cost table and prints\n"
    "a score (lower is better). Without --costs every opcode costs 1, so the\n"
    "score is the number of work bytecodes. See docs/cost-table.md.\n"
    "\n"
    "  --costs FILE         cost table (XML, config/costs.xsd)\n"
    "  --costs-sha256 HEX   fail unless the table's SHA-256 is HEX\n"
    "  --unit UNIT          fail unless the table's unit is UNIT (bytecodes, cycles)\n"
    "  --json               one JSON object on stdout\n"
    "  --explain            the counts the table prices besides bytecodes, then the top\n"
    "                       methods, opcodes and dependency keys by contribution\n"
    "  --top N              rows per explain list (default 10, 0 = all)\n"
    "  --with-overhead      add the overhead bucket (class init, linkage) to the score\n"
    "  --score-only         print only the score (\"~\" first when approximate)\n"
    "  --profile-name NAME  call the profile NAME in the output (default: its path)\n"
    "  --no-profile-name    name no profile in the output (JSON: null): none is kept\n"
    "  --fallback REASON    say that the fast engine fell back to the step engine, and why\n"
    "  --check-table        load and validate the --costs table alone; print its sha256;\n"
    "                       with --compare, also load and score that reference as scoring would\n"
    "  --key-file KEY       the grading server's signing key (default: $PSF_KEY_FILE); with\n"
    "                       a key, profiles must carry its signature (see docs/trust-model.md)\n"
    "  --sign               print PROFILE with a signature line for --submission FIELDS\n"
    "                       (creates KEY, mode 0600, when it does not exist)\n"
    "  --signed-copy FILE   sign PROFILE as --sign does, into FILE, and score FILE (one process\n"
    "                       for both; a profile that cannot be signed is reported as --sign does)\n"
    "  --verify             check the signatures of profiles and JSON results\n"
    "  --init-key           create KEY when missing, check it, print its id\n"
    "  --measure-tsc        measure this machine's TSC rate (20 ms) and print it in Hz\n"
    "                       (0: none can be measured here)\n"
    "  --submission-digests print the digests that identify a submission, as the fields get_score.sh\n"
    "                       signs: its class path's contents (--classpath, resolved entries), --main,\n"
    "                       --method, the program's arguments after -- and the JDK (--jdk, the java\n"
    "                       launcher's resolved path; see docs/trust-model.md)\n"
    "  --compare-output     judge a program's output, file ACTUAL, against file EXPECTED: byte for\n"
    "                       byte, or with --ignore-trailing-space ignoring white space at line ends\n"
    "                       and blank lines at the end; exit 0 when equal, else wrong_output's\n"
    "                       code and the first differing line on stdout\n"
    "  --batch              several requests in one process, all at once: each N arguments, as\n"
    "                       psf-score would be called with them, and where its stderr goes (merge:\n"
    "                       into its answer, pass: psf-score's stderr, drop: nowhere); the answers\n"
    "                       in order on stdout, each its exit code, a newline, its output (NUL bytes\n"
    "                       left out) and a NUL byte; an empty answer: a request not started;\n"
    "                       files OUT ERR: its stdout and stderr to the files OUT and ERR (made\n"
    "                       or emptied first), no output in its answer. With --more, the requests\n"
    "                       run with stdin /dev/null, and then more are read on stdin, each word\n"
    "                       ended by a NUL byte, up to an empty word, and answered after them\n"
    "  --judged-by HOW      how the run's output was judged (expect_output, check, junit, none),\n"
    "                       for results without signed fields; a signed judged_by field decides\n"
    "  --require-checked    --rank: a row whose output was not judged in its scored run (no signed\n"
    "                       judged_by) is listed as not_judged, not ranked\n"
    "  --tsc-hz HZ          this machine's TSC rate, from --measure-tsc, for the comparison of a\n"
    "                       calibrated table with this machine (one PROFILE, or --rank --format\n"
    "                       html): no measuring while scoring\n"
    "  --rank               leaderboard of several profiles, one LABEL=PROFILE each\n"
    "  --format FMT         leaderboard as text, csv, json or html (one self-contained page)\n"
    "  --report-links P     html leaderboard: link each label to P<label>.html (its report)\n"
    "  --failed L=S:M       list submission L as failed with status word S and message M\n"
    "  --junit FILE         write a JUnit XML report: one test case, passed when scored\n"
    "                       and within the budget\n"
    "  --max-score N        the budget: at most N units\n"
    "  --max-ratio R        the budget: at most R times the score of --compare PROFILE\n"
    "  --compare PROFILE    the reference profile (e.g. the instructor's solution)\n"
    "  --report FILE        write the student report there: one self-contained HTML page\n"
    "                       (score, costly methods, the work in words, differences to --compare)\n"
    "  --sources DIR        the report shows each line of the submission's .java files under DIR\n"
    "                       with its share (a class pkg.A is read from DIR/pkg/A.java or DIR/A.java)\n"
    "  --label L            the submission's name in the JUnit report and the student report\n"
    "  --method SPEC        the test case's name when no profile names the method\n"
    "  --status-json S M    print {status, score: null, message} and exit with S's code\n"
    "  --status-table       print every status word with its exit code and meaning\n"
    "\n"
    "exit codes: every status word has its own; --status-table lists them\n"
    "(0 ok, 2 usage, 7 bad input, 70 internal error, 3..24 outcomes of the program)\n";

/* The value of an option: "--opt=value" or the next argument. */
static const char *value_of(const char *arg, const char *name, int argc, char **argv, int *i)
{
    size_t n = strlen(name);
    if (arg[n] == '=')
        return arg + n + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    return NULL;
}

/* 1 if arg is --name or --name=... */
static int is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* Keep the first error only. */
#define FAIL(...) do { if (!failed) { psf_fail(err, ST_USAGE, __VA_ARGS__); failed = 1; } } while (0)

int options_parse(options *o, int argc, char **argv, psf_err *err)
{
    int failed = 0, only_args = 0, rank = 0, status_json = 0, status_table = 0, help = 0, json = 0;
    int check_table = 0, sign = 0, verify = 0, init_key = 0, measure_tsc = 0, digests = 0, compare_output = 0;
    const char *format = NULL;

    memset(o, 0, sizeof *o);
    o->top = 10;
    o->args = xcalloc((size_t)argc + 1, sizeof *o->args);
    o->failed = xcalloc((size_t)argc + 1, sizeof *o->failed);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (only_args || a[0] != '-' || a[1] == '\0') {
            o->args[o->n_args++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            only_args = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            help = 1;
        } else if (strcmp(a, "--status-table") == 0) {
            status_table = 1;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--explain") == 0) {
            o->explain = 1;
        } else if (strcmp(a, "--with-overhead") == 0) {
            o->with_overhead = 1;
        } else if (strcmp(a, "--score-only") == 0) {
            o->score_only = 1;
        } else if (strcmp(a, "--rank") == 0) {
            rank = 1;
        } else if (strcmp(a, "--check-table") == 0) {
            check_table = 1;
        } else if (strcmp(a, "--sign") == 0) {
            sign = 1;
        } else if (strcmp(a, "--verify") == 0) {
            verify = 1;
        } else if (strcmp(a, "--init-key") == 0) {
            init_key = 1;
        } else if (strcmp(a, "--measure-tsc") == 0) {
            measure_tsc = 1;
        } else if (strcmp(a, "--submission-digests") == 0) {
            digests = 1;
        } else if (strcmp(a, "--compare-output") == 0) {
            compare_output = 1;
        } else if (strcmp(a, "--ignore-trailing-space") == 0) {
            o->ignore_trailing_space = 1;
        } else if (strcmp(a, "--require-checked") == 0) {
            o->require_checked = 1;
        } else if (is_opt(a, "--judged-by")) {
            v = value_of(a, "--judged-by", argc, argv, &i);
            if (!v || (strcmp(v, "expect_output") && strcmp(v, "check") && strcmp(v, "junit") && strcmp(v, "none")))
                FAIL("--judged-by needs expect_output, check, junit or none");
            else
                o->judged_by = v;
        } else if (is_opt(a, "--classpath")) {
            if (!(v = value_of(a, "--classpath", argc, argv, &i)) || !*v)
                FAIL("--classpath needs CP");
            else
                o->classpath = v;
        } else if (is_opt(a, "--main")) {
            if (!(v = value_of(a, "--main", argc, argv, &i)) || !*v)
                FAIL("--main needs a CLASS");
            else
                o->main_class = v;
        } else if (is_opt(a, "--jdk")) {
            if (!(v = value_of(a, "--jdk", argc, argv, &i)) || !*v)
                FAIL("--jdk needs the java launcher's path");
            else
                o->jdk = v;
        } else if (is_opt(a, "--tsc-hz")) {
            /* from 1 MHz to 100 GHz: a TSC rate, not a typo */
            v = value_of(a, "--tsc-hz", argc, argv, &i);
            if (!v || fixed_parse_u64(v, &o->tsc_hz) != 0 || o->tsc_hz < 1000000 ||
                o->tsc_hz > 100000000000ULL) {
                o->tsc_hz = 0;
                FAIL("--tsc-hz needs a rate in Hz from 1000000 to 100000000000");
            }
        } else if (is_opt(a, "--key-file")) {
            if (!(v = value_of(a, "--key-file", argc, argv, &i)) || !*v)
                FAIL("--key-file needs a FILE");
            else
                o->key_file = v;
        } else if (is_opt(a, "--submission")) {
            if (!(v = value_of(a, "--submission", argc, argv, &i)) || !*v)
                FAIL("--submission needs FIELDS");
            else
                o->submission = v;
        } else if (is_opt(a, "--signed-copy")) {
            if (!(v = value_of(a, "--signed-copy", argc, argv, &i)) || !*v)
                FAIL("--signed-copy needs a FILE");
            else
                o->signed_copy = v;
        } else if (is_opt(a, "--fallback")) {
            if (!(v = value_of(a, "--fallback", argc, argv, &i)) || !*v)
                FAIL("--fallback needs a REASON");
            else
                o->fallback = v;
        } else if (strcmp(a, "--no-profile-name") == 0) {
            o->profile_unnamed = 1;
        } else if (is_opt(a, "--profile-name")) {
            if (!(v = value_of(a, "--profile-name", argc, argv, &i)) || !*v)
                FAIL("--profile-name needs a NAME");
            else
                o->profile_name = v;
        } else if (strcmp(a, "--status-json") == 0) {
            /* The next two arguments are taken as they are, even if a
             * message starts with '-'. */
            status_json = 1;
            if (i + 2 < argc) {
                o->status_word = argv[i + 1];
                o->status_message = argv[i + 2];
                i += 2;
            } else {
                FAIL("--status-json needs STATUS and MESSAGE");
                i = argc;
            }
        } else if (is_opt(a, "--costs")) {
            if (!(v = value_of(a, "--costs", argc, argv, &i)) || !*v)
                FAIL("--costs needs a FILE");
            else
                o->costs = v;
        } else if (is_opt(a, "--costs-sha256")) {
            v = value_of(a, "--costs-sha256", argc, argv, &i);
            size_t n = v ? strlen(v) : 0, k;
            for (k = 0; k < n && isxdigit((unsigned char)v[k]); k++)
                o->costs_sha256[k] = (char)tolower((unsigned char)v[k]);
            if (n != 64 || k != 64) {
                o->costs_sha256[0] = '\0';
                FAIL("--costs-sha256 needs 64 hex digits");
            }
        } else if (is_opt(a, "--unit")) {
            if (!(v = value_of(a, "--unit", argc, argv, &i)) || !*v)
                FAIL("--unit needs a UNIT");
            else
                o->unit = v;
        } else if (is_opt(a, "--report-links")) {
            if (!(v = value_of(a, "--report-links", argc, argv, &i)))
                FAIL("--report-links needs a PREFIX");
            else
                o->report_links = v;
        } else if (is_opt(a, "--failed")) {
            v = value_of(a, "--failed", argc, argv, &i);
            const char *eq = v ? strchr(v, '=') : NULL;
            if (!eq || eq == v || !strchr(eq, ':') || strchr(eq, ':') == eq + 1)
                FAIL("--failed needs LABEL=STATUS:MESSAGE");
            else
                o->failed[o->n_failed++] = (char *)v;
        } else if (is_opt(a, "--junit")) {
            if (!(v = value_of(a, "--junit", argc, argv, &i)) || !*v)
                FAIL("--junit needs a FILE");
            else
                o->junit = v;
        } else if (is_opt(a, "--max-score")) {
            v = value_of(a, "--max-score", argc, argv, &i);
            if (!v || fixed_parse_u64(v, &o->max_score) != 0)
                FAIL("--max-score needs a whole number");
            else
                o->has_max_score = 1;
        } else if (is_opt(a, "--max-ratio")) {
            const char *why;
            v = value_of(a, "--max-ratio", argc, argv, &i);
            if (!v || fixed_parse_price(v, &o->max_ratio_micro, &why) != 0 || o->max_ratio_micro == 0)
                FAIL("--max-ratio needs a number above 0 with at most 6 decimals, such as 1.5");
            else
                o->has_max_ratio = 1;
        } else if (is_opt(a, "--compare")) {
            if (!(v = value_of(a, "--compare", argc, argv, &i)) || !*v)
                FAIL("--compare needs a PROFILE");
            else
                o->compare = v;
        } else if (is_opt(a, "--report")) {
            if (!(v = value_of(a, "--report", argc, argv, &i)) || !*v)
                FAIL("--report needs a FILE");
            else
                o->report = v;
        } else if (is_opt(a, "--sources")) {
            if (!(v = value_of(a, "--sources", argc, argv, &i)) || !*v)
                FAIL("--sources needs a DIR");
            else
                o->sources = v;
        } else if (is_opt(a, "--label")) {
            if (!(v = value_of(a, "--label", argc, argv, &i)) || !*v)
                FAIL("--label needs a name");
            else
                o->label = v;
        } else if (is_opt(a, "--method")) {
            if (!(v = value_of(a, "--method", argc, argv, &i)) || !*v)
                FAIL("--method needs a SPEC");
            else
                o->method = v;
        } else if (is_opt(a, "--top")) {
            uint64_t n;
            v = value_of(a, "--top", argc, argv, &i);
            if (!v || fixed_parse_u64(v, &n) != 0 || n > 1000000)
                FAIL("--top needs a number from 0 to 1000000");
            else
                o->top = (unsigned long)n;
        } else if (is_opt(a, "--format")) {
            format = value_of(a, "--format", argc, argv, &i);
            if (!format || (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "json") &&
                            strcmp(format, "html")))
                FAIL("--format needs text, csv, json or html");
        } else {
            FAIL("unknown option %.100s", a);
        }
    }

    if (json || (format && strcmp(format, "json") == 0))
        o->format = FMT_JSON;
    else if (format && strcmp(format, "csv") == 0)
        o->format = FMT_CSV;
    else if (format && strcmp(format, "html") == 0)
        o->format = FMT_HTML;
    if (json && format && strcmp(format, "json") != 0)
        FAIL("--json and --format %s disagree", format);

    o->mode = help ? MODE_HELP : status_json ? MODE_STATUS_JSON : status_table ? MODE_STATUS_TABLE
            : rank ? MODE_RANK : check_table ? MODE_CHECK_TABLE : sign ? MODE_SIGN
            : verify ? MODE_VERIFY : init_key ? MODE_INIT_KEY : measure_tsc ? MODE_MEASURE_TSC
            : digests ? MODE_SUBMISSION_DIGESTS : compare_output ? MODE_COMPARE_OUTPUT : MODE_SCORE;
    if (help + status_json + status_table + rank + check_table + sign + verify + init_key + measure_tsc + digests +
        compare_output > 1)
        FAIL("--help, --rank, --check-table, --sign, --verify, --init-key, --measure-tsc, --submission-digests,"
             " --compare-output, --status-json and --status-table exclude each other");
    if (o->ignore_trailing_space && !compare_output)
        FAIL("--ignore-trailing-space applies to --compare-output");
    if (o->require_checked && !rank)
        FAIL("--require-checked applies to --rank");
    if (o->judged_by && o->mode != MODE_SCORE && o->mode != MODE_STATUS_JSON)
        FAIL("--judged-by applies to scoring one PROFILE and to --status-json");
    if ((o->classpath || o->main_class || o->jdk) && !digests)
        FAIL("--classpath, --main and --jdk apply to --submission-digests");
    if (o->tsc_hz && o->mode != MODE_SCORE && !(o->mode == MODE_RANK && o->format == FMT_HTML))
        FAIL("--tsc-hz applies to scoring one PROFILE and to --rank --format html");
    if (o->submission && !sign && !status_json && !o->signed_copy)
        FAIL("--submission applies to --sign, --signed-copy and --status-json");
    if (o->signed_copy && o->mode != MODE_SCORE)
        FAIL("--signed-copy applies to scoring one PROFILE");
    if (o->signed_copy && !o->submission)
        FAIL("--signed-copy needs --submission FIELDS");
    switch (o->mode) {
    case MODE_HELP:
    case MODE_STATUS_TABLE:
        break;
    case MODE_SIGN:
        if (!o->submission)
            FAIL("--sign needs --submission FIELDS");
        if (o->n_args != 1)
            FAIL("--sign takes one PROFILE");
        break;
    case MODE_VERIFY:
        if (o->n_args == 0)
            FAIL("--verify needs at least one FILE");
        break;
    case MODE_INIT_KEY:
        if (o->n_args != 0)
            FAIL("--init-key takes no FILE");
        break;
    case MODE_MEASURE_TSC:
        if (o->n_args != 0)
            FAIL("--measure-tsc takes no FILE");
        break;
    case MODE_SUBMISSION_DIGESTS:
        if (!o->classpath || !o->main_class || !o->method || !o->jdk)
            FAIL("--submission-digests needs --classpath, --main, --method and --jdk");
        break;
    case MODE_COMPARE_OUTPUT:
        if (o->n_args != 2)
            FAIL("--compare-output takes EXPECTED and ACTUAL");
        break;
    case MODE_CHECK_TABLE:
        if (!o->costs && !o->compare)
            FAIL("--check-table needs --costs FILE or --compare PROFILE");
        if (o->n_args != 0)
            FAIL("--check-table takes no PROFILE");
        break;
    case MODE_STATUS_JSON:
        if (o->n_args != 0)
            FAIL("--status-json takes only STATUS and MESSAGE");
        o->format = FMT_JSON;
        break;
    case MODE_RANK:
        if (o->explain || o->score_only)
            FAIL("--explain and --score-only do not apply to --rank");
        if (o->n_args + o->n_failed == 0)
            FAIL("--rank needs at least one LABEL=PROFILE");
        if (o->junit || o->report || o->compare || o->has_max_score || o->has_max_ratio || o->sources)
            FAIL("--junit, --report, --sources, --compare and the budgets apply to one PROFILE, not to --rank");
        for (int k = 0; k < o->n_args + o->n_failed; k++) {
            const char *ak = k < o->n_args ? o->args[k] : o->failed[k - o->n_args];
            const char *eq = strchr(ak, '=');
            if (!eq || eq == ak || !eq[1])
                FAIL("--rank: \"%.200s\" is not LABEL=PROFILE", ak);
            for (int j = 0; j < k; j++) {
                const char *aj = j < o->n_args ? o->args[j] : o->failed[j - o->n_args];
                const char *eq2 = strchr(aj, '=');
                if (eq && eq2 && eq - ak == eq2 - aj && strncmp(ak, aj, (size_t)(eq - ak)) == 0)
                    FAIL("--rank: label \"%.*s\" given twice", (int)(eq - ak), ak);
            }
        }
        break;
    case MODE_SCORE:
        if (format)
            FAIL("--format applies to --rank; use --json");
        if (o->has_max_ratio && !o->compare)
            FAIL("--max-ratio needs --compare PROFILE");
        if (o->score_only && (o->explain || o->format == FMT_JSON))
            FAIL("--score-only excludes --explain and --json");
        if (o->n_args != 1)
            FAIL(o->n_args ? "give one PROFILE (use --rank for several)" : "no PROFILE given");
        break;
    }
    if (o->costs_sha256[0] && !o->costs)
        FAIL("--costs-sha256 needs --costs");
    if (o->has_max_score && o->has_max_ratio)
        FAIL("give --max-score or --max-ratio, not both");
    if ((o->has_max_score || o->has_max_ratio) && !o->junit)
        FAIL("--max-score and --max-ratio set the budget of a --junit report");
    if (o->sources && !o->report && o->mode != MODE_RANK)
        FAIL("--sources goes with --report FILE");
    if (o->mode != MODE_RANK && (o->report_links || o->n_failed))
        FAIL("--report-links and --failed apply to --rank");
    return failed ? -1 : 0;
}

void options_free(options *o)
{
    free(o->args);
    o->args = NULL;
    free(o->failed);
    o->failed = NULL;
}
