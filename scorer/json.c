/*
 * json.c - exact numbers, byte-safe strings and the writer on top of
 * jansson (see json.h for why numbers need a tag).
 */
#include "json.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one:
 * overlong forms, surrogates and code points above U+10FFFF are not. */
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

/* A malloc'd copy of s with every byte that starts no valid UTF-8
 * sequence replaced by U+FFFD (EF BF BD). */
static char *utf8_repair(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char *out = xmalloc(strlen(s) * 3 + 1), *o = out;

    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            p++;
        } else {
            memcpy(o, p, n);
            o += n;
            p += n;
        }
    }
    *o = '\0';
    return out;
}

json_t *psf_json_string(const char *s)
{
    if (!s)
        return json_null();
    json_t *v = json_string(s); /* NULL: not valid UTF-8 */
    if (!v) {
        char *fixed = utf8_repair(s);
        v = json_string(fixed);
        free(fixed);
    }
    return v;
}

/* 1 when text is digits, optionally followed by '.' and digits. */
static int plain_decimal(const char *text)
{
    const char *p = text;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p == text)
        return 0;
    if (*p == '.') {
        const char *f = ++p;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p == f)
            return 0;
    }
    return *p == '\0';
}

/* The tagged string that stands for the number `text` (json.h). */
static json_t *exact_number(const char *text)
{
    size_t len = strlen(text);
    char *tagged = xmalloc(len + 2);
    tagged[0] = '\0';
    memcpy(tagged + 1, text, len + 1);
    json_t *v = json_stringn(tagged, len + 1);
    free(tagged);
    return v;
}

json_t *psf_json_number(const char *text)
{
    if (!text)
        return json_null();
    if (!plain_decimal(text))
        return psf_json_string(text);
    return exact_number(text);
}

json_t *psf_json_u64(uint64_t v)
{
    char buf[24];

    if (v <= (uint64_t)LLONG_MAX)
        return json_integer((json_int_t)v);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return exact_number(buf);
}

/*
 * jansson's text of a tagged number is a string literal that opens with
 * the escape \u0000 (the NUL) followed by the number's digits and '.',
 * which need no escaping. Copy `text` to f with each such literal replaced
 * by the bare number; every other literal, keys included, is copied as it
 * is, escapes and all.
 */
static void write_untagged(FILE *f, const char *text)
{
    static const char tag[] = "\"\\u0000";
    const char *p = text;

    while (*p) {
        if (*p != '"') {
            fputc(*p++, f);
        } else if (strncmp(p, tag, sizeof tag - 1) == 0) {
            const char *num = p + sizeof tag - 1, *end = strchr(num, '"');
            fwrite(num, 1, (size_t)(end - num), f);
            p = end + 1;
        } else {
            fputc(*p++, f); /* the opening quote, then up to the closing one */
            while (*p && *p != '"') {
                if (*p == '\\')
                    fputc(*p++, f);
                fputc(*p++, f);
            }
            if (*p)
                fputc(*p++, f);
        }
    }
}

int psf_json_write(FILE *f, const json_t *v)
{
    char *text = json_dumps(v, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    if (!text)
        return -1;
    write_untagged(f, text);
    fputc('\n', f);
    free(text);
    return 0;
}

void psf_json_init(void)
{
    json_set_alloc_funcs(xmalloc, free);
}
