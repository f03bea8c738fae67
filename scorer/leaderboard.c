/*
 * leaderboard.c - the HTML leaderboard (see leaderboard.h).
 *
 * Every string from a submission goes through html_text; a report link is
 * the given prefix followed by the label as one percent-encoded path
 * segment, so a label cannot point the link anywhere else.
 */
#include "leaderboard.h"

#include <string.h>

#include "html.h"

static const char leaderboard_css[] =
    "td.rank{font-weight:bold;text-align:right}"
    ".tie{font-weight:normal;font-size:.8em;color:#555;margin-left:.3em}"
    "tr.first td{background:#fff8e1}"
    "p.warning{border-left:4px solid #c62828;background:#fdecea;padding:.4em .8em}";

/* 1 if the entry above or below shares this entry's rank. */
static int tied(const rank_entry *order, size_t n, size_t i)
{
    if (!order[i].rank)
        return 0;
    return (i > 0 && order[i - 1].rank == order[i].rank) || (i + 1 < n && order[i + 1].rank == order[i].rank);
}

/* The label, linked to its report when asked (scored submissions only:
 * a failed run has no report). */
static void label_cell(FILE *f, const options *o, const char *label, int link)
{
    fputs("<td class=\"label\">", f);
    if (o->report_links && link) {
        fputs("<a href=\"", f);
        html_text(f, o->report_links);
        html_url_component(f, label);
        fputs(".html\">", f);
        html_text(f, label);
        fputs("</a>", f);
    } else {
        html_text(f, label);
    }
    fputs("</td>", f);
}

static void ranked_table(FILE *f, const options *o, const cost_table *t,
                         const rank_entry *order, const outcome *rows, size_t n, int *any_approx)
{
    char b[48];

    fputs("<table id=\"ranking\">\n<thead><tr><th class=\"num\">Rank</th><th>Submission</th>", f);
    fputs("<th class=\"num\">Score (", f);
    html_text(f, t->unit);
    fputs(")</th><th class=\"num\">Predicted time</th></tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < n && order[i].rank; i++) {
        const outcome *oc = &rows[i];
        uint64_t ns;
        fprintf(f, "<tr class=\"scored%s\"><td class=\"rank\">%u", order[i].rank == 1 ? " first" : "", order[i].rank);
        if (tied(order, n, i))
            fputs("<span class=\"tie\">(tie)</span>", f);
        fputs("</td>", f);
        label_cell(f, o, oc->label, 1);
        snprintf(b, sizeof b, "%llu", (unsigned long long)oc->res->score);
        if (oc->res->approximate) {
            *any_approx = 1;
            fprintf(f, "<td class=\"num score approx\" title=\"approximate\">~%s</td>", b);
        } else {
            fprintf(f, "<td class=\"num score\">%s</td>", b);
        }
        if (out_predicted_ns(t, oc->res, &ns))
            fprintf(f, "<td class=\"num\">%s</td>", html_duration(ns, b, sizeof b));
        else
            fputs("<td class=\"num\">&ndash;</td>", f);
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

static void failed_table(FILE *f, const options *o, const rank_entry *order, const outcome *rows, size_t n)
{
    size_t first = 0;
    while (first < n && order[first].rank)
        first++;
    fprintf(f, "<h2>Not scored (%zu)</h2>\n", n - first);
    if (first == n) {
        fputs("<p>Every submission was scored.</p>\n", f);
        return;
    }
    fputs("<table id=\"failed\">\n<thead><tr><th>Submission</th><th>Status</th><th>What happened</th></tr></thead>\n"
          "<tbody>\n", f);
    for (size_t i = first; i < n; i++) {
        const outcome *oc = &rows[i];
        psf_status st = status_from_word(oc->status_word);
        fputs("<tr class=\"failed\">", f);
        label_cell(f, o, oc->label, 0);
        fputs("<td><code>", f);
        html_text(f, oc->status_word);
        fputs("</code></td><td>", f);
        /* the status in words, then the run's own message when it says more */
        html_text(f, st == ST_UNKNOWN ? "an unknown status" : status_meaning(st));
        if (oc->message && *oc->message) {
            fputs(": ", f);
            html_text(f, oc->message);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

/* The cost table, the machine it was calibrated on, the machine that makes
 * the page, and the JVMs that ran. */
static void provenance(FILE *f, const options *o, const cost_table *t, const outcome *rows, size_t n,
                       const machine_check *mc, const machine_here *here)
{
    char b[48];

    fputs("<h2>How these were scored</h2>\n<dl id=\"provenance\">\n<dt>Cost table</dt><dd>", f);
    if (t->builtin) {
        fputs("built-in: every bytecode costs 1, so a score is the number of bytecodes executed", f);
    } else {
        fputs("<code>", f);
        html_text(f, t->path);
        fputs("</code> (", f);
        html_text(f, t->calibrated ? "calibrated" : "not calibrated: every score is approximate");
        fputs(", unit ", f);
        html_text(f, t->unit);
        fputs(", SHA-256 <code>", f);
        html_text(f, t->sha256);
        fputs("</code>)", f);
    }
    fputs("</dd>\n<dt>Machine of the table</dt><dd>", f);
    if (t->cpu_model && *t->cpu_model) {
        html_text(f, t->cpu_model);
        if (t->tsc_hz) {
            snprintf(b, sizeof b, ", %llu.%03llu GHz", (unsigned long long)(t->tsc_hz / 1000000000u),
                     (unsigned long long)(t->tsc_hz % 1000000000u / 1000000u));
            fputs(b, f);
        }
        if (t->jdk_version) {
            fputs(", JDK ", f);
            html_text(f, t->jdk_version);
        }
        if (t->date) {
            fputs(", calibrated ", f);
            html_text(f, t->date);
        }
        fputs(" &mdash; the table's predicted times are for that machine", f);
    } else {
        fputs("none: the table is not tied to a machine, so no times are predicted", f);
    }
    if (mc && here) {
        fputs("</dd>\n<dt>Machine that made this page</dt><dd id=\"machine-here\">", f);
        html_text(f, here->cpu.model_name[0] ? here->cpu.model_name : "a CPU that does not report its name");
        if (here->cpu.vendor[0] && here->cpu.family >= 0 && here->cpu.model >= 0) {
            fputs(" (", f);
            html_text(f, here->cpu.vendor);
            snprintf(b, sizeof b, ", family %ld, model %ld)", here->cpu.family, here->cpu.model);
            fputs(b, f);
        }
        fputs(mc->verdict == MC_MATCHES ? " &mdash; the table's machine" :
              mc->verdict == MC_DIFFERS ? " &mdash; not the table's machine" :
              " &mdash; not known whether it is the table's machine", f);
    }
    fputs("</dd>\n<dt>JVM of the runs</dt><dd>", f);
    int shown = 0;
    for (size_t i = 0; i < n; i++) {
        const profile *p = rows[i].prof;
        int seen = 0;
        if (!p || !p->has_jvm)
            continue;
        for (size_t k = 0; k < i && !seen; k++)
            seen = rows[k].prof && rows[k].prof->has_jvm && strcmp(rows[k].prof->jvm_version, p->jvm_version) == 0;
        if (seen)
            continue;
        fputs(shown++ ? ", " : "", f);
        html_text(f, p->jvm_version);
    }
    fputs(shown ? "" : "unknown", f);
    fputs("</dd>\n<dt>Counted</dt><dd>", f);
    fputs(o->with_overhead ? "the method's work and the runtime's overhead (class initialization, linkage)"
                           : "the method's work (callees included); the runtime's overhead is not in the score", f);
    fputs("</dd>\n</dl>\n", f);
}

/* Above the ranks: the table's predicted times do not hold here. */
static void machine_warning(FILE *f, const machine_check *mc)
{
    char why[MC_MAX_NOTES * MC_NOTE_LEN];

    if (!mc || (mc->verdict != MC_DIFFERS && mc->verdict != MC_UNKNOWN))
        return;
    fputs("<p class=\"warning\" id=\"machine-warning\">", f);
    fputs(mc->verdict == MC_DIFFERS ? "The cost table was calibrated on another machine than the one that made "
                                      "this page ("
                                    : "The cost table does not say which CPU calibrated it (", f);
    html_text(f, machine_check_reasons(mc, why, sizeof why));
    fputs("): the predicted times are approximate here. The ranks are not affected: every submission is "
          "priced by the same table. Calibrate this machine: <code>" MC_CALIBRATE_COMMAND
          "</code> (docs/calibration.md).</p>\n", f);
}

void leaderboard_html(FILE *f, const options *o, const cost_table *t,
                      const rank_entry *order, const outcome *rows, size_t n,
                      const machine_check *mc, const machine_here *here)
{
    size_t scored = 0;
    int any_approx = 0;

    while (scored < n && order[scored].rank)
        scored++;
    html_page_open(f, "Leaderboard", leaderboard_css);
    fputs("<h1>Leaderboard</h1>\n", f);
    fprintf(f, "<p class=\"meta\">%zu submission%s, %zu scored, %zu not scored. A score is the cost of the "
            "bytecodes the method executed, weighted by the cost table below: lower is better, and the same "
            "program gets the same score on every machine. Equal scores share a rank.</p>\n",
            n, n == 1 ? "" : "s", scored, n - scored);
    machine_warning(f, mc);
    ranked_table(f, o, t, order, rows, n, &any_approx);
    if (any_approx)
        fputs("<p class=\"approx\" id=\"approx-legend\">~ approximate: the cost table had no price for something "
              "the submission did, is not calibrated, or was calibrated on another JDK.</p>\n", f);
    failed_table(f, o, order, rows, n);
    provenance(f, o, t, rows, n, mc, here);
    html_page_close(f);
}
