/*
 * report.c - the student report (see report.h).
 *
 * The numbers are the scorer's own (score_result): method shares are each
 * method's own bytecodes x opcode prices, as in --explain; the groups add
 * up the opcode and dependency terms of the score, so the shares on the
 * page add up to the score. Every string from the submission goes through
 * html_text.
 */
#include "report.h"
#include "report_flame.h"
#include "report_fmt.h"
#include "report_lines.h"

#include <stdlib.h>
#include <string.h>

#include "html.h"

static const char report_css[] =
    ".cards{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0}"
    ".card{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;min-width:10em}"
    ".card .big{font-size:1.6em;font-weight:bold}.card .what{color:#555;font-size:.9em}"
    "td.barcell{width:16em}.bar.ref{background:#5b8def}"
    ".status{border-left:4px solid #b00020;padding:.4em 1em;background:#fff4f4}"
    ".plus{color:#b00020}.minus{color:#1b6e20}"
    "table.src{border-collapse:collapse;font-size:.9em}table.src td{padding:0 .5em;border:0}"
    "table.src td.ln{color:#888;text-align:right}td.code{white-space:pre;font-family:monospace}"
    "table.src tr.hot td.code{background:#fff3e0}table.src td.barcell{width:8em}"
    REPORT_FLAME_CSS;

/* ---- names and words ------------------------------------------------------- */

/* Groups of opcodes in the words of a programming course, checked in order. */
static const struct group {
    const char *words, *explain;
    const char *prefixes[12];   /* a mnemonic starting with one of these (exact when it ends in '$') */
} groups[] = {
    { "reading array elements", "a[i] on the right of =: one element read from an array",
      { "iaload$", "laload$", "faload$", "daload$", "aaload$", "baload$", "caload$", "saload$" } },
    { "writing array elements", "a[i] = ...: one element written into an array",
      { "iastore$", "lastore$", "fastore$", "dastore$", "aastore$", "bastore$", "castore$", "sastore$" } },
    { "reading array lengths", "a.length", { "arraylength$" } },
    { "comparisons and branches", "if, while and for tests: compare two values and jump or not",
      { "if", "lcmp$", "fcmp", "dcmp" } },
    { "jumps", "going back to the top of a loop, switch", { "goto", "tableswitch$", "lookupswitch$", "jsr", "ret$" } },
    { "method calls", "calling a method (its own work is counted in that method)", { "invoke" } },
    { "returns", "returning from a method", { "ireturn$", "lreturn$", "freturn$", "dreturn$", "areturn$", "return$" } },
    { "counting up or down", "i++, i -= 2: adding a constant to a local variable", { "iinc$" } },
    { "reading local variables", "using a variable or parameter", { "iload", "lload", "fload", "dload", "aload" } },
    { "writing local variables", "x = ...: storing into a variable", { "istore", "lstore", "fstore", "dstore", "astore" } },
    { "arithmetic", "+, -, *, /, %, shifts and bit operations",
      { "iadd$", "ladd$", "fadd$", "dadd$", "isub$", "lsub$", "fsub$", "dsub$", "imul$", "lmul$", "fmul$", "dmul$" } },
    { "arithmetic", "+, -, *, /, %, shifts and bit operations",
      { "idiv$", "ldiv$", "fdiv$", "ddiv$", "irem$", "lrem$", "frem$", "drem$", "ineg$", "lneg$", "fneg$", "dneg$" } },
    { "arithmetic", "+, -, *, /, %, shifts and bit operations",
      { "ishl$", "lshl$", "ishr$", "lshr$", "iushr$", "lushr$", "iand$", "land$", "ior$", "lor$", "ixor$", "lxor$" } },
    { "reading and writing fields", "obj.x, Class.x", { "getfield$", "putfield$", "getstatic$", "putstatic$" } },
    { "creating objects and arrays", "new", { "new$", "newarray$", "anewarray$", "multianewarray$" } },
    { "loading constants", "literal numbers and strings", { "iconst", "lconst", "fconst", "dconst", "aconst_null$",
                                                             "bipush$", "sipush$", "ldc" } },
    { "number conversions", "(int) x, (long) x, ...", { "i2", "l2", "f2", "d2" } },
    { "type checks", "casts and instanceof", { "checkcast$", "instanceof$" } },
    { "exceptions", "throw", { "athrow$" } },
    { "locking", "synchronized", { "monitorenter$", "monitorexit$" } },
    { "operand stack housekeeping", "copying and dropping intermediate values", { "dup", "pop", "swap$", "nop$" } },
};

const char *report_opcode_group(const char *mn, const char **explain)
{
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (size_t i = 0; i < 12 && groups[g].prefixes[i]; i++) {
            const char *p = groups[g].prefixes[i];
            size_t n = strlen(p);
            int exact = n > 0 && p[n - 1] == '$';
            if (exact ? (strlen(mn) == n - 1 && strncmp(mn, p, n - 1) == 0) : strncmp(mn, p, n) == 0) {
                *explain = groups[g].explain;
                return groups[g].words;
            }
        }
    *explain = "other bytecodes";
    return "other";
}

/* The words for a dependency term: what the table charged on top of the opcode. */
static const char *dep_words(const score_term *t, const char **explain)
{
    switch (t->kind) {
    case TERM_ARRAY: *explain = "each new array, and each of its elements"; return "allocating arrays";
    case TERM_NEW: *explain = "each new object of a class the table prices"; return "creating objects";
    case TERM_INVOKE: *explain = "calls of library methods whose work is not counted in bytecodes (native code)";
        return "library calls done in native code";
    case TERM_BRANCH: *explain = "branches taken, and the ones the processor would have guessed wrong";
        return "hard-to-predict branches";
    case TERM_CALL: *explain = "the processor's cost of entering methods that follow each other closely";
        return "calls in quick succession";
    case TERM_LDC: *explain = "Foo.class constants"; return "loading class constants";
    default: *explain = ""; return "other";
    }
}

/* ---- numbers ------------------------------------------------------------------ */

/* A group of the score: words, explanation, contribution. */
typedef struct part {
    const char *words, *explain;
    psf_u128 mine, ref;
} part;

static part *part_get(part *v, size_t *n, const char *words, const char *explain)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(v[i].words, words) == 0)
            return &v[i];
    v[*n] = (part){ .words = words, .explain = explain };
    return &v[(*n)++];
}

static void add_parts(part *v, size_t *n, const score_result *r, int is_ref)
{
    for (size_t i = 0; i < r->n_terms; i++) {
        const score_term *t = &r->terms[i];
        const char *words, *explain;
        if (t->kind == TERM_OPCODE)
            words = report_opcode_group(t->key + strlen("opcode:"), &explain);
        else
            words = dep_words(t, &explain);
        part *p = part_get(v, n, words, explain);
        *(is_ref ? &p->ref : &p->mine) += t->contribution;
    }
}

static int cmp_part(const void *a, const void *b)
{
    const part *x = a, *y = b;
    if (x->mine != y->mine)
        return x->mine > y->mine ? -1 : 1;
    return strcmp(x->words, y->words);
}

/* ---- sections ---------------------------------------------------------------- */

static void card(FILE *f, const char *id, const char *big, const char *what)
{
    fprintf(f, "<div class=\"card\" id=\"%s\"><div class=\"big\">", id);
    html_text(f, big);
    fputs("</div><div class=\"what\">", f);
    html_text(f, what);
    fputs("</div></div>\n", f);
}

static void summary(FILE *f, const cost_table *t, const outcome *oc, const outcome *ref)
{
    const score_result *r = oc->res;
    char b[64], w[160];
    uint64_t ns;

    fputs("<div class=\"cards\">\n", f);
    snprintf(b, sizeof b, "%s%llu", r->approximate ? "~" : "", (unsigned long long)r->score);
    snprintf(w, sizeof w, "score in %s (lower is better)%s", t->unit, r->approximate ? ", approximate" : "");
    card(f, "score", b, w);
    if (out_predicted_ns(t, r, &ns))
        card(f, "time", html_duration(ns, b, sizeof b), "predicted run time on the table's machine");
    snprintf(b, sizeof b, "%llu", (unsigned long long)oc->prof->work);
    snprintf(w, sizeof w, "bytecodes executed in %llu call%s of the method (callees included)",
             (unsigned long long)oc->prof->invocations, oc->prof->invocations == 1 ? "" : "s");
    card(f, "bytecodes", b, w);
    if (ref && ref->res && ref->res->score) {
        /* ratio to 2 decimals, rounded half up, in integers */
        psf_u128 x = ((psf_u128)r->score * 200 + ref->res->score) / ((psf_u128)ref->res->score * 2);
        snprintf(b, sizeof b, "%llu.%02llu x", (unsigned long long)(x / 100), (unsigned long long)(x % 100));
        snprintf(w, sizeof w, "your score against the reference's %llu", (unsigned long long)ref->res->score);
        card(f, "ratio", b, w);
    }
    fputs("</div>\n", f);
}

static void methods_table(FILE *f, const options *o, const score_result *r)
{
    size_t n = o->top == 0 || o->top > r->n_methods ? r->n_methods : o->top;
    char b[48];

    fputs("<h2>Methods that cost the most</h2>\n<p class=\"meta\">A method's share counts the bytecodes it runs "
          "itself, weighted by their price; the methods it calls have their own rows.</p>\n"
          "<table id=\"methods\">\n<thead><tr><th>Method</th><th class=\"num\">Share</th><th></th>"
          "<th class=\"num\">Bytecodes</th></tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < n; i++) {
        const score_method *m = &r->methods[i];
        char *pretty = report_pretty_method(m->name);
        fputs("<tr><td class=\"mono\" title=\"", f);
        html_text(f, m->name);
        fputs("\">", f);
        html_text(f, pretty);
        fputs("</td>", f);
        report_share_cell(f, m->contribution, r->total, "");
        snprintf(b, sizeof b, "%llu", (unsigned long long)m->bytecodes);
        fprintf(f, "<td class=\"num\">%s</td></tr>\n", b);
        free(pretty);
    }
    fputs("</tbody>\n</table>\n", f);
    if (r->n_methods > n)
        fprintf(f, "<p class=\"meta\">and %zu more methods.</p>\n", r->n_methods - n);
}

static void parts_table(FILE *f, const score_result *r, const score_result *rr)
{
    part *v = xcalloc(r->n_terms + (rr ? rr->n_terms : 0) + 1, sizeof *v);
    size_t n = 0;
    char b1[48], b2[48];

    add_parts(v, &n, r, 0);
    if (rr)
        add_parts(v, &n, rr, 1);
    qsort(v, n, sizeof *v, cmp_part);
    fputs("<h2>What the work is</h2>\n<p class=\"meta\">Every bytecode the method ran, grouped by what it does "
          "in the source code, with its share of the score.</p>\n<table id=\"groups\">\n<thead><tr><th>What</th>"
          "<th class=\"num\">Share</th><th></th>", f);
    fputs(rr ? "<th class=\"num\">Yours</th><th class=\"num\">Reference</th>" : "<th class=\"num\">Cost</th>", f);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < n; i++) {
        if (!v[i].mine && !v[i].ref)
            continue;
        fputs("<tr><td title=\"", f);
        html_text(f, v[i].explain);
        fputs("\">", f);
        html_text(f, v[i].words);
        fputs(" <span class=\"meta\">(", f);
        html_text(f, v[i].explain);
        fputs(")</span></td>", f);
        report_share_cell(f, v[i].mine, r->total, "");
        fprintf(f, "<td class=\"num\">%s</td>", report_units(v[i].mine, b1, sizeof b1));
        if (rr)
            fprintf(f, "<td class=\"num\">%s</td>", report_units(v[i].ref, b2, sizeof b2));
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
    free(v);
}

/* A method's contribution in the other result (0 when it ran no bytecode there). */
static psf_u128 method_in(const score_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_methods; i++)
        if (strcmp(r->methods[i].name, name) == 0)
            return r->methods[i].contribution;
    return 0;
}

typedef struct diff_row {
    const char *name;
    psf_u128 mine, ref;
} diff_row;

static int cmp_diff(const void *a, const void *b)
{
    const diff_row *x = a, *y = b;
    psf_u128 dx = x->mine > x->ref ? x->mine - x->ref : x->ref - x->mine;
    psf_u128 dy = y->mine > y->ref ? y->mine - y->ref : y->ref - y->mine;
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void differences(FILE *f, const options *o, const score_result *r, const score_result *rr)
{
    diff_row *v = xcalloc(r->n_methods + rr->n_methods + 1, sizeof *v);
    size_t n = 0, shown;
    char b1[48], b2[48], b3[48];

    for (size_t i = 0; i < r->n_methods; i++)
        v[n++] = (diff_row){ r->methods[i].name, r->methods[i].contribution, method_in(rr, r->methods[i].name) };
    for (size_t i = 0; i < rr->n_methods; i++)
        if (!method_in(r, rr->methods[i].name))
            v[n++] = (diff_row){ rr->methods[i].name, 0, rr->methods[i].contribution };
    qsort(v, n, sizeof *v, cmp_diff);
    shown = o->top == 0 || o->top > n ? n : o->top;
    fputs("<h2>Where yours and the reference differ most</h2>\n<p class=\"meta\">By method, in score units: "
          "the rows at the top explain most of the difference.</p>\n<table id=\"differences\">\n<thead><tr>"
          "<th>Method</th><th class=\"num\">Yours</th><th class=\"num\">Reference</th><th class=\"num\">"
          "Difference</th></tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < shown; i++) {
        char *pretty = report_pretty_method(v[i].name);
        int more = v[i].mine >= v[i].ref;
        report_units(more ? v[i].mine - v[i].ref : v[i].ref - v[i].mine, b3, sizeof b3);
        fputs("<tr><td class=\"mono\">", f);
        html_text(f, pretty);
        fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num %s\">%s%s</td></tr>\n",
                report_units(v[i].mine, b1, sizeof b1), report_units(v[i].ref, b2, sizeof b2),
                more ? "plus" : "minus", more ? "+" : "&minus;", b3);
        free(pretty);
    }
    fputs("</tbody>\n</table>\n", f);
    free(v);
}

static void failure(FILE *f, const outcome *oc)
{
    psf_status st = status_from_word(oc->status_word);
    fputs("<div class=\"status\" id=\"status\"><p><strong>Not scored: ", f);
    html_text(f, oc->status_word);
    fputs("</strong> &mdash; ", f);
    html_text(f, st == ST_UNKNOWN ? "an unknown status" : status_meaning(st));
    fputs(".</p>", f);
    if (oc->message && *oc->message) {
        fputs("<p>", f);
        html_text(f, oc->message);
        fputs("</p>", f);
    }
    fputs("</div>\n", f);
}

static void footer(FILE *f, const cost_table *t, const outcome *oc)
{
    fputs("<h2>How this was scored</h2>\n<p class=\"meta\" id=\"provenance\">", f);
    if (t->builtin) {
        fputs("Built-in table: every bytecode costs 1.", f);
    } else {
        fputs("Cost table <code>", f);
        html_text(f, t->path);
        fputs("</code> (", f);
        html_text(f, t->calibrated ? "calibrated" : "not calibrated");
        fputs(", unit ", f);
        html_text(f, t->unit);
        fputs(")", f);
        if (t->cpu_model && *t->cpu_model) {
            fputs(", measured on ", f);
            html_text(f, t->cpu_model);
        }
        fputs(".", f);
    }
    if (oc->prof && oc->prof->has_jvm) {
        fputs(" JVM ", f);
        html_text(f, oc->prof->jvm_version);
        fputs(".", f);
    }
    fputs(" The same program gets the same score on every machine.</p>\n", f);
    /* whether the run that was scored was also the run that was judged */
    fputs("<p class=\"meta\" id=\"judged\">Output: ", f);
    html_text(f, out_judged_words(oc->judged_by));
    fputs(".</p>\n", f);
}

void report_html(FILE *f, const options *o, const cost_table *t, const outcome *oc, const outcome *ref)
{
    char *method = oc->prof ? profile_method(oc->prof) : xstrdup(o->method ? o->method : "");
    char *pretty = report_pretty_method(method);

    html_page_open(f, o->label ? o->label : "Performance report", report_css);
    fputs("<h1>Performance report", f);
    if (o->label) {
        fputs(": ", f);
        html_text(f, o->label);
    }
    fputs("</h1>\n<p class=\"meta\">Method <code id=\"method\">", f);
    html_text(f, pretty);
    fputs("</code></p>\n", f);
    if (!oc->res) {
        failure(f, oc);
    } else {
        summary(f, t, oc, ref);
        methods_table(f, o, oc->res);
        report_flame(f, oc);
        report_lines(f, o, oc, ref);
        parts_table(f, oc->res, ref ? ref->res : NULL);
        if (ref && ref->res)
            differences(f, o, oc->res, ref->res);
    }
    footer(f, t, oc);
    html_page_close(f);
    free(pretty);
    free(method);
}
