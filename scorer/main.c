/*
 * main.c - psf-score: score a profile, explain it, or rank several.
 *
 * The entry point only wires the pieces together: options -> cost table ->
 * profile(s) -> score -> writer, and turns the first error into a message and
 * an exit code (status.c). All output is built in memory and written at the
 * end, so a failure never leaves half a result on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costs.h"
#include "cpu_ident.h"
#include "err.h"
#include "json.h"
#include "junit.h"
#include "leaderboard.h"
#include "cli.h"
#include "machine_check.h"
#include "output.h"
#include "profile_read.h"
#include "outfile.h"
#include "rank.h"
#include "report.h"
#include "score.h"
#include "status.h"
#include "xmlload.h"

/* Output under construction. */
typedef struct outbuf {
    FILE *f;
    char *data;
    size_t len;
} outbuf;

static void outbuf_open(outbuf *b)
{
    b->data = NULL;
    b->len = 0;
    b->f = open_memstream(&b->data, &b->len);
    if (!b->f) {
        fputs("psf-score: cannot buffer output\n", stderr);
        exit(70);
    }
}

/* Write the buffer to stdout; returns the exit code to use (code, or 70 when
 * stdout could not take it). */
static int outbuf_flush(outbuf *b, int code)
{
    int bad = fclose(b->f) != 0;
    if (!bad && b->len && fwrite(b->data, 1, b->len, stdout) != b->len)
        bad = 1;
    if (fflush(stdout) != 0)
        bad = 1;
    free(b->data);
    if (bad) {
        fputs("psf-score: cannot write the result to stdout\n", stderr);
        return 70;
    }
    return code;
}

static int junit_broken;   /* writing --junit failed once */

/* Write the --junit report of one attempt (nothing without --junit); r is
 * NULL when the attempt was not scored, ref_score the --compare profile's
 * score. Returns 0, or -1 with err. */
static int junit_out(const options *o, const char *unit, const char *method, const char *status_word,
                     const char *message, const score_result *r, uint64_t ref_score, psf_err *err)
{
    junit_case c = { .label = o->label, .method = method ? method : o->method, .status_word = status_word,
                     .message = message, .res = r, .unit = unit,
                     .has_max_score = o->has_max_score, .max_score = o->max_score,
                     .has_max_ratio = o->has_max_ratio, .ratio_micro = o->max_ratio_micro,
                     .ref_score = ref_score };
    if (!o->junit || junit_broken)
        return 0;
    if (junit_write_file(o->junit, &c, err) != 0) {
        junit_broken = 1;   /* fail_run must not try it again */
        return -1;
    }
    return 0;
}

/* Report an error that ends the run: JSON on stdout when asked, and always
 * one line on stderr; with --junit, a failed test case too. */
static int fail_run(const options *o, const psf_err *err)
{
    psf_err jerr;
    if (o->junit && err->status != ST_USAGE &&
        junit_out(o, o->unit ? o->unit : "", NULL, status_word(err->status), err->msg, NULL, 0, &jerr) != 0)
        fprintf(stderr, "psf-score: %s\n", jerr.msg);
    fprintf(stderr, "psf-score: %s\n", err->msg);
    if (err->status == ST_USAGE)
        fputs("try 'psf-score --help'\n", stderr);
    if (o->format == FMT_JSON) {
        outbuf b;
        json_t *j = out_error_json(status_word(err->status), err->msg);
        outbuf_open(&b);
        psf_json_write(b.f, j);
        json_decref(j);
        return outbuf_flush(&b, status_exit_code(err->status));
    }
    return status_exit_code(err->status);
}

static int load_table(const options *o, cost_table *t, psf_err *err)
{
    if (!o->costs)
        costs_builtin(t);
    else if (costs_load_file(t, o->costs, err) != 0)
        return -1;
    if (o->costs_sha256[0] && strcmp(o->costs_sha256, t->sha256) != 0)
        return psf_fail(err, ST_BAD_INPUT, "%s: sha256 is %s, not %s as --costs-sha256 says",
                        t->path, t->sha256, o->costs_sha256);
    if (o->unit && strcmp(o->unit, t->unit) != 0)
        return psf_fail(err, ST_BAD_INPUT, "%s: the cost table's unit is \"%s\", not \"%s\" as --unit says",
                        t->path ? t->path : "built-in table", t->unit, o->unit);
    return 0;
}

/* The --compare profile, scored with the same table and buckets. */
typedef struct reference {
    profile prof;
    score_result res;
    outcome oc;
    int loaded;
} reference;

static int reference_load(const options *o, const cost_table *t, reference *ref, psf_err *err)
{
    memset(ref, 0, sizeof *ref);
    if (profile_load_file(&ref->prof, o->compare, err) != 0)
        return -1;
    if (ref->prof.status != ST_OK) {
        psf_fail(err, ST_BAD_INPUT, "--compare %s: the reference was not scored (status %s)", o->compare,
                 ref->prof.status_word);
        profile_free(&ref->prof);
        return -1;
    }
    if (score_profile(&ref->prof, t, o->with_overhead, &ref->res, err) != 0) {
        profile_free(&ref->prof);
        return -1;
    }
    ref->loaded = 1;
    ref->oc = (outcome){ .path = ref->prof.path, .status = ST_OK, .status_word = "ok",
                         .prof = &ref->prof, .res = &ref->res };
    return 0;
}

static void reference_free(reference *ref)
{
    if (!ref->loaded)
        return;
    score_free(&ref->res);
    profile_free(&ref->prof);
    ref->loaded = 0;
}

/* Write the --report page of one attempt (nothing without --report). */
static int report_out(const options *o, const cost_table *t, const outcome *oc, const reference *ref,
                      psf_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;

    if (!o->report)
        return 0;
    if (!(f = open_memstream(&buf, &len)))
        return psf_fail(err, ST_INTERNAL_ERROR, "cannot buffer the report");
    report_html(f, o, t, oc, ref && ref->loaded ? &ref->oc : NULL);
    if (fclose(f) != 0) {
        free(buf);
        return psf_fail(err, ST_INTERNAL_ERROR, "cannot buffer the report");
    }
    rc = outfile_write(o->report, buf, len, "report", err);
    free(buf);
    return rc;
}

static int run_status_json(const options *o)
{
    psf_status st = status_from_word(o->status_word);
    outbuf b;
    json_t *j;

    if (st == ST_OK) {
        psf_err err;
        psf_fail(&err, ST_USAGE, "--status-json needs a failure status, not ok");
        return fail_run(o, &err);
    }
    psf_err err;
    if (junit_out(o, o->unit ? o->unit : "", NULL, o->status_word, o->status_message, NULL, 0, &err) != 0)
        fprintf(stderr, "psf-score: %s\n", err.msg);
    if (o->report) {
        cost_table none;
        outcome oc = { .status = st, .status_word = o->status_word, .message = o->status_message };
        memset(&none, 0, sizeof none);
        costs_builtin(&none);
        if (report_out(o, &none, &oc, NULL, &err) != 0)
            fprintf(stderr, "psf-score: %s\n", err.msg);
        costs_free(&none);
    }
    j = out_error_json(o->status_word, o->status_message);
    outbuf_open(&b);
    psf_json_write(b.f, j);
    json_decref(j);
    return outbuf_flush(&b, status_exit_code(st));
}

/*
 * Compare a calibrated table with this machine (its CPU and TSC rate, and
 * the JDK that wrote profile p, NULL: none) into mc, with this machine in
 * here. Measures the TSC for 20 ms, so only output that shows the result
 * calls it. Returns mc, or NULL for a table no time is predicted with.
 */
static const machine_check *check_machine(const cost_table *t, const profile *p, machine_here *here,
                                          machine_check *mc)
{
    if (t->builtin || !t->calibrated)
        return NULL;
    memset(here, 0, sizeof *here);
    cpu_ident_read(&here->cpu);
    here->tsc_hz = cpu_tsc_hz(5, 4, NULL);
    here->jdk = p && p->has_jvm ? p->jvm_version : NULL;
    machine_check_table(t, here, mc);
    return mc;
}

static int run_score(const options *o, const cost_table *t)
{
    reference ref = { 0 };
    profile p;
    score_result r;
    psf_err err;
    outcome oc = { 0 };
    machine_here here;
    machine_check mc;
    outbuf b;
    int code;

    if (o->compare && reference_load(o, t, &ref, &err) != 0)
        return fail_run(o, &err);
    if (profile_load_file(&p, o->args[0], &err) != 0) {
        reference_free(&ref);
        return fail_run(o, &err);
    }
    oc.path = o->profile_name ? o->profile_name : p.path;
    oc.prof = &p;
    oc.status = p.status;
    oc.status_word = p.status_word;
    oc.message = p.message;
    if (p.status == ST_OK) {
        if (score_profile(&p, t, o->with_overhead, &r, &err) != 0) {
            profile_free(&p);
            reference_free(&ref);
            return fail_run(o, &err);
        }
        oc.res = &r;
    }
    if (o->junit || o->report) {
        char *m = profile_method(&p);
        int bad = junit_out(o, t->unit, m, oc.status_word, oc.message, oc.res,
                            ref.loaded ? ref.res.score : 0, &err) != 0 ||
                  report_out(o, t, &oc, &ref, &err) != 0;
        free(m);
        if (bad) {
            if (oc.res)
                score_free(&r);
            profile_free(&p);
            reference_free(&ref);
            return fail_run(o, &err);
        }
    }
    reference_free(&ref);

    if (o->format == FMT_JSON || (oc.res && !o->score_only)) {
        oc.machine = check_machine(t, &p, &here, &mc);
        oc.here = &here;
    }
    outbuf_open(&b);
    if (o->format == FMT_JSON) {
        json_t *j = out_score_json(o, t, &oc);
        psf_json_write(b.f, j);
        json_decref(j);
    } else if (!oc.res) {
        out_status_text(stderr, &oc);
    } else if (o->score_only) {
        out_score_only(b.f, oc.res);
    } else {
        out_score_text(b.f, o, t, &oc);
        if (o->explain)
            out_explain_text(b.f, o, t, oc.res);
    }
    code = outbuf_flush(&b, status_exit_code(oc.status));
    if (oc.res)
        score_free(&r);
    profile_free(&p);
    return code;
}

/* One LABEL=PROFILE of --rank and what became of it. */
typedef struct rank_item {
    char *label;            /* owned */
    const char *path;       /* borrowed from argv */
    profile prof;
    int loaded;
    score_result res;
    int scored;
    psf_err err;            /* when not loaded or not scored */
    char *failed_word;      /* owned: --failed's STATUS, or NULL */
    const char *failed_msg; /* --failed's MESSAGE (borrowed from argv) */
} rank_item;

static int run_rank(const options *o, const cost_table *t)
{
    size_t n = (size_t)o->n_args + (size_t)o->n_failed;
    rank_item *items = xcalloc(n, sizeof *items);
    rank_entry *order = xcalloc(n, sizeof *order);
    outcome *rows = xcalloc(n, sizeof *rows);
    int code = 0;
    outbuf b;

    for (size_t i = 0; i < n; i++) {
        rank_item *it = &items[i];
        const char *arg = i < (size_t)o->n_args ? o->args[i] : o->failed[i - (size_t)o->n_args];
        const char *eq = strchr(arg, '=');
        it->label = xmalloc((size_t)(eq - arg) + 1);
        memcpy(it->label, arg, (size_t)(eq - arg));
        it->label[eq - arg] = '\0';
        if (i >= (size_t)o->n_args) {
            /* --failed LABEL=STATUS:MESSAGE: a run that never produced a profile */
            const char *colon = strchr(eq, ':');
            it->failed_word = xmalloc((size_t)(colon - eq));
            memcpy(it->failed_word, eq + 1, (size_t)(colon - eq - 1));
            it->failed_word[colon - eq - 1] = '\0';
            it->failed_msg = colon + 1;
            order[i] = (rank_entry){ .label = it->label, .scored = 0, .index = i };
            continue;
        }
        it->path = eq + 1;
        it->loaded = profile_load_file(&it->prof, it->path, &it->err) == 0;
        if (it->loaded && it->prof.status == ST_OK)
            it->scored = score_profile(&it->prof, t, o->with_overhead, &it->res, &it->err) == 0;
        if (!it->loaded || (it->prof.status == ST_OK && !it->scored)) {
            fprintf(stderr, "psf-score: %s: %s\n", it->label, it->err.msg);
            code = status_exit_code(ST_BAD_INPUT);
        }
        order[i] = (rank_entry){ .label = it->label, .scored = it->scored,
                                 .score = it->scored ? it->res.score : 0, .index = i };
    }
    rank_order(order, n);
    for (size_t k = 0; k < n; k++) {
        rank_item *it = &items[order[k].index];
        outcome *oc = &rows[k];
        oc->label = it->label;
        oc->path = it->path;
        if (it->failed_word) {
            oc->status = status_from_word(it->failed_word);
            oc->status_word = it->failed_word;
            oc->message = it->failed_msg;
        } else if (it->scored) {
            oc->status = ST_OK;
            oc->status_word = "ok";
            oc->res = &it->res;
            oc->prof = &it->prof;
        } else if (it->loaded && it->prof.status != ST_OK) {
            oc->status = it->prof.status;
            oc->status_word = it->prof.status_word;
            oc->message = it->prof.message ? it->prof.message : "";
            oc->prof = &it->prof;
        } else {
            oc->status = it->err.status;
            oc->status_word = status_word(it->err.status);
            oc->message = it->err.msg;
        }
    }
    outbuf_open(&b);
    if (o->format == FMT_HTML)
        leaderboard_html(b.f, o, t, order, rows, n);
    else
        out_rank(b.f, o, t, order, rows, n);
    code = outbuf_flush(&b, code);

    for (size_t i = 0; i < n; i++) {
        free(items[i].label);
        free(items[i].failed_word);
        if (items[i].scored)
            score_free(&items[i].res);
        if (items[i].loaded)
            profile_free(&items[i].prof);
    }
    free(items);
    free(order);
    free(rows);
    return code;
}

int main(int argc, char **argv)
{
    options o;
    cost_table t;
    psf_err err;
    int code;

    memset(&t, 0, sizeof t);
    psf_json_init();
    if (options_parse(&o, argc, argv, &err) != 0) {
        code = fail_run(&o, &err);
        options_free(&o);
        return code;
    }
    switch (o.mode) {
    case MODE_HELP:
        fputs(options_usage, stdout);
        code = fflush(stdout) == 0 ? 0 : 70;
        break;
    case MODE_STATUS_JSON:
        code = run_status_json(&o);
        break;
    case MODE_STATUS_TABLE:
        status_print_table(stdout);
        code = fflush(stdout) == 0 ? 0 : 70;
        break;
    case MODE_CHECK_TABLE:
        /* The table is read, parsed and validated exactly as for scoring. */
        if (load_table(&o, &t, &err) != 0) {
            code = fail_run(&o, &err);
            break;
        }
        printf("%s\n", t.sha256);
        code = fflush(stdout) == 0 ? 0 : 70;
        break;
    case MODE_SCORE:
    case MODE_RANK:
        if (load_table(&o, &t, &err) != 0) {
            code = fail_run(&o, &err);
            break;
        }
        code = o.mode == MODE_SCORE ? run_score(&o, &t) : run_rank(&o, &t);
        break;
    default:
        code = 70;
    }
    costs_free(&t);
    options_free(&o);
    xml_cleanup();
    return code;
}
