/*
 * output.c - text, JSON and CSV writers (see output.h).
 */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "calls.h"

/* ---- small formatting helpers ------------------------------------------ */

/* Text for a terminal: control characters become '?'. */
static void put_text(FILE *f, const char *s)
{
    for (; s && *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

/* A micro-unit amount as a decimal ("12.5"), in buf. */
static const char *micro_str(psf_u128 m, char buf[48])
{
    fixed_format_micro(m, buf, 48);
    return buf;
}

/* v in decimal, in buf. */
static const char *u64_str(uint64_t v, char buf[24])
{
    snprintf(buf, 24, "%llu", (unsigned long long)v);
    return buf;
}

/* Share in percent with one decimal, "12.5". */
static const char *share_str(psf_u128 part, psf_u128 total, char buf[16])
{
    unsigned pm = fixed_share_permille(part, total);
    snprintf(buf, 16, "%u.%u", pm / 10, pm % 10);
    return buf;
}

/* A micro-unit amount as an exact JSON number. */
static json_t *micro_json(psf_u128 m)
{
    char buf[48];
    return psf_json_number(micro_str(m, buf));
}

/* Predicted time in whole nanoseconds (see output.h). */
int out_predicted_ns(const cost_table *t, const score_result *r, uint64_t *ns)
{
    if (!r || !t->calibrated || !t->tsc_hz || strcmp(t->unit, "cycles") != 0)
        return 0;
    psf_u128 v = ((psf_u128)r->score * 1000000000u * 2 + t->tsc_hz) / ((psf_u128)t->tsc_hz * 2);
    if (v > UINT64_MAX)
        return 0;
    *ns = (uint64_t)v;
    return 1;
}

/* Rows to show of n under --top (0 = all). */
static size_t top_n(const options *o, size_t n)
{
    return o->top == 0 || o->top > n ? n : o->top;
}

/* ---- JSON --------------------------------------------------------------- */

json_t *out_error_json(const char *status_word, const char *message)
{
    json_t *j = json_object();
    json_object_set_new(j, "status", psf_json_string(status_word));
    json_object_set_new(j, "score", json_null());
    json_object_set_new(j, "message", psf_json_string(message));
    return j;
}

/* A CPU family, model or stepping; null when unknown (-1). */
static json_t *cpu_number_json(long v)
{
    char buf[24];
    return v >= 0 ? psf_json_number(u64_str((uint64_t)v, buf)) : json_null();
}

/* The cost table's identity and calibration; null for the built-in table. */
static json_t *table_json(const cost_table *t)
{
    json_t *j, *c;

    if (t->builtin)
        return json_null();
    j = json_object();
    json_object_set_new(j, "path", psf_json_string(t->path));
    json_object_set_new(j, "sha256", psf_json_string(t->sha256));
    json_object_set_new(j, "calibrated", json_boolean(t->calibrated));
    json_object_set_new(j, "unit", psf_json_string(t->unit));
    if (!t->calibrated) {
        json_object_set_new(j, "calibration", json_null());
        return j;
    }
    c = json_object();
    json_object_set_new(c, "cpu_model", psf_json_string(t->cpu_model));
    json_object_set_new(c, "tsc_hz", psf_json_u64(t->tsc_hz));
    json_object_set_new(c, "jdk_version", psf_json_string(t->jdk_version));
    json_object_set_new(c, "jvm_flags", psf_json_string(t->jvm_flags));
    json_object_set_new(c, "date", psf_json_string(t->date));
    json_object_set_new(c, "fit_r2", psf_json_number(t->fit_r2));
    json_object_set_new(c, "isolated_core", json_boolean(t->isolated_core));
    json_object_set_new(c, "cpu_vendor", psf_json_string(t->cpu_vendor));
    json_object_set_new(c, "cpu_family", cpu_number_json(t->cpu_family));
    json_object_set_new(c, "cpu_model_number", cpu_number_json(t->cpu_model_number));
    json_object_set_new(c, "cpu_stepping", cpu_number_json(t->cpu_stepping));
    json_object_set_new(j, "calibration", c);
    return j;
}

/* The notes of a machine check as a JSON array of strings. */
static json_t *notes_json(const char (*v)[MC_NOTE_LEN], size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, psf_json_string(v[i]));
    return a;
}

/* "table_machine": what differs between the table's machine and this one,
 * what could not be compared, this machine, and how to calibrate it; null
 * when not checked (no calibrated table). */
static json_t *machine_json(const machine_check *mc, const machine_here *here)
{
    json_t *j, *h;

    if (!mc || mc->verdict == MC_NOT_CHECKED)
        return json_null();
    j = json_object();
    json_object_set_new(j, "differences", notes_json(mc->differences, mc->n_differences));
    json_object_set_new(j, "unchecked", notes_json(mc->unchecked, mc->n_unchecked));
    h = json_object();
    json_object_set_new(h, "cpu_vendor", here && here->cpu.vendor[0] ? psf_json_string(here->cpu.vendor) : json_null());
    json_object_set_new(h, "cpu_family", cpu_number_json(here ? here->cpu.family : -1));
    json_object_set_new(h, "cpu_model_number", cpu_number_json(here ? here->cpu.model : -1));
    json_object_set_new(h, "cpu_stepping", cpu_number_json(here ? here->cpu.stepping : -1));
    /* whole MHz: the same from run to run, unlike the measured Hz */
    json_object_set_new(h, "tsc_mhz", here && here->tsc_hz ? psf_json_u64((here->tsc_hz + 500000) / 1000000) : json_null());
    json_object_set_new(j, "here", h);
    json_object_set_new(j, "calibrate_command", mc->verdict == MC_MATCHES ? json_null() : psf_json_string(MC_CALIBRATE_COMMAND));
    return j;
}

/* true, false or null (not checked, or the CPU unknown on one side). */
static json_t *machine_matches_json(const machine_check *mc)
{
    if (!mc || mc->verdict == MC_NOT_CHECKED || mc->verdict == MC_UNKNOWN)
        return json_null();
    return json_boolean(mc->verdict == MC_MATCHES);
}

/* One explained term: key, count, cost, contribution and share of total. */
static json_t *term_json(const score_term *t, psf_u128 total)
{
    char buf[16];
    json_t *j = json_object();

    json_object_set_new(j, "key", psf_json_string(t->key));
    json_object_set_new(j, "count", psf_json_u64(t->count));
    json_object_set_new(j, "cost", micro_json(t->cost));
    if (t->kind == TERM_ARRAY || t->elements || t->per_element) {
        json_object_set_new(j, "elements", psf_json_u64(t->elements));
        json_object_set_new(j, "cost_per_element", micro_json(t->per_element));
    }
    json_object_set_new(j, "contribution", micro_json(t->contribution));
    json_object_set_new(j, "share", psf_json_number(share_str(t->contribution, total, buf)));
    json_object_set_new(j, "missing", json_boolean(t->missing));
    return j;
}

/* The --explain lists (top methods, opcodes, dependency keys) as JSON. */
static json_t *explain_json(const options *o, const score_result *r)
{
    json_t *j = json_object(), *methods = json_array();
    char buf[16];
    size_t n;

    json_object_set_new(j, "top", psf_json_u64(o->top));
    json_object_set_new(j, "total", micro_json(r->total));
    json_object_set_new(j, "opcode_total", micro_json(r->opcode_total));
    json_object_set_new(j, "dependency_total", micro_json(r->dep_total));
    for (size_t i = 0; i < top_n(o, r->n_methods); i++) {
        const score_method *m = &r->methods[i];
        json_t *e = json_object();
        json_object_set_new(e, "method", psf_json_string(m->name));
        json_object_set_new(e, "bytecodes", psf_json_u64(m->bytecodes));
        json_object_set_new(e, "contribution", micro_json(m->contribution));
        json_object_set_new(e, "share", psf_json_number(share_str(m->contribution, r->total, buf)));
        json_array_append_new(methods, e);
    }
    json_object_set_new(j, "methods", methods);
    for (int kind = 1; kind >= 0; kind--) {
        const score_term **v = score_top_terms(r, kind, &n);
        json_t *a = json_array();
        for (size_t i = 0; i < top_n(o, n); i++)
            json_array_append_new(a, term_json(v[i], r->total));
        json_object_set_new(j, kind ? "opcodes" : "dependencies", a);
        free((void *)v);
    }
    return j;
}

/* Class constants the work bucket loaded by ldc (its one <ldc constant="class">). */
static uint64_t class_constants(const profile *p)
{
    for (size_t i = 0; i < p->n_deps[BUCKET_WORK]; i++)
        if (p->deps[BUCKET_WORK][i].kind == DEP_LDC && strcmp(p->deps[BUCKET_WORK][i].key, "class") == 0)
            return p->deps[BUCKET_WORK][i].count;
    return 0;
}

/* The submission fields "a=1 b=2" as {"a": "1", "b": "2"}; null when
 * fields is NULL. A key that is not valid UTF-8 is repaired the way
 * psf_json_string repairs a value, so no field is dropped. */
static json_t *fields_json(const char *fields)
{
    json_t *j;
    if (!fields)
        return json_null();
    j = json_object();
    for (const char *p = fields; *p;) {
        const char *eq = strchr(p, '='), *end = strchr(p, ' ');
        size_t kl, vl;
        if (!eq || (end && end < eq))
            break;
        kl = (size_t)(eq - p);
        vl = end ? (size_t)(end - eq - 1) : strlen(eq + 1);
        char *k = xmalloc(kl + 1), *v = xmalloc(vl + 1);
        memcpy(k, p, kl);
        k[kl] = '\0';
        memcpy(v, eq + 1, vl);
        v[vl] = '\0';
        json_t *key = psf_json_string(k);
        json_object_set_new(j, json_string_value(key), psf_json_string(v));
        json_decref(key);
        free(k);
        free(v);
        if (!end)
            break;
        p = end + 1;
    }
    return j;
}

void out_signature_json(json_t *j, const outcome *oc)
{
    json_t *s;
    json_object_set_new(j, "output_checked", json_boolean(oc->judged_by != NULL));
    json_object_set_new(j, "output_judge", psf_json_string(oc->judged_by));
    json_object_set_new(j, "verification", psf_json_string(oc->verification));
    json_object_set_new(j, "submission", fields_json(oc->submission));
    if (!oc->statement) {
        json_object_set_new(j, "signature", json_null());
        return;
    }
    s = json_object();
    json_object_set_new(s, "algorithm", psf_json_string("hmac-sha256"));
    json_object_set_new(s, "key_id", psf_json_string(oc->key_id));
    json_object_set_new(s, "statement", psf_json_string(oc->statement));
    json_object_set_new(s, "hmac_sha256", psf_json_string(oc->statement_mac));
    json_object_set_new(j, "signature", s);
}

json_t *out_score_json(const options *o, const cost_table *t, const outcome *oc)
{
    const profile *p = oc->prof;
    const score_result *r = oc->res;
    json_t *j = json_object(), *a;
    uint64_t ns;

    json_object_set_new(j, "status", psf_json_string(oc->status_word));
    json_object_set_new(j, "score", r ? psf_json_u64(r->score) : json_null());
    json_object_set_new(j, "approximate", json_boolean(r && r->approximate));
    json_object_set_new(j, "uncalibrated_table", json_boolean(!t->builtin && !t->calibrated));
    json_object_set_new(j, "table_jdk_mismatch", json_boolean(r && r->jdk_mismatch));
    if (r && r->jdk_mismatch) {
        char why[160];
        snprintf(why, sizeof why, "the cost table was calibrated on JDK %u, the profile was counted on JDK %u",
                 r->table_jdk, r->profile_jdk);
        json_object_set_new(j, "approximate_reason", psf_json_string(why));
    }
    a = json_array();
    for (size_t i = 0; r && i < r->n_missing; i++)
        json_array_append_new(a, psf_json_string(r->missing[i]));
    json_object_set_new(j, "missing", a);
    json_object_set_new(j, "unit", psf_json_string(t->unit));
    json_object_set_new(j, "with_overhead", json_boolean(o->with_overhead));
    json_object_set_new(j, "cost_table", table_json(t));
    json_object_set_new(j, "predicted_ns", out_predicted_ns(t, r, &ns) ? psf_json_u64(ns) : json_null());
    json_object_set_new(j, "table_machine_matches", machine_matches_json(oc->machine));
    json_object_set_new(j, "table_machine", machine_json(oc->machine, oc->here));
    json_object_set_new(j, "profile", psf_json_string(oc->path));
    out_signature_json(j, oc);
    if (oc->status != ST_OK)
        json_object_set_new(j, "message", psf_json_string(oc->message ? oc->message : ""));

    if (p) {
        char *m = profile_method(p);
        json_object_set_new(j, "method", psf_json_string(m));
        free(m);
    } else {
        json_object_set_new(j, "method", json_null());
    }
    json_object_set_new(j, "jdk", psf_json_string(p && p->has_jvm ? p->jvm_version : NULL));
    json_object_set_new(j, "engine", psf_json_string(p ? p->engine : NULL));
    json_object_set_new(j, "fallback", psf_json_string(o->fallback));
    json_object_set_new(j, "bytecodes", p && p->has_summary ? psf_json_u64(p->work) : json_null());
    json_object_set_new(j, "runtime_bytecodes", p && p->has_summary ? psf_json_u64(p->overhead) : json_null());
    json_object_set_new(j, "invocations", p && p->has_summary ? psf_json_u64(p->invocations) : json_null());
    a = json_array();
    for (size_t i = 0; p && i < p->n_inv; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "thread", psf_json_string(p->inv[i].thread));
        json_object_set_new(e, "work", psf_json_u64(p->inv[i].work));
        json_object_set_new(e, "overhead", psf_json_u64(p->inv[i].overhead));
        json_object_set_new(e, "end", psf_json_string(p->inv[i].end));
        if (p->inv[i].unscheduled != 0)
            json_object_set_new(e, "unscheduled", psf_json_u64(p->inv[i].unscheduled));
        json_array_append_new(a, e);
    }
    json_object_set_new(j, "invocation_list", a);
    if (p && profile_unscheduled(p) != 0)
        json_object_set_new(j, "unscheduled", psf_json_u64(profile_unscheduled(p)));
    a = json_object();
    for (unsigned op = 0; p && op < 256; op++)
        if (p->opcodes[BUCKET_WORK][op])
            json_object_set_new(a, bc_mnemonic((uint8_t)op), psf_json_u64(p->opcodes[BUCKET_WORK][op]));
    json_object_set_new(j, "opcodes", a);
    if (p && p->has_branches[BUCKET_WORK]) {
        a = json_object();
        json_object_set_new(a, "conditional", psf_json_u64(p->branches[BUCKET_WORK][PROF_BR_CONDITIONAL]));
        json_object_set_new(a, "taken", psf_json_u64(p->branches[BUCKET_WORK][PROF_BR_TAKEN]));
        json_object_set_new(a, "mispredicted", psf_json_u64(p->branches[BUCKET_WORK][PROF_BR_MISPREDICTED]));
        json_object_set_new(j, "branches", a);
    } else {
        json_object_set_new(j, "branches", json_null());
    }
    if (p && p->has_calls[BUCKET_WORK]) {
        a = json_object();
        json_object_set_new(a, "entries", psf_json_u64(p->calls[BUCKET_WORK][PROF_CALL_ENTRIES]));
        json_object_set_new(a, "close", psf_json_u64(p->calls[BUCKET_WORK][PROF_CALL_CLOSE]));
        json_object_set_new(a, "fence_native", psf_json_u64(p->calls[BUCKET_WORK][PROF_CALL_FENCE_NATIVE]));
        json_object_set_new(a, "fence_alloc", psf_json_u64(p->calls[BUCKET_WORK][PROF_CALL_FENCE_ALLOC]));
        json_object_set_new(j, "calls", a);
    } else {
        json_object_set_new(j, "calls", json_null());
    }
    json_object_set_new(j, "class_constants", p && p->has_deps[BUCKET_WORK] ? psf_json_u64(class_constants(p)) : json_null());
    if (p && p->status == ST_AMBIGUOUS_METHOD) {
        a = json_array();
        for (size_t i = 0; i < p->n_candidates; i++) {
            size_t n = strlen(p->cls) + strlen(p->name) + strlen(p->candidates[i]) + 2;
            char *c = xmalloc(n);
            snprintf(c, n, "%s.%s%s", p->cls, p->name, p->candidates[i]);
            json_array_append_new(a, psf_json_string(c));
            free(c);
        }
        json_object_set_new(j, "candidates", a);
    }
    if (o->explain && r)
        json_object_set_new(j, "explain", explain_json(o, r));
    return j;
}

/* ---- text --------------------------------------------------------------- */

/* The summary's one line about the cost table: which table, and the machine
 * and JDK it was calibrated on (a score is meant for that machine). */
static void table_text(FILE *f, const cost_table *t)
{
    if (t->builtin) {
        fputs("costs     none: every bytecode costs 1, so the score is the bytecode count\n", f);
        return;
    }
    fputs("costs     ", f);
    put_text(f, t->path);
    if (t->calibrated) {
        fputs(" (calibrated on ", f);
        put_text(f, t->cpu_model);
        fputs(" with JDK ", f);
        put_text(f, t->jdk_version);
        fputs(")\n", f);
    } else {
        fputs(" (not calibrated: every score with it is approximate)\n", f);
    }
}

/* --explain: the cost table in full, each internal term in one sentence. */
static void table_details_text(FILE *f, const cost_table *t)
{
    if (t->builtin)
        return;
    fprintf(f, "table     unit %s, sha256 %s\n", t->unit, t->sha256);
    fputs("          the SHA-256 names this exact table: equal hashes, same prices\n", f);
    if (t->calibrated) {
        fputs("          calibrated on ", f);
        put_text(f, t->cpu_model);
        fprintf(f, " at %llu Hz, JDK ", (unsigned long long)t->tsc_hz);
        put_text(f, t->jdk_version);
        fputs(", ", f);
        put_text(f, t->date);
        fprintf(f, ", %s; fit r2 %s\n", t->isolated_core ? "on an isolated core" : "not on an isolated core",
                t->fit_r2);
        fputs("          fit r2: how much of the measured kernel times the fitted prices explain (1 = all)\n", f);
    }
}

/* --explain: the counts beside the bytecodes that a cost table prices, each
 * with one sentence saying what it is. */
static void counts_text(FILE *f, const options *o, const profile *p)
{
    fprintf(f, "overhead  %llu bytecodes (%s)\n", (unsigned long long)p->overhead,
            o->with_overhead ? "included: --with-overhead" : "not in the score");
    fputs("          bytecodes the JVM ran on the method's behalf (JDK class initialization,"
          " linkage); --with-overhead adds them\n", f);
    if (p->has_branches[BUCKET_WORK]) {
        fprintf(f, "branches  %llu conditional, %llu taken, %llu mispredicted (simulated predictor)\n",
                (unsigned long long)p->branches[BUCKET_WORK][PROF_BR_CONDITIONAL],
                (unsigned long long)p->branches[BUCKET_WORK][PROF_BR_TAKEN],
                (unsigned long long)p->branches[BUCKET_WORK][PROF_BR_MISPREDICTED]);
        fputs("          a model of a CPU's branch predictor guesses each conditional branch;"
              " a wrong guess costs a real CPU a pipeline flush, so the table prices it\n", f);
    }
    if (p->has_calls[BUCKET_WORK]) {
        fprintf(f, "calls     %llu method entries, closeness %llu (bytecodes short of %d after the previous entry)\n",
                (unsigned long long)p->calls[BUCKET_WORK][PROF_CALL_ENTRIES],
                (unsigned long long)p->calls[BUCKET_WORK][PROF_CALL_CLOSE], CALL_CLOSE_WINDOW);
        fprintf(f, "          the interpreter writes to the stack at every method entry; the writes hide behind"
                " about %d bytecodes of other work, and the table prices each bytecode short\n", CALL_CLOSE_WINDOW);
        fprintf(f, "fences    native calls %llu, allocations %llu (bytecodes short of %d after the last entry)\n",
                (unsigned long long)p->calls[BUCKET_WORK][PROF_CALL_FENCE_NATIVE],
                (unsigned long long)p->calls[BUCKET_WORK][PROF_CALL_FENCE_ALLOC], CALL_CLOSE_WINDOW);
        fputs("          a native call or an allocation soon after a method entry waits for that entry's"
              " stack writes; the table prices each bytecode short\n", f);
    }
}

/* Lines under the predicted time when the table may not belong to this
 * machine: what differs, what it means, and the command that calibrates. */
static void machine_text(FILE *f, const machine_check *mc)
{
    if (!mc || (mc->verdict != MC_DIFFERS && mc->verdict != MC_UNKNOWN))
        return;
    if (mc->verdict == MC_DIFFERS) {
        fputs("          approximate time: the table was calibrated on another machine (", f);
        for (size_t i = 0; i < mc->n_differences; i++) {
            fputs(i ? "; " : "", f);
            put_text(f, mc->differences[i]);
        }
        fputs(")\n", f);
    } else {
        fputs("          approximate time: the table does not say which CPU calibrated it (", f);
        for (size_t i = 0; i < mc->n_unchecked; i++) {
            fputs(i ? "; " : "", f);
            put_text(f, mc->unchecked[i]);
        }
        fputs(")\n", f);
    }
    fputs("          ranks of scores made with this table on one machine are not affected\n", f);
    fputs("          calibrate this machine: " MC_CALIBRATE_COMMAND " (docs/calibration.md)\n", f);
}

void out_score_text(FILE *f, const options *o, const cost_table *t, const outcome *oc)
{
    const profile *p = oc->prof;
    const score_result *r = oc->res;
    char *m = profile_method(p), b1[24], b2[48];
    uint64_t ns;

    fputs("method    ", f);
    put_text(f, m);
    fputc('\n', f);
    free(m);
    fprintf(f, "score     %s%s %s\n", r->approximate ? "~" : "", u64_str(r->score, b1), t->unit);
    if (r->uncalibrated_table)
        fputs("          approximate: the cost table is not calibrated (calibrated=\"false\")\n", f);
    if (r->jdk_mismatch)
        fprintf(f, "          approximate: the cost table was calibrated on JDK %u, the profile was counted on JDK %u\n",
                r->table_jdk, r->profile_jdk);
    if (r->n_missing) {
        fprintf(f, "          approximate: the table has no price for %zu key%s, charged %s each"
                " (psf-calibrate --keys prices them):\n",
                r->n_missing, r->n_missing == 1 ? "" : "s", micro_str(t->default_cost, b2));
        for (size_t i = 0; i < r->n_missing; i++) {
            fputs("            ", f);
            put_text(f, r->missing[i]);
            fputc('\n', f);
        }
    }
    if (out_predicted_ns(t, r, &ns))
        fprintf(f, "predicted %llu.%09llu s of interpreted run time on the table's machine (score / %llu Hz)\n",
                (unsigned long long)(ns / 1000000000u), (unsigned long long)(ns % 1000000000u),
                (unsigned long long)t->tsc_hz);
    machine_text(f, oc->machine);
    fprintf(f, "bytecodes %llu run by the method and its callees in %llu invocation%s\n",
            (unsigned long long)p->work, (unsigned long long)p->invocations, p->invocations == 1 ? "" : "s");
    uint64_t unscheduled = profile_unscheduled(p);
    if (unscheduled != 0)
        fprintf(f, "          %llu of them on threads the method did not start, not scheduled: "
                   "the score can vary from run to run\n",
                (unsigned long long)unscheduled);
    if (o->with_overhead && !o->explain)
        fprintf(f, "overhead  %llu bytecodes the JVM ran on the method's behalf, included: --with-overhead\n",
                (unsigned long long)p->overhead);
    out_judged_text(f, oc->judged_by);
    table_text(f, t);
    if (p->has_jvm) {
        fputs("jdk       ", f);
        put_text(f, p->jvm_version);
        fputc('\n', f);
    }
    if (o->fallback) {
        fputs("engine    ", f);
        put_text(f, p->engine);
        fputs(", as --engine fast fell back: ", f);
        put_text(f, o->fallback);
        fputc('\n', f);
    } else if (strcmp(p->engine, "step") != 0) {
        fputs("engine    ", f);
        put_text(f, p->engine);
        fputc('\n', f);
    }
    if (o->explain) {
        fputs("\ncounts the cost table prices besides the bytecodes:\n", f);
        counts_text(f, o, p);
        table_details_text(f, t);
    }
}

const char *out_judged_words(const char *judged_by)
{
    if (!judged_by)
        return "not judged in this run (get_score.sh --expect-output or --check, or a JUnit run)";
    if (strcmp(judged_by, "expect_output") == 0)
        return "judged in this run: equal to the expected output (--expect-output)";
    if (strcmp(judged_by, "check") == 0)
        return "judged in this run: accepted by the checker (--check)";
    if (strcmp(judged_by, "junit") == 0)
        return "judged in this run: every JUnit test passed";
    return "judged in this run";
}

void out_judged_text(FILE *f, const char *judged_by)
{
    fputs("output    ", f);
    fputs(out_judged_words(judged_by), f);
    fputc('\n', f);
}

void out_score_only(FILE *f, const score_result *r)
{
    fprintf(f, "%s%llu\n", r->approximate ? "~" : "", (unsigned long long)r->score);
}

static void term_row(FILE *f, const score_term *t, psf_u128 total, int deps)
{
    char c[48], s[16], k[48], pe[48], n[24];

    fprintf(f, "  %14s %6s%% %14s %12s", micro_str(t->contribution, c), share_str(t->contribution, total, s),
            u64_str(t->count, n), micro_str(t->cost, k));
    if (deps) {
        if (t->kind == TERM_ARRAY || t->elements || t->per_element)
            fprintf(f, " %12s %12llu", micro_str(t->per_element, pe), (unsigned long long)t->elements);
        else
            fprintf(f, " %12s %12s", "-", "-");
    }
    fputs("  ", f);
    put_text(f, deps ? t->key : t->key + strlen("opcode:"));
    fputs(t->missing ? " *\n" : "\n", f);
}

void out_explain_text(FILE *f, const options *o, const cost_table *t, const score_result *r)
{
    char a[48], b[48], s1[16], s2[16], d[24];
    size_t n;
    int any_missing = r->n_missing > 0;

    fprintf(f, "\nwhere the score comes from (%s):\n",
            r->with_overhead ? "the method's bytecodes and the overhead" : "the method's bytecodes");
    fprintf(f, "  %s%s %s = opcodes %s (%s%%) + dependencies %s (%s%%), rounded half up\n",
            r->approximate ? "~" : "", u64_str(r->score, d), t->unit,
            micro_str(r->opcode_total, a), share_str(r->opcode_total, r->total, s1),
            micro_str(r->dep_total, b), share_str(r->dep_total, r->total, s2));
    fputs("  opcodes: each bytecode at its opcode's price; dependencies: what the table prices besides"
          " (allocations by class and size, native calls, branches, method entries)\n", f);

    fprintf(f, "\ntop methods (each method's own bytecodes x opcode costs; dependency and branch keys are not split by method)\n");
    fprintf(f, "  %14s %7s %14s  %s\n", "contribution", "share", "bytecodes", "method");
    for (size_t i = 0; i < top_n(o, r->n_methods); i++) {
        const score_method *m = &r->methods[i];
        fprintf(f, "  %14s %6s%% %14s  ", micro_str(m->contribution, a),
                share_str(m->contribution, r->total, s1), u64_str(m->bytecodes, d));
        put_text(f, m->name);
        fputc('\n', f);
    }
    if (r->n_methods > top_n(o, r->n_methods))
        fprintf(f, "  ... %zu more\n", r->n_methods - top_n(o, r->n_methods));

    for (int kind = 1; kind >= 0; kind--) {
        const score_term **v = score_top_terms(r, kind, &n);
        if (kind)
            fprintf(f, "\ntop opcodes\n  %14s %7s %14s %12s  %s\n", "contribution", "share", "count", "cost", "opcode");
        else
            fprintf(f, "\ntop dependency keys\n  %14s %7s %14s %12s %12s %12s  %s\n", "contribution", "share",
                    "count", "cost", "per element", "elements", "key");
        for (size_t i = 0; i < top_n(o, n); i++)
            term_row(f, v[i], r->total, !kind);
        if (n == 0)
            fputs("  (none)\n", f);
        if (n > top_n(o, n))
            fprintf(f, "  ... %zu more\n", n - top_n(o, n));
        free((void *)v);
    }
    if (any_missing)
        fprintf(f, "\n* no price in the table: charged the default %s\n", micro_str(t->default_cost, a));
}

void out_status_text(FILE *f, const outcome *oc)
{
    fputs("psf-score: ", f);
    if (oc->path) {
        put_text(f, oc->path);
        fputs(": ", f);
    }
    fputs(oc->status_word, f);
    if (oc->message && *oc->message) {
        fputs(": ", f);
        put_text(f, oc->message);
    }
    fputc('\n', f);
    if (oc->prof && oc->prof->status == ST_AMBIGUOUS_METHOD)
        for (size_t i = 0; i < oc->prof->n_candidates; i++) {
            fputs("  candidate: ", f);
            put_text(f, oc->prof->cls);
            fputc('.', f);
            put_text(f, oc->prof->name);
            put_text(f, oc->prof->candidates[i]);
            fputc('\n', f);
        }
}

/* ---- leaderboard ---------------------------------------------------------- */

/* One CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF. */
static void csv_field(FILE *f, const char *s)
{
    if (!s)
        s = "";
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void rank_csv(FILE *f, const rank_entry *order, const outcome *rows, size_t n)
{
    fputs("rank,label,score,approximate,status,message,verification,duplicate_of,output_checked\r\n", f);
    for (size_t i = 0; i < n; i++) {
        const outcome *oc = &rows[i];
        if (order[i].rank)
            fprintf(f, "%u", order[i].rank);
        fputc(',', f);
        csv_field(f, oc->label);
        fputc(',', f);
        if (oc->res)
            fprintf(f, "%llu", (unsigned long long)oc->res->score);
        fprintf(f, ",%s,", oc->res && oc->res->approximate ? "true" : "false");
        csv_field(f, oc->status_word);
        fputc(',', f);
        csv_field(f, oc->message);
        fputc(',', f);
        csv_field(f, oc->verification);
        fputc(',', f);
        csv_field(f, oc->duplicate_of);
        fputs(oc->judged_by ? ",true" : ",false", f);
        fputs("\r\n", f);
    }
}

static void rank_json(FILE *f, const options *o, const cost_table *t,
                      const rank_entry *order, const outcome *rows, size_t n)
{
    json_t *j = json_object(), *entries = json_array();

    json_object_set_new(j, "unit", psf_json_string(t->unit));
    json_object_set_new(j, "with_overhead", json_boolean(o->with_overhead));
    json_object_set_new(j, "uncalibrated_table", json_boolean(!t->builtin && !t->calibrated));
    json_object_set_new(j, "cost_table", table_json(t));
    for (size_t i = 0; i < n; i++) {
        const outcome *oc = &rows[i];
        json_t *e = json_object(), *miss = json_array();
        json_object_set_new(e, "rank", order[i].rank ? psf_json_u64(order[i].rank) : json_null());
        json_object_set_new(e, "label", psf_json_string(oc->label));
        json_object_set_new(e, "profile", psf_json_string(oc->path));
        json_object_set_new(e, "status", psf_json_string(oc->status_word));
        json_object_set_new(e, "score", oc->res ? psf_json_u64(oc->res->score) : json_null());
        json_object_set_new(e, "approximate", json_boolean(oc->res && oc->res->approximate));
        for (size_t k = 0; oc->res && k < oc->res->n_missing; k++)
            json_array_append_new(miss, psf_json_string(oc->res->missing[k]));
        json_object_set_new(e, "missing", miss);
        json_object_set_new(e, "message", psf_json_string(oc->message));
        json_object_set_new(e, "verification", psf_json_string(oc->verification));
        json_object_set_new(e, "submission", fields_json(oc->submission));
        json_object_set_new(e, "duplicate_of", psf_json_string(oc->duplicate_of));
        json_object_set_new(e, "output_checked", json_boolean(oc->judged_by != NULL));
        json_array_append_new(entries, e);
    }
    json_object_set_new(j, "entries", entries);
    psf_json_write(f, j);
    json_decref(j);
}

static void rank_text(FILE *f, const cost_table *t, const rank_entry *order, const outcome *rows, size_t n)
{
    int any_approx = 0, unchecked = 0, unjudged = 0;
    char b[24];

    fprintf(f, "%4s  %-21s  %s\n", "rank", "score", "label");
    for (size_t i = 0; i < n; i++) {
        const outcome *oc = &rows[i];
        if (order[i].rank) {
            char s[32];
            snprintf(s, sizeof s, "%s%s", oc->res->approximate ? "~" : "", u64_str(oc->res->score, b));
            any_approx |= oc->res->approximate;
            fprintf(f, "%4u  %-21s  ", order[i].rank, s);
            put_text(f, oc->label);
            if (!oc->judged_by) {
                fputs(" [output not judged]", f);
                unjudged = 1;
            }
            unchecked |= oc->verification && strcmp(oc->verification, "verified") != 0;
        } else {
            fprintf(f, "%4s  %-21s  ", "-", oc->status_word);
            put_text(f, oc->label);
            if (oc->message && *oc->message) {
                fputs(": ", f);
                put_text(f, oc->message);
            }
        }
        if (oc->duplicate_of) {
            fputs(" [the same submission as ", f);
            put_text(f, oc->duplicate_of);
            fputc(']', f);
        }
        fputc('\n', f);
    }
    fprintf(f, "\nunit %s; costs: ", t->unit);
    if (t->builtin)
        fputs("built-in (every opcode 1)", f);
    else {
        put_text(f, t->path);
        fputs(t->calibrated ? " (calibrated)" : " (not calibrated)", f);
    }
    fputc('\n', f);
    if (any_approx)
        fputs("~ approximate: a price was missing, the table is not calibrated or it was calibrated on another JDK\n", f);
    if (unjudged)
        fputs("output not judged: the result's run had no --expect-output, --check or JUnit tests; "
              "--require-checked ranks only judged ones\n", f);
    if (unchecked)
        fputs("signatures not checked: no key (--key-file or PSF_KEY_FILE; docs/trust-model.md)\n", f);
}

void out_rank(FILE *f, const options *o, const cost_table *t,
              const rank_entry *order, const outcome *rows, size_t n)
{
    switch (o->format) {
    case FMT_CSV:  rank_csv(f, order, rows, n); break;
    case FMT_JSON: rank_json(f, o, t, order, rows, n); break;
    case FMT_TEXT: rank_text(f, t, order, rows, n); break;
    case FMT_HTML: break; /* a page, not a table: main.c calls leaderboard.c */
    }
}
