/*
 * report_flame.c - the student report's flame graph of the calling
 * contexts (profile version 7, <contexts>), and the library work charged
 * to the line of the student's code that called it.
 *
 * HTML and inline CSS only: each frame is a box whose width is its share of
 * the bytecodes executed (its own and everything it called), placed below
 * its caller; callers are above their callees. Widths are bytecodes, not
 * score units: a context counts bytecodes, not opcodes, so it cannot be
 * priced. Every name from the profile goes through html_text.
 */
#include "report_flame.h"
#include "report_fmt.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "html.h"

#define ROW_EM 1.45         /* height of a row of frames */
#define MAX_DEPTH 40        /* rows drawn */
#define MIN_WIDTH 100       /* frames narrower than this many hundred-thousandths are not drawn (0.1%) */

/* Bytecodes of the work bucket in frame i and below it (incl), and each
 * frame's depth, from the preorder list. */
static void inclusive(const profile *p, uint64_t *incl, unsigned *depth)
{
    for (size_t i = 0; i < p->n_frames; i++) {
        incl[i] = p->frames[i].work + p->frames[i].other_work;
        depth[i] = p->frames[i].parent ? depth[p->frames[i].parent - 1] + 1 : 0;
    }
    for (size_t i = p->n_frames; i-- > 0;)
        if (p->frames[i].parent)
            incl[p->frames[i].parent - 1] += incl[i];
}

/* amount / total in hundred-thousandths, as "12.345%" in buf. */
static unsigned per100k(uint64_t amount, uint64_t total)
{
    return total ? (unsigned)(((psf_u128)amount * 100000) / total) : 0;
}

static const char *pct(unsigned v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u.%03u%%", v / 1000, v % 1000);
    return buf;
}

/* One box: x and width in hundred-thousandths of the graph's width. */
static void box(FILE *f, const char *cls, unsigned depth, unsigned x, unsigned w, uint64_t bytes,
                const char *label, const char *title, size_t id)
{
    char a[24], b[24];
    fprintf(f, "<div class=\"fr%s\" data-depth=\"%u\" data-bytecodes=\"%llu\"", cls, depth, (unsigned long long)bytes);
    if (id)
        fprintf(f, " data-frame=\"%zu\"", id);
    fprintf(f, " style=\"top:%.2fem;left:%s;width:%s\" title=\"", depth * ROW_EM, pct(x, a, sizeof a),
            pct(w, b, sizeof b));
    html_text(f, title);
    fputs("\">", f);
    html_text(f, label);
    fputs("</div>\n", f);
}

/* The label of frame i: its method as Java writes it and, for a call from
 * a line the caller's table names, "line N". */
static char *frame_label(const profile *p, size_t i)
{
    const prof_frame *fr = &p->frames[i];
    char *pretty = report_pretty_method(fr->method), *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    if (m == NULL)
        return pretty;
    fputs(pretty, m);
    if (fr->line)
        fprintf(m, " \xe2\x80\x94 line %u", fr->line);
    free(pretty);
    if (fclose(m) != 0) {
        free(s);
        return xstrdup(fr->method);
    }
    return s;
}

/* The tooltip of frame i: who called it from where, and its bytecodes. */
static char *frame_title(const profile *p, size_t i, uint64_t incl, uint64_t total)
{
    const prof_frame *fr = &p->frames[i];
    char *pretty = report_pretty_method(fr->method), *s = NULL, a[24];
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    if (m == NULL)
        return pretty;
    fputs(pretty, m);
    if (fr->parent) {
        char *caller = report_pretty_method(p->frames[fr->parent - 1].method);
        if (fr->line)
            fprintf(m, ", called from line %u of %s", fr->line, caller);
        else
            fprintf(m, ", called by %s", caller);
        free(caller);
    }
    fprintf(m, ": %llu bytecodes (%s), %llu of them its own%s", (unsigned long long)incl,
            pct(per100k(incl, total), a, sizeof a), (unsigned long long)fr->work,
            fr->program ? "" : " (library code)");
    free(pretty);
    if (fclose(m) != 0) {
        free(s);
        return xstrdup(fr->method);
    }
    return s;
}

/* The graph: every frame at least MIN_WIDTH wide and less than MAX_DEPTH
 * deep, children left to right in the profile's order after their
 * caller's left edge, then a box for the calls cut off by the limit. */
static void graph(FILE *f, const profile *p, const uint64_t *incl, const unsigned *depth, uint64_t total)
{
    uint64_t *cursor = xmalloc((p->n_frames + 1) * sizeof *cursor); /* [0]: the top; [i+1]: frame i's next child */
    size_t hidden = 0;
    unsigned rows = 1;
    for (size_t i = 0; i < p->n_frames; i++)
        if (depth[i] + 1 > rows && depth[i] < MAX_DEPTH && per100k(incl[i], total) >= MIN_WIDTH)
            rows = depth[i] + 1;
    /* one more row for the boxes of calls cut off by the limit */
    fprintf(f, "<div class=\"flame\" id=\"flame\" style=\"height:%.2fem\">\n", (rows + 1) * ROW_EM * 0.8);
    cursor[0] = 0;
    for (size_t i = 0; i < p->n_frames; i++) {
        const prof_frame *fr = &p->frames[i];
        uint64_t x = cursor[fr->parent];
        cursor[fr->parent] += incl[i];
        cursor[i + 1] = x + fr->work; /* its callees start after its own part */
        unsigned w = per100k(incl[i], total);
        if (depth[i] >= MAX_DEPTH || w < MIN_WIDTH) {
            hidden++;
            continue;
        }
        char *label = frame_label(p, i), *title = frame_title(p, i, incl[i], total);
        box(f, fr->program ? " prog" : "", depth[i], per100k(x, total), w, incl[i], label, title, i + 1);
        free(label);
        free(title);
    }
    /* calls below a frame that have no frame of their own (the limit): after its children */
    for (size_t i = 0; i < p->n_frames; i++) {
        unsigned w = per100k(p->frames[i].other_work, total);
        if (p->frames[i].other_work == 0 || depth[i] + 1 >= MAX_DEPTH || w < MIN_WIDTH)
            continue;
        box(f, " other", depth[i] + 1, per100k(cursor[i + 1], total), w, p->frames[i].other_work, "other calls",
            "calls below this one that the profile does not list one by one (it keeps 1000 calling contexts)", 0);
    }
    if (p->ctx_other[0] != 0 && per100k(p->ctx_other[0], total) >= MIN_WIDTH)
        box(f, " other", 0, per100k(cursor[0], total), per100k(p->ctx_other[0], total), p->ctx_other[0],
            "other calls", "calls the profile does not list one by one (it keeps 1000 calling contexts)", 0);
    fputs("</div>\n", f);
    if (hidden)
        fprintf(f, "<p class=\"meta\" id=\"flame-hidden\">%zu calling context%s narrower than 0.1%% or deeper than %d "
                "levels %s not drawn.</p>\n", hidden, hidden == 1 ? "" : "s", MAX_DEPTH, hidden == 1 ? "is" : "are");
    free(cursor);
}

/* A library call from the student's code: the caller's method and line,
 * the library method, its bytecodes with everything below it. */
typedef struct libcall {
    const char *caller, *method;
    uint32_t line;
    uint64_t bytes;
} libcall;

static int cmp_libcall(const void *a, const void *b)
{
    const libcall *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    int c = strcmp(x->caller, y->caller);
    if (c != 0)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return strcmp(x->method, y->method);
}

/* Library frames called directly from the program's code, by the line
 * that called them, costliest first. */
static void library_calls(FILE *f, const profile *p, const uint64_t *incl, uint64_t total)
{
    libcall *v = xmalloc((p->n_frames + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < p->n_frames; i++) {
        const prof_frame *fr = &p->frames[i];
        if (fr->program || fr->parent == 0 || !p->frames[fr->parent - 1].program || incl[i] == 0)
            continue;
        const char *caller = p->frames[fr->parent - 1].method;
        size_t k = 0; /* the same call from the same line in another context: added up */
        while (k < n && !(v[k].line == fr->line && strcmp(v[k].caller, caller) == 0 &&
                          strcmp(v[k].method, fr->method) == 0))
            k++;
        if (k == n)
            v[n++] = (libcall){caller, fr->method, fr->line, 0};
        v[k].bytes += incl[i];
    }
    if (n == 0) {
        free(v);
        return;
    }
    qsort(v, n, sizeof *v, cmp_libcall);
    fputs("<h3>Library calls by the line of yours that made them</h3>\n<p class=\"meta\">Bytecodes the JDK ran "
          "for each call of yours, everything it called included.</p>\n<table id=\"library-calls\">\n<thead><tr>"
          "<th>Your line</th><th>Library method</th><th class=\"num\">Share</th><th></th>"
          "<th class=\"num\">Bytecodes</th></tr></thead>\n<tbody>\n", f);
    for (size_t k = 0; k < n && k < 15; k++) {
        char *caller = report_pretty_method(v[k].caller), *callee = report_pretty_method(v[k].method);
        fputs("<tr><td class=\"mono\">", f);
        html_text(f, caller);
        if (v[k].line)
            fprintf(f, ", line %u", v[k].line);
        fputs("</td><td class=\"mono\">", f);
        html_text(f, callee);
        fputs("</td>", f);
        report_share_cell(f, v[k].bytes, total, "");
        fprintf(f, "<td class=\"num\">%llu</td></tr>\n", (unsigned long long)v[k].bytes);
        free(caller);
        free(callee);
    }
    fputs("</tbody>\n</table>\n", f);
    free(v);
}

void report_flame(FILE *f, const outcome *oc)
{
    const profile *p = oc->prof;
    fputs("<h2>Where the bytecodes run: calling contexts</h2>\n", f);
    if (!p->has_contexts) {
        fputs("<p class=\"meta\" id=\"flame-none\">This profile has no calling contexts (format version older than "
              "7): score the program again for a flame graph.</p>\n", f);
        return;
    }
    uint64_t total = p->work;
    fputs("<p class=\"meta\">Each box is a method in one call path, under the method that called it, as wide as "
          "the share of all bytecodes run in it and in everything it called. \"line N\" is the line of the caller "
          "that made the call. Orange: your code; blue: the Java library. Hover for the numbers.</p>\n", f);
    if (total == 0) {
        fputs("<p class=\"meta\">No bytecodes were run.</p>\n", f);
        return;
    }
    uint64_t *incl = xmalloc((p->n_frames + 1) * sizeof *incl);
    unsigned *depth = xmalloc((p->n_frames + 1) * sizeof *depth);
    inclusive(p, incl, depth);
    graph(f, p, incl, depth, total);
    library_calls(f, p, incl, total);
    free(incl);
    free(depth);
}
