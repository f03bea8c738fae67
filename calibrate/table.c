/*
 * table.c - the calibrated cost table writer (table.h).
 */
#include "table.h"

#include <math.h>
#include <string.h>

#include "bytecode.h"

void table_format_price(double v, char *buf, size_t cap)
{
    size_t len;
    if (!(v > 0))           /* also NaN */
        v = 0;
    if (v > 1e9)
        v = 1e9;
    snprintf(buf, cap, "%.6f", v);
    len = strlen(buf);
    while (len > 0 && buf[len - 1] == '0')
        buf[--len] = '\0';
    if (len > 0 && buf[len - 1] == '.')
        buf[--len] = '\0';
}

void table_escape_attr(const char *s, char *buf, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 7 < cap; s++) {
        const char *rep = NULL;
        switch (*s) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\n': case '\r': case '\t': rep = " "; break;
        default: break;
        }
        if (rep) {
            size_t l = strlen(rep);
            memcpy(buf + o, rep, l);
            o += l;
        } else if ((unsigned char)*s >= 0x20) {
            buf[o++] = *s;
        }
    }
    buf[o] = '\0';
}

/* <ELEM ATTR="feature name" cost="..."/> for each exercised feature of kind k. */
static void single_entries(FILE *f, const model *m, const fit_result *fr, feat_kind k, const char *elem,
                           const char *attr)
{
    char p[64];
    for (size_t j = 0; j < m->nf; j++) {
        if (m->f[j].kind != k || !fr->seen[j])
            continue;
        table_format_price(fr->cost[j], p, sizeof p);
        fprintf(f, "  <%s %s=\"%s\" cost=\"%s\"/>\n", elem, attr, m->f[j].name, p);
    }
}

/* cpu_vendor, cpu_family, cpu_model_number, cpu_stepping: those /proc/cpuinfo
 * reported, on one line of their own (none: no line). */
static void write_cpu_ident(FILE *f, const cpu_ident *c)
{
    char e[256];
    int any = 0;

    if (!c)
        return;
    if (c->vendor[0]) {
        table_escape_attr(c->vendor, e, sizeof e);
        fprintf(f, "%scpu_vendor=\"%s\"", any++ ? " " : "       ", e);
    }
    if (c->family >= 0)
        fprintf(f, "%scpu_family=\"%ld\"", any++ ? " " : "       ", c->family);
    if (c->model >= 0)
        fprintf(f, "%scpu_model_number=\"%ld\"", any++ ? " " : "       ", c->model);
    if (c->stepping >= 0)
        fprintf(f, "%scpu_stepping=\"%ld\"", any++ ? " " : "       ", c->stepping);
    if (any)
        fputc('\n', f);
}

int table_write(FILE *f, const model *m, const fit_result *fr, const table_meta *meta,
                double default_cost, double unseen_group_cost)
{
    char e1[1024], e2[1024], e3[2048], p1[32], p2[32], r2[32];
    double fit_r2 = meta->fit_r2;

    if (!(fit_r2 >= 0))
        fit_r2 = 0;
    if (fit_r2 > 1)
        fit_r2 = 1;
    snprintf(r2, sizeof r2, "%.6f", fit_r2);
    table_escape_attr(meta->cpu && meta->cpu->model_name[0] ? meta->cpu->model_name : "unknown", e1, sizeof e1);
    table_escape_attr(meta->jdk_version ? meta->jdk_version : "unknown", e2, sizeof e2);
    table_escape_attr(meta->jvm_flags ? meta->jvm_flags : "", e3, sizeof e3);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<!-- Calibrated by psf-calibrate (docs/calibration.md). Prices are TSC cycles in %s;\n"
               "     the fit and its hold-out errors are in %s. -->\n",
            meta->jvm_flags && !strstr(meta->jvm_flags, "-Xint") ? "compiled code (JIT mode)" : "-Xint",
            meta->report ? meta->report : "the calibration report");
    fprintf(f, "<costs unit=\"cycles\" calibrated=\"true\" cpu_model=\"%s\" tsc_hz=\"%llu\"\n",
            e1, (unsigned long long)(meta->tsc_hz ? meta->tsc_hz : 1));
    write_cpu_ident(f, meta->cpu);
    fprintf(f, "       jdk_version=\"%s\" jvm_flags=\"%s\"\n"
               "       date=\"%s\" fit_r2=\"%s\" isolated_core=\"%s\">\n",
            e2, e3, meta->date, r2, meta->isolated ? "true" : "false");
    table_format_price(default_cost, p1, sizeof p1);
    fprintf(f, "  <!-- charged for a native method this table does not list -->\n"
               "  <default cost=\"%s\"/>\n", p1);
    /* what the calibrator left out for noise, named where a reader of the
     * table looks (a comment cannot hold "--": such a name is left to the
     * report) */
    for (size_t j = 0; j < m->nf; j++)
        if (model_left_out(m, fr, j) &&
            fr->seen[j] && !strstr(m->f[j].name, "--"))
            fprintf(f, "  <!-- left out: %s:%s, its kernels showed no work for it (the report says why) -->\n",
                    m->f[j].kind == FK_ARRAY_ALLOC ? "array" : "invoke", m->f[j].name);
    for (unsigned op = 0; op < 256; op++) {
        const char *mn = bc_mnemonic((uint8_t)op);
        int fi = m->op_feature[op];
        double c;
        if (!mn || !(bc_flags((uint8_t)op) & BCF_VALID) || fi < 0)
            continue;
        c = fr->seen[fi] ? fr->cost[fi] : unseen_group_cost;
        table_format_price(c, p1, sizeof p1);
        fprintf(f, "  <opcode name=\"%s\" cost=\"%s\"/>\n", mn, p1);
    }
    for (size_t j = 0; j < m->nf; j++) {
        if (m->f[j].kind != FK_ARRAY_ALLOC || !(fr->seen[j] || fr->seen[j + 1]) || fr->unpriced[j])
            continue;
        table_escape_attr(m->f[j].name, e1, sizeof e1);
        table_format_price(fr->cost[j], p1, sizeof p1);
        table_format_price(fr->cost[j + 1], p2, sizeof p2);
        fprintf(f, "  <array elem=\"%s\" cost=\"%s\" cost_per_element=\"%s\"/>\n", e1, p1, p2);
    }
    for (size_t j = 0; j < m->nf; j++) {
        if (m->f[j].kind != FK_INVOKE || !fr->seen[j] || fr->unpriced[j])
            continue;
        table_escape_attr(m->f[j].name, e1, sizeof e1);
        table_format_price(fr->cost[j], p1, sizeof p1);
        if (fr->seen[j + 1]) {    /* the profile reports elements for this call */
            table_format_price(fr->cost[j + 1], p2, sizeof p2);
            fprintf(f, "  <invoke method=\"%s\" cost=\"%s\" cost_per_element=\"%s\"/>\n", e1, p1, p2);
        } else {
            fprintf(f, "  <invoke method=\"%s\" cost=\"%s\"/>\n", e1, p1);
        }
    }
    single_entries(f, m, fr, FK_BRANCH_TAKEN, "branch", "kind");
    single_entries(f, m, fr, FK_BRANCH_MISS, "branch", "kind");
    single_entries(f, m, fr, FK_CALL_CLOSE, "call", "kind");
    single_entries(f, m, fr, FK_FENCE_NATIVE, "call", "kind");
    single_entries(f, m, fr, FK_FENCE_ALLOC, "call", "kind");
    single_entries(f, m, fr, FK_LDC_CLASS, "ldc", "constant");
    fprintf(f, "</costs>\n");
    return ferror(f) ? -1 : 0;
}
