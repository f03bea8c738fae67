/*
 * report_lines.c - the student report's lines: where in the student's code
 * the score is spent, and where it differs from the reference's.
 *
 * A line's cost is the scorer's own (score_line: the line's bytecodes x
 * opcode prices, priced as its method is), so the lines of a method add up
 * to the method's share on the page. With --sources DIR each costly class's
 * file is read (sources.c) and printed whole, each line with its share;
 * code outside those files (the JDK's) is summed and its costliest lines
 * listed by method and number. Every string from the submission goes
 * through html_text.
 */
#include "report_lines.h"

#include <stdlib.h>
#include <string.h>

#include "fixed.h"
#include "html.h"
#include "report_fmt.h"
#include "sources.h"

/* One line of one method, or of one file (method NULL). */
typedef struct lrow {
    const char *method;     /* borrowed */
    const char *rel;        /* borrowed: its file, when read */
    uint32_t number;
    psf_u128 cost, ref;     /* micro-units: this result's, the reference's */
    uint64_t bytecodes;
} lrow;

/* The read source files of one result. */
typedef struct files {
    src_file *v;
    size_t n;
} files;

static const src_file *file_get(files *fs, const char *dir, const char *method)
{
    char *rel = sources_rel_path(method);
    const src_file *found = NULL;
    if (!rel || !dir)
        goto out;
    for (size_t i = 0; i < fs->n; i++)
        if (strcmp(fs->v[i].rel, rel) == 0) {
            found = fs->v[i].lines ? &fs->v[i] : NULL;
            goto out;
        }
    fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof *fs->v);
    if (sources_read(dir, rel, &fs->v[fs->n]) != 0) {
        fs->v[fs->n].rel = xstrdup(rel);    /* remembered as missing */
        fs->v[fs->n].lines = NULL;
    } else {
        found = &fs->v[fs->n];
    }
    fs->n++;
out:
    free(rel);
    return found;
}

static void files_free(files *fs)
{
    for (size_t i = 0; i < fs->n; i++)
        src_file_free(&fs->v[i]);
    free(fs->v);
}

static psf_u128 absdiff(psf_u128 a, psf_u128 b)
{
    return a > b ? a - b : b - a;
}

static int cmp_cost(const void *a, const void *b)
{
    const lrow *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    int c = strcmp(x->method, y->method);
    return c ? c : (x->number > y->number) - (x->number < y->number);
}

static int cmp_key(const void *a, const void *b)
{
    const lrow *x = a, *y = b;
    int c = strcmp(x->method, y->method);
    return c ? c : (x->number > y->number) - (x->number < y->number);
}

static int cmp_diff(const void *a, const void *b)
{
    const lrow *x = a, *y = b;
    psf_u128 dx = absdiff(x->cost, x->ref), dy = absdiff(y->cost, y->ref);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    int c = strcmp(x->method, y->method);
    return c ? c : (x->number > y->number) - (x->number < y->number);
}

/* "Line 12 of Sorter.sort(int[])", and the line's text when its file is read. */
static void line_cell(FILE *f, const lrow *l, const src_file *sf)
{
    char *pretty = report_pretty_method(l->method);
    fputs("<td class=\"mono\">", f);
    html_text(f, pretty);
    if (l->number)
        fprintf(f, ", line %u", (unsigned)l->number);
    else
        fputs(", no line number", f);
    fputs("</td><td class=\"code\">", f);
    if (sf && l->number >= 1 && l->number <= sf->n_lines) {
        const char *text = sf->lines[l->number - 1];
        html_text(f, text + strspn(text, " \t"));  /* the code, not its indentation */
    }
    fputs("</td>", f);
    free(pretty);
}

/* Every line of every method of r, in method order then line order. */
static lrow *all_lines(const score_result *r, size_t *n)
{
    size_t cap = 1;
    for (size_t i = 0; i < r->n_methods; i++)
        cap += r->methods[i].n_lines;
    lrow *v = xcalloc(cap, sizeof *v);
    *n = 0;
    for (size_t i = 0; i < r->n_methods; i++)
        for (size_t k = 0; k < r->methods[i].n_lines; k++) {
            const score_line *sl = &r->methods[i].lines[k];
            v[(*n)++] = (lrow){ r->methods[i].name, NULL, sl->number, sl->contribution, 0, sl->bytecodes };
        }
    return v;
}

/* One file printed whole: each line with its share of the score. */
static void file_table(FILE *f, const src_file *sf, const lrow *v, size_t n, psf_u128 total)
{
    psf_u128 *cost = xcalloc(sf->n_lines + 1, sizeof *cost), sum = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].rel == sf->rel && v[i].number >= 1 && v[i].number <= sf->n_lines) {
            cost[v[i].number] += v[i].cost;
            sum += v[i].cost;
        }
    unsigned pm = total ? fixed_share_permille(sum > total ? total : sum, total) : 0;
    fputs("<h3 class=\"mono\">", f);
    html_text(f, sf->rel);
    fprintf(f, " &mdash; %u.%u%% of the score</h3>\n<table class=\"src\" data-file=\"", pm / 10, pm % 10);
    html_text(f, sf->rel);
    fputs("\">\n", f);
    for (size_t k = 1; k <= sf->n_lines; k++) {
        fprintf(f, "<tr%s data-line=\"%zu\"><td class=\"ln\">%zu</td>", cost[k] ? " class=\"hot\"" : "", k, k);
        if (cost[k])
            report_share_cell(f, cost[k], total, "");
        else
            fputs("<td class=\"num\"></td><td class=\"barcell\"></td>", f);
        fputs("<td class=\"code\">", f);
        html_text(f, sf->lines[k - 1]);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    free(cost);
}

/* The costliest lines of v (those not shown in a file when files were read). */
static void lines_by_number(FILE *f, const options *o, lrow *v, size_t n, psf_u128 total, int outside)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!(outside && v[i].rel) && v[i].cost)
            v[m++] = v[i];
    qsort(v, m, sizeof *v, cmp_cost);
    size_t shown = o->top == 0 || o->top > m ? m : o->top;
    if (shown == 0)
        return;
    fprintf(f, "<table id=\"%s\">\n<thead><tr><th>Where</th><th>Code</th><th class=\"num\">Share</th><th></th>"
            "<th class=\"num\">Bytecodes</th></tr></thead>\n<tbody>\n", outside ? "lines-outside" : "lines-by-number");
    for (size_t i = 0; i < shown; i++) {
        char b[32];
        fputs("<tr>", f);
        line_cell(f, &v[i], NULL);
        report_share_cell(f, v[i].cost, total, "");
        snprintf(b, sizeof b, "%llu", (unsigned long long)v[i].bytecodes);
        fprintf(f, "<td class=\"num\">%s</td></tr>\n", b);
    }
    fputs("</tbody>\n</table>\n", f);
    if (m > shown)
        fprintf(f, "<p class=\"meta\">and %zu more lines.</p>\n", m - shown);
}

/* Against the reference: lines (by method and number) ordered by the
 * difference of their cost. */
static void line_differences(FILE *f, const options *o, const score_result *r, const score_result *rr,
                             files *fs)
{
    size_t n1, n2;
    lrow *a = all_lines(r, &n1), *b = all_lines(rr, &n2);
    lrow *v = xcalloc(n1 + n2 + 1, sizeof *v);
    size_t n = 0, i = 0, k = 0;
    /* both sorted by method and line, then merged: a key in one only has 0 in the other */
    qsort(a, n1, sizeof *a, cmp_key);
    qsort(b, n2, sizeof *b, cmp_key);
    while (i < n1 || k < n2) {
        int c = i == n1 ? 1 : k == n2 ? -1 : cmp_key(&a[i], &b[k]);
        if (c <= 0) {
            v[n] = a[i++];
            v[n].ref = c == 0 ? b[k++].cost : 0;
        } else {
            v[n] = b[k++];
            v[n].ref = v[n].cost;
            v[n].cost = 0;
        }
        n++;
    }
    qsort(v, n, sizeof *v, cmp_diff);
    size_t shown = 0, limit = o->top ? o->top : 10;
    fputs("<h2>Lines where yours and the reference differ most</h2>\n<p class=\"meta\">By method and line "
          "number, in score units; a line that only one of the two runs counts in full.</p>\n"
          "<table id=\"line-differences\">\n<thead><tr><th>Where</th><th>Code</th><th class=\"num\">Yours</th>"
          "<th class=\"num\">Reference</th><th class=\"num\">Difference</th></tr></thead>\n<tbody>\n", f);
    for (size_t j = 0; j < n && shown < limit; j++) {
        char b1[48], b2[48], b3[48];
        if (v[j].cost == v[j].ref)
            break;
        int more = v[j].cost >= v[j].ref;
        fputs("<tr>", f);
        line_cell(f, &v[j], v[j].cost ? file_get(fs, o->sources, v[j].method) : NULL);
        report_units(absdiff(v[j].cost, v[j].ref), b3, sizeof b3);
        fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num %s\">%s%s</td></tr>\n",
                report_units(v[j].cost, b1, sizeof b1), report_units(v[j].ref, b2, sizeof b2),
                more ? "plus" : "minus", more ? "+" : "&minus;", b3);
        shown++;
    }
    fputs("</tbody>\n</table>\n", f);
    free(v);
    free(a);
    free(b);
}

void report_lines(FILE *f, const options *o, const outcome *oc, const outcome *ref)
{
    const score_result *r = oc->res;
    files fs = { NULL, 0 };
    size_t n;
    lrow *v = all_lines(r, &n);

    fputs("<h2>Your code, line by line</h2>\n", f);
    if (!oc->prof->has_lines) {
        fputs("<p class=\"meta\" id=\"no-lines\">This profile has no counts by line (profile format version 5: "
              "count it again to see them).</p>\n", f);
    } else {
        psf_u128 inside = 0;
        size_t shown_files = 0;
        fputs("<p class=\"meta\">A line's share counts the bytecodes of that line itself, weighted by their "
              "price, as a method's share does; the methods it calls have their own lines.</p>\n", f);
        if (o->sources) {
            for (size_t i = 0; i < n; i++) {
                const src_file *sf = v[i].cost ? file_get(&fs, o->sources, v[i].method) : NULL;
                v[i].rel = sf && v[i].number >= 1 && v[i].number <= sf->n_lines ? sf->rel : NULL;
                if (v[i].rel)
                    inside += v[i].cost;
            }
            for (size_t k = 0; k < fs.n; k++)
                if (fs.v[k].lines) {
                    file_table(f, &fs.v[k], v, n, r->total);
                    shown_files++;
                }
        }
        if (o->sources && shown_files == 0)
            fputs("<p class=\"meta\" id=\"no-sources\">None of the classes that ran has its .java file in the "
                  "sources given; lines are shown by number.</p>\n", f);
        if (shown_files > 0 && r->opcode_total > inside) {
            psf_u128 rest = r->opcode_total > inside ? r->opcode_total - inside : 0;
            unsigned pm = r->total ? fixed_share_permille(rest > r->total ? r->total : rest, r->total) : 0;
            fprintf(f, "<h3>Outside your files: %u.%u%% of the score</h3>\n<p class=\"meta\">Lines of code you "
                    "did not write (the JDK's library) that your code called, by method and line number; "
                    "the rest of the score is charged to calls, allocations and branches, not to a line.</p>\n",
                    pm / 10, pm % 10);
        }
        lines_by_number(f, o, v, n, r->total, shown_files > 0);
    }
    if (ref && ref->res && oc->prof->has_lines && ref->prof && ref->prof->has_lines)
        line_differences(f, o, r, ref->res, &fs);
    files_free(&fs);
    free(v);
}
