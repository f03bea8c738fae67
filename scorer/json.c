/*
 * json.c - JSON tree and writer (see json.h).
 */
#include "json.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

enum json_kind { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct json {
    enum json_kind kind;
    int boolean;          /* J_BOOL */
    char *text;           /* J_NUMBER, J_STRING: owned */
    char **keys;          /* J_OBJECT: owned, parallel to items */
    json **items;         /* J_ARRAY, J_OBJECT: owned */
    size_t n, cap;
};

static json *make(enum json_kind kind)
{
    json *v = xcalloc(1, sizeof *v);
    v->kind = kind;
    return v;
}

json *json_object(void) { return make(J_OBJECT); }
json *json_array(void)  { return make(J_ARRAY); }
json *json_null(void)   { return make(J_NULL); }

json *json_bool(int b)
{
    json *v = make(J_BOOL);
    v->boolean = b != 0;
    return v;
}

json *json_string(const char *s)
{
    if (!s)
        return json_null();
    json *v = make(J_STRING);
    v->text = xstrdup(s);
    return v;
}

json *json_number(const char *text)
{
    json *v = make(J_NUMBER);
    v->text = xstrdup(text);
    return v;
}

json *json_u64(uint64_t u)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)u);
    return json_number(buf);
}

static void append(json *c, json *val)
{
    size_t cap = c->cap;
    xgrow((void **)&c->items, &cap, c->n, sizeof *c->items);
    if (c->kind == J_OBJECT) {
        size_t kcap = c->cap;
        xgrow((void **)&c->keys, &kcap, c->n, sizeof *c->keys);
    }
    c->cap = cap;
    c->items[c->n++] = val;
}

void json_set(json *obj, const char *key, json *val)
{
    assert(obj->kind == J_OBJECT);
    for (size_t i = 0; i < obj->n; i++)
        assert(strcmp(obj->keys[i], key) != 0);
    append(obj, val);
    obj->keys[obj->n - 1] = xstrdup(key);
}

void json_push(json *arr, json *val)
{
    assert(arr->kind == J_ARRAY);
    append(arr, val);
}

void json_free(json *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    free(v);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;

    if (c < 0x80)
        return 1;
    else if ((c & 0xe0) == 0xc0) { n = 2; min = 0x80; c &= 0x1f; }
    else if ((c & 0xf0) == 0xe0) { n = 3; min = 0x800; c &= 0x0f; }
    else if ((c & 0xf8) == 0xf0) { n = 4; min = 0x10000; c &= 0x07; }
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    return n;
}

void json_write_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    fputc('"', f);
    while (*p) {
        unsigned char c = *p;
        size_t n;
        switch (c) {
        case '"':  fputs("\\\"", f); p++; continue;
        case '\\': fputs("\\\\", f); p++; continue;
        case '\n': fputs("\\n", f); p++; continue;
        case '\r': fputs("\\r", f); p++; continue;
        case '\t': fputs("\\t", f); p++; continue;
        case '\b': fputs("\\b", f); p++; continue;
        case '\f': fputs("\\f", f); p++; continue;
        default:
            break;
        }
        if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
            p++;
        } else if ((n = utf8_len(p)) == 0) {
            fputs("\\ufffd", f);
            p++;
        } else {
            fwrite(p, 1, n, f);
            p += n;
        }
    }
    fputc('"', f);
}

/* One member of an object, for sorting without touching the tree. */
typedef struct member {
    const char *key;
    const json *val;
} member;

static int cmp_member(const void *a, const void *b)
{
    return strcmp(((const member *)a)->key, ((const member *)b)->key);
}

static void indent(FILE *f, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", f);
}

static void write_value(FILE *f, const json *v, int depth)
{
    switch (v->kind) {
    case J_NULL:   fputs("null", f); break;
    case J_BOOL:   fputs(v->boolean ? "true" : "false", f); break;
    case J_NUMBER: fputs(v->text, f); break;
    case J_STRING: json_write_string(f, v->text); break;
    case J_ARRAY:
        if (v->n == 0) {
            fputs("[]", f);
            break;
        }
        fputs("[\n", f);
        for (size_t i = 0; i < v->n; i++) {
            indent(f, depth + 1);
            write_value(f, v->items[i], depth + 1);
            fputs(i + 1 < v->n ? ",\n" : "\n", f);
        }
        indent(f, depth);
        fputc(']', f);
        break;
    case J_OBJECT: {
        if (v->n == 0) {
            fputs("{}", f);
            break;
        }
        member *m = xmalloc(v->n * sizeof *m);
        for (size_t i = 0; i < v->n; i++) {
            m[i].key = v->keys[i];
            m[i].val = v->items[i];
        }
        qsort(m, v->n, sizeof *m, cmp_member);
        fputs("{\n", f);
        for (size_t k = 0; k < v->n; k++) {
            indent(f, depth + 1);
            json_write_string(f, m[k].key);
            fputs(": ", f);
            write_value(f, m[k].val, depth + 1);
            fputs(k + 1 < v->n ? ",\n" : "\n", f);
        }
        free(m);
        indent(f, depth);
        fputc('}', f);
        break;
    }
    }
}

void json_write(FILE *f, const json *v)
{
    write_value(f, v, 0);
    fputc('\n', f);
}
