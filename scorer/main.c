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
#include <unistd.h>

#include <openssl/crypto.h>

#include "batch.h"
#include "mac.h"
#include "schemas.h"
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
#include "sha256.h"
#include "sign.h"
#include "status.h"
#include "submission.h"
#include "outcmp.h"
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
/* How the output of the run being reported was judged: set from its signed
 * fields (or --judged-by) once known; --judged-by until then. */
static const char *run_judged_by;

static int junit_out(const options *o, const char *unit, const char *method, const char *status_word,
                     const char *message, const score_result *r, uint64_t ref_score, psf_err *err)
{
    const char *judged = run_judged_by ? run_judged_by
                         : o->judged_by && strcmp(o->judged_by, "none") != 0 ? o->judged_by : NULL;
    junit_case c = { .label = o->label, .method = method ? method : o->method, .status_word = status_word,
                     .message = message, .res = r, .unit = unit,
                     .has_max_score = o->has_max_score, .max_score = o->max_score,
                     .has_max_ratio = o->has_max_ratio, .ratio_micro = o->max_ratio_micro,
                     .ref_score = ref_score, .judged_by = judged };
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
    if (profile_load_file(&ref->prof, o->compare, err) != 0) {
        /* said of the reference, not of the profile scored (the message names the file) */
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        return psf_fail(err, err->status, "--compare: %.1000s", why);
    }
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

/* The key of --key-file or $PSF_KEY_FILE in *k; *kp is k, or NULL when no key
 * is named. create: make the key file when it does not exist (--sign). */
static int load_key(const options *o, int create, sign_key *k, const sign_key **kp, psf_err *err)
{
    const char *path = sign_key_path(o->key_file);
    *kp = NULL;
    if (!path)
        return 0;
    if (sign_key_load(k, path, create, err) != 0)
        return -1;
    *kp = k;
    return 0;
}

/*
 * How the run's output was judged (expect_output, check, junit), into buf,
 * or NULL when it was not: a result with signed fields says it itself (its
 * judged_by field; none there, or none at all, is "not judged"), an
 * unsigned one takes --judged-by.
 */
static const char *judged_of(const char *fields, const char *cli, char *buf, size_t n)
{
    if (fields && *fields) {
        if (sign_field(fields, "judged_by", buf, n) != 0 || strcmp(buf, "none") == 0)
            return NULL;
        return buf;
    }
    if (!cli || strcmp(cli, "none") == 0)
        return NULL;
    snprintf(buf, n, "%s", cli);
    return buf;
}

/*
 * The verdict on a judged run's output that get_score.sh signs into the
 * profile it keeps when the output was wrong (output_verdict=wrong_output
 * or tests_failed): that status, with its message, else ST_OK. Such a
 * profile's own status is ok (the method ran), but it is never scored.
 */
static psf_status verdict_of(const char *fields, const char **message)
{
    char v[32];
    psf_status st;
    if (!fields || sign_field(fields, "output_verdict", v, sizeof v) != 0 || strcmp(v, "ok") == 0)
        return ST_OK;
    st = status_from_word(v);
    if (st != ST_WRONG_OUTPUT && st != ST_TESTS_FAILED)
        st = ST_WRONG_OUTPUT;
    *message = st == ST_TESTS_FAILED ? "the run's JUnit tests failed (signed output_verdict): not scored"
                                     : "the run's output was judged wrong (signed output_verdict): not scored";
    return st;
}

/* --compare-output EXPECTED ACTUAL: 0 when equal; else wrong_output's code
 * and the first difference on stdout. */
static int run_compare_output(const options *o)
{
    unsigned char *e = NULL, *g = NULL;
    size_t el = 0, gl = 0;
    char msg[OUTCMP_MSG_MAX];
    psf_err err;
    int equal;

    if (xml_read_file(o->args[0], &e, &el, &err) != 0 || xml_read_file(o->args[1], &g, &gl, &err) != 0) {
        free(e);
        return fail_run(o, &err);
    }
    equal = outcmp_equal(e, el, g, gl, o->ignore_trailing_space, msg, sizeof msg);
    free(e);
    free(g);
    if (equal)
        return 0;
    printf("%s\n", msg);
    return fflush(stdout) == 0 ? status_exit_code(ST_WRONG_OUTPUT) : 70;
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
    char judged[32];
    run_judged_by = judged_of(o->submission, o->judged_by, judged, sizeof judged);
    psf_err err;
    if (junit_out(o, o->unit ? o->unit : "", NULL, o->status_word, o->status_message, NULL, 0, &err) != 0)
        fprintf(stderr, "psf-score: %s\n", err.msg);
    if (o->report) {
        cost_table none;
        outcome oc = { .status = st, .status_word = o->status_word, .message = o->status_message,
                       .judged_by = run_judged_by };
        memset(&none, 0, sizeof none);
        costs_builtin(&none);
        if (report_out(o, &none, &oc, NULL, &err) != 0)
            fprintf(stderr, "psf-score: %s\n", err.msg);
        costs_free(&none);
    }
    j = out_error_json(o->status_word, o->status_message);
    if (!o->submission && o->judged_by) {
        /* unsigned: as get_score.sh says (a bare --status-json stays three fields) */
        json_object_set_new(j, "output_checked", json_boolean(run_judged_by != NULL));
        json_object_set_new(j, "output_judge", psf_json_string(run_judged_by));
    }
    if (o->submission) {
        /* a run's failure, signed for its submission like a score */
        sign_key key;
        const sign_key *kp;
        char statement[SIGN_FIELDS_MAX + 300], mac[65];
        outcome oc = { 0 };
        snprintf(statement, sizeof statement, "status=%s score=null %s", o->status_word, o->submission);
        int bad = load_key(o, 0, &key, &kp, &err) != 0;
        if (!bad && !kp)
            bad = psf_fail(&err, ST_USAGE, "--submission with --status-json needs --key-file KEY or PSF_KEY_FILE") != 0;
        if (!bad)
            bad = sign_fields_check(o->submission, &err) != 0 || sign_fields_check(statement, &err) != 0;
        if (!bad && sign_statement(kp, statement, mac) != 0)
            bad = psf_fail(&err, ST_INTERNAL_ERROR, "cannot sign the result") != 0;
        if (bad) {
            options oj = *o;
            json_decref(j);
            oj.junit = NULL; /* written above, with the run's own status */
            return fail_run(&oj, &err);
        }
        oc.verification = "verified";
        oc.submission = o->submission;
        oc.judged_by = run_judged_by;
        oc.statement = statement;
        oc.statement_mac = mac;
        oc.key_id = kp->id;
        out_signature_json(j, &oc);
    }
    outbuf_open(&b);
    psf_json_write(b.f, j);
    json_decref(j);
    return outbuf_flush(&b, status_exit_code(st));
}

/* This machine's TSC rate: five intervals of 4 ms, so 20 ms of waiting. */
static uint64_t measure_tsc_hz(void)
{
    return cpu_tsc_hz(5, 4, NULL);
}

/*
 * Compare a calibrated table with this machine (its CPU and TSC rate, and
 * the JDK that wrote profile p, NULL: none) into mc, with this machine in
 * here. Measures the TSC for 20 ms unless tsc_hz (--tsc-hz, measured by the
 * caller, e.g. get_score.sh while the JVM ran) is given, so only output that
 * shows the result calls it. Returns mc, or NULL for a table no time is
 * predicted with.
 */
static const machine_check *check_machine(const cost_table *t, const profile *p, uint64_t tsc_hz,
                                          machine_here *here, machine_check *mc)
{
    if (t->builtin || !t->calibrated)
        return NULL;
    memset(here, 0, sizeof *here);
    cpu_ident_read(&here->cpu);
    here->tsc_hz = tsc_hz ? tsc_hz : measure_tsc_hz();
    here->jdk = p && p->has_jvm ? p->jvm_version : NULL;
    machine_check_table(t, here, mc);
    return mc;
}

/*
 * Read a profile once: the same bytes are checked against the key (k may be
 * NULL) and parsed, so what is verified is what is scored. *sha gets the
 * SHA-256 of the file's bytes, signature line included.
 */
static int load_signed(const char *path, const sign_key *k, profile *p, sign_info *sig,
                       char sha[65], psf_err *err)
{
    unsigned char *bytes;
    size_t len;
    int rc;

    memset(p, 0, sizeof *p);
    memset(sig, 0, sizeof *sig);
    if (xml_read_file(path, &bytes, &len, err) != 0)
        return -1;
    sign_check_profile(k, bytes, len, sig);
    sha256_hex(bytes, len, sha);
    rc = profile_load_memory(p, path, bytes, len, err);
    free(bytes);
    return rc;
}

/*
 * What --sign does: the profile at path, checked to be a profile, with a
 * signature line for o->submission under the key (created when missing),
 * in *out (malloc'd). The profile read is kept in *keep when keep is not
 * NULL. Returns 0, or -1 with err.
 */
static int sign_file(const options *o, const char *path, sign_key *key, unsigned char **out, size_t *out_len,
                     profile *keep, psf_err *err)
{
    const sign_key *kp;
    unsigned char *bytes;
    size_t len;
    profile p;
    int rc;

    if (!sign_key_path(o->key_file))
        return psf_fail(err, ST_USAGE, "%s needs --key-file KEY or PSF_KEY_FILE",
                        o->signed_copy ? "--signed-copy" : "--sign");
    if (load_key(o, 1, key, &kp, err) != 0 || xml_read_file(path, &bytes, &len, err) != 0)
        return -1;
    rc = profile_load_memory(&p, path, bytes, len, err) != 0 ||
         sign_profile(kp, bytes, len, o->submission, out, out_len, err) != 0 ? -1 : 0;
    if (rc == 0 && keep)
        *keep = p;
    else
        profile_free(&p);
    free(bytes);
    return rc;
}

/* The profile --signed-copy signed, before anything else was read. */
typedef struct signed_copy {
    sign_key key;
    unsigned char *bytes;   /* the signed profile as written to the file; NULL: none (any more) */
    size_t len;
    profile prof;           /* the profile as it was read for signing (owned while bytes is) */
} signed_copy;

/*
 * --signed-copy FILE: PROFILE signed as --sign signs it, and written to
 * FILE, first of all, as get_score.sh ran --sign before it scored FILE; the
 * scoring then checks these very bytes as it would check FILE read back,
 * and scores the profile they hold, as read for signing (the signature line
 * is an XML comment after the root element: the profile read back would be
 * the same, named FILE). One process, and one read and validation of the
 * profile, less. A profile that cannot be signed is reported as --sign
 * reports it (on stderr, its exit code; no result, no report, no FILE).
 * Returns 0, else the exit code to end with.
 */
static int make_signed_copy(const options *o, signed_copy *sc)
{
    psf_err err;

    memset(sc, 0, sizeof *sc);
    if (sign_file(o, o->args[0], &sc->key, &sc->bytes, &sc->len, &sc->prof, &err) != 0 ||
        outfile_write(o->signed_copy, sc->bytes, sc->len, "signed copy", &err) != 0) {
        options os = *o;
        free(sc->bytes);
        sc->bytes = NULL;
        profile_free(&sc->prof);
        os.format = FMT_TEXT;
        os.junit = NULL;
        return fail_run(&os, &err);
    }
    return 0;
}

/* Why a profile does not pass a check with key k (sig->state != SIGN_VALID). */
static const char *unverified_why(const sign_info *sig, const sign_key *k, char *buf, size_t n)
{
    switch (sig->state) {
    case SIGN_UNSIGNED:
        return "the profile carries no signature";
    case SIGN_OTHER_KEY:
        snprintf(buf, n, "the profile was signed with another key (%s, not %s)", sig->key_id, k->id);
        return buf;
    default:
        return "the profile's signature does not match its contents (edited, or not made by PSF)";
    }
}

static int run_score(const options *o, const cost_table *t, signed_copy *sc)
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
    sign_key key;
    const sign_key *kp;
    sign_info sig;
    char sha[65], why[200], statement[SIGN_FIELDS_MAX + 300], mac[65], judged[32];

    if (sc->bytes) {
        key = sc->key; /* the key that signed the copy */
        kp = &key;
    } else if (load_key(o, 0, &key, &kp, &err) != 0) {
        return fail_run(o, &err);
    }
    if (o->compare && reference_load(o, t, &ref, &err) != 0)
        return fail_run(o, &err);
    if (sc->bytes) {
        memset(&sig, 0, sizeof sig);
        sign_check_profile(kp, sc->bytes, sc->len, &sig);
        sha256_hex(sc->bytes, sc->len, sha);
        p = sc->prof; /* now run_score's */
        memset(&sc->prof, 0, sizeof sc->prof);
        free(sc->bytes);
        sc->bytes = NULL;
        free(p.path);
        p.path = xstrdup(o->signed_copy);
        code = 0;
    } else {
        code = load_signed(o->args[0], kp, &p, &sig, sha, &err);
    }
    if (code != 0) {
        profile_free(&p);
        reference_free(&ref);
        return fail_run(o, &err);
    }
    oc.path = o->profile_unnamed ? NULL : o->profile_name ? o->profile_name : p.path;
    oc.prof = &p;
    oc.status = p.status;
    oc.status_word = p.status_word;
    oc.message = p.message;
    oc.verification = sign_state_word(sig.state);
    oc.submission = sig.fields[0] ? sig.fields : NULL;
    oc.judged_by = judged_of(sig.fields, o->judged_by, judged, sizeof judged);
    run_judged_by = oc.judged_by;
    if (kp && sig.state != SIGN_VALID) {
        /* with a key, only what it signed is scored */
        oc.status = ST_UNVERIFIED;
        oc.status_word = status_word(ST_UNVERIFIED);
        oc.message = unverified_why(&sig, kp, why, sizeof why);
    } else if (p.status == ST_OK && verdict_of(sig.fields, &oc.message) != ST_OK) {
        oc.status = verdict_of(sig.fields, &oc.message);
        oc.status_word = status_word(oc.status);
    } else if (p.status == ST_OK) {
        if (score_profile(&p, t, o->with_overhead, &r, &err) != 0) {
            profile_free(&p);
            reference_free(&ref);
            return fail_run(o, &err);
        }
        oc.res = &r;
    }
    if (kp && sig.state == SIGN_VALID) {
        /* the result itself, signed: what a grader can check later */
        char score[24] = "null";
        if (oc.res)
            snprintf(score, sizeof score, "%llu", (unsigned long long)oc.res->score);
        snprintf(statement, sizeof statement,
                 "status=%s score=%s approximate=%s with_overhead=%s costs_used=%s profile_sha256=%s %s",
                 oc.status_word, score, oc.res && oc.res->approximate ? "true" : "false",
                 o->with_overhead ? "true" : "false", t->builtin ? "none" : t->sha256, sha, sig.fields);
        if (sign_fields_check(statement, &err) != 0 || sign_statement(kp, statement, mac) != 0) {
            if (oc.res)
                score_free(&r);
            profile_free(&p);
            reference_free(&ref);
            psf_fail(&err, ST_INTERNAL_ERROR, "cannot sign the result");
            return fail_run(o, &err);
        }
        oc.statement = statement;
        oc.statement_mac = mac;
        oc.key_id = kp->id;
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
        oc.machine = check_machine(t, &p, o->tsc_hz, &here, &mc);
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
    sign_info sig;          /* its signature, checked with the key when there is one */
    char sha[65];           /* SHA-256 of the file */
    const char *dup;        /* an earlier label with the same submission, or NULL */
    char judged[32];        /* how its output was judged (judged_of) */
    const char *judged_by;  /* judged, or NULL: not judged */
} rank_item;

/*
 * The label of an earlier item that shows the same submission as items[i]:
 * the same signed class-path digest, or the very same profile file bytes
 * (a copy relabelled). NULL when there is none.
 */
static const char *duplicate_of(const rank_item *items, size_t i)
{
    char a[80], b[80];
    int has_a = sign_field(items[i].sig.fields, "classpath_sha256", a, sizeof a) == 0;
    for (size_t j = 0; j < i; j++) {
        if (!items[j].loaded)
            continue;
        if (strcmp(items[j].sha, items[i].sha) == 0)
            return items[j].label;
        if (has_a && sign_field(items[j].sig.fields, "classpath_sha256", b, sizeof b) == 0 && strcmp(a, b) == 0)
            return items[j].label;
    }
    return NULL;
}

/*
 * A profile whose JVM every profile of the ranking that names one shares,
 * for the JDK of the machine check; NULL when none names one or they differ.
 */
static const profile *common_jvm(const outcome *rows, size_t n)
{
    const profile *first = NULL;

    for (size_t i = 0; i < n; i++) {
        const profile *p = rows[i].prof;
        if (!p || !p->has_jvm)
            continue;
        if (!first)
            first = p;
        else if (strcmp(first->jvm_version, p->jvm_version) != 0)
            return NULL;
    }
    return first;
}

static int run_rank(const options *o, const cost_table *t)
{
    size_t n = (size_t)o->n_args + (size_t)o->n_failed;
    rank_item *items = xcalloc(n, sizeof *items);
    rank_entry *order = xcalloc(n, sizeof *order);
    outcome *rows = xcalloc(n, sizeof *rows);
    int code = 0, unverified = 0, unjudged = 0;
    const char *verdict_msg = NULL;
    outbuf b;
    sign_key key;
    const sign_key *kp;
    psf_err kerr;
    machine_here here;
    machine_check mc;

    if (load_key(o, 0, &key, &kp, &kerr) != 0) {
        free(items);
        free(order);
        free(rows);
        return fail_run(o, &kerr);
    }
    if (!kp)
        fputs("psf-score: no --key-file or PSF_KEY_FILE: signatures are not checked, every row is unverified\n", stderr);
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
        it->loaded = load_signed(it->path, kp, &it->prof, &it->sig, it->sha, &it->err) == 0;
        if (it->loaded && kp && it->sig.state != SIGN_VALID) {
            /* with a key, a row is ranked only when the key signed it */
            char why[200];
            psf_fail(&it->err, ST_UNVERIFIED, "%s", unverified_why(&it->sig, kp, why, sizeof why));
            fprintf(stderr, "psf-score: %s: %s\n", it->label, it->err.msg);
            unverified = 1;
        } else if (it->loaded && it->prof.status == ST_OK && verdict_of(it->sig.fields, &verdict_msg) != ST_OK) {
            /* kept from a run whose output was judged wrong: listed with that status */
            psf_fail(&it->err, verdict_of(it->sig.fields, &verdict_msg), "%s", verdict_msg);
        } else if (it->loaded && it->prof.status == ST_OK) {
            it->scored = score_profile(&it->prof, t, o->with_overhead, &it->res, &it->err) == 0;
        }
        if (!it->loaded || (it->prof.status == ST_OK && !it->scored && it->err.status != ST_UNVERIFIED &&
                            it->err.status != ST_WRONG_OUTPUT && it->err.status != ST_TESTS_FAILED)) {
            fprintf(stderr, "psf-score: %s: %s\n", it->label, it->err.msg);
            code = status_exit_code(ST_BAD_INPUT);
        }
        if (it->loaded)
            it->judged_by = judged_of(it->sig.fields, NULL, it->judged,
                                      sizeof it->judged);
        if (o->require_checked && it->scored && !it->judged_by) {
            /* ranked only when the run that was scored was also judged */
            score_free(&it->res);
            it->scored = 0;
            psf_fail(&it->err, ST_NOT_JUDGED, "its output was not judged in the run that was scored "
                     "(get_score.sh --expect-output or --check, or a JUnit run): not ranked (--require-checked)");
            fprintf(stderr, "psf-score: %s: %s\n", it->label, it->err.msg);
            unjudged = 1;
        }
        if (it->loaded && (it->dup = duplicate_of(items, i)) != NULL)
            fprintf(stderr, "psf-score: %s: the same submission as %s\n", it->label, it->dup);
        order[i] = (rank_entry){ .label = it->label, .scored = it->scored,
                                 .score = it->scored ? it->res.score : 0, .index = i };
    }
    rank_order(order, n);
    for (size_t k = 0; k < n; k++) {
        rank_item *it = &items[order[k].index];
        outcome *oc = &rows[k];
        oc->label = it->label;
        oc->path = it->path;
        oc->verification = it->loaded ? sign_state_word(it->sig.state) : NULL;
        oc->submission = it->sig.fields[0] ? it->sig.fields : NULL;
        oc->duplicate_of = it->dup;
        oc->judged_by = it->judged_by;
        if (it->failed_word) {
            oc->status = status_from_word(it->failed_word);
            oc->status_word = it->failed_word;
            oc->message = it->failed_msg;
        } else if (it->loaded && (it->err.status == ST_UNVERIFIED || it->err.status == ST_NOT_JUDGED ||
                                  it->err.status == ST_WRONG_OUTPUT || it->err.status == ST_TESTS_FAILED)) {
            oc->status = it->err.status;
            oc->status_word = status_word(it->err.status);
            oc->message = it->err.msg;
            oc->prof = &it->prof;
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
    if (code == 0 && unverified)
        code = status_exit_code(ST_UNVERIFIED);
    if (code == 0 && unjudged)
        code = status_exit_code(ST_NOT_JUDGED);
    outbuf_open(&b);
    if (o->format == FMT_HTML)
        leaderboard_html(b.f, o, t, order, rows, n, check_machine(t, common_jvm(rows, n), o->tsc_hz, &here, &mc),
                         &here);
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

/* --sign: the profile, valid as a profile, with a signature line. */
static int run_sign(const options *o)
{
    sign_key key;
    psf_err err;
    unsigned char *out;
    size_t out_len;
    outbuf b;

    if (sign_file(o, o->args[0], &key, &out, &out_len, NULL, &err) != 0)
        return fail_run(o, &err);
    outbuf_open(&b);
    fwrite(out, 1, out_len, b.f);
    free(out);
    return outbuf_flush(&b, 0);
}

/*
 * The value of the one "key": "..." string in a JSON text, when it occurs
 * exactly once and holds no escape. Used only on the few fields a signed
 * result states, whose values are tokens without quotes or backslashes.
 */
static int json_one_string(const char *text, const char *key, char *out, size_t n)
{
    char pat[64];
    const char *at, *p, *end;

    snprintf(pat, sizeof pat, "\"%s\"", key);
    if (!(at = strstr(text, pat)) || strstr(at + 1, pat))
        return -1;
    p = at + strlen(pat);
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    if (*p++ != ':')
        return -1;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    if (*p == '"') {
        p++;
        if (!(end = strchr(p, '"')) || memchr(p, '\\', (size_t)(end - p)))
            return -1;
    } else {
        /* a bare number or null */
        for (end = p; (*end >= '0' && *end <= '9') || (*end >= 'a' && *end <= 'z'); end++)
            ;
    }
    if ((size_t)(end - p) >= n || end == p)
        return -1;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
    return 0;
}

/* Check a JSON result (get_score.sh --json) against k; *why says what failed.
 * Its signature covers the statement; its status and score must be the
 * statement's. */
static int verify_json(const sign_key *k, const char *text, char *statement, size_t n, const char **why)
{
    char mac[80], key_id[40], want[65], st[64], sc[32], v[64];

    if (json_one_string(text, "statement", statement, n) != 0 ||
        json_one_string(text, "hmac_sha256", mac, sizeof mac) != 0 ||
        json_one_string(text, "key_id", key_id, sizeof key_id) != 0) {
        *why = "no signature (or more than one)";
        return -1;
    }
    if (strcmp(key_id, k->id) != 0) {
        *why = "signed with another key";
        return -1;
    }
    if (sign_statement(k, statement, want) != 0 || strlen(mac) != 64 || CRYPTO_memcmp(want, mac, 64) != 0) {
        *why = "the signature does not match the statement";
        return -1;
    }
    if (json_one_string(text, "status", st, sizeof st) != 0 || json_one_string(text, "score", sc, sizeof sc) != 0 ||
        sign_field(statement, "status", v, sizeof v) != 0 || strcmp(v, st) != 0 ||
        sign_field(statement, "score", v, sizeof v) != 0 || strcmp(v, sc) != 0) {
        *why = "its status or score is not the signed one";
        return -1;
    }
    /* whether the output was judged: the signed judged_by (absent: not judged) */
    int judged = sign_field(statement, "judged_by", v, sizeof v) == 0 && strcmp(v, "none") != 0;
    if (json_one_string(text, "output_checked", st, sizeof st) == 0 &&
        strcmp(st, judged ? "true" : "false") != 0) {
        *why = "its output_checked is not the signed one (judged_by)";
        return -1;
    }
    return 0;
}

/* --verify FILE...: every profile and JSON result checked with the key. */
static int run_verify(const options *o)
{
    sign_key key;
    const sign_key *kp;
    psf_err err;
    int bad = 0;
    outbuf b;
    json_t *arr = json_array();

    if (load_key(o, 0, &key, &kp, &err) == 0 && !kp)
        psf_fail(&err, ST_USAGE, "--verify needs --key-file KEY or PSF_KEY_FILE");
    if (!kp) {
        json_decref(arr);
        return fail_run(o, &err);
    }
    outbuf_open(&b);
    for (int i = 0; i < o->n_args; i++) {
        const char *path = o->args[i], *why = NULL, *kind = "profile";
        unsigned char *bytes = NULL;
        size_t len = 0;
        char statement[SIGN_FIELDS_MAX + 300] = "", whybuf[200];
        sign_info sig = { 0 };
        const char *p;
        int ok = 0;

        if (xml_read_file(path, &bytes, &len, &err) != 0) {
            why = err.msg;
        } else {
            for (p = (const char *)bytes; *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'; p++)
                ;
            if (*p == '{') {
                kind = "result";
                ok = verify_json(kp, (const char *)bytes, statement, sizeof statement, &why) == 0 &&
                     strlen((const char *)bytes) == len;
                if (!ok && !why)
                    why = "a NUL byte in the file";
            } else {
                sign_check_profile(kp, bytes, len, &sig);
                ok = sig.state == SIGN_VALID;
                if (ok)
                    snprintf(statement, sizeof statement, "%s", sig.fields);
                else
                    why = unverified_why(&sig, kp, whybuf, sizeof whybuf);
            }
        }
        bad |= !ok;
        if (o->format == FMT_JSON) {
            json_t *e = json_object();
            json_object_set_new(e, "path", psf_json_string(path));
            json_object_set_new(e, "kind", psf_json_string(kind));
            json_object_set_new(e, "verified", json_boolean(ok));
            json_object_set_new(e, "statement", ok ? psf_json_string(statement) : json_null());
            json_object_set_new(e, "message", ok ? json_null() : psf_json_string(why));
            json_array_append_new(arr, e);
        } else if (ok) {
            fprintf(b.f, "verified    %s (%s): %s\n", path, kind, statement);
        } else {
            fprintf(b.f, "UNVERIFIED  %s (%s): %s\n", path, kind, why);
        }
        free(bytes);
    }
    if (o->format == FMT_JSON)
        psf_json_write(b.f, arr);
    json_decref(arr);
    return outbuf_flush(&b, bad ? status_exit_code(ST_UNVERIFIED) : 0);
}

/* One request: what psf-score does with the arguments argv. */
static int run_request(int argc, char **argv)
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
    case MODE_SIGN:
        code = run_sign(&o);
        break;
    case MODE_INIT_KEY: {
        sign_key key;
        const sign_key *kp;
        if (load_key(&o, 1, &key, &kp, &err) != 0) {
            code = fail_run(&o, &err);
        } else if (!kp) {
            psf_fail(&err, ST_USAGE, "--init-key needs --key-file KEY or PSF_KEY_FILE");
            code = fail_run(&o, &err);
        } else {
            printf("%s\n", kp->id);
            code = fflush(stdout) == 0 ? 0 : 70;
        }
        break;
    }
    case MODE_VERIFY:
        code = run_verify(&o);
        break;
    case MODE_MEASURE_TSC:
        printf("%llu\n", (unsigned long long)measure_tsc_hz());
        code = fflush(stdout) == 0 ? 0 : 70;
        break;
    case MODE_SUBMISSION_DIGESTS: {
        char fields[SUBMISSION_DIGESTS_LEN];
        submission sub = { .classpath = o.classpath, .main_class = o.main_class, .method = o.method,
                           .jdk = o.jdk, .args = o.args, .n_args = o.n_args };
        if (submission_digests(&sub, fields, sizeof fields, stderr, &err) != 0) {
            code = fail_run(&o, &err);
        } else {
            printf("%s\n", fields);
            code = fflush(stdout) == 0 ? 0 : 70;
        }
        break;
    }
    case MODE_COMPARE_OUTPUT:
        code = run_compare_output(&o);
        break;
    case MODE_CHECK_TABLE: {
        /* The table, and the --compare reference, are read, parsed, validated
         * and scored exactly as for scoring, so that a run refuses them
         * before its program runs, not after. */
        reference ref;
        if (load_table(&o, &t, &err) != 0 || (o.compare && reference_load(&o, &t, &ref, &err) != 0)) {
            code = fail_run(&o, &err);
            break;
        }
        if (o.compare)
            reference_free(&ref);
        if (o.costs)
            printf("%s\n", t.sha256);
        code = fflush(stdout) == 0 ? 0 : 70;
        break;
    }
    case MODE_SCORE:
    case MODE_RANK: {
        signed_copy sc;
        memset(&sc, 0, sizeof sc);
        if (o.signed_copy && (code = make_signed_copy(&o, &sc)) != 0)
            break;
        if (load_table(&o, &t, &err) != 0)
            code = fail_run(&o, &err);
        else
            code = o.mode == MODE_SCORE ? run_score(&o, &t, &sc) : run_rank(&o, &t);
        free(sc.bytes);
        profile_free(&sc.prof);
        OPENSSL_cleanse(&sc.key, sizeof sc.key);
        break;
    }
    default:
        code = 70;
    }
    costs_free(&t);
    options_free(&o);
    xml_cleanup();
    return code;
}

/* The most --more reads on stdin: a request's words, paths included, are
 * far fewer bytes. */
#define MORE_MAX_BYTES (1024 * 1024)

/* psf-score --batch [--more] REQUEST...: each REQUEST run as run_request
 * would run it on its own, in a child of this process (batch.h); with
 * --more, then the requests read on stdin. */
static int run_batch(int argc, char **argv)
{
    batch_req *reqs;
    psf_err err;
    int more = argc > 2 && strcmp(argv[2], "--more") == 0;
    int first = 2 + more;
    int n = batch_parse(argv[0], argc - first, argv + first, &reqs, &err);
    if (n < 0) {
        fprintf(stderr, "psf-score: %s\ntry 'psf-score --help'\n", err.msg);
        return status_exit_code(err.status);
    }
    int rc = batch_run(reqs, n, run_request, STDOUT_FILENO, BATCH_RELEASE_STDERR | (more ? BATCH_STDIN_NULL : 0));
    batch_free(reqs, n);
    if (rc != 0 || !more)
        return rc == 0 ? 0 : 70;

    /* Before the caller's later requests arrive (get_score.sh sends its
     * one once the JVM has ended), what every child would do first is done
     * once, here, for the children forked from here on: libcrypto set up
     * (its configuration read, SHA-256 and HMAC fetched; some 5 million
     * instructions) and the two schemas compiled (some 4 million). What
     * cannot be done here a child does as it would have. */
    char hex[65];
    unsigned char key[MAC_KEY_BYTES] = { 0 }, mac[MAC_BYTES];
    sha256_hex("", 0, hex);
    (void)mac_compute(key, "", 0, mac);
    (void)xml_schema_compile(psf_costs_xsd, psf_costs_xsd_len, &err);
    (void)xml_schema_compile(psf_profile_xsd, psf_profile_xsd_len, &err);

    char **words;
    int nw = batch_read_words(STDIN_FILENO, MORE_MAX_BYTES, &words);
    if (nw <= 0) {
        free(nw < 0 ? NULL : words);
        return nw == 0 ? 0 : 70;
    }
    n = batch_parse(argv[0], nw, words, &reqs, &err);
    if (n < 0) {
        free(words);
        return status_exit_code(err.status);
    }
    rc = batch_run(reqs, n, run_request, STDOUT_FILENO, BATCH_STDIN_NULL);
    batch_free(reqs, n);
    free(words);
    return rc == 0 ? 0 : 70;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--batch") == 0)
        return run_batch(argc, argv);
    return run_request(argc, argv);
}
