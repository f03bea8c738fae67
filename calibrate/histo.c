/*
 * histo.c - read the work bucket of a counting-agent profile (see histo.h).
 */
#include "histo.h"
#include "profile_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "bytecode.h"

void histo_free(histo *h)
{
    for (size_t i = 0; i < h->n_deps; i++)
        free(h->deps[i].key);
    free(h->deps);
    memset(h, 0, sizeof *h);
}

const hdep *histo_find(const histo *h, hdep_kind kind, const char *key)
{
    for (size_t i = 0; i < h->n_deps; i++)
        if (h->deps[i].kind == kind && strcmp(h->deps[i].key, key) == 0)
            return &h->deps[i];
    return NULL;
}

hdep *histo_dep(histo *h, hdep_kind kind, const char *key)
{
    hdep *d = (hdep *)histo_find(h, kind, key);
    if (d)
        return d;
    if (h->n_deps == h->cap_deps) {
        size_t cap = h->cap_deps ? 2 * h->cap_deps : 16;
        hdep *v = realloc(h->deps, cap * sizeof *v);
        if (!v)
            abort();
        h->deps = v;
        h->cap_deps = cap;
    }
    d = &h->deps[h->n_deps++];
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->key = strdup(key);
    if (!d->key)
        abort();
    return d;
}

double histo_total(const histo *h)
{
    double s = 0;
    for (int i = 0; i < 256; i++)
        s += h->op[i];
    return s;
}

/* A non-negative decimal attribute; -1 when absent or malformed. */
static double num_attr(xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    char *end;
    double d;
    if (!v)
        return -1;
    d = strtod((const char *)v, &end);
    if (end == (char *)v || *end || d < 0)
        d = -1;
    xmlFree(v);
    return d;
}

static int is_elem(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* 1 when element n has attribute bucket="work". */
static int is_work(xmlNodePtr n)
{
    xmlChar *b = xmlGetProp(n, (const xmlChar *)"bucket");
    int r = b && strcmp((const char *)b, "work") == 0;
    xmlFree(b);
    return r;
}

static int read_opcodes(histo *h, xmlNodePtr parent, char *err, size_t errlen)
{
    for (xmlNodePtr n = parent->children; n; n = n->next) {
        xmlChar *name;
        double c;
        int op;
        if (!is_elem(n, "opcode"))
            continue;
        name = xmlGetProp(n, (const xmlChar *)"name");
        op = name ? bc_opcode((const char *)name) : -1;
        c = num_attr(n, "count");
        if (op < 0 || c < 0) {
            snprintf(err, errlen, "profile line %ld: bad <opcode name=\"%s\">",
                     (long)xmlGetLineNo(n), name ? (const char *)name : "");
            xmlFree(name);
            return -1;
        }
        xmlFree(name);
        h->op[op] += c;
    }
    return 0;
}

static int read_deps(histo *h, xmlNodePtr parent, char *err, size_t errlen)
{
    for (xmlNodePtr n = parent->children; n; n = n->next) {
        const char *attr;
        hdep_kind kind;
        xmlChar *key;
        hdep *d;
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_elem(n, "array")) {
            kind = HDEP_ARRAY;
            attr = "elem";
        } else if (is_elem(n, "invoke")) {
            kind = HDEP_INVOKE;
            attr = "method";
        } else if (is_elem(n, "new")) {
            kind = HDEP_NEW;
            attr = "class";
        } else if (is_elem(n, "ldc")) {   /* the schema allows constant="class" only */
            double c = num_attr(n, "count");
            if (c < 0) {
                snprintf(err, errlen, "profile line %ld: bad <ldc>", (long)xmlGetLineNo(n));
                return -1;
            }
            h->ldc_class += c;
            continue;
        } else {
            continue;   /* invokedynamic: priced by its bytecodes only */
        }
        key = xmlGetProp(n, (const xmlChar *)attr);
        if (!key) {
            snprintf(err, errlen, "profile line %ld: <%s> without %s=",
                     (long)xmlGetLineNo(n), (const char *)n->name, attr);
            return -1;
        }
        d = histo_dep(h, kind, (const char *)key);
        xmlFree(key);
        if (kind == HDEP_ARRAY) {
            double a = num_attr(n, "allocations"), e = num_attr(n, "elements");
            if (a < 0 || e < 0) {
                snprintf(err, errlen, "profile line %ld: bad <array>", (long)xmlGetLineNo(n));
                return -1;
            }
            d->count += a;
            d->elements += e;
        } else {
            double c = num_attr(n, "count");
            xmlChar *nat;
            if (c < 0) {
                snprintf(err, errlen, "profile line %ld: bad count", (long)xmlGetLineNo(n));
                return -1;
            }
            d->count += c;
            if (num_attr(n, "elements") > 0)      /* arraycopy: copied; other natives: allocated */
                d->elements += num_attr(n, "elements");
            nat = xmlGetProp(n, (const xmlChar *)"native");
            if (nat && strcmp((const char *)nat, "true") == 0)
                d->native = 1;
            xmlFree(nat);
        }
    }
    return 0;
}

int histo_parse(histo *h, const char *bytes, size_t len, char *err, size_t errlen)
{
    xmlDocPtr doc;
    xmlNodePtr root;
    xmlChar *status = NULL;
    int rc = -1;

    memset(h, 0, sizeof *h);
    doc = xmlReadMemory(bytes, (int)len, "profile.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        snprintf(err, errlen, "not well-formed XML");
        return -1;
    }
    root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "psf-profile")) {
        snprintf(err, errlen, "not a PSF profile (root is not <psf-profile>)");
        goto out;
    }
    /* the agent built with this calibrator writes PSF_PROFILE_VERSION; the
     * calibrator reads no lines and no contexts, so versions 6 and 5 are as
     * good; a work directory counted by an older agent lacks the fence counts */
    xmlChar *version = xmlGetProp(root, (const xmlChar *)"version");
    int v5 = version && (strcmp((const char *)version, PSF_PROFILE_VERSION) == 0 ||
                         strcmp((const char *)version, PSF_PROFILE_VERSION_NOCONTEXTS) == 0 ||
                         strcmp((const char *)version, PSF_PROFILE_VERSION_NOLINES) == 0);
    if (!v5)
        snprintf(err, errlen, "profile format version '%s', not " PSF_PROFILE_VERSION ", " PSF_PROFILE_VERSION_NOCONTEXTS
                 " or " PSF_PROFILE_VERSION_NOLINES " (counted by another agent: count again)",
                 version ? (const char *)version : "");
    xmlFree(version);
    if (!v5)
        goto out;
    status = xmlGetProp(root, (const xmlChar *)"status");
    if (!status || strcmp((const char *)status, "ok") != 0) {
        snprintf(err, errlen, "profile status is '%s', not 'ok'", status ? (const char *)status : "");
        goto out;
    }
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (is_elem(n, "opcodes") && is_work(n)) {
            if (read_opcodes(h, n, err, errlen) != 0)
                goto out;
        } else if (is_elem(n, "dependencies") && is_work(n)) {
            if (read_deps(h, n, err, errlen) != 0)
                goto out;
        } else if (is_elem(n, "branches") && is_work(n)) {
            h->br_taken = num_attr(n, "taken");
            h->br_mispredicted = num_attr(n, "mispredicted");
            if (h->br_taken < 0 || h->br_mispredicted < 0) {
                snprintf(err, errlen, "profile line %ld: bad <branches>", (long)xmlGetLineNo(n));
                goto out;
            }
        } else if (is_elem(n, "calls") && is_work(n)) {
            h->call_close = num_attr(n, "close");
            h->fence_native = num_attr(n, "fence_native");
            h->fence_alloc = num_attr(n, "fence_alloc");
            if (h->call_close < 0 || h->fence_native < 0 || h->fence_alloc < 0) {
                snprintf(err, errlen, "profile line %ld: bad <calls>", (long)xmlGetLineNo(n));
                goto out;
            }
        }
    }
    rc = 0;
out:
    xmlFree(status);
    xmlFreeDoc(doc);
    if (rc != 0)
        histo_free(h);
    return rc;
}

int histo_read_file(histo *h, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc;

    memset(h, 0, sizeof *h);
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return -1;
    }
    for (;;) {
        size_t got;
        if (cap - len < 4096) {
            char *nb = realloc(buf, cap ? 2 * cap : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "out of memory reading %s", path);
                return -1;
            }
            buf = nb;
            cap = cap ? 2 * cap : 65536;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    rc = histo_parse(h, buf, len, err, errlen);
    free(buf);
    return rc;
}

void histo_diff(histo *out, const histo *a, const histo *b, double iterations)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 256; i++)
        out->op[i] = (b->op[i] - a->op[i]) / iterations;
    out->br_taken = (b->br_taken - a->br_taken) / iterations;
    out->br_mispredicted = (b->br_mispredicted - a->br_mispredicted) / iterations;
    out->call_close = (b->call_close - a->call_close) / iterations;
    out->fence_native = (b->fence_native - a->fence_native) / iterations;
    out->fence_alloc = (b->fence_alloc - a->fence_alloc) / iterations;
    out->ldc_class = (b->ldc_class - a->ldc_class) / iterations;
    for (size_t i = 0; i < b->n_deps; i++) {
        const hdep *db = &b->deps[i];
        const hdep *da = histo_find(a, db->kind, db->key);
        double c = (db->count - (da ? da->count : 0)) / iterations;
        double e = (db->elements - (da ? da->elements : 0)) / iterations;
        if (c != 0 || e != 0) {
            hdep *d = histo_dep(out, db->kind, db->key);
            d->count = c;
            d->elements = e;
            d->native = db->native || (da && da->native);
        }
    }
    for (size_t i = 0; i < a->n_deps; i++) {
        const hdep *da = &a->deps[i];
        if (!histo_find(b, da->kind, da->key) && (da->count != 0 || da->elements != 0)) {
            hdep *d = histo_dep(out, da->kind, da->key);
            d->count = -da->count / iterations;
            d->elements = -da->elements / iterations;
            d->native = da->native;
        }
    }
}
