/*
 * model.c - features of the cost model and the weighted NNLS fit (model.h).
 */
#include "model.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "costs_keys.h"
#include "nnls.h"

/* Opcode groups: opcodes the interpreter executes alike share one cost. */
static const struct { const char *name, *members; } groups[] = {
    { "const", "aconst_null iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5 "
               "lconst_0 lconst_1 fconst_0 fconst_1 fconst_2 dconst_0 dconst_1 bipush sipush" },
    { "ldc", "ldc ldc_w ldc2_w" },
    { "load", "iload lload fload dload aload iload_0 iload_1 iload_2 iload_3 lload_0 lload_1 lload_2 lload_3 "
              "fload_0 fload_1 fload_2 fload_3 dload_0 dload_1 dload_2 dload_3 aload_0 aload_1 aload_2 aload_3" },
    { "store", "istore lstore fstore dstore astore istore_0 istore_1 istore_2 istore_3 lstore_0 lstore_1 lstore_2 "
               "lstore_3 fstore_0 fstore_1 fstore_2 fstore_3 dstore_0 dstore_1 dstore_2 dstore_3 astore_0 astore_1 "
               "astore_2 astore_3" },
    { "array_load", "iaload laload faload daload baload caload saload" },
    { "aaload", "aaload" },
    { "array_store", "iastore lastore fastore dastore bastore castore sastore" },
    { "aastore", "aastore" },
    { "stack", "nop pop pop2 dup dup_x1 dup_x2 dup2 dup2_x1 dup2_x2 swap" },
    { "int_alu", "iadd isub ineg iand ior ixor ishl ishr iushr" },
    { "iinc", "iinc" },
    { "imul", "imul" },
    { "int_div", "idiv irem" },
    { "long_alu", "ladd lsub lneg land lor lxor lshl lshr lushr" },
    { "lmul", "lmul" },
    { "long_div", "ldiv lrem" },
    { "fp_alu", "fadd fsub fmul fneg dadd dsub dmul dneg" },
    { "fp_div", "fdiv ddiv" },
    { "fp_rem", "frem drem" },
    { "conv_int", "i2l l2i i2b i2c i2s" },
    { "conv_fp", "i2f i2d l2f l2d f2i f2l f2d d2i d2l d2f" },
    { "compare", "lcmp fcmpl fcmpg dcmpl dcmpg" },
    { "if", "ifeq ifne iflt ifge ifgt ifle if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple "
            "if_acmpeq if_acmpne ifnull ifnonnull" },
    { "goto", "goto goto_w jsr ret jsr_w" },
    { "tableswitch", "tableswitch" },
    { "lookupswitch", "lookupswitch" },
    { "return", "ireturn lreturn freturn dreturn areturn return" },
    { "getstatic", "getstatic" },
    { "putstatic", "putstatic" },
    { "getfield", "getfield" },
    { "putfield", "putfield" },
    { "invokevirtual", "invokevirtual" },
    { "invokespecial", "invokespecial" },
    { "invokestatic", "invokestatic" },
    { "invokeinterface", "invokeinterface" },
    { "invokedynamic", "invokedynamic" },
    { "new", "new" },
    { "newarray", "newarray" },
    { "anewarray", "anewarray" },
    { "multianewarray", "multianewarray" },
    { "arraylength", "arraylength" },
    { "athrow", "athrow" },
    { "checkcast", "checkcast" },
    { "instanceof", "instanceof" },
    { "monitor", "monitorenter monitorexit" },
    { "wide", "wide" },
};

static feature *push(model *m, feat_kind kind, const char *name, const char *members)
{
    feature *f;
    if (m->nf == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 128;
        feature *v = realloc(m->f, cap * sizeof *v);
        if (!v)
            abort();
        m->f = v;
        m->cap = cap;
    }
    f = &m->f[m->nf++];
    f->kind = kind;
    f->name = strdup(name);
    if (!f->name)
        abort();
    f->members = members;
    return f;
}

int model_find(const model *m, feat_kind kind, const char *name)
{
    for (size_t i = 0; i < m->nf; i++)
        if (m->f[i].kind == kind && strcmp(m->f[i].name, name) == 0)
            return (int)i;
    return -1;
}

void model_add_invoke(model *m, const char *method)
{
    if (model_find(m, FK_INVOKE, method) < 0) {
        push(m, FK_INVOKE, method, NULL);
        push(m, FK_INVOKE_ELEM, method, NULL);
    }
}

void model_add_array(model *m, const char *elem)
{
    if (model_find(m, FK_ARRAY_ALLOC, elem) < 0) {
        push(m, FK_ARRAY_ALLOC, elem, NULL);
        push(m, FK_ARRAY_ELEM, elem, NULL);
    }
}

void model_init(model *m)
{
    memset(m, 0, sizeof *m);
    for (int op = 0; op < 256; op++)
        m->op_feature[op] = -1;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        const char *p = groups[g].members;
        int fi = (int)m->nf;
        push(m, FK_OPGROUP, groups[g].name, groups[g].members);
        while (*p) {
            char mn[32];
            size_t len = strcspn(p, " ");
            int op;
            if (len < sizeof mn) {
                memcpy(mn, p, len);
                mn[len] = '\0';
                op = bc_opcode(mn);
                if (op >= 0)
                    m->op_feature[op] = fi;
            }
            p += len;
            p += strspn(p, " ");
        }
    }
    for (size_t k = 0; k < costs_n_array_types; k++)
        model_add_array(m, costs_array_types[k]);
    for (size_t k = 0; k < costs_n_priced_methods; k++)
        model_add_invoke(m, costs_priced_methods[k]);
    push(m, FK_OTHER_NATIVE, "other native methods", NULL);
    push(m, FK_BRANCH_TAKEN, "taken", NULL);
    push(m, FK_BRANCH_MISS, "mispredicted", NULL);
    push(m, FK_CALL_CLOSE, "close", NULL);
    push(m, FK_FENCE_NATIVE, "fence_native", NULL);
    push(m, FK_FENCE_ALLOC, "fence_alloc", NULL);
    push(m, FK_LDC_CLASS, "class", NULL);
    push(m, FK_BYTECODE, "bytecode", NULL);
}

void model_free(model *m)
{
    for (size_t i = 0; i < m->nf; i++)
        free(m->f[i].name);
    free(m->f);
    memset(m, 0, sizeof *m);
}

/* x[feature] += v for a feature model_init always adds. */
/* "[Lpkg.C;.clone()Ljava/lang/Object;" or "[[I.clone()...": the clone of an
 * array of references or of arrays (the agent names the array's class) */
static int is_reference_array_clone(const char *key)
{
    static const char tail[] = ".clone()Ljava/lang/Object;";
    size_t n = strlen(key), t = sizeof tail - 1;
    return n > t + 2 && key[0] == '[' && (key[1] == 'L' || key[1] == '[') && strcmp(key + n - t, tail) == 0;
}

static void add_builtin(const model *m, double *x, feat_kind kind, const char *name, double v)
{
    int j = model_find(m, kind, name);
    assert(j >= 0);
    x[j] += v;
}

void model_row(const model *m, const histo *h, double *x)
{
    int other = model_find(m, FK_OTHER_NATIVE, "other native methods");
    int base = model_find(m, FK_BYTECODE, "bytecode");
    assert(base >= 0);                      /* model_init adds it */
    memset(x, 0, m->nf * sizeof *x);
    for (int op = 0; op < 256; op++)
        if (h->op[op] != 0 && m->op_feature[op] >= 0) {
            x[m->op_feature[op]] += h->op[op];
            x[base] += h->op[op];           /* every bytecode: the shared dispatch price */
        }
    add_builtin(m, x, FK_BRANCH_TAKEN, "taken", h->br_taken);
    add_builtin(m, x, FK_BRANCH_MISS, "mispredicted", h->br_mispredicted);
    add_builtin(m, x, FK_CALL_CLOSE, "close", h->call_close);
    add_builtin(m, x, FK_FENCE_NATIVE, "fence_native", h->fence_native);
    add_builtin(m, x, FK_FENCE_ALLOC, "fence_alloc", h->fence_alloc);
    add_builtin(m, x, FK_LDC_CLASS, "class", h->ldc_class);
    for (size_t i = 0; i < h->n_deps; i++) {
        const hdep *d = &h->deps[i];
        int fa, fi;
        switch (d->kind) {
        case HDEP_ARRAY:
            /* A reference type the table does not list is priced as "reference". */
            fa = model_find(m, FK_ARRAY_ALLOC, d->key);
            if (fa < 0 && !costs_is_primitive_type(d->key))
                fa = model_find(m, FK_ARRAY_ALLOC, "reference");
            if (fa >= 0) {
                x[fa] += d->count;
                x[fa + 1] += d->elements;   /* FK_ARRAY_ELEM follows its FK_ARRAY_ALLOC */
            }
            break;
        case HDEP_INVOKE:
            fi = model_find(m, FK_INVOKE, d->key);
            /* the clone of an array of references or arrays the table does
             * not list is priced as Object[]'s, as the scorer does */
            if (fi < 0 && d->native && is_reference_array_clone(d->key))
                fi = model_find(m, FK_INVOKE, "[Ljava.lang.Object;.clone()Ljava/lang/Object;");
            if (fi >= 0) {
                x[fi] += d->count;
                x[fi + 1] += d->elements;   /* FK_INVOKE_ELEM follows its FK_INVOKE */
            }
            else if (d->native && other >= 0)
                x[other] += d->count;
            break;
        case HDEP_NEW:
            break;
        }
    }
}

void fit_free(fit_result *fr)
{
    free(fr->cost);
    free(fr->seen);
    free(fr->repriced);
    free(fr->unpriced);
    memset(fr, 0, sizeof *fr);
}

double model_predict(const model *m, const fit_result *fr, const double *x)
{
    double s = 0;
    for (size_t j = 0; j < m->nf; j++)
        s += x[j] * fr->cost[j];
    return s;
}

int model_fit(const model *m, const double *x, const double *y, const unsigned char *use,
              size_t rows, double ridge, double group_ridge, fit_result *out)
{
    size_t nf = m->nf, nr = 0, r = 0;
    double *a, *b, mean = 0, ssr = 0, sst = 0;

    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < rows; i++)
        nr += use[i] && y[i] > 0;
    out->cost = calloc(nf, sizeof *out->cost);
    out->seen = calloc(nf, 1);
    out->repriced = calloc(nf, 1);
    out->unpriced = calloc(nf, 1);
    a = calloc((nr + nf) * nf + 1, sizeof *a);
    b = calloc(nr + nf + 1, sizeof *b);
    if (!out->cost || !out->seen || !out->repriced || !out->unpriced || !a || !b) {
        free(a);
        free(b);
        fit_free(out);
        return -1;
    }
    for (size_t i = 0; i < rows; i++) {
        if (!use[i] || y[i] <= 0)
            continue;
        double w = sqrt((double)use[i]);
        for (size_t j = 0; j < nf; j++) {
            a[r * nf + j] = w * x[i * nf + j] / y[i];
            if (x[i * nf + j] != 0)
                out->seen[j] = 1;
        }
        b[r] = w;
        r++;
    }
    /* Ridge rows: sqrt(ridge) x |column| on the diagonal, right-hand side 0. */
    for (size_t j = 0; j < nf; j++) {
        double cn = 0, rj = m->f[j].kind == FK_BYTECODE ? 0 : m->f[j].kind == FK_OPGROUP ? group_ridge : ridge;
        for (size_t i = 0; i < nr; i++)
            cn += a[i * nf + j] * a[i * nf + j];
        a[(nr + j) * nf + j] = sqrt(rj * cn);
    }
    out->status = nr > 0 ? nnls_solve(a, b, nr + nf, nf, out->cost, (int)(3 * nf + 50)) : 0;
    /* Every bytecode's share goes into every opcode group's price (each valid
     * opcode is in exactly one group, so predictions do not change). */
    for (size_t j = 0; j < nf; j++)
        if (m->f[j].kind == FK_BYTECODE) {
            out->base = out->cost[j];
            for (size_t g = 0; g < nf; g++)
                if (m->f[g].kind == FK_OPGROUP)
                    out->cost[g] += out->cost[j];
            out->cost[j] = 0;
        }
    for (size_t i = 0; i < rows; i++)
        if (use[i] && y[i] > 0)
            mean += y[i] / (double)nr;
    for (size_t i = 0; i < rows; i++) {
        double p;
        if (!use[i] || y[i] <= 0)
            continue;
        p = model_predict(m, out, &x[i * nf]);
        ssr += (y[i] - p) * (y[i] - p);
        sst += (y[i] - mean) * (y[i] - mean);
    }
    out->r2 = sst > 0 ? 1 - ssr / sst : 0;
    if (out->r2 < 0)
        out->r2 = 0;
    free(a);
    free(b);
    return 0;
}

/* Is feature j work that must not be free? Its per-element column, or -1. */
static int work_feature(const model *m, size_t j, int (*runs_bytecode)(const char *), int *elem)
{
    *elem = -1;
    switch (m->f[j].kind) {
    case FK_OPGROUP:
    case FK_OTHER_NATIVE:
    case FK_LDC_CLASS:
        return 1;
    case FK_ARRAY_ALLOC:
        *elem = (int)j + 1;             /* FK_ARRAY_ELEM follows */
        return 1;
    case FK_INVOKE:
        if (runs_bytecode && runs_bytecode(m->f[j].name))
            return 0;
        *elem = (int)j + 1;             /* FK_INVOKE_ELEM follows */
        return 1;
    default:
        return 0;
    }
}

/* What row xi measured beyond the rest of the model, per call of feature
 * j (whose price and per-element price e are left out). */
static double rest_per_call(const model *m, const fit_result *fr, const double *xi, double yi, size_t j, size_t e)
{
    double rest = yi - model_predict(m, fr, xi) + fr->cost[j] * xi[j] + fr->cost[e] * xi[e];
    return rest / xi[j];
}

/* Is feature j the only dependency (native call, class constant; for an
 * array type, the only array type too) in row xi? Opcode groups have none
 * of their own: always 0. */
static int only_dependency(const model *m, const double *xi, size_t j)
{
    if (m->f[j].kind == FK_OPGROUP)
        return 0;
    for (size_t g = 0; g < m->nf; g++) {
        feat_kind k = m->f[g].kind;
        /* a call's own allocation (a clone's array) does not count against it */
        if (g != j && xi[g] != 0 &&
            (k == FK_INVOKE || k == FK_OTHER_NATIVE || k == FK_LDC_CLASS ||
             (k == FK_ARRAY_ALLOC && m->f[j].kind == FK_ARRAY_ALLOC)))
            return 0;
    }
    return 1;
}

int model_left_out(const model *m, const fit_result *fr, size_t j)
{
    return m->f[j].kind == FK_ARRAY_ALLOC || m->f[j].kind == FK_INVOKE ? fr->unpriced[j] : 0;
}

int model_price_work(const model *m, const double *x, const double *y, const unsigned char *use,
                     size_t rows, int (*runs_bytecode)(const char *name), size_t max_unpriced, fit_result *fr,
                     int *bad_feature, size_t *bad_row, char *why, size_t whylen)
{
    size_t nf = m->nf, left_out = 0;
    double *a = calloc(2 * rows + 2, sizeof *a), *b = calloc(rows + nf + 1, sizeof *b);
    size_t *own = calloc(rows + 1, sizeof *own);
    int rc = 0;

    double native_price = 0;

    if (!a || !b || !own) {
        free(a);
        free(b);
        free(own);
        return -1;
    }
    /* the fitted price of a call to a native the table does not list, or
     * (when the fit priced that at 0) the median of the positive prices of
     * the natives it lists: the table's default (calibrate.c) */
    for (size_t j = 0; j < nf; j++)
        if (m->f[j].kind == FK_OTHER_NATIVE && fr->seen[j])
            native_price = fr->cost[j];
    if (native_price < MODEL_PRICE_MIN) {
        size_t k = 0;
        for (size_t j = 0; j < nf; j++)
            if (m->f[j].kind == FK_INVOKE && fr->seen[j] && fr->cost[j] >= MODEL_PRICE_MIN &&
                !(runs_bytecode && runs_bytecode(m->f[j].name)))
                b[k++] = fr->cost[j];
        /* insertion sort: a few dozen prices */
        for (size_t i = 1; i < k; i++)
            for (size_t q = i; q > 0 && b[q - 1] > b[q]; q--) {
                double t = b[q];
                b[q] = b[q - 1];
                b[q - 1] = t;
            }
        native_price = k == 0 ? 0 : k % 2 ? b[k / 2] : (b[k / 2 - 1] + b[k / 2]) / 2;
    }
    for (size_t j = 0; j < nf && rc == 0; j++) {
        int e, grows = 0, call_zero, elem_zero, call_ok;
        size_t n = 0, lo = 0, hi = 0;
        double rlo = 0, rhi = 0, sol[2] = { 0, 0 };
        if (!fr->seen[j] || !work_feature(m, j, runs_bytecode, &e))
            continue;
        /* its own rows: those where it is the only native or class
         * constant (a kernel made for it), else every row it is in;
         * and whether their elements a call differ */
        int dedicated = 0;
        for (size_t i = 0; i < rows && !dedicated; i++)
            dedicated = use[i] && y[i] > 0 && x[i * nf + j] > 0 && only_dependency(m, &x[i * nf], j);
        for (size_t i = 0; i < rows; i++) {
            double c, r;
            if (!use[i] || y[i] <= 0 || x[i * nf + j] <= 0)
                continue;
            if (dedicated && !only_dependency(m, &x[i * nf], j))
                continue;
            c = x[i * nf + j];
            r = e >= 0 ? x[i * nf + (size_t)e] / c : 0;
            if (n == 0 || r < rlo) {
                rlo = r;
                lo = i;
            }
            if (n == 0 || r > rhi) {
                rhi = r;
                hi = i;
            }
            own[n++] = i;
        }
        if (n == 0)
            continue;
        grows = e >= 0 && rhi > 0 && rhi >= 1.5 * rlo;
        /* rows whose measured growth the rest of the model already prices
         * (a clone's elements are also its array's, priced by array:T):
         * what is left for this feature does not grow, and needs no price
         * per element; measured times that do not grow at all still do */
        if (grows) {
            double plo = rest_per_call(m, fr, &x[lo * nf], y[lo], (size_t)j, (size_t)e);
            double phi = rest_per_call(m, fr, &x[hi * nf], y[hi], (size_t)j, (size_t)e);
            if (y[hi] / x[hi * nf + j] > y[lo] / x[lo * nf + j] && phi <= plo)
                grows = 0;
        }
        if (fr->cost[j] >= MODEL_PRICE_MIN && (!grows || fr->cost[e] >= MODEL_PRICE_MIN))
            continue;
        /* what each own row measured beyond the rest of the model, relative
         * to its measurement; the per-element price is refitted with the
         * per-call one when the rows grow, else kept */
        for (size_t k = 0; k < n; k++) {
            size_t i = own[k];
            double w = sqrt((double)use[i]) / y[i];
            double rest = y[i] - model_predict(m, fr, &x[i * nf]) + fr->cost[j] * x[i * nf + j];
            if (e >= 0 && grows)
                rest += fr->cost[e] * x[i * nf + (size_t)e];
            a[k * (grows ? 2 : 1)] = w * x[i * nf + j];
            if (grows)
                a[k * 2 + 1] = w * x[i * nf + (size_t)e];
            b[k] = w * rest;
        }
        if (nnls_solve(a, b, n, grows ? 2 : 1, sol, 50) == -2) {
            rc = -1;
            break;
        }
        call_zero = sol[0] < MODEL_PRICE_MIN;
        elem_zero = grows && sol[1] < MODEL_PRICE_MIN;
        call_ok = !call_zero;
        /* a per-call price of 0 leaves no work free where every call brings
         * elements at a positive price (a stack trace's frames) */
        if (call_zero && grows && !elem_zero) {
            call_ok = 1;
            for (size_t k = 0; k < n; k++)
                call_ok &= x[own[k] * nf + (size_t)e] >= x[own[k] * nf + j];
        }
        /* a native no kernel calls alone, which its kernels cannot tell
         * from the natives it comes with (Unsafe.getIntVolatile beside
         * compareAndSetInt in AtomicInteger.getAndAdd): the price of a call
         * to a native the table does not list */
        if (!call_ok && !elem_zero && !dedicated && m->f[j].kind == FK_INVOKE && native_price > 0) {
            sol[0] = native_price;
            call_ok = 1;
            fr->repriced[j] = 2;
        }
        /* an entry the scorer can do without is left out of the table: it
         * prices the key as one the table lacks (missing, the score
         * approximate; an array of references as array:reference) */
        if ((!call_ok || elem_zero) && left_out < max_unpriced &&
            (m->f[j].kind == FK_ARRAY_ALLOC || m->f[j].kind == FK_INVOKE) && fr->unpriced) {
            fr->unpriced[j] = fr->unpriced[e] = call_zero ? UNPRICED_CALL : UNPRICED_ELEM;
            left_out++;
            continue;
        }
        if (!call_ok || elem_zero) {
            int per_call = call_zero;
            *bad_feature = per_call ? (int)j : e;
            *bad_row = per_call ? lo : hi;
            int l = snprintf(why, whylen,
                             per_call ? "its time leaves no cycles for the calls of %s beyond the rest of its work"
                                      : "its time does not grow with the elements of %s",
                             m->f[j].name);
            if (left_out > 0 && l >= 0 && (size_t)l < whylen)
                snprintf(why + l, whylen - (size_t)l, "; %zu other entr%s without a price already left out of the table",
                         left_out, left_out == 1 ? "y" : "ies");
            rc = 1;
            break;
        }
        fr->cost[j] = sol[0];
        if (!fr->repriced[j])
            fr->repriced[j] = 1;
        if (grows) {
            fr->cost[e] = sol[1];
            fr->repriced[e] = 1;
        }
    }
    free(a);
    free(b);
    free(own);
    return rc;
}
