/*
 * costs.c - load and query a cost table (see costs.h, docs/cost-table.md).
 */
#include "costs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "bytecode.h"
#include "schemas.h"
#include "sha256.h"
#include "xmlload.h"

#define PRICE_RULE "a price is a non-negative decimal such as 12 or 0.25, " \
                   "with at most 6 decimal places and at most 1000000000"

void costs_builtin(cost_table *t)
{
    memset(t, 0, sizeof *t);
    t->unit = xstrdup("bytecodes");
    t->builtin = 1;
    t->cpu_family = t->cpu_model_number = t->cpu_stepping = -1;
    t->default_cost = PSF_MICRO_PER_UNIT;
    for (unsigned op = 0; op < 256; op++) {
        t->has_opcode[op] = 1;
        t->opcode[op] = PSF_MICRO_PER_UNIT;
    }
}

const char *costs_branch_kind(int kind)
{
    static const char *const names[BRANCH_KINDS] = { "taken", "mispredicted" };
    return kind >= 0 && kind < BRANCH_KINDS ? names[kind] : "?";
}

const char *costs_call_kind(int kind)
{
    static const char *const names[CALLK_KINDS] = { "close", "fence_native", "fence_alloc" };
    return kind >= 0 && kind < CALLK_KINDS ? names[kind] : "?";
}

static void list_free(cost_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].key);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void costs_free(cost_table *t)
{
    free(t->path);
    free(t->unit);
    free(t->cpu_model);
    free(t->jdk_version);
    free(t->jvm_flags);
    free(t->date);
    free(t->fit_r2);
    free(t->cpu_vendor);
    list_free(&t->arrays);
    list_free(&t->news);
    list_free(&t->invokes);
    memset(t, 0, sizeof *t);
}

int costs_is_primitive(const char *type)
{
    static const char *const prim[] = {
        "boolean", "byte", "char", "short", "int", "long", "float", "double"
    };
    for (unsigned i = 0; i < sizeof prim / sizeof prim[0]; i++)
        if (strcmp(type, prim[i]) == 0)
            return 1;
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const cost_entry *)a)->key, ((const cost_entry *)b)->key);
}

const cost_entry *costs_find(const cost_list *l, const char *key)
{
    cost_entry probe = { .key = (char *)key };
    if (l->n == 0)
        return NULL;
    return bsearch(&probe, l->v, l->n, sizeof *l->v, cmp_entry);
}

/* The attribute that names an element's key, for messages and lists. */
static const char *key_attr(xmlNodePtr n)
{
    if (xml_is(n, "opcode")) return "name";
    if (xml_is(n, "array"))  return "elem";
    if (xml_is(n, "new"))    return "class";
    if (xml_is(n, "invoke")) return "method";
    if (xml_is(n, "branch")) return "kind";
    if (xml_is(n, "call"))   return "kind";
    if (xml_is(n, "ldc"))    return "constant";
    return NULL;
}

/* "<opcode name="iadd">" or "<default>" into buf, for messages. */
static void describe(xmlNodePtr n, char *buf, size_t cap)
{
    const char *ka = key_attr(n);
    char *kv = ka ? xml_attr(n, ka) : NULL;
    if (kv)
        snprintf(buf, cap, "<%s %s=\"%.200s\">", (const char *)n->name, ka, kv);
    else
        snprintf(buf, cap, "<%s>", (const char *)n->name);
    xmlFree(kv);
}

/*
 * Check every attribute whose name starts with "cost", in any element, as a
 * price: this runs before the schema so a bad price gets a message that says
 * what a price must be, and it is the same rule a tool scaling "cost*"
 * attributes relies on.
 */
static int check_prices(xmlNodePtr n, const char *name, psf_err *err)
{
    for (; n; n = xml_next_elem(n)) {
        for (xmlAttrPtr a = n->properties; a; a = a->next) {
            if (strncmp((const char *)a->name, "cost", 4) != 0)
                continue;
            char *v = xml_attr(n, (const char *)a->name);
            psf_micro m;
            const char *why = NULL;
            int bad = !v || fixed_parse_price(v, &m, &why) != 0;
            if (bad) {
                char what[300];
                describe(n, what, sizeof what);
                psf_fail(err, ST_BAD_INPUT, "%s:%ld: %s: %s=\"%.100s\" %s (" PRICE_RULE ")",
                         name, xmlGetLineNo(n), what, (const char *)a->name,
                         v ? v : "", why ? why : "is missing");
            }
            xmlFree(v);
            if (bad)
                return -1;
        }
        if (check_prices(xml_first_elem(n), name, err) != 0)
            return -1;
    }
    return 0;
}

/* Parse an attribute already known to hold a valid price. */
static psf_micro price_of(xmlNodePtr n, const char *attr)
{
    char *v = xml_attr(n, attr);        /* absent: 0 */
    psf_micro m = 0;
    const char *why;
    if (v && fixed_parse_price(v, &m, &why) != 0)
        m = 0;   /* unreachable: check_prices accepted every cost* attribute */
    xmlFree(v);
    return m;
}

/* A cpuNumber attribute (the schema allows 1..9 digits), or -1 when absent. */
static long cpu_number(xmlNodePtr n, const char *attr)
{
    char *v = xml_attr(n, attr);
    long r = v ? strtol(v, NULL, 10) : -1;
    xmlFree(v);
    return r;
}

/* Copy an attribute into an owned C string (NULL when absent). */
static char *dup_attr(xmlNodePtr n, const char *attr)
{
    char *v = xml_attr(n, attr);
    char *s = v ? xstrdup(v) : NULL;
    xmlFree(v);
    return s;
}

static int load_root(cost_table *t, xmlNodePtr root, const char *name, psf_err *err)
{
    static const char *const calib[] = {
        "cpu_model", "tsc_hz", "jdk_version", "jvm_flags", "date", "fit_r2", "isolated_core"
    };
    char *cal = xml_attr(root, "calibrated");
    char *tsc, *iso;

    t->unit = dup_attr(root, "unit");
    t->calibrated = cal && strcmp(cal, "true") == 0;
    xmlFree(cal);
    t->cpu_model = dup_attr(root, "cpu_model");
    t->jdk_version = dup_attr(root, "jdk_version");
    t->jvm_flags = dup_attr(root, "jvm_flags");
    t->date = dup_attr(root, "date");
    t->fit_r2 = dup_attr(root, "fit_r2");
    t->cpu_vendor = dup_attr(root, "cpu_vendor");
    t->cpu_family = cpu_number(root, "cpu_family");
    t->cpu_model_number = cpu_number(root, "cpu_model_number");
    t->cpu_stepping = cpu_number(root, "cpu_stepping");
    tsc = xml_attr(root, "tsc_hz");
    if (tsc && fixed_parse_u64(tsc, &t->tsc_hz) != 0)
        t->tsc_hz = 0;   /* unreachable: the schema allows 1..19 digits */
    xmlFree(tsc);
    iso = xml_attr(root, "isolated_core");
    t->isolated_core = iso && strcmp(iso, "true") == 0;
    xmlFree(iso);

    if (!t->calibrated)
        return 0;
    if (strcmp(t->unit, "cycles") != 0)
        return psf_fail(err, ST_BAD_INPUT, "%s:%ld: a calibrated table must have unit=\"cycles\", not \"%s\"",
                        name, xmlGetLineNo(root), t->unit);
    for (unsigned i = 0; i < sizeof calib / sizeof calib[0]; i++)
        if (!xmlHasProp(root, (const xmlChar *)calib[i]))
            return psf_fail(err, ST_BAD_INPUT,
                            "%s:%ld: a calibrated table must say %s= (the machine and run that measured it)",
                            name, xmlGetLineNo(root), calib[i]);
    return 0;
}

static void push(cost_list *l, xmlNodePtr n, const char *key, psf_micro cost, psf_micro per)
{
    xgrow((void **)&l->v, &l->cap, l->n, sizeof *l->v);
    l->v[l->n].key = xstrdup(key);
    l->v[l->n].cost = cost;
    l->v[l->n].per_element = per;
    l->v[l->n].has_per_element = xmlHasProp(n, (const xmlChar *)"cost_per_element") != NULL;
    l->v[l->n].line = xmlGetLineNo(n);
    l->n++;
}

/* Sort a list; two entries with one key are an error naming both lines. */
static int sort_unique(cost_list *l, const char *what, const char *name, psf_err *err)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_entry);
    for (size_t i = 1; i < l->n; i++)
        if (strcmp(l->v[i - 1].key, l->v[i].key) == 0) {
            long a = l->v[i - 1].line, b = l->v[i].line;
            return psf_fail(err, ST_BAD_INPUT, "%s:%ld: duplicate entry %s:%s (also at line %ld)",
                            name, a > b ? a : b, what, l->v[i].key, a > b ? b : a);
        }
    return 0;
}

/* An entry of which a table has at most one (<ldc constant="class">): its
 * price, or a "duplicate" failure naming both lines. */
static int single_entry(xmlNodePtr n, const char *key, int *has, psf_micro *price, long *line,
                        const char *name, psf_err *err)
{
    if (*has)
        return psf_fail(err, ST_BAD_INPUT, "%s:%ld: duplicate entry %s (also at line %ld)",
                        name, xmlGetLineNo(n), key, *line);
    *has = 1;
    *price = price_of(n, "cost");
    *line = xmlGetLineNo(n);
    return 0;
}

/* An entry keyed by its kind attribute (<branch kind>, <call kind>): its
 * price at the kind's index, or a "duplicate" failure naming both lines. */
static int kind_entry(xmlNodePtr n, const char *elem, const char *(*kind_name)(int), int nkinds,
                      unsigned char *has, psf_micro *price, long *line, const char *name, psf_err *err)
{
    char *kind = xml_attr(n, "kind");   /* the schema allows only the known kinds */
    int k = 0;
    while (k < nkinds - 1 && (!kind || strcmp(kind, kind_name(k)) != 0))
        k++;
    xmlFree(kind);
    if (has[k])
        return psf_fail(err, ST_BAD_INPUT, "%s:%ld: duplicate entry %s:%s (also at line %ld)",
                        name, xmlGetLineNo(n), elem, kind_name(k), line[k]);
    has[k] = 1;
    price[k] = price_of(n, "cost");
    line[k] = xmlGetLineNo(n);
    return 0;
}

static int load_entries(cost_table *t, xmlNodePtr root, const char *name, psf_err *err)
{
    long opcode_line[256] = { 0 };
    long branch_line[BRANCH_KINDS] = { 0 };
    long call_line[CALLK_KINDS] = { 0 };
    long ldc_line = 0;

    for (xmlNodePtr n = xml_first_elem(root); n; n = xml_next_elem(n)) {
        if (xml_is(n, "default")) {
            t->default_cost = price_of(n, "cost");
        } else if (xml_is(n, "opcode")) {
            char *mn = xml_attr(n, "name");
            int op = mn ? bc_opcode(mn) : -1;
            if (op < 0 || !(bc_flags((uint8_t)op) & BCF_VALID)) {
                psf_fail(err, ST_BAD_INPUT, "%s:%ld: <opcode name=\"%.100s\">: not a JVMS opcode mnemonic",
                         name, xmlGetLineNo(n), mn ? mn : "");
                xmlFree(mn);
                return -1;
            }
            if (t->has_opcode[op]) {
                psf_fail(err, ST_BAD_INPUT, "%s:%ld: duplicate entry opcode:%s (also at line %ld)",
                         name, xmlGetLineNo(n), mn, opcode_line[op]);
                xmlFree(mn);
                return -1;
            }
            xmlFree(mn);
            t->has_opcode[op] = 1;
            t->opcode[op] = price_of(n, "cost");
            opcode_line[op] = xmlGetLineNo(n);
        } else if (xml_is(n, "branch")) {
            if (kind_entry(n, "branch", costs_branch_kind, BRANCH_KINDS, t->has_branch, t->branch, branch_line,
                           name, err) != 0)
                return -1;
        } else if (xml_is(n, "call")) {
            if (kind_entry(n, "call", costs_call_kind, CALLK_KINDS, t->has_call, t->call, call_line, name, err) != 0)
                return -1;
        } else if (xml_is(n, "ldc")) {   /* the schema allows constant="class" only */
            if (single_entry(n, "ldc:class", &t->has_ldc_class, &t->ldc_class, &ldc_line, name, err) != 0)
                return -1;
        } else {
            const char *ka = key_attr(n);
            cost_list *l = xml_is(n, "array") ? &t->arrays : xml_is(n, "new") ? &t->news : &t->invokes;
            char *key = ka ? xml_attr(n, ka) : NULL;
            if (!key)    /* unreachable after the schema */
                return psf_fail(err, ST_BAD_INPUT, "%s:%ld: unexpected <%s>",
                                name, xmlGetLineNo(n), (const char *)n->name);
            push(l, n, key, price_of(n, "cost"), price_of(n, "cost_per_element"));
            xmlFree(key);
        }
    }
    if (sort_unique(&t->arrays, "array", name, err) != 0 ||
        sort_unique(&t->news, "new", name, err) != 0 ||
        sort_unique(&t->invokes, "invoke", name, err) != 0)
        return -1;
    return 0;
}

int costs_load_memory(cost_table *t, const char *name,
                      const unsigned char *bytes, size_t len, psf_err *err)
{
    xmlDocPtr doc = NULL;
    xmlNodePtr root;
    int rc = -1;

    memset(t, 0, sizeof *t);
    if (xml_parse(name, bytes, len, &doc, err) != 0)
        goto out;
    root = xmlDocGetRootElement(doc);
    if (!xml_is(root, "costs")) {
        psf_fail(err, ST_BAD_INPUT, "%s:%ld: not a cost table: the root element is <%.100s>, not <costs>",
                 name, xmlGetLineNo(root), (const char *)root->name);
        goto out;
    }
    if (check_prices(root, name, err) != 0 ||
        xml_validate(doc, name, psf_costs_xsd, psf_costs_xsd_len, err) != 0 ||
        load_root(t, root, name, err) != 0 ||
        load_entries(t, root, name, err) != 0)
        goto out;
    t->path = xstrdup(name);
    sha256_hex(bytes, len, t->sha256);
    rc = 0;
out:
    xmlFreeDoc(doc);
    if (rc != 0)
        costs_free(t);
    return rc;
}

int costs_load_file(cost_table *t, const char *path, psf_err *err)
{
    unsigned char *bytes;
    size_t len;
    int rc;

    memset(t, 0, sizeof *t);
    if (xml_read_file(path, &bytes, &len, err) != 0)
        return -1;
    rc = costs_load_memory(t, path, bytes, len, err);
    free(bytes);
    return rc;
}
