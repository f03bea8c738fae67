/*
 * outcmp.c - the program's output judged against the expected output (see
 * outcmp.h). Both sides are walked line by line in place: no copy, no
 * allocation, any byte allowed.
 */
#include "outcmp.h"

#include <stdio.h>
#include <string.h>

typedef struct cursor {
    const unsigned char *buf;
    size_t len, pos;
} cursor;

typedef struct line {
    const unsigned char *p;
    size_t len;     /* without its '\n' (and, when trimming, its trailing white space) */
    int newline;    /* ended by '\n' (not the end of the output) */
} line;

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* 1 when nothing (with trim: nothing but white space and newlines) is left. */
static int at_end(const cursor *c, int trim)
{
    if (!trim)
        return c->pos >= c->len;
    for (size_t i = c->pos; i < c->len; i++)
        if (c->buf[i] != '\n' && !is_space(c->buf[i]))
            return 0;
    return 1;
}

static void next_line(cursor *c, int trim, line *l)
{
    const unsigned char *start = c->buf + c->pos;
    const unsigned char *nl = memchr(start, '\n', c->len - c->pos);
    l->p = start;
    l->len = nl ? (size_t)(nl - start) : c->len - c->pos;
    l->newline = nl != NULL;
    c->pos += l->len + (nl != NULL);
    while (trim && l->len > 0 && is_space(l->p[l->len - 1]))
        l->len--;
}

/* 'text' with \n, \r, \t, \\, \' and other unprintable bytes escaped, cut
 * after OUTCMP_QUOTE_MAX bytes ("..." then). */
static void quote(const line *l, char *out, size_t n)
{
    size_t k = 0, shown = l->len < OUTCMP_QUOTE_MAX ? l->len : OUTCMP_QUOTE_MAX;
    char esc[8];
    out[k++] = '\'';
    for (size_t i = 0; i < shown; i++) {
        unsigned char ch = l->p[i];
        if (ch == '\\' || ch == '\'')
            snprintf(esc, sizeof esc, "\\%c", ch);
        else if (ch == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else if (ch == '\r')
            snprintf(esc, sizeof esc, "\\r");
        else if (ch < 0x20 || ch >= 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", ch);
        else
            snprintf(esc, sizeof esc, "%c", ch);
        for (const char *e = esc; *e && k + 5 < n; e++)
            out[k++] = *e;
    }
    if (shown < l->len && k + 5 < n) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k++] = '\'';
    out[k] = '\0';
}

int outcmp_equal(const unsigned char *expected, size_t elen, const unsigned char *got, size_t glen,
                 int ignore_trailing_space, char *msg, size_t n)
{
    cursor e = { expected, elen, 0 }, g = { got, glen, 0 };
    int trim = ignore_trailing_space != 0;
    char qe[OUTCMP_QUOTE_MAX * 4 + 8], qg[OUTCMP_QUOTE_MAX * 4 + 8];
    if (n > 0)
        msg[0] = '\0';
    for (unsigned long no = 1;; no++) {
        int e_end = at_end(&e, trim), g_end = at_end(&g, trim);
        line le, lg;
        if (e_end && g_end)
            return 1;
        if (e_end) {
            next_line(&g, trim, &lg);
            quote(&lg, qg, sizeof qg);
            snprintf(msg, n, "line %lu: expected the end of the output, got %s", no, qg);
            return 0;
        }
        next_line(&e, trim, &le);
        quote(&le, qe, sizeof qe);
        if (g_end) {
            snprintf(msg, n, "line %lu: expected %s, got the end of the output", no, qe);
            return 0;
        }
        next_line(&g, trim, &lg);
        quote(&lg, qg, sizeof qg);
        if (le.len != lg.len || memcmp(le.p, lg.p, le.len) != 0) {
            snprintf(msg, n, "line %lu: expected %s, got %s", no, qe, qg);
            return 0;
        }
        if (!trim && le.newline != lg.newline) {
            if (le.newline)
                snprintf(msg, n, "line %lu: expected %s and a newline, got %s at the end of the output without one",
                         no, qe, qg);
            else
                snprintf(msg, n, "line %lu: expected %s at the end of the output without a newline, got %s and a newline",
                         no, qe, qg);
            return 0;
        }
    }
}
